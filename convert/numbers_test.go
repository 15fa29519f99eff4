package convert

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	sigsyaml "sigs.k8s.io/yaml"
)

// xrdYAML returns an XRD of the type compositionYAML composes (acme.io/v1
// X) whose spec.size has the schema type typ.
func xrdYAML(typ string, nullable bool) string {
	n := ""
	if nullable {
		n = ", nullable: true"
	}
	return `apiVersion: apiextensions.crossplane.io/v1
kind: CompositeResourceDefinition
metadata: {name: xs.acme.io}
spec:
  group: acme.io
  names: {kind: X, plural: xs}
  versions:
  - name: v1
    served: true
    referenceable: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              size: {type: ` + typ + n + `}
              tier: {type: string}
`
}

// formatPatch is a FromCompositeFieldPath patch of spec.size (or the
// given patch head) through transforms, then a %d format.
func formatPatch(head, transforms string) string {
	return oneResource("    - " + head + "\n      toFieldPath: spec.out\n      transforms:\n" + transforms + "      - {type: string, string: {type: Format, fmt: '%d GiB'}}\n")
}

const fromSize = "type: FromCompositeFieldPath\n      fromFieldPath: spec.size"

// TestIntegerFormat checks where the converter inserts a convert to int64
// before a %d format (K1, C323), where it reports the float64 print it
// cannot prove wrong (C212), and where it fixes the quirk on request
// (C325), for every source of a value.
func TestIntegerFormat(t *testing.T) {
	const envRead = "type: FromEnvironmentFieldPath\n      fromFieldPath: size"
	cases := map[string]struct {
		reason     string
		in         string
		opts       Options
		want       []Code
		wantInsert bool
		annotation string // the intended-changes annotation, "" for none
	}{
		"XRFieldUnknownType": {
			reason: "An XR field without a known schema may be an int64, a float64 or a string natively: no convert, C212.",
			in:     compositionYAML(formatPatch(fromSize, "")),
			want:   []Code{"C212"},
		},
		"XRFieldIntegerSchemaInStream": {
			reason: "An XR field the XRD (in the same stream) types integer is always int64 natively: the convert restores native output (C323).",
			in:     xrdYAML("integer", false) + "---\n" + compositionYAML(formatPatch(fromSize, "")),
			want:   []Code{"C323", "C317"}, wantInsert: true,
		},
		"XRFieldIntegerSchemaOption": {
			reason: "Options.XRDs give the schema too.",
			in:     compositionYAML(formatPatch(fromSize, "")),
			opts:   Options{XRDs: []map[string]any{xrdObject(t, "integer")}},
			want:   []Code{"C323", "C317"}, wantInsert: true,
		},
		"XRFieldNullableInteger": {
			reason: "A nullable integer can be null, which natively printed %!d(<nil>) and would fail a convert: C212.",
			in:     xrdYAML("integer", true) + "---\n" + compositionYAML(formatPatch(fromSize, "")),
			want:   []Code{"C212"},
		},
		"XRFieldNumberSchema": {
			reason: "A number field can hold 1.5, which natively printed %!d(float64=1.5): C212.",
			in:     xrdYAML("number", false) + "---\n" + compositionYAML(formatPatch(fromSize, "")),
			want:   []Code{"C212"},
		},
		"XRFieldStringSchema": {
			reason: "A string field prints %!d(string=…) on both sides: nothing to do.",
			in:     xrdYAML("string", false) + "---\n" + compositionYAML(formatPatch(fromSize, "")),
		},
		"XRFieldIntegerSchemaFixQuirk": {
			reason: "Where the convert is provably right it is a compensation (C323), not an intended change.",
			in:     xrdYAML("integer", false) + "---\n" + compositionYAML(formatPatch(fromSize, "")),
			opts:   Options{FixQuirks: []string{QuirkIntegerFormat}},
			want:   []Code{"C323", "C317"}, wantInsert: true,
		},
		"XRFieldFixQuirk": {
			reason: "--fix-quirk C325 inserts the convert on an XR field of unknown type, as an intended change.",
			in:     compositionYAML(formatPatch(fromSize, "")),
			opts:   Options{FixQuirks: []string{QuirkIntegerFormat}},
			want:   []Code{"C325", "C317"}, wantInsert: true, annotation: "C325",
		},
		"EnvironmentData": {
			reason: "EnvironmentConfig data is float64 natively (plain JSON decoder): native printed %!d(float64=N) too, so nothing is inserted.",
			in:     compositionYAML(formatPatch(envRead, "")),
		},
		"EnvironmentDataFixQuirk": {
			reason: "--fix-quirk C325 fixes the float64 print of environment data, declared in the annotation.",
			in:     compositionYAML(formatPatch(envRead, "")),
			opts:   Options{FixQuirks: []string{QuirkIntegerFormat}},
			want:   []Code{"C325", "C317"}, wantInsert: true, annotation: "C325",
		},
		"EnvironmentWritten": {
			reason: "After a patch writes the environment, native re-reads it with int64 integers: C212.",
			in: compositionYAML(oneResource("    - {type: ToEnvironmentFieldPath, fromFieldPath: spec.x, toFieldPath: x}\n" +
				"    - type: FromEnvironmentFieldPath\n      fromFieldPath: size\n      toFieldPath: spec.out\n      transforms:\n      - {type: string, string: {type: Format, fmt: '%d'}}\n")),
			want: []Code{"C212"},
		},
		"EnvironmentPatchToComposite": {
			reason: "An environment patch reading the environment into the XR's spec: float64 natively, nothing inserted (C209 for the spec write).",
			in:     compositionYAML(oneResource("    - {fromFieldPath: spec.a}\n") + "  environment:\n    patches:\n    - {type: ToCompositeFieldPath, fromFieldPath: size, toFieldPath: spec.label, transforms: [{type: string, string: {type: Format, fmt: '%d'}}]}\n"),
			want:   []Code{"C310", "C311", "C209"},
		},
		"MapOutput": {
			reason: "A map value is float64 natively (the Composition's JSON): nothing inserted.",
			in:     compositionYAML(formatPatch("type: FromCompositeFieldPath\n      fromFieldPath: spec.tier", "      - {type: map, map: {small: 100, large: 500}}\n")),
			want:   []Code{"C317"},
		},
		"MapOutputFixQuirk": {
			reason: "--fix-quirk C325 converts a map value before %d.",
			in:     compositionYAML(formatPatch("type: FromCompositeFieldPath\n      fromFieldPath: spec.tier", "      - {type: map, map: {small: 100, large: 500}}\n")),
			opts:   Options{FixQuirks: []string{QuirkIntegerFormat}},
			want:   []Code{"C317", "C325"}, wantInsert: true, annotation: "C325",
		},
		"MapOfStrings": {
			reason: "A map of strings prints %!d(string=…) on both sides, even with --fix-quirk C325.",
			in:     compositionYAML(formatPatch("type: FromCompositeFieldPath\n      fromFieldPath: spec.tier", "      - {type: map, map: {small: '100'}}\n")),
			opts:   Options{FixQuirks: []string{QuirkIntegerFormat}},
			want:   []Code{"C317"},
		},
		"MatchOutput": {
			reason: "A match result is float64 natively: nothing inserted.",
			in:     compositionYAML(formatPatch("type: FromCompositeFieldPath\n      fromFieldPath: spec.tier", "      - {type: match, match: {patterns: [{type: literal, literal: small, result: 100}], fallbackValue: 10}}\n")),
		},
		"MatchFallbackToInput": {
			reason: "A match that falls back to its (string) input gives a float64 or a string: nothing inserted.",
			in:     compositionYAML(formatPatch("type: FromCompositeFieldPath\n      fromFieldPath: spec.tier", "      - {type: match, match: {patterns: [{type: literal, literal: small, result: 100}], fallbackTo: Input}}\n")),
		},
		"MathOnXRField": {
			reason: "A product of an XR field of unknown type is int64 or float64 natively: C212.",
			in:     compositionYAML(formatPatch(fromSize, "      - {type: math, math: {type: Multiply, multiply: 2}}\n")),
			want:   []Code{"C317", "C212"},
		},
		"MathOnIntegerField": {
			reason: "A product of an integer XR field is int64 natively: the convert restores it (C323).",
			in:     xrdYAML("integer", false) + "---\n" + compositionYAML(formatPatch(fromSize, "      - {type: math, math: {type: Multiply, multiply: 2}}\n")),
			want:   []Code{"C317", "C323"}, wantInsert: true,
		},
		"MathOnEnvironment": {
			reason: "A product of environment data is float64 on both sides: nothing inserted.",
			in:     compositionYAML(formatPatch(envRead, "      - {type: math, math: {type: Multiply, multiply: 2}}\n")),
			want:   []Code{"C317"},
		},
		"ClampOnIntegerField": {
			reason: "A clamp of an integer gives the bound or the input, int64 both: the convert restores native output (C323).",
			in:     xrdYAML("integer", false) + "---\n" + compositionYAML(formatPatch(fromSize, "      - {type: math, math: {type: ClampMin, clampMin: 10}}\n")),
			want:   []Code{"C317", "C323"}, wantInsert: true,
		},
		"ClampOnEnvironment": {
			reason: "A clamp of environment data is an int64 bound (same on both sides) or the float64 input: nothing inserted.",
			in:     compositionYAML(formatPatch(envRead, "      - {type: math, math: {type: ClampMin, clampMin: 10}}\n")),
			want:   []Code{"C317"},
		},
		"ConvertToFloat": {
			reason: "A convert to float64 gives float64 on both sides: nothing inserted.",
			in:     compositionYAML(formatPatch(fromSize, "      - {type: convert, convert: {toType: float64}}\n")),
			want:   []Code{"C317"},
		},
		"ConvertToInt": {
			reason: "A convert to int64 gives int64 on both sides: no second convert.",
			in:     compositionYAML(formatPatch(fromSize, "      - {type: convert, convert: {toType: int64}}\n")),
			want:   []Code{"C317"},
		},
		"ConvertToString": {
			reason: "A convert to string prints %!d(string=…) on both sides: nothing inserted.",
			in:     compositionYAML(formatPatch(fromSize, "      - {type: convert, convert: {toType: string}}\n")),
			want:   []Code{"C317"},
		},
		"AfterCombine": {
			reason: "A combine gives a string: a later %d prints %!d(string=…) on both sides, nothing inserted.",
			in:     compositionYAML(oneResource("    - {type: CombineFromComposite, toFieldPath: spec.out, combine: {strategy: string, variables: [{fromFieldPath: spec.size}], string: {fmt: '%v'}}, transforms: [{type: string, string: {type: Format, fmt: '%d'}}]}\n")),
		},
		"ComposedField": {
			reason: "A composed resource field of unknown type, read back into the XR: C212.",
			in:     compositionYAML(oneResource("    - {type: ToCompositeFieldPath, fromFieldPath: status.size, toFieldPath: status.label, transforms: [{type: string, string: {type: Format, fmt: '%d'}}]}\n")),
			want:   []Code{"C212"},
		},
		"AnnotationMerged": {
			reason: "The intended-changes annotation joins existing annotations.",
			in:     strings.Replace(compositionYAML(formatPatch(envRead, "")), "  name: c\n", "  name: c\n  annotations:\n    team: a\n", 1),
			opts:   Options{FixQuirks: []string{QuirkIntegerFormat}},
			want:   []Code{"C325", "C317"}, wantInsert: true, annotation: "C325",
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
			if diff := cmp.Diff(tc.want, codes(res.Diagnostics)); diff != "" {
				t.Errorf("\n%s\nConvert(...) codes: -want, +got:\n%s\n%s", tc.reason, diff, render(res.Diagnostics))
			}
			if res.Failed() {
				t.Fatalf("\n%s\nConvert(...): failed\n%s", tc.reason, render(res.Diagnostics))
			}
			out := string(res.Output)
			if got := strings.Count(out, "toType: int64") > strings.Count(tc.in, "toType: int64"); got != tc.wantInsert {
				t.Errorf("\n%s\nConvert(...): int64 convert inserted: want %v, got %v\n%s", tc.reason, tc.wantInsert, got, out)
			}
			want := ""
			if tc.annotation != "" {
				want = "    " + IntendedChangesAnnotation + `: "` + tc.annotation + `"` + "\n"
			}
			got := ""
			if i := strings.Index(out, "    "+IntendedChangesAnnotation); i >= 0 {
				got = out[i : i+strings.Index(out[i:], "\n")+1]
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("\n%s\nConvert(...) annotation: -want, +got:\n%s\n%s", tc.reason, diff, out)
			}
		})
	}
}

func TestFixQuirksOption(t *testing.T) {
	cases := map[string]struct {
		reason  string
		quirks  []string
		invalid bool
	}{
		"Known":   {reason: "C325 is a quirk fix.", quirks: []string{"C325"}},
		"Unknown": {reason: "Any other code is an invalid option.", quirks: []string{"C323"}, invalid: true},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := Convert([]byte(compositionYAML(formatPatch(fromSize, ""))), Options{FixQuirks: tc.quirks})
			if got := IsInvalidOption(err); got != tc.invalid {
				t.Errorf("\n%s\nConvert(...): invalid option: want %v, got %v (%v)", tc.reason, tc.invalid, got, err)
			}
		})
	}
}

// xrdObject is xrdYAML decoded, as Options.XRDs holds it.
func xrdObject(t *testing.T, typ string) map[string]any {
	t.Helper()
	var m map[string]any
	if err := sigsyaml.Unmarshal([]byte(xrdYAML(typ, false)), &m); err != nil {
		t.Fatal(err)
	}
	return m
}
