package convert

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	sigsyaml "sigs.k8s.io/yaml"

	"github.com/xpmigrate/xpmigrate/render/engine"
)

// TestIntegerFormatRenders renders each legacy Composition of the integer
// format decision with the native emulator, converts it, renders the
// conversion with the function pipeline, and compares the field the %d
// format wrote: identical where the conversion claims to be faithful (no
// C212, no C325), the D30 misprint where it reports C212, and the fixed
// print where C325 fixed the quirk on request.
func TestIntegerFormatRenders(t *testing.T) {
	const env = "  environment:\n    environmentConfigs: [{type: Reference, ref: {name: env}}]\n"
	type want struct {
		legacy, pipeline string
		codes            []Code // C212, C323, C325 found
	}
	cases := map[string]struct {
		reason string
		in     string
		xr     string // spec of the XR
		opts   Options
		want   want
	}{
		"XRFieldInteger": {
			reason: "An integer XR field without a schema: native prints 100, the pipeline %!d(float64=100), reported by C212.",
			in:     compositionYAML(formatPatch(fromSize, "")),
			xr:     "{size: 100}",
			want:   want{legacy: "100 GiB", pipeline: "%!d(float64=100) GiB", codes: []Code{"C212"}},
		},
		"XRFieldFraction": {
			reason: "A non-integral XR field prints %!d(float64=1.5) on both sides.",
			in:     compositionYAML(formatPatch(fromSize, "")),
			xr:     "{size: 1.5}",
			want:   want{legacy: "%!d(float64=1.5) GiB", pipeline: "%!d(float64=1.5) GiB", codes: []Code{"C212"}},
		},
		"XRFieldString": {
			reason: "A string XR field prints %!d(string=100) on both sides: without the convert the conversion does not fail on it.",
			in:     compositionYAML(formatPatch(fromSize, "")),
			xr:     "{size: '100'}",
			want:   want{legacy: "%!d(string=100) GiB", pipeline: "%!d(string=100) GiB", codes: []Code{"C212"}},
		},
		"XRFieldIntegerSchema": {
			reason: "With the XRD's integer type the convert goes in and restores native output.",
			in:     xrdYAML("integer", false) + "---\n" + compositionYAML(formatPatch(fromSize, "")),
			xr:     "{size: 100}",
			want:   want{legacy: "100 GiB", pipeline: "100 GiB", codes: []Code{"C323"}},
		},
		"Environment": {
			reason: "EnvironmentConfig data is float64 on both sides: faithful without a convert.",
			in:     compositionYAML(formatPatch("type: FromEnvironmentFieldPath\n      fromFieldPath: size", "") + env),
			xr:     "{}",
			want:   want{legacy: "%!d(float64=100) GiB", pipeline: "%!d(float64=100) GiB"},
		},
		"EnvironmentFixQuirk": {
			reason: "--fix-quirk C325 prints the integer, an intended change.",
			in:     compositionYAML(formatPatch("type: FromEnvironmentFieldPath\n      fromFieldPath: size", "") + env),
			xr:     "{}",
			opts:   Options{FixQuirks: []string{QuirkIntegerFormat}},
			want:   want{legacy: "%!d(float64=100) GiB", pipeline: "100 GiB", codes: []Code{"C325"}},
		},
		"EnvironmentWritten": {
			reason: "After a patch wrote the environment, native re-read it with int64 integers and printed 100; the pipeline prints %!d(float64=100), reported by C212.",
			in: compositionYAML("  resources:\n  - name: r\n    base: {apiVersion: nop.crossplane.io/v1alpha1, kind: NopResource, spec: {x: 1}}\n    patches:\n" +
				"    - {type: ToEnvironmentFieldPath, fromFieldPath: spec.x, toFieldPath: x}\n" +
				"    - {type: FromEnvironmentFieldPath, fromFieldPath: size, toFieldPath: spec.out, transforms: [{type: string, string: {type: Format, fmt: '%d GiB'}}]}\n" + env),
			xr:   "{}",
			want: want{legacy: "100 GiB", pipeline: "%!d(float64=100) GiB", codes: []Code{"C212"}},
		},
		"XRFieldFixQuirkInteger": {
			reason: "--fix-quirk C325 on an XR field restores native output for an integer.",
			in:     compositionYAML(formatPatch(fromSize, "")),
			xr:     "{size: 100}",
			opts:   Options{FixQuirks: []string{QuirkIntegerFormat}},
			want:   want{legacy: "100 GiB", pipeline: "100 GiB", codes: []Code{"C325"}},
		},
		"XRFieldFixQuirkFraction": {
			reason: "--fix-quirk C325 on an XR field truncates a fraction native misprinted: the intended change.",
			in:     compositionYAML(formatPatch(fromSize, "")),
			xr:     "{size: 1.5}",
			opts:   Options{FixQuirks: []string{QuirkIntegerFormat}},
			want:   want{legacy: "%!d(float64=1.5) GiB", pipeline: "1 GiB", codes: []Code{"C325"}},
		},
		"MapOutput": {
			reason: "A map value is float64 on both sides: faithful without a convert.",
			in:     compositionYAML(formatPatch("type: FromCompositeFieldPath\n      fromFieldPath: spec.tier", "      - {type: map, map: {small: 100}}\n")),
			xr:     "{tier: small}",
			want:   want{legacy: "%!d(float64=100) GiB", pipeline: "%!d(float64=100) GiB"},
		},
		"MapOutputFixQuirk": {
			reason: "--fix-quirk C325 prints a map value as the integer.",
			in:     compositionYAML(formatPatch("type: FromCompositeFieldPath\n      fromFieldPath: spec.tier", "      - {type: map, map: {small: 100}}\n")),
			xr:     "{tier: small}",
			opts:   Options{FixQuirks: []string{QuirkIntegerFormat}},
			want:   want{legacy: "%!d(float64=100) GiB", pipeline: "100 GiB", codes: []Code{"C325"}},
		},
		"MatchOutput": {
			reason: "A match result is float64 on both sides: faithful without a convert.",
			in:     compositionYAML(formatPatch("type: FromCompositeFieldPath\n      fromFieldPath: spec.tier", "      - {type: match, match: {patterns: [{type: literal, literal: small, result: 100}], fallbackValue: 5}}\n")),
			xr:     "{tier: small}",
			want:   want{legacy: "%!d(float64=100) GiB", pipeline: "%!d(float64=100) GiB"},
		},
		"MathOnEnvironment": {
			reason: "A product of environment data is float64 on both sides.",
			in:     compositionYAML(formatPatch("type: FromEnvironmentFieldPath\n      fromFieldPath: size", "      - {type: math, math: {type: Multiply, multiply: 2}}\n") + env),
			xr:     "{}",
			want:   want{legacy: "%!d(float64=200) GiB", pipeline: "%!d(float64=200) GiB"},
		},
		"MathOnIntegerSchema": {
			reason: "A product of an integer field is int64 natively: the convert restores it.",
			in:     xrdYAML("integer", false) + "---\n" + compositionYAML(formatPatch(fromSize, "      - {type: math, math: {type: Multiply, multiply: 2}}\n")),
			xr:     "{size: 100}",
			want:   want{legacy: "200 GiB", pipeline: "200 GiB", codes: []Code{"C323"}},
		},
		"ClampOnEnvironment": {
			reason: "A clamp bound is int64 on both sides: faithful without a convert.",
			in:     compositionYAML(formatPatch("type: FromEnvironmentFieldPath\n      fromFieldPath: size", "      - {type: math, math: {type: ClampMin, clampMin: 500}}\n") + env),
			xr:     "{}",
			want:   want{legacy: "500 GiB", pipeline: "500 GiB"},
		},
		"ConvertToFloat": {
			reason: "A convert to float64 prints %!d(float64=…) on both sides.",
			in:     compositionYAML(formatPatch(fromSize, "      - {type: convert, convert: {toType: float64}}\n")),
			xr:     "{size: 100}",
			want:   want{legacy: "%!d(float64=100) GiB", pipeline: "%!d(float64=100) GiB"},
		},
		"ConvertToString": {
			reason: "A convert to string prints %!d(string=…) on both sides.",
			in:     compositionYAML(formatPatch(fromSize, "      - {type: convert, convert: {toType: string}}\n")),
			xr:     "{size: 100}",
			want:   want{legacy: "%!d(string=100) GiB", pipeline: "%!d(string=100) GiB"},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			opts := tc.opts
			opts.Source = "in.yaml"
			res, err := Convert([]byte(tc.in), opts)
			if err != nil || res.Failed() {
				t.Fatalf("\n%s\nConvert(...): %v\n%s", tc.reason, err, render(res.Diagnostics))
			}
			xr := map[string]any{}
			if err := sigsyaml.Unmarshal([]byte("apiVersion: acme.io/v1\nkind: X\nmetadata: {name: x}\nspec: "+tc.xr), &xr); err != nil {
				t.Fatal(err)
			}
			envConfig := map[string]any{"apiVersion": "apiextensions.crossplane.io/v1alpha1", "kind": "EnvironmentConfig", "metadata": map[string]any{"name": "env"}, "data": map[string]any{"size": 100}}
			got := want{
				legacy:   renderOut(t, lastComposition(t, []byte(tc.in)), xr, envConfig),
				pipeline: renderOut(t, lastComposition(t, res.Output), xr, envConfig),
			}
			for _, d := range res.Diagnostics {
				if slices.Contains([]Code{"C212", "C323", "C325"}, d.Code) {
					got.codes = append(got.codes, d.Code)
				}
			}
			if diff := cmp.Diff(tc.want, got, cmp.AllowUnexported(want{})); diff != "" {
				t.Errorf("\n%s\nrenders of the legacy and converted Compositions: -want, +got:\n%s\n%s", tc.reason, diff, res.Output)
			}
		})
	}
}

// lastComposition decodes the last document of a stream.
func lastComposition(t *testing.T, stream []byte) map[string]any {
	t.Helper()
	docs := strings.Split(string(stream), "\n---\n")
	m := map[string]any{}
	if err := sigsyaml.Unmarshal([]byte(docs[len(docs)-1]), &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// renderOut renders one reconcile and returns spec.out of the composed
// resource r, or the error.
func renderOut(t *testing.T, comp, xr map[string]any, extra ...map[string]any) string {
	t.Helper()
	res, err := engine.Render(context.Background(), engine.Request{XR: xr, Composition: comp, Extra: extra}, engine.Options{})
	if err != nil {
		return "error: " + err.Error()
	}
	for _, c := range res.Outcome.Composed {
		if c.Name != "r" || c.Desired == nil {
			continue
		}
		spec, _ := c.Desired["spec"].(map[string]any)
		if s, ok := spec["out"].(string); ok {
			return s
		}
		return "not rendered"
	}
	return "not composed"
}
