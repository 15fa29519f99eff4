package environment

import (
	"testing"

	"github.com/crossplane/crossplane-runtime/v2/pkg/fieldpath"
	"github.com/google/go-cmp/cmp"

	"github.com/xpmigrate/xpmigrate/internal/jsonobj"
	pt "github.com/xpmigrate/xpmigrate/patchandtransform"
)

// absent marks a field path that must not exist.
type absent struct{}

func str(s string) *string { return &s }

// env0Environment is the environment built from ENV0 alone.
func env0Environment(t *testing.T) map[string]any {
	t.Helper()
	xr := object(t, `{spec: {environmentConfigRefs: [{name: env0}]}}`)
	env, err := (*Spec)(nil).Fetch(xr, set(t, env0))
	if err != nil {
		t.Fatalf("Fetch(...): %v", err)
	}
	return env
}

// checkPaths compares the values at field paths of o with want.
func checkPaths(t *testing.T, reason, what string, o *fieldpath.Paved, want map[string]any) {
	t.Helper()
	for _, path := range jsonobj.SortedKeys(want) {
		got, err := o.GetValue(path)
		if _, ok := want[path].(absent); ok {
			if !fieldpath.IsNotFound(err) {
				t.Errorf("\n%s\n%s %s: want absent, got %#v (error %v)", reason, what, path, got, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("\n%s\n%s %s: %v", reason, what, path, err)
			continue
		}
		if diff := cmp.Diff(want[path], got); diff != "" {
			t.Errorf("\n%s\n%s %s: -want, +got:\n%s", reason, what, path, diff)
		}
	}
}

func TestApplyTemplatePatch(t *testing.T) {
	formatD := pt.Transform{Type: pt.TransformTypeString, String: &pt.StringTransform{Type: pt.StringTransformTypeFormat, Format: str("%d")}}

	type want struct {
		desired map[string]any
		env     map[string]any
		// envUnchanged says the environment must equal its starting value.
		envUnchanged bool
		applied      []bool
		err          string
	}
	cases := map[string]struct {
		reason string
		// desired is the object being built; CD0 when empty.
		desired string
		// noEnv runs without an environment (flag off).
		noEnv   bool
		patches []pt.Patch
		want    want
	}{
		"EV006FloatInEnvIntAfterWrite": {
			reason:  "The environment holds float64 3; once written to the desired object it is int64 3.",
			patches: []pt.Patch{{Type: pt.PatchTypeFromEnvironmentFieldPath, FromFieldPath: str("num"), ToFieldPath: str("spec.num")}},
			want:    want{desired: map[string]any{"spec.num": int64(3)}, applied: []bool{true}},
		},
		"EV007FormatBeforeAnyEnvWrite": {
			reason: "Before any write the environment number is float64, which %d cannot print.",
			patches: []pt.Patch{{Type: pt.PatchTypeFromEnvironmentFieldPath, FromFieldPath: str("num"), ToFieldPath: str("spec.f"),
				Transforms: []pt.Transform{formatD}}},
			want: want{desired: map[string]any{"spec.f": "%!d(float64=3)"}, applied: []bool{true}},
		},
		"EV008EnvRenormalisedByWrite": {
			reason: "A ToEnvironment write re-encodes the whole environment, so num is int64 afterwards.",
			patches: []pt.Patch{
				{Type: pt.PatchTypeToEnvironmentFieldPath, FromFieldPath: str("spec.a"), ToFieldPath: str("touched")},
				{Type: pt.PatchTypeFromEnvironmentFieldPath, FromFieldPath: str("num"), ToFieldPath: str("spec.f"), Transforms: []pt.Transform{formatD}},
			},
			want: want{desired: map[string]any{"spec.f": "3"}, env: map[string]any{"num": int64(3), "touched": "fromdesired"}, applied: []bool{true, true}},
		},
		"EV009MapOnFloat": {
			reason: "A map transform does not accept the environment's float64.",
			patches: []pt.Patch{{Type: pt.PatchTypeFromEnvironmentFieldPath, FromFieldPath: str("num"), ToFieldPath: str("spec.x"),
				Transforms: []pt.Transform{{Type: pt.TransformTypeMap, Map: &pt.MapTransform{Pairs: map[string]pt.RawJSON{"3": pt.RawJSON(`"three"`)}}}}}},
			want: want{err: "transform at index 0 returned error: map transform could not resolve: type float64 is not supported for map transform", applied: []bool{true}},
		},
		"EV010ConvertFloatToString": {
			reason: "Converting float64 3 to a string gives \"3\".",
			patches: []pt.Patch{{Type: pt.PatchTypeFromEnvironmentFieldPath, FromFieldPath: str("num"), ToFieldPath: str("spec.s"),
				Transforms: []pt.Transform{{Type: pt.TransformTypeConvert, Convert: &pt.ConvertTransform{ToType: pt.ConvertTransformTypeString}}}}},
			want: want{desired: map[string]any{"spec.s": "3"}, applied: []bool{true}},
		},
		"EV011EnvironmentAPIVersionReadable": {
			reason:  "The stamped apiVersion is an ordinary environment field.",
			patches: []pt.Patch{{Type: pt.PatchTypeFromEnvironmentFieldPath, FromFieldPath: str("apiVersion"), ToFieldPath: str("spec.av")}},
			want:    want{desired: map[string]any{"spec.av": EnvironmentAPIVersion}, applied: []bool{true}},
		},
		"EV012ToEnvironmentReadsDesired": {
			reason:  "ToEnvironment patches read the desired object being built.",
			patches: []pt.Patch{{Type: pt.PatchTypeToEnvironmentFieldPath, FromFieldPath: str("spec.a"), ToFieldPath: str("fromcd")}},
			want:    want{env: map[string]any{"fromcd": "fromdesired"}, applied: []bool{true}},
		},
		"EV013ObservedStatusInvisible": {
			reason:  "The desired object has no status, so a ToEnvironment patch from status is a no-op (Q-3).",
			desired: `{apiVersion: ex.org/v1, kind: CD, spec: {a: fromdesired}}`,
			patches: []pt.Patch{{Type: pt.PatchTypeToEnvironmentFieldPath, FromFieldPath: str("status.id"), ToFieldPath: str("id")}},
			want:    want{envUnchanged: true, env: map[string]any{"id": absent{}}, applied: []bool{true}},
		},
		"EV014CombineToAndFromEnvironment": {
			reason: "Combine patches write to and read from the environment.",
			patches: []pt.Patch{
				{Type: pt.PatchTypeCombineToEnvironment, ToFieldPath: str("comb"), Combine: &pt.Combine{
					Strategy: pt.CombineStrategyString, Variables: []pt.CombineVariable{{FromFieldPath: "spec.a"}}, String: &pt.StringCombine{Format: "x-%s"}}},
				{Type: pt.PatchTypeCombineFromEnvironment, ToFieldPath: str("spec.c"), Combine: &pt.Combine{
					Strategy: pt.CombineStrategyString, Variables: []pt.CombineVariable{{FromFieldPath: "str"}, {FromFieldPath: "comb"}}, String: &pt.StringCombine{Format: "%s|%s"}}},
			},
			want: want{desired: map[string]any{"spec.c": "s|x-fromdesired"}, applied: []bool{true, true}},
		},
		"EV015RequiredMissing": {
			reason: "A Required FromEnvironment patch fails the template when the field is missing.",
			patches: []pt.Patch{{Type: pt.PatchTypeFromEnvironmentFieldPath, FromFieldPath: str("nope"), ToFieldPath: str("spec.nope"),
				Policy: &pt.Policy{FromFieldPath: ptrTo(pt.FromFieldPathPolicyRequired)}}},
			want: want{err: "nope: no such field", applied: []bool{true}},
		},
		"OptionalMissingIsNoop": {
			reason:  "An Optional (default) FromEnvironment patch does nothing when the field is missing.",
			patches: []pt.Patch{{Type: pt.PatchTypeFromEnvironmentFieldPath, FromFieldPath: str("nope"), ToFieldPath: str("spec.nope")}},
			want:    want{desired: map[string]any{"spec.nope": absent{}}, envUnchanged: true, applied: []bool{true}},
		},
		"OtherTypesNotApplied": {
			reason: "Composite patch types, and an undefaulted empty type, are not environment patches.",
			patches: []pt.Patch{
				{Type: pt.PatchTypeFromCompositeFieldPath, FromFieldPath: str("num"), ToFieldPath: str("spec.num")},
				{FromFieldPath: str("num"), ToFieldPath: str("spec.num")},
			},
			want: want{desired: map[string]any{"spec.num": absent{}}, envUnchanged: true, applied: []bool{false, false}},
		},
		"EV035FlagOff": {
			reason: "Without the feature flag there is no environment and environment patches do nothing.",
			noEnv:  true,
			patches: []pt.Patch{{Type: pt.PatchTypeFromEnvironmentFieldPath, FromFieldPath: str("num"), ToFieldPath: str("spec.num"),
				Policy: &pt.Policy{FromFieldPath: ptrTo(pt.FromFieldPathPolicyRequired)}}},
			want: want{desired: map[string]any{"spec.num": absent{}}, applied: []bool{false}},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			d := cd0
			if tc.desired != "" {
				d = tc.desired
			}
			desired := fieldpath.Pave(object(t, d))
			start := env0Environment(t)
			var env *fieldpath.Paved
			if !tc.noEnv {
				env = fieldpath.Pave(env0Environment(t))
			}

			var applied []bool
			var err error
			for _, p := range tc.patches {
				var ok bool
				ok, err = ApplyTemplatePatch(p, env, desired)
				applied = append(applied, ok)
				if err != nil {
					break
				}
			}
			if diff := cmp.Diff(tc.want.err, errText(err)); diff != "" {
				t.Errorf("\n%s\nApplyTemplatePatch(...): -want error, +got error:\n%s", tc.reason, diff)
			}
			if diff := cmp.Diff(tc.want.applied, applied); diff != "" {
				t.Errorf("\n%s\nApplyTemplatePatch(...): -want applied, +got applied:\n%s", tc.reason, diff)
			}
			checkPaths(t, tc.reason, "desired", desired, tc.want.desired)
			if env == nil {
				return
			}
			checkPaths(t, tc.reason, "environment", env, tc.want.env)
			if tc.want.envUnchanged {
				if diff := cmp.Diff(start, env.UnstructuredContent()); diff != "" {
					t.Errorf("\n%s\nApplyTemplatePatch(...): -want environment unchanged, +got:\n%s", tc.reason, diff)
				}
			}
		})
	}
}

func TestApplyEnvironmentPatches(t *testing.T) {
	type want struct {
		xr map[string]any
		// persisted are paths of the XR as the XR update leaves it: status
		// writes are lost.
		persisted map[string]any
		env       map[string]any
		err       string
	}
	cases := map[string]struct {
		reason  string
		xr      string
		patches []pt.Patch
		want    want
	}{
		"EV016FromCompositeToEnvironment": {
			reason:  "An XR value is written to the environment, normalised to int64.",
			xr:      `{spec: {w: 2}}`,
			patches: []pt.Patch{{Type: pt.PatchTypeFromCompositeFieldPath, FromFieldPath: str("spec.w"), ToFieldPath: str("xrw")}},
			want:    want{env: map[string]any{"xrw": int64(2), "num": int64(3)}},
		},
		"EV017StatusWriteLost": {
			reason:  "A ToComposite write into status is visible in memory but not persisted (Q-4).",
			xr:      xr0,
			patches: []pt.Patch{{Type: pt.PatchTypeToCompositeFieldPath, FromFieldPath: str("num"), ToFieldPath: str("status.envnum")}},
			want: want{
				xr:        map[string]any{"status.envnum": int64(3)},
				persisted: map[string]any{"status.envnum": absent{}, "status.st": "done"},
			},
		},
		"EV018MetadataWriteKept": {
			reason:  "A ToComposite write into metadata is persisted.",
			xr:      xr0,
			patches: []pt.Patch{{Type: pt.PatchTypeToCompositeFieldPath, FromFieldPath: str("str"), ToFieldPath: str("metadata.annotations[from-env]")}},
			want: want{
				xr:        map[string]any{"metadata.annotations[from-env]": "s"},
				persisted: map[string]any{"metadata.annotations[from-env]": "s"},
			},
		},
		"EV019RequiredMissingIsFatal": {
			reason: "Any error in an environment patch is fatal and names its index.",
			xr:     xr0,
			patches: []pt.Patch{{Type: pt.PatchTypeToCompositeFieldPath, FromFieldPath: str("nope"), ToFieldPath: str("status.x"),
				Policy: &pt.Policy{FromFieldPath: ptrTo(pt.FromFieldPathPolicyRequired)}}},
			want: want{err: "cannot apply environment patch at index 0: nope: no such field"},
		},
		"CombineFromCompositeAndOrder": {
			reason: "Patches run in order: a later patch sees an earlier patch's write.",
			xr:     xr0,
			patches: []pt.Patch{
				{Type: pt.PatchTypeCombineFromComposite, ToFieldPath: str("greeting"), Combine: &pt.Combine{
					Strategy: pt.CombineStrategyString, Variables: []pt.CombineVariable{{FromFieldPath: "spec.str"}, {FromFieldPath: "metadata.name"}}, String: &pt.StringCombine{Format: "%s %s"}}},
				{Type: pt.PatchTypeToCompositeFieldPath, FromFieldPath: str("greeting"), ToFieldPath: str("spec.greeting")},
			},
			want: want{env: map[string]any{"greeting": "hello xr1"}, xr: map[string]any{"spec.greeting": "hello xr1"}},
		},
		"OtherTypesSkipped": {
			reason: "Environment patch types and an undefaulted empty type are skipped, not errors.",
			xr:     xr0,
			patches: []pt.Patch{
				{Type: pt.PatchTypeFromEnvironmentFieldPath, FromFieldPath: str("num"), ToFieldPath: str("spec.n1")},
				{FromFieldPath: str("spec.str"), ToFieldPath: str("n2")},
			},
			want: want{xr: map[string]any{"spec.n1": absent{}}, env: map[string]any{"n2": absent{}}},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			before := object(t, tc.xr)
			xr := fieldpath.Pave(object(t, tc.xr))
			env := fieldpath.Pave(env0Environment(t))
			err := ApplyEnvironmentPatches(tc.patches, xr, env)
			if diff := cmp.Diff(tc.want.err, errText(err)); diff != "" {
				t.Errorf("\n%s\nApplyEnvironmentPatches(...): -want error, +got error:\n%s", tc.reason, diff)
			}
			checkPaths(t, tc.reason, "XR", xr, tc.want.xr)
			checkPaths(t, tc.reason, "environment", env, tc.want.env)

			// The XR update persists spec and metadata; the server's
			// response then replaces the in-memory XR, status included.
			persisted := map[string]any{}
			for k, v := range xr.UnstructuredContent() {
				persisted[k] = v
			}
			delete(persisted, "status")
			if st, ok := before["status"]; ok {
				persisted["status"] = st
			}
			checkPaths(t, tc.reason, "persisted XR", fieldpath.Pave(persisted), tc.want.persisted)
		})
	}
}

