// Package function is the function-patch-and-transform front-end of the P&T
// core: it reads the input of function-patch-and-transform v0.10.8, kind
// Resources of pt.fn.crossplane.io/v1beta1, exactly as the function does,
// and hands the core its neutral types.
//
// Reading the input takes three steps, in the function's order:
//
//  1. Decode it strictly (Decode, DecodeJSON). Member names are matched
//     case-sensitively and an unknown member at any depth is an error, as in
//     function-sdk-go. Nothing is defaulted: Crossplane stores a function's
//     input verbatim, so the defaults of the published CRD never apply. A
//     leftover native `policy.mergeOptions` therefore fails here.
//  2. Validate it (Resources.Validate). The first failed rule is returned
//     as a Kubernetes field error whose path is relative to the input root,
//     with the function's quirks: a bad patch set reports no `patchSets[i]`
//     prefix, Combine patches have their transforms and policy unchecked, a
//     match pattern with an empty type passes. One rule is the toolkit's own:
//     a MatchCondition readiness check without `matchCondition`, which makes
//     the function crash, is rejected.
//  3. Convert it (Resources.CorePatchSets, Resources.EnvironmentPatches,
//     Resources.Templates, Resources.ConnectionSecretRef). The function's
//     code defaults are applied on the way: an empty patch type becomes
//     FromCompositeFieldPath and `policy.toFieldPath` becomes merge options.
//     A toFieldPath that is not set stays unset; the core defaults it to
//     fromFieldPath.
//
// The engine reports a decoding error as "cannot get Function input: <err>"
// and a validation error as "invalid Function input: <err>":
//
//	in, err := function.Decode(req.Input)
//	if err != nil {
//		return errors.Wrap(err, "cannot get Function input")
//	}
//	if ferr := in.Validate(); ferr != nil {
//		return errors.Wrap(ferr, "invalid Function input")
//	}
//	for _, t := range in.Templates() {
//		// t.Name, t.BaseObject(), t.Patches, ...
//	}
//
// Run does all three, then renders. A caller that runs one input many
// times (every reconcile of a render sends the same one) reads it once with
// Prepare and calls
// Prepared.Run; a caller that owns the request's objects, having just
// decoded them, calls Prepared.RunOwned, which reads them in place.
//
// An input of `resources: [{name: a, patches: [{fromFieldPath: spec.x,
// policy: {mergeOptions: {}}}]}]` fails to decode (unknown member
// mergeOptions); `resources: [{patches: []}]` decodes and fails validation
// with "resources[0].name: Required value: name is required".
package function
