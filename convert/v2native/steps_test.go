package v2native

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/xpmigrate/xpmigrate/convert"
	"github.com/xpmigrate/xpmigrate/internal/crossplane"
)

// pipelineWithSteps is a Pipeline Composition of type XThing whose
// pipeline is steps (YAML at the indent of spec's keys' values).
func pipelineWithSteps(steps string) string {
	return thingXRD + "apiVersion: apiextensions.crossplane.io/v1\nkind: Composition\nmetadata:\n  name: xthings.acme.io\nspec:\n" +
		"  compositeTypeRef: {apiVersion: acme.io/v1, kind: XThing}\n  mode: Pipeline\n  pipeline:" + steps
}

// TestV2PipelineStepShapes (issue 25 item 3): --target v2 converts a
// Pipeline Composition whatever shape its steps have (no input, input
// null, input that is no map, a function it does not know, no steps)
// without a panic, and only the step whose input reads the claim gets
// C432.
func TestV2PipelineStepShapes(t *testing.T) {
	cases := map[string]struct {
		reason string
		steps  string
		want   []convert.Code
	}{
		"NoInput": {
			reason: "function-auto-ready takes no input: the step is kept as it is.",
			steps:  "\n  - {step: ready, functionRef: {name: function-auto-ready}}\n",
			want:   []convert.Code{"C401", "C416", "C420"},
		},
		"InputNull": {
			reason: "An input that is null is no input.",
			steps:  "\n  - {step: ready, functionRef: {name: function-auto-ready}, input: null}\n",
			want:   []convert.Code{"C401", "C416", "C420"},
		},
		"InputScalar": {
			reason: "An input that is no map is kept; the API server's validation says what is wrong with it.",
			steps:  "\n  - {step: odd, functionRef: {name: function-odd}, input: [spec.claimRef]}\n",
			want:   []convert.Code{"C401", "C416", "C420", "C432"},
		},
		"UnknownFunctionReadingTheClaim": {
			reason: "A function the converter does not know, whose input reads the claim, is flagged (C432).",
			steps:  "\n  - step: custom\n    functionRef: {name: function-custom}\n    input: {apiVersion: x.example.org/v1, kind: Input, path: spec.claimRef.name}\n",
			want:   []convert.Code{"C401", "C416", "C420", "C432"},
		},
		"NoFunctionRef": {
			reason: "A step without a functionRef is kept; validation reports it.",
			steps:  "\n  - {step: bare}\n",
			want:   []convert.Code{"C401", "C416", "C420", "C106"},
		},
		"EmptyPipeline": {
			reason: "A pipeline without steps is converted to the v2 type; validation reports the empty pipeline (C190).",
			steps:  " []\n",
			want:   []convert.Code{"C401", "C416", "C420", "C190"},
		},
		"PipelineNull": {
			reason: "A pipeline that is null has no steps to read.",
			steps:  " null\n",
			want:   []convert.Code{"C401", "C416"},
		},
		"PatchAndTransformWithoutInput": {
			reason: "A patch-and-transform step without an input has nothing to rewrite.",
			steps:  "\n  - {step: pt, functionRef: {name: function-patch-and-transform}}\n",
			want:   []convert.Code{"C401", "C416", "C420"},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			var res *convert.Result
			var err error
			func() {
				defer func() {
					if r := recover(); r != nil {
						err = fmt.Errorf("panic: %v", r)
					}
				}()
				res, err = Convert([]byte(pipelineWithSteps(tc.steps)), convert.Options{Target: crossplane.V2, XRScope: convert.XRScopeNamespaced})
			}()
			if err != nil {
				t.Fatalf("%s\nConvert(...): %v", tc.reason, err)
			}
			if diff := cmp.Diff(tc.want, codes(res.Diagnostics)); diff != "" {
				t.Errorf("%s\nConvert(...): -want codes, +got:\n%s\n%s", tc.reason, diff, render(res.Diagnostics))
			}
		})
	}
}

// v2StepSeeds are Pipeline steps of every shape, the seeds of
// FuzzConvertV2Steps.
var v2StepSeeds = []string{
	"\n  - {step: ready, functionRef: {name: function-auto-ready}}\n",
	"\n  - {step: ready, functionRef: {name: function-auto-ready}, input: null}\n",
	"\n  - {step: odd, functionRef: {name: function-odd}, input: [spec.claimRef]}\n",
	"\n  - {step: odd, functionRef: {name: function-odd}, input: 7}\n",
	"\n  - step: custom\n    functionRef: {name: function-custom}\n    input: {apiVersion: x.example.org/v1, kind: Input, path: spec.claimRef.name}\n",
	"\n  - {step: bare}\n",
	"\n  - null\n",
	" []\n",
	" null\n",
	" {}\n",
	"\n  - {step: pt, functionRef: {name: function-patch-and-transform}}\n",
	"\n  - {step: pt, functionRef: {name: function-patch-and-transform}, input: {apiVersion: pt.fn.crossplane.io/v1beta1, kind: Resources, resources: null, patchSets: 3}}\n",
	"\n  - {step: pt, functionRef: {name: function-patch-and-transform}, input: {apiVersion: pt.fn.crossplane.io/v1beta1, kind: Resources, resources: [null, 3, {base: null, patches: [null, 1, {type: PatchSet}]}]}}\n",
	"\n  - {step: env, functionRef: {name: function-environment-configs}, input: {apiVersion: environmentconfigs.fn.crossplane.io/v1beta1, kind: Input, spec: null}}\n",
	"\n  - {step: env, functionRef: {name: function-environment-configs}, input: {apiVersion: environmentconfigs.fn.crossplane.io/v1beta1, kind: Input, spec: {environmentConfigs: [null, {type: Selector, selector: null}]}}}\n",
}

// FuzzConvertV2Steps checks that --target v2 (namespaced and cluster XRs)
// never panics on a Pipeline Composition, whatever its steps (issue 25
// item 3), and that an error is always an convert.InputError.
func FuzzConvertV2Steps(f *testing.F) {
	for _, s := range v2StepSeeds {
		f.Add(s, false)
		f.Add(s, true)
	}
	f.Fuzz(func(t *testing.T, steps string, cluster bool) {
		opts := convert.Options{Source: "fuzz.yaml", Target: crossplane.V2, XRScope: convert.XRScopeNamespaced}
		if cluster {
			opts.XRScope = convert.XRScopeCluster
		}
		if _, err := Convert([]byte(pipelineWithSteps(steps)), opts); err != nil && !convert.IsInvalidInput(err) {
			t.Fatalf("Convert(...): an error that is not an convert.InputError: %v", err)
		}
	})
}
