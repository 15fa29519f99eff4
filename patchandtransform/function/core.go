package function

import (
	"github.com/pkg/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	pt "github.com/xpmigrate/xpmigrate/patchandtransform"
)

// A Template is a resource template in the core's types.
type Template struct {
	// Name is the key of the composed resource in the desired and observed
	// maps. Names are not checked for uniqueness.
	Name string

	// Base is the base as written, or nil when the template has none and
	// patches a resource produced by an earlier pipeline step.
	Base pt.RawJSON

	// Patches are in declared order, PatchSet patches not yet resolved.
	Patches []pt.Patch

	ConnectionDetails []pt.ConnectionDetail

	// ReadinessChecks is empty when none are given; the function then
	// checks for a Ready condition with status True.
	ReadinessChecks []pt.ReadinessCheck
}

// BaseObject parses Base as the function does when it renders the template:
// into an unstructured object whose integral numbers are int64. Only `kind`
// is required, not `apiVersion`. The caller wraps the error as "cannot parse
// base template of composed resource <name>".
func (t Template) BaseObject() (map[string]any, error) {
	if len(t.Base) == 0 {
		return nil, errors.Errorf("composed resource %q has no base template", t.Name)
	}
	u := &unstructured.Unstructured{}
	if err := u.UnmarshalJSON(t.Base); err != nil {
		return nil, err
	}
	return u.Object, nil
}

// A ConnectionSecretRef is the input's writeConnectionSecretToRef in the
// core's types.
type ConnectionSecretRef struct {
	Name      string
	Namespace string

	// Patches are applied from the observed XR onto an object holding
	// `name` and `namespace`. Only FromCompositeFieldPath and
	// CombineFromComposite are supported; the function rejects other
	// types when it applies them, not when it validates the input.
	Patches []pt.Patch
}

// CorePatchSets returns the patch sets, each patch with its effective type.
func (r *Resources) CorePatchSets() []pt.PatchSet {
	if len(r.PatchSets) == 0 {
		return nil
	}
	out := make([]pt.PatchSet, len(r.PatchSets))
	for i, ps := range r.PatchSets {
		out[i] = pt.PatchSet{Name: ps.Name}
		if len(ps.Patches) == 0 {
			continue
		}
		out[i].Patches = make([]pt.Patch, len(ps.Patches))
		for j := range ps.Patches {
			p := &ps.Patches[j]
			out[i].Patches[j] = corePatch(p.effectiveType(), &p.Patch, nil)
		}
	}
	return out
}

// EnvironmentPatches returns the environment patches, each with its
// effective type. The engine routes them by type: FromCompositeFieldPath,
// ToEnvironmentFieldPath and CombineFromComposite read the observed XR and
// write the environment; ToCompositeFieldPath, FromEnvironmentFieldPath and
// CombineToComposite read the environment and write the desired XR.
func (r *Resources) EnvironmentPatches() []pt.Patch {
	if r.Environment == nil || len(r.Environment.Patches) == 0 {
		return nil
	}
	out := make([]pt.Patch, len(r.Environment.Patches))
	for i := range r.Environment.Patches {
		p := &r.Environment.Patches[i]
		out[i] = corePatch(p.effectiveType(), &p.Patch, nil)
	}
	return out
}

// Templates returns the resource templates in declared order.
func (r *Resources) Templates() []Template {
	if len(r.Resources) == 0 {
		return nil
	}
	out := make([]Template, len(r.Resources))
	for i, t := range r.Resources {
		out[i] = coreTemplate(t)
	}
	return out
}

// ConnectionSecretRef returns writeConnectionSecretToRef, or nil when the
// input has none.
func (r *Resources) ConnectionSecretRef() *ConnectionSecretRef {
	ref := r.WriteConnectionSecretToRef
	if ref == nil {
		return nil
	}
	out := &ConnectionSecretRef{Name: ref.Name, Namespace: ref.Namespace}
	if len(ref.Patches) > 0 {
		out.Patches = make([]pt.Patch, len(ref.Patches))
		for i := range ref.Patches {
			p := &ref.Patches[i]
			out.Patches[i] = corePatch(p.effectiveType(), &p.Patch, nil)
		}
	}
	return out
}

