// Package verify proves that a converted Composition composes what the
// legacy one did, and explains every way in which it does not.
//
// For each sample composite resource (XR), Verify renders the legacy
// `mode: Resources` Composition with the native composer (render/legacy)
// and its `mode: Pipeline` conversion with the function pipeline
// (render/pipeline, reconciler profile, built-in function-patch-and-transform
// and function-environment-configs), with the same observed resources and
// EnvironmentConfigs, for several reconciles in a row, and compares each
// reconcile (Compare):
//
//   - composed resources, keyed by composition resource name (an anonymous
//     legacy template by the name the converter gave it, `resource-<i>`):
//     whether they are rendered, the full desired object, readiness, synced;
//   - the XR as the cluster would keep it (docs/semantics/pipeline.md#the-effective-xr effectiveXR),
//     so spec or metadata that Pipeline mode never persists shows up;
//   - the XR's Ready and Synced conditions (status and reason) and its
//     connection details;
//   - garbage collection and reconcile errors.
//
// Only what legitimately differs is normalised: generated name suffixes,
// server fields, empty uids and claim labels, condition messages and
// times, the order of spec.resourceRefs.
//
// Every difference is then classified by small rules (package
// render/verify/gaps, which also holds the Difference and Gap types
// and the catalogue that verify's API aliases), each
// recognising one known semantic gap between the two engines by its code
// in docs/reference/gaps.md#known-gaps, with the converter's
// diagnostic codes (C2xx, C3xx), the measurements of
// docs/semantics/differences.md that found it, an explanation naming the patch or check at fault,
// and the fix the user can make. A difference no rule explains is a bug in
// the conversion and always fails. A difference that vanishes by the last
// reconcile is transient (the pipeline catches up a reconcile later, D8,
// D19, D26) and never fails; a known gap that persists fails only with
// Options.Strict.
//
// Samples come from files, from FindExamples (the examples `migrate`
// would use, found in the tree around the Composition by the sample
// finder they share, internal/samples.Find), or from Synthesize (generated from the XRD's schema so that
// every patch fires); the report lists the patches no sample exercised.
// Package render/verify/format prints a Report as text (a verdict line per
// sample and a unified diff per difference), JSON, JUnit XML, SARIF 2.1.0
// or GitHub workflow commands.
//
//	rep, err := verify.Verify(ctx,
//		verify.Document{Path: "composition.yaml", Data: legacy},
//		verify.Document{Path: "pipeline.yaml", Data: converted},
//		[]verify.Sample{{Name: "xr.yaml#1", XR: xr}},
//		verify.Options{Observed: observed, Extra: environmentConfigs})
//	if err != nil {
//		return err // invalid input (render.InputError) or a failed run
//	}
//	_ = format.Write(os.Stdout, rep, format.Options{Format: format.Text})
//	if !rep.Equivalent() {
//		// exit 3
//	}
//
// Without a converted Composition Verify calls Options.Convert, a
// Converter: a function from a ConvertRequest (the legacy Composition's
// YAML, a target, the XRD when known) to the converted YAML.
package verify
