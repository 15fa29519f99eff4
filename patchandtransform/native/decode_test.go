package native

import (
	"encoding/json"
	"fmt"
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	kjson "k8s.io/apimachinery/pkg/util/json"
	"sigs.k8s.io/yaml"

	"github.com/xpmigrate/xpmigrate/internal/testutil"
	pt "github.com/xpmigrate/xpmigrate/patchandtransform"
)

func TestDecode(t *testing.T) {
	type want struct {
		c   *Composition
		err error
	}
	spec := func(s CompositionSpec) *Composition {
		s.CompositeTypeRef = TypeReference{APIVersion: "ex.org/v1", Kind: "XR"}
		c := &Composition{APIVersion: APIVersion, Kind: Kind, Spec: s}
		c.Metadata.Name = "test"
		return c
	}
	cases := map[string]struct {
		reason string
		data   []byte
		want   want
	}{
		"PrunesUnknownFields": {
			reason: "Unknown fields are dropped silently: a misspelled toFieldPaht disappears, leaving a patch that writes to its fromFieldPath.",
			data:   doc("resources: [{base: BASE, patches: [{fromFieldPath: spec.a, toFieldPaht: spec.b, bogus: 1}], extra: x}]\nsurprise: {}"),
			want: want{c: spec(CompositionSpec{Resources: []ComposedTemplate{{
				Base:    json.RawMessage(`{"apiVersion":"ex.org/v1","kind":"CD"}`),
				Patches: []Patch{{FromFieldPath: ptrTo("spec.a")}},
			}}})},
		},
		"KeepsUnknownFieldsInFreeFormValues": {
			reason: "base, map values and match results are free-form; they keep every field and are stored canonically (compact, sorted keys, HTML-escaped).",
			data: doc(`resources:
- base: {kind: CD, apiVersion: ex.org/v1, spec: {z: 1.50, a: "<x>", nul: null, any: {thing: [1, 2.5]}}}
  patches:
  - fromFieldPath: a
    transforms:
    - type: map
      map: {a: {z: 1, b: [true]}, gone: null}
    - type: match
      match:
        patterns: [{literal: x, result: {k: v, j: 2}}, {literal: z, result: null}]
        fallbackValue: null`),
			want: want{c: spec(CompositionSpec{Resources: []ComposedTemplate{{
				Base: json.RawMessage(`{"apiVersion":"ex.org/v1","kind":"CD","spec":{"a":"\u003cx\u003e","any":{"thing":[1,2.5]},"nul":null,"z":1.5}}`),
				Patches: []Patch{{FromFieldPath: ptrTo("a"), Transforms: []Transform{
					{Type: pt.TransformTypeMap, Map: &MapTransform{Pairs: map[string]json.RawMessage{"a": json.RawMessage(`{"b":[true],"z":1}`)}}},
					{Type: pt.TransformTypeMatch, Match: &MatchTransform{Patterns: []MatchTransformPattern{
						{Literal: ptrTo("x"), Result: json.RawMessage(`{"j":2,"k":"v"}`)},
						{Literal: ptrTo("z")},
					}}},
				}}},
			}}})},
		},
		"YAML11Keys": {
			reason: "YAML is read as kubectl reads it (YAML 1.1): an unquoted key y becomes \"true\", an unquoted value yes becomes true.",
			data:   doc("resources: [{base: {apiVersion: v1, kind: CM, spec: {y: 2, n: yes, 'y': quoted}}, patches: [{fromFieldPath: a, transforms: [{type: map, map: {y: on}}]}]}]"),
			want: want{c: spec(CompositionSpec{Resources: []ComposedTemplate{{
				Base: json.RawMessage(`{"apiVersion":"v1","kind":"CM","spec":{"false":true,"true":2,"y":"quoted"}}`),
				Patches: []Patch{{FromFieldPath: ptrTo("a"), Transforms: []Transform{
					{Type: pt.TransformTypeMap, Map: &MapTransform{Pairs: map[string]json.RawMessage{"true": json.RawMessage(`true`)}}},
				}}},
			}}})},
		},
		"NullsWithoutDefaultsPruned": {
			reason: "Nulls are dropped where the schema has no default (null base, name, list); an absent defaulted field stays nil until Default.",
			data:   doc("resources: [{name: null, base: null, patches: null, readinessChecks: null}]"),
			want:   want{c: spec(CompositionSpec{Resources: []ComposedTemplate{{}}})},
		},
		"Environment": {
			reason: "spec.environment is split into patches and the selection; unknown fields and nulls in the selection are pruned.",
			data: doc(`environment:
  patches: [{fromFieldPath: spec.a, toFieldPath: a}]
  defaultData: {a: 1, b: null, c: {d: null}}
  environmentConfigs: [{type: Reference, ref: {name: x, junk: 1}, junk: 2}]
  policy: null
  junk: 3`),
			want: want{c: spec(CompositionSpec{Environment: &Environment{
				Patches:   []Patch{{FromFieldPath: ptrTo("spec.a"), ToFieldPath: ptrTo("a")}},
				Selection: json.RawMessage(`{"defaultData":{"a":1,"c":{"d":null}},"environmentConfigs":[{"ref":{"name":"x"},"type":"Reference"}]}`),
			}})},
		},
		"EnvironmentOnlyPatches": {
			reason: "An environment with patches only has no selection.",
			data:   doc("environment: {patches: []}"),
			want:   want{c: spec(CompositionSpec{Environment: &Environment{Patches: []Patch{}}})},
		},
		"JSON": {
			reason: "JSON input is accepted.",
			data:   []byte("{\n\t\"apiVersion\": \"apiextensions.crossplane.io/v1\",\n\t\"kind\": \"Composition\",\n\t\"metadata\": {\"name\": \"test\"},\n\t\"spec\": {\"compositeTypeRef\": {\"apiVersion\": \"ex.org/v1\", \"kind\": \"XR\"}, \"mode\": \"Resources\"}\n}"),
			want:   want{c: spec(CompositionSpec{Mode: ptrTo(CompositionModeResources)})},
		},
		"LeadingSeparatorAndComments": {
			reason: "Comment-only documents do not count.",
			data:   append([]byte("# header\n---\n"), doc("mode: Pipeline")...),
			want:   want{c: spec(CompositionSpec{Mode: ptrTo(CompositionModePipeline)})},
		},
		"TwoDocuments": {
			reason: "Decode reads exactly one document.",
			data:   append(append(doc(""), []byte("---\n")...), doc("")...),
			want:   want{err: cmpopts.AnyError},
		},
		"NoDocument": {
			reason: "An empty input is an error.",
			data:   []byte("# nothing\n"),
			want:   want{err: cmpopts.AnyError},
		},
		"WrongKind": {
			reason: "Only apiextensions.crossplane.io/v1 Compositions are decoded.",
			data:   []byte("apiVersion: apiextensions.crossplane.io/v1\nkind: CompositeResourceDefinition\n"),
			want:   want{err: cmpopts.AnyError},
		},
		"WrongType": {
			reason: "A value of the wrong JSON type is an error, as the API server rejects it.",
			data:   doc("resources: [{base: BASE, connectionDetails: [{name: port, value: 5432}]}]"),
			want:   want{err: cmpopts.AnyError},
		},
		"BadYAML": {
			reason: "Invalid YAML is an error.",
			data:   []byte("apiVersion: [\n"),
			want:   want{err: cmpopts.AnyError},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, err := Decode(tc.data)
			if diff := cmp.Diff(tc.want.err, err, cmpopts.EquateErrors()); diff != "" {
				t.Errorf("\n%s\nDecode(...): -want error, +got error:\n%s", tc.reason, diff)
			}
			if diff := cmp.Diff(tc.want.c, got, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("\n%s\nDecode(...): -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}

func TestEnvironmentJSONRoundTrip(t *testing.T) {
	in := &Environment{
		Patches:   []Patch{{Type: ptrTo(pt.PatchTypeFromCompositeFieldPath), FromFieldPath: ptrTo("a")}},
		Selection: json.RawMessage(`{"defaultData":{"big":12345678901234567890,"n":1}}`),
	}
	b, err := json.Marshal(in)
	if err != nil {
		t.Fatalf("json.Marshal(...): %v", err)
	}
	got := &Environment{}
	if err := json.Unmarshal(b, got); err != nil {
		t.Fatalf("json.Unmarshal(...): %v", err)
	}
	if diff := cmp.Diff(in, got); diff != "" {
		t.Errorf("\nAn Environment survives a JSON round trip, numbers untouched.\njson round trip: -want, +got:\n%s", diff)
	}
}

// TestDecodeJSONMatchesDecode checks DecodeJSON against Decode on the JSON
// encoding (as json.Marshal writes it) of every corpus Composition, and on
// text that is not a JSON object.
func TestDecodeJSONMatchesDecode(t *testing.T) {
	docs := resourcesCompositions(t, testutil.Corpus(t))
	if len(docs) == 0 {
		t.Skip("no corpus")
	}
	for _, d := range docs {
		j, err := yaml.YAMLToJSON(d.data)
		if err != nil {
			t.Fatalf("%s: yaml.YAMLToJSON(...): %v", d.name, err)
		}
		var v any
		if err := json.Unmarshal(j, &v); err != nil {
			t.Fatalf("%s: json.Unmarshal(...): %v", d.name, err)
		}
		raw, err := json.Marshal(v)
		if err != nil {
			t.Fatalf("%s: json.Marshal(...): %v", d.name, err)
		}
		want, wantErr := Decode(raw)
		got, err := DecodeJSON(raw)
		if fmt.Sprint(wantErr) != fmt.Sprint(err) {
			t.Errorf("%s: DecodeJSON(...): error %v, Decode gives %v", d.name, err, wantErr)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s: DecodeJSON(...): -Decode, +got:\n%s", d.name, diff)
		}
	}
	for _, in := range []string{"null", "", "apiVersion: apiextensions.crossplane.io/v1\nkind: Composition\n", `{"apiVersion": "v1", "kind": "ConfigMap"}`, `{"apiVersion": 3}`, `{"apiVersion":"apiextensions.crossplane.io/v1","kind":"Composition","spec":{"resources":"x"}}`} {
		want, wantErr := Decode([]byte(in))
		got, err := DecodeJSON([]byte(in))
		if fmt.Sprint(wantErr) != fmt.Sprint(err) {
			t.Errorf("DecodeJSON(%q): error %v, Decode gives %v", in, err, wantErr)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("DecodeJSON(%q): -Decode, +got:\n%s", in, diff)
		}
	}
}

// TestDecodeTreeMatchesDecode checks DecodeTree against Decode of the
// tree's JSON text on every corpus Composition (as the Kubernetes decoder
// reads it) and on trees it must decline or read alike.
func TestDecodeTreeMatchesDecode(t *testing.T) {
	var trees []map[string]any
	var docs []corpusDoc
	if dir, ok := testutil.LookupCorpus(t); ok {
		docs = resourcesCompositions(t, dir)
	}
	for _, d := range docs {
		j, err := yaml.YAMLToJSON(d.data)
		if err != nil {
			t.Fatalf("%s: yaml.YAMLToJSON(...): %v", d.name, err)
		}
		o := map[string]any{}
		if err := kjson.Unmarshal(j, &o); err != nil {
			t.Fatalf("%s: kjson.Unmarshal(...): %v", d.name, err)
		}
		trees = append(trees, o)
	}
	base := func(spec map[string]any) map[string]any {
		return map[string]any{"apiVersion": APIVersion, "kind": Kind, "metadata": map[string]any{"name": "c", "labels": map[string]any{"a": "b"}}, "spec": spec}
	}
	res := func(r map[string]any) map[string]any {
		return base(map[string]any{"compositeTypeRef": map[string]any{"apiVersion": "ex.org/v1", "kind": "XR"}, "resources": []any{r}})
	}
	trees = append(trees,
		base(nil), base(map[string]any{"mode": nil}), base(map[string]any{"Mode": "Pipeline"}), base(map[string]any{"unknown": 1}),
		base(map[string]any{"pipeline": []any{map[string]any{"step": "s"}, nil}}),
		res(map[string]any{"name": "r", "base": nil}), res(map[string]any{"name": nil, "base": map[string]any{"kind": "K", "n": math.Copysign(0, -1), "f": 1.5, "s": "\xff<"}}),
		res(map[string]any{"name": "r", "base": map[string]any(nil)}), res(map[string]any{"name": "r", "base": []any{int64(1)}}), res(map[string]any{"name": "r", "base": "x"}),
		res(map[string]any{"name": "\xff"}), res(map[string]any{"name": int64(3)}), res(map[string]any{"readinessChecks": []any{}}),
		res(map[string]any{"readinessChecks": []any{map[string]any{"type": "MatchInteger", "matchInteger": int64(4)}, map[string]any{"type": "MatchInteger", "matchInteger": 4.0}}}),
		res(map[string]any{"patches": []any{map[string]any{"fromFieldPath": "a", "transforms": []any{
			map[string]any{"type": "map", "map": map[string]any{"a": nil, "b": map[string]any{"z": int64(1), "y": 2.5}}},
			map[string]any{"type": "math", "math": map[string]any{"multiply": int64(2)}},
			map[string]any{"type": "match", "match": map[string]any{"patterns": []any{map[string]any{"literal": "x", "result": nil}}, "fallbackValue": map[string]any{}}},
		}, "policy": map[string]any{"mergeOptions": map[string]any{"keepMapValues": true}}}}}),
		base(map[string]any{"environment": map[string]any{"patches": []any{map[string]any{"type": "ToCompositeFieldPath"}}, "policy": map[string]any{"resolution": "Optional"}, "junk": true}}),
		map[string]any{"apiVersion": "v1", "kind": "ConfigMap"}, map[string]any{"apiVersion": APIVersion},
	)
	read := 0
	for i, o := range trees {
		raw, err := json.Marshal(o)
		if err != nil {
			t.Fatalf("tree %d: json.Marshal(...): %v", i, err)
		}
		want, wantErr := Decode(raw)
		got, ok := DecodeTree(o)
		if !ok {
			continue
		}
		read++
		if wantErr != nil {
			t.Errorf("tree %d: DecodeTree read what Decode rejects (%v): %s", i, wantErr, raw)
			continue
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("tree %d: DecodeTree(...): -Decode, +got:\n%s", i, diff)
		}
	}
	if read < len(trees)/2 {
		t.Errorf("DecodeTree read %d of %d trees, want at least half", read, len(trees))
	}
	t.Logf("DecodeTree read %d of %d trees", read, len(trees))
}
