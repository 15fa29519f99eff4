package environment

import (
	"bytes"
	"encoding/json"

	"github.com/pkg/errors"
	"k8s.io/apimachinery/pkg/util/validation/field"
	sigsjson "sigs.k8s.io/json"
	"sigs.k8s.io/yaml"
)

// A SourceType says how an entry of environmentConfigs picks configs.
type SourceType string

// Source types. The native CRD defaults an absent type to Reference; the
// function treats an absent (or empty) type as Reference in code.
const (
	SourceTypeReference SourceType = "Reference"
	SourceTypeSelector  SourceType = "Selector"
)

// A SelectorMode says how many configs a selector picks.
type SelectorMode string

// Selector modes. Absent means Single (CRD default natively, code default
// in the function).
const (
	SelectorModeSingle   SelectorMode = "Single"
	SelectorModeMultiple SelectorMode = "Multiple"
)

// A LabelMatcherType says where a label matcher's value comes from.
type LabelMatcherType string

// Label matcher types. Absent means FromCompositeFieldPath.
const (
	LabelMatcherTypeFromCompositeFieldPath LabelMatcherType = "FromCompositeFieldPath"
	LabelMatcherTypeValue                  LabelMatcherType = "Value"
)

// A FromFieldPathPolicy says whether a label matcher whose field path is
// missing from the XR is an error (Required, the default) or skipped.
type FromFieldPathPolicy string

// From field path policies.
const (
	FromFieldPathPolicyOptional FromFieldPathPolicy = "Optional"
	FromFieldPathPolicyRequired FromFieldPathPolicy = "Required"
)

// A ResolvePolicy says when the native engine selects again.
type ResolvePolicy string

// Resolve policies. Absent means IfNotPresent: select once, then keep the
// XR's spec.environmentConfigRefs.
const (
	ResolvePolicyAlways       ResolvePolicy = "Always"
	ResolvePolicyIfNotPresent ResolvePolicy = "IfNotPresent"
)

// A ResolutionPolicy says whether a config that cannot be fetched is an
// error (Required, the default) or skipped.
type ResolutionPolicy string

// Resolution policies.
const (
	ResolutionPolicyRequired ResolutionPolicy = "Required"
	ResolutionPolicyOptional ResolutionPolicy = "Optional"
)

// DefaultSortByFieldPath is the default sort key of a Multiple selector.
const DefaultSortByFieldPath = "metadata.name"

// A Reference names one EnvironmentConfig.
type Reference struct {
	Name string `json:"name"`
}

// A Selector picks EnvironmentConfigs by labels. Both engines share this
// schema.
//
// Every field the CRD defaults is a pointer, so that "absent" (which the
// API server defaults) and "explicitly empty" (which it keeps) stay apart;
// Spec.Default fills the nil ones as the API server would.
type Selector struct {
	Mode *SelectorMode `json:"mode,omitempty"`

	// MaxMatch keeps only the first MaxMatch configs after sorting
	// (Multiple mode).
	MaxMatch *uint64 `json:"maxMatch,omitempty"`

	// MinMatch is the fewest configs Multiple mode accepts.
	MinMatch *uint64 `json:"minMatch,omitempty"`

	// SortByFieldPath is read from each candidate config to order them in
	// Multiple mode.
	SortByFieldPath *string `json:"sortByFieldPath,omitempty"`

	MatchLabels []LabelMatcher `json:"matchLabels,omitempty"`
}

// A LabelMatcher is one label of a Selector: a literal value, or a value
// read from the composite resource.
type LabelMatcher struct {
	Type *LabelMatcherType `json:"type,omitempty"`

	Key string `json:"key"`

	// ValueFromFieldPath is read from the XR (FromCompositeFieldPath).
	ValueFromFieldPath *string `json:"valueFromFieldPath,omitempty"`

	// FromFieldPathPolicy is Required when absent.
	FromFieldPathPolicy *FromFieldPathPolicy `json:"fromFieldPathPolicy,omitempty"`

	// Value is the literal value (Value).
	Value *string `json:"value,omitempty"`
}

// optional reports whether a missing field path skips the label. Like
// upstream it looks at the raw policy: absent is Required.
func (m LabelMatcher) optional() bool {
	return m.FromFieldPathPolicy != nil && *m.FromFieldPathPolicy == FromFieldPathPolicyOptional
}

