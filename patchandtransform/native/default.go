package native

import (
	pt "github.com/xpmigrate/xpmigrate/patchandtransform"
)

// DefaultStoreConfigName is the CRD default of
// spec.publishConnectionDetailsWithStoreConfigRef.name.
const DefaultStoreConfigName = "default"

// DefaultReadinessChecks returns the CRD default of a template's
// readinessChecks: the Ready condition must be True.
func DefaultReadinessChecks() []ReadinessCheck {
	return []ReadinessCheck{{
		Type: pt.ReadinessCheckTypeMatchCondition,
		MatchCondition: &MatchConditionReadinessCheck{
			Type:   ptrTo("Ready"),
			Status: ptrTo("True"),
		},
	}}
}

// Default applies the Composition CRD's defaults in place, as the API server
// does before it stores a Composition (docs/semantics/legacy.md#inputs-are-defaulted-first). Only absent (nil) values
// are defaulted; an explicit empty string is kept, as the API server keeps
// it, and left to Validate. A readinessChecks list written as [] stays
// empty. Default is idempotent.
//
// Crossplane's runtime does not default by itself (Q-1, docs/semantics/legacy.md#quirks), so callers
// that want to reproduce what a cluster did call Default before anything
// else; callers that want to show what an undefaulted Composition would do
// skip it.
//
// The environment selection (spec.environment without patches) is defaulted
// too: environmentConfigs[].type, selector mode and sortByFieldPath,
// matchLabels[] type and fromFieldPathPolicy, and policy.resolution. A
// selection that is not a JSON object (which Decode never produces) is left
// as it is, for package environment to reject.
func (c *Composition) Default() {
	s := &c.Spec
	if s.Mode == nil {
		s.Mode = ptrTo(CompositionModeResources)
	}
	if s.PublishConnectionDetailsWithStoreConfigRef == nil {
		s.PublishConnectionDetailsWithStoreConfigRef = &StoreConfigReference{Name: DefaultStoreConfigName}
	}
	for i := range s.PatchSets {
		defaultPatches(s.PatchSets[i].Patches)
	}
	for i := range s.Resources {
		t := &s.Resources[i]
		defaultPatches(t.Patches)
		if t.ReadinessChecks == nil {
			t.ReadinessChecks = DefaultReadinessChecks()
		}
		for j := range t.ReadinessChecks {
			mc := t.ReadinessChecks[j].MatchCondition
			if mc == nil {
				continue
			}
			if mc.Type == nil {
				mc.Type = ptrTo("Ready")
			}
			if mc.Status == nil {
				mc.Status = ptrTo("True")
			}
		}
	}
	if e := s.Environment; e != nil {
		defaultPatches(e.Patches)
		if sel, err := editSelection(e.Selection, func(o map[string]any) { defaultValue(o, selectionShape) }); err == nil {
			e.Selection = sel
		}
	}
}

func defaultPatches(ps []Patch) {
	for i := range ps {
		p := &ps[i]
		if p.Type == nil {
			p.Type = ptrTo(pt.PatchTypeFromCompositeFieldPath)
		}
		for j := range p.Transforms {
			defaultTransform(&p.Transforms[j])
		}
	}
}

func defaultTransform(t *Transform) {
	if t.Math != nil && t.Math.Type == nil {
		t.Math.Type = ptrTo(pt.MathTransformTypeMultiply)
	}
	if t.Match != nil {
		if t.Match.FallbackTo == nil {
			t.Match.FallbackTo = ptrTo(pt.MatchFallbackToValue)
		}
		for i := range t.Match.Patterns {
			if t.Match.Patterns[i].Type == nil {
				t.Match.Patterns[i].Type = ptrTo(pt.MatchPatternTypeLiteral)
			}
		}
	}
	if t.String != nil && t.String.Type == nil {
		t.String.Type = ptrTo(pt.StringTransformTypeFormat)
	}
}

func ptrTo[T any](v T) *T { return &v }
