package verify

import (
	"context"
	"slices"
	"strings"

	"github.com/xpmigrate/xpmigrate/internal/jsonobj"
	"github.com/xpmigrate/xpmigrate/patchandtransform/function"
	ptfn "github.com/xpmigrate/xpmigrate/render/builtin/patchandtransform"
	"github.com/xpmigrate/xpmigrate/render/engine"
	"github.com/xpmigrate/xpmigrate/render/pipeline"
	"github.com/xpmigrate/xpmigrate/render/verify/gaps"
)

// ProvenByLaterReconcile names the proof of a lag: the simulation itself
// shows the pipeline reaching legacy's value in a later reconcile.
const ProvenByLaterReconcile = "later-reconcile"

// ProvenBySkippedReferences names the proof of a difference in the XR's
// resource references that those of the templates legacy did not render
// account for (D7): the composer's bookkeeping, no switch needed.
const ProvenBySkippedReferences = "references-of-skipped-templates"

// prove disposes of the known gaps the rules proposed for one sample's
// differences (attribution by counterfactual render). A rule matches the
// shape of a difference; only a render shows the gap caused it. For each
// candidate code that has a switch (gaps.Switches), the pipeline side is
// rendered again with that one mechanism behaving natively, alone and then
// together with the switches of the codes already proven on the sample; a
// difference whose path then agrees with legacy in every reconcile it was
// seen in (and, when it persisted, to the end) is proven, the others are
// unexplained, the refuted gap kept as their Candidate. A lag is proven by
// the simulation. A gap without a switch stays an unproven candidate.
// Only proven breaking gaps may be accepted.
//
// Only samples with candidates cost renders: one or two per candidate code.
func (v *verifier) prove(ctx context.Context, diffs []Difference, legacy []Side, p *run) error {
	need := map[string][]int{}
	var codes []string
	var refsPending []int
	for i := range diffs {
		g := diffs[i].Gap
		if g == nil || g.Class == ClassIntended || g.Class == ClassMapped {
			continue
		}
		switch _, why, ok := g.Switch(); {
		case g.Lag:
			g.Proven, g.ProvenBy = true, []string{ProvenByLaterReconcile}
		case !ok && g.Code == "D7" && isResourceRefs(diffs[i]):
			// Proven when the references differ by those of the
			// templates legacy did not render alone, else refuted.
			g.ProvenBy = []string{ProvenBySkippedReferences}
			if vanished(&diffs[i], v.presenceOf(legacy, p)) {
				g.Proven = true
				continue
			}
			g.Accepted, g.AcceptedBy = false, ""
			diffs[i].Candidate, diffs[i].Gap = g, nil
			refsPending = append(refsPending, i)
		case !ok:
			g.Unproven = "no switch can render this gap away: " + why
		default:
			if _, seen := need[g.Code]; !seen {
				codes = append(codes, g.Code)
			}
			need[g.Code] = append(need[g.Code], i)
		}
	}

	var proven []string
	tried := map[string]bool{}
	// A code proven later may explain, together with an earlier one, what
	// the earlier one could not alone: go round until nothing changes.
	for changed := true; changed; {
		changed = false
		for _, code := range codes {
			left := need[code]
			if len(left) == 0 {
				continue
			}
			for _, set := range [][]string{{code}, append(slices.Clone(proven), code)} {
				if len(left) == 0 || tried[setKey(set)] || len(set) > 1 && len(proven) == 0 {
					continue
				}
				tried[setKey(set)] = true
				present, err := v.counterfactual(ctx, p, set, legacy)
				if err != nil {
					return err
				}
				var still []int
				for _, i := range left {
					if vanished(&diffs[i], present) {
						diffs[i].Gap.Proven = true
						diffs[i].Gap.ProvenBy = switchNames(set)
						continue
					}
					still = append(still, i)
				}
				if len(still) < len(left) && !slices.Contains(proven, code) {
					proven = append(proven, code)
					changed = true
				}
				left = still
			}
			need[code] = left
		}
	}
	// The references of skipped templates, with the switches proven on
	// the sample on: another gap (a base's name, D11) may have renamed a
	// reference.
	if len(refsPending) > 0 && len(proven) > 0 {
		present, err := v.counterfactual(ctx, p, proven, legacy)
		if err != nil {
			return err
		}
		for _, i := range refsPending {
			if vanished(&diffs[i], present) {
				g := diffs[i].Candidate
				g.Proven, g.ProvenBy = true, append(switchNames(proven), ProvenBySkippedReferences)
				diffs[i].Gap, diffs[i].Candidate = g, nil
			}
		}
	}
	for _, code := range codes {
		for _, i := range need[code] {
			d := &diffs[i]
			c := d.Gap
			c.ProvenBy = []string{gaps.Switches[code].Name}
			c.Accepted, c.AcceptedBy = false, ""
			d.Candidate, d.Gap = c, nil
		}
	}
	for i := range diffs {
		if g := diffs[i].Gap; g != nil && !g.Proven && g.Accepted {
			g.Accepted, g.AcceptedBy = false, ""
		}
	}
	return nil
}

