package function

import (
	"fmt"
	"regexp"

	"k8s.io/apimachinery/pkg/util/validation/field"

	pt "github.com/xpmigrate/xpmigrate/patchandtransform"
)

// Validate checks the input as function-patch-and-transform does before it
// renders anything, and returns the first problem or nil. Paths are relative
// to the input root, such as `resources[0].patches[1].fromFieldPath`.
//
// The order is upstream's: patch sets, then "resources or environment
// patches", then each template, then the environment patches. Upstream's
// quirks are kept:
//
//   - a patch set's error has no `patchSets[i]` prefix;
//   - the policy of a patch is reported at `policy.toFieldPathPolicy` and
//     `policy.fromFieldPathPolicy`, names that are not in the schema;
//   - the transforms and policy of a Combine patch are not checked;
//   - a match pattern with an empty type passes (it fails when run);
//   - writeConnectionSecretToRef is not checked at all;
//   - duplicate template names pass (the later template wins).
//
// One rule is the toolkit's own: a MatchCondition readiness check without
// `matchCondition` is rejected, because upstream passes it and then crashes
// while checking readiness.
//
// Note that the result is a *field.Error: compare it with nil before
// storing it in an error variable.
func (r *Resources) Validate() *field.Error {
	for _, ps := range r.PatchSets {
		if err := validatePatchSet(ps); err != nil {
			return err
		}
	}
	if len(r.Resources) == 0 && (r.Environment == nil || len(r.Environment.Patches) == 0) {
		return field.Required(field.NewPath("resources"), "resources or environment patches are required")
	}
	for i, t := range r.Resources {
		if err := validateTemplate(t); err != nil {
			return under(field.NewPath("resources").Index(i), err)
		}
	}
	if err := validateEnvironment(r.Environment); err != nil {
		return under(field.NewPath("environment"), err)
	}
	return nil
}

// under re-roots a relative field error at prefix.
func under(prefix *field.Path, err *field.Error) *field.Error {
	if err == nil {
		return nil
	}
	out := *err
	out.Field = prefix.Child(err.Field).String()
	return &out
}

func validatePatchSet(ps PatchSet) *field.Error {
	if ps.Name == "" {
		return field.Required(field.NewPath("name"), "name is required")
	}
	for i := range ps.Patches {
		p := &ps.Patches[i]
		if pt.PatchType(p.effectiveType()) == pt.PatchTypePatchSet {
			// Upstream names the Go type of the patch here.
			return under(field.NewPath("patches").Index(i), field.Invalid(field.NewPath("type"), p.effectiveType(),
				fmt.Sprintf("patch type *v1beta1.PatchSetPatch does not support patch of type %s", p.effectiveType())))
		}
		if err := validatePatch(p.effectiveType(), &p.Patch, nil); err != nil {
			return under(field.NewPath("patches").Index(i), err)
		}
	}
	return nil
}

func validateTemplate(t ComposedTemplate) *field.Error {
	if t.Name == "" {
		return field.Required(field.NewPath("name"), "name is required")
	}
	for i := range t.Patches {
		p := &t.Patches[i]
		if err := validatePatch(p.effectiveType(), &p.Patch, p.PatchSetName); err != nil {
			return under(field.NewPath("patches").Index(i), err)
		}
	}
	for i, cd := range t.ConnectionDetails {
		if err := validateConnectionDetail(cd); err != nil {
			return under(field.NewPath("connectionDetails").Index(i), err)
		}
	}
	for i, rc := range t.ReadinessChecks {
		if err := validateReadinessCheck(rc); err != nil {
			return under(field.NewPath("readinessChecks").Index(i), err)
		}
	}
	return nil
}

func validateEnvironment(e *Environment) *field.Error {
	if e == nil {
		return nil
	}
	for i := range e.Patches {
		p := &e.Patches[i]
		switch t := p.effectiveType(); pt.PatchType(t) {
		case pt.PatchTypeFromCompositeFieldPath, pt.PatchTypeToCompositeFieldPath,
			pt.PatchTypeCombineFromComposite, pt.PatchTypeCombineToComposite,
			pt.PatchTypeFromEnvironmentFieldPath, pt.PatchTypeToEnvironmentFieldPath:
		default:
			return field.Invalid(field.NewPath("patches").Index(i).Key("type"), t, "invalid environment patch type")
		}
		if err := validatePatch(p.effectiveType(), &p.Patch, nil); err != nil {
			return under(field.NewPath("patches").Index(i), err)
		}
	}
	return nil
}

