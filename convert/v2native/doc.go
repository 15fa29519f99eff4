// Package v2native converts to Crossplane v2-native XRs (`convert --target
// v2` with an XR scope other than legacy), on top of package convert's
// Pipeline conversion: Convert runs convert.ConvertWith with this
// package's convert.Extension for the v2-native target, and hands any
// other conversion to convert.Convert.
//
//	res, err := v2native.Convert(input, convert.Options{Target: crossplane.V2, Source: "platform.yaml"})
//	if err != nil {
//		return err // invalid options, or input that is not YAML (C102)
//	}
//	// res is a *convert.Result: the XRDs are apiextensions.crossplane.io/v2
//	// XRDs (C401), each Composition a new Composition of the v2 XR type
//	// (C420), with its v2-mapping annotation.
//
// What it converts:
//
//   - a CompositeResourceDefinition becomes its v2 XRD, with the scope
//     Options.XRScope gives (under auto, Namespaced unless a Composition of
//     the type composes what a namespaced XR cannot), the names
//     Options.XRNaming gives, no claims, and the CEL rules and printer
//     columns that read XR machinery rewritten (xrd.go);
//   - a Composition becomes the Composition of the v2 XR type: patches
//     that read the claim or XR machinery rewritten (patches.go), managed
//     resources made their namespaced twins with the provider CRDs or the
//     built-in table of provider families (templates.go, providercrds.go,
//     unwrap.go for provider-kubernetes Objects), the connection Secret
//     composed by function-patch-and-transform, and the edits of the
//     templates recorded as internal/v2map ops (composition.go);
//   - EnvironmentConfigs, Usages, ControllerConfigs, packages and
//     Configurations get their v2 apiVersions and fields (objects.go);
//   - XRTwin writes the v2 XR twin of a claim or legacy XR example
//     (twin.go), for migrate and plan v2.
//
// The rules that need no Composition being converted are pure functions:
// how the v2 XR type, its plural and its Composition are named (XRNames,
// XRType, CompositionName), how CEL rules that read the legacy machinery
// are rewritten (CELRewrites), and which templates make an XR type
// cluster-scoped (ClusterHints). Which machinery a field path names is
// package convert/xrpath's, which convert reads too.
//
//	n := v2native.XRNames(v2native.TypeNames{Group: "db.example.org", Kind: "XPostgreSQLInstance", Plural: "xpostgresqlinstances"}, "")
//	// n.Kind == "PostgreSQLInstance", n.Plural == "postgresqlinstances"
//
// Findings are convert.Diagnostics with the codes of convert.Registry
// (C4xx).
package v2native
