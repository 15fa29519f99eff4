package gaps

import (
	"path/filepath"
	"regexp"
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/xpmigrate/xpmigrate/internal/regularfile"
	"github.com/xpmigrate/xpmigrate/internal/testutil"
)

// observedHeading is a heading of docs/semantics/differences.md that
// defines a measurement id: "## O5: integers arrive as float64".
var observedHeading = regexp.MustCompile(`(?m)^## (O[0-9]+):`)

// undocumented returns the ids of ids that no heading of md defines,
// sorted and each once.
func undocumented(ids []string, md string) []string {
	defined := map[string]bool{}
	for _, m := range observedHeading.FindAllStringSubmatch(md, -1) {
		defined[m[1]] = true
	}
	missing := map[string]bool{}
	for _, id := range ids {
		if !defined[id] {
			missing[id] = true
		}
	}
	out := make([]string, 0, len(missing))
	for id := range missing {
		out = append(out, id)
	}
	sort.Strings(out)
	return out
}

func TestUndocumented(t *testing.T) {
	md := "# Measured\n\n## O1: one\n\ntext O2\n\n### O3: not a definition\n\n## O10: ten\n"
	cases := map[string]struct {
		reason string
		ids    []string
		want   []string
	}{
		"Defined": {
			reason: "ids with a heading of their own are documented",
			ids:    []string{"O1", "O10", "O1"},
			want:   []string{},
		},
		"Planted": {
			reason: "an id only mentioned in text, under a lower heading, or nowhere is not documented",
			ids:    []string{"O2", "O3", "O99", "O99", "D9"},
			want:   []string{"D9", "O2", "O3", "O99"},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, undocumented(tc.ids, md)); diff != "" {
				t.Errorf("%s\nundocumented(...): -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}

// TestObservedIDsDocumented: every measurement a rule cites in a Gap's
// Observed (verify's JSON output) is a section of
// docs/semantics/differences.md.
func TestObservedIDsDocumented(t *testing.T) {
	md, err := regularfile.ReadFile(filepath.Join(testutil.RepoRoot(t), "docs", "semantics", "differences.md"))
	if err != nil {
		t.Fatalf("cannot read the measured differences: %v", err)
	}
	var ids []string
	for _, r := range rules {
		ids = append(ids, r.observed...)
	}
	if len(ids) == 0 {
		t.Fatal("no rule cites a measurement")
	}
	if missing := undocumented(ids, string(md)); len(missing) > 0 {
		t.Errorf("rules cite measurements docs/semantics/differences.md does not define: %v", missing)
	}
}
