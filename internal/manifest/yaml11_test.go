package manifest

import "testing"

func TestIsYAML11Special(t *testing.T) {
	for _, s := range []string{"yes", "On", "n", "0755", "0x1F", "1_000", "1:20", "1e3", ".inf", "~", "null", ""} {
		if !IsYAML11Special(s) {
			t.Errorf("IsYAML11Special(%q): want true", s)
		}
	}
	for _, s := range []string{"Pipeline", "resource-0", "v1.2.3", "a:b", "-x", ".", "True-ish"} {
		if IsYAML11Special(s) {
			t.Errorf("IsYAML11Special(%q): want false", s)
		}
	}
}
