package convert

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/xpmigrate/xpmigrate/render/engine"
)

// TestWhatTheClusterRan checks the conversion of what the API server
// pruned or native Crossplane lost: alpha spec.functions and Compositions
// without resources are converted with C214, and environment patches
// that write the XR's status are converted with C213 at the patch's line.
func TestWhatTheClusterRan(t *testing.T) {
	type finding struct {
		Code     Code
		Severity Severity
		Line     int
		Path     string
	}
	const tpl = "  resources:\n  - name: r\n    base: {apiVersion: nop.crossplane.io/v1alpha1, kind: NopResource}\n"
	cases := map[string]struct {
		reason     string
		in         string
		opts       Options
		want       []finding
		wantStatus Status
		contains   []string
		absent     []string
	}{
		"AlphaFunctions": {
			reason:     "spec.functions is dropped, the rest converted, C214 at its line (was refused with C105).",
			in:         compositionYAML("  functions:\n  - {name: fn, type: Container, container: {image: fn:v1}}\n" + tpl),
			want:       []finding{{"C214", SeverityWarning, 7, "spec.functions"}},
			wantStatus: StatusConverted,
			contains:   []string{"  mode: Pipeline\n"},
			absent:     []string{"functions", "fn:v1"},
		},
		"AlphaFunctionsPhase1": {
			reason:     "Phase 1 keeps the document as it is and says the functions do not run.",
			in:         compositionYAML("  functions: [{name: fn}]\n" + tpl),
			opts:       Options{Phase1: true},
			want:       []finding{{"C214", SeverityWarning, 7, "spec.functions"}},
			wantStatus: StatusUnchanged,
		},
		"EmptyResources": {
			reason:     "resources: [] (a kustomize base) converts to a function input with resources: [], C214 at the key (was refused with C107).",
			in:         compositionYAML("  patchSets:\n  - name: md\n    patches: [{fromFieldPath: metadata.labels}]\n  resources: []\n"),
			want:       []finding{{"C214", SeverityWarning, 10, "spec.resources"}},
			wantStatus: StatusConverted,
			contains:   []string{"      resources: []\n", "      patchSets:\n", "  mode: Pipeline\n"},
		},
		"NoResourcesKey": {
			reason:     "A spec without resources converts the same way, C214 at the spec.",
			in:         compositionYAML("  writeConnectionSecretsToNamespace: ns\n"),
			want:       []finding{{"C214", SeverityWarning, 6, "spec.resources"}},
			wantStatus: StatusConverted,
			contains:   []string{"      resources: []\n"},
		},
		"ResourcesNotAList": {
			reason:     "resources that is not a list is still refused (C107).",
			in:         compositionYAML("  resources: oops\n"),
			want:       []finding{{"C107", SeverityError, 7, "spec.resources"}},
			wantStatus: StatusFailed,
		},
		"EnvironmentPatchWritesStatus": {
			reason: "An environment ToCompositeFieldPath into status warns C213 at the patch's own line; the spec write warns C209 as before.",
			in: compositionYAML(tpl + "  environment:\n    patches:\n" +
				"    - type: ToCompositeFieldPath\n      fromFieldPath: tier\n      toFieldPath: status.tier\n" +
				"    - {type: CombineToComposite, combine: {strategy: string, variables: [{fromFieldPath: a}], string: {fmt: '%s'}}, toFieldPath: 'status[x]'}\n" +
				"    - {type: ToCompositeFieldPath, fromFieldPath: tier, toFieldPath: spec.tier}\n" +
				"    - {type: FromCompositeFieldPath, fromFieldPath: status.a, toFieldPath: status.b}\n"),
			want: []finding{
				{"C310", SeverityInfo, 10, "spec.environment"},
				{"C311", SeverityInfo, 10, "spec.environment"},
				{"C213", SeverityWarning, 12, "spec.environment.patches[0]"},
				{"C213", SeverityWarning, 15, "spec.environment.patches[1]"},
				{"C209", SeverityWarning, 16, "spec.environment.patches[2]"},
			},
			wantStatus: StatusConverted,
		},
		"ResourcePatchWritesStatus": {
			reason:     "A resource's ToCompositeFieldPath into status is persisted on both sides: no C213.",
			in:         compositionYAML("  resources:\n  - name: r\n    base: {apiVersion: nop.crossplane.io/v1alpha1, kind: NopResource}\n    patches: [{type: ToCompositeFieldPath, fromFieldPath: status.a, toFieldPath: status.a}]\n"),
			wantStatus: StatusConverted,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			opts := tc.opts
			opts.Source = "in.yaml"
			res, err := Convert([]byte(tc.in), opts)
			if err != nil {
				t.Fatalf("\n%s\nConvert(...): %v", tc.reason, err)
			}
			var got []finding
			for _, d := range res.Diagnostics {
				if d.Document >= 0 {
					got = append(got, finding{d.Code, d.Severity, d.Line, d.Path})
				}
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("\n%s\nConvert(...) findings: -want, +got:\n%s\n%s", tc.reason, diff, render(res.Diagnostics))
			}
			if st := res.Documents[0].Status; st != tc.wantStatus {
				t.Errorf("\n%s\nConvert(...) status: want %s, got %s\n%s", tc.reason, tc.wantStatus, st, render(res.Diagnostics))
			}
			out := string(res.Output)
			for _, s := range tc.contains {
				if !strings.Contains(out, s) {
					t.Errorf("\n%s\nConvert(...): want the output to contain %q, got:\n%s", tc.reason, s, out)
				}
			}
			for _, s := range tc.absent {
				if strings.Contains(out, s) {
					t.Errorf("\n%s\nConvert(...): want the output not to contain %q, got:\n%s", tc.reason, s, out)
				}
			}
		})
	}
}

