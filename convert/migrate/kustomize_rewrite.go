package migrate

import (
	"context"
	"fmt"
	"path"
	"strconv"
	"strings"

	yaml3 "go.yaml.in/yaml/v3"

	"github.com/xpmigrate/xpmigrate/convert/migrate/kustomize"
	"github.com/xpmigrate/xpmigrate/convert/migrate/tree"
	"github.com/xpmigrate/xpmigrate/internal/manifest"
	"github.com/xpmigrate/xpmigrate/internal/regularfile"
)

// rewriteKustomize rewrites, once the files are migrated, the JSON 6902
// patches of kustomizations that point into spec.resources or
// spec.patchSets of a Composition converted in this run, to where that
// content now is, as text edits of the path scalars (everything else in
// the file stays byte for byte). A patch is rewritten only when its target
// names the Composition, every legacy Composition of that name was
// converted, and all of them put patch-and-transform at the same step;
// an operation only when kustomize.PipelinePointer answers for it. The others keep
// their M401 finding.
func (r *runner) rewriteKustomize(ctx context.Context, outs []*outcome) []*outcome {
	if ctx.Err() != nil || r.o.Phase1 {
		return outs
	}
	byRel := map[string]int{}
	for i, f := range r.files {
		if i < len(outs) && outs[i] != nil {
			byRel[f.Rel] = i
		}
	}
	perFile, order := r.kustomizeEdits(r.convertedSteps(outs), byRel)
	for _, file := range order {
		r.applyKustomizeEdits(outs[byRel[file]], r.files[byRel[file]], perFile[file])
	}
	return outs
}

// convertedSteps returns, for the name of a Composition, the step
// patch-and-transform is at in every legacy Composition of that name, and
// true; false when one of them was not converted or they differ.
func (r *runner) convertedSteps(outs []*outcome) func(name string) (int, bool) {
	steps, blocked := map[string]map[int]bool{}, map[string]bool{}
	for i, oc := range outs {
		if i >= len(r.files) || oc == nil || oc.file.Reason == ReasonKustomizePatch {
			continue
		}
		for _, c := range oc.comps {
			switch {
			case c.Status == CompositionConverted && oc.file.Status == FileConverted:
				if steps[c.Name] == nil {
					steps[c.Name] = map[int]bool{}
				}
				steps[c.Name][r.ptStepOf(r.files[i], c)] = true
			case c.Legacy:
				blocked[c.Name] = true
			}
		}
	}
	return func(name string) (int, bool) {
		if name == "" || blocked[name] || len(steps[name]) != 1 {
			return 0, false
		}
		for s := range steps[name] {
			return s, true
		}
		return 0, false
	}
}

// kustomizeEdits returns the edits of the patches of every kustomization
// that targets a converted Composition (stepOf), by the file (relative
// path) they edit, and those files in the order they were found. byRel
// numbers the migrated files by relative path.
func (r *runner) kustomizeEdits(stepOf func(string) (int, bool), byRel map[string]int) (map[string][]kustomize.OpEdit, []string) {
	perFile := map[string][]kustomize.OpEdit{}
	var order []string
	add := func(file string, es []kustomize.OpEdit) {
		if len(es) == 0 {
			return
		}
		if _, ok := perFile[file]; !ok {
			order = append(order, file)
		}
		perFile[file] = append(perFile[file], es...)
	}
	for _, f := range r.files {
		if f.Reason != "" || f.Kind != tree.EntryCandidate {
			continue
		}
		for _, d := range f.Docs {
			if d.Obj == nil || !kustomize.IsKustomization(f.Rel, d.Item, d.APIVersion, d.Kind) {
				continue
			}
			for _, p := range kustomize.Patches(d.Obj) {
				if p.TargetKind != "" && p.TargetKind != "Composition" {
					continue
				}
				step, ok := stepOf(p.TargetName)
				if !ok {
					continue
				}
				if p.Inline != "" {
					add(f.Rel, r.inlineEdits(f, d.Index, p, step))
					continue
				}
				rel := path.Clean(path.Join(path.Dir(f.Rel), p.Path))
				i, ok := byRel[rel]
				if !ok || r.files[i].Reason != "" {
					continue
				}
				data, err := readScanned(r.files[i])
				if err != nil {
					continue
				}
				add(rel, kustomize.JSONPatchEdits(string(data), 1, 0, "", p.TargetName, step))
			}
		}
	}
	return perFile, order
}

