package verify

import (
	"strconv"

	"github.com/pkg/errors"

	"github.com/xpmigrate/xpmigrate/internal/jsonobj"
	"github.com/xpmigrate/xpmigrate/internal/manifest"
	"github.com/xpmigrate/xpmigrate/render"
)

// referenceConvert converts a legacy Composition the way
// docs/semantics/conversion.md#the-composition-object and the sections after it say, on decoded maps (no comment or order preservation, which
// the real converter adds). It produced the hand-checked converted.yaml of
// testdata/corpus, and lets tests exercise Options.Convert until the real
// converter is plugged in.
func referenceConvert(req ConvertRequest) ([]byte, error) {
	c, err := manifest.DecodeObject(req.Composition)
	if err != nil {
		return nil, err
	}
	if c == nil {
		return nil, errors.New("no composition")
	}
	spec, _ := c["spec"].(map[string]any)
	out := map[string]any{}
	for k, v := range spec {
		switch k {
		case "resources", "patchSets", "environment", "mode":
		default:
			out[k] = v
		}
	}
	out["mode"] = "Pipeline"

	var steps []any
	pt := map[string]any{"apiVersion": "pt.fn.crossplane.io/v1beta1", "kind": "Resources"}
	if env, ok := spec["environment"].(map[string]any); ok {
		ec := map[string]any{}
		if dd, ok := env["defaultData"].(map[string]any); ok && len(dd) > 0 {
			ec["defaultData"] = dd
		}
		if cs := jsonobj.AsList(env["environmentConfigs"]); len(cs) > 0 {
			ec["environmentConfigs"] = cs
		}
		if pol, ok := env["policy"].(map[string]any); ok {
			if r, ok := pol["resolution"]; ok {
				ec["policy"] = map[string]any{"resolution": r}
			}
		}
		if len(ec) > 0 && (ec["defaultData"] != nil || ec["environmentConfigs"] != nil) {
			steps = append(steps, map[string]any{
				"step":        "environment-configs",
				"functionRef": map[string]any{"name": "function-environment-configs"},
				"input": map[string]any{
					"apiVersion": "environmentconfigs.fn.crossplane.io/v1beta1",
					"kind":       "Input",
					"spec":       ec,
				},
			})
		}
		if ps := jsonobj.AsList(env["patches"]); len(ps) > 0 {
			pt["environment"] = map[string]any{"patches": convertPatches(ps)}
		}
	}
	if sets := jsonobj.AsList(spec["patchSets"]); len(sets) > 0 {
		var outSets []any
		for _, s := range sets {
			sm, _ := s.(map[string]any)
			outSets = append(outSets, map[string]any{"name": sm["name"], "patches": convertPatches(jsonobj.AsList(sm["patches"]))})
		}
		pt["patchSets"] = outSets
	}
	var resources []any
	for i, r := range jsonobj.AsList(spec["resources"]) {
		rm, _ := r.(map[string]any)
		nr := map[string]any{}
		for k, v := range rm {
			nr[k] = v
		}
		if n, _ := rm["name"].(string); n == "" {
			nr["name"] = "resource-" + strconv.Itoa(i)
		}
		if ps := jsonobj.AsList(rm["patches"]); ps != nil {
			nr["patches"] = convertPatches(ps)
		}
		if cds := jsonobj.AsList(rm["connectionDetails"]); cds != nil {
			nr["connectionDetails"] = convertDetails(cds)
		}
		if rcs := jsonobj.AsList(rm["readinessChecks"]); rcs != nil {
			nr["readinessChecks"] = convertChecks(rcs)
		}
		resources = append(resources, nr)
	}
	pt["resources"] = resources
	steps = append(steps, map[string]any{
		"step":        "patch-and-transform",
		"functionRef": map[string]any{"name": "function-patch-and-transform"},
		"input":       pt,
	})
	out["pipeline"] = steps
	c["spec"] = out
	return render.MarshalYAML(c)
}

func convertPatches(ps []any) []any {
	out := make([]any, 0, len(ps))
	for _, p := range ps {
		pm, _ := jsonobj.CopyTree(p).(map[string]any)
		if pm == nil {
			continue
		}
		if _, ok := pm["type"]; !ok {
			pm["type"] = "FromCompositeFieldPath"
		}
		if pol, ok := pm["policy"].(map[string]any); ok {
			if mo, ok := pol["mergeOptions"]; ok {
				delete(pol, "mergeOptions")
				if mom, ok := mo.(map[string]any); ok {
					keep, app := mom["keepMapValues"] == true, mom["appendSlice"] == true
					switch {
					case keep && app:
						pol["toFieldPath"] = "MergeObjectsAppendArrays"
					case keep:
						pol["toFieldPath"] = "MergeObjects"
					case app:
						pol["toFieldPath"] = "ForceMergeObjectsAppendArrays"
					default:
						pol["toFieldPath"] = "ForceMergeObjects"
					}
				}
			}
			if len(pol) == 0 {
				delete(pm, "policy")
			}
		}
		for _, t := range jsonobj.AsList(pm["transforms"]) {
			convertTransform(t.(map[string]any))
		}
		out = append(out, pm)
	}
	return out
}

func convertTransform(t map[string]any) {
	switch t["type"] {
	case "string":
		s, _ := t["string"].(map[string]any)
		if _, ok := s["type"]; ok || s == nil {
			return
		}
		for k, v := range map[string]string{"fmt": "Format", "convert": "Convert", "regexp": "Regexp", "join": "Join"} {
			if _, ok := s[k]; ok {
				s["type"] = v
			}
		}
	case "math":
		m, _ := t["math"].(map[string]any)
		if _, ok := m["type"]; ok || m == nil {
			return
		}
		for k, v := range map[string]string{"multiply": "Multiply", "clampMin": "ClampMin", "clampMax": "ClampMax"} {
			if _, ok := m[k]; ok {
				m["type"] = v
			}
		}
	case "match":
		m, _ := t["match"].(map[string]any)
		for _, p := range jsonobj.AsList(m["patterns"]) {
			if pm, ok := p.(map[string]any); ok {
				if _, ok := pm["type"]; !ok {
					pm["type"] = "literal"
				}
			}
		}
	}
}

func convertDetails(cds []any) []any {
	out := make([]any, 0, len(cds))
	for _, cd := range cds {
		m, _ := jsonobj.CopyTree(cd).(map[string]any)
		if _, ok := m["type"]; !ok {
			switch {
			case m["value"] != nil:
				m["type"] = "FromValue"
			case m["fromConnectionSecretKey"] != nil:
				m["type"] = "FromConnectionSecretKey"
			case m["fromFieldPath"] != nil:
				m["type"] = "FromFieldPath"
			}
		}
		if _, ok := m["name"]; !ok && m["type"] == "FromConnectionSecretKey" {
			m["name"] = m["fromConnectionSecretKey"]
		}
		out = append(out, m)
	}
	return out
}

func convertChecks(rcs []any) []any {
	out := make([]any, 0, len(rcs))
	for _, rc := range rcs {
		m, _ := jsonobj.CopyTree(rc).(map[string]any)
		if m["type"] == "MatchCondition" {
			mc, _ := m["matchCondition"].(map[string]any)
			if mc == nil {
				mc = map[string]any{}
				m["matchCondition"] = mc
			}
			if _, ok := mc["type"]; !ok {
				mc["type"] = "Ready"
			}
			if _, ok := mc["status"]; !ok {
				mc["status"] = "True"
			}
		}
		out = append(out, m)
	}
	return out
}
