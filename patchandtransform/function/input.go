package function

import (
	"bytes"
	"encoding/json"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/xpmigrate/xpmigrate/internal/jsonobj"
	"github.com/xpmigrate/xpmigrate/internal/xp"
)

// The types in this file mirror the Go types that function-patch-and-transform
// decodes its input into (input/v1beta1). Their JSON names, pointer-ness and
// Go kinds decide what strict decoding accepts, so they follow upstream
// closely; they carry no defaults.

// APIVersion and Kind name the input type. Decoding does not check them, as
// upstream does not.
const (
	APIVersion = xp.PTInputAPIVersion
	Kind       = xp.PTInputKind
)

// Resources is the input of function-patch-and-transform.
type Resources struct {
	metav1.TypeMeta `json:",inline"`

	// ObjectMeta is ignored, but decoded strictly like everything else.
	metav1.ObjectMeta `json:"metadata,omitempty"`

	PatchSets   []PatchSet         `json:"patchSets,omitempty"`
	Environment *Environment       `json:"environment,omitempty"`
	Resources   []ComposedTemplate `json:"resources"`

	// WriteConnectionSecretToRef is used for Crossplane v2 XRs only. The
	// function never validates it.
	WriteConnectionSecretToRef *WriteConnectionSecretToRef `json:"writeConnectionSecretToRef,omitempty"`
}

// A PatchSet is a named list of patches that templates include with a patch
// of type PatchSet.
type PatchSet struct {
	Name    string          `json:"name"`
	Patches []PatchSetPatch `json:"patches"`
}

// Environment holds the environment patches, which run before any template.
type Environment struct {
	Patches []EnvironmentPatch `json:"patches,omitempty"`
}

// A ComposedTemplate describes one composed resource.
type ComposedTemplate struct {
	Name string `json:"name"`

	// Base is the composed resource as written, or nil. It is parsed only
	// when the template is rendered (Template.BaseObject).
	Base *RawObject `json:"base,omitempty"`

	Patches           []ComposedPatch    `json:"patches,omitempty"`
	ConnectionDetails []ConnectionDetail `json:"connectionDetails,omitempty"`
	ReadinessChecks   []ReadinessCheck   `json:"readinessChecks,omitempty"`
}

// WriteConnectionSecretToRef names the connection Secret the function
// composes for a Crossplane v2 XR.
type WriteConnectionSecretToRef struct {
	Name      string                  `json:"name,omitempty"`
	Namespace string                  `json:"namespace,omitempty"`
	Patches   []ConnectionSecretPatch `json:"patches,omitempty"`
}

// A PatchType names a patch type. Empty means FromCompositeFieldPath.
type PatchType string

// Patch is what all patch kinds share.
type Patch struct {
	FromFieldPath *string      `json:"fromFieldPath,omitempty"`
	Combine       *Combine     `json:"combine,omitempty"`
	ToFieldPath   *string      `json:"toFieldPath,omitempty"`
	Transforms    []Transform  `json:"transforms,omitempty"`
	Policy        *PatchPolicy `json:"policy,omitempty"`
}

// A ComposedPatch is a patch of a template.
type ComposedPatch struct {
	Patch        `json:",inline"`
	Type         PatchType `json:"type,omitempty"`
	PatchSetName *string   `json:"patchSetName,omitempty"`
}

// A PatchSetPatch is a patch of a patch set.
type PatchSetPatch struct {
	Patch `json:",inline"`
	Type  PatchType `json:"type,omitempty"`
}

// An EnvironmentPatch is a patch between the XR and the environment.
type EnvironmentPatch struct {
	Patch `json:",inline"`
	Type  PatchType `json:"type,omitempty"`
}

// A ConnectionSecretPatch is a patch from the XR onto the name and namespace
// of the connection Secret.
type ConnectionSecretPatch struct {
	Patch `json:",inline"`
	Type  PatchType `json:"type,omitempty"`
}

// A FromFieldPathPolicy says whether a missing source is an error.
type FromFieldPathPolicy string

// A ToFieldPathPolicy says how a value is merged into its target.
type ToFieldPathPolicy string

