// Package jsonobj holds the few operations xpmigrate's engines need on
// Kubernetes objects held as JSON trees (map[string]any, []any, scalars):
// deep copies and RFC 7386 JSON merge patches, as the API server applies
// them; json.Marshal's text of a tree without reflection (Marshal); and the
// one decoder from a tree into Go types (DecodeTree), which gives what the
// text decoder gives for the tree's text or says it cannot vouch for that.
//
//	live := jsonobj.DeepCopy(observed)
//	live = jsonobj.MergePatch(live, jsonobj.WithoutStatus(desired))
//
//	var in Input
//	if !jsonobj.DecodeTree(tree, &in, jsonobj.TreeOptions{Strict: true}) {
//		// decode the text (Marshal(tree)) instead
//	}
package jsonobj

// DeepCopyValue copies a JSON value: objects and lists are copied, scalars
// shared.
func DeepCopyValue(v any) any { return copyValue(v, true) }

// DeepCopy copies a JSON object; nil stays nil.
func DeepCopy(m map[string]any) map[string]any {
	out, _ := copyValue(m, true).(map[string]any)
	return out
}

// CopyTree copies a JSON value as DeepCopyValue does, except that a nil
// object becomes an empty one (as a nil list does in both).
func CopyTree(v any) any { return copyValue(v, false) }

// copyValue is DeepCopyValue, or with keepNil false CopyTree.
func copyValue(v any, keepNil bool) any {
	switch t := v.(type) {
	case map[string]any:
		if t == nil && keepNil {
			return t
		}
		out := make(map[string]any, len(t))
		for k, e := range t {
			out[k] = copyValue(e, keepNil)
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = copyValue(e, keepNil)
		}
		return out
	}
	return v
}

// MergePatch applies patch to target as an RFC 7386 JSON merge patch, as the
// API server does for a merge-patch request: a null deletes, an object merges
// key by key, anything else (lists included) replaces. target is modified
// and returned (a new object when target is nil); patch values are copied.
func MergePatch(target, patch map[string]any) map[string]any {
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
			target[k] = DeepCopyValue(pv)
			continue
		}
		tm, _ := target[k].(map[string]any)
		target[k] = MergePatch(tm, pm)
	}
	return target
}

// WithoutStatus returns a copy of o without its status.
func WithoutStatus(o map[string]any) map[string]any {
	out := DeepCopy(o)
	delete(out, "status")
	return out
}

// PruneNulls returns a copy of o without the object keys whose value is
// null, at any depth (list items stay), as the API server prunes nulls from
// fields its schema does not declare nullable before it stores an object.
func PruneNulls(o map[string]any) map[string]any {
	if o == nil {
		return nil
	}
	out := make(map[string]any, len(o))
	for k, v := range o {
		if v == nil {
			continue
		}
		out[k] = pruneNullsValue(v)
	}
	return out
}

func pruneNullsValue(v any) any {
	switch t := v.(type) {
	case map[string]any:
		return PruneNulls(t)
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = pruneNullsValue(e)
		}
		return out
	default:
		return v
	}
}

// Value returns the value at path (object keys only), or nil when a key is
// missing or a step is not an object.
func Value(o map[string]any, path ...string) any {
	var cur any = o
	for _, p := range path {
		m, ok := cur.(map[string]any)
		if !ok {
			return nil
		}
		cur = m[p]
	}
	return cur
}

// String returns the string at path, or "" when there is none.
func String(o map[string]any, path ...string) string {
	s, _ := Value(o, path...).(string)
	return s
}
