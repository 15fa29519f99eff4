package function

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	pt "github.com/xpmigrate/xpmigrate/patchandtransform"
)

func TestMergeOptions(t *testing.T) {
	yes, no := true, false
	type want struct {
		mo *pt.MergeOptions
		ok bool
	}
	cases := map[string]struct {
		reason string
		policy ToFieldPathPolicy
		want   want
	}{
		"Replace": {
			reason: "Replace replaces: no merge options.",
			policy: "Replace",
			want:   want{ok: true},
		},
		"MergeObjects": {
			reason: "MergeObjects keeps existing map values.",
			policy: "MergeObjects",
			want:   want{mo: &pt.MergeOptions{KeepMapValues: &yes}, ok: true},
		},
		"MergeObject": {
			reason: "The deprecated MergeObject is MergeObjects.",
			policy: "MergeObject",
			want:   want{mo: &pt.MergeOptions{KeepMapValues: &yes}, ok: true},
		},
		"MergeObjectsAppendArrays": {
			reason: "MergeObjectsAppendArrays keeps map values and appends arrays.",
			policy: "MergeObjectsAppendArrays",
			want:   want{mo: &pt.MergeOptions{KeepMapValues: &yes, AppendSlice: &yes}, ok: true},
		},
		"ForceMergeObjects": {
			reason: "ForceMergeObjects is a non-nil override merge, not a replace.",
			policy: "ForceMergeObjects",
			want:   want{mo: &pt.MergeOptions{KeepMapValues: &no}, ok: true},
		},
		"ForceMergeObjectsAppendArrays": {
			reason: "ForceMergeObjectsAppendArrays overrides map values and appends arrays.",
			policy: "ForceMergeObjectsAppendArrays",
			want:   want{mo: &pt.MergeOptions{AppendSlice: &yes}, ok: true},
		},
		"AppendArray": {
			reason: "The deprecated AppendArray is ForceMergeObjectsAppendArrays.",
			policy: "AppendArray",
			want:   want{mo: &pt.MergeOptions{AppendSlice: &yes}, ok: true},
		},
		"Unknown": {
			reason: "Anything else is unknown, including a different case.",
			policy: "mergeObjects",
			want:   want{ok: false},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			mo, ok := mergeOptions(tc.policy)
			if diff := cmp.Diff(tc.want, want{mo: mo, ok: ok}, cmp.AllowUnexported(want{})); diff != "" {
				t.Errorf("\n%s\nmergeOptions(%q): -want, +got:\n%s", tc.reason, tc.policy, diff)
			}
		})
	}
}

