package convert

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/xpmigrate/xpmigrate/internal/crossplane"
)

// TestBaseMetadataName pins the conversion of a template whose base sets
// metadata.name or metadata.namespace (compensation K5, C326): native
// Crossplane ignored both, so the converter removes them, keeps the rest
// of the metadata, and says so; patches that set the name are kept.
func TestBaseMetadataName(t *testing.T) {
	tmpl := func(metadata, patches string) string {
		s := "  resources:\n  - name: r\n    base:\n      apiVersion: nop.crossplane.io/v1alpha1\n      kind: NopResource\n"
		if metadata != "" {
			s += "      metadata: " + metadata + "\n"
		}
		s += "      spec: {forProvider: {}}\n"
		if patches != "" {
			s += "    patches:\n" + patches
		}
		return s
	}
	type want struct {
		base    map[string]any
		patches int
		codes   []Code
		paths   []string
	}
	spec := map[string]any{"forProvider": map[string]any{}}
	cases := map[string]struct {
		reason string
		in     string
		opts   Options
		want   want
	}{
		"NameRemoved": {
			reason: "A fixed name in the base is removed; the other metadata stays.",
			in:     compositionYAML(tmpl("{name: fixed, labels: {team: a}}", "")),
			want: want{
				base:  map[string]any{"apiVersion": "nop.crossplane.io/v1alpha1", "kind": "NopResource", "metadata": map[string]any{"labels": map[string]any{"team": "a"}}, "spec": spec},
				codes: []Code{"C326"}, paths: []string{"spec.resources[0].base.metadata.name"},
			},
		},
		"OnlyNameRemovesMetadata": {
			reason: "A metadata that held only the name is removed with it.",
			in:     compositionYAML(tmpl("{name: fixed}", "")),
			want: want{
				base:  map[string]any{"apiVersion": "nop.crossplane.io/v1alpha1", "kind": "NopResource", "spec": spec},
				codes: []Code{"C326"}, paths: []string{"spec.resources[0].base.metadata.name"},
			},
		},
		"NamespaceRemoved": {
			reason: "A namespace in the base is ignored natively too: removed.",
			in:     compositionYAML(tmpl("{namespace: team-a, annotations: {a: b}}", "")),
			want: want{
				base:  map[string]any{"apiVersion": "nop.crossplane.io/v1alpha1", "kind": "NopResource", "metadata": map[string]any{"annotations": map[string]any{"a": "b"}}, "spec": spec},
				codes: []Code{"C326"}, paths: []string{"spec.resources[0].base.metadata.namespace"},
			},
		},
		"NameAndNamespaceRemoved": {
			reason: "Both are removed, each with its finding.",
			in:     compositionYAML(tmpl("{name: fixed, namespace: team-a}", "")),
			want: want{
				base:  map[string]any{"apiVersion": "nop.crossplane.io/v1alpha1", "kind": "NopResource", "spec": spec},
				codes: []Code{"C326", "C326"}, paths: []string{"spec.resources[0].base.metadata.name", "spec.resources[0].base.metadata.namespace"},
			},
		},
		"NamePatchKept": {
			reason: "A patch that sets metadata.name behaves alike on both sides: it is kept, the base name still goes.",
			in:     compositionYAML(tmpl("{name: fixed}", "    - {fromFieldPath: spec.bucketName, toFieldPath: metadata.name}\n")),
			want: want{
				base:    map[string]any{"apiVersion": "nop.crossplane.io/v1alpha1", "kind": "NopResource", "spec": spec},
				patches: 1,
				codes:   []Code{"C326"}, paths: []string{"spec.resources[0].base.metadata.name"},
			},
		},
		"GenerateNameUntouched": {
			reason: "generateName is overwritten by both composers alike: left as written, no finding.",
			in:     compositionYAML(tmpl("{generateName: fixed-}", "")),
			want: want{
				base: map[string]any{"apiVersion": "nop.crossplane.io/v1alpha1", "kind": "NopResource", "metadata": map[string]any{"generateName": "fixed-"}, "spec": spec},
			},
		},
		"EmptyNameUntouched": {
			reason: "An empty name is no name: nothing to remove.",
			in:     compositionYAML(tmpl("{name: ''}", "")),
			want: want{
				base: map[string]any{"apiVersion": "nop.crossplane.io/v1alpha1", "kind": "NopResource", "metadata": map[string]any{"name": ""}, "spec": spec},
			},
		},
		"EmptyMetadataUntouched": {
			reason: "An empty metadata is left as written: nothing was removed from it.",
			in:     compositionYAML(tmpl("{}", "")),
			want: want{
				base: map[string]any{"apiVersion": "nop.crossplane.io/v1alpha1", "kind": "NopResource", "metadata": map[string]any{}, "spec": spec},
			},
		},
		"NoCompensate": {
			reason: "--no-compensate K5 keeps the base as written (verify then reports D11).",
			in:     compositionYAML(tmpl("{name: fixed}", "")),
			opts:   Options{NoCompensate: []string{CompensateBaseMetadata}},
			want: want{
				base: map[string]any{"apiVersion": "nop.crossplane.io/v1alpha1", "kind": "NopResource", "metadata": map[string]any{"name": "fixed"}, "spec": spec},
			},
		},
		"LegacyScopeOnV2": {
			reason: "--target v2 --xr-scope legacy keeps the v1 XRs: the mapping applies as for v1.",
			in:     compositionYAML(tmpl("{name: fixed}", "")),
			opts:   Options{Target: crossplane.V2, XRScope: XRScopeLegacy},
			want: want{
				base:  map[string]any{"apiVersion": "nop.crossplane.io/v1alpha1", "kind": "NopResource", "spec": spec},
				codes: []Code{"C326"}, paths: []string{"spec.resources[0].base.metadata.name"},
			},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			res, err := Convert([]byte(tc.in), tc.opts)
			if err != nil || res.Failed() {
				t.Fatalf("\n%s\nConvert(...): %v\n%s", tc.reason, err, render(res.Diagnostics))
			}
			out := lastComposition(t, res.Output)
			in := ptInput(t, out)
			r := in["resources"].([]any)[0].(map[string]any)
			got := want{base: r["base"].(map[string]any)}
			if ps, ok := r["patches"].([]any); ok {
				got.patches = len(ps)
			}
			for _, d := range res.Diagnostics {
				if d.Code == "C326" {
					got.codes = append(got.codes, d.Code)
					got.paths = append(got.paths, d.Path)
				}
			}
			if diff := cmp.Diff(tc.want, got, cmp.AllowUnexported(want{})); diff != "" {
				t.Errorf("\n%s\nConvert(...): -want, +got:\n%s\n%s", tc.reason, diff, res.Output)
			}
		})
	}
}

// ptInput returns the input of the converted Composition's
// patch-and-transform step.
func ptInput(t *testing.T, comp map[string]any) map[string]any {
	t.Helper()
	spec, _ := comp["spec"].(map[string]any)
	steps, _ := spec["pipeline"].([]any)
	for _, s := range steps {
		s, _ := s.(map[string]any)
		if in, ok := s["input"].(map[string]any); ok && in["kind"] == PTInputKind {
			return in
		}
	}
	t.Fatalf("no patch-and-transform step in %v", comp)
	return nil
}
