package patchandtransform

import (
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
	"google.golang.org/protobuf/testing/protocmp"
	"google.golang.org/protobuf/types/known/structpb"
)

// TestNewStruct checks the builder against structpb.NewStruct: the same
// Struct for JSON trees, whatever their numbers, and the same error for
// what NewStruct rejects.
func TestNewStruct(t *testing.T) {
	cases := map[string]map[string]any{
		"Tree": {
			"s": "x", "f": 1.5, "i": int64(1) << 60, "n": 3, "b": true, "z": nil, "nan": math.NaN(),
			"o":      map[string]any{"l": []any{1.0, "y", nil, map[string]any{}, []any{}}},
			"nilmap": map[string]any(nil), "nillist": []any(nil),
		},
		"Empty":      {},
		"NotUTF8":    {"s": "\xff"},
		"NotUTF8Key": {"\xff": "s"},
		"OtherTypes": {"u": uint8(1), "b": []byte("x"), "f": float32(1.5), "i32": int32(2)},
		"BadType":    {"c": make(chan int)},
	}
	for name, m := range cases {
		t.Run(name, func(t *testing.T) {
			want, wantErr := structpb.NewStruct(m)
			var b builder
			got, gotErr := b.newStruct(m)
			if (wantErr == nil) != (gotErr == nil) || (wantErr != nil && wantErr.Error() != gotErr.Error()) {
				t.Fatalf("newStruct(...): error %v, want %v", gotErr, wantErr)
			}
			if diff := cmp.Diff(want, got, protocmp.Transform(), cmp.Comparer(func(a, b float64) bool {
				return math.Float64bits(a) == math.Float64bits(b)
			})); diff != "" {
				t.Errorf("newStruct(...): -want, +got:\n%s", diff)
			}
		})
	}
}
