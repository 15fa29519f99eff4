package udiff

import (
	"math/rand"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/xpmigrate/xpmigrate/internal/testutil"
)

func TestUnifiedDiff(t *testing.T) {
	cases := map[string]struct {
		reason string
		a, b   string
		want   string
	}{
		"Equal": {
			reason: "Equal texts have no diff.",
			a:      "a\nb\n",
			b:      "a\nb\n",
			want:   "",
		},
		"OneLineChanged": {
			reason: "A change shows three lines of context around it.",
			a:      "1\n2\n3\n4\n5\n6\n7\n8\n",
			b:      "1\n2\n3\n4\nfive\n6\n7\n8\n",
			want:   "--- a\n+++ b\n@@ -2,7 +2,7 @@\n 2\n 3\n 4\n-5\n+five\n 6\n 7\n 8\n",
		},
		"TwoHunks": {
			reason: "Changes more than six lines apart are separate hunks.",
			a:      "a\n1\n2\n3\n4\n5\n6\n7\n8\nb\n",
			b:      "A\n1\n2\n3\n4\n5\n6\n7\n8\nB\n",
			want:   "--- a\n+++ b\n@@ -1,4 +1,4 @@\n-a\n+A\n 1\n 2\n 3\n@@ -7,4 +7,4 @@\n 6\n 7\n 8\n-b\n+B\n",
		},
		"Insert": {
			reason: "An insertion into an empty file starts at 0.",
			a:      "",
			b:      "x\n",
			want:   "--- a\n+++ b\n@@ -0,0 +1 @@\n+x\n",
		},
		"NoFinalNewline": {
			reason: "A missing final newline is marked.",
			a:      "x\ny",
			b:      "x\ny\n",
			want:   "--- a\n+++ b\n@@ -1,2 +1,2 @@\n x\n-y\n\\ No newline at end of file\n+y\n",
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got := Unified("a", "b", []byte(tc.a), []byte(tc.b))
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s\nUnifiedDiff(...): -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}

// apply rebuilds both sides from an edit script.
func apply(ops []Op) (a, b []string) {
	for _, op := range ops {
		if op.Kind != '+' {
			a = append(a, op.Line)
		}
		if op.Kind != '-' {
			b = append(b, op.Line)
		}
	}
	return a, b
}

// lcs is the length of the longest common subsequence, by dynamic
// programming.
func lcs(a, b []string) int {
	dp := make([][]int, len(a)+1)
	for i := range dp {
		dp[i] = make([]int, len(b)+1)
	}
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			switch {
			case a[i] == b[j]:
				dp[i][j] = dp[i+1][j+1] + 1
			case dp[i+1][j] > dp[i][j+1]:
				dp[i][j] = dp[i+1][j]
			default:
				dp[i][j] = dp[i][j+1]
			}
		}
	}
	return dp[0][0]
}

func TestDiffLinesMinimal(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	gen := func() []string {
		n := r.Intn(25)
		out := make([]string, n)
		for i := range out {
			out[i] = string(rune('a'+r.Intn(4))) + "\n"
		}
		return out
	}
	n := testutil.Cases(2000)
	for i := 0; i < n; i++ {
		a, b := gen(), gen()
		ops := Lines(a, b)
		ga, gb := apply(ops)
		if strings.Join(ga, "") != strings.Join(a, "") || strings.Join(gb, "") != strings.Join(b, "") {
			t.Fatalf("Lines(%q, %q) does not rebuild its inputs: %v", a, b, ops)
		}
		same := 0
		for _, op := range ops {
			if op.Kind == ' ' {
				same++
			}
		}
		if want := lcs(a, b); same != want {
			t.Fatalf("Lines(%q, %q): %d lines kept, want the LCS %d", a, b, same, want)
		}
	}
}

func FuzzUnifiedDiff(f *testing.F) {
	f.Add("a\nb\nc\n", "a\nc\nd")
	f.Add("", "x")
	f.Fuzz(func(t *testing.T, a, b string) {
		ops := Lines(SplitLines(a), SplitLines(b))
		ga, gb := apply(ops)
		if strings.Join(ga, "") != strings.Join(SplitLines(a), "") || strings.Join(gb, "") != strings.Join(SplitLines(b), "") {
			t.Fatalf("Lines does not rebuild its inputs")
		}
		if (Unified("a", "b", []byte(a), []byte(b)) == "") != (a == b) {
			t.Fatalf("Unified is empty exactly when the inputs are equal")
		}
	})
}
