// Package pipeline renders a `mode: Pipeline` Composition in process, the way
// Crossplane v1.20.11's function composer and `crossplane render` do
// (docs/semantics/pipeline.md#the-pipeline-loop and docs/semantics/pipeline.md#crossplane-render).
//
// A pipeline is a list of steps. Each step names a Function, and each Function
// is a Runner: a built-in that runs in this process, or a remote function
// reached over gRPC (NewGRPCRunner). Both speak the same protocol, the
// RunFunctionRequest and RunFunctionResponse messages of function-sdk-go's
// proto/v1, so every value they see has been through a protobuf Struct and
// every number is a float64 (rule N1).
//
// Compose runs one reconcile:
//
//   - observe: the XR and the observed composed resources, keyed by their
//     crossplane.io/composition-resource-name annotation;
//   - run the steps in order. Desired state and context pass from step to
//     step. Every call goes through the requirements loop, which fetches the
//     extra (or, in dialect V2, required) resources a function asks for from
//     Options.ExtraResources and calls it again, up to six times;
//   - stop at the first FATAL result;
//   - turn the final desired state into composed resources with Crossplane's
//     metadata, and into the XR as a profile prints it and as the cluster
//     would keep it (EffectiveXR).
//
// Two profiles shape the output. CrankV120, the default, is byte-for-byte what
// `crossplane render` v1.20.11 prints: generateName is the XR name, no names
// are generated, nothing is garbage collected, the XR's Ready condition
// ignores desired.composite.ready, and every condition carries the fixed time
// 2024-01-01T00:00:00Z. Reconciler is what the real reconciler leaves in the
// cluster: names are generated (deterministically), the XR shows only the
// status the functions wrote, Synced is set, and desired.composite.ready
// overrides the readiness derived from composed resources. Equivalence
// verdicts use Reconciler; EffectiveXR always follows it.
//
// For example, with a function that composes one bucket:
//
//	fns := pipeline.Functions{"function-bucket": pipeline.RunnerFn(bucket)}
//	out, err := pipeline.Compose(ctx, xr, composition, nil, fns, pipeline.Options{})
//	// out.Composed[0].Desired is the bucket, labelled and owned by the XR;
//	// out.XR carries Ready=False, "Unready resources: bucket".
//
// A Composer (NewComposer) reads the Composition once, step inputs included,
// for callers that compose with it again and again, such as a render that
// reconciles until the outcome is stable.
//
// A function that is not in fns fails the step with
// `unknown Function "<name>" - does it exist in your Functions file?`, and a
// FATAL result fails Compose with
// `pipeline step "<step>" returned a fatal result: <message>`, returning the
// events and conditions gathered so far alongside the error.
package pipeline
