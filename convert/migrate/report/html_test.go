package report

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestSideBySideMoved: the blocks a conversion moves under the pipeline
// step (the same lines, more deeply indented) show as moved, and only what
// the conversion adds or removes as added or removed.
func TestSideBySideMoved(t *testing.T) {
	before := "spec:\n  resources:\n  - name: a\n    base: {}\n"
	after := "spec:\n  mode: Pipeline\n  pipeline:\n  - step: pt\n    input:\n      resources:\n      - name: a\n        base: {}\n"
	var got []string
	for _, r := range sideBySide(before, after) {
		got = append(got, r.LClass+"|"+r.RClass)
	}
	want := []string{"|", "|add", "|add", "|add", "|add", "mov|mov", "mov|mov", "mov|mov"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("sideBySide(...) classes: -want, +got:\n%s", diff)
	}
}
