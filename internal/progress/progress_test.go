package progress

import (
	"bytes"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestLine(t *testing.T) {
	cases := map[string]struct {
		reason string
		tty    bool
		want   string
	}{
		"Terminal": {
			reason: "On a terminal the line is redrawn in place and cleared before a line of its own.",
			tty:    true,
			want:   "\r\x1b[Ka\r\x1b[Kb\r\x1b[Kdone\nafter\n",
		},
		"Plain": {
			reason: "Without a terminal only the lines of their own are written.",
			want:   "done\nafter\n",
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			var b bytes.Buffer
			l := New(&b, tc.tty, 0)
			l.Draw("a")
			l.Draw("b")
			l.Println("done")
			l.Clear()
			l.Println("after")
			if diff := cmp.Diff(tc.want, b.String()); diff != "" {
				t.Errorf("\n%s\nLine output: -want, +got:\n%s", tc.reason, diff)
			}
			if l.Width() != 80 {
				t.Errorf("New(w, tty, 0).Width(): want 80, got %d", l.Width())
			}
		})
	}
}

func TestBar(t *testing.T) {
	cases := map[string]struct {
		reason      string
		done, total int
		want        string
	}{
		"Empty":   {"Nothing done: the head only.", 0, 40, "[>                       ]"},
		"Half":    {"Half done: half the cells.", 20, 40, "[============>           ]"},
		"Full":    {"All done: every cell.", 40, 40, "[========================]"},
		"Over":    {"More than the total (a total that shrank): full, never longer.", 50, 40, "[========================]"},
		"NoTotal": {"Nothing to do: full.", 0, 0, "[========================]"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, Bar(tc.done, tc.total)); diff != "" {
				t.Errorf("\n%s\nBar(%d, %d): -want, +got:\n%s", tc.reason, tc.done, tc.total, diff)
			}
		})
	}
}

func TestFit(t *testing.T) {
	cases := map[string]struct {
		reason string
		s      string
		n      int
		want   string
	}{
		"Fits":  {"A string that fits is kept.", "abc", 3, "abc"},
		"Cut":   {"A longer one is cut, ending in an ellipsis.", "abcdef", 4, "abc…"},
		"Runes": {"Runes count, not bytes.", "≤≤≤≤", 3, "≤≤…"},
		"One":   {"One column holds the ellipsis.", "abc", 1, "…"},
		"Zero":  {"No width: unchanged.", "abc", 0, "abc"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, Fit(tc.s, tc.n)); diff != "" {
				t.Errorf("\n%s\nFit(%q, %d): -want, +got:\n%s", tc.reason, tc.s, tc.n, diff)
			}
		})
	}
}