// validatePatch checks one patch of effective type t. patchSetName is the
// patch's patchSetName; only template patches have one.
func validatePatch(t PatchType, p *Patch, patchSetName *string) *field.Error {
	switch pt.PatchType(t) {
	case pt.PatchTypeFromCompositeFieldPath, pt.PatchTypeToCompositeFieldPath,
		pt.PatchTypeFromEnvironmentFieldPath, pt.PatchTypeToEnvironmentFieldPath:
		if p.FromFieldPath == nil || *p.FromFieldPath == "" {
			return field.Required(field.NewPath("fromFieldPath"), fmt.Sprintf("fromFieldPath must be set for patch type %s", t))
		}
	case pt.PatchTypePatchSet:
		if patchSetName == nil || *patchSetName == "" {
			return field.Required(field.NewPath("patchSetName"), fmt.Sprintf("patchSetName must be set for patch type %s", t))
		}
	case pt.PatchTypeCombineFromComposite, pt.PatchTypeCombineToComposite,
		pt.PatchTypeCombineFromEnvironment, pt.PatchTypeCombineToEnvironment:
		if p.Combine == nil {
			return field.Required(field.NewPath("combine"), fmt.Sprintf("combine must be set for patch type %s", t))
		}
		if p.effectiveToFieldPath() == "" {
			return field.Required(field.NewPath("toFieldPath"), fmt.Sprintf("toFieldPath must be set for patch type %s", t))
		}
		// Upstream returns here: a Combine patch's transforms and policy
		// are never checked.
		return under(field.NewPath("combine"), validateCombine(p.Combine))
	default:
		return field.Invalid(field.NewPath("type"), t, "unknown patch type")
	}
	for i, tr := range p.Transforms {
		if err := validateTransform(tr); err != nil {
			return under(field.NewPath("transforms").Index(i), err)
		}
	}
	if p.Policy == nil {
		return nil
	}
	if _, ok := mergeOptions(p.Policy.toFieldPath()); !ok {
		return field.Invalid(field.NewPath("policy", "toFieldPathPolicy"), p.Policy.toFieldPath(), "unknown toFieldPathPolicy")
	}
	switch from := p.Policy.fromFieldPath(); pt.FromFieldPathPolicy(from) {
	case pt.FromFieldPathPolicyOptional, pt.FromFieldPathPolicyRequired:
	default:
		return field.Invalid(field.NewPath("policy", "fromFieldPathPolicy"), from, "unknown fromFieldPathPolicy")
	}
	return nil
}

func validateCombine(c *Combine) *field.Error {
	switch pt.CombineStrategy(c.Strategy) {
	case pt.CombineStrategyString:
		if c.String == nil {
			return field.Required(field.NewPath("string"), fmt.Sprintf("string must be set for combine strategy %s", c.Strategy))
		}
	case "":
		return field.Required(field.NewPath("strategy"), "a combine strategy must be provided")
	default:
		return field.Invalid(field.NewPath("strategy"), c.Strategy, "unknown strategy type")
	}
	if len(c.Variables) == 0 {
		return field.Required(field.NewPath("variables"), "at least one variable must be provided")
	}
	for i, v := range c.Variables {
		if v.FromFieldPath == "" {
			return field.Required(field.NewPath("variables").Index(i).Child("fromFieldPath"), "fromFieldPath must be set for each combine variable")
		}
	}
	return nil
}

func validateTransform(t Transform) *field.Error {
	switch pt.TransformType(t.Type) {
	case pt.TransformTypeMath:
		if t.Math == nil {
			return field.Required(field.NewPath("math"), "given transform type math requires configuration")
		}
		return under(field.NewPath("math"), validateMath(t.Math))
	case pt.TransformTypeMap:
		if t.Map == nil {
			return field.Required(field.NewPath("map"), "given transform type map requires configuration")
		}
		return under(field.NewPath("map"), validateMap(t.Map))
	case pt.TransformTypeMatch:
		if t.Match == nil {
			return field.Required(field.NewPath("match"), "given transform type match requires configuration")
		}
		return under(field.NewPath("match"), validateMatch(t.Match))
	case pt.TransformTypeString:
		if t.String == nil {
			return field.Required(field.NewPath("string"), "given transform type string requires configuration")
		}
		return under(field.NewPath("string"), validateString(t.String))
	case pt.TransformTypeConvert:
		if t.Convert == nil {
			return field.Required(field.NewPath("convert"), "given transform type convert requires configuration")
		}
		return under(field.NewPath("convert"), validateConvert(t.Convert))
	default:
		return field.Invalid(field.NewPath("type"), t.Type, "unknown transform type")
	}
}

