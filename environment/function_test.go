package environment

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/pkg/errors"
)

// ecObject is an EnvironmentConfig as the function receives it.
func ecObject(name string, data map[string]any) map[string]any {
	o := map[string]any{
		"apiVersion": APIVersionV1Beta1,
		"kind":       KindConfig,
		"metadata":   map[string]any{"name": name},
	}
	if data != nil {
		o["data"] = data
	}
	return o
}

// wireEnv is env(...): the context environment with the Environment
// apiVersion and kind.
func wireEnv(kv map[string]any) map[string]any {
	kv["apiVersion"] = EnvironmentAPIVersion
	kv["kind"] = EnvironmentKind
	return kv
}

func byName(name string) ResourceSelector {
	return ResourceSelector{APIVersion: APIVersionV1Beta1, Kind: KindConfig, MatchName: name}
}

func byLabels(l map[string]string) ResourceSelector {
	return ResourceSelector{APIVersion: APIVersionV1Beta1, Kind: KindConfig, MatchLabels: l}
}

// ec01Input is the input of EC-01 and EC-02.
const ec01Input = `
apiVersion: environmentconfigs.fn.crossplane.io/v1beta1
kind: Input
spec:
  environmentConfigs:
  - {type: Reference, ref: {name: my-env-config}}
  - {type: Reference, ref: {name: my-second-env-config}}
  - {type: Selector, selector: {mode: Multiple, matchLabels: [{type: Value, key: foo, value: bar}]}}
  - {type: Selector, selector: {mode: Single, matchLabels: [{key: someMoreFoo, valueFromFieldPath: spec.missingEnvSelectorLabel, fromFieldPathPolicy: Optional}]}}
  - {type: Selector, selector: {mode: Single, matchLabels: [{key: someMoreFoo, valueFromFieldPath: spec.existingEnvSelectorLabel, fromFieldPathPolicy: Required}]}}
`

var ec01Requirements = Requirements{
	"environment-config-0": byName("my-env-config"),
	"environment-config-1": byName("my-second-env-config"),
	"environment-config-2": byLabels(map[string]string{"foo": "bar"}),
	"environment-config-4": byLabels(map[string]string{"someMoreFoo": "someMoreBar"}),
}

