package migrate

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/xpmigrate/xpmigrate/convert"
	"github.com/xpmigrate/xpmigrate/internal/testutil"
)

const adapterXRD = `apiVersion: apiextensions.crossplane.io/v1
kind: CompositeResourceDefinition
metadata:
  name: xthings.example.org
spec:
  group: example.org
  names:
    kind: XThing
    plural: xthings
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
              size:
                type: string
                enum: [small, large]
`

const adapterComposition = testutil.ThingsLegacy + `      transforms:
      - type: map
        map: {small: "1", large: "9"}
`

// TestAdapters runs the real converter and verifier on small trees.
func TestAdapters(t *testing.T) {
	type want struct {
		status  CompositionStatus
		verify  VerifyStatus
		samples []string
		codes   []string
	}
	cases := map[string]struct {
		reason     string
		files      map[string]string
		synthesize int
		want       want
	}{
		"Example": {
			reason: "A Composition with an XR example is converted and verified equivalent.",
			files: map[string]string{
				"composition.yaml": adapterComposition,
				"xr.yaml":          "apiVersion: example.org/v1\nkind: XThing\nmetadata:\n  name: x\nspec:\n  size: large\n",
			},
			want: want{status: CompositionConverted, verify: VerifyEquivalent, samples: []string{"xr.yaml#1"}},
		},
		"Synthesized": {
			reason:     "Without examples, samples are generated from the XRD.",
			files:      map[string]string{"composition.yaml": adapterComposition, "definition.yaml": adapterXRD},
			synthesize: 2,
			want:       want{status: CompositionConverted, verify: VerifyEquivalent, samples: []string{"synthesized-0", "synthesized-1"}},
		},
		"NoXRDNothingToSynthesize": {
			reason:     "Without an XRD nothing can be synthesized: unverified.",
			files:      map[string]string{"composition.yaml": adapterComposition},
			synthesize: 2,
			want:       want{status: CompositionConverted, verify: VerifyUnverified},
		},
		"JSON": {
			reason: "A JSON file is converted and stays JSON.",
			files: map[string]string{
				"composition.json": `{"apiVersion": "apiextensions.crossplane.io/v1", "kind": "Composition", "metadata": {"name": "j"}, "spec": {"compositeTypeRef": {"apiVersion": "example.org/v1", "kind": "XJ"}, "resources": [{"name": "a", "base": {"apiVersion": "v1", "kind": "ConfigMap"}}]}}`,
				"xr.json":          `{"apiVersion": "example.org/v1", "kind": "XJ", "metadata": {"name": "x"}}`,
			},
			want: want{status: CompositionConverted, verify: VerifyEquivalent, samples: []string{"xr.json#1"}},
		},
		"LeadingCommentDocument": {
			reason: "A comment before the first separator belongs to no document: the converter's findings land on the Composition.",
			files: map[string]string{
				"composition.yaml": "# Licensed under Apache-2.0.\n---\n" + strings.Replace(adapterComposition, "  resources:\n", "  mode: Bogus\n  resources:\n", 1),
			},
			want: want{status: CompositionFailed, codes: []string{"C103"}},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			root := filepath.Join(t.TempDir(), "repo")
			writeTree(t, root, tc.files)
			res, err := Run(context.Background(), Options{
				Root: root, Converter: NewConverter(convert.Options{}), Verifier: NewVerifier(false),
				Verify: true, Synthesize: tc.synthesize, Write: WriteNone,
			})
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Compositions) != 1 {
				t.Fatalf("%s\nRun(...): want 1 Composition, got %d", tc.reason, len(res.Compositions))
			}
			c := res.Compositions[0]
			got := want{status: c.Status}
			if v := c.Verification; v != nil {
				got.verify = v.Status
				for _, s := range v.Samples {
					got.samples = append(got.samples, s.Source)
				}
			}
			for _, d := range c.Diagnostics {
				if d.Severity == SeverityError {
					got.codes = append(got.codes, d.Code)
				}
			}
			if diff := cmp.Diff(tc.want, got, cmp.AllowUnexported(want{})); diff != "" {
				t.Errorf("%s\nRun(...): -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}

func TestYAMLToOrderedJSON(t *testing.T) {
	cases := map[string]struct {
		reason  string
		in      string
		want    string
		wantErr bool
	}{
		"KeyOrderAndTypes": {
			reason: "Keys keep their order; numbers, booleans and null keep their types; quoted scalars stay strings.",
			in:     "{\"b\": 1, \"a\": [true, null, \"2\", 1.5], \"c\": {}}\n",
			want:   "{\n  \"b\": 1,\n  \"a\": [\n    true,\n    null,\n    \"2\",\n    1.5\n  ],\n  \"c\": {}\n}\n",
		},
		"BlockYAML": {
			reason: "Block YAML written by the converter into a JSON file becomes JSON.",
			in:     "mode: Pipeline\npipeline:\n- step: s\n  input: {kind: Resources}\n",
			want:   "{\n  \"mode\": \"Pipeline\",\n  \"pipeline\": [\n    {\n      \"step\": \"s\",\n      \"input\": {\n        \"kind\": \"Resources\"\n      }\n    }\n  ]\n}\n",
		},
		"EmptyLists": {
			reason: "Empty lists and objects are written on one line, nested ones indented.",
			in:     "{\"a\": [], \"b\": [[], {}]}\n",
			want:   "{\n  \"a\": [],\n  \"b\": [\n    [],\n    {}\n  ]\n}\n",
		},
		"NotJSON": {
			reason:  "A value JSON cannot hold is an error.",
			in:      "a: .inf\n",
			wantErr: true,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, err := yamlToOrderedJSON([]byte(tc.in))
			if (err != nil) != tc.wantErr {
				t.Fatalf("%s\nyamlToOrderedJSON(...): error %v, want error %t", tc.reason, err, tc.wantErr)
			}
			if diff := cmp.Diff(tc.want, string(got)); diff != "" {
				t.Errorf("%s\nyamlToOrderedJSON(...): -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}

// TestConverterUsesTreeXRDs checks that the migrator hands the converter
// the XRD of a Composition's type found in the tree: with it, an integer
// XR field before a %d format gets the int64 convert (C323); without it,
// the converter cannot prove the field is an integer (C212).
func TestConverterUsesTreeXRDs(t *testing.T) {
	xrd := strings.Replace(adapterXRD, "              size:\n                type: string\n                enum: [small, large]\n", "              count:\n                type: integer\n", 1)
	comp := strings.Replace(adapterComposition, "    - fromFieldPath: spec.size\n      toFieldPath: spec.forProvider.size\n      transforms:\n      - type: map\n        map: {small: \"1\", large: \"9\"}\n",
		"    - fromFieldPath: spec.count\n      toFieldPath: spec.forProvider.name\n      transforms:\n      - {type: string, string: {type: Format, fmt: 'bucket-%d'}}\n", 1)
	cases := map[string]struct {
		reason string
		files  map[string]string
		want   []string
	}{
		"WithXRD": {
			reason: "The XRD beside the Composition types spec.count integer: C323.",
			files:  map[string]string{"apis/composition.yaml": comp, "apis/definition.yaml": xrd},
			want:   []string{"C323"},
		},
		"WithoutXRD": {
			reason: "Without an XRD the field's type is unknown: C212.",
			files:  map[string]string{"apis/composition.yaml": comp},
			want:   []string{"C212"},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			root := filepath.Join(t.TempDir(), "repo")
			writeTree(t, root, tc.files)
			res, err := Run(context.Background(), Options{Root: root, Converter: NewConverter(convert.Options{}), Write: WriteNone})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, c := range res.Compositions {
				for _, d := range c.Diagnostics {
					if d.Code == "C212" || d.Code == "C323" {
						got = append(got, d.Code)
					}
				}
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s\nRun(...) codes: -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}
