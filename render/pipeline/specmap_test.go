package pipeline

import (
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"google.golang.org/protobuf/testing/protocmp"
)

// TestSpecOf checks that reading a spec straight from its JSON tree gives
// what reading it through JSON text gives, and that the direct reader
// declines whatever JSON text would change, refuse or read differently.
func TestSpecOf(t *testing.T) {
	withStep := func(kv ...any) map[string]any {
		m := map[string]any{"step": "s", "functionRef": map[string]any{"name": "fn"}}
		for i := 0; i < len(kv); i += 2 {
			m[kv[i].(string)] = kv[i+1]
		}
		return m
	}
	spec := func(kv ...any) map[string]any {
		m := map[string]any{
			"compositeTypeRef": map[string]any{"apiVersion": "example.org/v1", "kind": "XR"},
			"mode":             "Pipeline",
		}
		for i := 0; i < len(kv); i += 2 {
			m[kv[i].(string)] = kv[i+1]
		}
		return m
	}
	cases := map[string]struct {
		reason string
		spec   any
		direct bool
	}{
		"Typical": {
			reason: "A converted Composition: one step whose input holds strings, numbers, lists and objects.",
			spec: spec("writeConnectionSecretsToNamespace", "crossplane-system", "pipeline", []any{withStep("input", map[string]any{
				"apiVersion": "pt.fn.crossplane.io/v1beta1", "kind": "Resources",
				"resources": []any{map[string]any{"name": "a", "base": map[string]any{"n": int64(1) << 60, "f": 1.5, "i": 3, "b": true, "z": nil, "l": []any{}}}},
			})}),
			direct: true,
		},
		"Credentials": {
			reason: "Credentials with and without a secretRef, and an empty one.",
			spec: spec("pipeline", []any{withStep("credentials", []any{
				map[string]any{"name": "c", "source": "Secret", "secretRef": map[string]any{"namespace": "ns", "name": "s"}},
				map[string]any{"name": "d", "source": "None", "secretRef": nil},
				map[string]any{"name": "e", "source": "Secret", "secretRef": map[string]any{}},
			})}),
			direct: true,
		},
		"Nulls": {
			reason: "Null members leave their fields alone.",
			spec:   map[string]any{"compositeTypeRef": nil, "mode": nil, "pipeline": []any{map[string]any{"step": nil, "functionRef": nil, "input": nil, "credentials": nil}}},
			direct: true,
		},
		"NoPipeline": {
			reason: "A spec without a pipeline has no steps.",
			spec:   spec("pipeline", nil),
			direct: true,
		},
		"FoldedName": {
			reason: "encoding/json matches member names case-insensitively.",
			spec:   spec("Mode", "Resources"),
		},
		"FoldedStepName": {
			reason: "Also inside a step.",
			spec:   spec("pipeline", []any{withStep("Input", map[string]any{"a": "b"})}),
		},
		"KelvinSign": {
			reason: "Case folding is Unicode's: U+212A is k.",
			spec:   spec("compositeTypeRef", map[string]any{"\u212Aind": "XR"}),
		},
		"WrongType": {
			reason: "A value of the wrong type is a decoding error.",
			spec:   spec("mode", 1.0),
		},
		"InputNotObject": {
			reason: "An input that is not an object fails its step's requests.",
			spec:   spec("pipeline", []any{withStep("input", "text")}),
		},
		"TypedNilInInput": {
			reason: "A typed nil object is null in JSON.",
			spec:   spec("pipeline", []any{withStep("input", map[string]any{"a": map[string]any(nil)})}),
		},
		"TypedNilList": {
			reason: "A typed nil list is null in JSON.",
			spec:   spec("pipeline", []any{withStep("input", map[string]any{"a": []any(nil)})}),
		},
		"NotUTF8": {
			reason: "encoding/json replaces bytes that are not UTF-8.",
			spec:   spec("pipeline", []any{withStep("input", map[string]any{"a": "\xff"})}),
		},
		"NotUTF8Key": {
			reason: "In member names too.",
			spec:   spec("pipeline", []any{withStep("input", map[string]any{"\xff": "a"})}),
		},
		"NaN": {
			reason: "JSON has no NaN: the spec cannot be encoded.",
			spec:   spec("other", math.NaN()),
		},
		"NotPlain": {
			reason: "Values that are not plain JSON data go through JSON text.",
			spec:   spec("other", map[string]string{"a": "b"}),
		},
		"NotAnObject": {
			reason: "A spec that is not an object.",
			spec:   "spec",
		},
	}
	opts := cmp.Options{
		protocmp.Transform(),
		cmp.AllowUnexported(step{}),
		cmpopts.IgnoreFields(step{}, "Input"),
		cmpopts.EquateErrors(),
		cmpopts.EquateEmpty(),
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, ok := specOf(tc.spec)
			if ok != tc.direct {
				t.Fatalf("\n%s\nspecOf(...): got ok %t, want %t", tc.reason, ok, tc.direct)
			}
			if !ok {
				return
			}
			want, err := specFromJSON("c", tc.spec)
			if err != nil {
				t.Fatalf("\n%s\nspecFromJSON(...): %v", tc.reason, err)
			}
			if diff := cmp.Diff(want, got, opts); diff != "" {
				t.Errorf("\n%s\nspecOf(...): -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}
