package native

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"

	metavalidation "k8s.io/apimachinery/pkg/api/validation"
	"k8s.io/apimachinery/pkg/api/validation/path"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	kjson "k8s.io/apimachinery/pkg/util/json"
	utilvalidation "k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"

	pt "github.com/xpmigrate/xpmigrate/patchandtransform"
)

// A Target names the Crossplane release whose Composition CRD and
// validation Validate reproduces. The two differ only in the environment:
//
//   - v1.17 (the default, since xpmigrate reads 1.17-era Compositions)
//     accepts the environment patch types FromEnvironmentFieldPath,
//     ToEnvironmentFieldPath, CombineFromEnvironment and
//     CombineToEnvironment in spec.resources[].patches and
//     spec.patchSets[].patches, and validates spec.environment.patches;
//   - v1.20 rejects those four types (the CRD enum on write, and the logical
//     validation with "unknown patch type", which is also what a v1.20
//     controller says when it meets a stored 1.17 revision that uses them),
//     and prunes spec.environment, so it is not validated.
type Target string

// Targets.
const (
	TargetV117 Target = "v1.17"
	TargetV120 Target = "v1.20"
)

// A ValidateOption changes what Validate checks.
type ValidateOption func(*validateOptions)

type validateOptions struct {
	target Target
	schema bool
}

// ForTarget validates as the given Crossplane release would. Any value but
// TargetV120 means TargetV117.
func ForTarget(t Target) ValidateOption {
	return func(o *validateOptions) { o.target = t }
}

// LogicalOnly skips the CRD schema checks and runs only the logical
// validation, which is what a Crossplane controller runs at reconcile time
// before it refuses an invalid Composition ("refusing to use invalid
// Composition: ...").
func LogicalOnly() ValidateOption {
	return func(o *validateOptions) { o.schema = false }
}

// Validate checks the Composition as the API server and Crossplane's
// validating webhook check it when it is written, and returns every error
// found, each with its full field path. Call it after Default, as the API
// server validates defaulted objects.
//
// Two layers run, schema first:
//
//   - the CRD schema (docs/semantics/legacy.md#schema-validation): enums, required lists and objects, the
//     minimum of one combine variable, and the embedded-object rules for
//     base (apiVersion and kind set and well formed, metadata valid).
//     Messages are the API server's ("Required value", "Unsupported value:
//     ... supported values: ..."). Field types were already checked by
//     Decode;
//   - the logical validation of Crossplane's webhook (docs/semantics/legacy.md#logical-validation),
//     reproduced message for message and in upstream order: mode, patch
//     sets, templates (names, then each template's patches and readiness
//     checks), environment patches. Only the first invalid transform of a
//     patch is reported, as upstream.
//
// The API server stops after the schema layer if it fails; Validate goes
// on so that one run shows every problem. LogicalOnly selects the second
// layer alone.
//
// Not validated, as upstream: connection details, field-path syntax,
// combine format verbs, convert pairs. Not validated here: the
// environment selection (spec.environment without patches), which package
// environment validates — upstream reports those errors last, so they can
// be appended to this list unchanged; and spec.pipeline, of which only the
// length is read.
//
// Known gaps of the schema layer, because Go strings cannot tell absent
// from empty: a required string that is absent and a required string that
// is "" are judged alike. For enums without a default (transform type,
// convert toType, combine strategy, readiness check type) and for
// compositeTypeRef, "" is reported as Required value, where the API server
// would say Unsupported value for an explicit ""; for free strings where
// "" is allowed (patchSets[].name, combine variables' fromFieldPath,
// combine string fmt, string regexp match, join separator,
// publishConnectionDetailsWithStoreConfigRef name) absence is not reported.
func (c *Composition) Validate(opts ...ValidateOption) field.ErrorList {
	o := validateOptions{target: TargetV117, schema: true}
	for _, fn := range opts {
		fn(&o)
	}
	var errs field.ErrorList
	if o.schema {
		errs = append(errs, c.validateSchema(o)...)
	}
	errs = append(errs, c.validateMode()...)
	errs = append(errs, c.validatePatchSets(o)...)
	errs = append(errs, c.validateResources(o)...)
	if o.target != TargetV120 {
		errs = append(errs, c.validateEnvironment(o)...)
	}
	return errs
}

