package verify

import "github.com/xpmigrate/xpmigrate/render/verify/gaps"

// The data model of differences and known gaps lives in render/verify/gaps,
// with the rules that classify differences; these aliases keep it part of
// verify's API.
type (
	// An Aspect is what a Difference is about.
	Aspect = gaps.Aspect

	// A Value is one side's value in a Difference. A nil *Value means
	// absent.
	Value = gaps.Value

	// A Difference is one thing the legacy and the converted Composition
	// do differently for one XR.
	Difference = gaps.Difference

	// A Path locates a value inside an object, as a field path does.
	Path = gaps.Path

	// A Segment is one step of a Path.
	Segment = gaps.Segment

	// A Side is one engine's result for one reconcile.
	Side = gaps.Side

	// CompareOptions tune Compare.
	CompareOptions = gaps.CompareOptions

	// A Gap is a known semantic difference between Crossplane's native
	// composer and the function pipeline that explains a Difference.
	Gap = gaps.Gap

	// A GapClass says whether a known gap changes what a platform team
	// runs.
	GapClass = gaps.GapClass

	// A GapCode documents one code of the difference catalogue.
	GapCode = gaps.GapCode

	// A QuirkFix is an opt-in fix of a legacy quirk.
	QuirkFix = gaps.QuirkFix
)

// Aspects of an outcome that Compare compares.
const (
	AspectError      = gaps.AspectError
	AspectPresence   = gaps.AspectPresence
	AspectResource   = gaps.AspectResource
	AspectReadiness  = gaps.AspectReadiness
	AspectSynced     = gaps.AspectSynced
	AspectDeleted    = gaps.AspectDeleted
	AspectXR         = gaps.AspectXR
	AspectCondition  = gaps.AspectCondition
	AspectConnection = gaps.AspectConnection
)

// Classes of known gaps.
const (
	ClassBreaking = gaps.ClassBreaking
	ClassBenign   = gaps.ClassBenign
	ClassIntended = gaps.ClassIntended
	ClassMapped   = gaps.ClassMapped
)

// Annotations xpmigrate reads on Compositions.
const (
	AnnotationIntendedChanges = gaps.AnnotationIntendedChanges
	AnnotationAcceptGaps      = gaps.AnnotationAcceptGaps
)

// GapCodes is the difference catalogue, in code order (gaps.GapCodes).
var GapCodes = gaps.GapCodes

// IntendedChanges are the converter's opt-in fixes of legacy quirks that
// verify reports as intended changes (gaps.IntendedChanges).
var IntendedChanges = gaps.IntendedChanges
