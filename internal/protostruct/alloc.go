package protostruct

import (
	"google.golang.org/protobuf/types/known/structpb"
)

// Slabs start small and double up to maxSlab entries, so that a small tree
// wastes little and a large one takes few allocations.
const (
	minSlab = 8
	maxSlab = 128
)

// An Alloc hands out Struct values from slabs. The zero value is ready to
// use. An Alloc is not safe for concurrent use.
type Alloc struct {
	values  slab[structpb.Value]
	strs    slab[structpb.Value_StringValue]
	nums    slab[structpb.Value_NumberValue]
	bools   slab[structpb.Value_BoolValue]
	nulls   slab[structpb.Value_NullValue]
	structs slab[structpb.Value_StructValue]
	lists   slab[structpb.Value_ListValue]
	objects slab[structpb.Struct]
	arrays  slab[structpb.ListValue]
}

type slab[T any] struct {
	free []T
	next int
}

func (s *slab[T]) get() *T {
	if len(s.free) == 0 {
		n := s.next
		switch {
		case n < minSlab:
			n = minSlab
		case n > maxSlab:
			n = maxSlab
		}
		s.free = make([]T, n)
		s.next = 2 * n
	}
	p := &s.free[0]
	s.free = s.free[1:]
	return p
}

// String returns a string Value.
func (a *Alloc) String(s string) *structpb.Value {
	k := a.strs.get()
	k.StringValue = s
	v := a.values.get()
	v.Kind = k
	return v
}

// Number returns a number Value.
func (a *Alloc) Number(f float64) *structpb.Value {
	k := a.nums.get()
	k.NumberValue = f
	v := a.values.get()
	v.Kind = k
	return v
}

// Bool returns a bool Value.
func (a *Alloc) Bool(b bool) *structpb.Value {
	k := a.bools.get()
	k.BoolValue = b
	v := a.values.get()
	v.Kind = k
	return v
}

// Null returns a null Value.
func (a *Alloc) Null() *structpb.Value {
	v := a.values.get()
	v.Kind = a.nulls.get()
	return v
}

// Struct returns an empty Struct with room for n fields.
func (a *Alloc) Struct(n int) *structpb.Struct {
	s := a.objects.get()
	s.Fields = make(map[string]*structpb.Value, n)
	return s
}

// StructValue returns a Value that holds s.
func (a *Alloc) StructValue(s *structpb.Struct) *structpb.Value {
	k := a.structs.get()
	k.StructValue = s
	v := a.values.get()
	v.Kind = k
	return v
}

// ListValue returns a Value that holds the list of vals.
func (a *Alloc) ListValue(vals []*structpb.Value) *structpb.Value {
	l := a.arrays.get()
	l.Values = vals
	k := a.lists.get()
	k.ListValue = l
	v := a.values.get()
	v.Kind = k
	return v
}