// Enums, in the CRD's order (which is the order of the "supported values"
// in schema errors).
var (
	compositionModes = []CompositionMode{CompositionModeResources, CompositionModePipeline}

	patchTypesV117 = []pt.PatchType{
		pt.PatchTypeFromCompositeFieldPath, pt.PatchTypeFromEnvironmentFieldPath, pt.PatchTypePatchSet,
		pt.PatchTypeToCompositeFieldPath, pt.PatchTypeToEnvironmentFieldPath, pt.PatchTypeCombineFromEnvironment,
		pt.PatchTypeCombineFromComposite, pt.PatchTypeCombineToComposite, pt.PatchTypeCombineToEnvironment,
	}
	patchTypesV120 = []pt.PatchType{
		pt.PatchTypeFromCompositeFieldPath, pt.PatchTypePatchSet, pt.PatchTypeToCompositeFieldPath,
		pt.PatchTypeCombineFromComposite, pt.PatchTypeCombineToComposite,
	}
	environmentPatchTypes = []pt.PatchType{
		pt.PatchTypeFromCompositeFieldPath, pt.PatchTypeToCompositeFieldPath,
		pt.PatchTypeCombineFromComposite, pt.PatchTypeCombineToComposite,
	}
	fromFieldPathPolicies = []pt.FromFieldPathPolicy{pt.FromFieldPathPolicyOptional, pt.FromFieldPathPolicyRequired}
	combineStrategies     = []pt.CombineStrategy{pt.CombineStrategyString}
	transformTypes        = []pt.TransformType{
		pt.TransformTypeMap, pt.TransformTypeMatch, pt.TransformTypeMath, pt.TransformTypeString, pt.TransformTypeConvert,
	}
	mathTypes = []pt.MathTransformType{
		pt.MathTransformTypeMultiply, pt.MathTransformTypeClampMin, pt.MathTransformTypeClampMax,
	}
	matchFallbacks       = []pt.MatchFallbackTo{pt.MatchFallbackToValue, pt.MatchFallbackToInput}
	matchPatternTypes    = []pt.MatchPatternType{pt.MatchPatternTypeLiteral, pt.MatchPatternTypeRegexp}
	stringTransformTypes = []pt.StringTransformType{
		pt.StringTransformTypeFormat, pt.StringTransformTypeConvert, pt.StringTransformTypeTrimPrefix,
		pt.StringTransformTypeTrimSuffix, pt.StringTransformTypeRegexp, pt.StringTransformTypeJoin,
	}
	stringConversions = []pt.StringConversionType{
		pt.StringConversionTypeToUpper, pt.StringConversionTypeToLower, pt.StringConversionTypeToBase64,
		pt.StringConversionTypeFromBase64, pt.StringConversionTypeToJSON, pt.StringConversionTypeToSHA1,
		pt.StringConversionTypeToSHA256, pt.StringConversionTypeToSHA512, pt.StringConversionTypeToAdler32,
	}
	convertTypes = []pt.ConvertTransformType{
		pt.ConvertTransformTypeString, pt.ConvertTransformTypeInt, pt.ConvertTransformTypeInt64,
		pt.ConvertTransformTypeBool, pt.ConvertTransformTypeFloat64, pt.ConvertTransformTypeObject,
		pt.ConvertTransformTypeArray,
	}
	convertFormats = []pt.ConvertTransformFormat{
		pt.ConvertTransformFormatNone, pt.ConvertTransformFormatQuantity, pt.ConvertTransformFormatJSON,
	}
	connectionDetailTypes = []pt.ConnectionDetailType{
		pt.ConnectionDetailTypeFromConnectionSecretKey, pt.ConnectionDetailTypeFromFieldPath,
		pt.ConnectionDetailTypeFromValue,
	}
	readinessCheckTypes = []pt.ReadinessCheckType{
		pt.ReadinessCheckTypeMatchString, pt.ReadinessCheckTypeMatchInteger, pt.ReadinessCheckTypeNonEmpty,
		pt.ReadinessCheckTypeMatchCondition, pt.ReadinessCheckTypeMatchTrue, pt.ReadinessCheckTypeMatchFalse,
		pt.ReadinessCheckTypeNone,
	}
)

func (o validateOptions) patchTypes() []pt.PatchType {
	if o.target == TargetV120 {
		return patchTypesV120
	}
	return patchTypesV117
}

