// Package native is the patch-and-transform core's front-end for Crossplane's
// own `mode: Resources` Compositions (apiextensions.crossplane.io/v1, as
// Crossplane v1.17.6 and v1.20.11 define them).
//
// Crossplane never sees a Composition as written: the API server prunes
// unknown fields and nulls, applies the CRD defaults, and then the schema and
// Crossplane's webhook validate it. This package reproduces those steps, each
// separately, so that a caller can also show what happens without them (the
// runtime itself defaults nothing, Q-1 in docs/semantics/legacy.md#quirks), and then converts the result to
// the neutral types of package patchandtransform:
//
//	c, err := native.Decode(yamlBytes) // prune, as the API server does
//	if err != nil {
//		return err
//	}
//	c.Default()                        // CRD defaults
//	if errs := c.Validate(); len(errs) > 0 {
//		return errs.ToAggregate()      // schema + webhook, every error
//	}
//	sets := c.PatchSets()              // []patchandtransform.PatchSet
//	for _, t := range c.Templates() {  // patches, connection details, readiness in core types
//		base, err := t.Object()        // the base, numbers as int64/float64
//		...
//	}
//	env := c.EnvironmentPatches()      // v1.17 spec.environment.patches
//
// What the front-end resolves, so that the core does not have to:
//
//   - connection details get their Type and Name inferred (docs/semantics/legacy.md#connection-details);
//   - readiness checks map the native "unset" values ("" and 0) to nil, and
//     an empty list to the default check (docs/semantics/legacy.md#readiness-checks);
//   - free-form values (map values, match results and fallback values) stay
//     raw JSON, because Crossplane decodes them with the plain JSON decoder
//     at run time (numbers become float64);
//   - policy.mergeOptions keeps its pointers: `mergeOptions: {}` is not the
//     same as no mergeOptions.
//
// What it leaves to others: expanding PatchSet references (the composer),
// and the environment selection (spec.environment without patches: defaultData,
// environmentConfigs, policy), which is kept as JSON in
// Environment.Selection for package environment. Decode prunes it and
// Default defaults it as the v1.17 API server would.
//
// Validation targets Crossplane v1.17 by default, which accepts the
// environment patch types in template patches; ForTarget(TargetV120) rejects
// them as v1.20 does.
//
// YAML is read as kubectl reads it (sigs.k8s.io/yaml, YAML 1.1), so an
// unquoted key `y` becomes "true" and an unquoted `yes` value becomes true.
package native
