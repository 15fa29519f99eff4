// Package patchandtransform is the built-in function-patch-and-transform
// v0.10.8 of the pipeline engine: Function speaks the function protocol
// (RunFunctionRequest in, RunFunctionResponse out) and hands the work to the
// plain-Go algorithm in patchandtransform/function.
//
// The adapter only converts; the protocol stops here, and package function
// knows nothing of it. Protobuf Structs become maps with AsMap, whose
// numbers are float64, exactly the values a function receives over gRPC
// (docs/semantics/pipeline.md#numbers-at-the-function-boundary, rule N1); the step's input too, which
// function.Prepare decodes. Maps go back as the function SDK sends them,
// with structpb.NewStruct's result (protostruct.Builder). The response
// echoes the request's tag and carries the function SDK's TTL of 60s:
//
//	var fn patchandtransform.Function
//	rsp, err := fn.RunFunction(ctx, &fnv1.RunFunctionRequest{
//		Observed: observed, // the XR and composed resources
//		Desired:  desired,  // what earlier steps returned
//		Input:    input,    // a pt.fn.crossplane.io/v1beta1 Resources
//		Context:  context,
//	})
//
// err is only ever a conversion failure. The function reports its own
// failures as results: a FATAL result leaves the request's desired state and
// context in the response.
package patchandtransform
