package gaps

import "github.com/xpmigrate/xpmigrate/internal/xp"

// A GapClass says whether a known gap changes what a platform team runs.
type GapClass string

// Classes of known gaps.
const (
	// ClassBreaking: the steady-state outcome differs (an XR that never
	// becomes Ready, a wrong value, a resource that is never created or
	// is created twice, a reconcile that fails on one side only). A
	// breaking gap fails verification unless the user accepts its code.
	ClassBreaking GapClass = "breaking"

	// ClassBenign: a lag that the next reconcile catches up on, or
	// bookkeeping that nothing reads. Benign gaps are reported as info
	// and never fail verification (except with Strict, when they
	// persist).
	ClassBenign GapClass = "benign"

	// ClassIntended: a difference the user asked for, a legacy quirk that
	// the converter fixed on request (an opt-in C-code declared in the
	// converted Composition's xpmigrate.io/intended-changes annotation).
	// Intended changes never fail verification.
	ClassIntended GapClass = "intended"

	// ClassMapped: a difference the converted Composition declares in its
	// xpmigrate.io/v2-mapping annotation: the legacy render, mapped through
	// the declared edit, is what the v2-native Composition renders. Its
	// Code is the edit's C-code. Mapped differences never fail
	// verification, not even with Strict: they are the declared
	// transformation itself.
	ClassMapped GapClass = "mapped"
)

// A GapCode documents one code of the difference catalogue (D1–D48,
// and xpmigrate's own additions) for the generated reference:
// its class, and whether verify can recognise it in a render.
type GapCode struct {
	// Code is the catalogue code, "D1".
	Code string

	// Title says what differs, in a few words.
	Title string

	// Class is the class verify gives the gap. Some codes have both
	// classes, depending on what differs; Classes then says when.
	Class GapClass

	// Classes explains the class when it depends on the difference; empty
	// when Class always holds.
	Classes string

	// Detected is true when a verify rule recognises the gap in renders;
	// otherwise Why says why it can never show up as a render difference.
	Detected bool
	Why      string
}

