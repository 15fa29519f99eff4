package logsafe

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

func TestEscape(t *testing.T) {
	cases := map[string]struct {
		reason string
		in     string
		want   string
	}{
		"Plain": {
			reason: "A name without special characters is unchanged.",
			in:     "xpostgres.aws.example.org",
			want:   "xpostgres.aws.example.org",
		},
		"Unicode": {
			reason: "Printable non-ASCII text, backslashes and inner colons are kept.",
			in:     `naïve C:\repo ∑ a::b`,
			want:   `naïve C:\repo ∑ a::b`,
		},
		"NewlineWorkflowCommand": {
			reason: "A line break cannot start a new line, so no workflow command follows it.",
			in:     "x\n::set-output name=ok::true",
			want:   `x\n::set-output name=ok::true`,
		},
		"CarriageReturn": {
			reason: "A carriage return would let the rest overwrite the line.",
			in:     "ok\rFAIL",
			want:   `ok\rFAIL`,
		},
		"Tab": {
			reason: "A tab is shown, not expanded.",
			in:     "a\tb",
			want:   `a\tb`,
		},
		"ESC": {
			reason: "An ESC sequence is shown, not interpreted.",
			in:     "\x1b[31mred\x1b]0;title\x07",
			want:   `\x1b[31mred\x1b]0;title\x07`,
		},
		"DEL": {
			reason: "DEL is a control character.",
			in:     "a\x7fb",
			want:   `a\x7fb`,
		},
		"C1CSI": {
			reason: "The C1 CSI (U+009B), encoded in UTF-8, starts a sequence on some terminals.",
			in:     "a\u009b31mb\u0085c",
			want:   `a\u009b31mb\u0085c`,
		},
		"RawC1Byte": {
			reason: "A raw 0x9b byte is not UTF-8, and is shown as its byte.",
			in:     "a\x9b31m",
			want:   `a\x9b31m`,
		},
		"LineSeparator": {
			reason: "U+2028 and U+2029 break lines in some viewers.",
			in:     "a\u2028b\u2029c",
			want:   `a\u2028b\u2029c`,
		},
		"Bidi": {
			reason: "Bidirectional overrides reorder what a reader sees.",
			in:     "a\u202eb\u2066c",
			want:   `a\u202eb\u2066c`,
		},
		"LeadingWorkflowCommand": {
			reason: "A value printed at the start of a line cannot be read as a workflow command.",
			in:     "::error::pwned",
			want:   `\x3a:error::pwned`,
		},
		"LeadingSpacesWorkflowCommand": {
			reason: "The runner trims leading spaces before it looks for '::'.",
			in:     "  ::warning::x",
			want:   `  \x3a:warning::x`,
		},
		"NUL": {
			reason: "NUL is a control character.",
			in:     "a\x00b",
			want:   `a\x00b`,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got := Escape(tc.in)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s\nEscape(%q): -want, +got:\n%s", tc.reason, tc.in, diff)
			}
		})
	}
}

func TestLines(t *testing.T) {
	cases := map[string]struct {
		reason string
		in     string
		want   string
	}{
		"KeepsBreaks": {
			reason: "The program's own line breaks are kept.",
			in:     "cannot parse:\n  line 3: bad",
			want:   "cannot parse:\n  line 3: bad",
		},
		"EveryLine": {
			reason: "No line may start a workflow command, and controls are shown on every line.",
			in:     "first \x1b[2J\n::set-output name=a::b\n ::error::c",
			want:   "first \\x1b[2J\n\\x3a:set-output name=a::b\n \\x3a:error::c",
		},
		"CR": {
			reason: "A carriage return is not a line break here: it is shown.",
			in:     "a\r\nb",
			want:   "a\\r\nb",
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got := Lines(tc.in)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s\nLines(%q): -want, +got:\n%s", tc.reason, tc.in, diff)
			}
		})
	}
}

