package verify

import "slices"

// A Combiner folds the reports of a Composition verified sample by sample
// (one Verify call per live XR) into one Report as they arrive, so that the
// reports need not be kept: the first report's header, every report's
// samples in order, the patches no sample exercised, the assumptions once
// each, and the counts and verdict folded sample by sample. The zero value
// keeps every sample in full; Combine is Add for each report, then Report.
type Combiner struct {
	// Detailed, when positive, bounds the samples that keep their
	// differences: the first Detailed samples with differences keep them,
	// later ones keep their verdict and the count of their differences
	// (SampleReport.Omitted, OmittedFail), so memory grows by a few words
	// per sample, not by its differences. The counts and the verdict are
	// the same either way.
	Detailed int

	out      Report
	started  bool
	detailed int
	t        tally
}

// Add folds r in. r is not kept, nor changed.
func (c *Combiner) Add(r *Report) {
	if !c.started {
		c.started = true
		c.out = Report{Legacy: r.Legacy, Converted: r.Converted, Composition: r.Composition, Target: r.Target, Strict: r.Strict,
			Acceptances: r.Acceptances, IntendedChanges: r.IntendedChanges, Unexercised: slices.Clone(r.Unexercised)}
		if r.Mapping != nil {
			m := *r.Mapping
			m.Applied = nil // Recomputed from the samples.
			c.out.Mapping = &m
		}
	} else {
		// A patch is unexercised when no sample of any report made it fire.
		keep := c.out.Unexercised[:0]
		for _, p := range c.out.Unexercised {
			if slices.Contains(r.Unexercised, p) {
				keep = append(keep, p)
			}
		}
		c.out.Unexercised = keep
	}
	for _, a := range r.Assumptions {
		if !slices.Contains(c.out.Assumptions, a) {
			c.out.Assumptions = append(c.out.Assumptions, a)
		}
	}
	for i := range r.Samples {
		s := r.Samples[i]
		c.t.add(&s)
		if c.Detailed > 0 && len(s.Differences) > 0 {
			if c.detailed < c.Detailed {
				c.detailed++
			} else {
				s.Omitted, s.OmittedFail = len(s.Differences), s.Fails(c.out.Strict)
				s.Differences = nil
			}
		}
		c.out.Samples = append(c.out.Samples, s)
	}
}

// Report returns the combined report; Reason, when set, says why there is
// no sample. The report shares its samples with the Combiner: call it once,
// after the last Add.
func (c *Combiner) Report(reason string) *Report {
	out := c.out
	out.Reason = reason
	out.conclude(&c.t)
	return &out
}

// Combine returns one Report for a Composition verified sample by sample,
// as a Combiner keeping every sample does. Reason, when set, says why there
// is no sample.
func Combine(reports []*Report, reason string) *Report {
	var c Combiner
	for _, r := range reports {
		c.Add(r)
	}
	return c.Report(reason)
}