// enum reports a value outside a CRD enum.
func enum[T ~string](p *field.Path, v T, allowed []T) field.ErrorList {
	if slices.Contains(allowed, v) {
		return nil
	}
	return field.ErrorList{field.NotSupported(p, string(v), allowed)}
}

// optionalEnum is enum for a field that may be absent.
func optionalEnum[T ~string](p *field.Path, v *T, allowed []T) field.ErrorList {
	if v == nil {
		return nil
	}
	return enum(p, *v, allowed)
}

// requiredEnum is enum for a required field without a default.
func requiredEnum[T ~string](p *field.Path, v T, allowed []T) field.ErrorList {
	if v == "" {
		return field.ErrorList{field.Required(p, "")}
	}
	return enum(p, v, allowed)
}

// validateSchema checks what the CRD's OpenAPI schema checks.
func (c *Composition) validateSchema(o validateOptions) field.ErrorList {
	var errs field.ErrorList
	spec := field.NewPath("spec")
	ref := spec.Child("compositeTypeRef")
	if c.Spec.CompositeTypeRef.APIVersion == "" {
		errs = append(errs, field.Required(ref.Child("apiVersion"), ""))
	}
	if c.Spec.CompositeTypeRef.Kind == "" {
		errs = append(errs, field.Required(ref.Child("kind"), ""))
	}
	errs = append(errs, optionalEnum(spec.Child("mode"), c.Spec.Mode, compositionModes)...)
	for i, ps := range c.Spec.PatchSets {
		p := spec.Child("patchSets").Index(i).Child("patches")
		if ps.Patches == nil {
			errs = append(errs, field.Required(p, ""))
		}
		for j := range ps.Patches {
			errs = append(errs, patchSchema(p.Index(j), &ps.Patches[j], o.patchTypes())...)
		}
	}
	if e := c.Spec.Environment; e != nil && o.target != TargetV120 {
		p := spec.Child("environment", "patches")
		for j := range e.Patches {
			errs = append(errs, patchSchema(p.Index(j), &e.Patches[j], environmentPatchTypes)...)
		}
	}
	for i := range c.Spec.Resources {
		t := &c.Spec.Resources[i]
		p := spec.Child("resources").Index(i)
		errs = append(errs, baseSchema(p.Child("base"), t.Base)...)
		for j := range t.Patches {
			errs = append(errs, patchSchema(p.Child("patches").Index(j), &t.Patches[j], o.patchTypes())...)
		}
		for j, cd := range t.ConnectionDetails {
			errs = append(errs, optionalEnum(p.Child("connectionDetails").Index(j).Child("type"), cd.Type, connectionDetailTypes)...)
		}
		for j, rc := range t.ReadinessChecks {
			errs = append(errs, requiredEnum(p.Child("readinessChecks").Index(j).Child("type"), rc.Type, readinessCheckTypes)...)
		}
	}
	return errs
}

func patchSchema(p *field.Path, pa *Patch, types []pt.PatchType) field.ErrorList {
	errs := optionalEnum(p.Child("type"), pa.Type, types)
	if c := pa.Combine; c != nil {
		cp := p.Child("combine")
		errs = append(errs, requiredEnum(cp.Child("strategy"), c.Strategy, combineStrategies)...)
		vp := cp.Child("variables")
		switch {
		case c.Variables == nil:
			errs = append(errs, field.Required(vp, ""))
		case len(c.Variables) == 0:
			errs = append(errs, field.Invalid(vp, int64(0), fmt.Sprintf("%s in body should have at least 1 items", vp)))
		}
	}
	if pa.Policy != nil {
		errs = append(errs, optionalEnum(p.Child("policy", "fromFieldPath"), pa.Policy.FromFieldPath, fromFieldPathPolicies)...)
	}
	for i := range pa.Transforms {
		errs = append(errs, transformSchema(p.Child("transforms").Index(i), &pa.Transforms[i])...)
	}
	return errs
}

