package kubetest

import (
	"encoding/json"
	"maps"

	"github.com/pkg/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
)

// The schema Crossplane v1.20.11 adds to every XR and claim CRD it derives
// from an XRD (internal/xcrd/schemas.go at that tag): the fields of spec
// the composite and claim machinery owns, and the status fields of every
// composite resource.
const (
	selectorProps = `{"type":"object","required":["matchLabels"],"properties":{"matchLabels":{"type":"object","additionalProperties":{"type":"string"}}}}`
	nameRef       = `{"type":"object","required":["name"],"properties":{"name":{"type":"string"}}}`
	publishTo     = `{"type":"object","required":["name"],"properties":{"name":{"type":"string"},` +
		`"configRef":{"type":"object","default":{"name":"default"},"properties":{"name":{"type":"string"}}},` +
		`"metadata":{"type":"object","properties":{"labels":{"type":"object","additionalProperties":{"type":"string"}},` +
		`"annotations":{"type":"object","additionalProperties":{"type":"string"}},"type":{"type":"string"}}}}}`
	commonSpecProps = `"compositionRef":` + nameRef + `,"compositionSelector":` + selectorProps +
		`,"compositionRevisionRef":` + nameRef + `,"compositionRevisionSelector":` + selectorProps +
		`,"compositionUpdatePolicy":{"type":"string","enum":["Automatic","Manual"]}` +
		`,"publishConnectionDetailsTo":` + publishTo

	compositeSpecProps = `{` + commonSpecProps +
		`,"claimRef":{"type":"object","required":["apiVersion","kind","namespace","name"],"properties":{"apiVersion":{"type":"string"},"kind":{"type":"string"},"namespace":{"type":"string"},"name":{"type":"string"}}}` +
		`,"resourceRefs":{"type":"array","x-kubernetes-list-type":"atomic","items":{"type":"object","required":["apiVersion","kind"],"properties":{"apiVersion":{"type":"string"},"name":{"type":"string"},"kind":{"type":"string"}}}}` +
		`,"writeConnectionSecretToRef":{"type":"object","required":["name","namespace"],"properties":{"name":{"type":"string"},"namespace":{"type":"string"}}}}`

	claimSpecProps = `{` + commonSpecProps +
		`,"compositeDeletePolicy":{"type":"string","enum":["Background","Foreground"]}` +
		`,"resourceRef":{"type":"object","required":["apiVersion","kind","name"],"properties":{"apiVersion":{"type":"string"},"kind":{"type":"string"},"name":{"type":"string"}}}` +
		`,"writeConnectionSecretToRef":{"type":"object","required":["name"],"properties":{"name":{"type":"string"}}}}`

	statusProps = `{"conditions":{"description":"Conditions of the resource.","type":"array","x-kubernetes-list-map-keys":["type"],"x-kubernetes-list-type":"map",` +
		`"items":{"type":"object","required":["lastTransitionTime","reason","status","type"],"properties":{"lastTransitionTime":{"type":"string","format":"date-time"},` +
		`"message":{"type":"string"},"reason":{"type":"string"},"status":{"type":"string"},"type":{"type":"string"}}}},` +
		`"connectionDetails":{"type":"object","properties":{"lastPublishedTime":{"type":"string","format":"date-time"}}},` +
		`"claimConditionTypes":{"type":"array","x-kubernetes-list-type":"set","items":{"type":"string"}}}`
)

func parseProps(s string) map[string]any {
	m := map[string]any{}
	if err := json.Unmarshal([]byte(s), &m); err != nil {
		panic(err) // a constant above
	}
	return m
}

