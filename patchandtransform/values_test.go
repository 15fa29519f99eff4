package patchandtransform

import (
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestNormalizeInPlaceMatchesJSON checks the in-place normaliser against the
// JSON round trip it stands in for.
func TestNormalizeInPlaceMatchesJSON(t *testing.T) {
	values := []any{
		float64(3), 1.5, math.Copysign(0, -1), 1e20, 1e21, 9.223372036854775807e18, -9.223372036854775808e18,
		math.MaxInt64, int64(-7), math.Nextafter(-9.223372036854775808e18, 0), 99999999999999999999.0, 9.2e18, int(4), int32(2), "s", true, nil, 0.1, 123456789.0, 1e-7,
	}
	for i, v := range values {
		tree := func() map[string]any {
			return map[string]any{"v": v, "l": []any{v, map[string]any{"n": v}}}
		}
		// Normalize takes the JSON round trip whatever the value.
		want, err := Normalize(tree())
		if err != nil {
			t.Fatalf("Normalize(%v): %v", v, err)
		}
		got := tree()
		if !normalizeInPlace(got) {
			t.Fatalf("normalizeInPlace(%#v): reported non-JSON data", v)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("value %d (%#v): normalizeInPlace differs from the JSON round trip: -want, +got:\n%s", i, v, diff)
		}
	}
}

// TestNormalizeObjectMatchesJSON checks NormalizeObject, which copies plain
// JSON data without JSON text, against the JSON round trip, and that it
// copies.
func TestNormalizeObjectMatchesJSON(t *testing.T) {
	for i, v := range testValues {
		tree := func() map[string]any {
			return map[string]any{"v": v, "l": []any{v, map[string]any{"n": v}}, "m": map[string]any(nil), "s": []any(nil)}
		}
		want, wantErr := Normalize(tree())
		in := tree()
		got, err := NormalizeObject(in)
		if (err != nil) != (wantErr != nil) {
			t.Errorf("value %d (%#v): NormalizeObject error %v, JSON round trip error %v", i, v, err, wantErr)
			continue
		}
		if err != nil {
			continue
		}
		if diff := cmp.Diff(want, any(got)); diff != "" {
			t.Errorf("value %d (%#v): NormalizeObject differs from the JSON round trip: -want, +got:\n%s", i, v, diff)
		}
		got["l"].([]any)[1].(map[string]any)["n"] = "changed"
		if diff := cmp.Diff(tree(), in); diff != "" {
			t.Errorf("value %d (%#v): NormalizeObject shares its result with its input: -want, +got:\n%s", i, v, diff)
		}
	}
}
