package patchandtransform

import (
	"math"
	"sync"

	"google.golang.org/protobuf/types/known/structpb"

	"github.com/xpmigrate/xpmigrate/patchandtransform/function"
)

// cacheSize bounds the inputs a Function remembers. A render sends the same
// input Struct on every reconcile; a few entries cover renders that share a
// Function in parallel.
const cacheSize = 8

// An inputCache remembers the inputs a Function has read, so that a step
// whose input is sent again is not decoded, validated and converted again.
// An entry is keyed by the input Struct's identity and holds a copy of it
// as it was read: it is used only while the Struct still equals that copy,
// so a caller that changes an input between calls gets it read afresh.
type inputCache struct {
	mu      sync.Mutex
	entries [cacheSize]cacheEntry
	next    int
}

type cacheEntry struct {
	key      *structpb.Struct
	snapshot *structpb.Struct
	prepared *function.Prepared
}

// prepare returns in read by function.Prepare, from the cache when it can.
// A nil cache remembers nothing.
func (c *inputCache) prepare(in *structpb.Struct) *function.Prepared {
	if c == nil || in == nil {
		return function.Prepare(fromStruct(in))
	}
	c.mu.Lock()
	var hit cacheEntry
	for _, e := range c.entries {
		if e.key == in {
			hit = e
			break
		}
	}
	c.mu.Unlock()
	if hit.key != nil && equalStruct(hit.snapshot, in) {
		return hit.prepared
	}

	p := function.Prepare(fromStruct(in))
	e := cacheEntry{key: in, snapshot: cloneStruct(in), prepared: p}
	c.mu.Lock()
	defer c.mu.Unlock()
	for i := range c.entries {
		if c.entries[i].key == in {
			c.entries[i] = e
			return p
		}
	}
	c.entries[c.next] = e
	c.next = (c.next + 1) % cacheSize
	return p
}

// cloneStruct deeply copies a Struct.
func cloneStruct(s *structpb.Struct) *structpb.Struct {
	if s == nil {
		return nil
	}
	out := &structpb.Struct{Fields: make(map[string]*structpb.Value, len(s.GetFields()))}
	for k, v := range s.GetFields() {
		out.Fields[k] = cloneValue(v)
	}
	return out
}

func cloneValue(v *structpb.Value) *structpb.Value {
	if v == nil {
		return nil
	}
	switch k := v.GetKind().(type) {
	case *structpb.Value_StructValue:
		return structpb.NewStructValue(cloneStruct(k.StructValue))
	case *structpb.Value_ListValue:
		if k.ListValue == nil {
			return &structpb.Value{Kind: &structpb.Value_ListValue{}}
		}
		vals := make([]*structpb.Value, len(k.ListValue.GetValues()))
		for i, e := range k.ListValue.GetValues() {
			vals[i] = cloneValue(e)
		}
		return structpb.NewListValue(&structpb.ListValue{Values: vals})
	case *structpb.Value_StringValue:
		return structpb.NewStringValue(k.StringValue)
	case *structpb.Value_NumberValue:
		return structpb.NewNumberValue(k.NumberValue)
	case *structpb.Value_BoolValue:
		return structpb.NewBoolValue(k.BoolValue)
	case *structpb.Value_NullValue:
		return &structpb.Value{Kind: &structpb.Value_NullValue{NullValue: k.NullValue}}
	}
	return &structpb.Value{}
}

// equalStruct reports whether two Structs hold the same values; numbers are
// equal when their bits are.
func equalStruct(a, b *structpb.Struct) bool {
	if (a == nil) != (b == nil) {
		return false
	}
	af, bf := a.GetFields(), b.GetFields()
	if len(af) != len(bf) {
		return false
	}
	for k, av := range af {
		bv, ok := bf[k]
		if !ok || !equalValue(av, bv) {
			return false
		}
	}
	return true
}

func equalValue(a, b *structpb.Value) bool {
	if (a == nil) != (b == nil) {
		return false
	}
	switch ak := a.GetKind().(type) {
	case *structpb.Value_StructValue:
		bk, ok := b.GetKind().(*structpb.Value_StructValue)
		return ok && equalStruct(ak.StructValue, bk.StructValue)
	case *structpb.Value_ListValue:
		bk, ok := b.GetKind().(*structpb.Value_ListValue)
		if !ok || (ak.ListValue == nil) != (bk.ListValue == nil) {
			return false
		}
		al, bl := ak.ListValue.GetValues(), bk.ListValue.GetValues()
		if len(al) != len(bl) {
			return false
		}
		for i := range al {
			if !equalValue(al[i], bl[i]) {
				return false
			}
		}
		return true
	case *structpb.Value_StringValue:
		bk, ok := b.GetKind().(*structpb.Value_StringValue)
		return ok && ak.StringValue == bk.StringValue
	case *structpb.Value_NumberValue:
		bk, ok := b.GetKind().(*structpb.Value_NumberValue)
		return ok && math.Float64bits(ak.NumberValue) == math.Float64bits(bk.NumberValue)
	case *structpb.Value_BoolValue:
		bk, ok := b.GetKind().(*structpb.Value_BoolValue)
		return ok && ak.BoolValue == bk.BoolValue
	case *structpb.Value_NullValue:
		bk, ok := b.GetKind().(*structpb.Value_NullValue)
		return ok && ak.NullValue == bk.NullValue
	case nil:
		return b.GetKind() == nil
	}
	return false
}