// The values of policy.toFieldPath. MergeObject and AppendArray are
// deprecated spellings of MergeObjects and ForceMergeObjectsAppendArrays.
const (
	ToFieldPathPolicyReplace                       ToFieldPathPolicy = "Replace"
	ToFieldPathPolicyMergeObjects                  ToFieldPathPolicy = "MergeObjects"
	ToFieldPathPolicyMergeObjectsAppendArrays      ToFieldPathPolicy = "MergeObjectsAppendArrays"
	ToFieldPathPolicyForceMergeObjects             ToFieldPathPolicy = "ForceMergeObjects"
	ToFieldPathPolicyForceMergeObjectsAppendArrays ToFieldPathPolicy = "ForceMergeObjectsAppendArrays"
	ToFieldPathPolicyMergeObject                   ToFieldPathPolicy = "MergeObject"
	ToFieldPathPolicyAppendArray                   ToFieldPathPolicy = "AppendArray"
)

// A PatchPolicy tunes how a patch reads and writes.
type PatchPolicy struct {
	FromFieldPath *FromFieldPathPolicy `json:"fromFieldPath,omitempty"`
	ToFieldPath   *ToFieldPathPolicy   `json:"toFieldPath,omitempty"`
}

// A CombineStrategy names how Combine variables become one value.
type CombineStrategy string

// Combine reads several variables and combines them into one value.
type Combine struct {
	Variables []CombineVariable `json:"variables"`
	Strategy  CombineStrategy   `json:"strategy"`
	String    *StringCombine    `json:"string,omitempty"`
}

// A CombineVariable is one input of a Combine.
type CombineVariable struct {
	FromFieldPath string `json:"fromFieldPath"`
}

// StringCombine formats the variables with a Go format string.
type StringCombine struct {
	Format string `json:"fmt"`
}

// A TransformType names a transform.
type TransformType string

// A Transform turns one value into another.
type Transform struct {
	Type    TransformType     `json:"type"`
	Math    *MathTransform    `json:"math,omitempty"`
	Map     *MapTransform     `json:"map,omitempty"`
	Match   *MatchTransform   `json:"match,omitempty"`
	String  *StringTransform  `json:"string,omitempty"`
	Convert *ConvertTransform `json:"convert,omitempty"`
}

// A MathTransformType names a math operation.
type MathTransformType string

// MathTransform multiplies or clamps a number.
type MathTransform struct {
	Type     MathTransformType `json:"type,omitempty"`
	Multiply *int64            `json:"multiply,omitempty"`
	ClampMin *int64            `json:"clampMin,omitempty"`
	ClampMax *int64            `json:"clampMax,omitempty"`
}

// MapTransform maps a string to any JSON value. In JSON it is the map itself,
// with no `pairs` member. Upstream reads it with the plain, case-insensitive
// and lenient Go decoder; so does this type.
type MapTransform struct {
	Pairs map[string]JSON
}

// UnmarshalJSON reads the pairs.
func (m *MapTransform) UnmarshalJSON(b []byte) error {
	return json.Unmarshal(b, &m.Pairs)
}

// UnmarshalTree reads the pairs from a JSON tree, as UnmarshalJSON reads
// them from text (jsonobj.TreeUnmarshaler): a null value is an empty JSON.
func (m *MapTransform) UnmarshalTree(x any) bool {
	texts, ok := jsonobj.MemberTexts(x)
	if !ok {
		return false
	}
	if texts == nil {
		m.Pairs = nil
		return true
	}
	m.Pairs = make(map[string]JSON, len(texts))
	for k, b := range texts {
		var j JSON
		if string(b) != "null" {
			j = JSON(b)
		}
		m.Pairs[k] = j
	}
	return true
}

// MarshalJSON writes the pairs.
func (m MapTransform) MarshalJSON() ([]byte, error) {
	return json.Marshal(m.Pairs)
}

// A MatchFallbackTo says what a match transform returns when nothing matched.
type MatchFallbackTo string

// MatchTransform returns the result of the first pattern that matches.
type MatchTransform struct {
	Patterns      []MatchTransformPattern `json:"patterns,omitempty"`
	FallbackValue JSON                    `json:"fallbackValue,omitempty"`
	FallbackTo    MatchFallbackTo         `json:"fallbackTo,omitempty"`
}

// A MatchTransformPatternType names how a pattern matches.
type MatchTransformPatternType string

// A MatchTransformPattern is one pattern of a match transform.
type MatchTransformPattern struct {
	Type    MatchTransformPatternType `json:"type"`
	Literal *string                   `json:"literal,omitempty"`
	Regexp  *string                   `json:"regexp,omitempty"`
	Result  JSON                      `json:"result"`
}

