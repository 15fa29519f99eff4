package convert

import (
	"fmt"
	"math/rand"
	"slices"
	"strings"
	"testing"

	sigsyaml "sigs.k8s.io/yaml"
)

// TestIntegerFormatProperty generates one-patch Compositions: a source (XR
// field with or without an XRD type, environment data with or without a
// patch writing to the environment), up to two transforms, and a Format
// with an integer verb, and renders them with XR and environment values of
// every type. The invariant: a conversion that reports neither C212 nor
// C325 for the patch renders the formatted field exactly as the legacy
// Composition does (or fails where it failed).
func TestIntegerFormatProperty(t *testing.T) {
	n := 300
	if testing.Short() {
		n = 60
	}
	r := rand.New(rand.NewSource(12))
	schemas := []string{"", "integer", "number", "string"}
	transforms := []string{
		"{type: map, map: {'100': 5, small: 7, '1.5': 2.5}}",
		"{type: map, map: {'100': 'x', small: '7'}}",
		"{type: match, match: {patterns: [{type: literal, literal: small, result: 3}], fallbackValue: 4}}",
		"{type: match, match: {patterns: [{type: regexp, regexp: '^1', result: 'one'}], fallbackTo: Input}}",
		"{type: math, math: {type: Multiply, multiply: 2}}",
		"{type: math, math: {type: ClampMin, clampMin: 10}}",
		"{type: math, math: {type: ClampMax, clampMax: 10}}",
		"{type: convert, convert: {toType: int64}}",
		"{type: convert, convert: {toType: float64}}",
		"{type: convert, convert: {toType: string}}",
		"{type: string, string: {type: Format, fmt: '%v'}}",
	}
	formats := []string{"%d", "n-%05d", "%x", "%o", "%X"}
	values := []any{100, 7, 1.5, "100", "small", true}
	checked := 0
	for i := 0; i < n; i++ {
		schema := schemas[r.Intn(len(schemas))]
		env := r.Intn(3) // 0: XR field, 1: environment, 2: environment after a write
		var chain []string
		for j := r.Intn(3); j > 0; j-- {
			chain = append(chain, transforms[r.Intn(len(transforms))])
		}
		format := formats[r.Intn(len(formats))]
		ts := strings.Join(append(chain, "{type: string, string: {type: Format, fmt: '"+format+"'}}"), ", ")
		var patches, envBlock string
		switch env {
		case 0:
			patches = "    - {type: FromCompositeFieldPath, fromFieldPath: spec.size, toFieldPath: spec.out, transforms: [" + ts + "]}\n"
		default:
			if env == 2 {
				patches = "    - {type: ToEnvironmentFieldPath, fromFieldPath: spec.x, toFieldPath: x}\n"
			}
			patches += "    - {type: FromEnvironmentFieldPath, fromFieldPath: size, toFieldPath: spec.out, transforms: [" + ts + "]}\n"
			envBlock = "  environment:\n    environmentConfigs: [{type: Reference, ref: {name: env}}]\n"
		}
		in := compositionYAML("  resources:\n  - name: r\n    base: {apiVersion: nop.crossplane.io/v1alpha1, kind: NopResource, spec: {x: 1}}\n    patches:\n" + patches + envBlock)
		if schema != "" && env == 0 {
			in = xrdYAML(schema, false) + "---\n" + in
		}
		res, err := Convert([]byte(in), Options{Source: "in.yaml"})
		if err != nil || res.Failed() {
			continue // Refused: nothing to compare.
		}
		if slices.ContainsFunc(res.Diagnostics, func(d Diagnostic) bool { return d.Code == "C212" || d.Code == "C325" }) {
			continue // Declared: verify classifies the difference.
		}
		legacy, converted := lastComposition(t, []byte(in)), lastComposition(t, res.Output)
		for _, v := range values {
			if !fitsSchema(schema, env, v) {
				continue
			}
			xr := map[string]any{}
			if err := sigsyaml.Unmarshal([]byte("apiVersion: acme.io/v1\nkind: X\nmetadata: {name: x}\nspec: {}\n"), &xr); err != nil {
				t.Fatal(err)
			}
			envConfig := map[string]any{"apiVersion": "apiextensions.crossplane.io/v1alpha1", "kind": "EnvironmentConfig", "metadata": map[string]any{"name": "env"}, "data": map[string]any{}}
			if env == 0 {
				xr["spec"].(map[string]any)["size"] = jsonNumber(v)
			} else {
				envConfig["data"].(map[string]any)["size"] = v
			}
			l, p := failedAsOne(renderOut(t, legacy, xr, envConfig)), failedAsOne(renderOut(t, converted, xr, envConfig))
			checked++
			if l != p {
				t.Errorf("accepted without C212 or C325, yet renders differ for %v (source %d, XRD type %q):\nlegacy   %q\npipeline %q\n%s\n%s", v, env, schema, l, p, in, render(res.Diagnostics))
			}
		}
	}
	if checked == 0 {
		t.Fatal("no conversion was compared")
	}
	t.Logf("%d renders compared", checked)
}

// fitsSchema reports whether the API server would accept v for spec.size
// of the given XRD type (only XR fields are typed).
func fitsSchema(schema string, env int, v any) bool {
	if env != 0 || schema == "" {
		return true
	}
	switch v := v.(type) {
	case int:
		return schema == "integer" || schema == "number"
	case float64:
		return schema == "number" && v != float64(int64(v))
	case string:
		return schema == "string"
	}
	return false
}

// jsonNumber gives an XR value as a Kubernetes-decoded object holds it.
func jsonNumber(v any) any {
	if i, ok := v.(int); ok {
		return int64(i)
	}
	return v
}

// failedAsOne maps every way a patch fails (the legacy resource not
// rendered, the pipeline's fatal error) to one outcome: the difference
// between them is C317's, not the format's.
func failedAsOne(s string) string {
	if strings.HasPrefix(s, "error: ") || s == "not rendered" || s == "not composed" {
		return "failed"
	}
	return fmt.Sprint(s)
}
