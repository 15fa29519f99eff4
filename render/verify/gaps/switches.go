package gaps

import (
	"github.com/xpmigrate/xpmigrate/patchandtransform/function"
	"github.com/xpmigrate/xpmigrate/render/pipeline"
)

// A Switch turns the one mechanism behind a known gap into the native
// composer's behaviour for a counterfactual render of the pipeline side:
// a difference is attributed to the gap only when the pipeline rendered
// with the switch on (alone, or with the switches of gaps already proven
// on the sample) agrees with legacy at the difference's path.
type Switch struct {
	// Code is the gap's code; Name names the switch in reports.
	Code, Name string

	// Function and Pipeline switch a mechanism of
	// function-patch-and-transform or of the function composer.
	Function func(*function.Native)
	Pipeline func(*pipeline.Native)

	// EnvironmentFunction, when set, is the function-environment-configs
	// release the counterfactual pipeline runs instead.
	EnvironmentFunction string
}

// Switches are the known gaps that a counterfactual render can turn off,
// by code.
var Switches = map[string]Switch{
	"D5": {Code: "D5", Name: "xr-spec-persisted",
		Pipeline: func(n *pipeline.Native) { n.XRSpecPersisted = true }},
	"D9": {Code: "D9", Name: "required-skips-existing",
		Function: func(n *function.Native) { n.RequiredSkipsExisting = true }},
	"D10": {Code: "D10", Name: "patch-error-skips-resource",
		Function: func(n *function.Native) { n.PatchErrorSkipsResource = true }},
	"D11": {Code: "D11", Name: "base-name-ignored",
		Function: func(n *function.Native) { n.BaseNameIgnored = true }},
	"D14": {Code: "D14", Name: "environment-writes-visible",
		Function: func(n *function.Native) { n.EnvironmentWritesVisible = true }},
	"D20": {Code: "D20", Name: "readiness-error-fails",
		Function: func(n *function.Native) { n.ReadinessErrorFails = true }},
	"D21": {Code: "D21", Name: "native-readiness",
		Function: func(n *function.Native) { n.NativeReadiness = true }},
	"D23": {Code: "D23", Name: "skipped-template-counted",
		Function: func(n *function.Native) { n.ReportSkipped = true },
		Pipeline: func(n *pipeline.Native) { n.SkippedUnsynced = true }},
	"D30": {Code: "D30", Name: "integers-kept-int64",
		Function: func(n *function.Native) { n.Integers = true }},
	"D33": {Code: "D33", Name: "to-environment-reads-rendered",
		Function: func(n *function.Native) { n.ToEnvironmentFromRendered = true }},
	"D42": {Code: "D42", Name: "environment-gvk-overwritten",
		Function: func(n *function.Native) { n.EnvironmentGVK = true }},
	"D43": {Code: "D43", Name: "environment-configs-v0.6", EnvironmentFunction: "v0.6"},
	"D46": {Code: "D46", Name: "required-to-composite-fails",
		Function: func(n *function.Native) { n.RequiredToCompositeFails = true }},
	"D49": {Code: "D49", Name: "environment-status-lost",
		Function: func(n *function.Native) { n.EnvironmentStatusLost = true }},
}

// NoSwitch says, for the detected gaps without a switch, why no render
// can turn them off. Their differences stay candidates: reported under
// the code, never accepted.
var NoSwitch = map[string]string{
	"D1":  "the pipeline's need for the composition-resource-name annotation is the composer's association of existing resources, which has no native mode",
	"D6":  "the merge base of XR writes is the composer's, with no native mode",
	"D7":  "the order and contents of spec.resourceRefs are the composer's, with no native mode",
	"D8":  "a ToComposite patch that fails on the observed resource on every reconcile has no native mode",
	"D15": "the function has no apply-time merge to switch to",
	"D17": "controller checks of existing resources are the composer's, with no native mode",
	"D18": "kind checks of existing resources are the composer's, with no native mode",
	"D32": "the digits an integer above 2^53 loses on the wire cannot be restored",
	"D35": "function-environment-configs has no mode that reuses spec.environmentConfigRefs",
	"D36": "function-environment-configs has no mode that fails on a selector without labels",
	"D37": "function-environment-configs has no mode that prints label values",
	"D38": "function-environment-configs has no native sort mode",
	"D39": "function-environment-configs has no mode that keeps defaultData alone",
	"D50": "the XR's merge patch is not modelled as a switch",
}
