package native

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// defaulted returns doc(spec) with the two spec-level defaults added unless
// spec sets them, so that rows need only spell out what they test.
func defaulted(spec string) []byte {
	if !strings.HasPrefix(spec, "mode:") && !strings.Contains(spec, "\nmode:") {
		spec += "\nmode: Resources"
	}
	if !strings.Contains(spec, "publishConnectionDetailsWithStoreConfigRef:") {
		spec += "\npublishConnectionDetailsWithStoreConfigRef: {name: default}"
	}
	return doc(spec)
}

// TestDefault covers every row of docs/semantics/legacy.md#inputs-are-defaulted-first.
func TestDefault(t *testing.T) {
	cases := map[string]struct {
		reason string
		in     string
		want   string
	}{
		"Mode": {
			reason: "spec.mode defaults to Resources.",
			in:     "resources: []",
			want:   "resources: []\nmode: Resources",
		},
		"ModeKept": {
			reason: "An explicit mode is kept.",
			in:     "mode: Pipeline",
			want:   "mode: Pipeline",
		},
		"StoreConfigRef": {
			reason: "publishConnectionDetailsWithStoreConfigRef defaults to {name: default}.",
			in:     "writeConnectionSecretsToNamespace: ns",
			want:   "writeConnectionSecretsToNamespace: ns\npublishConnectionDetailsWithStoreConfigRef: {name: default}",
		},
		"StoreConfigRefKept": {
			reason: "An explicit store config reference is kept.",
			in:     "publishConnectionDetailsWithStoreConfigRef: {name: vault}",
			want:   "publishConnectionDetailsWithStoreConfigRef: {name: vault}",
		},
		"PatchTypeEverywhere": {
			reason: "Patch type defaults to FromCompositeFieldPath in templates, patch sets and environment patches.",
			in: `patchSets: [{name: p, patches: [{fromFieldPath: a}]}]
resources: [{readinessChecks: [], patches: [{fromFieldPath: b}, {type: ToCompositeFieldPath, fromFieldPath: c}]}]
environment: {patches: [{fromFieldPath: d}]}`,
			want: `patchSets: [{name: p, patches: [{type: FromCompositeFieldPath, fromFieldPath: a}]}]
resources: [{readinessChecks: [], patches: [{type: FromCompositeFieldPath, fromFieldPath: b}, {type: ToCompositeFieldPath, fromFieldPath: c}]}]
environment: {patches: [{type: FromCompositeFieldPath, fromFieldPath: d}]}`,
		},
		"PatchTypeExplicitEmpty": {
			reason: "An explicit empty type is kept (the API server only defaults absent or null fields).",
			in:     `resources: [{readinessChecks: [], patches: [{type: "", fromFieldPath: b}, {type: null, fromFieldPath: c}]}]`,
			want:   `resources: [{readinessChecks: [], patches: [{type: "", fromFieldPath: b}, {type: FromCompositeFieldPath, fromFieldPath: c}]}]`,
		},
		"Transforms": {
			reason: "math.type defaults to Multiply, match.fallbackTo to Value, match.patterns[].type to literal, string.type to Format; convert.format has no default.",
			in: `patchSets: [{name: p, patches: [{type: FromCompositeFieldPath, fromFieldPath: a, transforms: [
  {type: math, math: {multiply: 2}},
  {type: match, match: {patterns: [{literal: x, result: 1}, {type: regexp, regexp: "^y", result: 2}]}},
  {type: string, string: {fmt: "%s"}},
  {type: convert, convert: {toType: string}},
  {type: math, math: {type: ClampMin, clampMin: 1}},
  {type: match, match: {fallbackTo: Input, patterns: [{literal: x, result: 1}]}},
  {type: string, string: {type: Convert, convert: ToUpper}}]}]}]`,
			want: `patchSets: [{name: p, patches: [{type: FromCompositeFieldPath, fromFieldPath: a, transforms: [
  {type: math, math: {type: Multiply, multiply: 2}},
  {type: match, match: {fallbackTo: Value, patterns: [{type: literal, literal: x, result: 1}, {type: regexp, regexp: "^y", result: 2}]}},
  {type: string, string: {type: Format, fmt: "%s"}},
  {type: convert, convert: {toType: string}},
  {type: math, math: {type: ClampMin, clampMin: 1}},
  {type: match, match: {fallbackTo: Input, patterns: [{type: literal, literal: x, result: 1}]}},
  {type: string, string: {type: Convert, convert: ToUpper}}]}]}]`,
		},
		"ReadinessChecksAbsent": {
			reason: "An absent (or null) readinessChecks key gets the MatchCondition Ready True default.",
			in:     "resources: [{name: a}, {name: b, readinessChecks: null}]",
			want: `resources:
- {name: a, readinessChecks: [{type: MatchCondition, matchCondition: {type: Ready, status: "True"}}]}
- {name: b, readinessChecks: [{type: MatchCondition, matchCondition: {type: Ready, status: "True"}}]}`,
		},
		"ReadinessChecksEmpty": {
			reason: "An explicit empty list is kept (it behaves like the default at run time).",
			in:     "resources: [{name: a, readinessChecks: []}]",
			want:   "resources: [{name: a, readinessChecks: []}]",
		},
		"MatchCondition": {
			reason: "matchCondition type and status default to Ready and True; explicit values, even empty, are kept.",
			in:     `resources: [{readinessChecks: [{type: MatchCondition, matchCondition: {}}, {type: MatchCondition, matchCondition: {type: Synced, status: ""}}, {type: NonEmpty, fieldPath: a}]}]`,
			want:   `resources: [{readinessChecks: [{type: MatchCondition, matchCondition: {type: Ready, status: "True"}}, {type: MatchCondition, matchCondition: {type: Synced, status: ""}}, {type: NonEmpty, fieldPath: a}]}]`,
		},
		"ConnectionDetailTypeNotDefaulted": {
			reason: "connectionDetails[].type has no CRD default; it is inferred at run time.",
			in:     "resources: [{readinessChecks: [], connectionDetails: [{fromConnectionSecretKey: k}]}]",
			want:   "resources: [{readinessChecks: [], connectionDetails: [{fromConnectionSecretKey: k}]}]",
		},
		"EnvironmentSelection": {
			reason: "environmentConfigs[].type defaults to Reference, selector mode to Single and sortByFieldPath to metadata.name, matchLabels[] type to FromCompositeFieldPath and fromFieldPathPolicy to Required, policy.resolution to Required.",
			in: `environment:
  environmentConfigs:
  - ref: {name: a}
  - type: Selector
    selector:
      matchLabels: [{key: k, valueFromFieldPath: spec.k}, {key: v, type: Value, value: x, fromFieldPathPolicy: Optional}]
  - type: Selector
    selector: {mode: Multiple, sortByFieldPath: data.w, matchLabels: [{key: k, valueFromFieldPath: spec.k}]}
  policy: {resolve: Always}`,
			want: `environment:
  environmentConfigs:
  - type: Reference
    ref: {name: a}
  - type: Selector
    selector:
      mode: Single
      sortByFieldPath: metadata.name
      matchLabels: [{key: k, type: FromCompositeFieldPath, fromFieldPathPolicy: Required, valueFromFieldPath: spec.k}, {key: v, type: Value, value: x, fromFieldPathPolicy: Optional}]
  - type: Selector
    selector: {mode: Multiple, sortByFieldPath: data.w, matchLabels: [{key: k, type: FromCompositeFieldPath, fromFieldPathPolicy: Required, valueFromFieldPath: spec.k}]}
  policy: {resolve: Always, resolution: Required}`,
		},
		"EnvironmentPolicyNotAdded": {
			reason: "policy has no default of its own; resolve has no default.",
			in:     "environment: {defaultData: {a: 1}}",
			want:   "environment: {defaultData: {a: 1}}",
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got := mustDecode(t, doc(tc.in))
			got.Default()
			want := mustDecode(t, defaulted(tc.want))
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("\n%s\nDefault(): -want, +got:\n%s", tc.reason, diff)
			}
			got.Default()
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("\n%s\nDefault() twice: -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}
