package xp

// Annotation and label keys Crossplane sets or reads on composites and
// composed resources.
const (
	// AnnotationCompositionResourceName names the template a composed
	// resource was rendered from.
	AnnotationCompositionResourceName = "crossplane.io/composition-resource-name"

	// AnnotationExternalName is the name of a managed resource's external
	// (cloud) resource.
	AnnotationExternalName = "crossplane.io/external-name"

	// AnnotationPaused pauses reconciliation of the object it is set on.
	AnnotationPaused = "crossplane.io/paused"

	// LabelComposite names the composite resource an object belongs to.
	LabelComposite = "crossplane.io/composite"

	// LabelClaimName and LabelClaimNamespace name the claim a composite
	// (and its composed resources) was created for.
	LabelClaimName      = "crossplane.io/claim-name"
	LabelClaimNamespace = "crossplane.io/claim-namespace"

	// LabelClaimPrefix is the prefix the claim labels share.
	LabelClaimPrefix = "crossplane.io/claim-"

	// LabelCompositionName names a CompositionRevision's Composition.
	LabelCompositionName = "crossplane.io/composition-name"
)

// Annotations xpmigrate reads on Compositions.
const (
	// AnnotationIntendedChanges lists, comma-separated, the converter's
	// opt-in fixes applied to a converted Composition.
	AnnotationIntendedChanges = "xpmigrate.io/intended-changes"

	// AnnotationAcceptGaps lists, comma-separated, the breaking gap codes
	// a person has accepted for a Composition, so that they do not fail
	// verification (on the legacy or the converted Composition).
	AnnotationAcceptGaps = "xpmigrate.io/accept-gaps"
)
