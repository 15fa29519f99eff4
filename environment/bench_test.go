package environment

import (
	"fmt"
	"testing"
)

// benchConfigs returns n EnvironmentConfigs, all labelled tier=bench, half
// labelled stage=prod, each with a few keys of data including a weight.
func benchConfigs(b *testing.B, n int) *Set {
	b.Helper()
	cs := make([]Config, n)
	for i := range cs {
		stage := "dev"
		if i%2 == 0 {
			stage = "prod"
		}
		d := fmt.Sprintf(`apiVersion: apiextensions.crossplane.io/v1beta1
kind: EnvironmentConfig
metadata: {name: cfg-%04d, labels: {tier: bench, stage: %s}}
data: {weight: %d, region: r%d, nested: {n%d: %d, shared: {k: v%d}}, list: [%d, %d]}
`, i, stage, (i*7919)%n, i%5, i%10, i, i, i, i+1)
		loaded, err := Load([]byte(d))
		if err != nil {
			b.Fatalf("Load(...): %v", err)
		}
		cs[i] = loaded[0]
	}
	s, err := NewSet(cs...)
	if err != nil {
		b.Fatalf("NewSet(...): %v", err)
	}
	return s
}

// BenchmarkSelectAndMerge selects and merges from 1,000 EnvironmentConfigs:
// a Reference plus a Multiple selector matching 500 configs sorted by an
// integer data key (native) or a float key (function), merged over
// defaultData.
func BenchmarkSelectAndMerge(b *testing.B) {
	configs := benchConfigs(b, 1000)

	b.Run("Native", func(b *testing.B) {
		s, err := DecodeSpec([]byte(`{"defaultData": {"region": "none", "d": 1},
			"environmentConfigs": [{"ref": {"name": "cfg-0001"}},
			  {"type": "Selector", "selector": {"mode": "Multiple", "sortByFieldPath": "data.weight",
			   "matchLabels": [{"key": "stage", "valueFromFieldPath": "spec.stage"}, {"type": "Value", "key": "tier", "value": "bench"}]}}]}`))
		if err != nil {
			b.Fatal(err)
		}
		s.Default()
		b.ReportAllocs()
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			xr := map[string]any{"spec": map[string]any{"stage": "prod"}}
			env, sel, err := s.Build(xr, configs)
			if err != nil {
				b.Fatal(err)
			}
			if len(sel.Refs) != 501 || len(env) == 0 {
				b.Fatalf("selected %d configs", len(sel.Refs))
			}
		}
	})

	b.Run("Function", func(b *testing.B) {
		fn := Function{Version: FunctionV07}
		in, err := fn.DecodeInput([]byte(`{"spec": {"defaultData": {"region": "none", "d": 1},
			"environmentConfigs": [{"ref": {"name": "cfg-0001"}},
			  {"type": "Selector", "selector": {"mode": "Multiple", "sortByFieldPath": "data.weight",
			   "matchLabels": [{"key": "stage", "valueFromFieldPath": "spec.stage"}, {"type": "Value", "key": "tier", "value": "bench"}]}}]}}`))
		if err != nil {
			b.Fatal(err)
		}
		xr := map[string]any{"spec": map[string]any{"stage": "prod"}}
		b.ReportAllocs()
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			first, err := fn.Run(in, FunctionRequest{Observed: xr})
			if err != nil {
				b.Fatal(err)
			}
			res, err := configs.Fetch(first.Requirements)
			if err != nil {
				b.Fatal(err)
			}
			second, err := fn.Run(in, FunctionRequest{Observed: xr, Resources: res})
			if err != nil {
				b.Fatal(err)
			}
			if second.Environment == nil {
				b.Fatal("no environment")
			}
		}
	})
}
