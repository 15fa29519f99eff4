package environment

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/pkg/errors"
)

func TestSelect(t *testing.T) {
	type args struct {
		spec    string
		xr      string
		configs []string
	}
	type want struct {
		sel *Selection
		// xrRefs is the XR's spec.environmentConfigRefs afterwards; nil
		// means absent.
		xrRefs []any
		err    string
		// where the error says it is.
		source, label int
		fieldPath     string
		field         string
	}

	refsValue := func(names ...string) []any {
		out := make([]any, len(names))
		for i, n := range names {
			out[i] = map[string]any{"apiVersion": APIVersionV1Alpha1, "kind": KindConfig, "name": n}
		}
		return out
	}

	cases := map[string]struct {
		reason string
		args   args
		want   want
	}{
		"EV020SingleModeManyMatches": {
			reason: "Single mode needs exactly one candidate.",
			args: args{
				spec:    `{environmentConfigs: [{type: Selector, selector: {mode: Single, matchLabels: [{type: Value, key: env, value: prod}]}}]}`,
				configs: []string{ec3},
			},
			want: want{
				err:    "cannot select environment: failed to build reference at index 0: only 1 EnvironmentConfig can be selected in Single mode, found: 3",
				source: 0, label: -1, field: "spec.environment.environmentConfigs[0]",
			},
		},
		"EV021SingleModeNoLabelResolved": {
			reason: "When every label is Optional and missing nothing is listed, and Single mode still fails, with zero.",
			args: args{
				spec:    `{environmentConfigs: [{type: Selector, selector: {mode: Single, matchLabels: [{key: env, valueFromFieldPath: spec.nope, fromFieldPathPolicy: Optional}]}}]}`,
				configs: []string{ec3},
			},
			want: want{
				err:    "cannot select environment: failed to build reference at index 0: only 1 EnvironmentConfig can be selected in Single mode, found: 0",
				source: 0, label: -1, field: "spec.environment.environmentConfigs[0]",
			},
		},
		"SingleModeIgnoresOptionalResolution": {
			reason: "Single mode fails on zero matches even under resolution Optional (Q-21).",
			args: args{
				spec:    `{policy: {resolution: Optional}, environmentConfigs: [{type: Selector, selector: {matchLabels: [{type: Value, key: env, value: dev}]}}]}`,
				configs: []string{ec3},
			},
			want: want{
				err:    "cannot select environment: failed to build reference at index 0: only 1 EnvironmentConfig can be selected in Single mode, found: 0",
				source: 0, label: -1, field: "spec.environment.environmentConfigs[0]",
			},
		},
		"EV022MultipleFromCompositeFieldPath": {
			reason: "A label value read from the XR selects all three configs, sorted by name.",
			args: args{
				spec:    `{environmentConfigs: [{type: Selector, selector: {mode: Multiple, sortByFieldPath: metadata.name, matchLabels: [{key: env, valueFromFieldPath: spec.env}]}}]}`,
				xr:      `{spec: {env: prod}}`,
				configs: []string{ec3},
			},
			want: want{
				sel: &Selection{Resolved: true, Refs: refs("a", "b", "c"),
					Sources: []SourceSelection{{Labels: map[string]string{"env": "prod"}, Names: []string{"a", "b", "c"}}}},
				xrRefs: refsValue("a", "b", "c"),
			},
		},
		"EV023MaxMatchAfterStringSort": {
			reason: "maxMatch keeps the first configs after sorting by a string data key.",
			args: args{
				spec:    `{environmentConfigs: [{type: Selector, selector: {mode: Multiple, maxMatch: 2, sortByFieldPath: data.s, matchLabels: [{type: Value, key: env, value: prod}]}}]}`,
				configs: []string{ec3},
			},
			want: want{
				sel: &Selection{Resolved: true, Refs: refs("b", "c"),
					Sources: []SourceSelection{{Labels: map[string]string{"env": "prod"}, Names: []string{"b", "c"}}}},
				xrRefs: refsValue("b", "c"),
			},
		},
		"EV024SortMixedNumberTypes": {
			reason: "Integers in data are int64 when sorting, so 10 and 1.5 do not sort together.",
			args: args{
				spec:    `{environmentConfigs: [{type: Selector, selector: {mode: Multiple, sortByFieldPath: data.w, matchLabels: [{type: Value, key: env, value: prod}]}}]}`,
				configs: []string{ec3},
			},
			want: want{
				err:    "cannot select environment: failed to build reference at index 0: not matching types, got 1.5 (float64), expected int64",
				source: 0, label: -1, fieldPath: "data.w", field: "spec.environment.environmentConfigs[0].selector.sortByFieldPath",
			},
		},
		"EV025MinMatch": {
			reason: "minMatch fails when fewer configs match.",
			args: args{
				spec:    `{environmentConfigs: [{type: Selector, selector: {mode: Multiple, minMatch: 4, sortByFieldPath: metadata.name, matchLabels: [{type: Value, key: env, value: prod}]}}]}`,
				configs: []string{ec3},
			},
			want: want{
				err:    "cannot select environment: failed to build reference at index 0: expected at least 4 EnvironmentConfig(s) with matching labels, found: 3",
				source: 0, label: -1, field: "spec.environment.environmentConfigs[0]",
			},
		},
		"EV026ReferenceNeedNotExist": {
			reason: "A Reference is added without checking the config exists; sources append in order.",
			args: args{
				spec: `{environmentConfigs: [{type: Reference, ref: {name: zzz}},
				        {type: Selector, selector: {mode: Multiple, sortByFieldPath: metadata.name, matchLabels: [{type: Value, key: env, value: prod}]}}]}`,
				configs: []string{ec3},
			},
			want: want{
				sel: &Selection{Resolved: true, Refs: refs("zzz", "a", "b", "c"), Sources: []SourceSelection{
					{Names: []string{"zzz"}},
					{Labels: map[string]string{"env": "prod"}, Names: []string{"a", "b", "c"}},
				}},
				xrRefs: refsValue("zzz", "a", "b", "c"),
			},
		},
		"EV027MultipleNoLabelResolved": {
			reason: "In Multiple mode a selector with no resolved label selects nothing, and the empty list is written.",
			args: args{
				spec:    `{environmentConfigs: [{type: Selector, selector: {mode: Multiple, matchLabels: [{key: env, valueFromFieldPath: spec.nope, fromFieldPathPolicy: Optional}]}}]}`,
				configs: []string{ec3},
			},
			want: want{
				sel:    &Selection{Resolved: true, Refs: []Ref{}, Sources: []SourceSelection{{Names: []string{}}}},
				xrRefs: []any{},
			},
		},
		"EV028LabelValuePrintedWithV": {
			reason: "A number read from the XR becomes the label value \"3\".",
			args: args{
				spec: `{environmentConfigs: [{type: Selector, selector: {mode: Multiple, sortByFieldPath: metadata.name, matchLabels: [{key: env, valueFromFieldPath: spec.num}]}}]}`,
				xr:   `{spec: {num: 3}}`,
			},
			want: want{
				sel:    &Selection{Resolved: true, Refs: []Ref{}, Sources: []SourceSelection{{Labels: map[string]string{"env": "3"}, Names: []string{}}}},
				xrRefs: []any{},
			},
		},
		"EV029SortKeyMissing": {
			reason: "Every candidate must have the sort key.",
			args: args{
				spec:    `{environmentConfigs: [{type: Selector, selector: {mode: Multiple, sortByFieldPath: data.zz, matchLabels: [{type: Value, key: env, value: prod}]}}]}`,
				configs: []string{ec3},
			},
			want: want{
				err:    "cannot select environment: failed to build reference at index 0: data.zz: no such field",
				source: 0, label: -1, fieldPath: "data.zz", field: "spec.environment.environmentConfigs[0].selector.sortByFieldPath",
			},
		},
		"EV030PinnedRefsKept": {
			reason: "With the default resolve policy (IfNotPresent) existing refs are kept.",
			args: args{
				spec: `{environmentConfigs: [{type: Reference, ref: {name: new}}]}`,
				xr:   `{spec: {environmentConfigRefs: [{name: old}]}}`,
			},
			want: want{
				sel:    &Selection{Refs: []Ref{{Name: "old"}}},
				xrRefs: []any{map[string]any{"name": "old"}},
			},
		},
		"EV031ResolveAlways": {
			reason: "policy.resolve Always selects again and replaces the refs.",
			args: args{
				spec: `{policy: {resolve: Always}, environmentConfigs: [{type: Reference, ref: {name: new}}]}`,
				xr:   `{spec: {environmentConfigRefs: [{name: old}]}}`,
			},
			want: want{
				sel:    &Selection{Resolved: true, Refs: refs("new"), Sources: []SourceSelection{{Names: []string{"new"}}}},
				xrRefs: refsValue("new"),
			},
		},
		"EV032EmptyRefsAreAbsent": {
			reason: "An empty list of refs counts as absent.",
			args: args{
				spec: `{environmentConfigs: [{type: Reference, ref: {name: new}}]}`,
				xr:   `{spec: {environmentConfigRefs: []}}`,
			},
			want: want{
				sel:    &Selection{Resolved: true, Refs: refs("new"), Sources: []SourceSelection{{Names: []string{"new"}}}},
				xrRefs: refsValue("new"),
			},
		},
		"EV033RequiredLabelMissing": {
			reason: "A Required label whose path is missing fails, naming source and label index.",
			args: args{
				spec: `{environmentConfigs: [{type: Selector, selector: {matchLabels: [{key: foo, valueFromFieldPath: wrong.path}]}}]}`,
			},
			want: want{
				err:    "cannot select environment: failed to build reference at index 0: failed to resolve value for label at index 0: wrong: no such field",
				source: 0, label: 0, fieldPath: "wrong.path", field: "spec.environment.environmentConfigs[0].selector.matchLabels[0]",
			},
		},
		"EV034MaxMatchZero": {
			reason: "maxMatch 0 keeps none.",
			args: args{
				spec:    `{environmentConfigs: [{type: Selector, selector: {mode: Multiple, maxMatch: 0, sortByFieldPath: metadata.name, matchLabels: [{type: Value, key: env, value: prod}]}}]}`,
				configs: []string{ec3},
			},
			want: want{
				sel:    &Selection{Resolved: true, Refs: []Ref{}, Sources: []SourceSelection{{Labels: map[string]string{"env": "prod"}, Names: []string{}}}},
				xrRefs: []any{},
			},
		},
		"SingleModeOneMatch": {
			reason: "Labels are ANDed; Single mode takes the one config matching all of them.",
			args: args{
				spec: `{environmentConfigs: [{type: Selector, selector: {matchLabels: [{type: Value, key: env, value: prod}, {key: region, valueFromFieldPath: spec.region}]}}]}`,
				xr:   `{spec: {region: eu}}`,
				configs: []string{ec3, `
apiVersion: apiextensions.crossplane.io/v1alpha1
kind: EnvironmentConfig
metadata: {name: eu-prod, labels: {env: prod, region: eu}}
`, `
apiVersion: apiextensions.crossplane.io/v1alpha1
kind: EnvironmentConfig
metadata: {name: eu-dev, labels: {env: dev, region: eu}}
`},
			},
			want: want{
				sel: &Selection{Resolved: true, Refs: refs("eu-prod"),
					Sources: []SourceSelection{{Labels: map[string]string{"env": "prod", "region": "eu"}, Names: []string{"eu-prod"}}}},
				xrRefs: refsValue("eu-prod"),
			},
		},
		"OptionalLabelMissingOthersUsed": {
			reason: "A missing Optional label is dropped; the remaining labels still select.",
			args: args{
				spec:    `{environmentConfigs: [{type: Selector, selector: {mode: Multiple, matchLabels: [{key: region, valueFromFieldPath: spec.region, fromFieldPathPolicy: Optional}, {type: Value, key: env, value: prod}]}}]}`,
				configs: []string{ec3},
			},
			want: want{
				sel: &Selection{Resolved: true, Refs: refs("a", "b", "c"),
					Sources: []SourceSelection{{Labels: map[string]string{"env": "prod"}, Names: []string{"a", "b", "c"}}}},
				xrRefs: refsValue("a", "b", "c"),
			},
		},
		"RequiredLabelNotFoundThroughNull": {
			reason: "Reading through null is not-found; Required makes it an error.",
			args: args{
				spec: `{environmentConfigs: [{type: Selector, selector: {matchLabels: [{key: env, valueFromFieldPath: spec.nul.x}]}}]}`,
				xr:   `{spec: {nul: null}}`,
			},
			want: want{
				err:    "cannot select environment: failed to build reference at index 0: failed to resolve value for label at index 0: spec.nul: expected map, got nil",
				source: 0, label: 0, fieldPath: "spec.nul.x", field: "spec.environment.environmentConfigs[0].selector.matchLabels[0]",
			},
		},
		"OptionalOnlyForgivesNotFound": {
			reason: "An Optional label whose path reads through a scalar still fails.",
			args: args{
				spec: `{environmentConfigs: [{type: Reference, ref: {name: x}}, {type: Selector, selector: {matchLabels: [{type: Value, key: a, value: b}, {key: env, valueFromFieldPath: spec.str.x, fromFieldPathPolicy: Optional}]}}]}`,
				xr:   `{spec: {str: hello}}`,
			},
			want: want{
				err:    "cannot select environment: failed to build reference at index 1: failed to resolve value for label at index 1: spec.str: not an object",
				source: 1, label: 1, fieldPath: "spec.str.x", field: "spec.environment.environmentConfigs[1].selector.matchLabels[1]",
			},
		},
		"LabelValueOfAnyType": {
			reason: "Booleans and floats are printed with %v.",
			args: args{
				spec: `{environmentConfigs: [{type: Selector, selector: {mode: Multiple, matchLabels: [{key: b, valueFromFieldPath: spec.b}, {key: f, valueFromFieldPath: spec.f}]}}]}`,
				xr:   `{spec: {b: true, f: 1.5}}`,
				configs: []string{`
apiVersion: apiextensions.crossplane.io/v1alpha1
kind: EnvironmentConfig
metadata: {name: typed, labels: {b: "true", f: "1.5"}}
`},
			},
			want: want{
				sel: &Selection{Resolved: true, Refs: refs("typed"),
					Sources: []SourceSelection{{Labels: map[string]string{"b": "true", "f": "1.5"}, Names: []string{"typed"}}}},
				xrRefs: refsValue("typed"),
			},
		},
		"SortByIntegerKey": {
			reason: "Integer keys sort numerically (10 after 9).",
			args: args{
				spec:    `{environmentConfigs: [{type: Selector, selector: {mode: Multiple, sortByFieldPath: data.weight, matchLabels: [{type: Value, key: team, value: x}]}}]}`,
				configs: []string{weighted("w1", "10"), weighted("w2", "9"), weighted("w3", "-1")},
			},
			want: want{
				sel: &Selection{Resolved: true, Refs: refs("w3", "w2", "w1"),
					Sources: []SourceSelection{{Labels: map[string]string{"team": "x"}, Names: []string{"w3", "w2", "w1"}}}},
				xrRefs: refsValue("w3", "w2", "w1"),
			},
		},
		"SortByFloatKey": {
			reason: "Float keys sort numerically.",
			args: args{
				spec:    `{environmentConfigs: [{type: Selector, selector: {mode: Multiple, sortByFieldPath: data.weight, matchLabels: [{type: Value, key: team, value: x}]}}]}`,
				configs: []string{weighted("w1", "2.5"), weighted("w2", "0.5"), weighted("w3", "1.25")},
			},
			want: want{
				sel: &Selection{Resolved: true, Refs: refs("w2", "w3", "w1"),
					Sources: []SourceSelection{{Labels: map[string]string{"team": "x"}, Names: []string{"w2", "w3", "w1"}}}},
				xrRefs: refsValue("w2", "w3", "w1"),
			},
		},
		"SortByAnnotation": {
			reason: "Any field of the config can be the key, e.g. an annotation (strings sort bytewise).",
			args: args{
				spec: `{environmentConfigs: [{type: Selector, selector: {mode: Multiple, sortByFieldPath: "metadata.annotations[example.org/order]", matchLabels: [{type: Value, key: team, value: x}]}}]}`,
				configs: []string{`
apiVersion: apiextensions.crossplane.io/v1alpha1
kind: EnvironmentConfig
metadata: {name: one, labels: {team: x}, annotations: {example.org/order: "b"}}
---
apiVersion: apiextensions.crossplane.io/v1alpha1
kind: EnvironmentConfig
metadata: {name: two, labels: {team: x}, annotations: {example.org/order: "B"}}
`},
			},
			want: want{
				sel: &Selection{Resolved: true, Refs: refs("two", "one"),
					Sources: []SourceSelection{{Labels: map[string]string{"team": "x"}, Names: []string{"two", "one"}}}},
				xrRefs: refsValue("two", "one"),
			},
		},
		"SortTieBrokenByName": {
			reason: "Equal keys are ordered by name and reported as a tie.",
			args: args{
				spec:    `{environmentConfigs: [{type: Selector, selector: {mode: Multiple, maxMatch: 2, sortByFieldPath: data.weight, matchLabels: [{type: Value, key: team, value: x}]}}]}`,
				configs: []string{weighted("t4", "1"), weighted("t3", "1"), weighted("t1", "0"), weighted("t2", "1")},
			},
			want: want{
				sel: &Selection{Resolved: true, Refs: refs("t1", "t2"),
					Sources: []SourceSelection{{Labels: map[string]string{"team": "x"}, Names: []string{"t1", "t2"}}},
					Ties:    []Tie{{Source: 0, SortByFieldPath: "data.weight", Value: int64(1), Names: []string{"t2", "t3", "t4"}}}},
				xrRefs: refsValue("t1", "t2"),
			},
		},
		"SortUnsupportedType": {
			reason: "Only strings, int64 and float64 sort.",
			args: args{
				spec:    `{environmentConfigs: [{type: Selector, selector: {mode: Multiple, sortByFieldPath: data.weight, matchLabels: [{type: Value, key: team, value: x}]}}]}`,
				configs: []string{weighted("w1", "true")},
			},
			want: want{
				err:    "cannot select environment: failed to build reference at index 0: unexpected type bool",
				source: 0, label: -1, fieldPath: "data.weight", field: "spec.environment.environmentConfigs[0].selector.sortByFieldPath",
			},
		},
		"SortNullKey": {
			reason: "A null key is not a supported type.",
			args: args{
				spec:    `{environmentConfigs: [{type: Selector, selector: {mode: Multiple, sortByFieldPath: data.weight, matchLabels: [{type: Value, key: team, value: x}]}}]}`,
				configs: []string{weighted("w1", "1"), weighted("w2", "null")},
			},
			want: want{
				err:    "cannot select environment: failed to build reference at index 0: unexpected type <nil>",
				source: 0, label: -1, fieldPath: "data.weight", field: "spec.environment.environmentConfigs[0].selector.sortByFieldPath",
			},
		},
		"SortMixedStringAndNumber": {
			reason: "Kinds must match the first candidate's (candidates are listed by name).",
			args: args{
				spec:    `{environmentConfigs: [{type: Selector, selector: {mode: Multiple, sortByFieldPath: data.weight, matchLabels: [{type: Value, key: team, value: x}]}}]}`,
				configs: []string{weighted("w1", `"1"`), weighted("w2", "2")},
			},
			want: want{
				err:    "cannot select environment: failed to build reference at index 0: not matching types, got 2 (int64), expected string",
				source: 0, label: -1, fieldPath: "data.weight", field: "spec.environment.environmentConfigs[0].selector.sortByFieldPath",
			},
		},
		"NoEnvironmentConfigsKeepsHandWrittenRefs": {
			reason: "Without environmentConfigs nothing is selected; hand-written refs stay (Q-20).",
			args: args{
				spec: `{defaultData: {a: 1}}`,
				xr:   `{spec: {environmentConfigRefs: [{name: byhand}]}}`,
			},
			want: want{
				sel:    &Selection{Refs: []Ref{{Name: "byhand"}}},
				xrRefs: []any{map[string]any{"name": "byhand"}},
			},
		},
		"UndefaultedSourceType": {
			reason: "The runtime does not default: an empty source type is invalid (Q-1).",
			args: args{
				spec: `{environmentConfigs: [{type: "", ref: {name: a}}]}`,
			},
			want: want{
				err:    "cannot select environment: invalid source type ''",
				source: 0, label: -1, field: "spec.environment.environmentConfigs[0]",
			},
		},
		"UndefaultedMode": {
			reason: "An explicitly empty mode is kept by the API server and unknown at run time.",
			args: args{
				spec: `{environmentConfigs: [{type: Selector, selector: {mode: "", matchLabels: [{type: Value, key: env, value: prod}]}}]}`,
			},
			want: want{
				err:    "cannot select environment: failed to build reference at index 0: unknown mode ''",
				source: 0, label: -1, field: "spec.environment.environmentConfigs[0]",
			},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			xr := map[string]any{}
			if tc.args.xr != "" {
				xr = object(t, tc.args.xr)
			}
			s := spec(t, tc.args.spec)
			got, err := s.Select(xr, set(t, tc.args.configs...))

			if diff := cmp.Diff(tc.want.err, errText(err)); diff != "" {
				t.Errorf("\n%s\nSelect(...): -want error, +got error:\n%s", tc.reason, diff)
			}
			if tc.want.err != "" {
				se := &SelectError{}
				if !errors.As(err, &se) {
					t.Fatalf("\n%s\nSelect(...): want a *SelectError, got %T", tc.reason, err)
				}
				gotWhere := []any{se.Source, se.Label, se.FieldPath, se.Field().String()}
				wantWhere := []any{tc.want.source, tc.want.label, tc.want.fieldPath, tc.want.field}
				if diff := cmp.Diff(wantWhere, gotWhere); diff != "" {
					t.Errorf("\n%s\nSelect(...): -want error location, +got error location:\n%s", tc.reason, diff)
				}
				return
			}
			if diff := cmp.Diff(tc.want.sel, got, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("\n%s\nSelect(...): -want, +got:\n%s", tc.reason, diff)
			}
			var gotRefs []any
			if spec, ok := xr["spec"].(map[string]any); ok {
				if r, ok := spec["environmentConfigRefs"]; ok {
					gotRefs, _ = r.([]any)
					if gotRefs == nil {
						gotRefs = []any{}
					}
				}
			}
			if diff := cmp.Diff(tc.want.xrRefs, gotRefs); diff != "" {
				t.Errorf("\n%s\nSelect(...): -want XR spec.environmentConfigRefs, +got:\n%s", tc.reason, diff)
			}
		})
	}
}

