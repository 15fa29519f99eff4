package v2native

import (
	"slices"
	"strings"

	"github.com/crossplane/crossplane-runtime/v2/pkg/fieldpath"

	"github.com/xpmigrate/xpmigrate/internal/xp"
)

// An XRPathClass says which piece of legacy XR machinery a field path of
// the XR names.
type XRPathClass int

const (
	XRPathPlain           XRPathClass = iota
	XRPathClaimNamespace              // spec.claimRef.namespace
	XRPathClaimName                   // spec.claimRef.name
	XRPathClaimRef                    // spec.claimRef, anything else in it
	XRPathMachinery                   // spec.compositionRef, ... (spec.crossplane.* in v2)
	XRPathSecretNamespace             // spec.writeConnectionSecretToRef.namespace
	XRPathSecretRef                   // spec.writeConnectionSecretToRef, anything else in it
	XRPathClaimNameLabel              // metadata.labels[crossplane.io/claim-name]
	XRPathClaimNSLabel                // metadata.labels[crossplane.io/claim-namespace]
	XRPathClaimLabel                  // another crossplane.io/claim-* label
	XRPathUID                         // metadata.uid
)

// MachineryFields are the fields of a legacy XR's spec that a v2 XR
// keeps under spec.crossplane.
var MachineryFields = []string{
	"compositionRef", "compositionSelector", "compositionRevisionRef",
	"compositionRevisionSelector", "compositionUpdatePolicy", "resourceRefs",
}

// ClassifyXRPath says which machinery the XR field path s names, with its
// parsed segments (nil when it cannot be parsed: C216 reports it).
func ClassifyXRPath(s string) (XRPathClass, fieldpath.Segments) {
	segs, err := fieldpath.Parse(s)
	if err != nil || len(segs) == 0 {
		return XRPathPlain, nil
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
			return XRPathClaimNamespace, segs
		case len(segs) == 3 && field(2) == "name":
			return XRPathClaimName, segs
		}
		return XRPathClaimRef, segs
	case field(0) == "spec" && slices.Contains(MachineryFields, field(1)):
		return XRPathMachinery, segs
	case field(0) == "spec" && field(1) == "writeConnectionSecretToRef":
		if len(segs) == 3 && field(2) == "namespace" {
			return XRPathSecretNamespace, segs
		}
		return XRPathSecretRef, segs
	case field(0) == "metadata" && field(1) == "labels" && len(segs) == 3:
		switch field(2) {
		case xp.LabelClaimName:
			return XRPathClaimNameLabel, segs
		case xp.LabelClaimNamespace:
			return XRPathClaimNSLabel, segs
		}
	case field(0) == "metadata" && field(1) == "uid" && len(segs) == 2:
		return XRPathUID, segs
	}
	for _, sg := range segs {
		if sg.Type == fieldpath.SegmentField && strings.Contains(sg.Field, xp.LabelClaimPrefix) {
			return XRPathClaimLabel, segs
		}
	}
	return XRPathPlain, segs
}
