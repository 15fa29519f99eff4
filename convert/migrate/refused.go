package migrate

import (
	"context"
	"crypto/sha256"
	"fmt"
	"sort"
	"strings"

	"github.com/xpmigrate/xpmigrate/convert/migrate/tree"
	"github.com/xpmigrate/xpmigrate/internal/jsonobj"
	"github.com/xpmigrate/xpmigrate/internal/regularfile"
)

// The tree-level rule of a v2-native run for refused Compositions (the
// rule for Compositions verification holds back is in holdback.go): the v2 XRD of a type, and the
// v2 XR twins of its examples, are held back while a Composition of the
// type is refused. The v2 XRD would otherwise be applied without a
// Composition to run its XRs (its defaultCompositionRef naming a v2
// Composition that was never written), and the twins would be XRs
// nothing composes.

// planHeldBack converts every file with legacy Compositions in memory,
// before anything is written, and records by XR type ("group|kind") the
// Compositions the converter refuses, with why.
func (r *runner) planHeldBack(ctx context.Context) {
	if !r.v2Native() || !r.o.Definitions {
		return
	}
	r.refused = map[string][]string{}
	for _, f := range r.files {
		if f.Kind != tree.EntryCandidate || f.Compositions == 0 || f.Reason != "" || r.ix.PatchFiles[f.Rel] {
			continue
		}
		if ctx.Err() != nil {
			return
		}
		data, err := regularfile.ReadFile(f.Real)
		if err != nil || sha256.Sum256(data) != f.Sum {
			continue // The file's own migration reports it.
		}
		comps := r.compositionsOf(f)
		req := ConvertRequest{Path: f.Rel, Data: data, Format: f.Format, Target: r.o.Target,
			PatchAndTransform: r.o.PatchAndTransform, EnvironmentConfigs: r.o.EnvironmentConfigs, XRDs: r.xrdsOf(f, comps)}
		resp, err := r.convertQuietly(ctx, req)
		if err != nil {
			continue // The file's own migration reports it.
		}
		failed := map[int]bool{}
		for _, d := range resp.Documents {
			failed[d.Index] = d.Status == DocFailed
		}
		for _, c := range comps {
			if !c.Legacy || c.Item >= 0 || !failed[c.Document] {
				continue
			}
			why := "the Composition " + c.Name + " in " + f.Rel + " is refused"
			for _, d := range resp.Diagnostics {
				if d.Severity == SeverityError && d.Document == c.Document {
					why += fmt.Sprintf(" (%s %s)", d.Code, d.Path)
					break
				}
			}
			t := compositeTypeKey(c.CompositeType)
			r.refused[t] = append(r.refused[t], why)
		}
	}
}

// convertQuietly is the converter's Convert, with a panic an error.
func (r *runner) convertQuietly(ctx context.Context, req ConvertRequest) (resp *ConvertResponse, err error) {
	defer func() {
		if p := recover(); p != nil {
			resp, err = nil, fmt.Errorf("the converter crashed: %v", p)
		}
	}()
	return r.o.Converter.Convert(ctx, req)
}

// compositeTypeKey turns "apiVersion, Kind=kind" into typeKey's
// "group|kind".
func compositeTypeKey(compositeType string) string {
	av, kind, _ := strings.Cut(compositeType, ", Kind=")
	return typeKey(av, kind)
}

// heldBack returns why the v2 XRDs of file f are held back: a Composition
// of a type one of its XRDs defines is refused. "" when none is.
func (r *runner) heldBack(f *tree.Scanned) string {
	if len(r.refused) == 0 {
		return ""
	}
	var whys []string
	for _, d := range f.Docs {
		if d.Obj == nil || !tree.IsXRD(d.APIVersion, d.Kind) {
			continue
		}
		g := jsonobj.String(d.Obj, "spec", "group")
		k := jsonobj.String(d.Obj, "spec", "names", "kind")
		if why := r.refused[g+"|"+k]; len(why) > 0 {
			whys = append(whys, fmt.Sprintf("the v2 XRD of %s %s is held back: %s", g, k, strings.Join(why, "; ")))
		}
	}
	sort.Strings(whys)
	return strings.Join(whys, "; ")
}

// twinHeldBack returns why no twin is written for an example of
// group/kind (the XR or claim kind of the XRD req names), "" when one is.
func (r *runner) twinHeldBack(req TwinRequest) string {
	if why := r.refused[req.Group+"|"+req.Kind]; len(why) > 0 {
		return "no v2 XR twin of this example: its type's v2 XRD is held back, because " + strings.Join(why, "; ")
	}
	return ""
}