// TestWhatTheClusterRanRenders renders the legacy Compositions of
// TestWhatTheClusterRan natively and their conversions with the function
// pipeline: alpha functions dropped render the same; an environment patch
// into the XR's status is lost natively and persisted by the pipeline
// (C213); a Composition without resources fails on both sides.
func TestWhatTheClusterRanRenders(t *testing.T) {
	const tpl = "  resources:\n  - name: r\n    base: {apiVersion: nop.crossplane.io/v1alpha1, kind: NopResource, spec: {a: 1}}\n    patches: [{fromFieldPath: spec.v, toFieldPath: spec.out}]\n"
	type want struct {
		legacy, pipeline string
	}
	cases := map[string]struct {
		reason string
		in     string
		want   want
	}{
		"AlphaFunctions": {
			reason: "Without the pruned functions the Composition renders the same on both sides.",
			in:     compositionYAML("  functions: [{name: fn, type: Container, container: {image: fn:v1}}]\n" + tpl),
			want:   want{legacy: "out=hello status.tier=<none>", pipeline: "out=hello status.tier=<none>"},
		},
		"EnvironmentPatchWritesStatus": {
			reason: "Native loses the environment patch's status write (Q-4); the pipeline keeps it: the difference C213 announces.",
			in:     compositionYAML(tpl + "  environment:\n    environmentConfigs: [{type: Reference, ref: {name: env}}]\n    patches:\n    - {type: ToCompositeFieldPath, fromFieldPath: tier, toFieldPath: status.tier}\n"),
			want:   want{legacy: "out=hello status.tier=<none>", pipeline: "out=hello status.tier=gold"},
		},
		"EmptyResources": {
			reason: "A Composition without resources fails on both sides.",
			in:     compositionYAML("  resources: []\n"),
			want:   want{legacy: "error", pipeline: "error"},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			res, err := Convert([]byte(tc.in), Options{Source: "in.yaml"})
			if err != nil || res.Failed() {
				t.Fatalf("\n%s\nConvert(...): %v\n%s", tc.reason, err, render(res.Diagnostics))
			}
			xr := map[string]any{"apiVersion": "acme.io/v1", "kind": "X", "metadata": map[string]any{"name": "x"}, "spec": map[string]any{"v": "hello"}}
			got := want{
				legacy:   renderSummary(lastComposition(t, []byte(tc.in)), xr),
				pipeline: renderSummary(lastComposition(t, res.Output), xr),
			}
			if diff := cmp.Diff(tc.want, got, cmp.AllowUnexported(want{})); diff != "" {
				t.Errorf("\n%s\nrenders of the legacy and converted Compositions: -want, +got:\n%s\n%s", tc.reason, diff, res.Output)
			}
		})
	}
}

// renderSummary renders one reconcile and summarises spec.out of the
// composed resource r and the XR's persisted status.tier, or "error".
func renderSummary(comp, xr map[string]any) string {
	env := map[string]any{"apiVersion": "apiextensions.crossplane.io/v1alpha1", "kind": "EnvironmentConfig", "metadata": map[string]any{"name": "env"}, "data": map[string]any{"tier": "gold"}}
	res, err := engine.Render(context.Background(), engine.Request{XR: xr, Composition: comp, Extra: []map[string]any{env}}, engine.Options{})
	if err != nil {
		return "error"
	}
	out := "<none>"
	for _, c := range res.Outcome.Composed {
		if spec, _ := c.Desired["spec"].(map[string]any); c.Name == "r" && spec["out"] != nil {
			out = fmt.Sprint(spec["out"])
		}
	}
	tier := "<none>"
	if st, _ := res.Outcome.EffectiveXR["status"].(map[string]any); st["tier"] != nil {
		tier = fmt.Sprint(st["tier"])
	}
	return "out=" + out + " status.tier=" + tier
}