func TestApplyEnvironmentPatchesWithoutEnvironment(t *testing.T) {
	xr := fieldpath.Pave(map[string]any{})
	p := pt.Patch{Type: pt.PatchTypeToCompositeFieldPath, FromFieldPath: str("nope"), Policy: &pt.Policy{FromFieldPath: ptrTo(pt.FromFieldPathPolicyRequired)}}
	if err := ApplyEnvironmentPatches([]pt.Patch{p}, xr, nil); err != nil {
		t.Errorf("\nWithout an environment (flag off) environment patches do nothing.\nApplyEnvironmentPatches(...): %v", err)
	}
}

// TestEnvironmentFlow simulates reconciles of two templates sharing one
// environment: A writes its spec.id to the environment, B reads it.
func TestEnvironmentFlow(t *testing.T) {
	type template struct {
		name    string
		base    string
		patches []pt.Patch
	}
	a := template{name: "A", base: `{apiVersion: ex.org/v1, kind: CD, spec: {id: x}}`,
		patches: []pt.Patch{{Type: pt.PatchTypeToEnvironmentFieldPath, FromFieldPath: str("spec.id"), ToFieldPath: str("id")}}}
	b := template{name: "B", base: `{apiVersion: ex.org/v1, kind: CD}`,
		patches: []pt.Patch{{Type: pt.PatchTypeFromEnvironmentFieldPath, FromFieldPath: str("id"), ToFieldPath: str("spec.peer")}}}

	// reconcile renders the templates in order against a fresh
	// environment, as every reconcile does, and returns B's object.
	reconcile := func(t *testing.T, templates []template) *fieldpath.Paved {
		env := fieldpath.Pave(env0Environment(t))
		var out *fieldpath.Paved
		for _, tpl := range templates {
			desired := fieldpath.Pave(object(t, tpl.base))
			for i, p := range tpl.patches {
				if _, err := ApplyTemplatePatch(p, env, desired); err != nil {
					t.Fatalf("template %s patch %d: %v", tpl.name, i, err)
				}
			}
			if tpl.name == "B" {
				out = desired
			}
		}
		return out
	}

	cases := map[string]struct {
		reason     string
		templates  []template
		reconciles int
		want       map[string]any
	}{
		"EV036EarlierToLater": {
			reason:     "A value written by an earlier template is read by a later one in the same reconcile.",
			templates:  []template{a, b},
			reconciles: 1,
			want:       map[string]any{"spec.peer": "x"},
		},
		"EV037LaterToEarlierNever": {
			reason:     "A value written by a later template never reaches an earlier one: the environment is rebuilt every reconcile.",
			templates:  []template{b, a},
			reconciles: 3,
			want:       map[string]any{"spec.peer": absent{}},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			for i := 0; i < tc.reconciles; i++ {
				checkPaths(t, tc.reason, "B", reconcile(t, tc.templates), tc.want)
			}
		})
	}
}
