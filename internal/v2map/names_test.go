package v2map

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestRegenerate(t *testing.T) {
	long := strings.Repeat("a", 52)
	cases := map[string]struct {
		reason   string
		name     string
		from, to string
		want     string
		wantOK   bool
	}{
		"Short": {
			reason: "Neither prefix is cut: the suffix moves to the new prefix.",
			name:   "db-x7k2p-abcde", from: "db-x7k2p-", to: "db-",
			want: "db-abcde", wantOK: true,
		},
		"LegacyCut": {
			reason: "A 59-character legacy prefix was cut to 58 before the suffix: the suffix is what follows the 58.",
			name:   long + "-x7k2p" + "abcde", from: long + "-x7k2p-", to: long + "-",
			want: long + "-abcde", wantOK: true,
		},
		"BothCut": {
			reason: "A 64-character new prefix is cut to 58 too.",
			name:   strings.Repeat("b", 58) + "abcde", from: strings.Repeat("b", 58) + "xyz-", to: strings.Repeat("b", 63) + "-",
			want: strings.Repeat("b", 58) + "abcde", wantOK: true,
		},
		"NotGenerated": {
			reason: "A name that does not start with the prefix was not generated from it.",
			name:   "other-abcde", from: "db-", to: "x-",
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, ok := Regenerate(tc.name, tc.from, tc.to)
			if diff := cmp.Diff([]any{tc.want, tc.wantOK}, []any{got, ok}); diff != "" {
				t.Errorf("\n%s\nRegenerate(...): -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}
