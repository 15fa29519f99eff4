package verify

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestCombine: per-XR reports combine into one: samples in order, the
// worst conclusive verdict, counts recomputed, and only the patches no
// report exercised.
func TestCombine(t *testing.T) {
	p1 := PatchRef{Resource: "a", Index: 0, Type: "FromCompositeFieldPath"}
	p2 := PatchRef{Resource: "a", Index: 1, Type: "FromCompositeFieldPath"}
	diff := Difference{}
	type summary struct {
		Verdict     Verdict
		Reason      string
		Unexplained int
		Samples     []string
		Unexercised []PatchRef
	}
	cases := map[string]struct {
		reason  string
		reports []*Report
		reason2 string
		want    summary
	}{
		"WorstVerdictAndCommonUnexercised": {
			reason: "The worst sample verdict wins; a patch is unexercised only if no report exercised it.",
			reports: []*Report{
				{Composition: "c", Samples: []SampleReport{{Sample: "x", Verdict: Equivalent}}, Unexercised: []PatchRef{p1, p2}},
				{Composition: "c", Samples: []SampleReport{{Sample: "y", Verdict: Different, Differences: []Difference{diff}}}, Unexercised: []PatchRef{p2}},
			},
			want: summary{Verdict: Different, Unexplained: 1, Samples: []string{"x equivalent", "y different"}, Unexercised: []PatchRef{p2}},
		},
		"NoReports": {
			reason:  "Without reports the Composition is unverified, with the reason given.",
			reason2: "no XR runs it",
			want:    summary{Verdict: Unverified, Reason: "no XR runs it"},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			r := Combine(tc.reports, tc.reason2)
			got := summary{Verdict: r.Verdict, Reason: r.Reason, Unexplained: r.Unexplained, Unexercised: r.Unexercised}
			for _, s := range r.Samples {
				got.Samples = append(got.Samples, s.Sample+" "+string(s.Verdict))
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("\n%s\nCombine(...): -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}
