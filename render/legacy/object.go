package legacy

import (
	"strings"

	"k8s.io/apimachinery/pkg/runtime/schema"
)

// deepCopy copies a JSON value: objects and lists are copied, scalars
// shared.
func deepCopy(v any) any {
	switch t := v.(type) {
	case map[string]any:
		return deepCopyObject(t)
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = deepCopy(e)
		}
		return out
	default:
		return v
	}
}

// deepCopyObject copies a JSON object; nil stays nil.
func deepCopyObject(m map[string]any) map[string]any {
	if m == nil {
		return nil
	}
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = deepCopy(v)
	}
	return out
}

// mergePatch applies patch to target as an RFC 7386 JSON merge patch, as
// the API server does for a merge-patch request: a null deletes, an
// object merges key by key, anything else (lists included) replaces.
// target is modified and returned.
func mergePatch(target, patch map[string]any) map[string]any {
	if target == nil {
		target = map[string]any{}
	}
	for k, pv := range patch {
		if pv == nil {
			delete(target, k)
			continue
		}
		pm, ok := pv.(map[string]any)
		if !ok {
			target[k] = deepCopy(pv)
			continue
		}
		tm, _ := target[k].(map[string]any)
		target[k] = mergePatch(tm, pm)
	}
	return target
}

// withoutStatus returns a copy of o without its status.
func withoutStatus(o map[string]any) map[string]any {
	out := deepCopyObject(o)
	delete(out, "status")
	return out
}

// An objectKey identifies an object in the cluster model: API group, kind,
// namespace and name. Versions of one group share storage, so they are
// not part of the key.
type objectKey struct {
	group, kind, namespace, name string
}

func keyOf(apiVersion, kind, namespace, name string) objectKey {
	group := ""
	if gv, err := schema.ParseGroupVersion(apiVersion); err == nil {
		group = gv.Group
	} else if i := strings.Index(apiVersion, "/"); i >= 0 {
		group = apiVersion[:i]
	}
	return objectKey{group: group, kind: kind, namespace: namespace, name: name}
}

// matches reports whether an object with key o is the one k looks up. A
// lookup without a namespace matches an object in any namespace: the
// references an XR keeps have no namespace.
func (k objectKey) matches(o objectKey) bool {
	return k.group == o.group && k.kind == o.kind && k.name == o.name &&
		(k.namespace == "" || k.namespace == o.namespace)
}