func TestTemplates(t *testing.T) {
	yes := true
	cases := map[string]struct {
		reason string
		input  string
		want   []Template
	}{
		"None": {
			reason: "An input with only environment patches has no templates.",
			input:  "environment: {patches: [{fromFieldPath: a}]}",
		},
		"Defaults": {
			reason: "An empty patch type becomes FromCompositeFieldPath; an unset toFieldPath stays unset; an empty policy is none.",
			input:  "resources: [{name: a, patches: [{fromFieldPath: spec.x, policy: {}}, {fromFieldPath: spec.y, policy: {toFieldPath: Replace}}]}]",
			want: []Template{{Name: "a", Patches: []pt.Patch{
				{Type: pt.PatchTypeFromCompositeFieldPath, FromFieldPath: ptr("spec.x")},
				{Type: pt.PatchTypeFromCompositeFieldPath, FromFieldPath: ptr("spec.y")},
			}}},
		},
		"Policies": {
			reason: "policy.toFieldPath becomes merge options; policy.fromFieldPath is kept as written.",
			input: `resources: [{name: a, patches: [
  {fromFieldPath: a, policy: {fromFieldPath: Required}},
  {fromFieldPath: a, policy: {fromFieldPath: Optional, toFieldPath: MergeObjects}},
  {fromFieldPath: a, policy: {toFieldPath: ForceMergeObjects}}]}]`,
			want: []Template{{Name: "a", Patches: []pt.Patch{
				{Type: pt.PatchTypeFromCompositeFieldPath, FromFieldPath: ptr("a"),
					Policy: &pt.Policy{FromFieldPath: ptr(pt.FromFieldPathPolicyRequired)}},
				{Type: pt.PatchTypeFromCompositeFieldPath, FromFieldPath: ptr("a"),
					Policy: &pt.Policy{FromFieldPath: ptr(pt.FromFieldPathPolicyOptional), MergeOptions: &pt.MergeOptions{KeepMapValues: &yes}}},
				{Type: pt.PatchTypeFromCompositeFieldPath, FromFieldPath: ptr("a"),
					Policy: &pt.Policy{MergeOptions: &pt.MergeOptions{KeepMapValues: ptr(false)}}},
			}}},
		},
		"CombineAndPatchSet": {
			reason: "Combine patches and PatchSet references are carried over; patch sets are not resolved here.",
			input: `resources: [{name: a, patches: [
  {type: PatchSet, patchSetName: s},
  {type: CombineFromEnvironment, toFieldPath: spec.c, combine: {strategy: string, string: {fmt: "%s-%s"}, variables: [{fromFieldPath: a}, {fromFieldPath: b}]}}]}]`,
			want: []Template{{Name: "a", Patches: []pt.Patch{
				{Type: pt.PatchTypePatchSet, PatchSetName: ptr("s")},
				{Type: pt.PatchTypeCombineFromEnvironment, ToFieldPath: ptr("spec.c"), Combine: &pt.Combine{
					Strategy:  pt.CombineStrategyString,
					String:    &pt.StringCombine{Format: "%s-%s"},
					Variables: []pt.CombineVariable{{FromFieldPath: "a"}, {FromFieldPath: "b"}},
				}},
			}}},
		},
		"Transforms": {
			reason: "Every transform block is converted; JSON values stay raw, null ones empty.",
			input: `resources: [{name: a, patches: [{fromFieldPath: a, transforms: [
  {type: math, math: {type: ClampMin, clampMin: -2}},
  {type: map, map: {x: 1, "y": null}},
  {type: match, match: {patterns: [{type: literal, literal: a, result: {k: v}}, {regexp: b, result: null}], fallbackValue: 7}},
  {type: string, string: {type: Convert, convert: ToSha256}},
  {type: string, string: {type: Join, join: {separator: ","}}},
  {type: string, string: {type: Replace, replace: {search: a, replace: b}}},
  {type: string, string: {type: TrimSuffix, trim: "-x", fmt: unused}},
  {type: convert, convert: {toType: object, format: json}}]}]}]`,
			want: []Template{{Name: "a", Patches: []pt.Patch{{
				Type:          pt.PatchTypeFromCompositeFieldPath,
				FromFieldPath: ptr("a"),
				Transforms: []pt.Transform{
					{Type: pt.TransformTypeMath, Math: &pt.MathTransform{Type: pt.MathTransformTypeClampMin, ClampMin: ptr(int64(-2))}},
					{Type: pt.TransformTypeMap, Map: &pt.MapTransform{Pairs: map[string]pt.RawJSON{"x": pt.RawJSON("1"), "y": nil}}},
					{Type: pt.TransformTypeMatch, Match: &pt.MatchTransform{
						Patterns: []pt.MatchPattern{
							{Type: pt.MatchPatternTypeLiteral, Literal: ptr("a"), Result: pt.RawJSON(`{"k":"v"}`)},
							{Regexp: ptr("b")},
						},
						FallbackValue: pt.RawJSON("7"),
					}},
					{Type: pt.TransformTypeString, String: &pt.StringTransform{Type: pt.StringTransformTypeConvert, Convert: ptr(pt.StringConversionTypeToSHA256)}},
					{Type: pt.TransformTypeString, String: &pt.StringTransform{Type: pt.StringTransformTypeJoin, Join: &pt.StringTransformJoin{Separator: ","}}},
					{Type: pt.TransformTypeString, String: &pt.StringTransform{Type: pt.StringTransformTypeReplace, Replace: &pt.StringTransformReplace{Search: "a", Replace: "b"}}},
					{Type: pt.TransformTypeString, String: &pt.StringTransform{Type: pt.StringTransformTypeTrimSuffix, Trim: ptr("-x"), Format: ptr("unused")}},
					{Type: pt.TransformTypeConvert, Convert: &pt.ConvertTransform{ToType: pt.ConvertTransformTypeObject, Format: ptr(pt.ConvertTransformFormatJSON)}},
				},
			}}}},
		},
		"BaseDetailsChecks": {
			reason: "The base stays raw; connection details and readiness checks are carried over.",
			input: `resources:
- name: a
  base: {kind: K, spec: {num: 3}}
  connectionDetails:
  - {name: host, type: FromFieldPath, fromFieldPath: status.host}
  - {name: port, type: FromValue, value: "5432"}
  readinessChecks:
  - {type: MatchString, fieldPath: status.s, matchString: ""}
  - {type: MatchInteger, fieldPath: status.i, matchInteger: 0}
  - {type: MatchCondition, matchCondition: {type: Synced, status: "True"}}`,
			want: []Template{{
				Name: "a",
				Base: pt.RawJSON(`{"kind":"K","spec":{"num":3}}`),
				ConnectionDetails: []pt.ConnectionDetail{
					{Name: "host", Type: pt.ConnectionDetailTypeFromFieldPath, FromFieldPath: ptr("status.host")},
					{Name: "port", Type: pt.ConnectionDetailTypeFromValue, Value: ptr("5432")},
				},
				ReadinessChecks: []pt.ReadinessCheck{
					{Type: pt.ReadinessCheckTypeMatchString, FieldPath: ptr("status.s"), MatchString: ptr("")},
					{Type: pt.ReadinessCheckTypeMatchInteger, FieldPath: ptr("status.i"), MatchInteger: ptr(int64(0))},
					{Type: pt.ReadinessCheckTypeMatchCondition, MatchCondition: &pt.MatchConditionReadinessCheck{Type: "Synced", Status: "True"}},
				},
			}},
		},
		"DuplicateNames": {
			reason: "Templates keep their declared order, duplicates included.",
			input:  "resources: [{name: a}, {name: b}, {name: a}]",
			want:   []Template{{Name: "a"}, {Name: "b"}, {Name: "a"}},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got := mustDecode(t, tc.input).Templates()
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("\n%s\nTemplates(): -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}

func TestCorePatchSets(t *testing.T) {
	r := mustDecode(t, `
patchSets:
- name: s
  patches:
  - {fromFieldPath: a}
  - {type: ToEnvironmentFieldPath, fromFieldPath: b, toFieldPath: c, policy: {toFieldPath: AppendArray}}
- name: empty
resources: [{name: x}]`)
	want := []pt.PatchSet{
		{Name: "s", Patches: []pt.Patch{
			{Type: pt.PatchTypeFromCompositeFieldPath, FromFieldPath: ptr("a")},
			{Type: pt.PatchTypeToEnvironmentFieldPath, FromFieldPath: ptr("b"), ToFieldPath: ptr("c"),
				Policy: &pt.Policy{MergeOptions: &pt.MergeOptions{AppendSlice: ptr(true)}}},
		}},
		{Name: "empty"},
	}
	if diff := cmp.Diff(want, r.CorePatchSets()); diff != "" {
		t.Errorf("CorePatchSets(): -want, +got:\n%s", diff)
	}
}

func TestEnvironmentPatches(t *testing.T) {
	cases := map[string]struct {
		reason string
		input  string
		want   []pt.Patch
	}{
		"None": {
			reason: "No environment, no patches.",
			input:  "resources: [{name: a}]",
		},
		"Typed": {
			reason: "Environment patch types are kept, an empty one defaulted.",
			input:  "environment: {patches: [{fromFieldPath: spec.a, toFieldPath: a}, {type: FromEnvironmentFieldPath, fromFieldPath: a, toFieldPath: status.a}]}",
			want: []pt.Patch{
				{Type: pt.PatchTypeFromCompositeFieldPath, FromFieldPath: ptr("spec.a"), ToFieldPath: ptr("a")},
				{Type: pt.PatchTypeFromEnvironmentFieldPath, FromFieldPath: ptr("a"), ToFieldPath: ptr("status.a")},
			},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got := mustDecode(t, tc.input).EnvironmentPatches()
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("\n%s\nEnvironmentPatches(): -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}

func TestConnectionSecretRef(t *testing.T) {
	cases := map[string]struct {
		reason string
		input  string
		want   *ConnectionSecretRef
	}{
		"Absent": {
			reason: "No writeConnectionSecretToRef, no ref.",
			input:  "resources: [{name: a}]",
		},
		"WithPatches": {
			reason: "Name, namespace and patches are carried over; an unsupported type stays for the run-time error.",
			input: `resources: [{name: a}]
writeConnectionSecretToRef:
  namespace: ns
  patches:
  - {fromFieldPath: spec.secret, toFieldPath: name}
  - {type: CombineToEnvironment, toFieldPath: name}`,
			want: &ConnectionSecretRef{Namespace: "ns", Patches: []pt.Patch{
				{Type: pt.PatchTypeFromCompositeFieldPath, FromFieldPath: ptr("spec.secret"), ToFieldPath: ptr("name")},
				{Type: pt.PatchTypeCombineToEnvironment, ToFieldPath: ptr("name")},
			}},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got := mustDecode(t, tc.input).ConnectionSecretRef()
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("\n%s\nConnectionSecretRef(): -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}

func TestBaseObject(t *testing.T) {
	type want struct {
		o   map[string]any
		err error
	}
	cases := map[string]struct {
		reason string
		base   pt.RawJSON
		want   want
	}{
		"IntegersAreInt64": {
			reason: "The base is parsed from JSON text, so integral numbers are int64.",
			base:   pt.RawJSON(`{"apiVersion":"v1","kind":"K","spec":{"n":3,"f":2.5}}`),
			want:   want{o: map[string]any{"apiVersion": "v1", "kind": "K", "spec": map[string]any{"n": int64(3), "f": 2.5}}},
		},
		"NoAPIVersion": {
			reason: "Only kind is required to parse.",
			base:   pt.RawJSON(`{"kind":"K"}`),
			want:   want{o: map[string]any{"kind": "K"}},
		},
		"NoKind": {
			reason: "A base without kind cannot be parsed.",
			base:   pt.RawJSON(`{"apiVersion":"v1"}`),
			want:   want{err: cmpopts.AnyError},
		},
		"NotAnObject": {
			reason: "A base must be an object.",
			base:   pt.RawJSON(`"x"`),
			want:   want{err: cmpopts.AnyError},
		},
		"Absent": {
			reason: "A template without a base has nothing to parse.",
			want:   want{err: cmpopts.AnyError},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			o, err := Template{Name: "a", Base: tc.base}.BaseObject()
			if diff := cmp.Diff(tc.want.o, o); diff != "" {
				t.Errorf("\n%s\nBaseObject(): -want, +got:\n%s", tc.reason, diff)
			}
			if diff := cmp.Diff(tc.want.err, err, cmpopts.EquateErrors()); diff != "" {
				t.Errorf("\n%s\nBaseObject(): -want error, +got error:\n%s", tc.reason, diff)
			}
		})
	}
}

// TestConversionExamples decodes the complete PT inputs of the "after"
// examples in docs/semantics/conversion.md#examples: they must decode, validate and convert.
func TestConversionExamples(t *testing.T) {
	cases := map[string]struct {
		reason string
		input  string
		want   []Template
	}{
		"E1": {
			reason: "Minimal conversion.",
			input: `
apiVersion: pt.fn.crossplane.io/v1beta1
kind: Resources
resources:
- name: db
  base: {apiVersion: rds.aws.upbound.io/v1beta1, kind: Instance, spec: {forProvider: {engine: postgres}}}`,
			want: []Template{{Name: "db", Base: pt.RawJSON(`{"apiVersion":"rds.aws.upbound.io/v1beta1","kind":"Instance","spec":{"forProvider":{"engine":"postgres"}}}`)}},
		},
		"E3": {
			reason: "Generated names.",
			input: `
resources:
- name: resource-0
  base: {apiVersion: s3.aws.upbound.io/v1beta1, kind: Bucket}
- name: resource-1
  base: {apiVersion: s3.aws.upbound.io/v1beta1, kind: BucketVersioning}`,
			want: []Template{
				{Name: "resource-0", Base: pt.RawJSON(`{"apiVersion":"s3.aws.upbound.io/v1beta1","kind":"Bucket"}`)},
				{Name: "resource-1", Base: pt.RawJSON(`{"apiVersion":"s3.aws.upbound.io/v1beta1","kind":"BucketVersioning"}`)},
			},
		},
		"E5": {
			reason: "Patch sets move into the input; references stay. The spec writes the path unquoted inside a flow mapping, which is not valid YAML, so it is quoted here.",
			input: `
patchSets:
- name: tags
  patches:
  - {type: FromCompositeFieldPath, fromFieldPath: "metadata.labels[team]", toFieldPath: spec.forProvider.tags.team}
resources:
- name: vpc
  base: {apiVersion: ec2.aws.upbound.io/v1beta1, kind: VPC}
  patches: [{type: PatchSet, patchSetName: tags}]`,
			want: []Template{{
				Name:    "vpc",
				Base:    pt.RawJSON(`{"apiVersion":"ec2.aws.upbound.io/v1beta1","kind":"VPC"}`),
				Patches: []pt.Patch{{Type: pt.PatchTypePatchSet, PatchSetName: ptr("tags")}},
			}},
		},
		"E25": {
			reason: "Readiness checks: empty stays empty; MatchCondition completed.",
			input: `
resources:
- name: a
  readinessChecks: []
- name: b
  readinessChecks:
  - {type: MatchCondition, matchCondition: {type: Synced, status: "True"}}
  - {type: MatchString, fieldPath: status.atProvider.state, matchString: ACTIVE}`,
			want: []Template{
				{Name: "a"},
				{Name: "b", ReadinessChecks: []pt.ReadinessCheck{
					{Type: pt.ReadinessCheckTypeMatchCondition, MatchCondition: &pt.MatchConditionReadinessCheck{Type: "Synced", Status: "True"}},
					{Type: pt.ReadinessCheckTypeMatchString, FieldPath: ptr("status.atProvider.state"), MatchString: ptr("ACTIVE")},
				}},
			},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			r := mustDecode(t, tc.input)
			if diff := cmp.Diff("", message(r.Validate())); diff != "" {
				t.Errorf("\n%s\nValidate(): -want, +got:\n%s", tc.reason, diff)
			}
			if diff := cmp.Diff(tc.want, r.Templates()); diff != "" {
				t.Errorf("\n%s\nTemplates(): -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}
