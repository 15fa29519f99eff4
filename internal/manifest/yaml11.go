package manifest

import "regexp"

var (
	yaml11Int   = regexp.MustCompile(`^[-+]?(0b[01_]+|0[0-7_]+|(0|[1-9][0-9_]*)|0x[0-9a-fA-F_]+|[1-9][0-9_]*(:[0-5]?[0-9])+)$`)
	yaml11Float = regexp.MustCompile(`^([-+]?([0-9][0-9_]*)?\.[0-9_]*([eE][-+]?[0-9]+)?|[-+]?[0-9][0-9_]*([eE][-+]?[0-9]+)|[-+]?[0-9][0-9_]*(:[0-5]?[0-9])+\.[0-9_]*|[-+]?\.(inf|Inf|INF)|\.(nan|NaN|NAN))$`)
)

// IsYAML11Special reports whether a plain scalar s would be read as
// something other than a string by a YAML 1.1 reader (kubectl's), or by a
// YAML 1.2 one: booleans, nulls, numbers (octal, hex, binary, base 60) and
// the empty string.
func IsYAML11Special(s string) bool {
	switch s {
	case "", "~", "null", "Null", "NULL",
		"y", "Y", "yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON",
		"n", "N", "no", "No", "NO", "false", "False", "FALSE", "off", "Off", "OFF":
		return true
	}
	if s == "." || s == "_" {
		return false
	}
	// Every number either pattern matches starts with a sign, a digit or a
	// dot; most scalars do not, and the regexps are the expensive part.
	if c := s[0]; (c < '0' || c > '9') && c != '-' && c != '+' && c != '.' {
		return false
	}
	return yaml11Int.MatchString(s) || yaml11Float.MatchString(s)
}
