package migrate

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/xpmigrate/xpmigrate/convert"
	"github.com/xpmigrate/xpmigrate/convert/migrate/tree"
)

func TestSlimDocFindings(t *testing.T) {
	doc := `apiVersion: apiextensions.crossplane.io/v1
kind: Composition
metadata:
  name: c
  uid: abc
  labels: &l
    team: a
spec:
  compositeTypeRef: {apiVersion: example.org/v1, kind: XThing}
  environment:
    environmentConfigs:
    - type: Reference
      ref: {name: e}
  publishConnectionDetailsWithStoreConfigRef: {name: vault}
  patchSets:
  - name: p
    patches:
    - {fromFieldPath: spec.claimRef.name, toFieldPath: metadata.name}
  resources:
  - name: a
    base: {apiVersion: v1, kind: ConfigMap}
    patches:
    - {type: ToCompositeFieldPath, fromFieldPath: data.x, toFieldPath: spec.x}
    - {type: ToCompositeFieldPath, fromFieldPath: data.y, toFieldPath: status.y}
`
	docs, _, err := tree.DecodeFileSlim([]byte(doc), "yaml")
	if err != nil {
		t.Fatal(err)
	}
	if len(docs) != 1 {
		t.Fatalf("decodeFileSlim: want 1 document, got %d", len(docs))
	}
	d := docs[0]
	var got []string
	for _, f := range d.Findings {
		got = append(got, f.Code+" "+f.Path+" -> "+pipelinePath(f.Path, d.PTStep))
	}
	want := []string{
		"M406 metadata -> metadata",
		"M403 spec.publishConnectionDetailsWithStoreConfigRef -> spec.publishConnectionDetailsWithStoreConfigRef",
		"M405 spec.resources[0].patches[0] -> spec.pipeline[1].input.resources[0].patches[0]",
		"M404 spec.patchSets[0].patches[0] -> spec.pipeline[1].input.patchSets[0].patches[0]",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("findings of a slim Composition: -want, +got:\n%s", diff)
	}
	wantObj := map[string]any{
		"apiVersion": "apiextensions.crossplane.io/v1", "kind": "Composition",
		"metadata": map[string]any{"name": "c", "labels": map[string]any{"team": "a"}},
		"spec": map[string]any{
			"compositeTypeRef": map[string]any{"apiVersion": "example.org/v1", "kind": "XThing"},
			"environment":      true, "patchSets": true, "resources": true,
			// The types its templates compose: the XRDs of nested XRs go
			// to the converter too (C458).
			tree.ComposedTypesKey: []any{"v1|ConfigMap"},
		},
	}
	if diff := cmp.Diff(wantObj, d.Obj); diff != "" {
		t.Errorf("slim object: -want, +got:\n%s", diff)
	}
}

// TestConverterNumbersAsScan: the converter's document numbers (in its
// statuses and findings) are the scan's, so a finding lands on the
// document the index knows, whatever comes before the first separator.
func TestConverterNumbersAsScan(t *testing.T) {
	comp := strings.Replace(adapterComposition, "  resources:\n", "  mode: Bogus\n  resources:\n", 1)
	cases := map[string]struct {
		reason string
		data   string
		want   int
	}{
		"Plain": {
			reason: "Without a leading separator the Composition is the second document.",
			data:   "a: 1\n---\n" + comp,
			want:   1,
		},
		"LeadingSeparator": {
			reason: "A leading separator opens the first document.",
			data:   "---\na: 1\n---\n" + comp,
			want:   1,
		},
		"LeadingComment": {
			reason: "A comment before the first separator belongs to no document.",
			data:   "# licence\n---\na: 1\n---\n" + comp,
			want:   1,
		},
		"LeadingEmptyDocuments": {
			reason: "Nor do empty documents before the first one.",
			data:   "# licence\n---\n# more\n---\n" + comp,
			want:   0,
		},
		"EmptyDocuments": {
			reason: "Empty documents after the first one count.",
			data:   "a: 1\n---\n---\n" + comp,
			want:   2,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			docs, _, err := tree.DecodeDocs([]byte(tc.data), "yaml", false)
			if err != nil {
				t.Fatal(err)
			}
			scanned := -1
			for _, d := range docs {
				if d.Kind == "Composition" {
					scanned = d.Index
				}
			}
			resp, err := NewConverter(convert.Options{}).Convert(context.Background(), ConvertRequest{Path: "c.yaml", Data: []byte(tc.data), Format: "yaml"})
			if err != nil {
				t.Fatal(err)
			}
			var statuses, findings []int
			for _, d := range resp.Documents {
				if d.Status == DocFailed {
					statuses = append(statuses, d.Index)
				}
			}
			for _, d := range resp.Diagnostics {
				if d.Code == "C103" {
					findings = append(findings, d.Document)
				}
			}
			want := []int{tc.want}
			if diff := cmp.Diff(want, []int{scanned}); diff != "" {
				t.Errorf("%s\nscan: -want, +got:\n%s", tc.reason, diff)
			}
			if diff := cmp.Diff(want, statuses); diff != "" {
				t.Errorf("%s\nconverter's failed documents: -want, +got:\n%s", tc.reason, diff)
			}
			if diff := cmp.Diff(want, findings); diff != "" {
				t.Errorf("%s\nconverter's C103 findings: -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}
