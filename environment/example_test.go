package environment_test

import (
	"encoding/json"
	"fmt"

	"github.com/crossplane/crossplane-runtime/v2/pkg/fieldpath"

	"github.com/xpmigrate/xpmigrate/environment"
	pt "github.com/xpmigrate/xpmigrate/patchandtransform"
)

const exampleConfigs = `
apiVersion: apiextensions.crossplane.io/v1alpha1
kind: EnvironmentConfig
metadata: {name: base, labels: {stage: prod}}
data: {region: eu-west-1, size: {nodes: 3}}
---
apiVersion: apiextensions.crossplane.io/v1beta1
kind: EnvironmentConfig
metadata: {name: override, labels: {stage: prod}}
data: {size: {disk: 100}}
`

func printJSON(v any) {
	b, _ := json.Marshal(v)
	fmt.Println(string(b))
}

// A native environment: selection pins the configs in the XR, then their
// data is merged over defaultData, and template patches read it.
func ExampleSpec_Build() {
	configs, err := environment.Load([]byte(exampleConfigs))
	if err != nil {
		panic(err)
	}
	set, err := environment.NewSet(configs...)
	if err != nil {
		panic(err)
	}
	s, err := environment.DecodeSpec([]byte(`{
		"defaultData": {"region": "us-east-1", "tier": "standard"},
		"environmentConfigs": [{"type": "Selector", "selector": {"mode": "Multiple",
			"matchLabels": [{"key": "stage", "valueFromFieldPath": "spec.stage"}]}}]}`))
	if err != nil {
		panic(err)
	}
	s.Default()
	if errs := s.Validate(); len(errs) > 0 {
		panic(errs.ToAggregate())
	}

	xr := map[string]any{"spec": map[string]any{"stage": "prod"}}
	env, _, err := s.Build(xr, set)
	if err != nil {
		panic(err)
	}
	printJSON(env)
	printJSON(xr["spec"].(map[string]any)["environmentConfigRefs"])

	// A FromEnvironmentFieldPath patch of a template: the float64 in the
	// environment is written as an integer.
	e := fieldpath.Pave(env)
	desired := fieldpath.Pave(map[string]any{"apiVersion": "ex.org/v1", "kind": "CD"})
	from, to := "size.nodes", "spec.nodes"
	p := pt.Patch{Type: pt.PatchTypeFromEnvironmentFieldPath, FromFieldPath: &from, ToFieldPath: &to}
	if _, err := environment.ApplyTemplatePatch(p, e, desired); err != nil {
		panic(err)
	}
	printJSON(desired.UnstructuredContent())

	// Output:
	// {"apiVersion":"internal.crossplane.io/v1alpha1","kind":"Environment","region":"eu-west-1","size":{"disk":100,"nodes":3},"tier":"standard"}
	// [{"apiVersion":"apiextensions.crossplane.io/v1alpha1","kind":"EnvironmentConfig","name":"base"},{"apiVersion":"apiextensions.crossplane.io/v1alpha1","kind":"EnvironmentConfig","name":"override"}]
	// {"apiVersion":"ex.org/v1","kind":"CD","spec":{"nodes":3}}
}

// function-environment-configs runs twice per reconcile: the first call asks
// for configs, the second merges what it received.
func ExampleFunction_Run() {
	configs, err := environment.Load([]byte(exampleConfigs))
	if err != nil {
		panic(err)
	}
	set, err := environment.NewSet(configs...)
	if err != nil {
		panic(err)
	}
	fn := environment.Function{Version: environment.FunctionV07}
	in, err := fn.DecodeInput([]byte(`
apiVersion: environmentconfigs.fn.crossplane.io/v1beta1
kind: Input
spec:
  defaultData: {tier: standard}
  environmentConfigs:
  - type: Selector
    selector:
      mode: Multiple
      matchLabels: [{key: stage, valueFromFieldPath: spec.stage}]
    toFieldPath: cluster
`))
	if err != nil {
		panic(err)
	}
	xr := map[string]any{"spec": map[string]any{"stage": "prod"}}

	first, err := fn.Run(in, environment.FunctionRequest{Observed: xr})
	if err != nil {
		panic(err)
	}
	fmt.Printf("%s: %+v\n", fn.Version.RequirementsField(), first.Requirements)

	res, err := set.Fetch(first.Requirements)
	if err != nil {
		panic(err)
	}
	second, err := fn.Run(in, environment.FunctionRequest{Observed: xr, Resources: res})
	if err != nil {
		panic(err)
	}
	printJSON(second.Environment)

	// Output:
	// resources: map[environment-config-0:{APIVersion:apiextensions.crossplane.io/v1beta1 Kind:EnvironmentConfig MatchName: MatchLabels:map[stage:prod]}]
	// {"apiVersion":"internal.crossplane.io/v1alpha1","cluster":{"region":"eu-west-1","size":{"disk":100,"nodes":3}},"kind":"Environment","tier":"standard"}
}
