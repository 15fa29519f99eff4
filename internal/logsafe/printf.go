package logsafe

import (
	"fmt"
	"io"
)

// Sprintf is fmt.Sprintf with every argument printed by %s or %v that is
// a string, an error or a fmt.Stringer escaped by Escape first: the format
// is the program's text, the arguments are data. Arguments printed by other
// verbs (%d, %q, which escapes on its own) are left alone.
func Sprintf(format string, args ...any) string {
	return fmt.Sprintf(format, escapeArgs(format, args)...)
}

// Fprintf is Sprintf written to w.
func Fprintf(w io.Writer, format string, args ...any) (int, error) {
	return io.WriteString(w, Sprintf(format, args...))
}

// escapeArgs returns args with those printed by %s or %v escaped. A format
// with explicit argument indexes ("%[2]s") has every such argument escaped,
// whatever its verb.
func escapeArgs(format string, args []any) []any {
	if len(args) == 0 {
		return args
	}
	out := make([]any, len(args))
	copy(out, args)
	n := 0 // the next argument
	for i := 0; i < len(format); i++ {
		if format[i] != '%' {
			continue
		}
		i++
		// Flags, width and precision; '*' takes an argument.
		for ; i < len(format); i++ {
			c := format[i]
			if c == '[' {
				for j := range out {
					out[j] = escapeArg(out[j])
				}
				return out
			}
			if c == '*' {
				n++
				continue
			}
			if c == '+' || c == '-' || c == '#' || c == ' ' || c == '0' || c == '.' || (c >= '1' && c <= '9') {
				continue
			}
			break
		}
		if i >= len(format) || format[i] == '%' {
			continue
		}
		if n < len(out) && (format[i] == 's' || format[i] == 'v') {
			out[n] = escapeArg(out[n])
		}
		n++
	}
	return out
}

func escapeArg(a any) any {
	switch v := a.(type) {
	case string:
		return Escape(v)
	case error:
		return Escape(v.Error())
	case fmt.Stringer:
		return Escape(v.String())
	}
	return a
}