func transformSchema(p *field.Path, t *Transform) field.ErrorList {
	errs := requiredEnum(p.Child("type"), t.Type, transformTypes)
	if t.Math != nil {
		errs = append(errs, optionalEnum(p.Child("math", "type"), t.Math.Type, mathTypes)...)
	}
	if m := t.Match; m != nil {
		mp := p.Child("match")
		errs = append(errs, optionalEnum(mp.Child("fallbackTo"), m.FallbackTo, matchFallbacks)...)
		for i, pat := range m.Patterns {
			pp := mp.Child("patterns").Index(i)
			errs = append(errs, optionalEnum(pp.Child("type"), pat.Type, matchPatternTypes)...)
			if pat.Result == nil {
				errs = append(errs, field.Required(pp.Child("result"), ""))
			}
		}
	}
	if s := t.String; s != nil {
		errs = append(errs, optionalEnum(p.Child("string", "type"), s.Type, stringTransformTypes)...)
		errs = append(errs, optionalEnum(p.Child("string", "convert"), s.Convert, stringConversions)...)
	}
	if cv := t.Convert; cv != nil {
		errs = append(errs, requiredEnum(p.Child("convert", "toType"), cv.ToType, convertTypes)...)
		errs = append(errs, optionalEnum(p.Child("convert", "format"), cv.Format, convertFormats)...)
	}
	return errs
}

// baseSchema checks a template's base as the API server checks an embedded
// resource (x-kubernetes-embedded-resource), in a fixed order: apiVersion,
// kind, metadata.
func baseSchema(p *field.Path, raw json.RawMessage) field.ErrorList {
	if isNull(raw) {
		return field.ErrorList{field.Required(p, "")}
	}
	var v any
	if err := kjson.Unmarshal(raw, &v); err != nil {
		return field.ErrorList{field.Invalid(p, string(raw), err.Error())}
	}
	o, ok := v.(map[string]any)
	if !ok {
		tn := jsonTypeName(v)
		return field.ErrorList{field.TypeInvalid(p, tn, fmt.Sprintf("%s in body must be of type object: %q", p, tn))}
	}
	var errs field.ErrorList
	av, ok := o["apiVersion"]
	switch s, isString := av.(string); {
	case !ok:
		errs = append(errs, field.Required(p.Child("apiVersion"), ""))
	case !isString:
		errs = append(errs, field.Invalid(p.Child("apiVersion"), av, "must be a string"))
	case s == "":
		errs = append(errs, field.Invalid(p.Child("apiVersion"), s, "must not be empty"))
	default:
		if _, err := schema.ParseGroupVersion(s); err != nil {
			errs = append(errs, field.Invalid(p.Child("apiVersion"), s, err.Error()))
		}
	}
	kv, ok := o["kind"]
	switch s, isString := kv.(string); {
	case !ok:
		errs = append(errs, field.Required(p.Child("kind"), ""))
	case !isString:
		errs = append(errs, field.Invalid(p.Child("kind"), kv, "must be a string"))
	case s == "":
		errs = append(errs, field.Invalid(p.Child("kind"), s, "must not be empty"))
	default:
		if msgs := utilvalidation.IsDNS1035Label(strings.ToLower(s)); len(msgs) > 0 {
			errs = append(errs, field.Invalid(p.Child("kind"), s, "may have mixed case, but should otherwise match: "+strings.Join(msgs, ",")))
		}
	}
	if md, ok := o["metadata"]; ok {
		errs = append(errs, baseMetadata(p.Child("metadata"), md)...)
	}
	return errs
}

func baseMetadata(p *field.Path, md any) field.ErrorList {
	b, err := json.Marshal(md)
	if err != nil {
		return field.ErrorList{field.Invalid(p, md, err.Error())}
	}
	meta := &metav1.ObjectMeta{}
	if err := kjson.Unmarshal(b, meta); err != nil {
		return field.ErrorList{field.Invalid(p, md, err.Error())}
	}
	if meta.Name == "" {
		// The API server does the same: a base need not have a name.
		meta.Name = "fakename"
	}
	return metavalidation.ValidateObjectMeta(meta, meta.Namespace != "", path.ValidatePathSegmentName, p)
}

func jsonTypeName(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case string:
		return "string"
	case bool:
		return "boolean"
	case int64:
		return "integer"
	case float64:
		return "number"
	case []any:
		return "array"
	default:
		return "object"
	}
}