func validateMath(m *MathTransform) *field.Error {
	switch pt.MathTransformType(m.Type) {
	case "":
		return field.Required(field.NewPath("type"), "math transform type is required")
	case pt.MathTransformTypeMultiply:
		if m.Multiply == nil {
			return field.Required(field.NewPath("multiply"), "must specify a value if a multiply math transform is specified")
		}
	case pt.MathTransformTypeClampMin:
		if m.ClampMin == nil {
			return field.Required(field.NewPath("clampMin"), "must specify a value if a clamp min math transform is specified")
		}
	case pt.MathTransformTypeClampMax:
		if m.ClampMax == nil {
			return field.Required(field.NewPath("clampMax"), "must specify a value if a clamp max math transform is specified")
		}
	default:
		return field.Invalid(field.NewPath("type"), m.Type, "unknown math transform type")
	}
	return nil
}

func validateMap(m *MapTransform) *field.Error {
	if len(m.Pairs) == 0 {
		return field.Required(field.NewPath("pairs"), "at least one pair must be specified if a map transform is specified")
	}
	return nil
}

func validateMatch(m *MatchTransform) *field.Error {
	if len(m.Patterns) == 0 {
		return field.Required(field.NewPath("patterns"), "at least one pattern must be specified if a match transform is specified")
	}
	for i, p := range m.Patterns {
		if err := validateMatchPattern(p); err != nil {
			return under(field.NewPath("patterns").Index(i), err)
		}
	}
	return nil
}

func validateMatchPattern(p MatchTransformPattern) *field.Error {
	switch pt.MatchPatternType(p.Type) {
	case pt.MatchPatternTypeLiteral, "":
		// An empty type passes here and fails when the transform runs.
		if p.Literal == nil {
			return field.Required(field.NewPath("literal"), "literal pattern type requires a literal")
		}
	case pt.MatchPatternTypeRegexp:
		if p.Regexp == nil {
			return field.Required(field.NewPath("regexp"), "regexp pattern type requires a regexp")
		}
		if _, err := regexp.Compile(*p.Regexp); err != nil {
			return field.Invalid(field.NewPath("regexp"), *p.Regexp, "invalid regexp")
		}
	default:
		return field.Invalid(field.NewPath("type"), p.Type, "unknown pattern type")
	}
	return nil
}

func validateString(s *StringTransform) *field.Error {
	switch pt.StringTransformType(s.Type) {
	case "":
		return field.Required(field.NewPath("type"), "string transform type is required")
	case pt.StringTransformTypeFormat:
		if s.Format == nil {
			return field.Required(field.NewPath("fmt"), "format transform requires a format")
		}
	case pt.StringTransformTypeConvert:
		if s.Convert == nil {
			return field.Required(field.NewPath("convert"), "convert transform requires a conversion type")
		}
	case pt.StringTransformTypeTrimPrefix, pt.StringTransformTypeTrimSuffix:
		if s.Trim == nil {
			return field.Required(field.NewPath("trim"), "trim transform requires a trim value")
		}
	case pt.StringTransformTypeRegexp:
		if s.Regexp == nil {
			return field.Required(field.NewPath("regexp"), "regexp transform requires a regexp")
		}
		if s.Regexp.Match == "" {
			return field.Required(field.NewPath("regexp", "match"), "regexp transform requires a match")
		}
		if _, err := regexp.Compile(s.Regexp.Match); err != nil {
			return field.Invalid(field.NewPath("regexp", "match"), s.Regexp.Match, "invalid regexp")
		}
	case pt.StringTransformTypeJoin:
		if s.Join == nil {
			return field.Required(field.NewPath("join"), "join transform requires a join")
		}
	case pt.StringTransformTypeReplace:
		if s.Replace == nil {
			return field.Required(field.NewPath("replace"), "replace transform requires a replace")
		}
		if s.Replace.Search == "" {
			return field.Required(field.NewPath("replace", "search"), "replace transform requires a search")
		}
	default:
		return field.Invalid(field.NewPath("type"), s.Type, "unknown string transform type")
	}
	return nil
}

