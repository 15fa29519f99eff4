// Package xrpath says which piece of a legacy XR's machinery a field path
// of the XR names: the claim reference, the claim labels, the composition
// machinery Crossplane v2 keeps under spec.crossplane, the connection
// Secret reference, the uid. Package convert reads it to flag patches that
// read machinery v2-style XRs lack (--xr-style v2, C321), and package
// v2native to rewrite them for v2-native XRs (--target v2):
//
//	class, segs := xrpath.Classify("spec.claimRef.namespace")
//	// class == xrpath.ClaimNamespace: the XR's own metadata.namespace in v2
//
//	class, _ = xrpath.Classify("spec.compositionRef.name")
//	// class == xrpath.Machinery: spec.crossplane.compositionRef.name in v2
//
//	class, _ = xrpath.Classify("spec.parameters.size")
//	// class == xrpath.Plain: a field of the XR's own schema
//
// A path that does not parse is Plain (the converter reports it, C216).
package xrpath
