package convert

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	sigsyaml "sigs.k8s.io/yaml"
)

// combinePatch is a CombineFromComposite (or typ) patch of resource r that
// writes spec.out with format f from the variables vars.
func combinePatch(typ, f string, vars ...string) string {
	s := "    - type: " + typ + "\n      toFieldPath: spec.out\n      combine:\n        strategy: string\n        variables:\n"
	for _, v := range vars {
		s += "        - fromFieldPath: " + v + "\n"
	}
	return oneResource(s + "        string:\n          fmt: '" + f + "'\n")
}

// TestCombineIntegerFormat pins the conversion of a Combine patch whose
// format prints an XR field the XRD types integer with %d or %v
// (compensation K4, C327): the verb becomes %.0f with the same flags and
// width, which prints the float64 the function receives as %d printed the
// int64 natively. Everything it cannot prove keeps the format and C211.
func TestCombineIntegerFormat(t *testing.T) {
	xrd := xrdYAML("integer", false) + "---\n"
	type want struct {
		fmt   string
		codes []Code // C211, C327 found
	}
	cases := map[string]struct {
		reason string
		in     string
		opts   Options
		want   want
	}{
		"IntegerVariable": {
			reason: "An integer XR field printed with %d: the verb becomes %.0f.",
			in:     xrd + compositionYAML(combinePatch(combineFromComp, "%s:%d", "spec.tier", "spec.size")),
			want:   want{fmt: "%s:%.0f", codes: []Code{"C327"}},
		},
		"FlagsAndWidth": {
			reason: "Flags and width carry over: %+05d becomes %+05.0f.",
			in:     xrd + compositionYAML(combinePatch(combineFromComp, "n-%+05d", "spec.size")),
			want:   want{fmt: "n-%+05.0f", codes: []Code{"C327"}},
		},
		"VerbV": {
			reason: "%v prints a float64 of a million or more as 1e+06, the int64 natively as 1000000: mapped too.",
			in:     xrd + compositionYAML(combinePatch(combineFromComp, "%s/%v", "spec.tier", "spec.size")),
			want:   want{fmt: "%s/%.0f", codes: []Code{"C327"}},
		},
		"LiteralPercent": {
			reason: "A literal %% consumes no variable.",
			in:     xrd + compositionYAML(combinePatch(combineFromComp, "%d%%", "spec.size")),
			want:   want{fmt: "%.0f%%", codes: []Code{"C327"}},
		},
		"NoXRD": {
			reason: "Without the XRD the value may be a string or a fraction: kept, C211.",
			in:     compositionYAML(combinePatch(combineFromComp, "%s:%d", "spec.tier", "spec.size")),
			want:   want{fmt: "%s:%d", codes: []Code{"C211"}},
		},
		"NumberType": {
			reason: "A field typed number can hold a fraction, which %d misprints natively: kept, C211.",
			in:     xrdYAML("number", false) + "---\n" + compositionYAML(combinePatch(combineFromComp, "%d", "spec.size")),
			want:   want{fmt: "%d", codes: []Code{"C211"}},
		},
		"Nullable": {
			reason: "A nullable integer can be null: kept, C211.",
			in:     xrdYAML("integer", true) + "---\n" + compositionYAML(combinePatch(combineFromComp, "%d", "spec.size")),
			want:   want{fmt: "%d", codes: []Code{"C211"}},
		},
		"StringVariableWithD": {
			reason: "%d on a string variable misprints alike on both sides, but the format is kept whole: C211.",
			in:     xrd + compositionYAML(combinePatch(combineFromComp, "%d-%d", "spec.size", "spec.tier")),
			want:   want{fmt: "%d-%d", codes: []Code{"C211"}},
		},
		"HexVerb": {
			reason: "%x has no float64 spelling that prints the same: kept, C211.",
			in:     xrd + compositionYAML(combinePatch(combineFromComp, "%x", "spec.size")),
			want:   want{fmt: "%x", codes: []Code{"C211"}},
		},
		"Precision": {
			reason: "%.3d pads with zeros, %.3f prints decimals: kept, C211.",
			in:     xrd + compositionYAML(combinePatch(combineFromComp, "%.3d", "spec.size")),
			want:   want{fmt: "%.3d", codes: []Code{"C211"}},
		},
		"SharpFlag": {
			reason: "# forces a decimal point on %.0f: kept, C211.",
			in:     xrd + compositionYAML(combinePatch(combineFromComp, "%#d", "spec.size")),
			want:   want{fmt: "%#d", codes: []Code{"C211"}},
		},
		"ArgumentIndex": {
			reason: "An explicit argument index is not followed: kept, C211.",
			in:     xrd + compositionYAML(combinePatch(combineFromComp, "%[1]d", "spec.size")),
			want:   want{fmt: "%[1]d", codes: []Code{"C211"}},
		},
		"ExtraVariable": {
			reason: "A variable no verb consumes prints %!(EXTRA int64=…) natively and float64 in the function: kept, C211.",
			in:     xrd + compositionYAML(combinePatch(combineFromComp, "%d", "spec.size", "spec.size")),
			want:   want{fmt: "%d", codes: []Code{"C211"}},
		},
		"FromEnvironment": {
			reason: "Environment data is float64 natively too: nothing to map, C211 as before.",
			in:     xrd + compositionYAML(combinePatch(combineFromEnv, "%d", "size")),
			want:   want{fmt: "%d", codes: []Code{"C211"}},
		},
		"NoCompensate": {
			reason: "--no-compensate K4 keeps the format (C211).",
			in:     xrd + compositionYAML(combinePatch(combineFromComp, "%d", "spec.size")),
			opts:   Options{NoCompensate: []string{CompensateCombineFormat}},
			want:   want{fmt: "%d", codes: []Code{"C211"}},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			res, err := Convert([]byte(tc.in), tc.opts)
			if err != nil || res.Failed() {
				t.Fatalf("\n%s\nConvert(...): %v\n%s", tc.reason, err, render(res.Diagnostics))
			}
			r := ptInput(t, lastComposition(t, res.Output))["resources"].([]any)[0].(map[string]any)
			p := r["patches"].([]any)[0].(map[string]any)
			got := want{fmt: p["combine"].(map[string]any)["string"].(map[string]any)["fmt"].(string)}
			for _, d := range res.Diagnostics {
				if d.Code == "C211" || d.Code == "C327" {
					got.codes = append(got.codes, d.Code)
				}
			}
			if diff := cmp.Diff(tc.want, got, cmp.AllowUnexported(want{})); diff != "" {
				t.Errorf("\n%s\nConvert(...): -want, +got:\n%s\n%s", tc.reason, diff, res.Output)
			}
		})
	}
}

