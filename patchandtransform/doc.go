// Package patchandtransform is xpmigrate's one patch-and-transform core:
// patches, transforms, combine, policies, connection details and readiness
// checks, as pure functions over JSON-shaped objects (crossplane-runtime's
// *fieldpath.Paved).
//
// Two engines ran these constructs upstream, and they do not agree in every
// corner: Crossplane's native `mode: Resources` composer and
// function-patch-and-transform. The core implements both behaviours and
// picks between them by a Dialect value that the caller passes in, never by
// global state. The core knows neither Composition v1 types nor function
// input types; the front-ends in sub-packages decode, default and validate
// those shapes and hand the core its neutral types:
//
//   - package native reads the `mode: Resources` shapes of an
//     apiextensions.crossplane.io/v1 Composition, applying the API server's
//     defaulting and the webhook's validation;
//   - package function reads the pt.fn.crossplane.io/v1beta1 Resources input
//     of function-patch-and-transform, strictly, as the function does.
//
// A minimal use:
//
//	from := fieldpath.Pave(map[string]any{"spec": map[string]any{"size": "small"}})
//	to := fieldpath.Pave(map[string]any{})
//	p := patchandtransform.Patch{
//		Type:          patchandtransform.PatchTypeFromCompositeFieldPath,
//		FromFieldPath: ptr("spec.size"),
//		ToFieldPath:   ptr("spec.forProvider.size"),
//	}
//	err := patchandtransform.Apply(patchandtransform.Native, p, from, to)
//
// Values follow Kubernetes' JSON model: objects are map[string]any, lists
// []any, and numbers are int64 when integral (as the Kubernetes decoder
// reads them) or float64 otherwise. Which of the two a number is matters for
// transforms (`%d`, map keys, MatchInteger); see Normalize and WireNumbers.
package patchandtransform