// presenceOf compares the pipeline side as rendered with legacy, once per
// sample.
func (v *verifier) presenceOf(legacy []Side, p *run) []loopPresence {
	if p.presence == nil {
		p.presence = v.presence(legacy, p.sides)
	}
	return p.presence
}

// counterfactual renders the pipeline side again with the switches of
// codes on, and returns, for each reconcile compared with legacy, the keys
// of the differences.
func (v *verifier) counterfactual(ctx context.Context, p *run, codes []string, legacy []Side) ([]loopPresence, error) {
	var fn function.Native
	var pn pipeline.Native
	ec := v.ecVersion
	for _, code := range codes {
		s := gaps.Switches[code]
		if s.Function != nil {
			s.Function(&fn)
		}
		if s.Pipeline != nil {
			s.Pipeline(&pn)
		}
		if s.EnvironmentFunction != "" {
			ec = s.EnvironmentFunction
		}
	}
	set, _ := builtins(v.o.Target, ec)
	b := make(engine.BuiltinSet, len(set))
	for k, r := range set {
		b[k] = r
	}
	b[engine.BuiltinPatchAndTransform] = ptfn.NewNative(fn)
	cf := &run{req: p.req, opts: p.opts}
	cf.opts.Builtins, cf.opts.Native = b, pn
	if err := cf.renderAll(ctx, v.maxLoops(), v.o.Loops == 0); err != nil {
		return nil, err
	}
	return v.presence(legacy, cf.sides), nil
}

// A loopPresence is what one reconcile of a pipeline render differs from
// legacy in: the keys of the differences, and whether the render failed.
type loopPresence struct {
	keys map[string]bool

	// legacy and pipeline are the composed resources each side rendered;
	// failed is set when both sides failed.
	legacy, pipeline map[string]bool
	failed           bool
	pipelineFailed   bool

	// refs is set when the resource references differ anywhere: the
	// shape of the lists decides at which path, so any difference there
	// keeps every difference of the references.
	refs bool
}

// presence compares every reconcile of a pipeline render with legacy's.
func (v *verifier) presence(legacy, sides []Side) []loopPresence {
	n := max(len(legacy), len(sides))
	opts := CompareOptions{ResourceName: v.names, ShownConnectionDetails: v.shown}
	out := make([]loopPresence, n)
	for k := range n {
		l := legacy[min(k, len(legacy)-1)]
		ps := sides[min(k, len(sides)-1)]
		keys := map[string]bool{}
		refs := false
		for _, d := range Compare(l, ps, opts) {
			keys[d.Key()] = true
			refs = refs || isResourceRefs(d)
		}
		// Legacy references the templates it did not render (D7, the
		// composer's bookkeeping): the counterfactual agrees when the
		// references differ by those alone.
		if fl, ok := withoutUnrenderedRefs(l); refs && ok {
			for key := range keys {
				if strings.Contains(key, "resourceRefs") {
					delete(keys, key)
				}
			}
			refs = false
			for _, d := range Compare(fl, ps, opts) {
				if isResourceRefs(d) {
					keys[d.Key()], refs = true, true
				}
			}
		}
		out[k] = loopPresence{keys: keys, refs: refs, legacy: v.rendered(l), pipeline: v.rendered(ps), failed: l.Err != nil && ps.Err != nil, pipelineFailed: ps.Err != nil}
	}
	return out
}

