package xrpath

import (
	"slices"
	"strings"

	"github.com/crossplane/crossplane-runtime/v2/pkg/fieldpath"

	"github.com/xpmigrate/xpmigrate/internal/xp"
)

// A Class says which piece of legacy XR machinery a field path of
// the XR names.
type Class int

const (
	Plain           Class = iota
	ClaimNamespace        // spec.claimRef.namespace
	ClaimName             // spec.claimRef.name
	ClaimRef              // spec.claimRef, anything else in it
	Machinery             // spec.compositionRef, ... (spec.crossplane.* in v2)
	SecretNamespace       // spec.writeConnectionSecretToRef.namespace
	SecretRef             // spec.writeConnectionSecretToRef, anything else in it
	ClaimNameLabel        // metadata.labels[crossplane.io/claim-name]
	ClaimNSLabel          // metadata.labels[crossplane.io/claim-namespace]
	ClaimLabel            // another crossplane.io/claim-* label
	UID                   // metadata.uid
)

// MachineryFields are the fields of a legacy XR's spec that a v2 XR
// keeps under spec.crossplane.
var MachineryFields = []string{
	"compositionRef", "compositionSelector", "compositionRevisionRef",
	"compositionRevisionSelector", "compositionUpdatePolicy", "resourceRefs",
}

// Classify says which machinery the XR field path s names, with its
// parsed segments (nil when it cannot be parsed: C216 reports it).
func Classify(s string) (Class, fieldpath.Segments) {
	segs, err := fieldpath.Parse(s)
	if err != nil || len(segs) == 0 {
		return Plain, nil
	}
	field := func(i int) string {
		if i < len(segs) && segs[i].Type == fieldpath.SegmentField {
			return segs[i].Field
		}
		return ""
	}
	switch {
	case field(0) == "spec" && field(1) == "claimRef":
		switch {
		case len(segs) == 3 && field(2) == "namespace":
			return ClaimNamespace, segs
		case len(segs) == 3 && field(2) == "name":
			return ClaimName, segs
		}
		return ClaimRef, segs
	case field(0) == "spec" && slices.Contains(MachineryFields, field(1)):
		return Machinery, segs
	case field(0) == "spec" && field(1) == "writeConnectionSecretToRef":
		if len(segs) == 3 && field(2) == "namespace" {
			return SecretNamespace, segs
		}
		return SecretRef, segs
	case field(0) == "metadata" && field(1) == "labels" && len(segs) == 3:
		switch field(2) {
		case xp.LabelClaimName:
			return ClaimNameLabel, segs
		case xp.LabelClaimNamespace:
			return ClaimNSLabel, segs
		}
	case field(0) == "metadata" && field(1) == "uid" && len(segs) == 2:
		return UID, segs
	}
	for _, sg := range segs {
		if sg.Type == fieldpath.SegmentField && strings.Contains(sg.Field, xp.LabelClaimPrefix) {
			return ClaimLabel, segs
		}
	}
	return Plain, segs
}
