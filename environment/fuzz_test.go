package environment

import (
	"testing"
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
		xr := map[string]any{"spec": map[string]any{"env": "prod", "num": int64(3)}}
		_, _, _ = s.Build(xr, configs)
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
		res, err := configs.Fetch(rsp.Requirements)
		if err != nil {
			t.Fatalf("Fetch(...): %v", err)
		}
		_, _ = fn.Run(in, FunctionRequest{Observed: xr, Resources: res})
	})
}
