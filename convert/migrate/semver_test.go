package migrate

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestConstraintAdmits(t *testing.T) {
	cases := map[string]struct {
		reason     string
		constraint string
		admit      []string
		refuse     []string
	}{
		"AtLeast": {
			reason:     "A lower bound admits everything above it.",
			constraint: ">=v0.10.8",
			admit:      []string{"v0.10.8", "v0.11.0", "v1.0.0"},
			refuse:     []string{"v0.10.7", "v0.2.1"},
		},
		"RangeWithComma": {
			reason:     "Comparisons separated by a comma must all hold.",
			constraint: ">=v0.10.8, <v0.11.0",
			admit:      []string{"v0.10.8", "v0.10.99"},
			refuse:     []string{"v0.11.0", "v0.10.0"},
		},
		"RangeWithSpace": {
			reason:     "A space separates comparisons too.",
			constraint: ">= v0.6.0 < v0.7.0",
			admit:      []string{"v0.6.0", "v0.6.3"},
			refuse:     []string{"v0.7.0", "v0.5.9"},
		},
		"Tilde": {
			reason:     "~ keeps the minor release line.",
			constraint: "~v0.10.2",
			admit:      []string{"v0.10.2", "v0.10.8"},
			refuse:     []string{"v0.11.0", "v0.10.1"},
		},
		"CaretBelowOne": {
			reason:     "^ below v1 keeps the minor release line.",
			constraint: "^v0.7.1",
			admit:      []string{"v0.7.1", "v0.7.9"},
			refuse:     []string{"v0.8.0", "v0.7.0"},
		},
		"Wildcard": {
			reason:     "A partial version or x wildcard stands for its whole line.",
			constraint: "v0.6.x",
			admit:      []string{"v0.6.0", "v0.6.5"},
			refuse:     []string{"v0.7.0", "v0.5.0"},
		},
		"Exact": {
			reason:     "A bare version is that version.",
			constraint: "v0.10.8",
			admit:      []string{"v0.10.8"},
			refuse:     []string{"v0.10.9"},
		},
		"Or": {
			reason:     "|| separates alternatives.",
			constraint: "<v0.3.0 || >=v0.10.0",
			admit:      []string{"v0.2.1", "v0.10.0"},
			refuse:     []string{"v0.5.0"},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			c, ok := parseConstraint(tc.constraint)
			if !ok {
				t.Fatalf("%s\nparseConstraint(%q): not understood", tc.reason, tc.constraint)
			}
			var got, want []string
			for _, s := range append(append([]string(nil), tc.admit...), tc.refuse...) {
				v, _ := parseSemver(s)
				if c.admits(v) {
					got = append(got, s)
				}
			}
			want = tc.admit
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("%s\n%q admits: -want, +got:\n%s", tc.reason, tc.constraint, diff)
			}
		})
	}
}
