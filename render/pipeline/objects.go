package pipeline

import (
	"encoding/json"

	"github.com/pkg/errors"
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/xpmigrate/xpmigrate/internal/jsonobj"
	"github.com/xpmigrate/xpmigrate/internal/protostruct"
)

// toStruct converts an object to a protobuf Struct as Crossplane does for
// an unstructured object (structpb.NewStruct): every number becomes a
// float64, as on the wire (rule N1).
func toStruct(obj map[string]any) (*structpb.Struct, error) {
	var b protostruct.Builder
	return b.NewStruct(obj)
}

// structFromJSON decodes a JSON object into a Struct.
func structFromJSON(b []byte) (*structpb.Struct, error) {
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, err
	}
	if m == nil {
		return nil, errors.New("not a JSON object")
	}
	return toStruct(m)
}

// toValue converts a value to a protobuf Value (structpb.NewValue).
func toValue(v any) (*structpb.Value, error) {
	var b protostruct.Builder
	return b.NewValue(v)
}

// fromStruct returns the plain object a Struct holds; nil gives an empty
// object, as Crossplane's FromStruct does.
func fromStruct(s *structpb.Struct) map[string]any {
	return s.AsMap()
}

// nestedStringMap returns the string-valued entries of the object at path,
// or nil. A non-string value makes the whole map unreadable, as for
// Kubernetes' unstructured labels and annotations.
func nestedStringMap(obj map[string]any, path ...string) map[string]string {
	m := jsonobj.Map(obj, path...)
	if m == nil {
		return nil
	}
	out := make(map[string]string, len(m))
	for k, v := range m {
		s, ok := v.(string)
		if !ok {
			return nil
		}
		out[k] = s
	}
	return out
}

// objects returns the objects of xs, as a list of a JSON tree.
func objects[T interface{ object() map[string]any }](xs []T) []any {
	list := make([]any, len(xs))
	for i := range xs {
		list[i] = xs[i].object()
	}
	return list
}

// setNested sets path to v, creating (or replacing non-object) intermediate
// objects.
func setNested(obj map[string]any, v any, path ...string) {
	cur := obj
	for _, p := range path[:len(path)-1] {
		next, ok := cur[p].(map[string]any)
		if !ok {
			next = map[string]any{}
			cur[p] = next
		}
		cur = next
	}
	cur[path[len(path)-1]] = v
}

// removeNested deletes path if it exists.
func removeNested(obj map[string]any, path ...string) {
	parent := obj
	if len(path) > 1 {
		parent = jsonobj.Map(obj, path[:len(path)-1]...)
	}
	if parent != nil {
		delete(parent, path[len(path)-1])
	}
}

// setNestedString sets path to s, or removes it when s is empty, as
// Kubernetes' unstructured setters for name, namespace and generateName do.
func setNestedString(obj map[string]any, s string, path ...string) {
	if s == "" {
		removeNested(obj, path...)
		return
	}
	setNested(obj, s, path...)
}

// addStringMap merges add into the string map at path. A map with a value
// that is not a string is unreadable (nestedStringMap) and is replaced by
// add alone. A readable map is updated in place: obj must own it.
func addStringMap(obj map[string]any, add map[string]string, path ...string) {
	if m := jsonobj.Map(obj, path...); m != nil && allStrings(m) {
		for k, v := range add {
			m[k] = v
		}
		return
	}
	out := make(map[string]any, len(add))
	for k, v := range add {
		out[k] = v
	}
	setNested(obj, out, path...)
}

func allStrings(m map[string]any) bool {
	for _, v := range m {
		if _, ok := v.(string); !ok {
			return false
		}
	}
	return true
}
