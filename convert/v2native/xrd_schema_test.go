package v2native

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"k8s.io/kube-openapi/pkg/validation/spec"
	"k8s.io/kube-openapi/pkg/validation/strfmt"
	"k8s.io/kube-openapi/pkg/validation/validate"
	"sigs.k8s.io/yaml"

	"github.com/xpmigrate/xpmigrate/convert"
	"github.com/xpmigrate/xpmigrate/internal/testutil"
)

// crossplaneXRDSchemas returns the openAPIV3Schema of the v2 version of
// Crossplane's XRD CRD, by release (testdata/xrd/crossplane).
func crossplaneXRDSchemas(t *testing.T) map[string]map[string]any {
	return crossplaneXRDSchemasOf(t, "v2")
}

// crossplaneXRDSchemasOf is crossplaneXRDSchemas for an XRD version.
func crossplaneXRDSchemasOf(t *testing.T, version string) map[string]map[string]any {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("testdata", "xrd", "crossplane", "*.yaml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no Crossplane XRD CRDs in testdata/xrd/crossplane: %v", err)
	}
	out := map[string]map[string]any{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var crd struct {
			Spec struct {
				Versions []struct {
					Name   string `json:"name"`
					Schema struct {
						OpenAPIV3Schema map[string]any `json:"openAPIV3Schema"`
					} `json:"schema"`
				} `json:"versions"`
			} `json:"spec"`
		}
		if err := yaml.Unmarshal(b, &crd); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		for _, v := range crd.Spec.Versions {
			if v.Name == version {
				out[strings.SplitN(filepath.Base(f), "-", 2)[0]] = v.Schema.OpenAPIV3Schema
			}
		}
	}
	return out
}

// celChecks evaluates, for the objects the converter writes, the CEL rules
// of Crossplane's v2 XRD CRD that a create runs (transition rules, which
// read oldSelf, do not run on create). A rule not listed fails the test:
// a new Crossplane release must be taught here.
var celChecks = map[string]func(v any) bool{
	"!has(self.claimNames)":           func(v any) bool { _, ok := v.(map[string]any)["claimNames"]; return !ok },
	"!has(self.connectionSecretKeys)": func(v any) bool { _, ok := v.(map[string]any)["connectionSecretKeys"]; return !ok },
	// The v1 version's (validV1XRDs).
	"self.scope == 'LegacyCluster' || !has(self.claimNames)": func(v any) bool {
		m := v.(map[string]any)
		_, ok := m["claimNames"]
		return m["scope"] == nil || m["scope"] == "LegacyCluster" || !ok
	},
	"self.scope == 'LegacyCluster' || !has(self.connectionSecretKeys)": func(v any) bool {
		m := v.(map[string]any)
		_, ok := m["connectionSecretKeys"]
		return m["scope"] == nil || m["scope"] == "LegacyCluster" || !ok
	},
	"self.strategy == 'Webhook' && has(self.webhook)": func(v any) bool {
		m := v.(map[string]any)
		_, ok := m["webhook"]
		return m["strategy"] == "Webhook" && ok
	},
	"self.plural == self.plural.lowerAscii()": func(v any) bool {
		p, _ := v.(map[string]any)["plural"].(string)
		return p == strings.ToLower(p)
	},
	"!has(self.singular) || self.singular == self.singular.lowerAscii()": func(v any) bool {
		s, ok := v.(map[string]any)["singular"].(string)
		return !ok || s == strings.ToLower(s)
	},
}

// v2XRDProblems returns why Crossplane's v2 XRD CRD (schema root) would
// reject obj on create: schema violations, fields the schema does not
// know (strict field validation), failing CEL rules, and a name other than
// plural.group.
func v2XRDProblems(t *testing.T, root, obj map[string]any) []string {
	t.Helper()
	b, err := json.Marshal(root)
	if err != nil {
		t.Fatal(err)
	}
	var s spec.Schema
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range validate.NewSchemaValidator(&s, nil, "", strfmt.Default).Validate(obj).Errors {
		out = append(out, e.Error())
	}
	walkSchema(t, root, obj, "", &out)
	sp, _ := obj["spec"].(map[string]any)
	names, _ := sp["names"].(map[string]any)
	md, _ := obj["metadata"].(map[string]any)
	if want := fmt.Sprintf("%v.%v", names["plural"], sp["group"]); md["name"] != want {
		out = append(out, fmt.Sprintf("metadata.name %v is not plural.group %s", md["name"], want))
	}
	sort.Strings(out)
	return out
}

