package logsafe

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Escape returns s fit to be printed within one line of a terminal or a CI
// log: control characters (C0 but space, DEL, C1), Unicode line and
// paragraph separators and bidirectional controls are shown as Go escapes
// (`\n`, `\r`, `\t`, `\x1b`, `\u009b`, `\u2028`), bytes that are not UTF-8
// as `\xNN`, and a leading "::" (after spaces), which a CI runner would read
// as a workflow command, starts with `\x3a` instead. Every other character
// is kept, backslashes too. s is returned as is when nothing needs escaping.
func Escape(s string) string {
	return escape(s, false)
}

// Lines escapes each line of s as Escape does, keeping the line breaks
// ("\n") between them: for text of several lines the program built, such
// as an error message, whose lines no name inside can turn into a control
// sequence or a workflow command.
func Lines(s string) string {
	if !strings.Contains(s, "\n") {
		return escape(s, false)
	}
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = escape(l, false)
	}
	return strings.Join(lines, "\n")
}

// GitHub Actions decodes these in a workflow command's message and property
// values; '%' comes first so the escapes it introduces stay literal.
var (
	workflowData     = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A")
	workflowProperty = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C")
)

// WorkflowData escapes the message of a GitHub workflow command
// (`::error file=…::MESSAGE`): '%', CR and LF as %25, %0D and %0A (the
// annotation shows the line breaks), every other control character as
// Escape shows it.
func WorkflowData(s string) string {
	return workflowData.Replace(escape(s, true))
}

// WorkflowProperty escapes a property value of a GitHub workflow command
// (file, title): as WorkflowData, and ':' and ',' (which end a value) as
// %3A and %2C.
func WorkflowProperty(s string) string {
	return workflowProperty.Replace(escape(s, true))
}

// escape is Escape; with breaks it keeps CR and LF (which the caller
// escapes its own way) and leaves a leading "::" alone.
func escape(s string, breaks bool) string {
	start := -1
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if needsEscape(r, n, breaks) {
			start = i
			break
		}
		i += n
	}
	lead := !breaks && workflowCommand(s)
	if start < 0 && !lead {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	i := 0
	if lead {
		j := strings.IndexByte(s, ':')
		b.WriteString(s[:j])
		b.WriteString(`\x3a`)
		i = j + 1
	}
	for i < len(s) {
		r, n := utf8.DecodeRuneInString(s[i:])
		if !needsEscape(r, n, breaks) {
			b.WriteString(s[i : i+n])
			i += n
			continue
		}
		switch {
		case r == utf8.RuneError && n == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x80:
			fmt.Fprintf(&b, `\x%02x`, r)
		default:
			fmt.Fprintf(&b, `\u%04x`, r)
		}
		i += n
	}
	return b.String()
}

// needsEscape reports whether the rune r (n bytes long) must be escaped.
func needsEscape(r rune, n int, breaks bool) bool {
	switch {
	case r == utf8.RuneError && n == 1:
		return true
	case r == '\n' || r == '\r':
		return !breaks
	case r < 0x20 || r == 0x7f: // C0 (tab too: it can hide what follows) and DEL
		return true
	case r >= 0x80 && r <= 0x9f: // C1, CSI (0x9b) and NEL (0x85) among them
		return true
	case r == 0x2028 || r == 0x2029: // line and paragraph separators
		return true
	case r == 0x061c || r == 0x200e || r == 0x200f || (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069):
		// Bidirectional controls, which reorder what a reader sees.
		return true
	}
	return false
}

// workflowCommand reports whether s starts, after spaces, with "::": a
// line a CI runner reads as a workflow command.
func workflowCommand(s string) bool {
	return strings.HasPrefix(strings.TrimLeft(s, " "), "::")
}

// Unsafe reports whether the line s holds what Escape escapes: a control
// character, a line break or separator, a bidirectional control, a byte
// that is not UTF-8, or a leading "::". Tests use it on what a command
// printed, line by line.
func Unsafe(s string) bool {
	if workflowCommand(s) {
		return true
	}
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if needsEscape(r, n, false) {
			return true
		}
		i += n
	}
	return false
}