// GapCodes is the difference catalogue, in code order. A test keeps it in
// step with the rules: every rule's code is here, Detected, with the
// rule's class among those listed.
var GapCodes = []GapCode{
	{Code: "D1", Title: "unnamed templates and the composition-resource-name annotation", Class: ClassBreaking, Detected: true,
		Classes: "breaking when existing composed resources lack the annotation (the pipeline cannot compose the XR); benign for the annotation itself on resources of named-by-the-converter templates"},
	{Code: "D2", Title: "API defaults are not applied to function input", Class: ClassBreaking,
		Why: "the converter writes every default the API server would have set, so both sides see the same input"},
	{Code: "D3", Title: "unknown fields are fatal in function input", Class: ClassBreaking,
		Why: "the converter drops fields the function's strict decoding would refuse (C203) and validates its output (C190)"},
	{Code: "D4", Title: "Composition-level validation moves to run time", Class: ClassBreaking, Detected: true,
		Classes: "breaking where the converter repaired what the native validation rejects (a transform without its type, C221); everything else the webhook rejects the converter refuses (C1xx)"},
	{Code: "D5", Title: "only the XR's status is persisted", Class: ClassBreaking, Detected: true},
	{Code: "D6", Title: "stale status values and merge base: legacy patches the XR as it is, the pipeline writes an XR built from the patches alone", Class: ClassBreaking, Detected: true},
	{Code: "D7", Title: "contents and order of spec.resourceRefs", Class: ClassBenign, Detected: true,
		Classes: "benign for the references themselves (legacy keeps one for templates it did not render; the order differs); breaking when a patch reads spec.resourceRefs[i] by position"},
	{Code: "D8", Title: "patches read composed resources as observed at the start of the reconcile", Class: ClassBenign, Detected: true,
		Classes: "benign when the pipeline catches up in a later reconcile; breaking when a ToComposite patch fails on the observed resource on every reconcile (the pipeline never composes)"},
	{Code: "D9", Title: "a Required patch into a composed resource with an absent source", Class: ClassBreaking, Detected: true},
	{Code: "D10", Title: "a failing patch fails the whole XR instead of one resource", Class: ClassBreaking, Detected: true},
	{Code: "D11", Title: "metadata.name and metadata.namespace in a base", Class: ClassBreaking, Detected: true},
	{Code: "D12", Title: "naming of new composed resources", Class: ClassBenign,
		Why: "both generated suffixes are random in Crossplane; verify compares generated names as placeholders wherever they appear"},
	{Code: "D13", Title: "values that disappear under server-side apply", Class: ClassBreaking,
		Why: "field ownership under server-side apply is not modelled by the renderers"},
	{Code: "D14", Title: "values written to the XR by environment patches are not seen by resource patches in the same reconcile", Class: ClassBreaking, Detected: true},
	{Code: "D15", Title: "mergeOptions and toFieldPath policies (the converter maps mergeOptions; legacy's apply-time merge can still fail where the function does not merge)", Class: ClassBreaking, Detected: true},
	{Code: "D16", Title: "apply mechanism (client-side merge patch versus server-side apply)", Class: ClassBreaking,
		Why: "field ownership under server-side apply is not modelled by the renderers (converter info C318)"},
	{Code: "D17", Title: "an existing composed resource controlled by another object", Class: ClassBreaking, Detected: true},
	{Code: "D18", Title: "a template's kind differs from the existing composed resource's", Class: ClassBreaking, Detected: true},
	{Code: "D19", Title: "readiness is evaluated on the observed resource, one reconcile later", Class: ClassBenign, Detected: true},
	{Code: "D20", Title: "a readiness check that errors stops the legacy reconcile; the pipeline only warns", Class: ClassBreaking, Detected: true},
	{Code: "D21", Title: "MatchInteger readiness checks never match in function-patch-and-transform", Class: ClassBreaking, Detected: true},
	{Code: "D22", Title: "empty string or zero match values in readiness checks", Class: ClassBreaking,
		Why: "Crossplane's own validation rejects such a legacy Composition, so there is nothing to render"},
	{Code: "D23", Title: "a skipped template counts for XR readiness in legacy only", Class: ClassBreaking, Detected: true},
	{Code: "D24", Title: "XR readiness set by earlier pipeline steps is reset", Class: ClassBreaking,
		Why: "a conversion has no earlier pipeline steps that set readiness"},
	{Code: "D25", Title: "crossplane render ignores the XR ready override", Class: ClassBenign,
		Why: "verify renders the pipeline with the reconciler profile, which honours the override"},
	{Code: "D26", Title: "connection details are published once the resource is observed, one reconcile later", Class: ClassBenign, Detected: true},
	{Code: "D27", Title: "name and type inference for connection details", Class: ClassBreaking,
		Why: "the converter writes every connection detail's name and type explicitly"},
	{Code: "D28", Title: "render input for connection details", Class: ClassBenign,
		Why: "both sides get the same observed connection details"},
	{Code: "D29", Title: "Crossplane v2 modern XRs", Class: ClassBreaking,
		Why: "outside the v1 target; --target v2 renders v2 XRs on both sides"},
	{Code: "D30", Title: "numbers are float64 in function-patch-and-transform, so integer format verbs misprint", Class: ClassBreaking, Detected: true},
	{Code: "D31", Title: "string Join with a separator longer than one byte", Class: ClassBreaking, Detected: true},
	{Code: "D32", Title: "integers above 2^53 lose precision", Class: ClassBreaking, Detected: true},
	{Code: "D33", Title: "ToEnvironment patches read the observed resource in the pipeline", Class: ClassBreaking, Detected: true},
	{Code: "D34", Title: "errors in environment-related patches", Class: ClassBreaking,
		Why: "shows up as the differences of D10, D36 or D46, which verify reports under those codes"},
	{Code: "D35", Title: "EnvironmentConfig selection is not pinned in spec.environmentConfigRefs", Class: ClassBreaking, Detected: true,
		Classes: "benign when only the XR's spec.environmentConfigRefs differ (bookkeeping the pipeline does not read); breaking when the selected environment, and so a value, differs"},
	{Code: "D36", Title: "a selector whose labels all resolve to nothing", Class: ClassBreaking, Detected: true},
	{Code: "D37", Title: "an EnvironmentConfig label value read from the XR is not a string", Class: ClassBreaking, Detected: true},
	{Code: "D38", Title: "sorting selected EnvironmentConfigs when the sort field is missing or of mixed types", Class: ClassBreaking, Detected: true},
	{Code: "D39", Title: "environment defaultData is lost when no EnvironmentConfig is requested", Class: ClassBreaking, Detected: true},
	{Code: "D40", Title: "merge precedence of an environment already in the pipeline context", Class: ClassBreaking,
		Why: "the converter puts the environment step first, so nothing writes the context before it"},
	{Code: "D41", Title: "EnvironmentConfig API version", Class: ClassBreaking,
		Why: "the engines read v1alpha1 and v1beta1 EnvironmentConfigs alike"},
	{Code: "D42", Title: "EnvironmentConfig data keys named apiVersion or kind", Class: ClassBreaking, Detected: true},
	{Code: "D43", Title: "function-environment-configs v0.7+ gets no EnvironmentConfigs from Crossplane 1.x", Class: ClassBreaking, Detected: true},
	{Code: "D44", Title: "the native environment was removed in Crossplane 1.18", Class: ClassBreaking,
		Why: "the legacy side renders the native environment as Crossplane 1.17 did, so it is compared like any other behaviour"},
	{Code: "D45", Title: "event and result texts differ", Class: ClassBenign,
		Why: "verify never compares messages"},
	{Code: "D46", Title: "a Required ToComposite patch with an absent source fails the legacy reconcile only", Class: ClassBreaking, Detected: true},
	{Code: "D47", Title: "garbage collection of composed resources", Class: ClassBreaking,
		Why: "compared as the 'garbage collected' aspect; no known gap differs there"},
	{Code: "D48", Title: "claim labels with empty values", Class: ClassBenign,
		Why: "normalised: an empty claim label and an absent one compare equal"},
	{Code: "D49", Title: "environment patches that write the XR's status: lost natively, persisted by the pipeline", Class: ClassBenign, Detected: true,
		Classes: "benign: the pipeline keeps a status field that native Crossplane computed and then discarded (crossplane/crossplane#4393); nothing could read it from the cluster before"},
	{Code: "D50", Title: "a null XR field the schema marks nullable: legacy's merge patch deletes it, the pipeline keeps it", Class: ClassBreaking, Detected: true},
}

