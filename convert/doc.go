// Package convert turns legacy `mode: Resources` Compositions into
// `mode: Pipeline` Compositions that run function-patch-and-transform (and
// function-environment-configs for the native composition environment), as
// docs/semantics/conversion.md describes, without losing anything else.
//
// Convert reads a whole YAML stream and returns the converted stream:
//
//	res, err := convert.Convert(input, convert.Options{Source: "composition.yaml"})
//	if err != nil {
//		return err // invalid options, or input that is not YAML (C102)
//	}
//	for _, d := range res.Diagnostics {
//		fmt.Fprintln(stderr, d) // composition.yaml:12: C204 warning: spec.resources: …
//	}
//	if res.Failed() {
//		return errors.New("not converted") // an error finding: write nothing
//	}
//	os.WriteFile(out, res.Output, 0o644)
//
// What it does to each document:
//
//   - anything that is not an apiextensions.crossplane.io Composition is
//     copied byte for byte, `---` separators, comments and empty documents
//     included; the items of a `kind: List` are handled one by one;
//   - a Resources-mode Composition becomes a pipeline: an
//     environment-configs step when spec.environment selects
//     EnvironmentConfigs, then a patch-and-transform step whose input holds
//     the environment patches, the patch sets and the resources. Every
//     default the API server used to fill in and the function does not
//     (patch and transform types, `type: literal` on match patterns,
//     MatchCondition fields, connection detail types and names with the
//     native precedence) is written out, `policy.mergeOptions` becomes
//     `policy.toFieldPath`, and the compensations of docs/conversion-fidelity.md#the-compensations restore
//     native results where function input provably can (an int64 convert
//     before a `%d` format of a value the XRD types integer);
//   - native quirks are reproduced, not fixed: where the pipeline cannot
//     behave the same (a `%d` on an XR field of unknown type, an
//     environment patch into the XR's status) a warning says so.
//     Options.FixQuirks fixes a quirk on purpose, by code (C325), and
//     lists the codes in the IntendedChangesAnnotation of the output;
//   - what the API server pruned is dropped (the alpha spec.functions), and
//     a Composition without resources (a kustomize base) converts with an
//     empty resources list, both with C214;
//   - a Pipeline-mode Composition is left alone unless it still carries a
//     native environment or leftover resources; its patch-and-transform
//     steps are linted. Converting the output again changes nothing.
//
// Everything is done on the yaml.v3 node tree (package yamledit), so the
// comments, key order, quoting, anchors and indentation of what the
// mapping does not rewrite stay as written, and moved blocks are
// re-indented, not re-serialised.
//
// The v2-native target (--target v2 with an XR scope other than legacy)
// is built on top of this conversion by package convert/v2native, which
// imports this one: Convert refuses it, and ConvertWith runs the
// conversion with v2native's Extension, asked at the points the Extension
// interface names (whole documents that are no Compositions, List items,
// each patch and environment selector of a Composition, before the
// pipeline is assembled and after it). What an extension sees of a
// Composition is a Composition (its nodes, the run's options and XRDs, and
// Errorf, Warnf and Infof for its findings), of a document a Document.
// The findings of both targets share one registry.
//
// Findings carry stable codes (Registry): errors (C1xx) stop the document
// from being converted, warnings (C2xx) are converted and reported,
// information (C3xx) is reported only. Options.Strict turns warnings into
// errors. Before a document is written, every function input is decoded
// and validated as the function itself does (C190), and the document is
// read back to check that nothing outside the intended edits changed
// (C192).
package convert
