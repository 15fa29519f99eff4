package patchandtransform

import (
	"fmt"
	"strings"

	"github.com/crossplane/crossplane-runtime/v2/pkg/fieldpath"
	"github.com/pkg/errors"
)

// EffectiveType is the patch's type, FromCompositeFieldPath when unset. Both
// engines default an empty type this way when they apply a patch; native
// Crossplane's phase filters compare the raw Type instead (Q-1, docs/semantics/legacy.md#quirks),
// which callers reproduce by looking at Type directly.
func (p Patch) EffectiveType() PatchType {
	if p.Type == "" {
		return PatchTypeFromCompositeFieldPath
	}
	return p.Type
}

// EffectiveToFieldPath is the patch's toFieldPath, or its fromFieldPath when
// unset.
func (p Patch) EffectiveToFieldPath() string {
	if p.ToFieldPath != nil {
		return *p.ToFieldPath
	}
	if p.FromFieldPath != nil {
		return *p.FromFieldPath
	}
	return ""
}

// IsNotFound reports whether err says that a field path was not found, which
// policies may forgive.
func IsNotFound(err error) bool {
	return fieldpath.IsNotFound(err)
}

// Apply applies one patch, reading from `from` and writing to `to`. Which
// objects those are (XR, composed resource, environment) is the caller's
// business; the core knows only FieldPath and Combine patches.
//
// The two dialects differ in how missing sources surface:
//   - Native forgives a missing source at once unless the policy is
//     Required, and returns the not-found error otherwise, as Crossplane's
//     composer did; a not-found error raised later (e.g. by a wildcard over
//     a null) is an ordinary error.
//   - Function returns every not-found error, whatever the policy, and the
//     caller applies function-patch-and-transform's rules (skip Optional
//     misses, warn or skip the template on Required misses).
//
// After a successful write the whole target is re-encoded through the
// Kubernetes JSON decoder, as both engines do, so integral numbers anywhere in
// it become int64.
func Apply(d Dialect, p Patch, from, to *fieldpath.Paved) error {
	t := p.EffectiveType()
	switch {
	case t.IsFieldPath():
		return asPathError(p, applyFieldPath(d, p, from, to))
	case t.IsCombine():
		return asPathError(p, applyCombine(d, p, from, to))
	}
	if d == Function {
		// function-patch-and-transform ignores what it cannot dispatch.
		return nil
	}
	return errors.Errorf("patch type %s is unsupported", p.Type)
}

func applyFieldPath(d Dialect, p Patch, from, to *fieldpath.Paved) error {
	if p.FromFieldPath == nil && d == Native {
		return errors.Errorf("%s is required by type %s", "FromFieldPath", p.EffectiveType())
	}
	fromPath := ""
	if p.FromFieldPath != nil {
		fromPath = *p.FromFieldPath
	}
	toPath := p.EffectiveToFieldPath()

	in, err := getValue(from, fromPath)
	if err != nil {
		if d == Native && IsNotFound(err) && !p.Policy.Required() {
			return nil
		}
		return err
	}

	out, err := ResolveTransforms(d, p.Transforms, in)
	if err != nil {
		return err
	}

	if d == Function {
		// The function round-trips the transformed value through the
		// Kubernetes decoder so that integers compare equal to the int64
		// values already in the target when merging.
		if c, ok := jsonCopy(out); ok {
			out = c
		} else if out, err = Normalize(out); err != nil {
			return err
		}
	}

	mo := mergeOptions(p.Policy)
	if strings.Contains(toPath, "[*]") {
		return patchToMultiple(toPath, out, to, mo)
	}
	if err := patchToObject(toPath, out, to, mo); err != nil {
		if d == Function {
			return errors.Wrap(err, "cannot patch to object")
		}
		return err
	}
	return nil
}