// validateMode is the webhook's mode check.
func (c *Composition) validateMode() field.ErrorList {
	m := CompositionModeResources
	if c.Spec.Mode != nil {
		m = *c.Spec.Mode
	}
	switch m {
	case CompositionModeResources:
		if len(c.Spec.Resources) == 0 {
			return field.ErrorList{field.Required(field.NewPath("spec", "resources"), "an array of resources is required in Resources mode (the default if no mode is specified)")}
		}
	case CompositionModePipeline:
		if len(c.Spec.Pipeline) == 0 {
			return field.ErrorList{field.Required(field.NewPath("spec", "pipeline"), "an array of pipeline steps is required in Pipeline mode")}
		}
	}
	return nil
}

// validatePatchSets is the webhook's patch set check: no PatchSet patches
// inside a patch set, valid patches, and only declared sets referenced.
// Duplicate set names are not reported (upstream does not either).
func (c *Composition) validatePatchSets(o validateOptions) field.ErrorList {
	var errs field.ErrorList
	declared := map[string]bool{}
	for i, ps := range c.Spec.PatchSets {
		declared[ps.Name] = true
		for j := range ps.Patches {
			p := field.NewPath("spec", "patchSets").Index(i).Child("patches").Index(j)
			pa := &ps.Patches[j]
			if t := pa.rawType(); t == pt.PatchTypePatchSet {
				errs = append(errs, field.Invalid(p.Child("type"), t, "cannot use patches within patches"))
				continue
			}
			if err := validatePatch(p, pa, o.patchTypes()); err != nil {
				errs = append(errs, err)
			}
		}
	}
	for i, t := range c.Spec.Resources {
		for j, pa := range t.Patches {
			if pa.rawType() != pt.PatchTypePatchSet {
				continue
			}
			p := field.NewPath("spec", "resources").Index(i).Child("patches").Index(j).Child("patchSetName")
			if pa.PatchSetName == nil {
				errs = append(errs, field.Required(p, "must be specified when type is patchSet"))
				continue
			}
			if !declared[*pa.PatchSetName] {
				errs = append(errs, field.Invalid(p, *pa.PatchSetName, "patchSetName must be the name of a declared patchSet"))
			}
		}
	}
	return errs
}

// validateResources is the webhook's template check: names, then each
// template's patches and readiness checks.
func (c *Composition) validateResources(o validateOptions) field.ErrorList {
	errs := c.validateResourceNames()
	for i, t := range c.Spec.Resources {
		p := field.NewPath("spec", "resources").Index(i)
		for j := range t.Patches {
			if err := validatePatch(p.Child("patches").Index(j), &t.Patches[j], o.patchTypes()); err != nil {
				errs = append(errs, err)
			}
		}
		for j := range t.ReadinessChecks {
			if err := validateReadinessCheck(p.Child("readinessChecks").Index(j), &t.ReadinessChecks[j]); err != nil {
				errs = append(errs, err)
			}
		}
	}
	return errs
}

// validateResourceNames requires all templates named or none, unique names,
// and named templates when the Composition has a pipeline. A template whose
// style differs from template 0 is reported, except that a named template
// is compared only against earlier named ones, as upstream does.
func (c *Composition) validateResourceNames() field.ErrorList {
	const mixed = "cannot mix named and anonymous resources, all resources must have a name or none must have a name"
	var errs field.ErrorList
	seen := map[string]bool{}
	for i := range c.Spec.Resources {
		p := field.NewPath("spec", "resources").Index(i).Child("name")
		name := c.Spec.Resources[i].GetName()
		if name == "" {
			switch {
			case len(c.Spec.Pipeline) != 0:
				errs = append(errs, field.Required(p, "cannot have anonymous resources when composition has functions"))
			case i != 0 && len(seen) != 0:
				errs = append(errs, field.Required(p, mixed))
			}
			continue
		}
		switch {
		case seen[name]:
			errs = append(errs, field.Duplicate(p, name))
		case i != 0 && len(seen) == 0:
			errs = append(errs, field.Invalid(p, name, mixed))
		default:
			seen[name] = true
		}
	}
	return errs
}

// validateEnvironment is the v1.17 webhook's check of environment patches.
// The logical check is the resource patches' one, so it accepts all nine
// v1.17 types; the CRD enum (schema layer) narrows them to four.
func (c *Composition) validateEnvironment(o validateOptions) field.ErrorList {
	if c.Spec.Environment == nil {
		return nil
	}
	var errs field.ErrorList
	for j := range c.Spec.Environment.Patches {
		p := field.NewPath("spec", "environment", "patches").Index(j)
		if err := validatePatch(p, &c.Spec.Environment.Patches[j], o.patchTypes()); err != nil {
			errs = append(errs, err)
		}
	}
	return errs
}

