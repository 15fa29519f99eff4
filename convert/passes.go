package convert

import "github.com/xpmigrate/xpmigrate/internal/manifest"

// A Composition converts in passes, each a small value over the
// Composition being converted (the domain state, and where findings go):
//
//   - checkPass decides whether and how the Composition converts: a
//     template, duplicate keys, the spec and its mode, the alpha functions,
//     resources that are missing or not a list (C1xx);
//   - normalisePass makes the input what the API server saw and what the
//     functions accept: server fields, unknown fields, template names,
//     patches, transforms, connection details, readiness checks and the
//     environment (docs/semantics/conversion.md#resource-templates, #environment, #patches);
//   - compensatePass restores native output where the function would
//     differ (docs/conversion-fidelity.md#the-compensations K1), or fixes a quirk on request and records it in the
//     intended-changes annotation;
//   - pipelinePass moves the resources, patch sets and environment into the
//     pipeline (docs/semantics/conversion.md#the-composition-object, #pipeline-layout, #the-patch-and-transform-input), and handles Compositions already in Pipeline mode;
//   - validatePass validates the input as native Crossplane does, the
//     output as the functions read it (docs/semantics/conversion.md#output-validation), and the document read back as
//     kubectl reads it (C192).
//
// A Resources-mode Composition runs checkPass, normalisePass (which
// consults compensatePass at each Format transform, where it knows what the
// value can be), validatePass on the input, and, when nothing failed,
// pipelinePass, compensatePass's annotation and validatePass on the output
// (composition.resourcesMode); validatePass reads the encoded document back
// last (run.document). A Pipeline-mode Composition runs checkPass and
// pipelinePass.pipelineMode. Findings come out in the order the passes
// report them. Each pass lives in its own file (check.go, normalise.go with
// patches.go, transforms.go, connection.go and environment.go,
// compensate.go, pipeline.go, validate.go) and has its own table test
// (passes_test.go).
type (
	checkPass      struct{ *composition }
	normalisePass  struct{ *composition }
	compensatePass struct{ *composition }
	pipelinePass   struct{ *composition }
	validatePass   struct{ *composition }
)

// outputCache is what validation learnt about the converted document, kept
// for the encoder (Doc.EncodeKnown), the step inputs and the round-trip
// check so that none of them reads the document again. It is performance
// only: no finding and no output byte depends on it.
type outputCache struct {
	outJSON []byte             // the whole output document as kubectl will read it (base "" only)
	outView *manifest.JSONView // outJSON, indexed
}