// Spec is a Composition's spec.environment as Crossplane v1.14–v1.17 read
// it, without its patches (those are patch-and-transform's business and
// are applied with ApplyEnvironmentPatches).
type Spec struct {
	// DefaultData is the lowest-precedence layer of the environment. Nil
	// when absent.
	DefaultData map[string]json.RawMessage `json:"defaultData,omitempty"`

	// EnvironmentConfigs are processed in order; later configs win when
	// merging.
	EnvironmentConfigs []Source `json:"environmentConfigs,omitempty"`

	Policy *Policy `json:"policy,omitempty"`
}

// A Source is one entry of spec.environment.environmentConfigs.
type Source struct {
	Type     *SourceType `json:"type,omitempty"`
	Ref      *Reference  `json:"ref,omitempty"`
	Selector *Selector   `json:"selector,omitempty"`
}

// Policy is spec.environment.policy.
type Policy struct {
	// Resolve has no CRD default; absent means IfNotPresent.
	Resolve *ResolvePolicy `json:"resolve,omitempty"`

	// Resolution is defaulted to Required when policy is present.
	Resolution *ResolutionPolicy `json:"resolution,omitempty"`
}

// DecodeSpec decodes spec.environment from JSON (or YAML, read as kubectl
// reads it). Unknown fields, including patches, are ignored, as the API
// server prunes what its schema does not know; field names are
// case-sensitive. Nothing is defaulted: call Default, as the API server
// would, before Validate and Select.
func DecodeSpec(b []byte) (*Spec, error) {
	j, err := toJSON(b)
	if err != nil {
		return nil, errors.Wrap(err, "cannot decode spec.environment")
	}
	s := &Spec{}
	if err := sigsjson.UnmarshalCaseSensitivePreserveInts(j, s); err != nil {
		return nil, errors.Wrap(err, "cannot decode spec.environment")
	}
	return s, nil
}

// toJSON returns b as JSON: JSON is kept byte for byte, YAML is converted.
func toJSON(b []byte) ([]byte, error) {
	t := bytes.TrimSpace(b)
	if len(t) > 0 && t[0] == '{' && json.Valid(t) {
		return t, nil
	}
	return yaml.YAMLToJSON(b)
}

// Default applies the Composition CRD's defaults to spec.environment, as the
// API server does before anyone reads the object (docs/semantics/legacy.md#inputs-are-defaulted-first).
// Defaults apply only inside objects that are present, and only to absent
// fields: an explicitly empty value is kept, as the API server keeps it.
func (s *Spec) Default() {
	if s == nil {
		return
	}
	for i := range s.EnvironmentConfigs {
		src := &s.EnvironmentConfigs[i]
		if src.Type == nil {
			src.Type = ptrTo(SourceTypeReference)
		}
		if src.Selector == nil {
			continue
		}
		sel := src.Selector
		if sel.Mode == nil {
			sel.Mode = ptrTo(SelectorModeSingle)
		}
		if sel.SortByFieldPath == nil {
			sel.SortByFieldPath = ptrTo(DefaultSortByFieldPath)
		}
		for j := range sel.MatchLabels {
			m := &sel.MatchLabels[j]
			if m.Type == nil {
				m.Type = ptrTo(LabelMatcherTypeFromCompositeFieldPath)
			}
			if m.FromFieldPathPolicy == nil {
				m.FromFieldPathPolicy = ptrTo(FromFieldPathPolicyRequired)
			}
		}
	}
	if s.Policy != nil && s.Policy.Resolution == nil {
		s.Policy.Resolution = ptrTo(ResolutionPolicyRequired)
	}
}

// specPath is where spec.environment lives in a Composition.
var specPath = field.NewPath("spec", "environment")

// Validate runs the Composition webhook's logical validation of
// spec.environment's environmentConfigs (docs/semantics/legacy.md#logical-validation), on a
// defaulted Spec. Like the webhook it reports at most one error per
// source, the first it finds. Patches are validated with the other
// patches by the Composition front-end.
func (s *Spec) Validate() field.ErrorList {
	if s == nil {
		return nil
	}
	var errs field.ErrorList
	for i, src := range s.EnvironmentConfigs {
		if err := src.validate(specPath.Child("environmentConfigs").Index(i)); err != nil {
			errs = append(errs, err)
		}
	}
	return errs
}

func (src Source) validate(p *field.Path) *field.Error {
	switch deref(src.Type) {
	case SourceTypeReference:
		if src.Ref == nil {
			return field.Required(p.Child("ref"), "ref is required")
		}
		if src.Ref.Name == "" {
			return field.Required(p.Child("ref", "name"), "name is required")
		}
	case SourceTypeSelector:
		if src.Selector == nil {
			return field.Required(p.Child("selector"), "selector is required")
		}
		if len(src.Selector.MatchLabels) == 0 {
			return field.Required(p.Child("selector", "matchLabels"), "selector must have at least one match label")
		}
		return src.Selector.validate(p.Child("selector"))
	default:
		return field.Invalid(p.Child("type"), deref(src.Type), "invalid type")
	}
	return nil
}

