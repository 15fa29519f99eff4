package protostruct

import (
	"testing"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/structpb"
)

// TestAlloc checks that Values from an Alloc equal structpb's, across slab
// boundaries, and that they survive being marshalled and cloned.
func TestAlloc(t *testing.T) {
	var a Alloc
	want := &structpb.Struct{Fields: map[string]*structpb.Value{}}
	got := a.Struct(0)
	for i := range 3 * maxSlab {
		k := string(rune('a'+i%26)) + string(rune('A'+i/26%26)) + string(rune('0'+i/676))
		var w, g *structpb.Value
		switch i % 6 {
		case 0:
			w, g = structpb.NewStringValue(k), a.String(k)
		case 1:
			w, g = structpb.NewNumberValue(float64(i)), a.Number(float64(i))
		case 2:
			w, g = structpb.NewBoolValue(i%4 == 0), a.Bool(i%4 == 0)
		case 3:
			w, g = structpb.NewNullValue(), a.Null()
		case 4:
			inner := a.Struct(1)
			inner.Fields["x"] = a.String(k)
			w, g = structpb.NewStructValue(&structpb.Struct{Fields: map[string]*structpb.Value{"x": structpb.NewStringValue(k)}}), a.StructValue(inner)
		case 5:
			w, g = structpb.NewListValue(&structpb.ListValue{Values: []*structpb.Value{structpb.NewNumberValue(1), structpb.NewStringValue(k)}}), a.ListValue([]*structpb.Value{a.Number(1), a.String(k)})
		}
		want.Fields[k] = w
		got.Fields[k] = g
	}
	if !proto.Equal(want, got) {
		t.Fatalf("Alloc: Struct differs from structpb's")
	}
	b, err := proto.MarshalOptions{Deterministic: true}.Marshal(got)
	if err != nil {
		t.Fatalf("proto.Marshal(...): %v", err)
	}
	wb, _ := proto.MarshalOptions{Deterministic: true}.Marshal(want)
	if string(b) != string(wb) {
		t.Errorf("proto.Marshal(...): wire bytes differ from structpb's")
	}
	if c := proto.Clone(got); !proto.Equal(want, c) {
		t.Errorf("proto.Clone(...): differs from structpb's")
	}
}