func TestWorkflow(t *testing.T) {
	cases := map[string]struct {
		reason       string
		in           string
		wantData     string
		wantProperty string
	}{
		"Plain": {
			reason:   "Text without special characters is unchanged.",
			in:       "Composition x differs",
			wantData: "Composition x differs", wantProperty: "Composition x differs",
		},
		"PercentFirst": {
			reason:   "'%' is escaped before the escapes it introduces, so %0A in the text stays literal.",
			in:       "100% %0A",
			wantData: "100%25 %250A", wantProperty: "100%25 %250A",
		},
		"LineBreaks": {
			reason:   "CR and LF would end the command.",
			in:       "a\r\n::set-output name=x::y",
			wantData: "a%0D%0A::set-output name=x::y", wantProperty: "a%0D%0A%3A%3Aset-output name=x%3A%3Ay",
		},
		"ColonComma": {
			reason:   "':' and ',' separate properties, so only property values escape them.",
			in:       "D21: a, b",
			wantData: "D21: a, b", wantProperty: "D21%3A a%2C b",
		},
		"Controls": {
			reason:   "Other control characters would colour or move the log's cursor.",
			in:       "\x1b[31mred\u009b\u2028",
			wantData: `\x1b[31mred\u009b\u2028`, wantProperty: `\x1b[31mred\u009b\u2028`,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.wantData, WorkflowData(tc.in)); diff != "" {
				t.Errorf("%s\nWorkflowData(%q): -want, +got:\n%s", tc.reason, tc.in, diff)
			}
			if diff := cmp.Diff(tc.wantProperty, WorkflowProperty(tc.in)); diff != "" {
				t.Errorf("%s\nWorkflowProperty(%q): -want, +got:\n%s", tc.reason, tc.in, diff)
			}
		})
	}
}

// FuzzEscape checks that Escape's output never holds a control character,
// a line break or a leading workflow command, whatever the input.
func FuzzEscape(f *testing.F) {
	for _, s := range []string{"x\n::set-output name=a::b", "\x1b[31m", "\r", "\u2028", "\x9b", " ::x", "plain"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := Escape(s)
		if Unsafe(got) {
			t.Fatalf("Escape(%q) = %q: still unsafe", s, got)
		}
		if !utf8.ValidString(got) {
			t.Fatalf("Escape(%q) = %q: not UTF-8", s, got)
		}
		if !strings.ContainsAny(s, "\\") && Escape(got) != got {
			// Escaping is idempotent on its own output.
			t.Fatalf("Escape(Escape(%q)) = %q, want %q", s, Escape(got), got)
		}
	})
}

func TestSprintf(t *testing.T) {
	cases := map[string]struct {
		reason string
		format string
		args   []any
		want   string
	}{
		"Strings": {
			reason: "Strings printed with %s and %v are escaped; the format's own line break is kept.",
			format: "skipped %s: %v\n",
			args:   []any{"a\n::x", "b\x1b[31m"},
			want:   "skipped a\\n::x: b\\x1b[31m\n",
		},
		"OtherVerbs": {
			reason: "%d and %q are left to fmt (%q escapes on its own); width arguments are counted.",
			format: "%d %q %*s|%-8s|",
			args:   []any{3, "a\nb", 4, "c\rd", "e"},
			want:   "3 \"a\\nb\" c\\rd|e       |",
		},
		"Errors": {
			reason: "An error is escaped as its message.",
			format: "xpmigrate: %v",
			args:   []any{errString("cannot read \"x\n::error::y\"")},
			want:   `xpmigrate: cannot read "x\n::error::y"`,
		},
		"Percent": {
			reason: "%% takes no argument.",
			format: "100%% %s",
			args:   []any{"\u2028"},
			want:   `100% \u2028`,
		},
		"Indexed": {
			reason: "With explicit argument indexes every string argument is escaped.",
			format: "%[2]s %[1]s",
			args:   []any{"a\n", "b\t"},
			want:   `b\t a\n`,
		},
		"Leading": {
			reason: "A value that would start a workflow command where it is printed is neutralised.",
			format: "%s\n",
			args:   []any{"::set-output name=x::y"},
			want:   "\\x3a:set-output name=x::y\n",
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got := Sprintf(tc.format, tc.args...)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s\nSprintf(%q, ...): -want, +got:\n%s", tc.reason, tc.format, diff)
			}
		})
	}
}

type errString string

func (e errString) Error() string { return string(e) }
