package tree

import (
	"testing"

	"github.com/google/go-cmp/cmp"

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
			s := &Scanned{Format: format}
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
	if got := PackageRepo("xpkg.upbound.io/crossplane-contrib/function-patch-and-transform:v0.7.0"); got != "function-patch-and-transform" {
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
	c := &CompInfo{Name: "aws", Labels: map[string]string{"provider": "aws", "tier": "prod"}}
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
			if got := Selects(tc.obj, c); got != tc.want {
				t.Errorf("%s\nselects(...): want %t, got %t", tc.reason, tc.want, got)
			}
		})
	}
}
