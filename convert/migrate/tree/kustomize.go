package tree

import (
	"fmt"
	"path"
	"strings"

	"github.com/xpmigrate/xpmigrate/convert/migrate/finding"
	"github.com/xpmigrate/xpmigrate/convert/migrate/kustomize"
	"github.com/xpmigrate/xpmigrate/internal/jsonobj"
	"github.com/xpmigrate/xpmigrate/internal/manifest"
)

// kustomizeScan finds the patches kustomizations apply, marks the files
// they live in, and records a finding for each patch that writes into
// spec.resources, spec.patchSets or spec.environment of a Composition.
func (ix *Index) kustomizeScan(files []*Scanned) {
	byRel := map[string]*Scanned{}
	for _, f := range files {
		byRel[f.Rel] = f
	}
	// First every patch file is known, so that the Compositions in them
	// are not taken for the Compositions the patches target.
	type found struct {
		f *Scanned
		d DocInfo
		p kustomize.Patch
	}
	var all []found
	for _, f := range files {
		if f.Reason != "" {
			continue
		}
		for _, d := range f.Docs {
			if d.Obj == nil || !kustomize.IsKustomization(f.Rel, d.Item, d.APIVersion, d.Kind) {
				continue
			}
			for _, p := range kustomize.Patches(d.Obj) {
				all = append(all, found{f, d, p})
				if p.Inline == "" {
					ix.PatchFiles[path.Clean(path.Join(path.Dir(f.Rel), p.Path))] = true
				}
			}
		}
	}
	for _, k := range all {
		f, d, p := k.f, k.d, k.p
		if p.Inline != "" {
			v, err := manifest.DecodeValue([]byte(p.Inline))
			if err != nil {
				continue
			}
			ix.checkPatch(f.Rel, d.Index, d.Line, p.At+".patch", p, v)
			continue
		}
		pf := byRel[path.Clean(path.Join(path.Dir(f.Rel), p.Path))]
		if pf == nil || pf.Reason != "" {
			continue
		}
		for _, pd := range pf.Docs {
			var v any = pd.Obj
			if pd.list != nil {
				v = pd.list
			}
			if v == nil || pd.Item >= 0 {
				continue
			}
			ix.checkPatch(pf.Rel, pd.Index, pd.Line, "", p, v)
		}
	}
}

// checkPatch records a finding when patch content v (a JSON 6902 op list
// or a strategic-merge object) writes into a Composition's resources,
// patchSets or environment.
func (ix *Index) checkPatch(file string, doc, line int, where string, p kustomize.Patch, v any) {
	switch t := v.(type) {
	case []any:
		if p.TargetKind != "" && p.TargetKind != "Composition" {
			return
		}
		for i, op := range t {
			om, _ := op.(map[string]any)
			pth, _ := om["path"].(string)
			opn, _ := om["op"].(string)
			for _, cp := range kustomize.CompositionPaths {
				if pth == "/spec/"+cp || strings.HasPrefix(pth, "/spec/"+cp+"/") {
					ix.addKustomize(file, finding.Diagnostic{
						Code: "M401", Severity: finding.SeverityWarning, Document: doc, Line: line,
						Composition: p.TargetName,
						Path:        fmt.Sprintf("%s[%d].path", where, i),
						Message: fmt.Sprintf("kustomize patch (%s %s) writes into spec.%s of Composition %q, which conversion moves: %s",
							opn, pth, cp, orAny(p.TargetName), ix.pointerFix(pth, p.TargetName)),
					})
					break
				}
			}
		}
	case map[string]any:
		k, _ := t["kind"].(string)
		av, _ := t["apiVersion"].(string)
		if !IsComposition(av, k) {
			if p.TargetKind != "Composition" || k != "" {
				return
			}
		}
		name := jsonobj.String(t, "metadata", "name")
		if name == "" {
			name = p.TargetName
		}
		spec := jsonobj.Map(t, "spec")
		for _, cp := range kustomize.CompositionPaths {
			if _, ok := spec[cp]; !ok {
				continue
			}
			ix.addKustomize(file, finding.Diagnostic{
				Code: "M401", Severity: finding.SeverityWarning, Document: doc, Line: line,
				Composition: name, Path: strings.TrimPrefix(where+".spec."+cp, "."),
				Message: fmt.Sprintf("kustomize strategic-merge patch sets spec.%s of Composition %q; after conversion that content lives in %s, and a merge patch cannot reach it (it would replace the whole spec.pipeline list): turn it into a JSON 6902 patch on %s/... with the content as the converted Composition holds it",
					cp, orAny(name), ix.inputPointer(cp, name), ix.inputPointer(cp, name)),
			})
		}
	}
}

func (ix *Index) addKustomize(file string, f finding.Diagnostic) {
	ix.Kustomize[file] = append(ix.Kustomize[file], f)
}

func orAny(name string) string {
	if name == "" {
		return "*"
	}
	return name
}

// stepOf returns the index the patch-and-transform step of the legacy
// Composition named name gets, when every legacy Composition of that name
// agrees.
func (ix *Index) stepOf(name string) (int, bool) {
	step, found := 0, false
	for _, c := range ix.Compositions {
		if !c.Legacy || c.Name != name || name == "" || ix.PatchFiles[c.File] {
			continue
		}
		if found && c.ptStep != step {
			return 0, false
		}
		step, found = c.ptStep, true
	}
	return step, found
}

// inputPointer is the JSON pointer of spec.<cp> of a Composition once
// converted ("/spec/pipeline/<step>/input/<cp>"; environment configs go to
// the environment-configs step's input).
func (ix *Index) inputPointer(cp, name string) string {
	step, ok := ix.stepOf(name)
	s := "<step>"
	if ok {
		s = fmt.Sprint(step)
	}
	if cp == "environment" {
		return "/spec/pipeline/0/input/spec (environmentConfigs) and /spec/pipeline/" + s + "/input/environment (patches)"
	}
	return "/spec/pipeline/" + s + "/input/" + cp
}

// pointerFix says what to do with a JSON 6902 operation on pth.
func (ix *Index) pointerFix(pth, name string) string {
	step, ok := ix.stepOf(name)
	if !ok {
		return "give the patch a target that names the Composition, so that migrate can rewrite it, or point it at the converted Composition's spec.pipeline[].input by hand"
	}
	if np, safe := kustomize.PipelinePointer(pth, step); safe {
		return fmt.Sprintf("once the Composition is converted, the path is %s (migrate rewrites it when it converts the Composition in the same run)", np)
	}
	rest := strings.TrimPrefix(pth, "/spec/")
	if strings.HasPrefix(rest, "environment") {
		return fmt.Sprintf("the environment moves to the pipeline (%s): rewrite the operation by hand against the converted Composition", ix.inputPointer("environment", name))
	}
	return fmt.Sprintf("the content moves to /spec/pipeline/%d/input/%s in converted form (named templates, policies and transforms as function-patch-and-transform reads them): rewrite the path to it and the value as the converted Composition holds it", step, rest)
}
