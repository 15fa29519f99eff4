package tree

import (
	"strings"
	"testing"
)

func TestScanLegacy(t *testing.T) {
	cases := map[string]struct {
		reason string
		text   string
		want   bool
	}{
		"Legacy":     {reason: "A Composition without mode: Pipeline is legacy.", text: "kind: Composition\nspec: {}\n", want: true},
		"Pipeline":   {reason: "A Composition in mode Pipeline is not.", text: "kind: Composition\nspec:\n  mode: Pipeline\n", want: false},
		"Other":      {reason: "Another kind is not.", text: "kind: ConfigMap\n", want: false},
		"LongLine":   {reason: "A line longer than the buffer is passed over, and the next lines are read.", text: "a: " + strings.Repeat("x", 200<<10) + "\nkind: Composition\n", want: true},
		"CRLF":       {reason: "CRLF line ends are read.", text: "kind: Composition\r\nspec: {}\r\n", want: true},
		"NoFinalEOL": {reason: "The last line needs no line end.", text: "a: 1\nkind: Composition", want: true},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if got := ScanLegacy(strings.NewReader(tc.text)); got != tc.want {
				t.Errorf("%s\nscanLegacy(): got %t, want %t", tc.reason, got, tc.want)
			}
		})
	}
}