func applyCombine(d Dialect, p Patch, from, to *fieldpath.Paved) error {
	if p.Combine == nil {
		return errors.Errorf("%s is required by type %s", "Combine", p.EffectiveType())
	}
	if d == Native {
		if p.ToFieldPath == nil {
			return errors.Errorf("%s is required by type %s", "ToFieldPath", p.EffectiveType())
		}
		if len(p.Combine.Variables) < 1 {
			return errors.New("combine patch types require at least one variable")
		}
	}

	vars := make([]any, len(p.Combine.Variables))
	for i, v := range p.Combine.Variables {
		val, err := getValue(from, v.FromFieldPath)
		if err != nil {
			// A missing variable makes the whole patch a no-op (or an error
			// under Required), so a format never gets fewer inputs than
			// it expects.
			if d == Native && IsNotFound(err) && !p.Policy.Required() {
				return nil
			}
			return err
		}
		vars[i] = val
	}

	combined, err := combine(*p.Combine, vars)
	if err != nil {
		return err
	}

	out, err := ResolveTransforms(d, p.Transforms, combined)
	if err != nil {
		return err
	}

	toPath := p.EffectiveToFieldPath()
	if d == Native {
		// Native Combine patches always replace at render time, and never
		// expand wildcards.
		return patchToObject(toPath, out, to, nil)
	}
	return errors.Wrap(patchToObject(toPath, out, to, mergeOptions(p.Policy)), "cannot patch to object")
}

func combine(c Combine, vars []any) (any, error) {
	switch c.Strategy {
	case CombineStrategyString:
		if c.String == nil {
			return nil, errors.Errorf("given combine strategy %s requires configuration", c.Strategy)
		}
		return fmt.Sprintf(c.String.Format, vars...), nil
	default:
		return nil, errors.Errorf("combine strategy %s is not supported", c.Strategy)
	}
}

func mergeOptions(p *Policy) *MergeOptions {
	if p == nil {
		return nil
	}
	return p.MergeOptions
}

func patchToObject(path string, value any, to *fieldpath.Paved, mo *MergeOptions) error {
	if err := mergeValue(to, path, value, mo); err != nil {
		return err
	}
	return normalizeTarget(to)
}

func patchToMultiple(path string, value any, to *fieldpath.Paved, mo *MergeOptions) error {
	paths, err := to.ExpandWildcards(path)
	if err != nil {
		// The field the expansion trips on depends on the order Go walks
		// a map in, so the upstream message differs from run to run: keep
		// what does not.
		msg := err.Error()
		if i := strings.LastIndex(msg, ": "); i >= 0 {
			msg = msg[i+2:]
		}
		return errors.Errorf("cannot expand wildcards for segments: %q: %s", path, msg)
	}
	if len(paths) == 0 {
		return &ExpandError{Path: path}
	}
	for _, p := range paths {
		if err := mergeValue(to, p, value, mo); err != nil {
			return err
		}
	}
	return normalizeTarget(to)
}

// normalizeTarget gives the whole target the number model of a round trip
// through the Kubernetes JSON decoder, as the engines' conversion back from
// unstructured content does after every patch.
func normalizeTarget(to *fieldpath.Paved) error {
	o := to.UnstructuredContent()
	if normalizeInPlace(o) {
		return nil
	}
	// Something not plain JSON data is in there: take the slow, exact path.
	n, err := NormalizeObject(o)
	if err != nil {
		return err
	}
	to.SetUnstructuredContent(n)
	return nil
}

// Merge merges src into dst with crossplane-runtime's merge semantics, as
// both engines do when a patch has merge options (docs/semantics/legacy.md#merge-options). A nil mo
// returns src.
func Merge(dst, src any, mo *MergeOptions) (any, error) {
	const key = "v"
	p := fieldpath.Pave(map[string]any{key: dst})
	if dst == nil {
		p = fieldpath.Pave(map[string]any{})
	}
	if err := p.MergeValue(key, src, mo); err != nil {
		return nil, err
	}
	return p.UnstructuredContent()[key], nil
}

// ExpandPatchSets replaces every PatchSet patch in patches by the patches of
// the set it names, in place and in order. A later set with the same name
// replaces an earlier one, and a PatchSet patch inside any set is an error,
// even in a set nobody uses; both engines behave this way.
func ExpandPatchSets(sets []PatchSet, patches []Patch) ([]Patch, error) {
	byName := make(map[string][]Patch, len(sets))
	for _, s := range sets {
		for _, p := range s.Patches {
			if p.Type == PatchTypePatchSet {
				return nil, errors.New("a patch in a PatchSet cannot be of type PatchSet")
			}
		}
		byName[s.Name] = s.Patches
	}

	out := make([]Patch, 0, len(patches))
	for _, p := range patches {
		if p.Type != PatchTypePatchSet {
			out = append(out, p)
			continue
		}
		if p.PatchSetName == nil {
			return nil, errors.Errorf("%s is required by type %s", "PatchSetName", p.Type)
		}
		set, ok := byName[*p.PatchSetName]
		if !ok {
			return nil, errors.Errorf("cannot find PatchSet by name %s", *p.PatchSetName)
		}
		out = append(out, set...)
	}
	return out, nil
}
