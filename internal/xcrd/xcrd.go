package xcrd

import (
	"encoding/json"
	"fmt"
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
	xr, err = deriveCRD(xrd.GetName(), "Cluster", "composite", names, spec, crdFlavour{
		specProps:   withDefault(parseProps(compositeSpecProps), spec["defaultCompositionUpdatePolicy"], "compositionUpdatePolicy"),
		statusProps: parseProps(statusProps),
	})
	if err != nil {
		return nil, nil, err
	}
	claimNames, ok := spec["claimNames"].(map[string]any)
	if !ok {
		return xr, nil, nil
	}
	plural, _ := claimNames["plural"].(string)
	group, _ := spec["group"].(string)
	claim, err = deriveCRD(plural+"."+group, "Namespaced", "claim", claimNames, spec, crdFlavour{
		specProps:   withDefault(parseProps(claimSpecProps), spec["defaultCompositeDeletePolicy"], "compositeDeletePolicy"),
		statusProps: parseProps(statusProps),
	})
	return xr, claim, err
}

// withDefault sets the default of the property at path in props to dflt,
// when dflt is set.
func withDefault(props map[string]any, dflt any, path ...string) map[string]any {
	if dflt == nil {
		return props
	}
	p := props
	for i, k := range path {
		m, _ := p[k].(map[string]any)
		if i == len(path)-1 {
			m["default"] = dflt
			break
		}
		p, _ = m["properties"].(map[string]any)
	}
	return props
}

// The schema Crossplane v2.3.4 adds to the XR CRD it derives from an
// apiextensions.crossplane.io/v2 XRD of scope Namespaced or Cluster
// (crossplane-runtime v2.3.3, pkg/xcrd/schemas.go): the machinery's fields
// under spec.crossplane, a namespaced XR's resourceRefs without a
// namespace, and only conditions in the status.
const (
	resourceRefsV2 = `{"type":"array","x-kubernetes-list-type":"atomic","items":{"type":"object","required":["apiVersion","kind"],"properties":{"apiVersion":{"type":"string"},"name":{"type":"string"},%s"kind":{"type":"string"}}}}`
	crossplaneV2   = `{"crossplane":{"type":"object","description":"Configures how Crossplane will reconcile this composite resource","properties":{` +
		`"compositionRef":` + nameRef + `,"compositionSelector":` + selectorProps +
		`,"compositionRevisionRef":` + nameRef + `,"compositionRevisionSelector":` + selectorProps +
		`,"compositionUpdatePolicy":{"type":"string","enum":["Automatic","Manual"]}` +
		`,"resourceRefs":%s}}}`
	statusPropsV2 = `{"conditions":{"description":"Conditions of the resource.","type":"array","x-kubernetes-list-map-keys":["type"],"x-kubernetes-list-type":"map",` +
		`"items":{"type":"object","required":["lastTransitionTime","reason","status","type"],"properties":{"lastTransitionTime":{"type":"string","format":"date-time"},` +
		`"message":{"type":"string"},"reason":{"type":"string"},"status":{"type":"string"},"type":{"type":"string"},"observedGeneration":{"type":"integer","format":"int64"}}}}}`
	printerColumnsV2 = `[{"name":"SYNCED","type":"string","jsonPath":".status.conditions[?(@.type=='Synced')].status"},` +
		`{"name":"READY","type":"string","jsonPath":".status.conditions[?(@.type=='Ready')].status"},` +
		`{"name":"COMPOSITION","type":"string","jsonPath":".spec.crossplane.compositionRef.name"},` +
		`{"name":"COMPOSITIONREVISION","type":"string","jsonPath":".spec.crossplane.compositionRevisionRef.name","priority":1},` +
		`{"name":"AGE","type":"date","jsonPath":".metadata.creationTimestamp"}]`
)

// CompositeCRDV2 derives the XR CRD Crossplane v2.3.4 creates for an
// apiextensions.crossplane.io/v2 CompositeResourceDefinition of scope
// Namespaced (the default) or Cluster: the XRD's schema with
// spec.crossplane (compositionRef, compositionSelector,
// compositionRevisionRef, compositionRevisionSelector,
// compositionUpdatePolicy defaulted from defaultCompositionUpdatePolicy,
// resourceRefs) and status.conditions merged in, the schema's own
// x-kubernetes-validations, the XRD's printer columns followed by
// Crossplane's, and a status subresource (and the XRD's scale subresource).
// A v2 XRD has no claims; a LegacyCluster one is refused (its CRD is
// CompositeCRDs' XR CRD). The XRD's conversion webhook is not carried over:
// the server has no webhook to call.
func CompositeCRDV2(xrd *unstructured.Unstructured) (*unstructured.Unstructured, error) {
	spec, ok := xrd.Object["spec"].(map[string]any)
	if !ok {
		return nil, errors.Errorf("cannot derive a CRD from XRD %q: it has no spec", xrd.GetName())
	}
	spec = runtime.DeepCopyJSON(spec)
	scope, _ := spec["scope"].(string)
	refNamespace := ""
	switch scope {
	case "", "Namespaced":
		scope = "Namespaced"
	case "Cluster":
		refNamespace = `"namespace":{"type":"string"},`
	default:
		return nil, errors.Errorf("cannot derive a CRD from XRD %q: scope %q is not Namespaced or Cluster", xrd.GetName(), scope)
	}
	names, _ := spec["names"].(map[string]any)
	return deriveCRD(xrd.GetName(), scope, "composite", names, spec, crdFlavour{
		specProps: withDefault(parseProps(fmt.Sprintf(crossplaneV2, fmt.Sprintf(resourceRefsV2, refNamespace))),
			spec["defaultCompositionUpdatePolicy"], "crossplane", "compositionUpdatePolicy"),
		statusProps: parseProps(statusPropsV2),
		v2:          true,
	})
}

// A crdFlavour is what Crossplane adds to the schema of an XRD's version.
type crdFlavour struct {
	specProps, statusProps map[string]any
	// v2 carries the schema's own validations, the printer columns and
	// the scale subresource over, as Crossplane v2 does.
	v2 bool
}

func deriveCRD(name, scope, category string, names, xrdSpec map[string]any, f crdFlavour) (*unstructured.Unstructured, error) {
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
		maps.Copy(sp, runtime.DeepCopyJSON(f.specProps))
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
		maps.Copy(st, runtime.DeepCopyJSON(f.statusProps))
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
		subresources := map[string]any{"status": map[string]any{}}
		crdv := map[string]any{
			"name":         vr["name"],
			"served":       vr["served"],
			"storage":      vr["referenceable"],
			"schema":       map[string]any{"openAPIV3Schema": root},
			"subresources": subresources,
		}
		if d, ok := vr["deprecated"]; ok {
			crdv["deprecated"] = d
		}
		if f.v2 {
			if x, ok := schema["x-kubernetes-validations"]; ok {
				root["x-kubernetes-validations"] = x
			}
			cols, _ := vr["additionalPrinterColumns"].([]any)
			var crossplane []any
			if err := json.Unmarshal([]byte(printerColumnsV2), &crossplane); err != nil {
				panic(err) // a constant above
			}
			crdv["additionalPrinterColumns"] = append(append([]any{}, cols...), crossplane...)
			if w, ok := vr["deprecationWarning"]; ok {
				crdv["deprecationWarning"] = w
			}
			if sub, ok := vr["subresources"].(map[string]any); ok && sub["scale"] != nil {
				subresources["scale"] = sub["scale"]
			}
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
