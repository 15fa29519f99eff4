package pipeline

import (
	"encoding/json"
	"math"
	"unicode/utf8"

	"github.com/pkg/errors"
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/xpmigrate/xpmigrate/internal/protostruct"
)

// toStruct converts a JSON-like object to a protobuf Struct, every number
// becoming a float64 exactly as on the wire (rule N1). Plain JSON trees are
// converted directly; anything else goes through JSON, so it accepts
// whatever encoding/json does. Both give the same Struct.
func toStruct(obj map[string]any) (*structpb.Struct, error) {
	var b builder
	return b.toStruct(obj)
}

// A builder converts JSON trees to Structs, taking the Values of all the
// trees it converts from one protostruct.Alloc.
type builder struct {
	a protostruct.Alloc
}

// toStruct is the package's toStruct.
func (b *builder) toStruct(obj map[string]any) (*structpb.Struct, error) {
	if obj == nil {
		return &structpb.Struct{Fields: map[string]*structpb.Value{}}, nil
	}
	if s, ok := b.structOf(obj); ok {
		return s, nil
	}
	j, err := json.Marshal(obj)
	if err != nil {
		return nil, errors.Wrap(err, "cannot encode object as JSON")
	}
	s := &structpb.Struct{}
	if err := s.UnmarshalJSON(j); err != nil {
		return nil, errors.Wrap(err, "cannot decode JSON into a protocol buffer Struct")
	}
	return s, nil
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

// toValue converts a JSON-like value to a protobuf Value.
func toValue(v any) (*structpb.Value, error) {
	var b builder
	if pv, ok := b.valueOf(v); ok {
		return pv, nil
	}
	j, err := json.Marshal(v)
	if err != nil {
		return nil, errors.Wrap(err, "cannot encode value as JSON")
	}
	pv := &structpb.Value{}
	if err := pv.UnmarshalJSON(j); err != nil {
		return nil, errors.Wrap(err, "cannot decode JSON into a protocol buffer Value")
	}
	return pv, nil
}

func (b *builder) structOf(m map[string]any) (*structpb.Struct, bool) {
	s := b.a.Struct(len(m))
	for k, e := range m {
		v, ok := b.valueOf(e)
		if !ok || !utf8.ValidString(k) {
			return nil, false
		}
		s.Fields[k] = v
	}
	return s, true
}

// valueOf converts plain JSON data to a Value as a JSON round trip would:
// float64(i) of an int64 is the nearest float, which is also what parsing
// its decimal text gives.
func (b *builder) valueOf(v any) (*structpb.Value, bool) {
	switch t := v.(type) {
	case nil:
		return b.a.Null(), true
	case string:
		if !utf8.ValidString(t) {
			return nil, false
		}
		return b.a.String(t), true
	case bool:
		return b.a.Bool(t), true
	case int64:
		return b.a.Number(float64(t)), true
	case int:
		return b.a.Number(float64(t)), true
	case float64:
		if math.IsNaN(t) || math.IsInf(t, 0) {
			return nil, false
		}
		return b.a.Number(t), true
	case map[string]any:
		s, ok := b.structOf(t)
		if !ok {
			return nil, false
		}
		return b.a.StructValue(s), true
	case []any:
		vals := make([]*structpb.Value, len(t))
		for i, e := range t {
			ev, ok := b.valueOf(e)
			if !ok {
				return nil, false
			}
			vals[i] = ev
		}
		return b.a.ListValue(vals), true
	}
	return nil, false
}

// fromStruct returns the plain object a Struct holds; nil gives an empty
// object, as Crossplane's FromStruct does.
func fromStruct(s *structpb.Struct) map[string]any {
	return s.AsMap()
}

// nestedString returns the string at path, or "" when it is absent or not a
// string.
func nestedString(obj map[string]any, path ...string) string {
	v, ok := nested(obj, path...)
	if !ok {
		return ""
	}
	s, _ := v.(string)
	return s
}

// nestedMap returns the object at path, or nil.
func nestedMap(obj map[string]any, path ...string) map[string]any {
	v, ok := nested(obj, path...)
	if !ok {
		return nil
	}
	m, _ := v.(map[string]any)
	return m
}

// nestedStringMap returns the string-valued entries of the object at path,
// or nil. A non-string value makes the whole map unreadable, as for
// Kubernetes' unstructured labels and annotations.
func nestedStringMap(obj map[string]any, path ...string) map[string]string {
	m := nestedMap(obj, path...)
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

func nested(obj map[string]any, path ...string) (any, bool) {
	var cur any = obj
	for _, p := range path {
		m, ok := cur.(map[string]any)
		if !ok {
			return nil, false
		}
		cur, ok = m[p]
		if !ok {
			return nil, false
		}
	}
	return cur, true
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
		parent = nestedMap(obj, path[:len(path)-1]...)
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
	if m := nestedMap(obj, path...); m != nil && allStrings(m) {
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