// walkSchema reports the fields of v the schema s does not declare and the
// CEL rules of s that v fails.
func walkSchema(t *testing.T, s map[string]any, v any, path string, out *[]string) {
	t.Helper()
	rules, _ := s["x-kubernetes-validations"].([]any)
	for _, r := range rules {
		rule, _ := r.(map[string]any)["rule"].(string)
		if strings.Contains(rule, "oldSelf") {
			continue
		}
		check, ok := celChecks[rule]
		if !ok {
			t.Fatalf("%s: CEL rule %q of Crossplane's XRD CRD is not known to celChecks", path, rule)
		}
		if !check(v) {
			*out = append(*out, fmt.Sprintf("%s: fails %q", path, rule))
		}
	}
	if p, _ := s["x-kubernetes-preserve-unknown-fields"].(bool); p {
		return
	}
	switch v := v.(type) {
	case map[string]any:
		props, _ := s["properties"].(map[string]any)
		ap, _ := s["additionalProperties"].(map[string]any)
		for k, fv := range v {
			if path == "" && (k == "apiVersion" || k == "kind" || k == "metadata") {
				continue
			}
			ps, ok := props[k].(map[string]any)
			if !ok {
				ps = ap
			}
			if ps == nil {
				*out = append(*out, fmt.Sprintf("%s.%s: unknown field", path, k))
				continue
			}
			walkSchema(t, ps, fv, path+"."+k, out)
		}
	case []any:
		items, _ := s["items"].(map[string]any)
		for i, it := range v {
			if items != nil {
				walkSchema(t, items, it, fmt.Sprintf("%s[%d]", path, i), out)
			}
		}
	}
}

// checkV2XRD fails the test when a v2 XRD in the converted stream out
// would not be accepted by Crossplane's v2 XRD CRD.
func checkV2XRD(t *testing.T, out []byte) {
	t.Helper()
	schemas := crossplaneXRDSchemas(t)
	for _, doc := range strings.Split(string(out), "\n---\n") {
		var obj map[string]any
		if err := yaml.Unmarshal([]byte(doc), &obj); err != nil || obj["apiVersion"] != XRDAPIVersionV2 {
			continue
		}
		for release, root := range schemas {
			if p := v2XRDProblems(t, root, obj); len(p) > 0 {
				t.Errorf("the v2 XRD is not valid for Crossplane %s:\n%s\n%s", release, strings.Join(p, "\n"), doc)
			}
		}
	}
}

// TestV2XRDSchemaCheck: the offline check of v2 XRDs finds what
// Crossplane's CRD rejects.
func TestV2XRDSchemaCheck(t *testing.T) {
	good := `apiVersion: apiextensions.crossplane.io/v2
kind: CompositeResourceDefinition
metadata: {name: buckets.example.org}
spec:
  group: example.org
  scope: Namespaced
  names: {kind: Bucket, plural: buckets}
  versions:
  - {name: v1, served: true, referenceable: true, schema: {openAPIV3Schema: {type: object}}}
`
	cases := map[string]struct {
		reason string
		doc    string
		want   int
	}{
		"Valid":        {reason: "A minimal v2 XRD is valid.", doc: good, want: 0},
		"Claims":       {reason: "claimNames fails the CEL rule of v2.", doc: strings.Replace(good, "  scope: Namespaced\n", "  scope: Namespaced\n  claimNames: {kind: B, plural: bs}\n", 1), want: 1},
		"LegacyScope":  {reason: "v2 has no LegacyCluster scope.", doc: strings.Replace(good, "Namespaced", "LegacyCluster", 1), want: 1},
		"UnknownField": {reason: "A field v2 does not know is reported.", doc: strings.Replace(good, "  scope: Namespaced\n", "  scope: Namespaced\n  bogus: 1\n", 1), want: 1},
		"Name":         {reason: "The name must be plural.group.", doc: strings.Replace(good, "buckets.example.org", "xbuckets.example.org", 1), want: 1},
		"UpperPlural":  {reason: "The plural must be lower case.", doc: strings.Replace(strings.Replace(good, "plural: buckets", "plural: Buckets", 1), "name: buckets.example.org", "name: Buckets.example.org", 1), want: 1},
	}
	schemas := crossplaneXRDSchemas(t)
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			var obj map[string]any
			if err := yaml.Unmarshal([]byte(tc.doc), &obj); err != nil {
				t.Fatal(err)
			}
			for release, root := range schemas {
				if got := v2XRDProblems(t, root, obj); len(got) != tc.want {
					t.Errorf("\n%s\nv2XRDProblems(%s): want %d problems, got %d: %v", tc.reason, release, tc.want, len(got), got)
				}
			}
		})
	}
}

