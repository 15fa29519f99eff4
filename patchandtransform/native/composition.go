package native

import (
	"encoding/json"

	"github.com/pkg/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	pt "github.com/xpmigrate/xpmigrate/patchandtransform"
)

// Composition is the apiextensions.crossplane.io/v1 Composition, reduced to
// the fields `mode: Resources` reads. It mirrors the upstream Go types with
// one deliberate difference: every scalar the CRD defaults is a pointer, so
// that "absent" (which the API server defaults) and "explicitly empty"
// (which it keeps, and validation then judges) stay apart. Default fills the
// nil ones.
type Composition struct {
	APIVersion string            `json:"apiVersion,omitempty"`
	Kind       string            `json:"kind,omitempty"`
	Metadata   metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec       CompositionSpec   `json:"spec"`
}

// A CompositionMode selects how a Composition composes resources.
type CompositionMode string

// Composition modes.
const (
	CompositionModeResources CompositionMode = "Resources"
	CompositionModePipeline  CompositionMode = "Pipeline"
)

// CompositionSpec is the spec of a Composition.
type CompositionSpec struct {
	CompositeTypeRef TypeReference `json:"compositeTypeRef"`

	// Mode is nil until defaulted (to Resources).
	Mode *CompositionMode `json:"mode,omitempty"`

	PatchSets []PatchSet `json:"patchSets,omitempty"`

	// Environment exists in the v1.17 schema only; v1.20 prunes it.
	Environment *Environment `json:"environment,omitempty"`

	Resources []ComposedTemplate `json:"resources,omitempty"`

	// Pipeline is kept as written: in Resources mode only its length
	// matters (anonymous templates are invalid when it is non-empty).
	Pipeline []json.RawMessage `json:"pipeline,omitempty"`

	WriteConnectionSecretsToNamespace *string `json:"writeConnectionSecretsToNamespace,omitempty"`

	// PublishConnectionDetailsWithStoreConfigRef is nil until defaulted (to
	// {name: default}).
	PublishConnectionDetailsWithStoreConfigRef *StoreConfigReference `json:"publishConnectionDetailsWithStoreConfigRef,omitempty"`
}

// TypeReference names the composite resource type a Composition is for.
type TypeReference struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
}

// StoreConfigReference names an external secret store configuration.
type StoreConfigReference struct {
	Name string `json:"name"`
}

// A PatchSet is a named list of patches that templates can include.
type PatchSet struct {
	Name    string  `json:"name"`
	Patches []Patch `json:"patches"`
}

// A ComposedTemplate is one entry of spec.resources.
type ComposedTemplate struct {
	Name *string `json:"name,omitempty"`

	// Base is the template object as the API server stores it: compact JSON
	// with sorted keys (Decode canonicalises it). Nil when absent.
	Base json.RawMessage `json:"base,omitempty"`

	Patches           []Patch            `json:"patches,omitempty"`
	ConnectionDetails []ConnectionDetail `json:"connectionDetails,omitempty"`

	// ReadinessChecks is nil when the key was absent (Default then sets the
	// CRD default) and empty but non-nil when written as [].
	ReadinessChecks []ReadinessCheck `json:"readinessChecks,omitempty"`
}

// GetName returns the template's name, or "" for an anonymous template.
func (t *ComposedTemplate) GetName() string {
	if t.Name == nil {
		return ""
	}
	return *t.Name
}

// A Patch copies a value between the composite resource, a composed
// resource and the environment. Type is nil until defaulted.
type Patch struct {
	Type          *pt.PatchType `json:"type,omitempty"`
	FromFieldPath *string       `json:"fromFieldPath,omitempty"`
	Combine       *Combine      `json:"combine,omitempty"`
	ToFieldPath   *string       `json:"toFieldPath,omitempty"`
	PatchSetName  *string       `json:"patchSetName,omitempty"`
	Transforms    []Transform   `json:"transforms,omitempty"`
	Policy        *PatchPolicy  `json:"policy,omitempty"`
}

// PatchPolicy tunes how a patch reads and writes. A `policy: {}` is a
// non-nil PatchPolicy, and `mergeOptions: {}` a non-nil MergeOptions: both
// differ from absent at run time.
type PatchPolicy struct {
	FromFieldPath *pt.FromFieldPathPolicy `json:"fromFieldPath,omitempty"`
	MergeOptions  *pt.MergeOptions        `json:"mergeOptions,omitempty"`
}

// Combine configures a Combine patch.
type Combine struct {
	Variables []CombineVariable  `json:"variables"`
	Strategy  pt.CombineStrategy `json:"strategy"`
	String    *StringCombine     `json:"string,omitempty"`
}

// A CombineVariable is one input of a Combine patch.
type CombineVariable struct {
	FromFieldPath string `json:"fromFieldPath"`
}

// StringCombine formats the variables of a Combine patch.
type StringCombine struct {
	Format string `json:"fmt"`
}

// A Transform changes a patch's value. Type has no default.
type Transform struct {
	Type    pt.TransformType  `json:"type"`
	Math    *MathTransform    `json:"math,omitempty"`
	Map     *MapTransform     `json:"map,omitempty"`
	Match   *MatchTransform   `json:"match,omitempty"`
	String  *StringTransform  `json:"string,omitempty"`
	Convert *ConvertTransform `json:"convert,omitempty"`
}

// MathTransform multiplies or clamps a number. Type is nil until defaulted.
type MathTransform struct {
	Type     *pt.MathTransformType `json:"type,omitempty"`
	Multiply *int64                `json:"multiply,omitempty"`
	ClampMin *int64                `json:"clampMin,omitempty"`
	ClampMax *int64                `json:"clampMax,omitempty"`
}

