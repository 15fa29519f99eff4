package protostruct

import (
	"encoding/binary"
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/testing/protocmp"
	"google.golang.org/protobuf/types/known/structpb"
)

// sameBits compares float64s bit for bit, so that NaN equals itself and
// -0 differs from 0.
var sameBits = cmp.Comparer(func(a, b float64) bool {
	return math.Float64bits(a) == math.Float64bits(b)
})

// TestBuilderNewStruct checks the builder against structpb.NewStruct, its
// reference: the same Struct for JSON trees, whatever their numbers, and
// the same error for what NewStruct rejects.
func TestBuilderNewStruct(t *testing.T) {
	cases := map[string]struct {
		reason string
		m      map[string]any
	}{
		"Tree": {
			reason: "Every kind of a JSON tree converts directly, NaN, infinities and typed nils included.",
			m: map[string]any{
				"s": "x", "f": 1.5, "i": int64(1) << 60, "n": 3, "b": true, "z": nil,
				"nan": math.NaN(), "inf": math.Inf(1), "-inf": math.Inf(-1), "-0": math.Copysign(0, -1),
				"o":      map[string]any{"l": []any{1.0, "y", nil, map[string]any{}, []any{}}},
				"nilmap": map[string]any(nil), "nillist": []any(nil),
			},
		},
		"Empty": {
			reason: "An empty object is an empty Struct.",
			m:      map[string]any{},
		},
		"Nil": {
			reason: "A nil object is an empty Struct, as NewStruct makes it.",
			m:      nil,
		},
		"NotUTF8": {
			reason: "A string that is not UTF-8 fails with NewStruct's error.",
			m:      map[string]any{"s": "\xff"},
		},
		"NotUTF8Key": {
			reason: "A key that is not UTF-8 fails with NewStruct's error.",
			m:      map[string]any{"\xff": "s"},
		},
		"NotUTF8Deep": {
			reason: "A string that is not UTF-8 fails at any depth.",
			m:      map[string]any{"l": []any{map[string]any{"s": "a\xffb"}}},
		},
		"OtherTypes": {
			reason: "Values outside JSON trees are NewStruct's business.",
			m:      map[string]any{"u": uint8(1), "b": []byte("x"), "f": float32(1.5), "i32": int32(2)},
		},
		"BadType": {
			reason: "A value NewStruct cannot convert fails with its error.",
			m:      map[string]any{"c": make(chan int)},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			want, wantErr := structpb.NewStruct(tc.m)
			var b Builder
			got, gotErr := b.NewStruct(tc.m)
			if diff := cmp.Diff(errText(wantErr), errText(gotErr)); diff != "" {
				t.Fatalf("\n%s\nNewStruct(...): -want error, +got error:\n%s", tc.reason, diff)
			}
			if diff := cmp.Diff(want, got, protocmp.Transform(), sameBits); diff != "" {
				t.Errorf("\n%s\nNewStruct(...): -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}

// TestBuilderNewValue checks NewValue against structpb.NewValue.
func TestBuilderNewValue(t *testing.T) {
	cases := map[string]struct {
		reason string
		v      any
	}{
		"Scalar":   {reason: "A scalar is a Value.", v: int64(-7)},
		"Null":     {reason: "nil is the null Value.", v: nil},
		"List":     {reason: "A list converts element by element.", v: []any{"a", 1.5, true}},
		"NaN":      {reason: "NaN is kept, as NewValue keeps it.", v: math.NaN()},
		"NotUTF8":  {reason: "A string that is not UTF-8 fails with NewValue's error.", v: "\xfe"},
		"Uint":     {reason: "Other Go types are NewValue's business.", v: uint64(1) << 63},
		"BadValue": {reason: "A value NewValue cannot convert fails with its error.", v: struct{}{}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			want, wantErr := structpb.NewValue(tc.v)
			var b Builder
			got, gotErr := b.NewValue(tc.v)
			if diff := cmp.Diff(errText(wantErr), errText(gotErr)); diff != "" {
				t.Fatalf("\n%s\nNewValue(...): -want error, +got error:\n%s", tc.reason, diff)
			}
			if diff := cmp.Diff(want, got, protocmp.Transform(), sameBits); diff != "" {
				t.Errorf("\n%s\nNewValue(...): -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}

// TestBuilderNaNOnTheWire checks what a function served over gRPC
// receives for the numbers JSON cannot write: the protobuf wire format
// carries a Value's double bit for bit, so NaN and the infinities arrive
// as they were built, and a function that reads the Struct as a map
// (AsMap, as the function SDK does) sees the strings protojson would write.
func TestBuilderNaNOnTheWire(t *testing.T) {
	var b Builder
	s, err := b.NewStruct(map[string]any{"nan": math.NaN(), "inf": math.Inf(1), "-inf": math.Inf(-1)})
	if err != nil {
		t.Fatalf("NewStruct(...): %v", err)
	}
	wire, err := proto.Marshal(s)
	if err != nil {
		t.Fatalf("proto.Marshal(...): %v", err)
	}
	got := &structpb.Struct{}
	if err := proto.Unmarshal(wire, got); err != nil {
		t.Fatalf("proto.Unmarshal(...): %v", err)
	}
	if diff := cmp.Diff(s, got, protocmp.Transform(), sameBits); diff != "" {
		t.Errorf("NewStruct(...) after a trip over the wire: -sent, +received:\n%s", diff)
	}
	want := map[string]any{"nan": "NaN", "inf": "Infinity", "-inf": "-Infinity"}
	if diff := cmp.Diff(want, got.AsMap()); diff != "" {
		t.Errorf("AsMap() of the received Struct: -want, +got:\n%s", diff)
	}
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// FuzzBuilder checks the builder against structpb.NewStruct on trees made
// from the fuzzer's bytes (see treeOf).
func FuzzBuilder(f *testing.F) {
	for _, s := range [][]byte{
		{7, 2, 3, 1, 'a', 5, 0x7f, 0xf8, 0, 0, 0, 0, 0, 1, 3, 1, 0xff, 9},
		{7, 3, 3, 0, 8, 2, 4, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 6, 3, 1, 'k', 10, 3, 1, 'u', 11, 7},
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		m, _ := treeOf(&data, 0).(map[string]any)
		want, wantErr := structpb.NewStruct(m)
		var b Builder
		got, gotErr := b.NewStruct(m)
		// Which of several bad values an error names depends on map order.
		if (wantErr == nil) != (gotErr == nil) {
			t.Fatalf("NewStruct(%#v): error %v, want %v", m, gotErr, wantErr)
		}
		if diff := cmp.Diff(want, got, protocmp.Transform(), sameBits); diff != "" {
			t.Fatalf("NewStruct(%#v): -want, +got:\n%s", m, diff)
		}
	})
}

// treeOf reads a value from the front of *data, one byte for its kind and
// the bytes its kind needs after it: every kind of a JSON tree, typed nils,
// strings that are not UTF-8, every float64 and a Go type that is not JSON.
// A map's first byte is always read as an object.
func treeOf(data *[]byte, depth int) any {
	next := func() byte {
		if len(*data) == 0 {
			return 0
		}
		c := (*data)[0]
		*data = (*data)[1:]
		return c
	}
	word := func() uint64 {
		var w [8]byte
		for i := range w {
			w[i] = next()
		}
		return binary.BigEndian.Uint64(w[:])
	}
	str := func() string {
		n := int(next() % 8)
		s := make([]byte, 0, n)
		for range n {
			s = append(s, next())
		}
		return string(s)
	}
	kind := next() % 12
	if depth == 0 {
		kind = 7
	}
	if depth > 6 && (kind == 7 || kind == 8) {
		kind = 0
	}
	switch kind {
	case 0:
		return nil
	case 1:
		return next()%2 == 0
	case 2:
		return str()
	case 3:
		return int64(word())
	case 4:
		return math.Float64frombits(word())
	case 5:
		return int(int8(next()))
	case 6:
		return float64(int8(next())) / 4
	case 7:
		n := int(next() % 5)
		m := make(map[string]any, n)
		for range n {
			k := str()
			m[k] = treeOf(data, depth+1)
		}
		return m
	case 8:
		n := int(next() % 5)
		l := make([]any, n)
		for i := range l {
			l[i] = treeOf(data, depth+1)
		}
		return l
	case 9:
		return map[string]any(nil)
	case 10:
		return []any(nil)
	}
	return next() // a uint8: not a JSON type
}
