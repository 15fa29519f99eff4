package engine

import (
	"testing"

	"github.com/xpmigrate/xpmigrate/render"
)

func TestFingerprint(t *testing.T) {
	xr := func(v any) *render.Outcome {
		return &render.Outcome{XR: map[string]any{"spec": map[string]any{"v": v}}}
	}
	cases := map[string]struct {
		reason string
		a, b   *render.Outcome
		same   bool
	}{
		"IntAndFloat": {
			reason: "JSON writes 1 and 1.0 alike, so they are the same outcome",
			a:      xr(int64(1)), b: xr(float64(1)), same: true,
		},
		"StringAndNumber": {
			reason: "the string \"1\" is not the number 1",
			a:      xr("1"), b: xr(int64(1)),
		},
		"Fraction": {
			reason: "different floats differ",
			a:      xr(1.5), b: xr(1.25),
		},
		"MapOrder": {
			reason: "map order does not count",
			a:      xr(map[string]any{"a": "x", "b": "y"}), b: xr(map[string]any{"b": "y", "a": "x"}), same: true,
		},
		"SwappedValues": {
			reason: "values moved between keys differ",
			a:      xr(map[string]any{"a": "x", "b": "y"}), b: xr(map[string]any{"a": "y", "b": "x"}),
		},
		"ListOrder": {
			reason: "list order counts",
			a:      xr([]any{"x", "y"}), b: xr([]any{"y", "x"}),
		},
		"NullAndEmpty": {
			reason: "null is not an empty object",
			a:      xr(nil), b: xr(map[string]any{}),
		},
		"NilMapIsNull": {
			reason: "JSON writes a nil map as null",
			a:      xr(nil), b: xr(map[string]any(nil)), same: true,
		},
		"NestedListSplit": {
			reason: "[[a],[b]] is not [[a,b]]",
			a:      xr([]any{[]any{"a"}, []any{"b"}}), b: xr([]any{[]any{"a", "b"}}),
		},
		"ConnectionDetails": {
			reason: "connection details count",
			a:      &render.Outcome{ConnectionDetails: map[string][]byte{"k": []byte("a")}},
			b:      &render.Outcome{ConnectionDetails: map[string][]byte{"k": []byte("b")}},
		},
		"Composed": {
			reason: "composed resources count, in name order",
			a: &render.Outcome{Composed: []render.ComposedResource{
				{Name: "a", Desired: map[string]any{"x": "1"}}, {Name: "b", Desired: map[string]any{"x": "2"}}}},
			b: &render.Outcome{Composed: []render.ComposedResource{
				{Name: "b", Desired: map[string]any{"x": "2"}}, {Name: "a", Desired: map[string]any{"x": "1"}}}},
			same: true,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if got := fingerprint(tc.a) == fingerprint(tc.b); got != tc.same {
				t.Errorf("%s\nfingerprint(a) == fingerprint(b): got %v, want %v", tc.reason, got, tc.same)
			}
		})
	}
}
