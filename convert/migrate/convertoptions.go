package migrate

import (
	"slices"

	"github.com/xpmigrate/xpmigrate/convert"
	"github.com/xpmigrate/xpmigrate/internal/crossplane"
)

// ConvertInputs are what a conversion reads besides the Composition's file
// and the options the user chose: the Crossplane line, the definitions
// and packages around the Composition. `convert`, `migrate` and verify's
// on-the-fly conversion each gather theirs (from flags, from the tree,
// from the XRD given or the cluster's) and build the converter's options
// with ConvertOptions, so that the same inputs give the same bytes.
type ConvertInputs struct {
	// Source names the input in diagnostics.
	Source string
	// Target, when not empty, is the Crossplane line to convert for.
	Target crossplane.Target
	// Phase1 asks for phase one of the unnamed-template rollout.
	Phase1 bool
	// PatchAndTransform and EnvironmentConfigs are the functionRef names
	// the inputs resolve (Function manifests, Configuration dependencies),
	// used unless the user chose names.
	PatchAndTransform, EnvironmentConfigs string
	// Configuration is a Configuration's crossplane.yaml naming the
	// functions.
	Configuration []byte
	// XRDs are the CompositeResourceDefinitions typing the XR fields.
	XRDs []map[string]any
	// Compositions are Compositions outside the input whose templates
	// choose a v2 XRD's scope.
	Compositions []map[string]any
	// ProviderCRDs are the providers' CustomResourceDefinitions.
	ProviderCRDs []map[string]any
}

// ConvertOptions returns the converter's options for a conversion: the
// user's (base) with the inputs added. It never changes base.
func ConvertOptions(base convert.Options, in ConvertInputs) convert.Options {
	o := base
	if in.Source != "" {
		o.Source = in.Source
	}
	if in.Target != "" {
		o.Target = in.Target
	}
	o.Phase1 = o.Phase1 || in.Phase1
	if o.PTFunction == "" {
		o.PTFunction = in.PatchAndTransform
	}
	if o.ECFunction == "" {
		o.ECFunction = in.EnvironmentConfigs
	}
	if in.Configuration != nil {
		o.Configuration = in.Configuration
	}
	o.XRDs = append(slices.Clone(o.XRDs), in.XRDs...)
	o.Compositions = append(slices.Clone(o.Compositions), in.Compositions...)
	o.ProviderCRDs = append(slices.Clone(o.ProviderCRDs), in.ProviderCRDs...)
	return o
}