// LookupGapCode returns the catalogue entry of code.
func LookupGapCode(code string) (GapCode, bool) {
	for _, c := range GapCodes {
		if c.Code == code {
			return c, true
		}
	}
	return GapCode{}, false
}

// IntendedChanges are the converter's opt-in fixes of legacy quirks that
// verify reports as intended changes when the converted Composition
// declares them (annotation xpmigrate.io/intended-changes).
var IntendedChanges = []QuirkFix{
	{Code: "C325", Title: "integer format verbs print the integer where native Crossplane printed %!d(float64=…)",
		Fixes: "D30"},
}

// A QuirkFix is an opt-in fix of a legacy quirk.
type QuirkFix struct {
	// Code is the converter's diagnostic code.
	Code string

	// Title says what changes.
	Title string

	// Fixes names the gap or quirk whose legacy behaviour it changes.
	Fixes string
}

// Annotations xpmigrate reads on Compositions.
const (
	// AnnotationIntendedChanges lists, comma-separated, the converter's
	// opt-in fixes applied to a converted Composition.
	AnnotationIntendedChanges = xp.AnnotationIntendedChanges

	// AnnotationAcceptGaps lists, comma-separated, the breaking gap codes
	// a person has accepted for a Composition, so that they do not fail
	// verification (on the legacy or the converted Composition).
	AnnotationAcceptGaps = xp.AnnotationAcceptGaps
)
