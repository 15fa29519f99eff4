package verify

import (
	"context"
	"slices"
	"strings"

	"github.com/xpmigrate/xpmigrate/patchandtransform/function"
	ptfn "github.com/xpmigrate/xpmigrate/render/builtin/patchandtransform"
	"github.com/xpmigrate/xpmigrate/render/engine"
	"github.com/xpmigrate/xpmigrate/render/pipeline"
	"github.com/xpmigrate/xpmigrate/render/verify/gaps"
)

// ProvenByLaterReconcile names the proof of a lag: the simulation itself
// shows the pipeline reaching legacy's value in a later reconcile.
const ProvenByLaterReconcile = "later-reconcile"

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
	for i := range diffs {
		g := diffs[i].Gap
		if g == nil || g.Class == ClassIntended || g.Class == ClassMapped {
			continue
		}
		switch _, ok := gaps.SwitchFor(g.Code); {
		case g.Lag():
			g.Proven, g.ProvenBy = true, []string{ProvenByLaterReconcile}
		case !ok:
			g.Unproven = "no switch can render this gap away: " + gaps.NoSwitch[g.Code]
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

// counterfactual renders the pipeline side again with the switches of
// codes on, and returns, for each reconcile compared with legacy, the keys
// of the differences.
func (v *verifier) counterfactual(ctx context.Context, p *run, codes []string, legacy []Side) ([]map[string]bool, error) {
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
	n := max(len(legacy), len(cf.sides))
	cf.padTo(n)
	opts := CompareOptions{ResourceName: v.names, ShownConnectionDetails: v.shown}
	out := make([]map[string]bool, n)
	for k := range n {
		l := legacy[min(k, len(legacy)-1)]
		keys := map[string]bool{}
		for _, d := range Compare(l, cf.sides[k], opts) {
			keys[d.Key()] = true
		}
		out[k] = keys
	}
	return out, nil
}

// vanished reports whether d is absent from every reconcile of a
// counterfactual render it was seen in, and when it persisted, from every
// later one too.
func vanished(d *Difference, present []map[string]bool) bool {
	last := d.LastLoop
	if !d.Transient {
		last = len(present)
	}
	for k := d.FirstLoop; k <= last && k <= len(present); k++ {
		if present[k-1][d.Key()] {
			return false
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
