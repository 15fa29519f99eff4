package verify

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestMisattributionPassesBrokenConversion (issue 24, item 1): a converted
// CombineFromEnvironment edited to read the wrong environment key (oidcUrl,
// which a ToEnvironment patch writes too, instead of oidcHost) differs in
// the role's trust policy. The D33 rule matches the shape of that
// difference (a field an environment key written by a ToEnvironment patch
// feeds), but rendering the pipeline with ToEnvironment reading the
// rendered resource, as legacy does, leaves the difference: it is
// unexplained, and accepting D33 does not make the run pass. The faithful
// conversion's lag is proven D33 by the same switch.
func TestMisattributionPassesBrokenConversion(t *testing.T) {
	dir := "testdata/gaps/to-environment-wrong-key/"
	cases := map[string]struct {
		reason      string
		converted   string
		accept      []string
		want        []string
		wantVerdict Verdict
		wantFails   bool
	}{
		"WrongKeyIsDifferent": {
			reason:      "The wrong key is a bug in the conversion, whatever rule matches the difference's shape.",
			converted:   "mutated.yaml",
			want:        []string{`resource role spec.forProvider.assumeRolePolicy: UNEXPLAINED`},
			wantVerdict: Different,
			wantFails:   true,
		},
		"WrongKeyAcceptD33Fails": {
			reason:      "--accept D33 accepts only differences proven to be D33.",
			converted:   "mutated.yaml",
			accept:      []string{"D33"},
			want:        []string{`resource role spec.forProvider.assumeRolePolicy: UNEXPLAINED`},
			wantVerdict: Different,
			wantFails:   true,
		},
		"FaithfulLagProven": {
			reason:      "The faithful conversion's first-reconcile lag disappears when ToEnvironment reads the rendered resource: proven D33, benign.",
			converted:   "converted.yaml",
			want:        []string{`resource role spec.forProvider.assumeRolePolicy: D33 (transient)`},
			wantVerdict: Equivalent,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			o := Options{Accept: tc.accept}
			r := verifyYAML(t, string(readFile(t, dir+"legacy.yaml")), string(readFile(t, dir+tc.converted)), string(readFile(t, dir+"xr.yaml")), o)
			if diff := cmp.Diff(tc.want, summary(r)); diff != "" {
				t.Errorf("%s\nVerify(%s): -want, +got:\n%s", tc.reason, tc.converted, diff)
			}
			if r.Verdict != tc.wantVerdict || r.Fails(false) != tc.wantFails {
				dump(t, r)
				t.Errorf("%s\nVerify(%s): verdict %s, fails %v; want %s, fails %v", tc.reason, tc.converted, r.Verdict, r.Fails(false), tc.wantVerdict, tc.wantFails)
			}
		})
	}
}
