package migrate

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/xpmigrate/xpmigrate/convert"
	"github.com/xpmigrate/xpmigrate/convert/migrate/tree"
	"github.com/xpmigrate/xpmigrate/internal/xp"
)

func TestClassify(t *testing.T) {
	type want struct {
		reason       string
		compositions int
		legacyHint   bool
		kinds        []string
	}
	cases := map[string]struct {
		reason string
		format string
		data   string
		want   want
	}{
		"Ytt": {
			reason: "A #@ annotation at a line start or after a space makes a ytt file, even if it parses.",
			data:   "#@ load(\"@ytt:data\", \"data\")\n---\nkind: Composition\napiVersion: apiextensions.crossplane.io/v1\n",
			want:   want{reason: ReasonYtt, legacyHint: true},
		},
		"YttTrailing": {
			reason: "A trailing #@ annotation counts too.",
			data:   "metadata:\n  name: #@ data.values.name\n",
			want:   want{reason: ReasonYtt},
		},
		"HashAtInAWord": {
			reason: "#@ inside a word is not an annotation.",
			data:   "apiVersion: v1\nkind: ConfigMap\ndata:\n  a: x#@y\n",
			want:   want{kinds: []string{"ConfigMap"}},
		},
		"HelmNotYAML": {
			reason: "{{ that breaks YAML is a template.",
			data:   "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Values.name }}\n",
			want:   want{reason: ReasonTemplate},
		},
		"TemplateInBlockScalar": {
			reason: "{{ in a block scalar is valid YAML and read as such.",
			data:   "apiVersion: v1\nkind: ConfigMap\ndata:\n  t: |\n    {{ .x }}\n",
			want:   want{kinds: []string{"ConfigMap"}},
		},
		"Unparseable": {
			reason: "Broken YAML without templates is unparseable.",
			data:   "a: [\n",
			want:   want{reason: ReasonUnparseable},
		},
		"JSON": {
			reason: "A .json file is one document.",
			format: "json",
			data:   `{"apiVersion": "apiextensions.crossplane.io/v1", "kind": "Composition", "metadata": {"name": "j"}, "spec": {}}`,
			want:   want{compositions: 1, kinds: []string{"Composition"}},
		},
		"ListItems": {
			reason: "Compositions inside a List count, after the List itself.",
			data:   "apiVersion: v1\nkind: List\nitems:\n- apiVersion: apiextensions.crossplane.io/v1\n  kind: Composition\n  metadata:\n    name: a\n",
			want:   want{compositions: 1, kinds: []string{"List", "Composition"}},
		},
		"MultiDocument": {
			reason: "Every document is read; a patch list is a document too.",
			data:   "---\napiVersion: apiextensions.crossplane.io/v1\nkind: Composition\nmetadata:\n  name: a\nspec:\n  resources: []\n---\n- op: add\n  path: /x\n---\n# only a comment\n",
			want:   want{compositions: 1, kinds: []string{"Composition", ""}},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			format := tc.format
			if format == "" {
				format = "yaml"
			}
			s := &tree.Scanned{Format: format}
			s.Classify([]byte(tc.data))
			got := want{reason: s.Reason, compositions: s.Compositions, legacyHint: s.LegacyHint}
			for _, d := range s.Docs {
				got.kinds = append(got.kinds, d.Kind)
			}
			if diff := cmp.Diff(tc.want, got, cmp.AllowUnexported(want{})); diff != "" {
				t.Errorf("%s\nclassify(...): -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}

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

func TestDependencyName(t *testing.T) {
	cases := map[string]string{
		"xpkg.crossplane.io/crossplane-contrib/function-patch-and-transform":     "crossplane-contrib-function-patch-and-transform",
		"xpkg.upbound.io/crossplane-contrib/function-patch-and-transform:v0.7.0": "crossplane-contrib-function-patch-and-transform",
		"crossplane-contrib/function-environment-configs@sha256:abc":             "crossplane-contrib-function-environment-configs",
		// Upper case and other characters are dropped, as Crossplane does.
		"registry.example.com:5000/Team/Function_PT": "eam-unction",
		// Cut at 63 characters.
		"index.docker.io/a/very-long-name-" + long(): ("a-very-long-name-" + long())[:63],
	}
	for in, want := range cases {
		if got := xp.PackageName(in); got != want {
			t.Errorf("xp.PackageName(%q): want %q, got %q", in, want, got)
		}
	}
	if got := tree.PackageRepo("xpkg.upbound.io/crossplane-contrib/function-patch-and-transform:v0.7.0"); got != "function-patch-and-transform" {
		t.Errorf("packageRepo: got %q", got)
	}
}

func long() string {
	b := make([]byte, 80)
	for i := range b {
		b[i] = 'x'
	}
	return string(b)
}

func TestSelects(t *testing.T) {
	c := &tree.CompInfo{Name: "aws", Labels: map[string]string{"provider": "aws", "tier": "prod"}}
	cases := map[string]struct {
		reason string
		obj    map[string]any
		want   bool
	}{
		"NoRefNoSelector": {reason: "Any Composition of the type may be picked.", obj: map[string]any{}, want: true},
		"RefMatches":      {reason: "compositionRef names it.", obj: map[string]any{"spec": map[string]any{"compositionRef": map[string]any{"name": "aws"}}}, want: true},
		"RefOther":        {reason: "compositionRef names another.", obj: map[string]any{"spec": map[string]any{"compositionRef": map[string]any{"name": "gcp"}}}, want: false},
		"SelectorMatches": {reason: "Every selector label matches.", obj: map[string]any{"spec": map[string]any{"compositionSelector": map[string]any{"matchLabels": map[string]any{"provider": "aws"}}}}, want: true},
		"SelectorMisses":  {reason: "A selector label differs.", obj: map[string]any{"spec": map[string]any{"compositionSelector": map[string]any{"matchLabels": map[string]any{"provider": "aws", "tier": "dev"}}}}, want: false},
		"V2Style":         {reason: "v2 XRs keep the ref under spec.crossplane.", obj: map[string]any{"spec": map[string]any{"crossplane": map[string]any{"compositionRef": map[string]any{"name": "gcp"}}}}, want: false},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if got := tree.Selects(tc.obj, c); got != tc.want {
				t.Errorf("%s\nselects(...): want %t, got %t", tc.reason, tc.want, got)
			}
		})
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
