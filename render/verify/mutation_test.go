package verify

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/xpmigrate/xpmigrate/internal/jsonobj"
	"github.com/xpmigrate/xpmigrate/render"
	"github.com/xpmigrate/xpmigrate/render/verify/gaps"
)

// A mutation breaks a converted Composition the way a buggy converter
// would.
type mutation struct {
	name  string
	apply func(comp map[string]any)
}

// ptInput returns the converted Composition's PT step input.
func ptInput(comp map[string]any) map[string]any {
	m := gaps.PipelineModel(comp)
	steps := jsonobj.AsList(jsonobj.Value(comp, "spec", "pipeline"))
	in, _ := steps[m.PTStep].(map[string]any)["input"].(map[string]any)
	return in
}

// mutations lists the mutations of a converted Composition that must be
// caught: each exercised patch dropped, the first transform of each
// exercised patch changed, each resource removed, the environment step
// removed. exercised says whether a converted patch (resource, index in
// the written patches list) fired for the samples.
func mutations(comp map[string]any, exercised func(resource string, written int) bool) []mutation {
	var out []mutation
	in := ptInput(comp)
	for i, r := range jsonobj.AsList(in["resources"]) {
		rm, _ := r.(map[string]any)
		name, _ := rm["name"].(string)
		out = append(out, mutation{
			name: fmt.Sprintf("remove resource %q", name),
			apply: func(c map[string]any) {
				in := ptInput(c)
				rs := jsonobj.AsList(in["resources"])
				in["resources"] = append(append([]any(nil), rs[:i]...), rs[i+1:]...)
			},
		})
		for j, p := range jsonobj.AsList(rm["patches"]) {
			if !exercised(name, j) {
				continue
			}
			out = append(out, mutation{
				name: fmt.Sprintf("drop patch %d of %q", j, name),
				apply: func(c map[string]any) {
					r := jsonobj.AsList(ptInput(c)["resources"])[i].(map[string]any)
					ps := jsonobj.AsList(r["patches"])
					r["patches"] = append(append([]any(nil), ps[:j]...), ps[j+1:]...)
				},
			})
			pm, _ := p.(map[string]any)
			if len(jsonobj.AsList(pm["transforms"])) == 0 {
				continue
			}
			out = append(out, mutation{
				name: fmt.Sprintf("change the first transform of patch %d of %q", j, name),
				apply: func(c map[string]any) {
					r := jsonobj.AsList(ptInput(c)["resources"])[i].(map[string]any)
					p := jsonobj.AsList(r["patches"])[j].(map[string]any)
					changeTransform(jsonobj.AsList(p["transforms"])[0].(map[string]any))
				},
			})
		}
	}
	if m := gaps.PipelineModel(comp); m.ECStep >= 0 {
		out = append(out, mutation{
			name: "remove the environment step",
			apply: func(c map[string]any) {
				spec := c["spec"].(map[string]any)
				steps := jsonobj.AsList(spec["pipeline"])
				spec["pipeline"] = append(append([]any(nil), steps[:m.ECStep]...), steps[m.ECStep+1:]...)
			},
		})
	}
	return out
}

// changeTransform changes what a transform produces.
func changeTransform(t map[string]any) {
	switch t["type"] {
	case "map":
		m, _ := t["map"].(map[string]any)
		for k, v := range m {
			m[k] = fmt.Sprint(v, "-changed")
		}
	case "math":
		m, _ := t["math"].(map[string]any)
		if v, ok := m["multiply"].(int64); ok {
			m["multiply"] = v + 1
		}
	case "string":
		s, _ := t["string"].(map[string]any)
		if f, ok := s["fmt"].(string); ok {
			s["fmt"] = f + "-changed"
		}
	case "match":
		m, _ := t["match"].(map[string]any)
		for _, p := range jsonobj.AsList(m["patterns"]) {
			pm, _ := p.(map[string]any)
			pm["result"] = fmt.Sprint(pm["result"], "-changed")
		}
	}
}

// TestCorpusMutationsCaught: every broken conversion of a corpus
// composition fails verification with an unexplained difference.
func TestCorpusMutationsCaught(t *testing.T) {
	for _, dir := range corpusCases(t) {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			c := loadCase(t, dir)
			base := c.verify(t)
			unexercised := map[string]bool{}
			for _, p := range base.Unexercised {
				unexercised[fmt.Sprintf("%s/%d", p.Resource, p.Index)] = true
			}
			conv := objects(t, string(c.converted.Data))[0]
			pm := gaps.PipelineModel(conv)
			exercised := func(resource string, written int) bool {
				tpl, ok := pm.Template(resource)
				if !ok {
					return false
				}
				for _, p := range tpl.Patches {
					if w, _ := p.YAMLPath[len(p.YAMLPath)-1].(int); w == written && !unexercised[fmt.Sprintf("%s/%d", resource, p.Index)] {
						return true
					}
				}
				return false
			}
			ms := mutations(conv, exercised)
			if len(ms) == 0 {
				t.Fatal("no mutations")
			}
			t.Logf("%d mutations", len(ms))
			for _, m := range ms {
				mutated := deepCopyMap(conv)
				m.apply(mutated)
				b, err := render.MarshalYAML(mutated)
				if err != nil {
					t.Fatal(err)
				}
				mc := c
				mc.converted = Document{Path: "mutated.yaml", Data: b}
				r := mc.verify(t)
				if r.Unexplained == 0 || r.Equivalent() {
					t.Errorf("%s: %s: verdict %s with %d unexplained differences, want different; differences:\n%s", dir, m.name, r.Verdict, r.Unexplained, strings.Join(summary(r), "\n"))
				}
			}
		})
	}
}