// MapTransform maps strings to JSON values. In YAML the pairs are written
// directly under `map:`, without a `pairs:` key.
type MapTransform struct {
	Pairs map[string]json.RawMessage
}

// UnmarshalJSON reads the pairs object.
func (m *MapTransform) UnmarshalJSON(b []byte) error {
	return json.Unmarshal(b, &m.Pairs)
}

// MarshalJSON writes the pairs object.
func (m MapTransform) MarshalJSON() ([]byte, error) {
	if m.Pairs == nil {
		return []byte("{}"), nil
	}
	return json.Marshal(m.Pairs)
}

// MatchTransform returns the result of the first matching pattern.
// FallbackTo is nil until defaulted.
type MatchTransform struct {
	Patterns      []MatchTransformPattern `json:"patterns,omitempty"`
	FallbackValue json.RawMessage         `json:"fallbackValue,omitempty"`
	FallbackTo    *pt.MatchFallbackTo     `json:"fallbackTo,omitempty"`
}

// MatchTransformPattern is one pattern of a match transform. Type is nil
// until defaulted.
type MatchTransformPattern struct {
	Type    *pt.MatchPatternType `json:"type,omitempty"`
	Literal *string              `json:"literal,omitempty"`
	Regexp  *string              `json:"regexp,omitempty"`
	Result  json.RawMessage      `json:"result,omitempty"`
}

// StringTransform turns a value into a string. Type is nil until defaulted.
type StringTransform struct {
	Type    *pt.StringTransformType  `json:"type,omitempty"`
	Format  *string                  `json:"fmt,omitempty"`
	Convert *pt.StringConversionType `json:"convert,omitempty"`
	Trim    *string                  `json:"trim,omitempty"`
	Regexp  *StringTransformRegexp   `json:"regexp,omitempty"`
	Join    *StringTransformJoin     `json:"join,omitempty"`
}

// StringTransformRegexp extracts a capture group.
type StringTransformRegexp struct {
	Match string `json:"match"`
	Group *int   `json:"group,omitempty"`
}

// StringTransformJoin joins a list.
type StringTransformJoin struct {
	Separator string `json:"separator"`
}

// ConvertTransform converts a value to another type. A nil Format means
// none; the CRD has no default for it.
type ConvertTransform struct {
	ToType pt.ConvertTransformType    `json:"toType"`
	Format *pt.ConvertTransformFormat `json:"format,omitempty"`
}

// A ConnectionDetail publishes one key of the composite resource's
// connection details. Type and Name may be left out; ConnectionDetails
// infers them as Crossplane does.
type ConnectionDetail struct {
	Name                    *string                  `json:"name,omitempty"`
	Type                    *pt.ConnectionDetailType `json:"type,omitempty"`
	FromConnectionSecretKey *string                  `json:"fromConnectionSecretKey,omitempty"`
	FromFieldPath           *string                  `json:"fromFieldPath,omitempty"`
	Value                   *string                  `json:"value,omitempty"`
}

// A ReadinessCheck decides whether a composed resource is ready. As in the
// upstream type, MatchString "" and MatchInteger 0 mean unset.
type ReadinessCheck struct {
	Type           pt.ReadinessCheckType         `json:"type"`
	FieldPath      string                        `json:"fieldPath,omitempty"`
	MatchString    string                        `json:"matchString,omitempty"`
	MatchInteger   int64                         `json:"matchInteger,omitempty"`
	MatchCondition *MatchConditionReadinessCheck `json:"matchCondition,omitempty"`
}

// MatchConditionReadinessCheck matches a status condition. Type and Status
// are nil until defaulted (to Ready and "True").
type MatchConditionReadinessCheck struct {
	Type   *string `json:"type,omitempty"`
	Status *string `json:"status,omitempty"`
}

// Environment is spec.environment (Crossplane v1.14–v1.17). Only its
// patches are this package's business; the rest (defaultData,
// environmentConfigs, policy) is kept as JSON for package environment.
type Environment struct {
	// Patches run before the templates are rendered. Their CRD enum allows
	// only the four Composite patch types.
	Patches []Patch

	// Selection is spec.environment without its patches: a JSON object with
	// any of defaultData, environmentConfigs and policy, unknown fields and
	// non-nullable nulls pruned as the API server prunes them (Decode), and
	// CRD defaults applied (Default). Nil when none of the three is set.
	Selection json.RawMessage
}

// UnmarshalJSON splits spec.environment into patches and selection.
func (e *Environment) UnmarshalJSON(b []byte) error {
	fields := map[string]json.RawMessage{}
	if err := json.Unmarshal(b, &fields); err != nil {
		return err
	}
	e.Patches, e.Selection = nil, nil
	if p, ok := fields["patches"]; ok {
		if err := json.Unmarshal(p, &e.Patches); err != nil {
			return errors.Wrap(err, "cannot decode spec.environment.patches")
		}
		delete(fields, "patches")
	}
	if len(fields) == 0 {
		return nil
	}
	sel, err := json.Marshal(fields)
	if err != nil {
		return errors.Wrap(err, "cannot encode spec.environment")
	}
	e.Selection = sel
	return nil
}

// MarshalJSON joins patches and selection into one object.
func (e Environment) MarshalJSON() ([]byte, error) {
	fields := map[string]json.RawMessage{}
	if len(e.Selection) > 0 {
		if err := json.Unmarshal(e.Selection, &fields); err != nil {
			return nil, errors.Wrap(err, "cannot decode environment selection")
		}
	}
	if e.Patches != nil {
		p, err := json.Marshal(e.Patches)
		if err != nil {
			return nil, errors.Wrap(err, "cannot encode environment patches")
		}
		fields["patches"] = p
	}
	return json.Marshal(fields)
}