func (sel Selector) validate(p *field.Path) *field.Error {
	single := deref(sel.Mode) == SelectorModeSingle
	if single && sel.MaxMatch != nil {
		return field.Forbidden(p.Child("maxMatch"), "maxMatch is not supported in Single mode")
	}
	if single && sel.MinMatch != nil {
		return field.Forbidden(p.Child("minMatch"), "minMatch is not supported in Single mode")
	}
	for i, m := range sel.MatchLabels {
		if err := m.validate(p.Child("matchLabels").Index(i)); err != nil {
			return err
		}
	}
	return nil
}

func (m LabelMatcher) validate(p *field.Path) *field.Error {
	if m.Key == "" {
		return field.Required(p.Child("key"), "key is required")
	}
	switch deref(m.Type) {
	case LabelMatcherTypeFromCompositeFieldPath:
		if m.ValueFromFieldPath == nil {
			return field.Required(p.Child("valueFromFieldPath"), "valueFromFieldPath is required")
		}
		if *m.ValueFromFieldPath == "" {
			return field.Required(p.Child("valueFromFieldPath"), "valueFromFieldPath must not be empty")
		}
	case LabelMatcherTypeValue:
		if m.Value == nil {
			return field.Required(p.Child("value"), "value is required")
		}
		if *m.Value == "" {
			return field.Required(p.Child("value"), "value must not be empty")
		}
	default:
		return field.Invalid(p.Child("type"), deref(m.Type), "invalid type")
	}
	return nil
}

// ValidateSchema checks what the Composition CRD's OpenAPI schema enforces
// on spec.environment before the webhook runs (docs/semantics/legacy.md#schema-validation): enum
// values. Run it on a defaulted Spec. (Required ref.name and
// matchLabels[].key are left to Validate, which reports them as empty.)
func (s *Spec) ValidateSchema() field.ErrorList {
	if s == nil {
		return nil
	}
	var errs field.ErrorList
	for i, src := range s.EnvironmentConfigs {
		p := specPath.Child("environmentConfigs").Index(i)
		errs = append(errs, checkEnum(p.Child("type"), src.Type, SourceTypeReference, SourceTypeSelector)...)
		if src.Selector == nil {
			continue
		}
		sp := p.Child("selector")
		errs = append(errs, checkEnum(sp.Child("mode"), src.Selector.Mode, SelectorModeSingle, SelectorModeMultiple)...)
		for j, m := range src.Selector.MatchLabels {
			mp := sp.Child("matchLabels").Index(j)
			errs = append(errs, checkEnum(mp.Child("type"), m.Type, LabelMatcherTypeFromCompositeFieldPath, LabelMatcherTypeValue)...)
			errs = append(errs, checkEnum(mp.Child("fromFieldPathPolicy"), m.FromFieldPathPolicy, FromFieldPathPolicyOptional, FromFieldPathPolicyRequired)...)
		}
	}
	if s.Policy != nil {
		pp := specPath.Child("policy")
		errs = append(errs, checkEnum(pp.Child("resolve"), s.Policy.Resolve, ResolvePolicyAlways, ResolvePolicyIfNotPresent)...)
		errs = append(errs, checkEnum(pp.Child("resolution"), s.Policy.Resolution, ResolutionPolicyRequired, ResolutionPolicyOptional)...)
	}
	return errs
}

func checkEnum[T ~string](p *field.Path, v *T, allowed ...T) field.ErrorList {
	if v == nil {
		return nil
	}
	names := make([]string, len(allowed))
	for i, a := range allowed {
		if *v == a {
			return nil
		}
		names[i] = string(a)
	}
	return field.ErrorList{field.NotSupported(p, string(*v), names)}
}

// required reports whether a config that cannot be fetched is an error:
// unless policy.resolution is Optional. Without spec.environment nothing is
// required.
func (s *Spec) required() bool {
	if s == nil {
		return false
	}
	return s.Policy == nil || s.Policy.Resolution == nil || *s.Policy.Resolution != ResolutionPolicyOptional
}

// resolveAlways reports whether policy.resolve is Always.
func (s *Spec) resolveAlways() bool {
	return s != nil && s.Policy != nil && s.Policy.Resolve != nil && *s.Policy.Resolve == ResolvePolicyAlways
}

func ptrTo[T any](v T) *T { return &v }

// deref returns what a nil-able scalar reads as in Go code that does not
// default it: the zero value.
func deref[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}
