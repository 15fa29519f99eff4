// Package environment reproduces the composition environment: the
// in-memory object, built from EnvironmentConfigs, that environment patches
// read and write while a composite resource (XR) is composed. Two engines
// built it, and they do not agree in every corner, so the package has one
// path for each:
//
//   - native: Crossplane v1.14–v1.17 (exactly v1.17.6) with
//     --enable-environment-configs, driven by a Composition's
//     spec.environment (Spec): Default and Validate it as the API server
//     and webhook would, Select configs (pinned in the XR's
//     spec.environmentConfigRefs unless policy.resolve is Always), Fetch
//     and merge them over defaultData, then run environment patches with
//     ApplyEnvironmentPatches and ApplyTemplatePatch;
//   - function: function-environment-configs (v0.7.x, or v0.6.x through
//     Function.Version), driven by its Input: Run builds requirements,
//     and, given the resources fetched for them, the environment under
//     the context key apiextensions.crossplane.io/environment.
//
// EnvironmentConfigs (v1alpha1 or v1beta1; the schema is the same) are
// loaded with Load and given to both paths as a Set, an in-memory stand-in
// for the cluster.
//
// Values follow each engine's number model. Config data is kept as JSON.
// The native engine merges it decoded by the plain Go decoder, so a fresh
// environment holds float64 numbers until a patch writes to it (which
// re-encodes the whole object, making integral numbers int64), while it
// sorts candidates by values decoded by the Kubernetes decoder (integers
// int64). The function sees only wire values: every number a float64.
//
// Building a native environment:
//
//	configs, _ := environment.Load(yamlBytes)
//	set, _ := environment.NewSet(configs...)
//	spec, _ := environment.DecodeSpec(compositionSpecEnvironmentJSON)
//	spec.Default()
//	if errs := spec.Validate(); len(errs) > 0 { ... }
//	env, sel, err := spec.Build(xr, set) // xr gains spec.environmentConfigRefs
//	paved := fieldpath.Pave(env)          // keep the Paved: patches re-encode it
//
// Running the function, twice as Crossplane does:
//
//	fn := environment.Function{Version: environment.FunctionV07}
//	in, _ := fn.DecodeInput(input)
//	rsp, _ := fn.Run(in, environment.FunctionRequest{Observed: xr})
//	res, _ := set.Fetch(rsp.Requirements)
//	rsp, _ = fn.Run(in, environment.FunctionRequest{Observed: xr, Resources: res})
//	// rsp.Environment is the context value.
//
// Where upstream leaves an order unspecified (Multiple mode sorts with an
// unstable sort; the function merges toFieldPath groups in map order) the
// package picks a deterministic one — ties by name, groups by first
// appearance — and reports it (Selection.Ties, FunctionResponse.Ties and
// Warnings).
package environment