// weighted is an EnvironmentConfig labelled team=x with data.weight set to
// the supplied YAML value.
func weighted(name, weight string) string {
	return `
apiVersion: apiextensions.crossplane.io/v1alpha1
kind: EnvironmentConfig
metadata: {name: ` + name + `, labels: {team: x}}
data: {weight: ` + weight + `}
`
}

func TestSelectNilSpec(t *testing.T) {
	xr := map[string]any{"spec": map[string]any{"environmentConfigRefs": []any{map[string]any{"name": "x"}}}}
	var s *Spec
	got, err := s.Select(xr, nil)
	if err != nil {
		t.Fatalf("Select(...): %v", err)
	}
	want := &Selection{Refs: []Ref{{Name: "x"}}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("\nWithout spec.environment nothing is selected and the XR's refs are reported.\nSelect(...): -want, +got:\n%s", diff)
	}
}

func TestTieString(t *testing.T) {
	tie := Tie{Source: 1, SortByFieldPath: "data.weight", Value: int64(1), Names: []string{"a", "b"}}
	want := `environmentConfigs[1]: EnvironmentConfigs "a", "b" have the same data.weight (1): order not guaranteed by Crossplane, ordered by name`
	if diff := cmp.Diff(want, tie.String()); diff != "" {
		t.Errorf("\nA tie reads as a warning.\nString(): -want, +got:\n%s", diff)
	}
}
