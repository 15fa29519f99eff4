package markdown

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestEscape(t *testing.T) {
	cases := map[string]struct {
		reason string
		s      string
		want   string
	}{
		"Plain":    {reason: "Plain text stays.", s: "team-a/orders", want: "team-a/orders"},
		"HTML":     {reason: "Tags become entities.", s: "<script>x</script>", want: "&lt;script&gt;x&lt;/script&gt;"},
		"Table":    {reason: "A pipe does not add a cell.", s: "a|b", want: `a\|b`},
		"Code":     {reason: "A backtick does not open a code span.", s: "a`b", want: "a\\`b"},
		"Link":     {reason: "](  cannot end a link text.", s: "[x](javascript:1)", want: `[x]\(javascript:1)`},
		"Newline":  {reason: "A line break does not start a block.", s: "a\n# b\r\n```", want: "a # b \\`\\`\\`"},
		"Escape":   {reason: "Terminal escapes are spelled out.", s: "\x1b[31mred\x07", want: `\\x1b[31mred\\x07`},
		"C1":       {reason: "C1 controls are spelled out.", s: "a\u009bb", want: `a\\u009bb`},
		"Tab":      {reason: "A tab stays.", s: "a\tb", want: "a\tb"},
		"NonASCII": {reason: "Other characters stay.", s: "naïve ☃", want: "naïve ☃"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, Escape(tc.s)); diff != "" {
				t.Errorf("\n%s\nEscape(%q): -want, +got:\n%s", tc.reason, tc.s, diff)
			}
		})
	}
}

func TestCode(t *testing.T) {
	cases := map[string]struct {
		reason string
		s      string
		want   string
	}{
		"Plain":     {reason: "One backtick fences plain text.", s: "a", want: "`a`"},
		"Backticks": {reason: "The fence is longer than any run inside.", s: "a``b", want: "```a``b```"},
		"Edge":      {reason: "A backtick at an edge is padded.", s: "`a", want: "`` `a ``"},
		"Empty":     {reason: "An empty span is padded.", s: "", want: "`  `"},
		"Newline":   {reason: "A line break becomes a space.", s: "a\nb", want: "`a b`"},
		"Control":   {reason: "Controls are spelled out.", s: "\x1b", want: "`\\x1b`"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, Code(tc.s)); diff != "" {
				t.Errorf("\n%s\nCode(%q): -want, +got:\n%s", tc.reason, tc.s, diff)
			}
		})
	}
}

// FuzzEscape: escaped text is one line without control characters, HTML
// or a code span.
func FuzzEscape(f *testing.F) {
	for _, s := range []string{"a\nb", "<b>", "`x`", "\x1b[0m", "a|b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		e := Escape(s)
		if strings.ContainsAny(e, "\n\r<>") || strings.ContainsFunc(e, control) {
			t.Errorf("Escape(%q) = %q: a line break, a tag or a control character", s, e)
		}
		for i := 0; i < len(e); i++ {
			if e[i] == '\\' {
				i++
				continue
			}
			if e[i] == '`' || e[i] == '|' {
				t.Errorf("Escape(%q) = %q: an unescaped %q", s, e, e[i])
			}
		}
	})
}