func coreTemplate(t ComposedTemplate) Template {
	out := Template{Name: t.Name}
	if t.Base != nil {
		out.Base = pt.RawJSON(cloneBytes(*t.Base))
	}
	if len(t.Patches) > 0 {
		out.Patches = make([]pt.Patch, len(t.Patches))
		for i := range t.Patches {
			p := &t.Patches[i]
			out.Patches[i] = corePatch(p.effectiveType(), &p.Patch, p.PatchSetName)
		}
	}
	if len(t.ConnectionDetails) > 0 {
		out.ConnectionDetails = make([]pt.ConnectionDetail, len(t.ConnectionDetails))
		for i, cd := range t.ConnectionDetails {
			out.ConnectionDetails[i] = pt.ConnectionDetail{
				Name:                    cd.Name,
				Type:                    pt.ConnectionDetailType(cd.Type),
				FromConnectionSecretKey: clone(cd.FromConnectionSecretKey),
				FromFieldPath:           clone(cd.FromFieldPath),
				Value:                   clone(cd.Value),
			}
		}
	}
	if len(t.ReadinessChecks) > 0 {
		out.ReadinessChecks = make([]pt.ReadinessCheck, len(t.ReadinessChecks))
		for i, rc := range t.ReadinessChecks {
			c := pt.ReadinessCheck{
				Type:         pt.ReadinessCheckType(rc.Type),
				FieldPath:    clone(rc.FieldPath),
				MatchString:  clone(rc.MatchString),
				MatchInteger: clone(rc.MatchInteger),
			}
			if mc := rc.MatchCondition; mc != nil {
				c.MatchCondition = &pt.MatchConditionReadinessCheck{Type: mc.Type, Status: mc.Status}
			}
			out.ReadinessChecks[i] = c
		}
	}
	return out
}

// The function's code defaults. An empty patch type means
// FromCompositeFieldPath in every patch kind.

func effectiveType(t PatchType) PatchType {
	if t == "" {
		return PatchType(pt.PatchTypeFromCompositeFieldPath)
	}
	return t
}

func (p *ComposedPatch) effectiveType() PatchType         { return effectiveType(p.Type) }
func (p *PatchSetPatch) effectiveType() PatchType         { return effectiveType(p.Type) }
func (p *EnvironmentPatch) effectiveType() PatchType      { return effectiveType(p.Type) }
func (p *ConnectionSecretPatch) effectiveType() PatchType { return effectiveType(p.Type) }

// effectiveToFieldPath is toFieldPath, or fromFieldPath when it is unset (not
// when it is empty).
func (p *Patch) effectiveToFieldPath() string {
	switch {
	case p.ToFieldPath != nil:
		return *p.ToFieldPath
	case p.FromFieldPath != nil:
		return *p.FromFieldPath
	}
	return ""
}

func (pp *PatchPolicy) toFieldPath() ToFieldPathPolicy {
	if pp == nil || pp.ToFieldPath == nil {
		return ToFieldPathPolicyReplace
	}
	return *pp.ToFieldPath
}

func (pp *PatchPolicy) fromFieldPath() FromFieldPathPolicy {
	if pp == nil || pp.FromFieldPath == nil {
		return FromFieldPathPolicy(pt.FromFieldPathPolicyOptional)
	}
	return *pp.FromFieldPath
}

// mergeOptions maps policy.toFieldPath onto merge options, as the function
// does when it applies a patch. Replace is nil; ForceMergeObjects is a
// non-nil override merge. It reports false for an unknown policy.
func mergeOptions(p ToFieldPathPolicy) (*pt.MergeOptions, bool) {
	yes, no := true, false
	switch p {
	case ToFieldPathPolicyReplace:
		return nil, true
	case ToFieldPathPolicyMergeObjects, ToFieldPathPolicyMergeObject:
		return &pt.MergeOptions{KeepMapValues: &yes}, true
	case ToFieldPathPolicyMergeObjectsAppendArrays:
		return &pt.MergeOptions{KeepMapValues: &yes, AppendSlice: &yes}, true
	case ToFieldPathPolicyForceMergeObjects:
		return &pt.MergeOptions{KeepMapValues: &no}, true
	case ToFieldPathPolicyForceMergeObjectsAppendArrays, ToFieldPathPolicyAppendArray:
		return &pt.MergeOptions{AppendSlice: &yes}, true
	}
	return nil, false
}

