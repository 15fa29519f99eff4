package shquote

import "strings"

// safe reports whether c needs no quoting in any position of a word but
// the first (see assignment).
func safe(c byte) bool {
	switch {
	case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		return true
	}
	return strings.IndexByte("_./:=@%+,-", c) >= 0
}

// assignment reports whether s, as the first word of a command, would
// assign a variable (NAME=…) instead of naming the command.
func assignment(s string) bool {
	name, _, ok := strings.Cut(s, "=")
	if !ok || name == "" || '0' <= name[0] && name[0] <= '9' {
		return false
	}
	for i := 0; i < len(name); i++ {
		if c := name[i]; c != '_' && !('a' <= c && c <= 'z') && !('A' <= c && c <= 'Z') && !('0' <= c && c <= '9') {
			return false
		}
	}
	return true
}

// Quote returns s as one shell word that the shell reads back as s.
func Quote(s string) string {
	if s == "" {
		return "''"
	}
	plain := !assignment(s)
	for i := 0; plain && i < len(s); i++ {
		plain = safe(s[i])
	}
	if plain {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// Join returns the command line of args, each quoted, separated by
// spaces.
func Join(args ...string) string {
	q := make([]string, len(args))
	for i, a := range args {
		q[i] = Quote(a)
	}
	return strings.Join(q, " ")
}
