package batch

import (
	"fmt"
	"path"
	"strings"
)

// isKustomization reports whether a document is a kustomization: a file
// named kustomization.yaml (.yml, Kustomization) or a document of kind
// Kustomization in the kustomize.config.k8s.io group.
func isKustomization(rel string, d docInfo) bool {
	switch path.Base(rel) {
	case "kustomization.yaml", "kustomization.yml", "Kustomization":
		return d.item < 0
	}
	return d.kind == "Kustomization" && groupOf(d.apiVersion) == "kustomize.config.k8s.io"
}

// compositionPaths are the parts of a legacy Composition that conversion
// moves into the pipeline; a patch into them no longer applies.
var compositionPaths = []string{"resources", "patchSets", "environment"}

// kustomizeScan finds the patches kustomizations apply, marks the files
// they live in, and records a finding for each patch that writes into
// spec.resources, spec.patchSets or spec.environment of a Composition.
func (ix *index) kustomizeScan(files []*scanned) {
	byRel := map[string]*scanned{}
	for _, f := range files {
		byRel[f.rel] = f
	}
	for _, f := range files {
		if f.reason != "" {
			continue
		}
		for _, d := range f.docs {
			if d.obj == nil || !isKustomization(f.rel, d) {
				continue
			}
			dir := path.Dir(f.rel)
			for _, p := range kustomizePatches(d.obj) {
				if p.inline != "" {
					v, err := decodeAny([]byte(p.inline))
					if err != nil {
						continue
					}
					ix.checkPatch(f.rel, d.index, d.line, p.at+".patch", p, v)
					continue
				}
				rel := path.Clean(path.Join(dir, p.path))
				ix.patchFiles[rel] = true
				pf := byRel[rel]
				if pf == nil || pf.reason != "" {
					continue
				}
				for _, pd := range pf.docs {
					var v any = pd.obj
					if pd.list != nil {
						v = pd.list
					}
					if v == nil || pd.item >= 0 {
						continue
					}
					ix.checkPatch(pf.rel, pd.index, pd.line, "", p, v)
				}
			}
		}
	}
}

// A kpatch is one patch entry of a kustomization.
type kpatch struct {
	path   string // file, relative to the kustomization
	inline string // inline patch text
	// target selects what a JSON 6902 patch (or a targeted patch) applies
	// to: kind and name, empty when unset.
	targetKind, targetName string
	json6902               bool
	// at locates the entry in the kustomization, such as patches[1].
	at string
}

func kustomizePatches(k map[string]any) []kpatch {
	var out []kpatch
	for i, v := range nestedSlice(k, "patchesStrategicMerge") {
		s, _ := v.(string)
		if s == "" {
			continue
		}
		at := fmt.Sprintf("patchesStrategicMerge[%d]", i)
		if strings.Contains(s, "\n") || strings.Contains(s, ":") && !strings.HasSuffix(s, ".yaml") && !strings.HasSuffix(s, ".yml") {
			out = append(out, kpatch{inline: s, at: at})
			continue
		}
		out = append(out, kpatch{path: s, at: at})
	}
	for _, field := range []string{"patchesJson6902", "patches"} {
		for i, v := range nestedSlice(k, field) {
			m, _ := v.(map[string]any)
			if m == nil {
				continue
			}
			p := kpatch{json6902: field == "patchesJson6902", at: fmt.Sprintf("%s[%d]", field, i)}
			p.path, _ = m["path"].(string)
			p.inline, _ = m["patch"].(string)
			p.targetKind, _ = nestedString(m, "target", "kind")
			p.targetName, _ = nestedString(m, "target", "name")
			if p.path == "" && p.inline == "" {
				continue
			}
			out = append(out, p)
		}
	}
	return out
}

// checkPatch records a finding when patch content v (a JSON 6902 op list
// or a strategic-merge object) writes into a Composition's resources,
// patchSets or environment.
func (ix *index) checkPatch(file string, doc, line int, where string, p kpatch, v any) {
	switch t := v.(type) {
	case []any:
		if p.targetKind != "" && p.targetKind != "Composition" {
			return
		}
		for i, op := range t {
			om, _ := op.(map[string]any)
			pth, _ := om["path"].(string)
			opn, _ := om["op"].(string)
			for _, cp := range compositionPaths {
				if pth == "/spec/"+cp || strings.HasPrefix(pth, "/spec/"+cp+"/") {
					ix.addKustomize(file, Finding{
						Code: "M401", Severity: SeverityWarning, Document: doc, Line: line,
						Composition: p.targetName,
						Path:        fmt.Sprintf("%s[%d].path", where, i),
						Message: fmt.Sprintf("kustomize patch (%s %s) writes into spec.%s of Composition %q; after conversion that content lives in spec.pipeline[].input.%s, so the patch will fail or do nothing: rewrite it against the converted Composition",
							opn, pth, cp, orAny(p.targetName), cp),
					})
					break
				}
			}
		}
	case map[string]any:
		k, _ := t["kind"].(string)
		av, _ := t["apiVersion"].(string)
		if !isComposition(av, k) {
			if p.targetKind != "Composition" || k != "" {
				return
			}
		}
		name, _ := nestedString(t, "metadata", "name")
		if name == "" {
			name = p.targetName
		}
		spec := nestedMap(t, "spec")
		for _, cp := range compositionPaths {
			if _, ok := spec[cp]; !ok {
				continue
			}
			ix.addKustomize(file, Finding{
				Code: "M401", Severity: SeverityWarning, Document: doc, Line: line,
				Composition: name, Path: strings.TrimPrefix(where+".spec."+cp, "."),
				Message: fmt.Sprintf("kustomize strategic-merge patch sets spec.%s of Composition %q; after conversion that content lives in spec.pipeline[].input.%s, so the patch would bring back a field Pipeline mode ignores: rewrite it against the converted Composition",
					cp, orAny(name), cp),
			})
		}
	}
}

func (ix *index) addKustomize(file string, f Finding) {
	ix.kustomize[file] = append(ix.kustomize[file], f)
}

func orAny(name string) string {
	if name == "" {
		return "*"
	}
	return name
}
