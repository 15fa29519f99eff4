package convert

import (
	"encoding/json"

	"github.com/crossplane/crossplane-runtime/v2/pkg/fieldpath"

	"github.com/xpmigrate/xpmigrate/convert/yamledit"
	"github.com/xpmigrate/xpmigrate/internal/manifest"
	"github.com/xpmigrate/xpmigrate/internal/xp"
)

// An xrdSchema is the OpenAPI schema of one version of a composite type.
type xrdSchema struct {
	group, version, kind string
	schema               map[string]any
}

// xrdSchemas returns the served schemas of CompositeResourceDefinition
// objects (decoded JSON).
func xrdSchemas(xrds []map[string]any) []xrdSchema {
	var out []xrdSchema
	for _, x := range xrds {
		if x["kind"] != "CompositeResourceDefinition" {
			continue
		}
		spec, _ := x["spec"].(map[string]any)
		group, _ := spec["group"].(string)
		names, _ := spec["names"].(map[string]any)
		kind, _ := names["kind"].(string)
		versions, _ := spec["versions"].([]any)
		for _, v := range versions {
			vm, _ := v.(map[string]any)
			name, _ := vm["name"].(string)
			sch, _ := vm["schema"].(map[string]any)
			root, _ := sch["openAPIV3Schema"].(map[string]any)
			if group == "" || kind == "" || name == "" || root == nil {
				continue
			}
			out = append(out, xrdSchema{group: group, version: name, kind: kind, schema: root})
		}
	}
	return out
}

// streamXRDs returns the CompositeResourceDefinitions among the documents
// of the input stream, and among the items of its Lists.
func streamXRDs(chunks []manifest.Document, docs []*yamledit.Doc) []map[string]any {
	var out []map[string]any
	for i, d := range docs {
		if d == nil {
			continue
		}
		top := d.Top()
		kind, _ := yamledit.Str(yamledit.Get(top, "kind"))
		av, _ := yamledit.Str(yamledit.Get(top, "apiVersion"))
		isList := av == "v1" && kind == "List"
		if g, _ := xp.SplitAPIVersion(av); !isList && (kind != "CompositeResourceDefinition" || g != xp.GroupAPIExtensions) {
			continue
		}
		j, err := manifest.JSON(chunks[i].Text)
		if err != nil {
			continue
		}
		var m map[string]any
		if json.Unmarshal(j, &m) != nil {
			continue
		}
		if !isList {
			out = append(out, m)
			continue
		}
		items, _ := m["items"].([]any)
		for _, it := range items {
			im, _ := it.(map[string]any)
			av, _ := im["apiVersion"].(string)
			if g, _ := xp.SplitAPIVersion(av); im["kind"] == "CompositeResourceDefinition" && g == xp.GroupAPIExtensions {
				out = append(out, im)
			}
		}
	}
	return out
}

// xrSchema returns the schema of the Composition's composite type, or nil
// when no XRD of it is known.
func (c *composition) xrSchema() map[string]any {
	ref := yamledit.Get(yamledit.Get(c.node, "spec"), "compositeTypeRef")
	av, _ := yamledit.Str(yamledit.Get(ref, "apiVersion"))
	kind, _ := yamledit.Str(yamledit.Get(ref, "kind"))
	group, version := xp.SplitAPIVersion(av)
	for _, s := range c.r.schemas {
		if s.group == group && s.version == version && s.kind == kind {
			return s.schema
		}
	}
	return nil
}

// SchemaAt returns the OpenAPI schema of the field at path under root, or
// nil when root does not describe it; with additional, a map's
// additionalProperties describe the keys its properties do not name.
func SchemaAt(root map[string]any, path string, additional bool) map[string]any {
	segs, err := fieldpath.Parse(path)
	if err != nil || root == nil {
		return nil
	}
	s := root
	for _, sg := range segs {
		if sg.Type == fieldpath.SegmentIndex {
			s, _ = s["items"].(map[string]any)
		} else {
			props, _ := s["properties"].(map[string]any)
			next, _ := props[sg.Field].(map[string]any)
			if next == nil && additional {
				next, _ = s["additionalProperties"].(map[string]any)
			}
			s = next
		}
		if s == nil {
			return nil
		}
	}
	return s
}

// schemaKinds returns what the XR field at path can be according to the
// XRD schema, and false when the schema does not say (no XRD, a field the
// schema does not describe, or one that keeps unknown fields). The API
// server validated the XR against it, and Crossplane read it through the
// Kubernetes decoder: an integer field holds int64 natively.
func schemaKinds(root map[string]any, path string) (valueKinds, bool) {
	s := SchemaAt(root, path, true)
	if s == nil {
		return 0, false
	}
	var k valueKinds
	if ios, _ := s["x-kubernetes-int-or-string"].(bool); ios {
		k = kindKubeInt | kindString
	} else {
		switch s["type"] {
		case "integer":
			k = kindKubeInt
		case "number":
			k = kindKubeInt | kindFloat
		case "string":
			k = kindString
		case "boolean":
			k = kindBool
		case "object", "array":
			k = kindOther
		default:
			return 0, false
		}
	}
	if n, _ := s["nullable"].(bool); n {
		k |= kindOther
	}
	return k, true
}
