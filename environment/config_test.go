package environment

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestLoad(t *testing.T) {
	type want struct {
		configs []Config
		err     string
	}
	raw := func(kv ...string) map[string]json.RawMessage {
		out := map[string]json.RawMessage{}
		for i := 0; i < len(kv); i += 2 {
			out[kv[i]] = json.RawMessage(kv[i+1])
		}
		return out
	}
	cases := map[string]struct {
		reason string
		in     string
		want   want
	}{
		"MultiDocumentYAML": {
			reason: "Both API versions load; empty documents are skipped.",
			in: `---
apiVersion: apiextensions.crossplane.io/v1alpha1
kind: EnvironmentConfig
metadata:
  name: a
  labels: {env: prod}
  annotations: {note: x}
data:
  num: 3
  obj: {k: [1, 2.5]}
---
# only a comment
---
apiVersion: apiextensions.crossplane.io/v1beta1
kind: EnvironmentConfig
metadata: {name: b}
`,
			want: want{configs: []Config{
				{APIVersion: APIVersionV1Alpha1, Name: "a", Labels: map[string]string{"env": "prod"}, Annotations: map[string]string{"note": "x"},
					Data: raw("num", "3", "obj", `{"k":[1,2.5]}`)},
				{APIVersion: APIVersionV1Beta1, Name: "b"},
			}},
		},
		"JSONStream": {
			reason: "A stream of JSON objects loads, data kept byte for byte.",
			in: `{"apiVersion": "apiextensions.crossplane.io/v1beta1", "kind": "EnvironmentConfig", "metadata": {"name": "a"}, "data": {"f": 1.0}}
			     {"apiVersion": "apiextensions.crossplane.io/v1beta1", "kind": "EnvironmentConfig", "metadata": {"name": "b"}, "data": null}`,
			want: want{configs: []Config{
				{APIVersion: APIVersionV1Beta1, Name: "a", Data: raw("f", "1.0")},
				{APIVersion: APIVersionV1Beta1, Name: "b"},
			}},
		},
		"List": {
			reason: "A List, as kubectl get prints it, loads its items.",
			in: `apiVersion: v1
kind: List
items:
- {apiVersion: apiextensions.crossplane.io/v1beta1, kind: EnvironmentConfig, metadata: {name: a}}
- {apiVersion: apiextensions.crossplane.io/v1alpha1, kind: EnvironmentConfigList, items: [{apiVersion: apiextensions.crossplane.io/v1alpha1, kind: EnvironmentConfig, metadata: {name: b}}]}
`,
			want: want{configs: []Config{{APIVersion: APIVersionV1Beta1, Name: "a"}, {APIVersion: APIVersionV1Alpha1, Name: "b"}}},
		},
		"YAML11Words": {
			reason: "Unquoted YAML 1.1 words are booleans, and keys become \"true\"/\"false\", as kubectl read them (docs/semantics/legacy.md#yaml-11-words).",
			in:     "apiVersion: apiextensions.crossplane.io/v1alpha1\nkind: EnvironmentConfig\nmetadata: {name: a}\ndata: {y: 2, enabled: yes}\n",
			want:   want{configs: []Config{{APIVersion: APIVersionV1Alpha1, Name: "a", Data: raw("true", "2", "enabled", "true")}}},
		},
		"NotAnEnvironmentConfig": {
			reason: "Other kinds are errors naming the document.",
			in:     "apiVersion: apiextensions.crossplane.io/v1alpha1\nkind: EnvironmentConfig\nmetadata: {name: a}\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: b}\n",
			want:   want{err: "cannot load document 2: v1 ConfigMap is not an EnvironmentConfig (want apiextensions.crossplane.io/v1alpha1 or apiextensions.crossplane.io/v1beta1, kind EnvironmentConfig)"},
		},
		"NoName": {
			reason: "A name is required.",
			in:     "apiVersion: apiextensions.crossplane.io/v1alpha1\nkind: EnvironmentConfig\n",
			want:   want{err: "cannot load document 1: EnvironmentConfig has no metadata.name"},
		},
		"DataNotAnObject": {
			reason: "data must be an object.",
			in:     "apiVersion: apiextensions.crossplane.io/v1alpha1\nkind: EnvironmentConfig\nmetadata: {name: a}\ndata: [1]\n",
			want:   want{err: "cannot load document 1: cannot decode EnvironmentConfig: json: cannot unmarshal array into Go struct field configDocument.data of type map[string]json.RawMessage"},
		},
		"Empty": {
			reason: "Nothing loads nothing.",
			in:     "\n",
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, err := Load([]byte(tc.in))
			if diff := cmp.Diff(tc.want.err, errText(err)); diff != "" {
				t.Errorf("\n%s\nLoad(...): -want error, +got error:\n%s", tc.reason, diff)
			}
			opts := cmp.Transformer("raw", func(r json.RawMessage) string { return string(r) })
			if diff := cmp.Diff(tc.want.configs, got, opts); diff != "" {
				t.Errorf("\n%s\nLoad(...): -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}

func TestNewSet(t *testing.T) {
	data := func(kv ...string) map[string]json.RawMessage {
		out := map[string]json.RawMessage{}
		for i := 0; i+1 < len(kv); i += 2 {
			out[kv[i]] = json.RawMessage(kv[i+1])
		}
		return out
	}
	cases := map[string]struct {
		reason  string
		configs []Config
		want    string
		names   []string
		kept    []string
	}{
		"SameObjectInBothVersions": {
			reason: "The v1alpha1 and v1beta1 copies of one object, as the API server serves it, are one config; the first is kept.",
			configs: []Config{
				{APIVersion: APIVersionV1Alpha1, Name: "a", Labels: map[string]string{"l": "1"}, Data: data("n", "1", "o", `{"x": [1, "y"]}`)},
				{APIVersion: APIVersionV1Beta1, Name: "a", Labels: map[string]string{"l": "1"}, Data: data("o", `{"x":[1,"y"]}`, "n", "1.0")},
			},
			names: []string{"a"},
			kept:  []string{APIVersionV1Alpha1},
		},
		"SameObjectTwice": {
			reason:  "The same object given twice at one version is one config.",
			configs: []Config{{APIVersion: APIVersionV1Beta1, Name: "a"}, {APIVersion: APIVersionV1Beta1, Name: "b"}, {APIVersion: APIVersionV1Beta1, Name: "a"}},
			names:   []string{"a", "b"},
			kept:    []string{APIVersionV1Beta1, APIVersionV1Beta1},
		},
		"ConflictingData": {
			reason: "Two objects of one name with different data are a real conflict, named by their sources.",
			configs: []Config{
				{APIVersion: APIVersionV1Alpha1, Name: "a", Data: data("n", "1"), Source: "envs/a.yaml document 1"},
				{APIVersion: APIVersionV1Beta1, Name: "a", Data: data("n", "2"), Source: "envs/b.yaml document 3"},
			},
			want: `EnvironmentConfig "a" is given twice with different content: envs/a.yaml document 1 and envs/b.yaml document 3 (the same object served at several API versions must carry the same labels, annotations and data)`,
		},
		"ConflictingLabels": {
			reason: "Different labels are a conflict too; without sources the apiVersions name the copies.",
			configs: []Config{
				{APIVersion: APIVersionV1Alpha1, Name: "a", Labels: map[string]string{"l": "1"}},
				{APIVersion: APIVersionV1Beta1, Name: "a", Labels: map[string]string{"l": "2"}},
			},
			want: `EnvironmentConfig "a" is given twice with different content: apiextensions.crossplane.io/v1alpha1 and apiextensions.crossplane.io/v1beta1 (the same object served at several API versions must carry the same labels, annotations and data)`,
		},
		"DataAgainstNoData": {
			reason: "An object without data is not the same as one with data.",
			configs: []Config{
				{APIVersion: APIVersionV1Alpha1, Name: "a"},
				{APIVersion: APIVersionV1Beta1, Name: "a", Data: data("n", "1")},
			},
			want: `EnvironmentConfig "a" is given twice with different content: apiextensions.crossplane.io/v1alpha1 and apiextensions.crossplane.io/v1beta1 (the same object served at several API versions must carry the same labels, annotations and data)`,
		},
		"NoName": {
			reason:  "Every config needs a name.",
			configs: []Config{{Name: "a"}, {}},
			want:    "EnvironmentConfig at index 1 has no name",
		},
		"OK": {
			reason:  "Distinct names make a set.",
			configs: []Config{{Name: "b"}, {Name: "a"}},
			names:   []string{"a", "b"},
			kept:    []string{"", ""},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			s, err := NewSet(tc.configs...)
			if diff := cmp.Diff(tc.want, errText(err)); diff != "" {
				t.Errorf("\n%s\nNewSet(...): -want error, +got error:\n%s", tc.reason, diff)
			}
			if err != nil {
				return
			}
			var names, kept []string
			for _, c := range s.List(nil) {
				names = append(names, c.Name)
				kept = append(kept, c.APIVersion)
			}
			if diff := cmp.Diff(tc.names, names); diff != "" {
				t.Errorf("\n%s\nNewSet(...).List(nil) names: -want, +got:\n%s", tc.reason, diff)
			}
			if diff := cmp.Diff(tc.kept, kept); diff != "" {
				t.Errorf("\n%s\nNewSet(...).List(nil) apiVersions: -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}

func TestSetListAndGet(t *testing.T) {
	s := set(t, ec3, env0)
	names := func(cs []Config) []string {
		out := []string{}
		for _, c := range cs {
			out = append(out, c.Name)
		}
		return out
	}
	if diff := cmp.Diff([]string{"a", "b", "c"}, names(s.List(map[string]string{"env": "prod"}))); diff != "" {
		t.Errorf("\nList returns matching configs in name order.\nList(...): -want, +got:\n%s", diff)
	}
	if diff := cmp.Diff([]string{"a", "b", "c", "env0"}, names(s.List(nil))); diff != "" {
		t.Errorf("\nAn empty selector lists everything.\nList(...): -want, +got:\n%s", diff)
	}
	if diff := cmp.Diff([]string{}, names(s.List(map[string]string{"env": "dev"}))); diff != "" {
		t.Errorf("\nNo match lists nothing.\nList(...): -want, +got:\n%s", diff)
	}
	if _, ok := s.Get("nope"); ok {
		t.Errorf("\nGet of an unknown name reports false.")
	}
	if diff := cmp.Diff(4, s.Len()); diff != "" {
		t.Errorf("\nLen counts configs.\nLen(): -want, +got:\n%s", diff)
	}
}

func TestSetFetch(t *testing.T) {
	s := set(t, ec3)
	cases := map[string]struct {
		reason string
		req    Requirements
		want   Resources
	}{
		"ByNameEitherVersion": {
			reason: "v1alpha1 and v1beta1 are one kind; objects come back at the requested version with float64 numbers.",
			req: Requirements{
				"x": {APIVersion: APIVersionV1Beta1, Kind: KindConfig, MatchName: "a"},
				"y": {APIVersion: APIVersionV1Alpha1, Kind: KindConfig, MatchName: "b"},
			},
			want: Resources{
				"x": {{"apiVersion": APIVersionV1Beta1, "kind": KindConfig, "metadata": map[string]any{"name": "a", "labels": map[string]any{"env": "prod"}},
					"data": map[string]any{"w": float64(10), "s": "c"}}},
				"y": {{"apiVersion": APIVersionV1Alpha1, "kind": KindConfig, "metadata": map[string]any{"name": "b", "labels": map[string]any{"env": "prod"}},
					"data": map[string]any{"w": 1.5, "s": "a"}}},
			},
		},
		"NotFoundIsEmpty": {
			reason: "A requirement that matches nothing is present and empty.",
			req: Requirements{
				"gone":  {APIVersion: APIVersionV1Beta1, Kind: KindConfig, MatchName: "gone"},
				"other": {APIVersion: "v1", Kind: "ConfigMap", MatchName: "a"},
				"none":  {APIVersion: APIVersionV1Beta1, Kind: KindConfig, MatchLabels: map[string]string{"env": "dev"}},
			},
			want: Resources{"gone": {}, "other": {}, "none": {}},
		},
		"ByLabels": {
			reason: "A label selector returns all matches in name order.",
			req:    Requirements{"l": {APIVersion: APIVersionV1Beta1, Kind: KindConfig, MatchLabels: map[string]string{"env": "prod"}}},
			want: Resources{"l": {
				{"apiVersion": APIVersionV1Beta1, "kind": KindConfig, "metadata": map[string]any{"name": "a", "labels": map[string]any{"env": "prod"}}, "data": map[string]any{"w": float64(10), "s": "c"}},
				{"apiVersion": APIVersionV1Beta1, "kind": KindConfig, "metadata": map[string]any{"name": "b", "labels": map[string]any{"env": "prod"}}, "data": map[string]any{"w": 1.5, "s": "a"}},
				{"apiVersion": APIVersionV1Beta1, "kind": KindConfig, "metadata": map[string]any{"name": "c", "labels": map[string]any{"env": "prod"}}, "data": map[string]any{"w": float64(2), "s": "b"}},
			}},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, err := s.Fetch(tc.req)
			if err != nil {
				t.Fatalf("Fetch(...): %v", err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("\n%s\nFetch(...): -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}
