package convert

import (
	"strings"
)

// codes returns the codes of the findings about documents (not the
// once-per-run ones), in order.
func codes(ds []Diagnostic) []Code {
	var out []Code
	for _, d := range ds {
		if d.Document >= 0 {
			out = append(out, d.Code)
		}
	}
	return out
}

// render formats findings one per line, as the CLI prints them.
func render(ds []Diagnostic) string {
	var b strings.Builder
	for _, d := range ds {
		b.WriteString(d.String())
		b.WriteByte('\n')
	}
	return b.String()
}
