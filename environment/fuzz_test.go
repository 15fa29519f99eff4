package environment

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// FuzzLoad checks that the loader never panics and that whatever it loads
// makes a Set or fails cleanly, and can be fetched from.
func FuzzLoad(f *testing.F) {
	f.Add([]byte(ec3))
	f.Add([]byte(env0))
	f.Add([]byte(`{"apiVersion": "apiextensions.crossplane.io/v1beta1", "kind": "EnvironmentConfig", "metadata": {"name": "a"}, "data": {"f": 1.0}}`))
	f.Add([]byte("apiVersion: v1\nkind: List\nitems: [{apiVersion: apiextensions.crossplane.io/v1beta1, kind: EnvironmentConfig, metadata: {name: a}}]\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		cs, err := Load(b)
		if err != nil {
			return
		}
		s, err := NewSet(cs...)
		if err != nil {
			return
		}
		xr := map[string]any{"spec": map[string]any{}}
		refs := make([]any, 0, len(cs))
		for _, c := range cs {
			refs = append(refs, map[string]any{"name": c.Name})
		}
		xr["spec"].(map[string]any)["environmentConfigRefs"] = refs
		if _, err := (*Spec)(nil).Fetch(xr, s); err != nil {
			t.Fatalf("Fetch(...) of loaded configs: %v", err)
		}
	})
}

// FuzzSpec checks that decoding, defaulting, validating and selecting with
// any spec.environment never panics.
func FuzzSpec(f *testing.F) {
	f.Add([]byte(`{environmentConfigs: [{type: Selector, selector: {mode: Multiple, sortByFieldPath: data.w, matchLabels: [{type: Value, key: env, value: prod}]}}]}`))
	f.Add([]byte(`{environmentConfigs: [{type: Selector, selector: {matchLabels: [{key: env, valueFromFieldPath: spec.env, fromFieldPathPolicy: Optional}]}}]}`))
	f.Add([]byte(`{defaultData: {a: 1}, policy: {resolve: Always}, environmentConfigs: [{ref: {name: a}}]}`))
	f.Add([]byte(`{environmentConfigs: [{type: Selector}, {type: Reference}]}`))
	configs := set(f, ec3, env0)
	f.Fuzz(func(t *testing.T, b []byte) {
		s, err := DecodeSpec(b)
		if err != nil {
			return
		}
		s.Default()
		_ = s.Validate()
		_ = s.ValidateSchema()
		build := func() (any, any, map[string]any, error) {
			xr := map[string]any{"spec": map[string]any{"env": "prod", "num": int64(3)}}
			a, b, err := s.Build(xr, configs)
			return a, b, xr, err
		}
		a1, b1, xr1, err1 := build()
		a2, b2, _, err2 := build()
		// Deterministic.
		if (err1 == nil) != (err2 == nil) || (err1 != nil && err1.Error() != err2.Error()) || !cmp.Equal(a1, a2) || !cmp.Equal(b1, b2) {
			t.Fatalf("Build(...) is not deterministic: %v / %v", err1, err2)
		}
		// Natively the selection is recorded in spec.environmentConfigRefs;
		// nothing else of the XR changes.
		if spec, ok := xr1["spec"].(map[string]any); ok {
			delete(spec, "environmentConfigRefs")
		}
		if want := map[string]any{"spec": map[string]any{"env": "prod", "num": int64(3)}}; !cmp.Equal(want, xr1) {
			t.Fatalf("Build(...) changed the XR beyond spec.environmentConfigRefs: %s", cmp.Diff(want, xr1))
		}
	})
}

// FuzzInput checks that the function never panics on any input it decodes.
func FuzzInput(f *testing.F) {
	f.Add([]byte(ec01Input))
	f.Add([]byte(`{spec: {environmentConfigs: [{type: Selector, selector: {matchLabels: [{type: Value, key: a}]}}]}}`))
	f.Add([]byte(`{spec: {environmentConfigs: [{ref: {name: a}, toFieldPath: "x[2000]"}]}}`))
	configs := set(f, ec3, env0)
	f.Fuzz(func(t *testing.T, b []byte) {
		fn := Function{}
		in, err := fn.DecodeInput(b)
		if err != nil {
			return
		}
		xr := map[string]any{"spec": map[string]any{"env": "prod"}}
		rsp, err := fn.Run(in, FunctionRequest{Observed: xr})
		if err != nil {
			return
		}
		// The requirements are a function of the input and the XR alone.
		again, err := fn.Run(in, FunctionRequest{Observed: xr})
		if err != nil || !cmp.Equal(rsp.Requirements, again.Requirements) {
			t.Fatalf("Run(...) asks for different resources on the same input: %v", err)
		}
		res, err := configs.Fetch(rsp.Requirements)
		if err != nil {
			t.Fatalf("Fetch(...): %v", err)
		}
		out1, err1 := fn.Run(in, FunctionRequest{Observed: xr, Resources: res})
		out2, err2 := fn.Run(in, FunctionRequest{Observed: xr, Resources: res})
		if (err1 == nil) != (err2 == nil) || (err1 != nil && err1.Error() != err2.Error()) || !cmp.Equal(out1, out2, cmpopts.EquateEmpty()) {
			t.Fatalf("Run(...) with the resources is not deterministic: %v / %v", err1, err2)
		}
		if want := map[string]any{"spec": map[string]any{"env": "prod"}}; !cmp.Equal(want, xr) {
			t.Fatalf("Run(...) changed the observed XR: %s", cmp.Diff(want, xr))
		}
	})
}