func validateConvert(c *ConvertTransform) *field.Error {
	if c.Format != nil {
		switch pt.ConvertTransformFormat(*c.Format) {
		case pt.ConvertTransformFormatNone, pt.ConvertTransformFormatQuantity, pt.ConvertTransformFormatJSON:
		default:
			// The bad value is the pointer, as upstream; it prints as its
			// JSON string.
			return field.Invalid(field.NewPath("format"), c.Format, "invalid format")
		}
	}
	switch pt.ConvertTransformType(c.ToType) {
	case pt.ConvertTransformTypeString, pt.ConvertTransformTypeBool, pt.ConvertTransformTypeInt,
		pt.ConvertTransformTypeInt64, pt.ConvertTransformTypeFloat64,
		pt.ConvertTransformTypeObject, pt.ConvertTransformTypeArray:
	default:
		return field.Invalid(field.NewPath("toType"), c.ToType, "invalid type")
	}
	return nil
}

func validateConnectionDetail(cd ConnectionDetail) *field.Error {
	switch pt.ConnectionDetailType(cd.Type) {
	case "":
		return field.Required(field.NewPath("type"), "connection detail type is required")
	case pt.ConnectionDetailTypeFromValue, pt.ConnectionDetailTypeFromConnectionSecretKey, pt.ConnectionDetailTypeFromFieldPath:
	default:
		return field.Invalid(field.NewPath("type"), string(cd.Type), "unknown connection detail type")
	}
	if cd.Name == "" {
		return field.Required(field.NewPath("name"), "name is required")
	}
	switch pt.ConnectionDetailType(cd.Type) {
	case pt.ConnectionDetailTypeFromValue:
		if cd.Value == nil {
			return field.Required(field.NewPath("value"), "value connection detail requires a value")
		}
	case pt.ConnectionDetailTypeFromConnectionSecretKey:
		if cd.FromConnectionSecretKey == nil {
			return field.Required(field.NewPath("fromConnectionSecretKey"), "from connection secret key connection detail requires a key")
		}
	case pt.ConnectionDetailTypeFromFieldPath:
		if cd.FromFieldPath == nil {
			return field.Required(field.NewPath("fromFieldPath"), "from field path connection detail requires a field path")
		}
	}
	return nil
}

func validateReadinessCheck(rc ReadinessCheck) *field.Error {
	switch pt.ReadinessCheckType(rc.Type) {
	case pt.ReadinessCheckTypeNone:
		return nil
	case pt.ReadinessCheckTypeMatchString:
		if rc.MatchString == nil {
			return field.Required(field.NewPath("matchString"), "cannot be nil for type MatchString")
		}
	case pt.ReadinessCheckTypeMatchInteger:
		if rc.MatchInteger == nil {
			return field.Required(field.NewPath("matchInteger"), "cannot be nil for type MatchInteger")
		}
	case pt.ReadinessCheckTypeMatchCondition:
		if rc.MatchCondition == nil {
			// The toolkit's own rule: upstream passes this and then
			// dereferences the nil matchCondition when checking readiness.
			return field.Required(field.NewPath("matchCondition"), "cannot be nil for type MatchCondition")
		}
		if rc.MatchCondition.Type == "" {
			return field.Required(field.NewPath("matchCondition", "type"), "cannot be empty for type MatchCondition")
		}
		if rc.MatchCondition.Status == "" {
			return field.Required(field.NewPath("matchCondition", "status"), "cannot be empty for type MatchCondition")
		}
		return nil
	case pt.ReadinessCheckTypeNonEmpty, pt.ReadinessCheckTypeMatchTrue, pt.ReadinessCheckTypeMatchFalse:
	default:
		return field.Invalid(field.NewPath("type"), string(rc.Type), "unknown readiness check type")
	}
	if rc.FieldPath == nil {
		return field.Required(field.NewPath("fieldPath"), "cannot be empty")
	}
	return nil
}

// ValidateTransforms checks transforms as the function checks those of a
// FromCompositeFieldPath patch, and returns the first error, under
// "transforms[i]". The function never checks a Combine patch's transforms
// (validatePatch returns before them); native Crossplane does, so a
// converter uses this to hold every patch type to the same rules.
func ValidateTransforms(ts []Transform) *field.Error {
	for i, tr := range ts {
		if err := validateTransform(tr); err != nil {
			return under(field.NewPath("transforms").Index(i), err)
		}
	}
	return nil
}