func TestFunctionRun(t *testing.T) {
	type args struct {
		version   FunctionVersion
		input     string
		observed  map[string]any
		env       map[string]any
		resources Resources
	}
	type want struct {
		rsp *FunctionResponse
		err string
	}
	ec01XR := map[string]any{"spec": map[string]any{"existingEnvSelectorLabel": "someMoreBar"}}

	cases := map[string]struct {
		reason string
		args   args
		want   want
	}{
		"EC01RequestEnvironmentConfigs": {
			reason: "The first call returns one requirement per source, omitting a selector with no resolved label, and no environment.",
			args:   args{input: ec01Input, observed: ec01XR},
			want:   want{rsp: &FunctionResponse{Requirements: ec01Requirements}},
		},
		"EC02RequestEnvironmentConfigsFound": {
			reason: "Configs merge in source order; Multiple mode sorts by name so b wins; a received key that was not requested is used.",
			args: args{input: ec01Input, observed: ec01XR, resources: Resources{
				"environment-config-0": {ecObject("my-env-config", map[string]any{"firstKey": "firstVal", "secondKey": "secondVal"})},
				"environment-config-1": {ecObject("my-second-env-config", map[string]any{"secondKey": "secondVal-ok", "thirdKey": "thirdVal"})},
				"environment-config-2": {
					ecObject("my-third-env-config-b", map[string]any{"fourthKey": "fourthVal-b"}),
					ecObject("my-third-env-config-a", map[string]any{"fourthKey": "fourthVal-a"}),
				},
				"environment-config-3": {ecObject("my-third-env-config", map[string]any{"fifthKey": "fifthVal"})},
				"environment-config-4": {ecObject("my-fourth-env-config", map[string]any{"sixthKey": "sixthVal"})},
			}},
			want: want{rsp: &FunctionResponse{
				Requirements: ec01Requirements,
				Environment: wireEnv(map[string]any{
					"firstKey": "firstVal", "secondKey": "secondVal-ok", "thirdKey": "thirdVal",
					"fourthKey": "fourthVal-b", "fifthKey": "fifthVal", "sixthKey": "sixthVal",
				}),
			}},
		},
		"EC03NotFoundRequired": {
			reason: "A Required reference that was not found is fatal; requirements are still returned.",
			args: args{
				input:     `{spec: {environmentConfigs: [{type: Reference, ref: {name: my-env-config}}]}}`,
				resources: Resources{"environment-config-0": {}},
			},
			want: want{
				rsp: &FunctionResponse{Requirements: Requirements{"environment-config-0": byName("my-env-config")}},
				err: `cannot get selected environment configs: cannot process environment config "my-env-config" by reference, "environment-config-0": Required environment config "my-env-config" not found`,
			},
		},
		"EC04SelectorWithOptionalFieldPathNotProvided": {
			reason: "A Multiple selector whose only label is missing and Optional asks for nothing and is skipped.",
			args: args{
				input: `{spec: {environmentConfigs: [{type: Reference, ref: {name: base-env-config}},
				  {type: Selector, selector: {mode: Multiple, minMatch: 0, maxMatch: 1, matchLabels: [{key: epd, valueFromFieldPath: spec.epd.name, fromFieldPathPolicy: Optional}]}}]}}`,
				observed:  map[string]any{"spec": map[string]any{"presentField": "value"}},
				resources: Resources{"environment-config-0": {ecObject("base-env-config", map[string]any{"baseKey": "baseVal"})}},
			},
			want: want{rsp: &FunctionResponse{
				Requirements: Requirements{"environment-config-0": byName("base-env-config")},
				Environment:  wireEnv(map[string]any{"baseKey": "baseVal"}),
			}},
		},
		"EC05SingleSelectorWithOptionalFieldPathNotProvided": {
			reason: "In Single mode too, a selector with no resolved label is skipped (natively it would fail).",
			args: args{
				input: `{spec: {environmentConfigs: [{type: Reference, ref: {name: base-env-config}},
				  {type: Selector, selector: {mode: Single, matchLabels: [{key: epd, valueFromFieldPath: spec.epd.name, fromFieldPathPolicy: Optional}]}}]}}`,
				observed:  map[string]any{"spec": map[string]any{"presentField": "value"}},
				resources: Resources{"environment-config-0": {ecObject("base-env-config", map[string]any{"baseKey": "baseVal"})}},
			},
			want: want{rsp: &FunctionResponse{
				Requirements: Requirements{"environment-config-0": byName("base-env-config")},
				Environment:  wireEnv(map[string]any{"baseKey": "baseVal"}),
			}},
		},
		"EC06MergePrecedence": {
			reason: "Configs win over the context environment, which wins over defaultData.",
			args: args{
				input: `{spec: {defaultData: {b: only-from-default, e: overridden-from-input, f: overridden-from-env-config-2},
				  environmentConfigs: [{ref: {name: env-config-1}}, {ref: {name: env-config-2}}]}}`,
				env: wireEnv(map[string]any{"a": "only-from-input", "e": "overridden-from-input-ok", "f": "overridden-from-env-config-1", "g": "overridden-from-env-config-2"}),
				resources: Resources{
					"environment-config-0": {ecObject("env-config-1", map[string]any{"c": "only-from-env-config-1", "f": "overridden-from-env-config-1-ok", "h": "override-from-env-config-1"})},
					"environment-config-1": {ecObject("env-config-2", map[string]any{"d": "only-from-env-config-1", "g": "overridden-from-env-config-2-ok", "h": "override-from-env-config-1-ok"})},
				},
			},
			want: want{rsp: &FunctionResponse{
				Requirements: Requirements{"environment-config-0": byName("env-config-1"), "environment-config-1": byName("env-config-2")},
				Environment: wireEnv(map[string]any{
					"a": "only-from-input", "b": "only-from-default", "c": "only-from-env-config-1", "d": "only-from-env-config-1",
					"e": "overridden-from-input-ok", "f": "overridden-from-env-config-1-ok", "g": "overridden-from-env-config-2-ok", "h": "override-from-env-config-1-ok",
				}),
			}},
		},
		"EC07ToFieldPath": {
			reason: "toFieldPath nests each source's data.",
			args: args{
				input: `{spec: {defaultData: {a: from-default}, environmentConfigs: [
				  {type: Reference, ref: {name: foo}, toFieldPath: foo},
				  {type: Selector, selector: {mode: Multiple, matchLabels: [{type: Value, key: foo, value: bar}]}, toFieldPath: foo.bar}]}}`,
				resources: Resources{
					"environment-config-0": {ecObject("foo", map[string]any{"a": "from-foo"})},
					"environment-config-1": {
						ecObject("first", map[string]any{"a": "from-label-select-first"}),
						ecObject("second", map[string]any{"b": "from-label-select-second"}),
					},
				},
			},
			want: want{rsp: &FunctionResponse{
				Requirements: Requirements{"environment-config-0": byName("foo"), "environment-config-1": byLabels(map[string]string{"foo": "bar"})},
				Environment: wireEnv(map[string]any{
					"a":   "from-default",
					"foo": map[string]any{"a": "from-foo", "bar": map[string]any{"a": "from-label-select-first", "b": "from-label-select-second"}},
				}),
			}},
		},
		"EC09NoEnvironmentConfigs": {
			reason: "Without environmentConfigs the function does nothing; defaultData is ignored.",
			args:   args{input: `{spec: {defaultData: {k: v}}}`, resources: Resources{"environment-config-0": {ecObject("x", nil)}}},
			want:   want{rsp: &FunctionResponse{}},
		},
		"EC10NoRequirementsEmptyMap": {
			reason: "When every source is skipped the requirements are an empty map, and the second call (no resources) returns without an environment.",
			args: args{
				input:     `{spec: {defaultData: {k: v}, environmentConfigs: [{type: Selector, selector: {matchLabels: [{key: x, valueFromFieldPath: spec.missing, fromFieldPathPolicy: Optional}]}}]}}`,
				resources: Resources{},
			},
			want: want{rsp: &FunctionResponse{Requirements: Requirements{}}},
		},
		"EmptyEnvironmentConfigsIsNotAbsent": {
			reason: "An empty environmentConfigs list still builds (empty) requirements.",
			args:   args{input: `{spec: {environmentConfigs: []}}`},
			want:   want{rsp: &FunctionResponse{Requirements: Requirements{}}},
		},
		"OptionalReferenceMissing": {
			reason: "resolution Optional skips a reference that was not found.",
			args: args{
				input:     `{spec: {policy: {resolution: Optional}, environmentConfigs: [{ref: {name: gone}}, {ref: {name: here}}]}}`,
				resources: Resources{"environment-config-0": {}, "environment-config-1": {ecObject("here", map[string]any{"k": "v"})}},
			},
			want: want{rsp: &FunctionResponse{
				Requirements: Requirements{"environment-config-0": byName("gone"), "environment-config-1": byName("here")},
				Environment:  wireEnv(map[string]any{"k": "v"}),
			}},
		},
		"ReferenceManyItems": {
			reason: "A reference that received several objects is fatal.",
			args: args{
				input:     `{spec: {environmentConfigs: [{ref: {name: a}}]}}`,
				resources: Resources{"environment-config-0": {ecObject("a", nil), ecObject("a", nil)}},
			},
			want: want{
				rsp: &FunctionResponse{Requirements: Requirements{"environment-config-0": byName("a")}},
				err: `cannot get selected environment configs: cannot process environment config "a" by reference, "environment-config-0": expected exactly one required resource "a", got 2`,
			},
		},
		"SingleModeV07Text": {
			reason: "Single mode needs exactly one object.",
			args: args{
				input:     `{spec: {environmentConfigs: [{type: Selector, selector: {matchLabels: [{type: Value, key: env, value: prod}]}}]}}`,
				resources: Resources{"environment-config-0": {ecObject("a", nil), ecObject("b", nil)}},
			},
			want: want{
				rsp: &FunctionResponse{Requirements: Requirements{"environment-config-0": byLabels(map[string]string{"env": "prod"})}},
				err: `cannot get selected environment configs: cannot process environment config "environment-config-0" by selector: expected exactly one required resource, got 2`,
			},
		},
		"SingleModeV06Text": {
			reason: "v0.6 calls them extra resources.",
			args: args{
				version:   FunctionV06,
				input:     `{spec: {environmentConfigs: [{type: Selector, selector: {matchLabels: [{type: Value, key: env, value: prod}]}}]}}`,
				resources: Resources{"environment-config-0": {}},
			},
			want: want{
				rsp: &FunctionResponse{Requirements: Requirements{"environment-config-0": byLabels(map[string]string{"env": "prod"})}},
				err: `cannot get selected environment configs: cannot process environment config "environment-config-0" by selector: expected exactly one extra resource, got 0`,
			},
		},
		"MinMatchV07Text": {
			reason: "minMatch fails when too few objects were received.",
			args: args{
				input:     `{spec: {environmentConfigs: [{type: Selector, selector: {mode: Multiple, minMatch: 2, matchLabels: [{type: Value, key: env, value: prod}]}}]}}`,
				resources: Resources{"environment-config-0": {ecObject("a", nil)}},
			},
			want: want{
				rsp: &FunctionResponse{Requirements: Requirements{"environment-config-0": byLabels(map[string]string{"env": "prod"})}},
				err: `cannot get selected environment configs: cannot process environment config "environment-config-0" by selector: expected at least 2 required resources, got 1`,
			},
		},
		"MinMatchV06Text": {
			reason: "v0.6 calls them extra resources.",
			args: args{
				version:   FunctionV06,
				input:     `{spec: {environmentConfigs: [{type: Selector, selector: {mode: Multiple, minMatch: 2, matchLabels: [{type: Value, key: env, value: prod}]}}]}}`,
				resources: Resources{"environment-config-0": {ecObject("a", nil)}},
			},
			want: want{
				rsp: &FunctionResponse{Requirements: Requirements{"environment-config-0": byLabels(map[string]string{"env": "prod"})}},
				err: `cannot get selected environment configs: cannot process environment config "environment-config-0" by selector: expected at least 2 extra resources, got 1`,
			},
		},
		"MultipleSortMaxMatchAndTies": {
			reason: "Multiple mode sorts wire numbers, keeps received order for ties and reports them, then applies maxMatch.",
			args: args{
				input: `{spec: {environmentConfigs: [{type: Selector, selector: {mode: Multiple, maxMatch: 3, sortByFieldPath: data.w, matchLabels: [{type: Value, key: env, value: prod}]}}]}}`,
				resources: Resources{"environment-config-0": {
					ecObject("a", map[string]any{"w": float64(10), "k": "a"}),
					ecObject("b", map[string]any{"w": 1.5, "k": "b"}),
					ecObject("c", map[string]any{"w": float64(2), "k": "c"}),
					ecObject("d", map[string]any{"w": 1.5, "k": "d"}),
				}},
			},
			want: want{rsp: &FunctionResponse{
				Requirements: Requirements{"environment-config-0": byLabels(map[string]string{"env": "prod"})},
				Environment:  wireEnv(map[string]any{"w": float64(2), "k": "c"}),
				Ties:         []Tie{{Source: 0, SortByFieldPath: "data.w", Value: 1.5, Names: []string{"b", "d"}}},
			}},
		},
		"LabelNotAStringRequired": {
			reason: "Label values read from the XR must be strings.",
			args: args{
				input:    `{spec: {environmentConfigs: [{type: Selector, selector: {matchLabels: [{key: num, valueFromFieldPath: spec.num}]}}]}}`,
				observed: map[string]any{"spec": map[string]any{"num": int64(3)}},
			},
			want: want{
				rsp: &FunctionResponse{},
				err: `cannot build requirements: cannot get value from field path "spec.num": spec.num: not a string`,
			},
		},
		"LabelNotAStringOptional": {
			reason: "Under Optional any error reading the label drops it.",
			args: args{
				input:    `{spec: {environmentConfigs: [{type: Selector, selector: {matchLabels: [{key: num, valueFromFieldPath: spec.num, fromFieldPathPolicy: Optional}, {type: Value, key: env, value: prod}]}}]}}`,
				observed: map[string]any{"spec": map[string]any{"num": int64(3)}},
			},
			want: want{rsp: &FunctionResponse{Requirements: Requirements{"environment-config-0": byLabels(map[string]string{"env": "prod"})}}},
		},
		"DataKindKeepsGVKUnstamped": {
			reason: "The Environment apiVersion and kind are set only when neither is present (D42).",
			args: args{
				input:     `{spec: {environmentConfigs: [{ref: {name: a}}]}}`,
				resources: Resources{"environment-config-0": {ecObject("a", map[string]any{"kind": "mine", "n": 1})}},
			},
			want: want{rsp: &FunctionResponse{
				Requirements: Requirements{"environment-config-0": byName("a")},
				Environment:  map[string]any{"kind": "mine", "n": float64(1)},
			}},
		},
		"NumbersAreWireFloats": {
			reason: "Every number in the environment is a float64, whatever it came from.",
			args: args{
				input:     `{spec: {defaultData: {d: 1}, environmentConfigs: [{ref: {name: a}}]}}`,
				env:       map[string]any{"c": int64(2)},
				resources: Resources{"environment-config-0": {ecObject("a", map[string]any{"n": int64(3)})}},
			},
			want: want{rsp: &FunctionResponse{
				Requirements: Requirements{"environment-config-0": byName("a")},
				Environment:  wireEnv(map[string]any{"c": float64(2), "d": float64(1), "n": float64(3)}),
			}},
		},
		"ConfigWithoutDataIsFatal": {
			reason: "Without toFieldPath a received config with no data key cannot be read (pinned from the function's code; it does not just contribute nothing).",
			args: args{
				input:     `{spec: {environmentConfigs: [{ref: {name: nodata}}]}}`,
				resources: Resources{"environment-config-0": {ecObject("nodata", nil)}},
			},
			want: want{
				rsp: &FunctionResponse{Requirements: Requirements{"environment-config-0": byName("nodata")}},
				err: `cannot merge environment data: cannot get data from environment config "nodata": data: no such field`,
			},
		},
		"ConfigWithoutDataUnderToFieldPath": {
			reason: "With toFieldPath a config without data sets null there.",
			args: args{
				input:     `{spec: {environmentConfigs: [{ref: {name: a}, toFieldPath: x}, {ref: {name: nodata}, toFieldPath: x}]}}`,
				resources: Resources{"environment-config-0": {ecObject("a", map[string]any{"k": "v"})}, "environment-config-1": {ecObject("nodata", nil)}},
			},
			want: want{rsp: &FunctionResponse{
				Requirements: Requirements{"environment-config-0": byName("a"), "environment-config-1": byName("nodata")},
				Environment:  wireEnv(map[string]any{"x": nil}),
			}},
		},
		"ToFieldPathGroupsConflict": {
			reason: "Groups that set the same key merge in an order upstream does not fix; the toolkit uses source order and warns.",
			args: args{
				input: `{spec: {environmentConfigs: [{ref: {name: a}, toFieldPath: x}, {ref: {name: b}}]}}`,
				resources: Resources{
					"environment-config-0": {ecObject("a", map[string]any{"k": "from-a"})},
					"environment-config-1": {ecObject("b", map[string]any{"x": map[string]any{"k": "from-b"}})},
				},
			},
			want: want{rsp: &FunctionResponse{
				Requirements: Requirements{"environment-config-0": byName("a"), "environment-config-1": byName("b")},
				Environment:  wireEnv(map[string]any{"x": map[string]any{"k": "from-b"}}),
				Warnings:     []string{`toFieldPath groups "x" and "" both set x.k: upstream merges groups in random order, the toolkit in source order`},
			}},
		},
		"UnknownSourceTypeIgnored": {
			reason: "A source of unknown type asks for nothing and is ignored even if resources arrive for it.",
			args: args{
				input:     `{spec: {environmentConfigs: [{type: Other, ref: {name: a}}, {ref: {name: b}}]}}`,
				resources: Resources{"environment-config-0": {ecObject("a", map[string]any{"k": "a"})}, "environment-config-1": {ecObject("b", map[string]any{"j": "b"})}},
			},
			want: want{rsp: &FunctionResponse{
				Requirements: Requirements{"environment-config-1": byName("b")},
				Environment:  wireEnv(map[string]any{"j": "b"}),
			}},
		},
		"NilReferenceIsFatal": {
			reason: "Upstream panics on a Reference without ref; the toolkit fails.",
			args:   args{input: `{spec: {environmentConfigs: [{type: Reference}]}}`},
			want: want{
				rsp: &FunctionResponse{},
				err: "cannot build requirements: environment-config-0: ref is required",
			},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			fn := Function{Version: tc.args.version}
			in, err := fn.DecodeInput([]byte(tc.args.input))
			if err != nil {
				t.Fatalf("DecodeInput(...): %v", err)
			}
			got, err := fn.Run(in, FunctionRequest{Observed: tc.args.observed, Environment: tc.args.env, Resources: tc.args.resources})
			if diff := cmp.Diff(tc.want.err, errText(err)); diff != "" {
				t.Errorf("\n%s\nRun(...): -want error, +got error:\n%s", tc.reason, diff)
			}
			if diff := cmp.Diff(tc.want.rsp, got); diff != "" {
				t.Errorf("\n%s\nRun(...): -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}

// TestFunctionRequirementsLoop runs the function as Crossplane's
// requirements loop does: call, fetch what it asked for, call again.
func TestFunctionRequirementsLoop(t *testing.T) {
	type want struct {
		calls        int
		requirements Requirements
		env          map[string]any
	}
	cases := map[string]struct {
		reason  string
		version FunctionVersion
		input   string
		xr      map[string]any
		want    want
	}{
		"SelectAndMerge": {
			reason: "Two calls: the second receives the configs and returns the same requirements and the environment.",
			input: `{spec: {defaultData: {w: 0, d: kept}, environmentConfigs: [
			  {type: Selector, selector: {mode: Multiple, sortByFieldPath: data.s, matchLabels: [{key: env, valueFromFieldPath: spec.env}]}}]}}`,
			xr: map[string]any{"spec": map[string]any{"env": "prod"}},
			want: want{
				calls:        2,
				requirements: Requirements{"environment-config-0": byLabels(map[string]string{"env": "prod"})},
				env:          wireEnv(map[string]any{"w": float64(10), "s": "c", "d": "kept"}),
			},
		},
		"V06SameResult": {
			reason:  "v0.6 selects and merges alike; only the protocol fields differ.",
			version: FunctionV06,
			input:   `{spec: {environmentConfigs: [{ref: {name: a}}, {ref: {name: b}}]}}`,
			want: want{
				calls:        2,
				requirements: Requirements{"environment-config-0": byName("a"), "environment-config-1": byName("b")},
				env:          wireEnv(map[string]any{"w": 1.5, "s": "a"}),
			},
		},
		"EC10NoRequirements": {
			reason: "With zero requirements the second call sees no resources (empty is nil on the wire) and writes no environment, so defaultData is lost (D39).",
			input:  `{spec: {defaultData: {k: v}, environmentConfigs: [{type: Selector, selector: {matchLabels: [{key: x, valueFromFieldPath: spec.missing, fromFieldPathPolicy: Optional}]}}]}}`,
			want:   want{calls: 2, requirements: Requirements{}},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			fn := Function{Version: tc.version}
			in, err := fn.DecodeInput([]byte(tc.input))
			if err != nil {
				t.Fatalf("DecodeInput(...): %v", err)
			}
			configs := set(t, ec3)

			// The loop as Crossplane runs it: stop when the requirements
			// are unchanged.
			var prev Requirements
			var rsp *FunctionResponse
			req := FunctionRequest{Observed: tc.xr}
			calls := 0
			for calls < 6 {
				calls++
				rsp, err = fn.Run(in, req)
				if err != nil {
					t.Fatalf("Run(...) call %d: %v", calls, err)
				}
				if calls > 1 && cmp.Equal(prev, rsp.Requirements, cmpopts.EquateEmpty()) {
					break
				}
				prev = rsp.Requirements
				res, err := configs.Fetch(rsp.Requirements)
				if err != nil {
					t.Fatalf("Fetch(...): %v", err)
				}
				req = FunctionRequest{Observed: tc.xr, Environment: rsp.Environment, Resources: res}
			}
			if diff := cmp.Diff(tc.want.calls, calls); diff != "" {
				t.Errorf("\n%s\ncalls: -want, +got:\n%s", tc.reason, diff)
			}
			if diff := cmp.Diff(tc.want.requirements, rsp.Requirements); diff != "" {
				t.Errorf("\n%s\nRun(...): -want requirements, +got:\n%s", tc.reason, diff)
			}
			if diff := cmp.Diff(tc.want.env, rsp.Environment); diff != "" {
				t.Errorf("\n%s\nRun(...): -want environment, +got:\n%s", tc.reason, diff)
			}
		})
	}
}

func TestSortWire(t *testing.T) {
	named := func(name any) map[string]any {
		if name == nil {
			return map[string]any{"metadata": map[string]any{}}
		}
		return map[string]any{"metadata": map[string]any{"name": name}}
	}
	valued := func(v any) map[string]any {
		return map[string]any{"metadata": map[string]any{"name": "x"}, "data": map[string]any{"v": v}}
	}
	type want struct {
		out []map[string]any
		err string
	}
	cases := map[string]struct {
		reason string
		in     []map[string]any
		path   string
		want   want
	}{
		"EC08Strings": {
			reason: "Strings sort bytewise.",
			in:     []map[string]any{named("c"), named("a"), named("b")},
			path:   "metadata.name",
			want:   want{out: []map[string]any{named("a"), named("b"), named("c")}},
		},
		"EC08Ints": {
			reason: "Numbers sort numerically.",
			in:     []map[string]any{valued(float64(3)), valued(float64(1)), valued(float64(2))},
			path:   "data.v",
			want:   want{out: []map[string]any{valued(float64(1)), valued(float64(2)), valued(float64(3))}},
		},
		"EC08Floats": {
			reason: "Floats sort numerically.",
			in:     []map[string]any{valued(1.3), valued(1.1), valued(1.2), valued(1.4)},
			path:   "data.v",
			want:   want{out: []map[string]any{valued(1.1), valued(1.2), valued(1.3), valued(1.4)}},
		},
		"EC08Mixed": {
			reason: "Values of different types cannot sort.",
			in:     []map[string]any{valued(float64(3)), valued(float64(1)), valued("2")},
			path:   "data.v",
			want:   want{err: `cannot sort values of different types "float64" and "string"`},
		},
		"EC08EmptyPath": {
			reason: "An empty path is an error.",
			in:     []map[string]any{named("a")},
			path:   "",
			want:   want{err: "cannot sort by empty field path"},
		},
		"EC08MissingOnAll": {
			reason: "When no config has the path the order is unchanged.",
			in:     []map[string]any{named("c"), named("a"), named("b")},
			path:   "metadata.nope",
			want:   want{out: []map[string]any{named("c"), named("a"), named("b")}},
		},
		"EC08MissingOnOne": {
			reason: "A missing value is the zero value of the others' type.",
			in:     []map[string]any{named("c"), named(nil), named("b")},
			path:   "metadata.name",
			want:   want{out: []map[string]any{named(nil), named("b"), named("c")}},
		},
		"UnsupportedType": {
			reason: "Booleans cannot sort (once there are two to compare).",
			in:     []map[string]any{valued(true), valued(false)},
			path:   "data.v",
			want:   want{err: `unsupported type "bool" for sorting`},
		},
		"NotAnObject": {
			reason: "Read errors other than not-found fail.",
			in:     []map[string]any{valued("s")},
			path:   "data.v.x",
			want:   want{err: "data.v: not an object"},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, _, err := sortWire(tc.in, tc.path)
			if diff := cmp.Diff(tc.want.err, errText(err)); diff != "" {
				t.Errorf("\n%s\nsortWire(...): -want error, +got error:\n%s", tc.reason, diff)
			}
			if diff := cmp.Diff(tc.want.out, got); diff != "" {
				t.Errorf("\n%s\nsortWire(...): -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}

func TestDecodeInput(t *testing.T) {
	type want struct {
		in  *Input
		err string
	}
	cases := map[string]struct {
		reason  string
		version FunctionVersion
		input   string
		want    want
	}{
		"Full": {
			reason: "Every field decodes; nothing is defaulted.",
			input: `
apiVersion: environmentconfigs.fn.crossplane.io/v1beta1
kind: Input
metadata: {name: ignored}
spec:
  defaultData: {k: {m: 1}}
  policy: {resolution: Optional}
  environmentConfigs:
  - {ref: {name: a}, toFieldPath: x}
  - type: Selector
    selector: {mode: Multiple, maxMatch: 2, minMatch: 1, sortByFieldPath: data.w, matchLabels: [{key: env, valueFromFieldPath: spec.env, fromFieldPathPolicy: Optional}, {type: Value, key: k, value: v}]}
`,
			want: want{in: &Input{
				APIVersion: InputAPIVersion, Kind: InputKind,
				Spec: InputSpec{
					DefaultData: map[string]json.RawMessage{"k": json.RawMessage(`{"m":1}`)},
					Policy:      &InputPolicy{Resolution: ptrTo(ResolutionPolicyOptional)},
					EnvironmentConfigs: []InputSource{
						{Ref: &Reference{Name: "a"}, ToFieldPath: ptrTo("x")},
						{Type: ptrTo(SourceTypeSelector), Selector: &Selector{
							Mode: ptrTo(SelectorModeMultiple), MaxMatch: ptrTo(uint64(2)), MinMatch: ptrTo(uint64(1)), SortByFieldPath: ptrTo("data.w"),
							MatchLabels: []LabelMatcher{
								{Key: "env", ValueFromFieldPath: ptrTo("spec.env"), FromFieldPathPolicy: ptrTo(FromFieldPathPolicyOptional)},
								{Type: ptrTo(LabelMatcherTypeValue), Key: "k", Value: ptrTo("v")},
							},
						}},
					},
				},
			}},
		},
		"UnknownField": {
			reason: "The native policy.resolve does not exist in the function's input.",
			input:  `{spec: {policy: {resolve: Always}, environmentConfigs: []}}`,
			want:   want{err: `cannot decode function input: unknown field "spec.policy.resolve"`},
		},
		"CaseSensitive": {
			reason: "Field names are case-sensitive: Mode is not mode.",
			input:  `{spec: {environmentConfigs: [{type: Selector, selector: {Mode: Multiple}}]}}`,
			want:   want{err: `cannot decode function input: unknown field "spec.environmentConfigs[0].selector.Mode"`},
		},
		"ToFieldPathV06": {
			reason:  "v0.6 has no toFieldPath.",
			version: FunctionV06,
			input:   `{spec: {environmentConfigs: [{ref: {name: a}}, {ref: {name: b}, toFieldPath: x}]}}`,
			want:    want{err: `cannot decode function input: unknown field "spec.environmentConfigs[1].toFieldPath"`},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, err := Function{Version: tc.version}.DecodeInput([]byte(tc.input))
			if diff := cmp.Diff(tc.want.err, errText(err)); diff != "" {
				t.Errorf("\n%s\nDecodeInput(...): -want error, +got error:\n%s", tc.reason, diff)
			}
			if err != nil {
				return
			}
			opts := cmp.Transformer("raw", func(r map[string]json.RawMessage) map[string]string {
				out := make(map[string]string, len(r))
				for k, v := range r {
					out[k] = string(v)
				}
				return out
			})
			tc.want.in.Metadata = got.Metadata
			if diff := cmp.Diff(tc.want.in, got, opts); diff != "" {
				t.Errorf("\n%s\nDecodeInput(...): -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}

func TestFunctionVersion(t *testing.T) {
	type fields struct{ name, requirements, resources string }
	cases := map[string]struct {
		reason  string
		version FunctionVersion
		want    fields
	}{
		"V07": {reason: "v0.7 speaks the required-resources dialect.", version: FunctionV07, want: fields{"v0.7", "resources", "required_resources"}},
		"V06": {reason: "v0.6 speaks the extra-resources dialect.", version: FunctionV06, want: fields{"v0.6", "extra_resources", "extra_resources"}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got := fields{tc.version.String(), tc.version.RequirementsField(), tc.version.ResourcesField()}
			if diff := cmp.Diff(tc.want, got, cmp.AllowUnexported(fields{})); diff != "" {
				t.Errorf("\n%s\nFunctionVersion: -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}

func TestFunctionErrorLocation(t *testing.T) {
	type want struct {
		source, label int
		fieldPath     string
		field         string
	}
	cases := map[string]struct {
		reason    string
		input     string
		observed  map[string]any
		resources Resources
		want      want
	}{
		"LabelNotAString": {
			reason:   "A label error names the source, the label and the XR field path.",
			input:    `{spec: {environmentConfigs: [{ref: {name: a}}, {type: Selector, selector: {matchLabels: [{type: Value, key: k, value: v}, {key: stage, valueFromFieldPath: spec.parameters.stage}]}}]}}`,
			observed: map[string]any{"spec": map[string]any{"parameters": map[string]any{"stage": 1.0}}},
			want:     want{source: 1, label: 1, fieldPath: "spec.parameters.stage", field: "spec.environmentConfigs[1].selector.matchLabels[1]"},
		},
		"ReferenceNotFound": {
			reason:    "A reference error names the source.",
			input:     `{spec: {environmentConfigs: [{ref: {name: a}}]}}`,
			resources: Resources{"environment-config-0": {}},
			want:      want{source: 0, label: -1, field: "spec.environmentConfigs[0]"},
		},
		"SortError": {
			reason: "A sort error names the source and its sortByFieldPath.",
			input:  `{spec: {environmentConfigs: [{ref: {name: a}}, {type: Selector, selector: {mode: Multiple, sortByFieldPath: data.v, matchLabels: [{type: Value, key: k, value: v}]}}]}}`,
			resources: Resources{
				"environment-config-0": {ecObject("a", map[string]any{})},
				"environment-config-1": {ecObject("b", map[string]any{"v": "x"}), ecObject("c", map[string]any{"v": 1.0})},
			},
			want: want{source: 1, label: -1, fieldPath: "data.v", field: "spec.environmentConfigs[1].selector.sortByFieldPath"},
		},
		"SingleMode": {
			reason:    "A count error names the source.",
			input:     `{spec: {environmentConfigs: [{type: Selector, selector: {matchLabels: [{type: Value, key: k, value: v}]}}]}}`,
			resources: Resources{"environment-config-0": {}},
			want:      want{source: 0, label: -1, field: "spec.environmentConfigs[0]"},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			fn := Function{}
			in, err := fn.DecodeInput([]byte(tc.input))
			if err != nil {
				t.Fatalf("DecodeInput(...): %v", err)
			}
			_, err = fn.Run(in, FunctionRequest{Observed: tc.observed, Resources: tc.resources})
			se := &SelectError{}
			if !errors.As(err, &se) {
				t.Fatalf("\n%s\nRun(...): want a *SelectError, got %v", tc.reason, err)
			}
			got := want{source: se.Source, label: se.Label, fieldPath: se.FieldPath, field: se.Field().String()}
			if diff := cmp.Diff(tc.want, got, cmp.AllowUnexported(want{})); diff != "" {
				t.Errorf("\n%s\nRun(...): -want error location, +got:\n%s", tc.reason, diff)
			}
		})
	}
}
