// Package v2native holds the rules of the conversion to Crossplane
// v2-native XRs (`convert --target v2` with an XR scope) that need no
// Composition being converted: how the v2 XR type, its plural and its
// Composition are named, which piece of legacy XR machinery a field path
// names, how CEL rules that read that machinery are rewritten, and which
// templates make an XR type cluster-scoped. Package convert applies them
// to the YAML it edits, and reports what they find:
//
//	n := v2native.XRNames(v2native.TypeNames{Group: "db.example.org", Kind: "XPostgreSQLInstance", Plural: "xpostgresqlinstances"}, "")
//	// n.Kind == "PostgreSQLInstance", n.Plural == "postgresqlinstances"
//
//	class, _ := xrpath.Classify("spec.claimRef.namespace")
//	// class == xrpath.ClaimNamespace: the XR's own metadata.namespace in v2
//
// It imports nothing of convert: convert imports it.
package v2native
