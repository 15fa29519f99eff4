// Package v2map declares how a Crossplane v1 object becomes its v2-native
// twin, as data: the converter records the edits it made to each template
// (and to the XR type) in the converted Composition's
// xpmigrate.io/v2-mapping annotation, and verification applies the same
// edits to what the legacy side rendered before it compares it with the v2
// render. Every edit carries the C-code of the transformation that made it,
// so that a difference it explains is reported under that code.
package v2map
