package pipeline

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
	"google.golang.org/protobuf/testing/protocmp"
	"google.golang.org/protobuf/types/known/structpb"
)

// TestToStructMatchesJSON checks the direct conversion against the JSON
// round trip it replaces.
func TestToStructMatchesJSON(t *testing.T) {
	obj := map[string]any{
		"s": "x", "b": true, "n": nil, "i": int64(math.MaxInt64), "neg": int64(-7), "int": 3,
		"f": 1.5, "big": 1e21, "l": []any{int64(1), "a", []any{}, map[string]any{}},
		"m":   map[string]any{"nested": map[string]any{"k": 9007199254740993.0}},
		"odd": int64(9007199254740993),
	}
	b, err := json.Marshal(obj)
	if err != nil {
		t.Fatal(err)
	}
	want := &structpb.Struct{}
	if err := want.UnmarshalJSON(b); err != nil {
		t.Fatal(err)
	}
	got, err := toStruct(obj)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got, protocmp.Transform()); diff != "" {
		t.Errorf("toStruct(...): -want (JSON round trip), +got:\n%s", diff)
	}
}

// TestToStructAsCrossplane checks that objects become Structs as
// Crossplane's AsStruct makes them from an unstructured object
// (structpb.NewStruct): NaN and the infinities, which JSON text cannot
// hold, are kept, and a string that is not UTF-8 is refused.
func TestToStructAsCrossplane(t *testing.T) {
	cases := map[string]struct {
		reason string
		obj    map[string]any
	}{
		"NaN": {
			reason: "The wire carries NaN and the infinities; a JSON round trip would fail.",
			obj:    map[string]any{"spec": map[string]any{"nan": math.NaN(), "inf": math.Inf(-1)}},
		},
		"NotUTF8": {
			reason: "NewStruct refuses a string that is not UTF-8, where JSON would replace its bytes.",
			obj:    map[string]any{"spec": "\xff"},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			want, wantErr := structpb.NewStruct(tc.obj)
			got, err := toStruct(tc.obj)
			if (wantErr == nil) != (err == nil) {
				t.Fatalf("\n%s\ntoStruct(...): error %v, want %v", tc.reason, err, wantErr)
			}
			if diff := cmp.Diff(want, got, protocmp.Transform(), cmp.Comparer(func(a, b float64) bool {
				return math.Float64bits(a) == math.Float64bits(b)
			})); diff != "" {
				t.Errorf("\n%s\ntoStruct(...): -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}
