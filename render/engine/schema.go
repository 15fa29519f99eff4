package engine

import (
	"strings"

	"github.com/xpmigrate/xpmigrate/internal/jsonobj"
)

// crossplaneFields are the fields Crossplane adds to every XR's and
// claim's spec and status schema. None is nullable.
var crossplaneFields = map[string]map[string]bool{
	"spec": {
		"claimRef": true, "compositionRef": true, "compositionRevisionRef": true,
		"compositionRevisionSelector": true, "compositionSelector": true,
		"compositionUpdatePolicy": true, "compositeDeletePolicy": true,
		"environmentConfigRefs": true, "publishConnectionDetailsTo": true,
		"resourceRef": true, "resourceRefs": true, "writeConnectionSecretToRef": true,
	},
	"status": {"conditions": true, "connectionDetails": true, "claimConditionTypes": true},
}

// PruneXR returns the XR (or claim) as an API server stores it, as far as
// nulls go: the apiextensions server drops a null from every field whose
// schema is not `nullable: true`, and keeps nulls under fields the schema
// does not describe but preserves (x-kubernetes-preserve-unknown-fields),
// as PruneNonNullableNullsWithoutDefaults does. A null whose schema has a
// default is dropped too: the toolkit applies no schema defaults, so it
// reads as the absent field it otherwise is. Null list items are kept
// (validation would refuse them).
//
// The schema is the XRD's version named by the object's apiVersion. When
// there is none (no XRD, another group, a version the XRD does not
// define, no openAPIV3Schema) every null is dropped, as if no field were
// nullable, and the second result is false.
func PruneXR(xr, xrd map[string]any) (map[string]any, bool) {
	if xr == nil {
		return nil, false
	}
	s := versionSchema(xrd, jsonobj.AsString(xr["apiVersion"]))
	if s == nil {
		return jsonobj.PruneNulls(xr), false
	}
	out := make(map[string]any, len(xr))
	props, _ := s["properties"].(map[string]any)
	for k, v := range xr {
		switch {
		case v == nil:
			ps, _ := props[k].(map[string]any)
			if k != "metadata" && k != "apiVersion" && k != "kind" && nullable(ps) {
				out[k] = nil
			}
		case k == "metadata" || k == "apiVersion" || k == "kind":
			out[k] = pruneNullsValue(v)
		default:
			ps, _ := props[k].(map[string]any)
			if m, ok := v.(map[string]any); ok && crossplaneFields[k] != nil {
				out[k] = pruneTopLevel(m, ps, crossplaneFields[k])
				continue
			}
			out[k] = pruneBySchema(v, ps)
		}
	}
	return out, true
}

// pruneTopLevel prunes spec or status: Crossplane's own fields are not
// nullable, whatever the XRD's schema says of unknown fields.
func pruneTopLevel(m, s map[string]any, own map[string]bool) map[string]any {
	mine := make(map[string]any, len(m))
	theirs := make(map[string]any, len(m))
	for k, v := range m {
		if own[k] {
			if _, described := propertyOf(s, k); !described {
				theirs[k] = v
				continue
			}
		}
		mine[k] = v
	}
	out, _ := pruneBySchema(mine, s).(map[string]any)
	for k, v := range theirs {
		if v != nil {
			out[k] = pruneNullsValue(v)
		}
	}
	return out
}

// versionSchema returns the openAPIV3Schema of the XRD's version that
// apiVersion names, or nil.
func versionSchema(xrd map[string]any, apiVersion string) map[string]any {
	group, version, ok := strings.Cut(apiVersion, "/")
	if xrd == nil || !ok {
		return nil
	}
	if g, _ := jsonobj.Value(xrd, "spec", "group").(string); g != group {
		return nil
	}
	vs, _ := jsonobj.Value(xrd, "spec", "versions").([]any)
	for _, v := range vs {
		vm, _ := v.(map[string]any)
		if n, _ := vm["name"].(string); n != version {
			continue
		}
		s, _ := jsonobj.Value(vm, "schema", "openAPIV3Schema").(map[string]any)
		return s
	}
	return nil
}

// pruneBySchema drops the nulls the API server drops from v, whose schema
// is s (nil when the schema does not describe v: then, as the API server
// prunes undescribed fields whole, the nulls in it are dropped too).
func pruneBySchema(v any, s map[string]any) any {
	switch t := v.(type) {
	case map[string]any:
		if s == nil {
			return jsonobj.PruneNulls(t)
		}
		out := make(map[string]any, len(t))
		for k, e := range t {
			ps, described := propertyOf(s, k)
			switch {
			case described && e == nil:
				if nullable(ps) {
					out[k] = nil
				}
			case described:
				out[k] = pruneBySchema(e, ps)
			case preservesUnknown(s):
				// Left as given, nulls and all.
				out[k] = jsonobj.DeepCopyValue(e)
			case e != nil:
				out[k] = pruneNullsValue(e)
			}
		}
		return out
	case []any:
		items, _ := s["items"].(map[string]any)
		out := make([]any, len(t))
		for i, e := range t {
			if e == nil {
				continue
			}
			out[i] = pruneBySchema(e, items)
		}
		return out
	default:
		return v
	}
}

// propertyOf returns the schema of an object's key: its property, else
// its additionalProperties schema; false when the schema describes
// neither.
func propertyOf(s map[string]any, key string) (map[string]any, bool) {
	if props, ok := s["properties"].(map[string]any); ok {
		if ps, ok := props[key].(map[string]any); ok {
			return ps, true
		}
	}
	if ap, ok := s["additionalProperties"].(map[string]any); ok {
		return ap, true
	}
	return nil, false
}

func nullable(s map[string]any) bool {
	b, _ := s["nullable"].(bool)
	return b
}

func preservesUnknown(s map[string]any) bool {
	b, _ := s["x-kubernetes-preserve-unknown-fields"].(bool)
	return b
}

// pruneNullsValue drops every null in v, as jsonobj.PruneNulls does.
func pruneNullsValue(v any) any {
	if m, ok := v.(map[string]any); ok {
		return jsonobj.PruneNulls(m)
	}
	if l, ok := v.([]any); ok {
		return jsonobj.PruneNulls(map[string]any{"l": l})["l"]
	}
	return v
}
