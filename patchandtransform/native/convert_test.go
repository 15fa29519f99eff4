package native

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	pt "github.com/xpmigrate/xpmigrate/patchandtransform"
)

func TestCoreConnectionDetails(t *testing.T) {
	cases := map[string]struct {
		reason string
		in     string
		want   []pt.ConnectionDetail
	}{
		"CD011SecretKeyNamesItself": {
			reason: "CD-011: a lone fromConnectionSecretKey is FromConnectionSecretKey, named after its key.",
			in:     "{fromConnectionSecretKey: user}",
			want:   []pt.ConnectionDetail{{Name: "user", Type: pt.ConnectionDetailTypeFromConnectionSecretKey, FromConnectionSecretKey: ptrTo("user")}},
		},
		"CD012ValueWins": {
			reason: "CD-012: value takes precedence over fromFieldPath.",
			in:     "{name: x, fromFieldPath: a, value: v}",
			want:   []pt.ConnectionDetail{{Name: "x", Type: pt.ConnectionDetailTypeFromValue, FromFieldPath: ptrTo("a"), Value: ptrTo("v")}},
		},
		"CD013SecretKeyBeatsFieldPath": {
			reason: "CD-013: fromConnectionSecretKey takes precedence over fromFieldPath.",
			in:     `{name: "y", fromFieldPath: a, fromConnectionSecretKey: k}`,
			want:   []pt.ConnectionDetail{{Name: "y", Type: pt.ConnectionDetailTypeFromConnectionSecretKey, FromConnectionSecretKey: ptrTo("k"), FromFieldPath: ptrTo("a")}},
		},
		"CD014Nothing": {
			reason: "CD-014: an empty detail is FromConnectionSecretKey with no name (fatal at run time).",
			in:     "{}",
			want:   []pt.ConnectionDetail{{Type: pt.ConnectionDetailTypeFromConnectionSecretKey}},
		},
		"CD015ExplicitTypeNoName": {
			reason: "CD-015: an explicit FromFieldPath type does not take its name from fromConnectionSecretKey.",
			in:     "{type: FromFieldPath, fromConnectionSecretKey: k}",
			want:   []pt.ConnectionDetail{{Type: pt.ConnectionDetailTypeFromFieldPath, FromConnectionSecretKey: ptrTo("k")}},
		},
		"FieldPathNeedsName": {
			reason: "A fromFieldPath detail gets no inferred name.",
			in:     "{fromFieldPath: metadata.name}",
			want:   []pt.ConnectionDetail{{Type: pt.ConnectionDetailTypeFromFieldPath, FromFieldPath: ptrTo("metadata.name")}},
		},
		"ExplicitEmptyName": {
			reason: "An explicit name wins, even an empty one.",
			in:     `{name: "", fromConnectionSecretKey: k}`,
			want:   []pt.ConnectionDetail{{Type: pt.ConnectionDetailTypeFromConnectionSecretKey, FromConnectionSecretKey: ptrTo("k")}},
		},
		"ExplicitSecretKeyType": {
			reason: "An explicit FromConnectionSecretKey type names the detail after its key too.",
			in:     "{type: FromConnectionSecretKey, fromConnectionSecretKey: pw, value: v}",
			want:   []pt.ConnectionDetail{{Name: "pw", Type: pt.ConnectionDetailTypeFromConnectionSecretKey, FromConnectionSecretKey: ptrTo("pw"), Value: ptrTo("v")}},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			c := mustDecode(t, doc("resources: [{base: BASE, connectionDetails: ["+tc.in+"]}]"))
			c.Default()
			got := c.Spec.Resources[0].CoreConnectionDetails()
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("\n%s\nCoreConnectionDetails(): -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}

func TestCoreReadinessChecks(t *testing.T) {
	defaultCheck := []pt.ReadinessCheck{{
		Type:           pt.ReadinessCheckTypeMatchCondition,
		MatchCondition: &pt.MatchConditionReadinessCheck{Type: "Ready", Status: "True"},
	}}
	cases := map[string]struct {
		reason      string
		in          string
		undefaulted bool
		want        []pt.ReadinessCheck
	}{
		"AbsentDefaulted": {
			reason: "An absent readinessChecks key is defaulted to MatchCondition Ready True.",
			in:     "{base: BASE}",
			want:   defaultCheck,
		},
		"AbsentUndefaulted": {
			reason: "Without defaulting, no checks behave like the default check.",
			in:     "{base: BASE}",
			want:   defaultCheck,
		},
		"EmptyList": {
			reason: "An explicit empty list behaves like the default check.",
			in:     "{base: BASE, readinessChecks: []}",
			want:   defaultCheck,
		},
		"UnsetValues": {
			reason: "matchString \"\", matchInteger 0 and fieldPath \"\" are unset: nil in core.",
			in:     `{base: BASE, readinessChecks: [{type: MatchString, fieldPath: a, matchString: ""}, {type: MatchInteger, matchInteger: 0}, {type: MatchInteger, fieldPath: b, matchInteger: 3}, {type: MatchString, fieldPath: c, matchString: "x"}]}`,
			want: []pt.ReadinessCheck{
				{Type: pt.ReadinessCheckTypeMatchString, FieldPath: ptrTo("a")},
				{Type: pt.ReadinessCheckTypeMatchInteger},
				{Type: pt.ReadinessCheckTypeMatchInteger, FieldPath: ptrTo("b"), MatchInteger: ptrTo[int64](3)},
				{Type: pt.ReadinessCheckTypeMatchString, FieldPath: ptrTo("c"), MatchString: ptrTo("x")},
			},
		},
		"MatchCondition": {
			reason: "A match condition keeps its type and status; a defaulted one gets Ready and True.",
			in:     `{base: BASE, readinessChecks: [{type: MatchCondition, matchCondition: {type: Synced, status: "False"}}, {type: MatchCondition, matchCondition: {}}, {type: None}]}`,
			want: []pt.ReadinessCheck{
				{Type: pt.ReadinessCheckTypeMatchCondition, MatchCondition: &pt.MatchConditionReadinessCheck{Type: "Synced", Status: "False"}},
				{Type: pt.ReadinessCheckTypeMatchCondition, MatchCondition: &pt.MatchConditionReadinessCheck{Type: "Ready", Status: "True"}},
				{Type: pt.ReadinessCheckTypeNone},
			},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			c := mustDecode(t, doc("resources: ["+tc.in+"]"))
			if !tc.undefaulted {
				c.Default()
			}
			got := c.Spec.Resources[0].CoreReadinessChecks()
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("\n%s\nCoreReadinessChecks(): -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}

func TestCorePatches(t *testing.T) {
	cases := map[string]struct {
		reason      string
		in          string
		undefaulted bool
		want        []pt.Patch
	}{
		"Policies": {
			reason: "policy and mergeOptions keep their pointers: {} is not nil.",
			in: `[{fromFieldPath: a, policy: {}},
 {fromFieldPath: b, policy: {mergeOptions: {}}},
 {fromFieldPath: c, toFieldPath: d, policy: {fromFieldPath: Required, mergeOptions: {keepMapValues: true, appendSlice: false}}}]`,
			want: []pt.Patch{
				{Type: pt.PatchTypeFromCompositeFieldPath, FromFieldPath: ptrTo("a"), Policy: &pt.Policy{}},
				{Type: pt.PatchTypeFromCompositeFieldPath, FromFieldPath: ptrTo("b"), Policy: &pt.Policy{MergeOptions: &pt.MergeOptions{}}},
				{Type: pt.PatchTypeFromCompositeFieldPath, FromFieldPath: ptrTo("c"), ToFieldPath: ptrTo("d"), Policy: &pt.Policy{
					FromFieldPath: ptrTo(pt.FromFieldPathPolicyRequired),
					MergeOptions:  &pt.MergeOptions{KeepMapValues: ptrTo(true), AppendSlice: ptrTo(false)},
				}},
			},
		},
		"CombineAndPatchSet": {
			reason: "Combine patches and PatchSet references are converted as written.",
			in:     `[{type: CombineFromComposite, combine: {strategy: string, variables: [{fromFieldPath: a}, {fromFieldPath: b}], string: {fmt: "%s-%s"}}, toFieldPath: c}, {type: PatchSet, patchSetName: common}]`,
			want: []pt.Patch{
				{Type: pt.PatchTypeCombineFromComposite, ToFieldPath: ptrTo("c"), Combine: &pt.Combine{
					Strategy:  pt.CombineStrategyString,
					Variables: []pt.CombineVariable{{FromFieldPath: "a"}, {FromFieldPath: "b"}},
					String:    &pt.StringCombine{Format: "%s-%s"},
				}},
				{Type: pt.PatchTypePatchSet, PatchSetName: ptrTo("common")},
			},
		},
		"Transforms": {
			reason: "Every transform block is converted; free-form values stay raw JSON.",
			in: `[{fromFieldPath: a, transforms: [
  {type: map, map: {small: 1.0, large: {cpu: 2}}},
  {type: match, match: {patterns: [{literal: a, result: 1}, {type: regexp, regexp: "^b", result: [x]}], fallbackValue: 2.5, fallbackTo: Value}},
  {type: math, math: {type: ClampMax, clampMax: 10}},
  {type: string, string: {type: Regexp, regexp: {match: "(a)(b)", group: 2}}},
  {type: string, string: {type: Join, join: {separator: ""}}},
  {type: string, string: {type: Convert, convert: ToSha256}},
  {type: string, string: {type: TrimPrefix, trim: pre}},
  {type: convert, convert: {toType: float64, format: quantity}},
  {type: convert, convert: {toType: int}}]}]`,
			want: []pt.Patch{{Type: pt.PatchTypeFromCompositeFieldPath, FromFieldPath: ptrTo("a"), Transforms: []pt.Transform{
				{Type: pt.TransformTypeMap, Map: &pt.MapTransform{Pairs: map[string]pt.RawJSON{"small": pt.RawJSON(`1`), "large": pt.RawJSON(`{"cpu":2}`)}}},
				{Type: pt.TransformTypeMatch, Match: &pt.MatchTransform{
					Patterns: []pt.MatchPattern{
						{Type: pt.MatchPatternTypeLiteral, Literal: ptrTo("a"), Result: pt.RawJSON(`1`)},
						{Type: pt.MatchPatternTypeRegexp, Regexp: ptrTo("^b"), Result: pt.RawJSON(`["x"]`)},
					},
					FallbackValue: pt.RawJSON(`2.5`),
					FallbackTo:    pt.MatchFallbackToValue,
				}},
				{Type: pt.TransformTypeMath, Math: &pt.MathTransform{Type: pt.MathTransformTypeClampMax, ClampMax: ptrTo[int64](10)}},
				{Type: pt.TransformTypeString, String: &pt.StringTransform{Type: pt.StringTransformTypeRegexp, Regexp: &pt.StringTransformRegexp{Match: "(a)(b)", Group: ptrTo(2)}}},
				{Type: pt.TransformTypeString, String: &pt.StringTransform{Type: pt.StringTransformTypeJoin, Join: &pt.StringTransformJoin{}}},
				{Type: pt.TransformTypeString, String: &pt.StringTransform{Type: pt.StringTransformTypeConvert, Convert: ptrTo(pt.StringConversionTypeToSHA256)}},
				{Type: pt.TransformTypeString, String: &pt.StringTransform{Type: pt.StringTransformTypeTrimPrefix, Trim: ptrTo("pre")}},
				{Type: pt.TransformTypeConvert, Convert: &pt.ConvertTransform{ToType: pt.ConvertTransformTypeFloat64, Format: ptrTo(pt.ConvertTransformFormatQuantity)}},
				{Type: pt.TransformTypeConvert, Convert: &pt.ConvertTransform{ToType: pt.ConvertTransformTypeInt}},
			}}},
		},
		"DefaultedTransformTypes": {
			reason: "Defaulted transform sub-types arrive in core.",
			in:     `[{fromFieldPath: a, transforms: [{type: math, math: {multiply: 2}}, {type: string, string: {fmt: "%d"}}, {type: match, match: {patterns: [{literal: a, result: b}]}}]}]`,
			want: []pt.Patch{{Type: pt.PatchTypeFromCompositeFieldPath, FromFieldPath: ptrTo("a"), Transforms: []pt.Transform{
				{Type: pt.TransformTypeMath, Math: &pt.MathTransform{Type: pt.MathTransformTypeMultiply, Multiply: ptrTo[int64](2)}},
				{Type: pt.TransformTypeString, String: &pt.StringTransform{Type: pt.StringTransformTypeFormat, Format: ptrTo("%d")}},
				{Type: pt.TransformTypeMatch, Match: &pt.MatchTransform{
					Patterns:   []pt.MatchPattern{{Type: pt.MatchPatternTypeLiteral, Literal: ptrTo("a"), Result: pt.RawJSON(`"b"`)}},
					FallbackTo: pt.MatchFallbackToValue,
				}},
			}}},
		},
		"UndefaultedTypesStayEmpty": {
			reason:      "Q-1: without Default, absent types stay empty in core, so the composer can reproduce what an undefaulted Composition does.",
			in:          `[{fromFieldPath: a, transforms: [{type: string, string: {fmt: "%s"}}]}]`,
			undefaulted: true,
			want: []pt.Patch{{FromFieldPath: ptrTo("a"), Transforms: []pt.Transform{
				{Type: pt.TransformTypeString, String: &pt.StringTransform{Format: ptrTo("%s")}},
			}}},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			c := mustDecode(t, doc("resources: [{base: BASE, patches: "+tc.in+"}]"))
			if !tc.undefaulted {
				c.Default()
			}
			got := c.Spec.Resources[0].CorePatches()
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("\n%s\nCorePatches(): -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}

func TestCompositionConversions(t *testing.T) {
	c := mustDecode(t, doc(`patchSets:
- {name: a, patches: [{fromFieldPath: one}]}
- {name: a, patches: [{fromFieldPath: two}]}
environment:
  patches: [{type: ToCompositeFieldPath, fromFieldPath: env.x, toFieldPath: status.x}]
resources:
- name: r
  base: {apiVersion: ex.org/v1, kind: CD, spec: {i: 3, f: 1.5, big: 10000000000}}
  patches: [{type: PatchSet, patchSetName: a}]
  connectionDetails: [{fromConnectionSecretKey: user}]`))
	c.Default()

	type want struct {
		sets   []pt.PatchSet
		env    []pt.Patch
		tmpls  []Template
		object map[string]any
	}
	w := want{
		sets: []pt.PatchSet{
			{Name: "a", Patches: []pt.Patch{{Type: pt.PatchTypeFromCompositeFieldPath, FromFieldPath: ptrTo("one")}}},
			{Name: "a", Patches: []pt.Patch{{Type: pt.PatchTypeFromCompositeFieldPath, FromFieldPath: ptrTo("two")}}},
		},
		env: []pt.Patch{{Type: pt.PatchTypeToCompositeFieldPath, FromFieldPath: ptrTo("env.x"), ToFieldPath: ptrTo("status.x")}},
		tmpls: []Template{{
			Name:              "r",
			Base:              json.RawMessage(`{"apiVersion":"ex.org/v1","kind":"CD","spec":{"big":10000000000,"f":1.5,"i":3}}`),
			Patches:           []pt.Patch{{Type: pt.PatchTypePatchSet, PatchSetName: ptrTo("a")}},
			ConnectionDetails: []pt.ConnectionDetail{{Name: "user", Type: pt.ConnectionDetailTypeFromConnectionSecretKey, FromConnectionSecretKey: ptrTo("user")}},
			ReadinessChecks:   []pt.ReadinessCheck{{Type: pt.ReadinessCheckTypeMatchCondition, MatchCondition: &pt.MatchConditionReadinessCheck{Type: "Ready", Status: "True"}}},
		}},
		object: map[string]any{"apiVersion": "ex.org/v1", "kind": "CD", "spec": map[string]any{"i": int64(3), "f": 1.5, "big": int64(10000000000)}},
	}

	if diff := cmp.Diff(w.sets, c.PatchSets()); diff != "" {
		t.Errorf("\nPatch sets are returned in order, duplicates included.\nPatchSets(): -want, +got:\n%s", diff)
	}
	if diff := cmp.Diff(w.env, c.EnvironmentPatches()); diff != "" {
		t.Errorf("\nEnvironment patches are converted.\nEnvironmentPatches(): -want, +got:\n%s", diff)
	}
	tmpls := c.Templates()
	if diff := cmp.Diff(w.tmpls, tmpls); diff != "" {
		t.Errorf("\nTemplates are converted in order.\nTemplates(): -want, +got:\n%s", diff)
	}
	got, err := tmpls[0].Object()
	if err != nil {
		t.Fatalf("Object(): %v", err)
	}
	if diff := cmp.Diff(w.object, got); diff != "" {
		t.Errorf("\nThe base is decoded with the Kubernetes decoder: integers are int64.\nObject(): -want, +got:\n%s", diff)
	}
	if _, err := (Template{}).Object(); err == nil {
		t.Errorf("\nA template without base cannot be decoded.\nObject(): want error, got nil")
	}
	if diff := cmp.Diff([]pt.Patch(nil), (&Composition{}).EnvironmentPatches(), cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("\nNo environment, no environment patches.\nEnvironmentPatches(): -want, +got:\n%s", diff)
	}
}

func TestConversionCopies(t *testing.T) {
	c := mustDecode(t, doc(`resources: [{base: BASE, patches: [{fromFieldPath: a, policy: {mergeOptions: {keepMapValues: true}}, transforms: [{type: map, map: {k: v}}]}]}]`))
	c.Default()
	got := c.Spec.Resources[0].CorePatches()
	*got[0].FromFieldPath = "changed"
	*got[0].Policy.MergeOptions.KeepMapValues = false
	got[0].Transforms[0].Map.Pairs["k"][1] = 'X'
	want := c.Spec.Resources[0].CorePatches()
	if diff := cmp.Diff("a", *want[0].FromFieldPath); diff != "" {
		t.Errorf("\nCore values share no memory with the Composition.\nFromFieldPath: -want, +got:\n%s", diff)
	}
	if diff := cmp.Diff(true, *want[0].Policy.MergeOptions.KeepMapValues); diff != "" {
		t.Errorf("\nCore values share no memory with the Composition.\nKeepMapValues: -want, +got:\n%s", diff)
	}
	if diff := cmp.Diff(pt.RawJSON(`"v"`), want[0].Transforms[0].Map.Pairs["k"]); diff != "" {
		t.Errorf("\nCore values share no memory with the Composition.\nmap value: -want, +got:\n%s", diff)
	}
}
