package native

import (
	"encoding/json"

	"github.com/pkg/errors"
	kjson "k8s.io/apimachinery/pkg/util/json"

	pt "github.com/xpmigrate/xpmigrate/patchandtransform"
)

// This file converts the native shapes to the neutral core types. The
// conversions copy: the core values share no memory with the Composition.
// Types are converted as written, so a patch that was not defaulted keeps
// an empty type (Q-1, docs/semantics/legacy.md#quirks).

// PatchSets returns the Composition's patch sets in order, duplicates
// included (expanding them, where the last definition of a name wins, is
// the composer's business).
func (c *Composition) PatchSets() []pt.PatchSet {
	if len(c.Spec.PatchSets) == 0 {
		return nil
	}
	out := make([]pt.PatchSet, len(c.Spec.PatchSets))
	for i, ps := range c.Spec.PatchSets {
		out[i] = pt.PatchSet{Name: ps.Name, Patches: convertPatches(ps.Patches)}
	}
	return out
}

// EnvironmentPatches returns spec.environment.patches, or nil if there are
// none. In them "composite" is the composite resource and "composed" the
// environment. They are returned whatever the target: whether they run
// (only on v1.17 with environment configs enabled) is the composer's call.
func (c *Composition) EnvironmentPatches() []pt.Patch {
	if c.Spec.Environment == nil {
		return nil
	}
	return convertPatches(c.Spec.Environment.Patches)
}

// A Template is one entry of spec.resources in core types, ready for the
// composer.
type Template struct {
	// Name is "" for an anonymous template.
	Name string

	// Base is the template object as the API server stores it (compact JSON,
	// sorted keys, once decoded by Decode). Crossplane's own errors about a
	// base quote these bytes.
	Base json.RawMessage

	// Patches are the template's patches as written, PatchSet references
	// included.
	Patches []pt.Patch

	// ConnectionDetails have Type and Name resolved; see
	// ComposedTemplate.CoreConnectionDetails.
	ConnectionDetails []pt.ConnectionDetail

	// ReadinessChecks are never empty; see
	// ComposedTemplate.CoreReadinessChecks.
	ReadinessChecks []pt.ReadinessCheck
}

// Templates returns spec.resources in core types, in order.
func (c *Composition) Templates() []Template {
	if len(c.Spec.Resources) == 0 {
		return nil
	}
	out := make([]Template, len(c.Spec.Resources))
	for i := range c.Spec.Resources {
		out[i] = c.Spec.Resources[i].Core()
	}
	return out
}

// Core returns the template in core types.
func (t *ComposedTemplate) Core() Template {
	return Template{
		Name:              t.GetName(),
		Base:              append(json.RawMessage(nil), t.Base...),
		Patches:           t.CorePatches(),
		ConnectionDetails: t.CoreConnectionDetails(),
		ReadinessChecks:   t.CoreReadinessChecks(),
	}
}

// CorePatches returns the template's patches as written, PatchSet
// references included.
func (t *ComposedTemplate) CorePatches() []pt.Patch {
	return convertPatches(t.Patches)
}

// Object decodes the template's base with the Kubernetes JSON decoder, as
// Crossplane does: integral numbers are int64, others float64. It fails if
// the base is absent or not a JSON object. It does not require apiVersion
// or kind: Crossplane's own failure for a base without kind ("cannot
// unmarshal JSON data: Object 'Kind' is missing in '...'") is the
// composer's to reproduce, from Base.
func (t Template) Object() (map[string]any, error) {
	if isNull(t.Base) {
		return nil, errors.New("cannot decode base: base is not set")
	}
	var v any
	if err := kjson.Unmarshal(t.Base, &v); err != nil {
		return nil, errors.Wrap(err, "cannot decode base")
	}
	o, ok := v.(map[string]any)
	if !ok {
		return nil, errors.Errorf("cannot decode base: base is a JSON %s, not an object", jsonTypeName(v))
	}
	return o, nil
}

// CoreConnectionDetails returns the template's connection details with Type
// and Name resolved as Crossplane resolves them (docs/semantics/legacy.md#connection-details):
//
//   - Type: the explicit type; else FromValue if value is set; else
//     FromConnectionSecretKey if fromConnectionSecretKey is set; else
//     FromFieldPath if fromFieldPath is set; else FromConnectionSecretKey;
//   - Name: the explicit name (even ""); else, if the type is
//     FromConnectionSecretKey and fromConnectionSecretKey is set, that key;
//     else "". An empty name is a fatal error at run time, not here.
func (t *ComposedTemplate) CoreConnectionDetails() []pt.ConnectionDetail {
	if len(t.ConnectionDetails) == 0 {
		return nil
	}
	out := make([]pt.ConnectionDetail, len(t.ConnectionDetails))
	for i, d := range t.ConnectionDetails {
		o := pt.ConnectionDetail{
			Type:                    connectionDetailType(d),
			FromConnectionSecretKey: clone(d.FromConnectionSecretKey),
			FromFieldPath:           clone(d.FromFieldPath),
			Value:                   clone(d.Value),
		}
		switch {
		case d.Name != nil:
			o.Name = *d.Name
		case o.Type == pt.ConnectionDetailTypeFromConnectionSecretKey && d.FromConnectionSecretKey != nil:
			o.Name = *d.FromConnectionSecretKey
		}
		out[i] = o
	}
	return out
}

