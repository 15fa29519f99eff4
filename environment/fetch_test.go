package environment

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/pkg/errors"
)

func TestFetch(t *testing.T) {
	type args struct {
		// spec is spec.environment as YAML; empty means no spec.environment.
		spec    string
		xr      string
		configs []string
	}
	type want struct {
		env map[string]any
		err string
	}
	stamp := func(m map[string]any) map[string]any {
		m["apiVersion"] = EnvironmentAPIVersion
		m["kind"] = EnvironmentKind
		return m
	}
	layer := func(name, data string) string {
		return `
apiVersion: apiextensions.crossplane.io/v1alpha1
kind: EnvironmentConfig
metadata: {name: ` + name + `}
data: ` + data + "\n"
	}

	cases := map[string]struct {
		reason string
		args   args
		want   want
	}{
		"EV001OneLayer": {
			reason: "Data numbers are float64 and the Environment apiVersion and kind overwrite data keys.",
			args: args{
				spec:    `{environmentConfigs: [{ref: {name: env0}}]}`,
				xr:      `{spec: {environmentConfigRefs: [{name: env0}]}}`,
				configs: []string{env0},
			},
			want: want{env: map[string]any{
				"apiVersion": EnvironmentAPIVersion, "kind": EnvironmentKind,
				"num": float64(3), "str": "s", "obj": map[string]any{"a": float64(1)},
			}},
		},
		"EV002DeepMergeObjectsReplaceTheRest": {
			reason: "Objects merge recursively; lists, scalars and type changes replace.",
			args: args{
				xr: `{spec: {environmentConfigRefs: [{name: l1}, {name: l2}]}}`,
				configs: []string{
					layer("l1", `{a: {x: 1, "y": [1, 2]}, b: [1, 2, 3], c: scalar, d: {k: v}}`),
					layer("l2", `{a: {"y": [9], z: 2}, b: [4], c: {now: map}, d: flat}`),
				},
			},
			want: want{env: stamp(map[string]any{
				"a": map[string]any{"x": float64(1), "y": []any{float64(9)}, "z": float64(2)},
				"b": []any{float64(4)},
				"c": map[string]any{"now": "map"},
				"d": "flat",
			})},
		},
		"EV003DefaultDataIsLowest": {
			reason: "defaultData is the first layer; refs merge over it in order.",
			args: args{
				spec: `{defaultData: {hello: world}, environmentConfigs: [{ref: {name: a}}, {ref: {name: b}}]}`,
				xr:   `{spec: {environmentConfigRefs: [{name: a}, {name: b}]}}`,
				configs: []string{
					layer("a", `{int: 1, test: {foo: bar, complex: {data: val}}}`),
					layer("b", `{int: 2, test: {foo: bar2, hello: world}}`),
				},
			},
			want: want{env: stamp(map[string]any{
				"hello": "world",
				"int":   float64(2),
				"test":  map[string]any{"foo": "bar2", "hello": "world", "complex": map[string]any{"data": "val"}},
			})},
		},
		"EV004MissingRequired": {
			reason: "A missing config fails when resolution is Required (the default).",
			args: args{
				spec: `{environmentConfigs: [{ref: {name: missing}}], policy: {resolution: Required}}`,
				xr:   `{spec: {environmentConfigRefs: [{name: missing}]}}`,
			},
			want: want{err: `cannot fetch environment: cannot fetch environment configs: failed to get config set from reference: EnvironmentConfig.apiextensions.crossplane.io "missing" not found`},
		},
		"EV005MissingOptional": {
			reason: "A missing config is skipped when resolution is Optional.",
			args: args{
				spec: `{environmentConfigs: [{ref: {name: missing}}], policy: {resolution: Optional}}`,
				xr:   `{spec: {environmentConfigRefs: [{name: missing}]}}`,
			},
			want: want{env: stamp(map[string]any{})},
		},
		"MissingRequiredByDefault": {
			reason: "Without a policy, resolution is Required.",
			args: args{
				spec:    `{environmentConfigs: [{ref: {name: a}}, {ref: {name: missing}}]}`,
				xr:      `{spec: {environmentConfigRefs: [{name: a}, {name: missing}]}}`,
				configs: []string{layer("a", `{k: v}`)},
			},
			want: want{err: `cannot fetch environment: cannot fetch environment configs: failed to get config set from reference: EnvironmentConfig.apiextensions.crossplane.io "missing" not found`},
		},
		"MissingOptionalOthersMerged": {
			reason: "Under Optional the configs that exist still merge, in order.",
			args: args{
				spec:    `{environmentConfigs: [{ref: {name: a}}], policy: {resolution: Optional}}`,
				xr:      `{spec: {environmentConfigRefs: [{name: a}, {name: missing}, {name: b}]}}`,
				configs: []string{layer("a", `{k: a, only: a}`), layer("b", `{k: b}`)},
			},
			want: want{env: stamp(map[string]any{"k": "b", "only": "a"})},
		},
		"DefaultDataOnly": {
			reason: "With no configs the environment is defaultData.",
			args: args{
				spec: `{defaultData: {"n": 1, o: {k: v}}}`,
			},
			want: want{env: stamp(map[string]any{"n": float64(1), "o": map[string]any{"k": "v"}})},
		},
		"NoSpecEnvironment": {
			reason: "With the flag on an environment always exists; without spec.environment missing refs are skipped and hand-written ones fetched (Q-20).",
			args: args{
				xr:      `{spec: {environmentConfigRefs: [{name: missing}, {name: byhand}]}}`,
				configs: []string{layer("byhand", `{k: v}`)},
			},
			want: want{env: stamp(map[string]any{"k": "v"})},
		},
		"RefsFetchedByNameOnly": {
			reason: "A ref's apiVersion and kind are ignored.",
			args: args{
				xr:      `{spec: {environmentConfigRefs: [{apiVersion: example.org/v1, kind: Other, name: a}]}}`,
				configs: []string{layer("a", `{k: v}`)},
			},
			want: want{env: stamp(map[string]any{"k": "v"})},
		},
		"ConfigWithoutData": {
			reason: "A config without data contributes nothing.",
			args: args{
				xr: `{spec: {environmentConfigRefs: [{name: a}, {name: nodata}]}}`,
				configs: []string{layer("a", `{k: v}`), `
apiVersion: apiextensions.crossplane.io/v1alpha1
kind: EnvironmentConfig
metadata: {name: nodata}
`},
			},
			want: want{env: stamp(map[string]any{"k": "v"})},
		},
		"NullReplaces": {
			reason: "A later null replaces an object.",
			args: args{
				xr:      `{spec: {environmentConfigRefs: [{name: a}, {name: b}]}}`,
				configs: []string{layer("a", `{k: {x: 1}}`), layer("b", `{k: null}`)},
			},
			want: want{env: stamp(map[string]any{"k": nil})},
		},
		"SameConfigTwice": {
			reason: "A config referenced twice is merged twice.",
			args: args{
				xr:      `{spec: {environmentConfigRefs: [{name: a}, {name: b}, {name: a}]}}`,
				configs: []string{layer("a", `{k: a}`), layer("b", `{k: b}`)},
			},
			want: want{env: stamp(map[string]any{"k": "a"})},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			var s *Spec
			if tc.args.spec != "" {
				s = spec(t, tc.args.spec)
			}
			xr := map[string]any{}
			if tc.args.xr != "" {
				xr = object(t, tc.args.xr)
			}
			got, err := s.Fetch(xr, set(t, tc.args.configs...))
			if diff := cmp.Diff(tc.want.err, errText(err)); diff != "" {
				t.Errorf("\n%s\nFetch(...): -want error, +got error:\n%s", tc.reason, diff)
			}
			if diff := cmp.Diff(tc.want.env, got); diff != "" {
				t.Errorf("\n%s\nFetch(...): -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}

func TestFetchNotFoundIsTyped(t *testing.T) {
	s := spec(t, `{environmentConfigs: [{ref: {name: missing}}]}`)
	xr := object(t, `{spec: {environmentConfigRefs: [{name: missing}]}}`)
	_, err := s.Fetch(xr, nil)
	nf := &NotFoundError{}
	if !errors.As(err, &nf) {
		t.Fatalf("Fetch(...): want a *NotFoundError, got %v", err)
	}
	if diff := cmp.Diff("missing", nf.Name); diff != "" {
		t.Errorf("\nThe not-found error names the config.\nFetch(...): -want, +got:\n%s", diff)
	}
}

func TestBuild(t *testing.T) {
	type want struct {
		env    map[string]any
		refs   []Ref
		xrRefs any
		err    string
	}
	cases := map[string]struct {
		reason string
		spec   string
		xr     string
		want   want
	}{
		"SelectThenMerge": {
			reason: "Configs are merged in their sorted order: later wins.",
			spec:   `{defaultData: {s: default, d: kept}, environmentConfigs: [{type: Selector, selector: {mode: Multiple, sortByFieldPath: data.s, matchLabels: [{type: Value, key: env, value: prod}]}}]}`,
			xr:     `{spec: {}}`,
			want: want{
				env:  map[string]any{"apiVersion": EnvironmentAPIVersion, "kind": EnvironmentKind, "s": "c", "w": float64(10), "d": "kept"},
				refs: refs("b", "c", "a"),
				xrRefs: []any{
					map[string]any{"apiVersion": APIVersionV1Alpha1, "kind": KindConfig, "name": "b"},
					map[string]any{"apiVersion": APIVersionV1Alpha1, "kind": KindConfig, "name": "c"},
					map[string]any{"apiVersion": APIVersionV1Alpha1, "kind": KindConfig, "name": "a"},
				},
			},
		},
		"PinnedRefsWin": {
			reason: "Pinned refs are fetched even if the labels now select others.",
			spec:   `{environmentConfigs: [{type: Selector, selector: {mode: Multiple, matchLabels: [{type: Value, key: env, value: prod}]}}]}`,
			xr:     `{spec: {environmentConfigRefs: [{name: b}]}}`,
			want: want{
				env:    map[string]any{"apiVersion": EnvironmentAPIVersion, "kind": EnvironmentKind, "s": "a", "w": 1.5},
				refs:   []Ref{{Name: "b"}},
				xrRefs: []any{map[string]any{"name": "b"}},
			},
		},
		"SelectionErrorFirst": {
			reason: "A selection error stops before fetching.",
			spec:   `{environmentConfigs: [{type: Selector, selector: {matchLabels: [{type: Value, key: env, value: prod}]}}]}`,
			xr:     `{spec: {}}`,
			want: want{
				err: "cannot select environment: failed to build reference at index 0: only 1 EnvironmentConfig can be selected in Single mode, found: 3",
			},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			xr := object(t, tc.xr)
			env, sel, err := spec(t, tc.spec).Build(xr, set(t, ec3))
			if diff := cmp.Diff(tc.want.err, errText(err)); diff != "" {
				t.Errorf("\n%s\nBuild(...): -want error, +got error:\n%s", tc.reason, diff)
			}
			if err != nil {
				return
			}
			if diff := cmp.Diff(tc.want.env, env); diff != "" {
				t.Errorf("\n%s\nBuild(...): -want environment, +got:\n%s", tc.reason, diff)
			}
			if diff := cmp.Diff(tc.want.refs, sel.Refs); diff != "" {
				t.Errorf("\n%s\nBuild(...): -want refs, +got:\n%s", tc.reason, diff)
			}
			got := xr["spec"].(map[string]any)["environmentConfigRefs"]
			if diff := cmp.Diff(tc.want.xrRefs, got); diff != "" {
				t.Errorf("\n%s\nBuild(...): -want XR refs, +got:\n%s", tc.reason, diff)
			}
		})
	}
}
