package patchandtransform

import "github.com/crossplane/crossplane-runtime/v2/pkg/fieldpath"

// RawJSON is a JSON value kept as written in the input. Nil (or empty) stands
// for JSON null and for an absent value alike, as Kubernetes' apiextensions
// JSON type treats them. Map values, match results and match fallback values
// are RawJSON because both engines decode them with the plain Go JSON decoder
// at run time, which makes every number a float64.
type RawJSON []byte

// A PatchType says where a patch reads from and where it writes to.
type PatchType string

// Patch types. The environment types exist in Crossplane v1.14–v1.17 and in
// function-patch-and-transform.
const (
	PatchTypeFromCompositeFieldPath   PatchType = "FromCompositeFieldPath"
	PatchTypeToCompositeFieldPath     PatchType = "ToCompositeFieldPath"
	PatchTypeCombineFromComposite     PatchType = "CombineFromComposite"
	PatchTypeCombineToComposite       PatchType = "CombineToComposite"
	PatchTypeFromEnvironmentFieldPath PatchType = "FromEnvironmentFieldPath"
	PatchTypeToEnvironmentFieldPath   PatchType = "ToEnvironmentFieldPath"
	PatchTypeCombineFromEnvironment   PatchType = "CombineFromEnvironment"
	PatchTypeCombineToEnvironment     PatchType = "CombineToEnvironment"
	PatchTypePatchSet                 PatchType = "PatchSet"
)

// IsCombine reports whether the type is one of the four Combine types.
func (t PatchType) IsCombine() bool {
	switch t {
	case PatchTypeCombineFromComposite, PatchTypeCombineToComposite,
		PatchTypeCombineFromEnvironment, PatchTypeCombineToEnvironment:
		return true
	}
	return false
}

// IsFieldPath reports whether the type is one of the four single-source
// (FieldPath) types.
func (t PatchType) IsFieldPath() bool {
	switch t {
	case PatchTypeFromCompositeFieldPath, PatchTypeToCompositeFieldPath,
		PatchTypeFromEnvironmentFieldPath, PatchTypeToEnvironmentFieldPath:
		return true
	}
	return false
}

// A FromFieldPathPolicy says whether a missing source is an error.
type FromFieldPathPolicy string

// From field path policies. Absent means Optional.
const (
	FromFieldPathPolicyOptional FromFieldPathPolicy = "Optional"
	FromFieldPathPolicyRequired FromFieldPathPolicy = "Required"
)

// MergeOptions say how a patch value is merged into the value already at the
// target path. A nil *MergeOptions replaces. It is crossplane-runtime's type,
// so that merging behaves exactly as in both upstream engines.
type MergeOptions = fieldpath.MergeOptions

// A Policy tunes how a patch reads and writes.
type Policy struct {
	// FromFieldPath is nil when unset (Optional).
	FromFieldPath *FromFieldPathPolicy

	// MergeOptions is nil when the value replaces what is at the target.
	// Native Compositions spell it policy.mergeOptions; the function's
	// policy.toFieldPath is mapped onto it by the function front-end.
	MergeOptions *MergeOptions
}

// Required reports whether the policy makes a missing source an error.
func (p *Policy) Required() bool {
	return p != nil && p.FromFieldPath != nil && *p.FromFieldPath == FromFieldPathPolicyRequired
}

// A Patch copies a value from one object to another, possibly transformed.
type Patch struct {
	Type          PatchType
	FromFieldPath *string
	ToFieldPath   *string
	Combine       *Combine
	PatchSetName  *string
	Transforms    []Transform
	Policy        *Policy
}

// A CombineStrategy says how Combine variables become one value.
type CombineStrategy string

// CombineStrategyString formats the variables with a Go format string.
const CombineStrategyString CombineStrategy = "string"

// Combine reads several variables and combines them into one value.
type Combine struct {
	Variables []CombineVariable
	Strategy  CombineStrategy
	String    *StringCombine
}

// A CombineVariable is one input of a Combine.
type CombineVariable struct {
	FromFieldPath string
}

// StringCombine formats the variables with Go's fmt.Sprintf.
type StringCombine struct {
	Format string
}

// A PatchSet is a named, reusable list of patches.
type PatchSet struct {
	Name    string
	Patches []Patch
}

// A TransformType names a transform.
type TransformType string

// Transform types.
const (
	TransformTypeMap     TransformType = "map"
	TransformTypeMatch   TransformType = "match"
	TransformTypeMath    TransformType = "math"
	TransformTypeString  TransformType = "string"
	TransformTypeConvert TransformType = "convert"
)

// A Transform turns one value into another. Exactly the block its Type names
// is used; a missing block is an error at run time.
type Transform struct {
	Type    TransformType
	Math    *MathTransform
	Map     *MapTransform
	Match   *MatchTransform
	String  *StringTransform
	Convert *ConvertTransform
}

// A MathTransformType names a math operation.
type MathTransformType string

// Math transform types. An empty type means Multiply at run time.
const (
	MathTransformTypeMultiply MathTransformType = "Multiply"
	MathTransformTypeClampMin MathTransformType = "ClampMin"
	MathTransformTypeClampMax MathTransformType = "ClampMax"
)

// MathTransform multiplies or clamps a number.
type MathTransform struct {
	Type     MathTransformType
	Multiply *int64
	ClampMin *int64
	ClampMax *int64
}

// MapTransform maps a string to any JSON value.
type MapTransform struct {
	Pairs map[string]RawJSON
}

// A MatchPatternType names how a match pattern matches.
type MatchPatternType string

// Match pattern types.
const (
	MatchPatternTypeLiteral MatchPatternType = "literal"
	MatchPatternTypeRegexp  MatchPatternType = "regexp"
)