func connectionDetailType(d ConnectionDetail) pt.ConnectionDetailType {
	switch {
	case d.Type != nil:
		return *d.Type
	case d.Value != nil:
		return pt.ConnectionDetailTypeFromValue
	case d.FromConnectionSecretKey != nil:
		return pt.ConnectionDetailTypeFromConnectionSecretKey
	case d.FromFieldPath != nil:
		return pt.ConnectionDetailTypeFromFieldPath
	default:
		return pt.ConnectionDetailTypeFromConnectionSecretKey
	}
}

// CoreReadinessChecks returns the template's readiness checks. The native
// "unset" values become nil: fieldPath "", matchString "" and
// matchInteger 0. No checks at all (the key absent and not defaulted, or
// written as []) yields the default check, MatchCondition Ready True, which
// is how Crossplane treats an empty list.
func (t *ComposedTemplate) CoreReadinessChecks() []pt.ReadinessCheck {
	rcs := t.ReadinessChecks
	if len(rcs) == 0 {
		rcs = DefaultReadinessChecks()
	}
	out := make([]pt.ReadinessCheck, len(rcs))
	for i, r := range rcs {
		o := pt.ReadinessCheck{Type: r.Type}
		if r.FieldPath != "" {
			o.FieldPath = ptrTo(r.FieldPath)
		}
		if r.MatchString != "" {
			o.MatchString = ptrTo(r.MatchString)
		}
		if r.MatchInteger != 0 {
			o.MatchInteger = ptrTo(r.MatchInteger)
		}
		if mc := r.MatchCondition; mc != nil {
			o.MatchCondition = &pt.MatchConditionReadinessCheck{Type: deref(mc.Type), Status: deref(mc.Status)}
		}
		out[i] = o
	}
	return out
}

func convertPatches(ps []Patch) []pt.Patch {
	if len(ps) == 0 {
		return nil
	}
	out := make([]pt.Patch, len(ps))
	for i := range ps {
		out[i] = convertPatch(&ps[i])
	}
	return out
}

func convertPatch(p *Patch) pt.Patch {
	o := pt.Patch{
		Type:          p.rawType(),
		FromFieldPath: clone(p.FromFieldPath),
		ToFieldPath:   clone(p.ToFieldPath),
		PatchSetName:  clone(p.PatchSetName),
	}
	if c := p.Combine; c != nil {
		oc := &pt.Combine{Strategy: c.Strategy}
		if len(c.Variables) > 0 {
			oc.Variables = make([]pt.CombineVariable, len(c.Variables))
			for i, v := range c.Variables {
				oc.Variables[i] = pt.CombineVariable{FromFieldPath: v.FromFieldPath}
			}
		}
		if c.String != nil {
			oc.String = &pt.StringCombine{Format: c.String.Format}
		}
		o.Combine = oc
	}
	if len(p.Transforms) > 0 {
		o.Transforms = make([]pt.Transform, len(p.Transforms))
		for i := range p.Transforms {
			o.Transforms[i] = convertTransform(&p.Transforms[i])
		}
	}
	if p.Policy != nil {
		o.Policy = &pt.Policy{FromFieldPath: clone(p.Policy.FromFieldPath)}
		if mo := p.Policy.MergeOptions; mo != nil {
			o.Policy.MergeOptions = &pt.MergeOptions{
				KeepMapValues: clone(mo.KeepMapValues),
				AppendSlice:   clone(mo.AppendSlice),
			}
		}
	}
	return o
}

func convertTransform(t *Transform) pt.Transform {
	o := pt.Transform{Type: t.Type}
	if m := t.Math; m != nil {
		o.Math = &pt.MathTransform{
			Type:     deref(m.Type),
			Multiply: clone(m.Multiply),
			ClampMin: clone(m.ClampMin),
			ClampMax: clone(m.ClampMax),
		}
	}
	if m := t.Map; m != nil {
		o.Map = &pt.MapTransform{Pairs: make(map[string]pt.RawJSON, len(m.Pairs))}
		for k, v := range m.Pairs {
			o.Map.Pairs[k] = rawJSON(v)
		}
	}
	if m := t.Match; m != nil {
		o.Match = &pt.MatchTransform{
			FallbackValue: rawJSON(m.FallbackValue),
			FallbackTo:    deref(m.FallbackTo),
		}
		if len(m.Patterns) > 0 {
			o.Match.Patterns = make([]pt.MatchPattern, len(m.Patterns))
			for i, p := range m.Patterns {
				o.Match.Patterns[i] = pt.MatchPattern{
					Type:    deref(p.Type),
					Literal: clone(p.Literal),
					Regexp:  clone(p.Regexp),
					Result:  rawJSON(p.Result),
				}
			}
		}
	}
	if s := t.String; s != nil {
		o.String = &pt.StringTransform{
			Type:    deref(s.Type),
			Format:  clone(s.Format),
			Convert: clone(s.Convert),
			Trim:    clone(s.Trim),
		}
		if s.Regexp != nil {
			o.String.Regexp = &pt.StringTransformRegexp{Match: s.Regexp.Match, Group: clone(s.Regexp.Group)}
		}
		if s.Join != nil {
			o.String.Join = &pt.StringTransformJoin{Separator: s.Join.Separator}
		}
	}
	if c := t.Convert; c != nil {
		o.Convert = &pt.ConvertTransform{ToType: c.ToType, Format: clone(c.Format)}
	}
	return o
}

// rawJSON copies a free-form value; JSON null becomes nil.
func rawJSON(raw json.RawMessage) pt.RawJSON {
	if isNull(raw) {
		return nil
	}
	return append(pt.RawJSON(nil), raw...)
}

func clone[T any](p *T) *T {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}

func deref[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}
