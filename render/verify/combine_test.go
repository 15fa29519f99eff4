package verify

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
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

// combineBefore is Combine as it was before the Combiner: every report's
// samples gathered, then the verdict and counts computed over them. The
// Combiner must give the same Report.
func combineBefore(reports []*Report, reason string) *Report {
	out := &Report{}
	if len(reports) > 0 {
		h := reports[0]
		*out = Report{Legacy: h.Legacy, Converted: h.Converted, Composition: h.Composition, Target: h.Target, Strict: h.Strict,
			Acceptances: h.Acceptances, IntendedChanges: h.IntendedChanges, Unexercised: slices.Clone(h.Unexercised)}
	}
	out.Reason = reason
	for _, r := range reports {
		for _, a := range r.Assumptions {
			if !slices.Contains(out.Assumptions, a) {
				out.Assumptions = append(out.Assumptions, a)
			}
		}
		out.Samples = append(out.Samples, r.Samples...)
		keep := out.Unexercised[:0]
		for _, p := range out.Unexercised {
			if slices.Contains(r.Unexercised, p) {
				keep = append(keep, p)
			}
		}
		out.Unexercised = keep
	}
	out.finish()
	return out
}

// combinerReports are per-XR reports of every kind of sample: equivalent,
// with benign, accepted, breaking, intended and unexplained differences,
// inconclusive with a hint, and assumptions repeated across reports.
func combinerReports() [][]*Report {
	p1 := PatchRef{Resource: "a", Index: 0, Type: "FromCompositeFieldPath"}
	p2 := PatchRef{Resource: "a", Index: 1, Type: "FromCompositeFieldPath"}
	benign := Difference{Aspect: AspectReadiness, Resource: "a", Transient: true, Gap: &Gap{Code: "D19", Class: ClassBenign}}
	accepted := Difference{Aspect: AspectResource, Resource: "a", Gap: &Gap{Code: "D3", Class: ClassBreaking, Accepted: true}}
	breaking := Difference{Aspect: AspectResource, Resource: "a", Gap: &Gap{Code: "D4", Class: ClassBreaking}}
	intended := Difference{Aspect: AspectXR, Gap: &Gap{Code: "C1", Class: ClassIntended}}
	unexplained := Difference{Aspect: AspectXR}
	rep := func(name string, v Verdict, un []PatchRef, ds ...Difference) *Report {
		return &Report{Composition: "c", Legacy: "l.yaml", Converted: "c.yaml", Unexercised: un, Assumptions: []string{"assumed " + string(v)},
			Samples: []SampleReport{{Sample: name, Verdict: v, Loops: 2, Differences: ds}}}
	}
	inconclusive := &Report{Composition: "c", Samples: []SampleReport{{Sample: "i", Verdict: Inconclusive, Hint: "give the EnvironmentConfig", LegacyError: "x", PipelineError: "y"}}}
	return [][]*Report{
		nil,
		{rep("x", Equivalent, []PatchRef{p1, p2})},
		{rep("x", Equivalent, []PatchRef{p1, p2}, benign), rep("y", Equivalent, []PatchRef{p2}, benign), rep("z", KnownGaps, nil, accepted, benign)},
		{rep("x", KnownGaps, nil, breaking), rep("y", Different, nil, unexplained, benign), rep("z", IntendedChange, nil, intended), rep("w", Equivalent, nil)},
		{inconclusive, inconclusive},
		{inconclusive, rep("x", Different, nil, unexplained), rep("y", Equivalent, nil, benign)},
	}
}

// TestCombineAsBefore: Combine, now a Combiner keeping every sample, gives
// the Report the gathering Combine gave, field for field.
func TestCombineAsBefore(t *testing.T) {
	for i, reports := range combinerReports() {
		for _, reason := range []string{"", "no XR runs it"} {
			want := combineBefore(reports, reason)
			got := Combine(reports, reason)
			if diff := cmp.Diff(want, got, cmpopts.IgnoreUnexported(Difference{})); diff != "" {
				t.Errorf("case %d, reason %q: Combine(...): -before, +now:\n%s", i, reason, diff)
			}
		}
	}
}

// TestCombinerDetailed: a Combiner that keeps the differences of the first
// samples only agrees with Combine on the verdict, the counts and whether
// the Composition fails, and keeps every sample's name and verdict.
func TestCombinerDetailed(t *testing.T) {
	type summary struct {
		Verdict                                           Verdict
		Reason, Hint                                      string
		Unexplained, Breaking, Accepted, Benign, Intended int
		Inconclusive                                      int
		Fails, FailsRequireVerified                       bool
		Samples                                           []string
		Unexercised                                       []PatchRef
		Assumptions                                       []string
	}
	sum := func(r *Report) summary {
		s := summary{Verdict: r.Verdict, Reason: r.Reason, Hint: r.Hint, Unexplained: r.Unexplained, Breaking: r.Breaking, Accepted: r.AcceptedGaps,
			Benign: r.Benign, Intended: r.Intended, Inconclusive: r.InconclusiveSamples, Fails: r.Fails(false), FailsRequireVerified: r.Fails(true),
			Unexercised: r.Unexercised, Assumptions: r.Assumptions}
		for _, x := range r.Samples {
			s.Samples = append(s.Samples, x.Sample+" "+string(x.Verdict))
		}
		return s
	}
	for i, reports := range combinerReports() {
		for _, strict := range []bool{false, true} {
			for _, r := range reports {
				r.Strict = strict
			}
			want := sum(Combine(reports, ""))
			c := Combiner{Detailed: 1}
			for _, r := range reports {
				c.Add(r)
			}
			got := c.Report("")
			if diff := cmp.Diff(want, sum(got)); diff != "" {
				t.Errorf("case %d, strict %v: Combiner{Detailed: 1}: -Combine, +Combiner:\n%s", i, strict, diff)
			}
			kept, omitted := 0, 0
			for _, s := range got.Samples {
				if len(s.Differences) > 0 {
					kept++
				}
				omitted += s.Omitted
			}
			all := 0
			for _, r := range reports {
				for _, s := range r.Samples {
					all += len(s.Differences)
				}
			}
			if kept > 1 || (all > 0 && kept == 0) {
				t.Errorf("case %d: Combiner{Detailed: 1} kept the differences of %d samples, want 1", i, kept)
			}
			listed := 0
			for _, s := range got.Samples {
				listed += len(s.Differences)
			}
			if listed+omitted != all {
				t.Errorf("case %d: %d differences listed and %d omitted, want %d in all", i, listed, omitted, all)
			}
		}
	}
}
