package gaps

import (
	"strconv"
	"strings"
	"testing"
)

// TestGapCodesCatalogue keeps the catalogue and the rules in step: every
// rule's code is catalogued as detected, and its class is one the
// catalogue documents.
func TestGapCodesCatalogue(t *testing.T) {
	for i, c := range GapCodes {
		if want := "D" + strconv.Itoa(i+1); c.Code != want {
			t.Errorf("GapCodes[%d].Code = %s, want %s (in order, none missing)", i, c.Code, want)
		}
		if !c.Detected && c.Why == "" {
			t.Errorf("%s: not detected, and no reason why", c.Code)
		}
	}
	for _, r := range rules {
		if r.intended != "" {
			continue
		}
		c, ok := LookupGapCode(r.code)
		if !ok || !c.Detected {
			t.Errorf("rule %q: code %s is not in GapCodes as detected", r.title, r.code)
			continue
		}
		if cl := r.gapClass(); cl != c.Class && !strings.Contains(c.Classes, string(cl)) {
			t.Errorf("rule %q: class %s, but %s documents %s (%q)", r.title, cl, c.Code, c.Class, c.Classes)
		}
	}
}
