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