// A StringTransformType names a string operation.
type StringTransformType string

// A StringConversionType names a string conversion.
type StringConversionType string

// StringTransform turns a value into a string.
type StringTransform struct {
	Type    StringTransformType     `json:"type"`
	Format  *string                 `json:"fmt,omitempty"`
	Convert *StringConversionType   `json:"convert,omitempty"`
	Trim    *string                 `json:"trim,omitempty"`
	Regexp  *StringTransformRegexp  `json:"regexp,omitempty"`
	Join    *StringTransformJoin    `json:"join,omitempty"`
	Replace *StringTransformReplace `json:"replace,omitempty"`
}

// StringTransformRegexp extracts a capture group.
type StringTransformRegexp struct {
	Match string `json:"match"`
	Group *int   `json:"group,omitempty"`
}

// StringTransformJoin joins a list of values.
type StringTransformJoin struct {
	Separator string `json:"separator"`
}

// StringTransformReplace replaces every occurrence of Search.
type StringTransformReplace struct {
	Search  string `json:"search"`
	Replace string `json:"replace"`
}

// A TransformIOType names the target type of a convert transform.
type TransformIOType string

// A ConvertTransformFormat says how a convert transform reads a string.
type ConvertTransformFormat string

// ConvertTransform converts a value to another type.
type ConvertTransform struct {
	ToType TransformIOType         `json:"toType"`
	Format *ConvertTransformFormat `json:"format,omitempty"`
}

// A ConnectionDetailType names where a connection detail comes from.
type ConnectionDetailType string

// A ConnectionDetail is one key of the XR's connection details.
type ConnectionDetail struct {
	Name                    string               `json:"name"`
	Type                    ConnectionDetailType `json:"type"`
	FromConnectionSecretKey *string              `json:"fromConnectionSecretKey,omitempty"`
	FromFieldPath           *string              `json:"fromFieldPath,omitempty"`
	Value                   *string              `json:"value,omitempty"`
}

// A ReadinessCheckType names a readiness check.
type ReadinessCheckType string

// A ReadinessCheck decides whether a composed resource is ready.
type ReadinessCheck struct {
	Type           ReadinessCheckType            `json:"type"`
	FieldPath      *string                       `json:"fieldPath,omitempty"`
	MatchString    *string                       `json:"matchString,omitempty"`
	MatchInteger   *int64                        `json:"matchInteger,omitempty"`
	MatchCondition *MatchConditionReadinessCheck `json:"matchCondition,omitempty"`
}

// MatchConditionReadinessCheck matches a status condition.
type MatchConditionReadinessCheck struct {
	Type   string `json:"type"`
	Status string `json:"status"`
}

// JSON is any JSON value, kept as written. JSON null reads as empty, as
// Kubernetes' apiextensions JSON type does, so an empty JSON is both null and
// absent.
type JSON []byte

// UnmarshalJSON keeps the value unless it is null.
func (j *JSON) UnmarshalJSON(b []byte) error {
	if len(b) == 0 || bytes.Equal(b, []byte("null")) {
		*j = nil
		return nil
	}
	*j = append((*j)[:0], b...)
	return nil
}

// UnmarshalTree keeps the value's JSON text unless it is null
// (jsonobj.TreeUnmarshaler).
func (j *JSON) UnmarshalTree(x any) bool {
	if x == nil {
		*j = nil
		return true
	}
	b, ok := jsonobj.Text(x)
	*j = b
	return ok
}

// MarshalJSON writes the value, or null when empty.
func (j JSON) MarshalJSON() ([]byte, error) {
	if len(j) == 0 {
		return []byte("null"), nil
	}
	return j, nil
}

// RawObject is a template's base as written. Any JSON value but null is
// accepted when decoding; only an object with a kind can be rendered.
type RawObject []byte

// UnmarshalJSON keeps the value.
func (r *RawObject) UnmarshalJSON(b []byte) error {
	*r = append((*r)[:0], b...)
	return nil
}

// UnmarshalTree keeps the value's JSON text (jsonobj.TreeUnmarshaler).
func (r *RawObject) UnmarshalTree(x any) bool {
	b, ok := jsonobj.Text(x)
	*r = b
	return ok
}

// MarshalJSON writes the value, or null when empty.
func (r RawObject) MarshalJSON() ([]byte, error) {
	if len(r) == 0 {
		return []byte("null"), nil
	}
	return r, nil
}
