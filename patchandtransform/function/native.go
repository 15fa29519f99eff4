package function

import (
	"math"

	"github.com/crossplane/crossplane-runtime/v2/pkg/fieldpath"

	"github.com/xpmigrate/xpmigrate/internal/xp"
	pt "github.com/xpmigrate/xpmigrate/patchandtransform"
)

// Native switches turn single mechanisms of the function into what
// Crossplane's native (mode: Resources) composer does instead. The zero
// value is function-patch-and-transform v0.10.8 as it is. Each switch
// changes one mechanism, named for the known gap (D-code of the pipeline
// spec) it undoes, so that a verifier can render the pipeline with one gap
// turned off and see whether a difference goes away (a counterfactual
// render). They never describe a real function release.
type Native struct {
	// ToEnvironmentFromRendered (D33): ToEnvironment and
	// CombineToEnvironment patches read the composed resource being
	// rendered, as legacy does, instead of the observed one.
	ToEnvironmentFromRendered bool

	// Integers (D30): integral numbers in what the function reads (the XR,
	// the observed resources, the environment) are int64, as legacy reads
	// them from JSON, instead of the wire's float64.
	Integers bool

	// NativeReadiness (D21): readiness checks run as the native composer
	// runs them, on the observed resource with integral numbers as int64.
	NativeReadiness bool

	// ReadinessErrorFails (D20): a readiness check that fails with an
	// error fails the run instead of being a warning.
	ReadinessErrorFails bool

	// BaseNameIgnored (D11): a base's metadata.name and
	// metadata.namespace are ignored, as legacy ignores them.
	BaseNameIgnored bool

	// EnvironmentGVK (D42): the environment's apiVersion and kind are
	// always the internal Environment's, overwriting data keys of those
	// names.
	EnvironmentGVK bool

	// EnvironmentWritesVisible (D14): what the environment patches write to
	// the XR is visible to the resource patches that read the XR in the
	// same run.
	EnvironmentWritesVisible bool

	// EnvironmentStatusLost (D49): what the environment patches write to
	// the XR's status is lost, as the native XR update discarded it.
	EnvironmentStatusLost bool

	// PatchErrorSkipsResource (D10): a patch that fails into a composed
	// resource or the environment skips that resource with a warning
	// instead of failing the run.
	PatchErrorSkipsResource bool

	// RequiredToCompositeFails (D46): a Required ToComposite patch whose
	// source is absent fails the run; the function skips it.
	RequiredToCompositeFails bool

	// RequiredSkipsExisting (D9): a Required patch whose source is absent
	// leaves an existing composed resource out of the desired state too,
	// not only a new one.
	RequiredSkipsExisting bool

	// ReportSkipped (D23): the names of the templates skipped for a
	// Required patch go to the context under ContextKeySkipped, for a
	// composer that counts them as the native composer did.
	ReportSkipped bool
}

// ContextKeySkipped is the context key under which ReportSkipped lists the
// skipped templates. No real function writes it.
const ContextKeySkipped = "xpmigrate.io/counterfactual-skipped-templates"

// integers returns a deep copy of v in which every integral float64 that
// an int64 holds is an int64, as a JSON decoder that keeps integers gives.
func integers(v any) any {
	switch t := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, e := range t {
			out[k] = integers(e)
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = integers(e)
		}
		return out
	case float64:
		if t == math.Trunc(t) && math.Abs(t) < 1<<63 {
			return int64(t)
		}
	}
	return v
}

// integerObject is integers for an object; nil stays nil.
func integerObject(o map[string]any) map[string]any {
	if o == nil {
		return nil
	}
	out, _ := integers(o).(map[string]any)
	return out
}

// readsIntegers returns p, or with n.Integers a copy whose numbers are
// int64 where integral.
func (n Native) readsIntegers(p *fieldpath.Paved) *fieldpath.Paved {
	if !n.Integers || p == nil {
		return p
	}
	return fieldpath.Pave(integerObject(p.UnstructuredContent()))
}

// environmentGVK overwrites the environment's apiVersion and kind.
func environmentGVK(env map[string]any) {
	env["apiVersion"] = xp.GroupEnvironment + "/" + xp.EnvironmentVersion
	env["kind"] = xp.EnvironmentKind
}

// writesXR reports whether an environment patch writes the XR.
func writesXR(t pt.PatchType) bool {
	return t == pt.PatchTypeToCompositeFieldPath || t == pt.PatchTypeFromEnvironmentFieldPath || t == pt.PatchTypeCombineToComposite
}
