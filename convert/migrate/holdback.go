package migrate

import (
	"fmt"
	"strings"

	"github.com/xpmigrate/xpmigrate/convert/migrate/tree"
	"github.com/xpmigrate/xpmigrate/internal/jsonobj"
	"github.com/xpmigrate/xpmigrate/internal/xp"
)

// Held back together (target v2 with definitions): a v2 XRD, the
// Compositions of its XR type (and those that compose that type) and the
// v2 twins of its examples are written together or not at all. When
// verification holds back one Composition's conversion, every file of the
// types it belongs with is held back too: otherwise the v2 XRD is written
// alone, the legacy examples of the held-back Composition stop being
// examples of any XRD, and the next run finds no samples and writes the
// Composition unverified (issue 23, 5a). Holding the whole type back keeps
// the evidence, so every run holds it back again until the gaps are fixed
// or accepted, or --force writes it all.
//
// XR types are keyed "group|kind", with the legacy composite kind.

// A heldType says why an XR type is held back: the held-back Composition
// it goes with.
type heldType struct {
	composition, file string
}

// holdsTogether reports whether this run holds files back by XR type: a
// run that writes v2 definitions, and that holds conversions back.
func (r *runner) holdsTogether() bool {
	return r.o.Definitions && !r.o.Force && r.o.Write != WriteNone
}

// defers reports whether a file's write waits until every Composition of
// the run is verified: a file the run would change, in a run that holds
// files back by XR type.
func (r *runner) defers(oc *outcome) bool {
	return oc.write != nil && oc.keep != nil && oc.file.Status == FileConverted && r.holdsTogether()
}

// holdsBackItsTypes reports whether a Composition's outcome keeps the v2
// definitions of its XR types unwritten.
func holdsBackItsTypes(c CompositionResult) bool {
	return c.Status == CompositionHeldBack
}

// typeKey is the XR type key of an apiVersion and kind.
func typeKey(apiVersion, kind string) string {
	return xp.Group(apiVersion) + "|" + kind
}

// compositionTypes returns the XR types a Composition goes with: its own,
// and the XR types its templates compose (types of the tree's XRDs or
// Compositions; a managed resource's type is not an XR type).
func (r *runner) compositionTypes(ci *tree.CompInfo) []string {
	av, k, _ := strings.Cut(ci.TypeRef, "|")
	out := []string{typeKey(av, k)}
	for _, t := range ci.Composes {
		if r.ix.XRDFor(ci.File, t) == nil && len(r.ix.ByType[t]) == 0 {
			continue
		}
		av, k, _ := strings.Cut(t, "|")
		out = append(out, typeKey(av, k))
	}
	return out
}

// fileTypes returns the XR types of a file's Compositions and XRDs.
func (r *runner) fileTypes(f *tree.Scanned) []string {
	var out []string
	for _, d := range f.Docs {
		switch {
		case tree.IsComposition(d.APIVersion, d.Kind):
			if ci := r.ix.ByPosition[tree.SourceName(f.Rel, d.Index, d.Item)]; ci != nil {
				out = append(out, r.compositionTypes(ci)...)
			}
		case tree.IsXRD(d.APIVersion, d.Kind) && d.Obj != nil:
			g := jsonobj.String(d.Obj, "spec", "group")
			k := jsonobj.String(d.Obj, "spec", "names", "kind")
			out = append(out, g+"|"+k)
		}
	}
	return out
}

// holdTogether decides the deferred outcomes (indexed as r.files): a file
// that goes with an XR type a held-back Composition goes with is held back,
// and then so is every type of that file, until nothing changes. The others
// stay converted; the caller writes them. r.held is set for the twins.
func (r *runner) holdTogether(outs, deferred []*outcome) {
	r.held = map[string]heldType{}
	for _, list := range [][]*outcome{outs, deferred} {
		for _, oc := range list {
			if oc == nil {
				continue
			}
			for _, c := range oc.comps {
				ci := r.ix.ByPosition[tree.SourceName(c.File, c.Document, c.Item)]
				if !holdsBackItsTypes(c) || ci == nil {
					continue
				}
				for _, t := range r.compositionTypes(ci) {
					if _, ok := r.held[t]; !ok {
						r.held[t] = heldType{composition: c.Name, file: c.File}
					}
				}
			}
		}
	}
	for changed := true; changed; {
		changed = false
		for i, oc := range deferred {
			if oc == nil || oc.file.Status != FileConverted {
				continue
			}
			types := r.fileTypes(r.files[i])
			var why heldType
			var whyType string
			for _, t := range types {
				if h, ok := r.held[t]; ok {
					why, whyType = h, t
					break
				}
			}
			if whyType == "" {
				continue
			}
			holdBack(oc, why, whyType)
			for _, t := range types {
				if _, ok := r.held[t]; !ok {
					r.held[t] = why
				}
			}
			changed = true
		}
	}
}

// holdBack marks a file held back with the Composition whose conversion it
// goes with.
func holdBack(oc *outcome, why heldType, xrType string) {
	g, k, _ := strings.Cut(xrType, "|")
	oc.file.Status, oc.file.Reason = FileHeldBack, ReasonVerification
	oc.file.Detail = fmt.Sprintf("not written: it goes with the conversion of %s (%s), which is held back: the v2 XRD of %s.%s, its Compositions and the twins of its examples are written together; fix or accept the gaps of that conversion, or write them all anyway with --force",
		why.composition, why.file, k, g)
	oc.file.Diff = ""
	for i := range oc.comps {
		if oc.comps[i].Status == CompositionConverted {
			oc.comps[i].Status = CompositionHeldBack
		}
	}
	oc.write = oc.keep
}
