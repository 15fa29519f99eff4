package function

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/pkg/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	kjson "sigs.k8s.io/json"
)

func TestDecode(t *testing.T) {
	type want struct {
		r *Resources
		// unknown is the path of the member rejected as unknown.
		unknown string
		err     error
	}
	cases := map[string]struct {
		reason string
		input  string
		want   want
	}{
		"Absent": {
			reason: "An absent input decodes as an empty one; validation rejects it later (PT-01).",
			input:  ``,
			want:   want{r: &Resources{}},
		},
		"Full": {
			reason: "Every member is read into its field, verbatim and without defaults.",
			input: `
apiVersion: pt.fn.crossplane.io/v1beta1
kind: Resources
metadata: {name: ignored}
patchSets:
- name: s
  patches: [{type: ToCompositeFieldPath, fromFieldPath: status.a, toFieldPath: status.b}]
environment:
  patches: [{fromFieldPath: spec.x, toFieldPath: x, policy: {fromFieldPath: Required}}]
resources:
- name: bucket
  base: {apiVersion: s3/v1, kind: Bucket, spec: {size: 3}}
  patches:
  - {type: PatchSet, patchSetName: s}
  - type: CombineFromComposite
    combine: {variables: [{fromFieldPath: a}], strategy: string, string: {fmt: "%s"}}
    toFieldPath: spec.c
    policy: {toFieldPath: MergeObjects}
  - fromFieldPath: spec.m
    transforms:
    - {type: math, math: {type: Multiply, multiply: 3}}
    - {type: map, map: {a: 1, b: {c: d}, e: null}}
    - {type: match, match: {patterns: [{type: regexp, regexp: '^a', result: x}], fallbackTo: Input}}
    - {type: string, string: {type: Regexp, regexp: {match: 'a(b)', group: 1}}}
    - {type: convert, convert: {toType: float64, format: quantity}}
  connectionDetails: [{name: pw, type: FromConnectionSecretKey, fromConnectionSecretKey: password}]
  readinessChecks: [{type: MatchInteger, fieldPath: status.n, matchInteger: 2}]
writeConnectionSecretToRef: {name: conn, patches: [{fromFieldPath: spec.secretName, toFieldPath: name}]}
`,
			want: want{r: &Resources{
				TypeMeta:   metav1.TypeMeta{APIVersion: APIVersion, Kind: Kind},
				ObjectMeta: metav1.ObjectMeta{Name: "ignored"},
				PatchSets: []PatchSet{{Name: "s", Patches: []PatchSetPatch{{
					Type:  "ToCompositeFieldPath",
					Patch: Patch{FromFieldPath: ptr("status.a"), ToFieldPath: ptr("status.b")},
				}}}},
				Environment: &Environment{Patches: []EnvironmentPatch{{
					Patch: Patch{FromFieldPath: ptr("spec.x"), ToFieldPath: ptr("x"), Policy: &PatchPolicy{FromFieldPath: ptr(FromFieldPathPolicy("Required"))}},
				}}},
				Resources: []ComposedTemplate{{
					Name: "bucket",
					Base: ptr(RawObject(`{"apiVersion":"s3/v1","kind":"Bucket","spec":{"size":3}}`)),
					Patches: []ComposedPatch{
						{Type: "PatchSet", PatchSetName: ptr("s")},
						{Type: "CombineFromComposite", Patch: Patch{
							Combine:     &Combine{Variables: []CombineVariable{{FromFieldPath: "a"}}, Strategy: "string", String: &StringCombine{Format: "%s"}},
							ToFieldPath: ptr("spec.c"),
							Policy:      &PatchPolicy{ToFieldPath: ptr(ToFieldPathPolicyMergeObjects)},
						}},
						{Patch: Patch{FromFieldPath: ptr("spec.m"), Transforms: []Transform{
							{Type: "math", Math: &MathTransform{Type: "Multiply", Multiply: ptr(int64(3))}},
							{Type: "map", Map: &MapTransform{Pairs: map[string]JSON{"a": JSON("1"), "b": JSON(`{"c":"d"}`), "e": nil}}},
							{Type: "match", Match: &MatchTransform{Patterns: []MatchTransformPattern{{Type: "regexp", Regexp: ptr("^a"), Result: JSON(`"x"`)}}, FallbackTo: "Input"}},
							{Type: "string", String: &StringTransform{Type: "Regexp", Regexp: &StringTransformRegexp{Match: "a(b)", Group: ptr(1)}}},
							{Type: "convert", Convert: &ConvertTransform{ToType: "float64", Format: ptr(ConvertTransformFormat("quantity"))}},
						}}},
					},
					ConnectionDetails: []ConnectionDetail{{Name: "pw", Type: "FromConnectionSecretKey", FromConnectionSecretKey: ptr("password")}},
					ReadinessChecks:   []ReadinessCheck{{Type: "MatchInteger", FieldPath: ptr("status.n"), MatchInteger: ptr(int64(2))}},
				}},
				WriteConnectionSecretToRef: &WriteConnectionSecretToRef{Name: "conn", Patches: []ConnectionSecretPatch{{
					Patch: Patch{FromFieldPath: ptr("spec.secretName"), ToFieldPath: ptr("name")},
				}}},
			}},
		},
		"NullsAreAbsent": {
			reason: "A null member reads as absent, a null base included.",
			input:  `{patchSets: null, environment: null, resources: [{name: a, base: null, patches: null}]}`,
			want:   want{r: &Resources{Resources: []ComposedTemplate{{Name: "a"}}}},
		},
		"NoCRDDefaults": {
			reason: "The CRD's defaults (readiness check, math and string type, pattern type, matchCondition) are not applied.",
			input:  `resources: [{name: a, readinessChecks: [{type: MatchCondition}], patches: [{fromFieldPath: x, transforms: [{type: match, match: {patterns: [{literal: a}]}}]}]}]`,
			want: want{r: &Resources{Resources: []ComposedTemplate{{
				Name:            "a",
				ReadinessChecks: []ReadinessCheck{{Type: "MatchCondition"}},
				Patches: []ComposedPatch{{Patch: Patch{FromFieldPath: ptr("x"), Transforms: []Transform{
					{Type: "match", Match: &MatchTransform{Patterns: []MatchTransformPattern{{Literal: ptr("a")}}}},
				}}}},
			}}}},
		},
		"UnknownMemberAtDepth": {
			reason: "A leftover native policy.mergeOptions is an unknown member (D3).",
			input:  patch("{fromFieldPath: a, policy: {mergeOptions: {keepMapValues: true}}}"),
			want:   want{unknown: "resources[0].patches[0].policy.mergeOptions"},
		},
		"UnknownTopLevelMember": {
			reason: "An unknown member at the root is rejected.",
			input:  "{resources: [{name: a}], spec: {}}",
			want:   want{unknown: "spec"},
		},
		"UnknownMetadataMember": {
			reason: "metadata is ignored but still decoded strictly.",
			input:  "{metadata: {nam: x}, resources: [{name: a}]}",
			want:   want{unknown: "metadata.nam"},
		},
		"UnknownInTransform": {
			reason: "An unknown member inside a transform block is rejected.",
			input:  transform("{type: string, string: {type: Format, format: '%s'}}"),
			want:   want{unknown: "resources[0].patches[0].transforms[0].string.format"},
		},
		"PatchSetNameInPatchSet": {
			reason: "A patch set's patches have no patchSetName member.",
			input:  "{patchSets: [{name: s, patches: [{type: PatchSet, patchSetName: t}]}], resources: [{name: a}]}",
			want:   want{unknown: "patchSets[0].patches[0].patchSetName"},
		},
		"PatchSetNameInEnvironment": {
			reason: "Environment patches have no patchSetName member.",
			input:  "environment: {patches: [{type: PatchSet, patchSetName: t}]}",
			want:   want{unknown: "environment.patches[0].patchSetName"},
		},
		"WrongCaseAtRoot": {
			reason: "Member names are case-sensitive.",
			input:  "Resources: [{name: a}]",
			want:   want{unknown: "Resources"},
		},
		"WrongCaseAtDepth": {
			reason: "Member names are case-sensitive at any depth.",
			input:  patch("{FromFieldPath: a}"),
			want:   want{unknown: "resources[0].patches[0].FromFieldPath"},
		},
		"WrongCaseInTypeMeta": {
			reason: "The inlined apiVersion and kind are case-sensitive too.",
			input:  "{apiversion: pt.fn.crossplane.io/v1beta1, resources: [{name: a}]}",
			want:   want{unknown: "apiversion"},
		},
		"NonIntegralMultiply": {
			reason: "multiply is an integer.",
			input:  transform("{type: math, math: {type: Multiply, multiply: 2.5}}"),
			want:   want{err: cmpopts.AnyError},
		},
		"NonIntegralMatchInteger": {
			reason: "matchInteger is an integer.",
			input:  "resources: [{name: a, readinessChecks: [{type: MatchInteger, fieldPath: x, matchInteger: 1.5}]}]",
			want:   want{err: cmpopts.AnyError},
		},
		"NonIntegralGroup": {
			reason: "A regexp group is an integer.",
			input:  transform("{type: string, string: {type: Regexp, regexp: {match: a, group: 0.5}}}"),
			want:   want{err: cmpopts.AnyError},
		},
		"WrongKind": {
			reason: "A number is not a string.",
			input:  patch("{fromFieldPath: 5}"),
			want:   want{err: cmpopts.AnyError},
		},
		"MapNotAnObject": {
			reason: "A map transform is an object of pairs.",
			input:  transform("{type: map, map: [a]}"),
			want:   want{err: cmpopts.AnyError},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, err := Decode(wire(t, tc.input))
			if diff := cmp.Diff(tc.want.r, got); diff != "" {
				t.Errorf("\n%s\nDecode(...): -want, +got:\n%s", tc.reason, diff)
			}
			var fe kjson.FieldError
			gotUnknown := ""
			if errors.As(err, &fe) {
				gotUnknown = fe.FieldPath()
				err = nil
			}
			if diff := cmp.Diff(tc.want.unknown, gotUnknown); diff != "" {
				t.Errorf("\n%s\nDecode(...): -want unknown member, +got unknown member:\n%s", tc.reason, diff)
			}
			if diff := cmp.Diff(tc.want.err, err, cmpopts.EquateErrors()); diff != "" {
				t.Errorf("\n%s\nDecode(...): -want error, +got error:\n%s", tc.reason, diff)
			}
		})
	}
}

