package protostruct

import (
	"unicode/utf8"

	"google.golang.org/protobuf/types/known/structpb"
)

// A Builder converts Go values to Structs and Values exactly as
// structpb.NewStruct and structpb.NewValue do, which is how Crossplane and
// the function SDK put an unstructured object into a request or a response
// (their AsStruct): the wire then carries what NewStruct made. JSON trees
// (objects, lists, strings, bools, nil, int, int64 and float64) are
// converted directly, taking the Values from the Builder's Alloc; anything
// else is left to structpb.
//
// As NewValue does, a Builder keeps every float64, NaN and the infinities
// included (the protobuf wire format holds them, so a function receives
// them), converts an int64 to the nearest float64, turns a nil object or
// list into an empty one, and refuses strings and keys that are not UTF-8
// with NewStruct's error. The zero value is ready to use; a Builder is not
// safe for concurrent use.
type Builder struct {
	a Alloc
}

// NewStruct is structpb.NewStruct(m).
func (b *Builder) NewStruct(m map[string]any) (*structpb.Struct, error) {
	if s, ok := b.structOf(m); ok {
		return s, nil
	}
	return structpb.NewStruct(m)
}

// NewValue is structpb.NewValue(v).
func (b *Builder) NewValue(v any) (*structpb.Value, error) {
	if pv, ok := b.valueOf(v); ok {
		return pv, nil
	}
	return structpb.NewValue(v)
}

// FromTree converts m as NewStruct does when m is a JSON tree NewStruct
// accepts, and reports false for anything else. The Struct it returns
// holds m's strings, booleans, keys and shape as they are.
func (b *Builder) FromTree(m map[string]any) (*structpb.Struct, bool) {
	return b.structOf(m)
}

func (b *Builder) structOf(m map[string]any) (*structpb.Struct, bool) {
	s := b.a.Struct(len(m))
	for k, e := range m {
		if !utf8.ValidString(k) {
			return nil, false
		}
		v, ok := b.valueOf(e)
		if !ok {
			return nil, false
		}
		s.Fields[k] = v
	}
	return s, true
}

func (b *Builder) valueOf(v any) (*structpb.Value, bool) {
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
	case float64:
		return b.a.Number(t), true
	case int64:
		return b.a.Number(float64(t)), true
	case int:
		return b.a.Number(float64(t)), true
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
