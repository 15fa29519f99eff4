package verify

import (
	"fmt"
)

// Findings groups a sample's differences for a report: differences that
// differ only in their composed resource (and so in the line of the
// template each comes from), with one root cause (the same known gap,
// the same detail, the same proof) and the same values, are one finding
// whose Resources list every resource, in the order they came. A gap such
// as D46, a Required ToComposite patch failing the legacy reconcile,
// otherwise repeats per composed resource. Differences no rule explains,
// or whose candidate a render refuted, are never grouped: each may be its
// own bug. The differences keep their own
// proofs (attribution is per path); only the report shows them together.
// diffs is not modified.
func Findings(diffs []Difference) []Difference {
	out := make([]Difference, 0, len(diffs))
	at := map[string]int{}
	for _, d := range diffs {
		k, ok := findingKey(&d)
		if !ok {
			out = append(out, d)
			continue
		}
		if i, seen := at[k]; seen {
			f := &out[i]
			if len(f.Resources) == 0 {
				f.Resources = []string{f.Resource}
			}
			f.Resources = append(f.Resources, d.Resource)
			continue
		}
		at[k] = len(out)
		d.Resources = nil
		out = append(out, d)
	}
	return out
}

// findingKey is what differences of one finding share: all but the
// resource and its line. ok is false for a difference that is never
// grouped: no rule's, a refuted candidate's, about no composed resource,
// or a finding already.
func findingKey(d *Difference) (string, bool) {
	if d.Gap == nil || d.Candidate != nil || d.Resource == "" || len(d.Resources) > 0 {
		return "", false
	}
	g, err := jsonMarshal(d.Gap)
	if err != nil {
		return "", false
	}
	l, err := valueKey(d.Legacy)
	if err != nil {
		return "", false
	}
	p, err := valueKey(d.Pipeline)
	if err != nil {
		return "", false
	}
	return fmt.Sprintf("%s\x00%s\x00%s\x00%s\x00%d\x00%d\x00%t\x00%s", d.Aspect, d.Path, l, p, d.FirstLoop, d.LastLoop, d.Transient, g), true
}

// valueKey tells values apart, an absent one from a null.
func valueKey(v *Value) (string, error) {
	if v == nil {
		return "absent", nil
	}
	b, err := jsonMarshal(v.V)
	return "=" + string(b), err
}

// Grouped returns a copy of the report whose samples list findings
// (Findings) instead of differences, for the formats that print them;
// the counts stay those of the differences.
func (r *Report) Grouped() *Report {
	out := *r
	out.Samples = make([]SampleReport, len(r.Samples))
	for i, s := range r.Samples {
		s.Differences = Findings(s.Differences)
		out.Samples[i] = s
	}
	return &out
}