// rawType is the patch type as written ("" when absent).
func (p *Patch) rawType() pt.PatchType {
	if p.Type == nil {
		return ""
	}
	return *p.Type
}

// validatePatch is upstream's Patch.Validate: the fields the type needs,
// then the first invalid transform. An empty type is validated as
// FromCompositeFieldPath, but messages print the type as written.
func validatePatch(p *field.Path, pa *Patch, types []pt.PatchType) *field.Error {
	raw := pa.rawType()
	t := raw
	if t == "" {
		t = pt.PatchTypeFromCompositeFieldPath
	}
	switch {
	case !slices.Contains(types, t):
		return field.Invalid(p.Child("type"), raw, "unknown patch type")
	case t.IsFieldPath():
		if pa.FromFieldPath == nil {
			return field.Required(p.Child("fromFieldPath"), fmt.Sprintf("fromFieldPath must be set for patch type %s", raw))
		}
	case t == pt.PatchTypePatchSet:
		if pa.PatchSetName == nil {
			return field.Required(p.Child("patchSetName"), fmt.Sprintf("patchSetName must be set for patch type %s", raw))
		}
	case t.IsCombine():
		if pa.Combine == nil {
			return field.Required(p.Child("combine"), fmt.Sprintf("combine must be set for patch type %s", raw))
		}
		if pa.ToFieldPath == nil {
			return field.Required(p.Child("toFieldPath"), fmt.Sprintf("toFieldPath must be set for patch type %s", raw))
		}
	}
	for i := range pa.Transforms {
		if err := validateTransform(p.Child("transforms").Index(i), &pa.Transforms[i]); err != nil {
			return err
		}
	}
	return nil
}

func validateTransform(p *field.Path, t *Transform) *field.Error {
	switch t.Type {
	case pt.TransformTypeMath:
		if t.Math == nil {
			return field.Required(p.Child("math"), "given transform type math requires configuration")
		}
		return validateMath(p.Child("math"), t.Math)
	case pt.TransformTypeMap:
		if t.Map == nil {
			return field.Required(p.Child("map"), "given transform type map requires configuration")
		}
		if len(t.Map.Pairs) == 0 {
			return field.Required(p.Child("map", "pairs"), "at least one pair must be specified if a map transform is specified")
		}
		return nil
	case pt.TransformTypeMatch:
		if t.Match == nil {
			return field.Required(p.Child("match"), "given transform type match requires configuration")
		}
		return validateMatch(p.Child("match"), t.Match)
	case pt.TransformTypeString:
		if t.String == nil {
			return field.Required(p.Child("string"), "given transform type string requires configuration")
		}
		return validateString(p.Child("string"), t.String)
	case pt.TransformTypeConvert:
		if t.Convert == nil {
			return field.Required(p.Child("convert"), "given transform type convert requires configuration")
		}
		return validateConvert(p.Child("convert"), t.Convert)
	default:
		return field.Invalid(p.Child("type"), t.Type, "unknown transform type")
	}
}

func validateMath(p *field.Path, m *MathTransform) *field.Error {
	var raw pt.MathTransformType
	if m.Type != nil {
		raw = *m.Type
	}
	t := raw
	if t == "" {
		t = pt.MathTransformTypeMultiply
	}
	switch t {
	case pt.MathTransformTypeMultiply:
		if m.Multiply == nil {
			return field.Required(p.Child("multiply"), "must specify a value if a multiply math transform is specified")
		}
	case pt.MathTransformTypeClampMin:
		if m.ClampMin == nil {
			return field.Required(p.Child("clampMin"), "must specify a value if a clamp min math transform is specified")
		}
	case pt.MathTransformTypeClampMax:
		if m.ClampMax == nil {
			return field.Required(p.Child("clampMax"), "must specify a value if a clamp max math transform is specified")
		}
	default:
		return field.Invalid(p.Child("type"), raw, "unknown math transform type")
	}
	return nil
}

