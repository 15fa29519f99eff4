package v2map

import (
	"slices"

	"github.com/crossplane/crossplane-runtime/v2/pkg/fieldpath"
	"github.com/pkg/errors"

	"github.com/xpmigrate/xpmigrate/internal/jsonobj"
)

// Apply makes the edits ops to obj, in order, and returns the codes of
// those that changed it. obj is changed in place.
func Apply(obj map[string]any, ops []Op) ([]string, error) {
	p := fieldpath.Pave(obj)
	var codes []string
	for _, o := range ops {
		changed, err := apply(p, o)
		if err != nil {
			return codes, errors.Wrapf(err, "%s %s %s", o.Code, o.Op, o.Path)
		}
		if changed && !slices.Contains(codes, o.Code) {
			codes = append(codes, o.Code)
		}
	}
	return codes, nil
}

func apply(p *fieldpath.Paved, o Op) (bool, error) {
	switch o.Op {
	case OpSet:
		if v, err := p.GetValue(o.Path); err == nil && jsonobj.Equal(v, o.Value) {
			return false, nil
		}
		return true, p.SetValue(o.Path, o.Value)
	case OpDelete:
		if _, err := p.GetValue(o.Path); err != nil {
			return false, nil //nolint:nilerr // An absent field needs no deleting.
		}
		return true, p.DeleteField(o.Path)
	case OpMove:
		v, err := p.GetValue(o.Path)
		if err != nil {
			return false, nil //nolint:nilerr // An absent field moves nowhere.
		}
		if err := p.DeleteField(o.Path); err != nil {
			return false, err
		}
		return true, p.SetValue(o.To, v)
	case OpManagementPolicies:
		v, err := p.GetValue("spec.deletionPolicy")
		if err != nil {
			return false, nil //nolint:nilerr // No deletionPolicy, nothing to map.
		}
		if err := p.DeleteField("spec.deletionPolicy"); err != nil {
			return false, err
		}
		if s, ok := v.(string); ok {
			if pol, ok := jsonobj.AsMap(o.Value)[s]; ok {
				return true, p.SetValue("spec.managementPolicies", jsonobj.CopyTree(pol))
			}
		}
		if v == "Orphan" {
			pol := make([]any, len(OrphanPolicies))
			for i, s := range OrphanPolicies {
				pol[i] = s
			}
			return true, p.SetValue("spec.managementPolicies", pol)
		}
		return true, nil
	case OpUnwrap:
		return unwrap(p, o.Path)
	case OpPrune:
		if v, err := p.GetValue(o.Path); err != nil || !isEmptyObject(v) {
			return false, nil //nolint:nilerr // Absent or filled: kept.
		}
		return true, p.DeleteField(o.Path)
	}
	return false, errors.Errorf("unknown op %q", o.Op)
}

// unwrap replaces the object of p with the object at path (OpUnwrap).
func unwrap(p *fieldpath.Paved, path string) (bool, error) {
	v, err := p.GetValue(path)
	inner, ok := v.(map[string]any)
	if err != nil || !ok {
		return false, nil //nolint:nilerr // No payload, nothing to unwrap.
	}
	obj := p.UnstructuredContent()
	outer, _ := obj["metadata"].(map[string]any)
	md, _ := inner["metadata"].(map[string]any)
	for _, k := range []string{"name", "generateName", "namespace", "ownerReferences", "labels", "annotations"} {
		ov, ok := outer[k]
		if !ok {
			continue
		}
		if md == nil {
			md = map[string]any{}
			inner["metadata"] = md
		}
		om, isMap := ov.(map[string]any)
		im, _ := md[k].(map[string]any)
		switch {
		case isMap && im != nil:
			for kk, vv := range om {
				if _, set := im[kk]; !set {
					im[kk] = vv
				}
			}
		case md[k] == nil:
			md[k] = ov
		}
	}
	for k := range obj {
		delete(obj, k)
	}
	for k, vv := range inner {
		obj[k] = vv
	}
	return true, nil
}

func isEmptyObject(v any) bool {
	m, ok := v.(map[string]any)
	return ok && len(m) == 0
}