func corePatch(t PatchType, p *Patch, patchSetName *string) pt.Patch {
	out := pt.Patch{
		Type:          pt.PatchType(t),
		FromFieldPath: clone(p.FromFieldPath),
		ToFieldPath:   clone(p.ToFieldPath),
		PatchSetName:  clone(patchSetName),
		Policy:        corePolicy(p.Policy),
	}
	if c := p.Combine; c != nil {
		out.Combine = &pt.Combine{Strategy: pt.CombineStrategy(c.Strategy)}
		if len(c.Variables) > 0 {
			out.Combine.Variables = make([]pt.CombineVariable, len(c.Variables))
			for i, v := range c.Variables {
				out.Combine.Variables[i] = pt.CombineVariable{FromFieldPath: v.FromFieldPath}
			}
		}
		if c.String != nil {
			out.Combine.String = &pt.StringCombine{Format: c.String.Format}
		}
	}
	if len(p.Transforms) > 0 {
		out.Transforms = make([]pt.Transform, len(p.Transforms))
		for i, tr := range p.Transforms {
			out.Transforms[i] = coreTransform(tr)
		}
	}
	return out
}

// corePolicy converts a policy. An absent or empty policy is nil. An unknown
// toFieldPath, which validation rejects everywhere but in the unvalidated
// connection Secret patches, becomes nil merge options.
func corePolicy(pp *PatchPolicy) *pt.Policy {
	if pp == nil {
		return nil
	}
	mo, _ := mergeOptions(pp.toFieldPath())
	from := convert[FromFieldPathPolicy, pt.FromFieldPathPolicy](pp.FromFieldPath)
	if mo == nil && from == nil {
		return nil
	}
	return &pt.Policy{FromFieldPath: from, MergeOptions: mo}
}

func coreTransform(t Transform) pt.Transform {
	out := pt.Transform{Type: pt.TransformType(t.Type)}
	if m := t.Math; m != nil {
		out.Math = &pt.MathTransform{
			Type:     pt.MathTransformType(m.Type),
			Multiply: clone(m.Multiply),
			ClampMin: clone(m.ClampMin),
			ClampMax: clone(m.ClampMax),
		}
	}
	if m := t.Map; m != nil {
		out.Map = &pt.MapTransform{Pairs: make(map[string]pt.RawJSON, len(m.Pairs))}
		for k, v := range m.Pairs {
			out.Map.Pairs[k] = pt.RawJSON(cloneBytes(v))
		}
	}
	if m := t.Match; m != nil {
		out.Match = &pt.MatchTransform{
			FallbackValue: pt.RawJSON(cloneBytes(m.FallbackValue)),
			FallbackTo:    pt.MatchFallbackTo(m.FallbackTo),
		}
		if len(m.Patterns) > 0 {
			out.Match.Patterns = make([]pt.MatchPattern, len(m.Patterns))
			for i, p := range m.Patterns {
				out.Match.Patterns[i] = pt.MatchPattern{
					Type:    pt.MatchPatternType(p.Type),
					Literal: clone(p.Literal),
					Regexp:  clone(p.Regexp),
					Result:  pt.RawJSON(cloneBytes(p.Result)),
				}
			}
		}
	}
	if s := t.String; s != nil {
		out.String = &pt.StringTransform{
			Type:    pt.StringTransformType(s.Type),
			Format:  clone(s.Format),
			Convert: convert[StringConversionType, pt.StringConversionType](s.Convert),
			Trim:    clone(s.Trim),
		}
		if s.Regexp != nil {
			out.String.Regexp = &pt.StringTransformRegexp{Match: s.Regexp.Match, Group: clone(s.Regexp.Group)}
		}
		if s.Join != nil {
			out.String.Join = &pt.StringTransformJoin{Separator: s.Join.Separator}
		}
		if s.Replace != nil {
			out.String.Replace = &pt.StringTransformReplace{Search: s.Replace.Search, Replace: s.Replace.Replace}
		}
	}
	if c := t.Convert; c != nil {
		out.Convert = &pt.ConvertTransform{
			ToType: pt.ConvertTransformType(c.ToType),
			Format: convert[ConvertTransformFormat, pt.ConvertTransformFormat](c.Format),
		}
	}
	return out
}

func clone[T any](p *T) *T {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}

func convert[T, U ~string](p *T) *U {
	if p == nil {
		return nil
	}
	v := U(*p)
	return &v
}

func cloneBytes[B ~[]byte](b B) []byte {
	if len(b) == 0 {
		return nil
	}
	return append([]byte(nil), b...)
}