// TestCombineIntegerFormatRenders renders each legacy Composition with the
// native emulator and its conversion with the function pipeline, and
// compares the string the Combine patch wrote: with K4 they agree for
// every integer (small, a million and more, negative and zero-padded);
// without it the function misprints.
func TestCombineIntegerFormatRenders(t *testing.T) {
	xrd := xrdYAML("integer", false) + "---\n"
	type want struct{ legacy, pipeline string }
	cases := map[string]struct {
		reason string
		in     string
		xr     string
		opts   Options
		want   want
	}{
		"Port": {
			reason: "The corpus case: a port in a URL.",
			in:     xrd + compositionYAML(combinePatch(combineFromComp, "https://%s:%d", "spec.tier", "spec.size")),
			xr:     "{tier: db.example.com, size: 4430}",
			want:   want{legacy: "https://db.example.com:4430", pipeline: "https://db.example.com:4430"},
		},
		"Million": {
			reason: "%v of a million: 1000000 on both sides.",
			in:     xrd + compositionYAML(combinePatch(combineFromComp, "%v", "spec.size")),
			xr:     "{size: 1000000}",
			want:   want{legacy: "1000000", pipeline: "1000000"},
		},
		"NegativeZeroPadded": {
			reason: "Sign and zero padding come out alike.",
			in:     xrd + compositionYAML(combinePatch(combineFromComp, "%05d|%-4d|%+d", "spec.size", "spec.size", "spec.size")),
			xr:     "{size: -42}",
			want:   want{legacy: "-0042|-42 |-42", pipeline: "-0042|-42 |-42"},
		},
		"Large": {
			reason: "A large integer below 2^53 prints every digit.",
			in:     xrd + compositionYAML(combinePatch(combineFromComp, "%d", "spec.size")),
			xr:     "{size: 9007199254740991}",
			want:   want{legacy: "9007199254740991", pipeline: "9007199254740991"},
		},
		"NoCompensate": {
			reason: "Without K4 the function misprints the integer (D30).",
			in:     xrd + compositionYAML(combinePatch(combineFromComp, "https://%s:%d", "spec.tier", "spec.size")),
			xr:     "{tier: db.example.com, size: 4430}",
			opts:   Options{NoCompensate: []string{CompensateCombineFormat}},
			want:   want{legacy: "https://db.example.com:4430", pipeline: "https://db.example.com:%!d(float64=4430)"},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			res, err := Convert([]byte(tc.in), tc.opts)
			if err != nil || res.Failed() {
				t.Fatalf("\n%s\nConvert(...): %v\n%s", tc.reason, err, render(res.Diagnostics))
			}
			xr := map[string]any{}
			if err := sigsyaml.Unmarshal([]byte("apiVersion: acme.io/v1\nkind: X\nmetadata: {name: x}\nspec: "+tc.xr), &xr); err != nil {
				t.Fatal(err)
			}
			got := want{
				legacy:   renderOut(t, lastComposition(t, []byte(tc.in)), xr),
				pipeline: renderOut(t, lastComposition(t, res.Output), xr),
			}
			if diff := cmp.Diff(tc.want, got, cmp.AllowUnexported(want{})); diff != "" {
				t.Errorf("\n%s\nrenders of the legacy and converted Compositions: -want, +got:\n%s\n%s", tc.reason, diff, res.Output)
			}
		})
	}
}
