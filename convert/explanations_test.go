package convert

import (
	"strings"
	"testing"
)

// TestExplanations: every code of the registry is explained, and no
// explanation is left for a code the registry lost.
func TestExplanations(t *testing.T) {
	seen := map[Code]bool{}
	for _, ci := range Registry {
		seen[ci.Code] = true
		meaning, fix, ok := Explain(ci.Code)
		if !ok || strings.TrimSpace(meaning) == "" || strings.TrimSpace(fix) == "" {
			t.Errorf("%s has no explanation: add it to explanations.go", ci.Code)
		}
	}
	for c := range explanations {
		if !seen[c] {
			t.Errorf("%s is explained but not in Registry any more: remove its explanation", c)
		}
	}
}