// A MatchPattern is one pattern of a match transform.
type MatchPattern struct {
	Type    MatchPatternType
	Literal *string
	Regexp  *string
	Result  RawJSON
}

// A MatchFallbackTo says what a match transform returns when nothing matched.
type MatchFallbackTo string

// Match fallbacks. Anything but Input means Value.
const (
	MatchFallbackToValue MatchFallbackTo = "Value"
	MatchFallbackToInput MatchFallbackTo = "Input"
)

// MatchTransform returns the result of the first pattern that matches.
type MatchTransform struct {
	Patterns      []MatchPattern
	FallbackValue RawJSON
	FallbackTo    MatchFallbackTo
}

// A StringTransformType names a string operation.
type StringTransformType string

// String transform types. Replace exists only in function-patch-and-transform.
const (
	StringTransformTypeFormat     StringTransformType = "Format"
	StringTransformTypeConvert    StringTransformType = "Convert"
	StringTransformTypeTrimPrefix StringTransformType = "TrimPrefix"
	StringTransformTypeTrimSuffix StringTransformType = "TrimSuffix"
	StringTransformTypeRegexp     StringTransformType = "Regexp"
	StringTransformTypeJoin       StringTransformType = "Join"
	StringTransformTypeReplace    StringTransformType = "Replace"
)

// A StringConversionType names a string conversion.
type StringConversionType string

// String conversions.
const (
	StringConversionTypeToUpper    StringConversionType = "ToUpper"
	StringConversionTypeToLower    StringConversionType = "ToLower"
	StringConversionTypeToBase64   StringConversionType = "ToBase64"
	StringConversionTypeFromBase64 StringConversionType = "FromBase64"
	StringConversionTypeToJSON     StringConversionType = "ToJson"
	StringConversionTypeToSHA1     StringConversionType = "ToSha1"
	StringConversionTypeToSHA256   StringConversionType = "ToSha256"
	StringConversionTypeToSHA512   StringConversionType = "ToSha512"
	StringConversionTypeToAdler32  StringConversionType = "ToAdler32"
)

// StringTransform turns a value into a string.
type StringTransform struct {
	Type    StringTransformType
	Format  *string
	Convert *StringConversionType
	Trim    *string
	Regexp  *StringTransformRegexp
	Join    *StringTransformJoin
	Replace *StringTransformReplace
}

// StringTransformRegexp extracts a capture group.
type StringTransformRegexp struct {
	Match string
	Group *int
}

// StringTransformJoin joins a list of values.
type StringTransformJoin struct {
	Separator string
}

// StringTransformReplace replaces every occurrence of Search.
type StringTransformReplace struct {
	Search  string
	Replace string
}

// A ConvertTransformType names a target type of a convert transform.
type ConvertTransformType string

// Convert target types. int is an alias of int64.
const (
	ConvertTransformTypeString  ConvertTransformType = "string"
	ConvertTransformTypeBool    ConvertTransformType = "bool"
	ConvertTransformTypeInt     ConvertTransformType = "int"
	ConvertTransformTypeInt64   ConvertTransformType = "int64"
	ConvertTransformTypeFloat64 ConvertTransformType = "float64"
	ConvertTransformTypeObject  ConvertTransformType = "object"
	ConvertTransformTypeArray   ConvertTransformType = "array"
)

// A ConvertTransformFormat says how a string is read by a convert transform.
type ConvertTransformFormat string

// Convert formats. Absent means none.
const (
	ConvertTransformFormatNone     ConvertTransformFormat = "none"
	ConvertTransformFormatQuantity ConvertTransformFormat = "quantity"
	ConvertTransformFormatJSON     ConvertTransformFormat = "json"
)

// ConvertTransform converts a value to another type.
type ConvertTransform struct {
	ToType ConvertTransformType
	Format *ConvertTransformFormat
}

// A ConnectionDetailType names where a connection detail's value comes from.
type ConnectionDetailType string

// Connection detail types.
const (
	ConnectionDetailTypeFromConnectionSecretKey ConnectionDetailType = "FromConnectionSecretKey"
	ConnectionDetailTypeFromFieldPath           ConnectionDetailType = "FromFieldPath"
	ConnectionDetailTypeFromValue               ConnectionDetailType = "FromValue"
)

// A ConnectionDetail is one key of a composite resource's connection details,
// taken from a composed resource. Type and Name are resolved by the front-end
// (native infers them; the function requires them).
type ConnectionDetail struct {
	Name                    string
	Type                    ConnectionDetailType
	FromConnectionSecretKey *string
	FromFieldPath           *string
	Value                   *string
}

// A ReadinessCheckType names a readiness check.
type ReadinessCheckType string

// Readiness check types.
const (
	ReadinessCheckTypeNonEmpty       ReadinessCheckType = "NonEmpty"
	ReadinessCheckTypeMatchString    ReadinessCheckType = "MatchString"
	ReadinessCheckTypeMatchInteger   ReadinessCheckType = "MatchInteger"
	ReadinessCheckTypeMatchTrue      ReadinessCheckType = "MatchTrue"
	ReadinessCheckTypeMatchFalse     ReadinessCheckType = "MatchFalse"
	ReadinessCheckTypeMatchCondition ReadinessCheckType = "MatchCondition"
	ReadinessCheckTypeNone           ReadinessCheckType = "None"
)

// A ReadinessCheck decides whether a composed resource is ready. A nil
// MatchString or MatchInteger is unset; the native front-end maps the
// native "unset" values ("" and 0) to nil.
type ReadinessCheck struct {
	Type           ReadinessCheckType
	FieldPath      *string
	MatchString    *string
	MatchInteger   *int64
	MatchCondition *MatchConditionReadinessCheck
}

// MatchConditionReadinessCheck matches a status condition.
type MatchConditionReadinessCheck struct {
	Type   string
	Status string
}