func validateMatch(p *field.Path, m *MatchTransform) *field.Error {
	if len(m.Patterns) == 0 {
		return field.Required(p.Child("patterns"), "at least one pattern must be specified if a match transform is specified")
	}
	for i, pat := range m.Patterns {
		pp := p.Child("patterns").Index(i)
		var t pt.MatchPatternType
		if pat.Type != nil {
			t = *pat.Type
		}
		switch t {
		case pt.MatchPatternTypeLiteral, "":
			if pat.Literal == nil {
				return field.Required(pp.Child("literal"), "literal pattern type requires a literal")
			}
		case pt.MatchPatternTypeRegexp:
			if pat.Regexp == nil {
				return field.Required(pp.Child("regexp"), "regexp pattern type requires a regexp")
			}
			if _, err := regexp.Compile(*pat.Regexp); err != nil {
				return field.Invalid(pp.Child("regexp"), *pat.Regexp, "invalid regexp")
			}
		default:
			return field.Invalid(pp.Child("type"), t, "unknown pattern type")
		}
	}
	return nil
}

func validateString(p *field.Path, s *StringTransform) *field.Error {
	var t pt.StringTransformType
	if s.Type != nil {
		t = *s.Type
	}
	switch t {
	case pt.StringTransformTypeFormat, "":
		if s.Format == nil {
			return field.Required(p.Child("fmt"), "format transform requires a format")
		}
	case pt.StringTransformTypeConvert:
		if s.Convert == nil {
			return field.Required(p.Child("convert"), "convert transform requires a conversion type")
		}
	case pt.StringTransformTypeTrimPrefix, pt.StringTransformTypeTrimSuffix:
		if s.Trim == nil {
			return field.Required(p.Child("trim"), "trim transform requires a trim value")
		}
	case pt.StringTransformTypeRegexp:
		if s.Regexp == nil {
			return field.Required(p.Child("regexp"), "regexp transform requires a regexp")
		}
		if s.Regexp.Match == "" {
			return field.Required(p.Child("regexp", "match"), "regexp transform requires a match")
		}
		if _, err := regexp.Compile(s.Regexp.Match); err != nil {
			return field.Invalid(p.Child("regexp", "match"), s.Regexp.Match, "invalid regexp")
		}
	case pt.StringTransformTypeJoin:
		if s.Join == nil {
			return field.Required(p.Child("join"), "join transform requires a join")
		}
	default:
		// Replace lands here: native Crossplane has no such string type.
		return field.Invalid(p.Child("type"), t, "unknown string transform type")
	}
	return nil
}

func validateConvert(p *field.Path, c *ConvertTransform) *field.Error {
	f := pt.ConvertTransformFormatNone
	if c.Format != nil {
		f = *c.Format
	}
	if !slices.Contains(convertFormats, f) {
		return field.Invalid(p.Child("format"), f, "invalid format")
	}
	if !slices.Contains(convertTypes, c.ToType) {
		return field.Invalid(p.Child("toType"), c.ToType, "invalid type")
	}
	return nil
}

// validateReadinessCheck is upstream's ReadinessCheck.Validate. "" and 0
// stand for unset match values.
func validateReadinessCheck(p *field.Path, r *ReadinessCheck) *field.Error {
	if !slices.Contains(readinessCheckTypes, r.Type) {
		return field.Invalid(p.Child("type"), string(r.Type), "unknown readiness check type")
	}
	switch r.Type {
	case pt.ReadinessCheckTypeNone:
		return nil
	case pt.ReadinessCheckTypeMatchString:
		if r.MatchString == "" {
			return field.Required(p.Child("matchString"), "cannot be empty for type MatchString")
		}
	case pt.ReadinessCheckTypeMatchInteger:
		if r.MatchInteger == 0 {
			return field.Required(p.Child("matchInteger"), "cannot be 0 for type MatchInteger")
		}
	case pt.ReadinessCheckTypeMatchCondition:
		mc := r.MatchCondition
		if mc == nil {
			return nil
		}
		if mc.Type == nil || *mc.Type == "" {
			return field.Required(p.Child("matchCondition", "type"), "cannot be empty for type MatchCondition")
		}
		if mc.Status == nil || *mc.Status == "" {
			return field.Required(p.Child("matchCondition", "status"), "cannot be empty for type MatchCondition")
		}
		return nil
	}
	if r.FieldPath == "" {
		return field.Required(p.Child("fieldPath"), "cannot be empty")
	}
	return nil
}
