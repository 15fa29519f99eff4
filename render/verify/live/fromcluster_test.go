package live

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/pkg/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/yaml"

	"github.com/xpmigrate/xpmigrate/internal/errkind"
	"github.com/xpmigrate/xpmigrate/render/verify"
	"github.com/xpmigrate/xpmigrate/render/verify/format"
)

func TestFromCluster(t *testing.T) {
	// As the API server returns them: bookkeeping, status and the
	// defaults of the CRD.
	stored := func(name, mode string) *unstructured.Unstructured {
		spec := map[string]any{"compositeTypeRef": map[string]any{"apiVersion": "example.org/v1alpha1", "kind": "XThing"}}
		if mode != "" {
			spec["mode"] = mode
		}
		return &unstructured.Unstructured{Object: map[string]any{
			"apiVersion": "apiextensions.crossplane.io/v1", "kind": "Composition",
			"metadata": map[string]any{
				"name": name, "uid": "u-1", "resourceVersion": "42", "generation": int64(3),
				"creationTimestamp": "2026-01-01T00:00:00Z", "managedFields": []any{map[string]any{"manager": "kubectl"}},
				"labels":      map[string]any{"team": "a"},
				"annotations": map[string]any{"kubectl.kubernetes.io/last-applied-configuration": "{}"},
			},
			"spec":   spec,
			"status": map[string]any{"x": "y"},
		}}
	}
	want := func(name, mode string) map[string]any {
		spec := map[string]any{"compositeTypeRef": map[string]any{"apiVersion": "example.org/v1alpha1", "kind": "XThing"}}
		if mode != "" {
			spec["mode"] = mode
		}
		return map[string]any{
			"apiVersion": "apiextensions.crossplane.io/v1", "kind": "Composition",
			"metadata": map[string]any{"name": name, "labels": map[string]any{"team": "a"}},
			"spec":     spec,
		}
	}
	comps := []*unstructured.Unstructured{stored("b", "Resources"), stored("p", "Pipeline"), stored("a", "")}
	type out struct {
		Paths   []string
		Objects []map[string]any
		Skipped []Skipped
		Invalid bool
	}
	cases := map[string]struct {
		reason string
		names  []string
		want   out
	}{
		"EveryLegacyCompositionWithoutServerFields": {
			reason: "Without names every legacy Composition (mode Resources or no mode) is kept, sorted by name, without status and the API server's metadata; Pipeline ones are skipped.",
			want: out{
				Paths:   []string{"Composition a (cluster)", "Composition b (cluster)"},
				Objects: []map[string]any{want("a", ""), want("b", "Resources")},
				Skipped: []Skipped{{Name: "p", Reason: "mode: Pipeline, not a legacy Composition"}},
			},
		},
		"NamesSelect": {
			reason: "Names select the Compositions to check; a name given twice is checked once.",
			names:  []string{"b", "b"},
			want:   out{Paths: []string{"Composition b (cluster)"}, Objects: []map[string]any{want("b", "Resources")}},
		},
		"NamedPipelineSkipped": {
			reason: "A named Pipeline Composition is skipped, not an error.",
			names:  []string{"p"},
			want:   out{Skipped: []Skipped{{Name: "p", Reason: "mode: Pipeline, not a legacy Composition"}}},
		},
		"UnknownNameIsInvalidInput": {
			reason: "A name the cluster has no Composition of is invalid input.",
			names:  []string{"a", "nope"},
			want:   out{Invalid: true},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			docs, skipped, err := FromCluster(comps, tc.names)
			got := out{Skipped: skipped, Invalid: errkind.IsInvalidInput(err)}
			if err != nil && !got.Invalid {
				t.Fatalf("FromCluster(...): %v", err)
			}
			for _, d := range docs {
				got.Paths = append(got.Paths, d.Path)
				o := map[string]any{}
				if err := yaml.Unmarshal(d.Data, &o); err != nil {
					t.Fatalf("%s: %v", d.Path, err)
				}
				got.Objects = append(got.Objects, o)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("\n%s\nFromCluster(...): -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}

// TestUnchecked: a Composition that could not be checked has a report that
// says why, fails, and is written as such.
func TestUnchecked(t *testing.T) {
	legacy := verify.Document{Path: "Composition buckets (cluster)", Data: []byte(legacyYAML)}
	rep := Unchecked(legacy, errors.New("cannot convert: C117 unknown patchSetName"))
	var text bytes.Buffer
	if err := WriteList(&text, []*Report{rep}, format.Options{Format: format.Text}); err != nil {
		t.Fatal(err)
	}
	var js bytes.Buffer
	if err := WriteList(&js, []*Report{rep}, format.Options{Format: format.JSON}); err != nil {
		t.Fatal(err)
	}
	var decoded []struct {
		Composition, Verdict, Error string
	}
	if err := json.Unmarshal(js.Bytes(), &decoded); err != nil {
		t.Fatal(err)
	}
	type summary struct {
		Fails, FailsRequireVerified bool
		Conversion                  verify.Verdict
		Text                        string
		JSON                        any
	}
	want := summary{
		Fails: true, FailsRequireVerified: true, Conversion: verify.Unverified,
		Text: "FAIL buckets: not checked against the cluster: cannot convert: C117 unknown patchSetName\n",
		JSON: []struct{ Composition, Verdict, Error string }{{"buckets", NotChecked, "cannot convert: C117 unknown patchSetName"}},
	}
	got := summary{Fails: rep.Fails(false), FailsRequireVerified: rep.Fails(true), Conversion: rep.Conversion.Verdict, Text: text.String(), JSON: decoded}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Unchecked(...): -want, +got:\n%s", diff)
	}
}
