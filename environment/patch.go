package environment

import (
	"github.com/crossplane/crossplane-runtime/v2/pkg/fieldpath"
	"github.com/pkg/errors"

	pt "github.com/xpmigrate/xpmigrate/patchandtransform"
)

// ApplyEnvironmentPatches applies a Composition's spec.environment.patches
// in order, as Crossplane v1.17.6 does before rendering any template
// (docs/semantics/legacy.md#environment-patches): FromCompositeFieldPath and CombineFromComposite copy
// from the XR into the environment, ToCompositeFieldPath and
// CombineToComposite from the environment into the XR. Patches of any
// other type, including an undefaulted empty type, are skipped, as
// Crossplane filters on the raw type.
//
// The first error stops, wrapped as "cannot apply environment patch at
// index <i>"; Crossplane treats it as fatal for the reconcile. A nil
// environment (the feature flag is off) applies nothing.
//
// Writes to the XR are in memory. Crossplane persists those to spec and
// metadata but loses those to status when the XR update returns;
// that is the renderer's business.
func ApplyEnvironmentPatches(patches []pt.Patch, xr, env *fieldpath.Paved) error {
	if env == nil {
		return nil
	}
	for i, p := range patches {
		var err error
		switch p.Type {
		case pt.PatchTypeFromCompositeFieldPath, pt.PatchTypeCombineFromComposite:
			err = pt.Apply(pt.Native, p, xr, env)
		case pt.PatchTypeToCompositeFieldPath, pt.PatchTypeCombineToComposite:
			err = pt.Apply(pt.Native, p, env, xr)
		default:
			continue
		}
		if err != nil {
			return errors.Wrapf(err, "cannot apply environment patch at index %d", i)
		}
	}
	return nil
}

// ApplyTemplatePatch applies one patch of a composed resource template
// between the environment and the desired composed resource being built,
// when it is one of the four environment types, as Crossplane v1.17.6 does
// in a template's From phase (docs/semantics/legacy.md#rendering-a-template step 3):
// FromEnvironmentFieldPath and CombineFromEnvironment read the environment
// and write the desired object; ToEnvironmentFieldPath and
// CombineToEnvironment read the desired object — base plus the earlier
// patches, never the observed object — and write the environment,
// where later patches and later templates see the value.
//
// It reports whether the patch was an environment patch. Other types and a
// nil environment (the feature flag is off, Q-23) apply nothing. Errors are
// the patch's own; the renderer names the template and patch index.
func ApplyTemplatePatch(p pt.Patch, env, desired *fieldpath.Paved) (bool, error) {
	if env == nil {
		return false, nil
	}
	switch p.Type {
	case pt.PatchTypeFromEnvironmentFieldPath, pt.PatchTypeCombineFromEnvironment:
		return true, pt.Apply(pt.Native, p, env, desired)
	case pt.PatchTypeToEnvironmentFieldPath, pt.PatchTypeCombineToEnvironment:
		return true, pt.Apply(pt.Native, p, desired, env)
	default:
		return false, nil
	}
}