// applyKustomizeEdits applies the edits ops of file f (outcome oc), each
// once: a patch file two kustomizations use is rewritten once.
func (r *runner) applyKustomizeEdits(oc *outcome, f *tree.Scanned, ops []kustomize.OpEdit) {
	var es []kustomize.OpEdit
	var edits []kustomize.TextEdit
	seenOp, seenEdit := map[string]bool{}, map[[2]int]bool{}
	for _, e := range ops {
		if seenOp[e.At] {
			continue
		}
		seenOp[e.At] = true
		es = append(es, e)
		for _, te := range e.Edits {
			if k := [2]int{te.Line, te.Col}; !seenEdit[k] {
				seenEdit[k] = true
				edits = append(edits, te)
			}
		}
	}
	failed := false
	r.editFile(oc, f, func(data []byte) ([]byte, error) {
		out, err := kustomize.ApplyTextEdits(data, edits)
		failed = err != nil
		return out, err
	})
	if failed || oc.file.Status == FileFailed || oc.file.Status == FileSkipped {
		return
	}
	r.rewritten(oc, es)
}

// rewritten replaces the M401 findings of rewritten operations with M411.
func (r *runner) rewritten(oc *outcome, es []kustomize.OpEdit) {
	done := map[string]kustomize.OpEdit{}
	for _, e := range es {
		done[e.At] = e
	}
	var kept []Diagnostic
	for _, d := range oc.file.Diagnostics {
		e, ok := done[d.Path]
		if d.Code != "M401" || !ok {
			kept = append(kept, d)
			continue
		}
		kept = append(kept, Finding{Code: "M411", Severity: SeverityInfo, Document: d.Document, Line: d.Line, Composition: e.Composition, Path: d.Path,
			Message: fmt.Sprintf("kustomize patch path %s rewritten to %s, where the converted Composition %q holds that content", e.From, e.To, e.Composition)})
	}
	oc.file.Diagnostics = kept
}

// inlineEdits returns the rewrites of an inline JSON 6902 patch written as
// a literal block scalar (patch: |) in a kustomization; other styles are
// left alone.
func (r *runner) inlineEdits(f *tree.Scanned, doc int, p kustomize.Patch, step int) []kustomize.OpEdit {
	data, err := readScanned(f)
	if err != nil {
		return nil
	}
	docs := manifest.Split(data)
	if doc >= len(docs) {
		return nil
	}
	c := docs[doc]
	n, err := c.Node()
	if err != nil || len(n.Content) != 1 {
		return nil
	}
	field, idx, ok := strings.Cut(strings.TrimSuffix(p.At, "]"), "[")
	if !ok {
		return nil
	}
	i, err := strconv.Atoi(idx)
	if err != nil {
		return nil
	}
	list := kustomize.MapValue(n.Content[0], field)
	if list == nil || list.Kind != yaml3.SequenceNode || i >= len(list.Content) {
		return nil
	}
	v := kustomize.MapValue(list.Content[i], "patch")
	if v == nil || v.Kind != yaml3.ScalarNode || v.Style != yaml3.LiteralStyle {
		return nil
	}
	// The content starts on the line after the indicator, indented as its
	// first line that is not blank.
	lines := strings.Split(string(c.Raw), "\n")
	first := v.Line // 0-based index of the line after the indicator
	indent := -1
	for l := first; l < len(lines); l++ {
		if strings.TrimSpace(lines[l]) != "" {
			indent = len(lines[l]) - len(strings.TrimLeft(lines[l], " "))
			break
		}
	}
	if indent < 0 {
		return nil
	}
	return kustomize.JSONPatchEdits(v.Value, c.Line+first, indent, p.At+".patch", p.TargetName, step)
}

// readScanned reads a file of the tree as the scan read it.
func readScanned(f *tree.Scanned) ([]byte, error) {
	return regularfile.ReadFile(f.Real)
}