// CompositeCRDs derives the CRDs Crossplane v1.20.11 creates for an XRD
// (apiextensions.crossplane.io/v1 CompositeResourceDefinition): the
// cluster-scoped XR CRD and, when the XRD offers claims, the namespaced
// claim CRD (nil otherwise). As Crossplane does, each version's schema is
// the XRD's with Crossplane's spec and status fields merged in, and a status
// subresource.
func CompositeCRDs(xrd *unstructured.Unstructured) (xr, claim *unstructured.Unstructured, err error) {
	spec, ok := xrd.Object["spec"].(map[string]any)
	if !ok {
		return nil, nil, errors.Errorf("cannot derive CRDs from XRD %q: it has no spec", xrd.GetName())
	}
	spec = runtime.DeepCopyJSON(spec)
	names, _ := spec["names"].(map[string]any)
	xr, err = deriveCRD(xrd.GetName(), "Cluster", "composite", names, spec, compositeSpecProps, "compositionUpdatePolicy", spec["defaultCompositionUpdatePolicy"])
	if err != nil {
		return nil, nil, err
	}
	claimNames, ok := spec["claimNames"].(map[string]any)
	if !ok {
		return xr, nil, nil
	}
	plural, _ := claimNames["plural"].(string)
	group, _ := spec["group"].(string)
	claim, err = deriveCRD(plural+"."+group, "Namespaced", "claim", claimNames, spec, claimSpecProps, "compositeDeletePolicy", spec["defaultCompositeDeletePolicy"])
	return xr, claim, err
}

func deriveCRD(name, scope, category string, names, xrdSpec map[string]any, specProps, defaultedProp string, dflt any) (*unstructured.Unstructured, error) {
	names = runtime.DeepCopyJSON(names)
	cats, _ := names["categories"].([]any)
	names["categories"] = append(cats, category)
	versions, _ := xrdSpec["versions"].([]any)
	out := make([]any, 0, len(versions))
	for _, v := range versions {
		vr, _ := v.(map[string]any)
		var schema map[string]any
		if s, ok := vr["schema"].(map[string]any); ok {
			schema, _ = s["openAPIV3Schema"].(map[string]any)
		}
		if schema == nil {
			return nil, errors.Errorf("cannot derive CRD %q: version %v has no openAPIV3Schema", name, vr["name"])
		}
		props, _ := schema["properties"].(map[string]any)
		xSpec, _ := props["spec"].(map[string]any)
		xStatus, _ := props["status"].(map[string]any)

		cSpec := map[string]any{"type": "object"}
		sp := map[string]any{}
		if p, ok := xSpec["properties"].(map[string]any); ok {
			maps.Copy(sp, p)
		}
		crossplane := parseProps(specProps)
		if dflt != nil {
			p, _ := crossplane[defaultedProp].(map[string]any)
			p["default"] = dflt
		}
		maps.Copy(sp, crossplane)
		cSpec["properties"] = sp
		for _, k := range []string{"required", "x-kubernetes-preserve-unknown-fields", "x-kubernetes-validations", "oneOf", "description"} {
			if x, ok := xSpec[k]; ok {
				cSpec[k] = x
			}
		}
		cStatus := map[string]any{"type": "object"}
		st := map[string]any{}
		if p, ok := xStatus["properties"].(map[string]any); ok {
			maps.Copy(st, p)
		}
		maps.Copy(st, parseProps(statusProps))
		cStatus["properties"] = st
		for _, k := range []string{"required", "x-kubernetes-validations", "oneOf", "description"} {
			if x, ok := xStatus[k]; ok {
				cStatus[k] = x
			}
		}
		root := map[string]any{
			"type":     "object",
			"required": []any{"spec"},
			"properties": map[string]any{
				"apiVersion": map[string]any{"type": "string"},
				"kind":       map[string]any{"type": "string"},
				"metadata":   map[string]any{"type": "object", "properties": map[string]any{"name": map[string]any{"type": "string", "maxLength": int64(63)}}},
				"spec":       cSpec,
				"status":     cStatus,
			},
		}
		if d, ok := schema["description"]; ok {
			root["description"] = d
		}
		crdv := map[string]any{
			"name":         vr["name"],
			"served":       vr["served"],
			"storage":      vr["referenceable"],
			"schema":       map[string]any{"openAPIV3Schema": root},
			"subresources": map[string]any{"status": map[string]any{}},
		}
		if d, ok := vr["deprecated"]; ok {
			crdv["deprecated"] = d
		}
		out = append(out, crdv)
	}
	group, _ := xrdSpec["group"].(string)
	return &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "apiextensions.k8s.io/v1",
		"kind":       "CustomResourceDefinition",
		"metadata":   map[string]any{"name": name},
		"spec": map[string]any{
			"group":    group,
			"scope":    scope,
			"names":    names,
			"versions": out,
		},
	}}, nil
}
