// Package xcrd holds Crossplane's CustomResourceDefinitions: those it
// derives from a CompositeResourceDefinition (CompositeCRDs for a v1 XRD's
// XR and claim, CompositeCRDV2 for a v2 XRD's XR) and its own CRDs of the
// definitions a v2 platform holds, at the release xpmigrate targets
// (CrossplaneV2: the CompositeResourceDefinition and Composition CRDs of
// v2.3.4). They give the schema an object is validated against before it
// is applied (internal/crdschema).
//
//	crd, err := xcrd.CompositeCRDV2(xrd) // the XR CRD Crossplane v2 creates
package xcrd