func TestDecodeJSON(t *testing.T) {
	cases := map[string]struct {
		reason string
		input  string
		want   *Resources
		err    error
	}{
		"NotAnObject": {
			reason: "The input must be a JSON object.",
			input:  `[]`,
			err:    cmpopts.AnyError,
		},
		"Null": {
			reason: "JSON null is an empty input.",
			input:  `null`,
			want:   &Resources{},
		},
		"DuplicateMember": {
			reason: "A member given twice is rejected, as the function's decoder does.",
			input:  `{"resources":[{"name":"a","name":"b"}]}`,
			err:    cmpopts.AnyError,
		},
		"IntegralFloat": {
			reason: "An integral number written as a float is not an integer in JSON text.",
			input:  `{"resources":[{"name":"a","readinessChecks":[{"type":"MatchInteger","fieldPath":"x","matchInteger":2.0}]}]}`,
			err:    cmpopts.AnyError,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, err := DecodeJSON([]byte(tc.input))
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("\n%s\nDecodeJSON(...): -want, +got:\n%s", tc.reason, diff)
			}
			if diff := cmp.Diff(tc.err, err, cmpopts.EquateErrors()); diff != "" {
				t.Errorf("\n%s\nDecodeJSON(...): -want error, +got error:\n%s", tc.reason, diff)
			}
		})
	}
}

// TestDecodeWireNumbers checks that integers which crossed the wire as
// float64 decode into the integer fields.
func TestDecodeWireNumbers(t *testing.T) {
	in := map[string]any{"resources": []any{map[string]any{
		"name":            "a",
		"readinessChecks": []any{map[string]any{"type": "MatchInteger", "fieldPath": "x", "matchInteger": float64(3)}},
	}}}
	got, err := Decode(in)
	if err != nil {
		t.Fatalf("Decode(...): unexpected error: %v", err)
	}
	want := []ReadinessCheck{{Type: "MatchInteger", FieldPath: ptr("x"), MatchInteger: ptr(int64(3))}}
	if diff := cmp.Diff(want, got.Resources[0].ReadinessChecks); diff != "" {
		t.Errorf("Decode(...): -want, +got:\n%s", diff)
	}
}