// vanished reports whether d is absent from a counterfactual render: from
// every reconcile it was seen in when it was transient, from the last
// reconcile (the steady state) when it persisted. A difference of a resource's fields has gone away only
// where both sides rendered the resource, one of its readiness where both
// sides rendered it or neither did (or both failed): a render that fails,
// or leaves the resource out, composes nothing to differ in, whatever
// caused the difference.
func vanished(d *Difference, present []loopPresence) bool {
	first, last := d.FirstLoop, d.LastLoop
	if !d.Transient {
		// A difference that persists is proven when the steady state
		// agrees: what differs before it is a lag, which the simulation
		// proves (D8, D19, D26).
		first, last = len(present), len(present)
	}
	for k := first; k <= last && k <= len(present); k++ {
		if present[k-1].keys[d.Key()] || isResourceRefs(*d) && present[k-1].refs {
			return false
		}
		lp := present[k-1]
		switch d.Aspect {
		case AspectPresence, AspectXR, AspectConnection, AspectDeleted:
			// A counterfactual that fails composes nothing: it proves
			// the failure (error, conditions, synced and ready flags),
			// never what the resources or the XR hold.
			if lp.pipelineFailed {
				return false
			}
		case AspectResource:
			if !lp.legacy[d.Resource] || !lp.pipeline[d.Resource] {
				return false
			}
		case AspectReadiness, AspectSynced:
			if lp.legacy[d.Resource] != lp.pipeline[d.Resource] && !lp.failed {
				return false
			}
		}
	}
	return true
}

func switchNames(codes []string) []string {
	out := make([]string, len(codes))
	for i, c := range codes {
		out[i] = gaps.Switches[c].Name
	}
	return out
}

// setKey names a set of codes whatever their order.
func setKey(codes []string) string {
	s := slices.Clone(codes)
	slices.Sort(s)
	return strings.Join(s, ",")
}

// isResourceRefs reports whether d is about the XR's resource references.
func isResourceRefs(d Difference) bool {
	p := d.Path.String()
	return d.Aspect == AspectXR && (strings.HasPrefix(p, "spec.resourceRefs") || strings.HasPrefix(p, "spec.crossplane.resourceRefs"))
}

// withoutUnrenderedRefs returns the legacy side with the references to
// the templates it did not render removed from its XR, and whether there
// were any such templates.
func withoutUnrenderedRefs(l Side) (Side, bool) {
	if l.Outcome == nil || l.Outcome.EffectiveXR == nil {
		return l, false
	}
	// Legacy references every template, in template order.
	skipped := map[int]bool{}
	for _, cd := range l.Outcome.Composed {
		if !cd.Rendered {
			skipped[cd.Index] = true
		}
	}
	if len(skipped) == 0 {
		return l, false
	}
	out := *l.Outcome
	xr := deepCopyMap(out.EffectiveXR)
	for _, at := range [][]string{{"spec"}, {"spec", "crossplane"}} {
		m, _ := jsonobj.Value(xr, at...).(map[string]any)
		refs, ok := m["resourceRefs"].([]any)
		if !ok || len(refs) != len(l.Outcome.Composed) {
			continue
		}
		kept := make([]any, 0, len(refs))
		for i, r := range refs {
			if !skipped[i] {
				kept = append(kept, r)
			}
		}
		m["resourceRefs"] = kept
	}
	out.EffectiveXR = xr
	return Side{Outcome: &out, Err: l.Err}, true
}

// rendered returns the composed resources a side rendered.
func (v *verifier) rendered(s Side) map[string]bool {
	out := map[string]bool{}
	if s.Outcome == nil {
		return out
	}
	for _, cd := range s.Outcome.Composed {
		if cd.Rendered {
			out[gaps.ResourceName(cd, v.names)] = true
		}
	}
	return out
}