// TestV2XRDGolden converts a realistic v1 XRD (comments, claims, a
// cluster export's fields, CEL rules and printer columns that read the
// XR machinery) and checks the v2 XRD against the golden file and
// Crossplane's v2 XRD CRD.
func TestV2XRDGolden(t *testing.T) {
	dir := filepath.Join("testdata", "xrd", "realistic")
	in, err := os.ReadFile(filepath.Join(dir, "input.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	opts := convert.Options{Source: "input.yaml", Target: "v2"}
	res, err := Convert(in, opts)
	if err != nil {
		t.Fatalf("Convert(...): %v", err)
	}
	testutil.Golden(t, filepath.Join(dir, "golden.yaml"), res.Output)
	testutil.Golden(t, filepath.Join(dir, "diagnostics.golden"), []byte(render(res.Diagnostics)))
	if res.Failed() {
		t.Fatalf("Convert(...) failed:\n%s", render(res.Diagnostics))
	}
	checkV2XRD(t, res.Output)
	again, err := Convert(res.Output, opts)
	if err != nil || again.Changed {
		t.Errorf("Convert(output): converting the output again changed it (%v)", err)
	}
}

// TestV2XRDCorpus converts every file of the corpus with XRDs for the
// v2-native target: each apiextensions.crossplane.io/v1 XRD is converted
// or refused with an error code, and every v2 XRD written is valid for
// Crossplane's v2 XRD CRD.
func TestV2XRDCorpus(t *testing.T) {
	converted, refused := 0, 0
	for _, f := range corpusFiles(t) {
		if !strings.Contains(string(f.data), "CompositeResourceDefinition") {
			continue
		}
		for _, scope := range []string{convert.XRScopeAuto, convert.XRScopeCluster} {
			res, err := Convert(f.data, convert.Options{Source: f.rel, Target: "v2", XRScope: scope})
			if err != nil {
				continue // Not YAML: the corpus test covers it.
			}
			for _, d := range res.Documents {
				if d.Kind != "CompositeResourceDefinition" {
					continue
				}
				switch d.Status {
				case convert.StatusConverted:
					converted++
				case convert.StatusFailed:
					refused++
					if !hasDocError(res.Diagnostics, d.Index) {
						t.Errorf("%s document %d (%s): refused without an error finding", f.rel, d.Index, scope)
					}
				case convert.StatusUnchanged: // apiextensions.crossplane.io/v2 already.
				default:
					t.Errorf("%s document %d (%s): XRD %s", f.rel, d.Index, scope, d.Status)
				}
			}
			if !res.Failed() && validV1XRDs(t, f.data) {
				// An XRD that Crossplane's own v1 schema rejects (the
				// corpus has one with a CRD's storage field) stays
				// invalid.
				checkV2XRD(t, res.Output)
			}
		}
	}
	if converted == 0 {
		t.Errorf("no XRD of the corpus was converted (%d refused)", refused)
	}
	t.Logf("corpus XRDs: %d conversions, %d refusals", converted, refused)
}

// validV1XRDs reports whether every v1 XRD in data is valid for the v1
// version of Crossplane's XRD CRD (the name rule aside).
func validV1XRDs(t *testing.T, data []byte) bool {
	t.Helper()
	schemas := crossplaneXRDSchemasOf(t, "v1")
	for _, doc := range strings.Split(string(data), "\n---\n") {
		var obj map[string]any
		if err := yaml.Unmarshal([]byte(doc), &obj); err != nil || obj["kind"] != "CompositeResourceDefinition" || obj["apiVersion"] != "apiextensions.crossplane.io/v1" {
			continue
		}
		for _, root := range schemas {
			for _, p := range v2XRDProblems(t, root, obj) {
				if !strings.HasPrefix(p, "metadata.name") {
					return false
				}
			}
		}
	}
	return true
}

func hasDocError(ds []convert.Diagnostic, doc int) bool {
	for _, d := range ds {
		if d.Document == doc && d.Severity == convert.SeverityError {
			return true
		}
	}
	return false
}
