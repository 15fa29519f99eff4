package patchandtransform

import (
	"strings"
	"testing"

	"github.com/crossplane/crossplane-runtime/v2/pkg/fieldpath"
	"github.com/google/go-cmp/cmp"
	kjson "k8s.io/apimachinery/pkg/util/json"
	"sigs.k8s.io/yaml"
)

// The fixtures of docs/semantics/legacy.md#test-vectors, decoded as the API server
// would (integers are int64).
const (
	fixtureXR0 = `
apiVersion: ex.org/v1
kind: XR
metadata:
  name: xr1
  uid: u-1
  labels: {a: "1", crossplane.io/composite: xr1}
  annotations: {crossplane.io/external-name: ext}
spec:
  str: hello
  num: 3
  flt: 1.5
  nul: null
  obj: {k1: v1, k2: v2, nested: {x: 1}}
  arr: [a, b]
  list: [{name: a}, {name: b}]
  b: true
status: {st: done}
`
	fixtureCD0 = `
apiVersion: ex.org/v1
kind: CD
metadata:
  labels: {keep: "yes"}
spec:
  obj: {k1: base1, k3: base3, nested: {yy: 2}}
  arr: [b, c]
  scalar: base
  items: [{name: n1}, {name: n2, value: old}]
  nul: null
  a: fromdesired
status: {id: abc, num: 7}
`
)

// kube decodes YAML the way the API server stores it: integers are int64.
func kube(t testing.TB, y string) map[string]any {
	t.Helper()
	j, err := yaml.YAMLToJSON([]byte(y))
	if err != nil {
		t.Fatalf("cannot convert fixture to JSON: %v", err)
	}
	out := map[string]any{}
	if err := kjson.Unmarshal(j, &out); err != nil {
		t.Fatalf("cannot decode fixture: %v", err)
	}
	return out
}

func kubeValue(t testing.TB, y string) any {
	t.Helper()
	return kube(t, "v: "+y)["v"]
}

func ptr[T any](v T) *T { return &v }

func required() *Policy {
	return &Policy{FromFieldPath: ptr(FromFieldPathPolicyRequired)}
}

// errContains reports a problem when err does not contain want ("" means no
// error wanted). The vectors specify messages, so tests compare them.
func errContains(err error, want string) string {
	switch {
	case err == nil && want == "":
		return ""
	case err == nil:
		return "got no error, want one containing " + want
	case want == "":
		return "got unexpected error: " + err.Error()
	case !strings.Contains(err.Error(), want):
		return "got error " + err.Error() + ", want one containing " + want
	}
	return ""
}

// withPaths returns a copy of base with the given dotted paths set.
func withPaths(t testing.TB, base map[string]any, set map[string]string) map[string]any {
	t.Helper()
	p := fieldpath.Pave(base)
	for path, y := range set {
		if err := p.SetValue(path, kubeValue(t, y)); err != nil {
			t.Fatalf("cannot set %s: %v", path, err)
		}
	}
	return p.UnstructuredContent()
}

func TestApplyFromComposite(t *testing.T) {
	type want struct {
		// set lists paths whose value changes (YAML); target is CD0 plus these.
		set map[string]string
		err string
	}
	cases := map[string]struct {
		reason string
		patch  Patch
		want   want
	}{
		"FP001": {
			reason: "toFieldPath defaults to fromFieldPath",
			patch:  Patch{Type: PatchTypeFromCompositeFieldPath, FromFieldPath: ptr("spec.str")},
			want:   want{set: map[string]string{"spec.str": "hello"}},
		},
		"FP002": {
			reason: "a missing optional source is a no-op",
			patch:  Patch{FromFieldPath: ptr("spec.nope"), ToFieldPath: ptr("spec.x")},
		},
		"FP003": {
			reason: "a missing required source is an error",
			patch:  Patch{FromFieldPath: ptr("spec.nope"), ToFieldPath: ptr("spec.x"), Policy: required()},
			want:   want{err: "spec.nope: no such field"},
		},
		"FP004": {
			reason: "a null source is written as null",
			patch:  Patch{FromFieldPath: ptr("spec.nul"), ToFieldPath: ptr("spec.x")},
			want:   want{set: map[string]string{"spec.x": "null"}},
		},
		"FP005": {
			reason: "reading through null is not found",
			patch:  Patch{FromFieldPath: ptr("spec.nul.deeper"), ToFieldPath: ptr("spec.x")},
		},
		"FP006": {
			reason: "reading through a scalar fails even when optional",
			patch:  Patch{FromFieldPath: ptr("spec.str.deeper"), ToFieldPath: ptr("spec.x")},
			want:   want{err: "spec.str: not an object"},
		},
		"FP007": {
			reason: "indexing an object fails",
			patch:  Patch{FromFieldPath: ptr("spec.obj[0]"), ToFieldPath: ptr("spec.x")},
			want:   want{err: "spec.obj: not an array"},
		},
		"FP008": {
			reason: "an index past the end is not found",
			patch:  Patch{FromFieldPath: ptr("spec.arr[5]"), ToFieldPath: ptr("spec.x")},
		},
		"FP009": {
			reason: "a wildcard in fromFieldPath is a literal key; on a list it fails",
			patch:  Patch{FromFieldPath: ptr("spec.list[*].name"), ToFieldPath: ptr("spec.x")},
			want:   want{err: "spec.list: not an object"},
		},
		"FP010": {
			reason: "a wildcard in fromFieldPath over an object is a missing literal key",
			patch:  Patch{FromFieldPath: ptr("spec.obj[*]"), ToFieldPath: ptr("spec.x")},
		},
		"FP011": {
			reason: "bracketed keys may hold dots and slashes, and quotes are trimmed",
			patch: Patch{FromFieldPath: ptr("metadata.annotations[crossplane.io/external-name]"),
				ToFieldPath: ptr("metadata.annotations['crossplane.io/external-name']")},
			want: want{set: map[string]string{"metadata.annotations": "{crossplane.io/external-name: ext}"}},
		},
		"FP012": {
			reason: "quotes are trimmed from plain segments too",
			patch:  Patch{FromFieldPath: ptr("spec.'str'"), ToFieldPath: ptr("spec.x")},
			want:   want{set: map[string]string{"spec.x": "hello"}},
		},
		"FP013": {
			reason: "an empty fromFieldPath reads null",
			patch:  Patch{FromFieldPath: ptr(""), ToFieldPath: ptr("spec.x")},
			want:   want{set: map[string]string{"spec.x": "null"}},
		},
		"FP014": {
			reason: "a malformed path is an error",
			patch:  Patch{FromFieldPath: ptr("spec..str"), ToFieldPath: ptr("spec.x")},
			want:   want{err: `cannot parse path "spec..str": unexpected '.' at position 5`},
		},
		"FP015": {
			reason: "a toFieldPath wildcard writes every existing leaf",
			patch:  Patch{FromFieldPath: ptr("spec.str"), ToFieldPath: ptr("spec.items[*].name")},
			want:   want{set: map[string]string{"spec.items": "[{name: hello}, {name: hello, value: old}]"}},
		},
		"FP016": {
			reason: "a toFieldPath wildcard writes only leaves that exist",
			patch:  Patch{FromFieldPath: ptr("spec.str"), ToFieldPath: ptr("spec.items[*].value")},
			want:   want{set: map[string]string{"spec.items": "[{name: n1}, {name: n2, value: hello}]"}},
		},
		"FP017": {
			reason: "a wildcard that matches no leaf is an error",
			patch:  Patch{FromFieldPath: ptr("spec.str"), ToFieldPath: ptr("spec.items[*].zzz")},
			want:   want{err: "cannot expand ToFieldPath spec.items[*].zzz"},
		},
		"FP018": {
			reason: "a wildcard under a missing parent is an error",
			patch:  Patch{FromFieldPath: ptr("spec.str"), ToFieldPath: ptr("spec.nothere[*].zzz")},
			want:   want{err: "cannot expand ToFieldPath spec.nothere[*].zzz"},
		},
		"FP019": {
			reason: "a wildcard expands over object keys",
			patch:  Patch{FromFieldPath: ptr("spec.str"), ToFieldPath: ptr("spec.obj[*]")},
			want:   want{set: map[string]string{"spec.obj": "{k1: hello, k3: hello, nested: hello}"}},
		},
		"FP020": {
			reason: "writing an index creates a list padded with nulls",
			patch:  Patch{FromFieldPath: ptr("spec.str"), ToFieldPath: ptr("spec.newarr[2]")},
			want:   want{set: map[string]string{"spec.newarr": "[null, null, hello]"}},
		},
		"FP021": {
			reason: "writing through an index creates objects",
			patch:  Patch{FromFieldPath: ptr("spec.str"), ToFieldPath: ptr("spec.newarr[1].name")},
			want:   want{set: map[string]string{"spec.newarr": "[null, {name: hello}]"}},
		},
		"FP022": {
			reason: "an existing list is extended with nulls",
			patch:  Patch{FromFieldPath: ptr("spec.str"), ToFieldPath: ptr("spec.arr[3]")},
			want:   want{set: map[string]string{"spec.arr": "[b, c, null, hello]"}},
		},
		"FP023": {
			reason: "indices above 1024 are refused",
			patch:  Patch{FromFieldPath: ptr("spec.str"), ToFieldPath: ptr("spec.newarr[1025]")},
			want:   want{err: "index 1025 is greater than max allowed index 1024"},
		},
		"FP024": {
			reason: "writing through an existing null fails",
			patch:  Patch{FromFieldPath: ptr("spec.str"), ToFieldPath: ptr("spec.nul.x")},
			want:   want{err: "spec.nul is not an object"},
		},
		"FP025": {
			reason: "writing through a scalar fails",
			patch:  Patch{FromFieldPath: ptr("spec.str"), ToFieldPath: ptr("spec.scalar.x")},
			want:   want{err: "spec.scalar is not an object"},
		},
		"FP026": {
			reason: "writing a key into a list fails",
			patch:  Patch{FromFieldPath: ptr("spec.str"), ToFieldPath: ptr("spec.arr.x")},
			want:   want{err: "spec.arr is not an object"},
		},
		"FP027": {
			reason: "writing an index into an object fails",
			patch:  Patch{FromFieldPath: ptr("spec.str"), ToFieldPath: ptr("spec.obj[0]")},
			want:   want{err: "spec.obj is not an array"},
		},
		"FP028": {
			reason: "labels can be copied by bracketed keys",
			patch:  Patch{FromFieldPath: ptr("metadata.labels[crossplane.io/composite]"), ToFieldPath: ptr("metadata.labels[owner]")},
			want:   want{set: map[string]string{"metadata.labels": `{keep: "yes", owner: xr1}`}},
		},
		"FP029": {
			reason: "a whole object is copied, integers kept as int64",
			patch:  Patch{FromFieldPath: ptr("spec"), ToFieldPath: ptr("spec.forProvider")},
			want: want{set: map[string]string{"spec.forProvider": `{str: hello, num: 3, flt: 1.5, nul: null,
  obj: {k1: v1, k2: v2, nested: {x: 1}}, arr: [a, b], list: [{name: a}, {name: b}], b: true}`}},
		},
		"FP030": {
			reason: "patching kind is not checked at patch time",
			patch:  Patch{FromFieldPath: ptr("spec.str"), ToFieldPath: ptr("kind")},
			want:   want{set: map[string]string{"kind": "hello"}},
		},
		"FP031": {
			reason: "a float that is integral after a transform is stored as int64",
			patch: Patch{FromFieldPath: ptr("spec.flt"), ToFieldPath: ptr("spec.x"),
				Transforms: []Transform{{Type: TransformTypeMath, Math: &MathTransform{Type: MathTransformTypeMultiply, Multiply: ptr[int64](2)}}}},
			want: want{set: map[string]string{"spec.x": "3"}},
		},
		"FP032": {
			reason: "unquoted digits in brackets are an index",
			patch:  Patch{FromFieldPath: ptr("spec.str"), ToFieldPath: ptr("metadata.labels[123]")},
			want:   want{err: "metadata.labels is not an array"},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			from := fieldpath.Pave(kube(t, fixtureXR0))
			to := fieldpath.Pave(kube(t, fixtureCD0))
			err := Apply(Native, tc.patch, from, to)
			if diff := errContains(err, tc.want.err); diff != "" {
				t.Fatalf("\n%s\nApply(...): %s", tc.reason, diff)
			}
			if tc.want.err != "" {
				return
			}
			want := withPaths(t, kube(t, fixtureCD0), tc.want.set)
			if diff := cmp.Diff(want, to.UnstructuredContent()); diff != "" {
				t.Errorf("\n%s\nApply(...): -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}

func combine1(fmtStr string, vars ...string) *Combine {
	c := &Combine{Strategy: CombineStrategyString, String: &StringCombine{Format: fmtStr}}
	for _, v := range vars {
		c.Variables = append(c.Variables, CombineVariable{FromFieldPath: v})
	}
	return c
}

func TestApplyCombine(t *testing.T) {
	type want struct {
		set map[string]string
		err string
	}
	cases := map[string]struct {
		reason string
		patch  Patch
		want   want
	}{
		"CB001": {
			reason: "variables are formatted with their typed values",
			patch:  Patch{Type: PatchTypeCombineFromComposite, Combine: combine1("%s-%d", "spec.str", "spec.num"), ToFieldPath: ptr("spec.x")},
			want:   want{set: map[string]string{"spec.x": "hello-3"}},
		},
		"CB002": {
			reason: "%s on an int64 prints Go's bad-verb text",
			patch:  Patch{Type: PatchTypeCombineFromComposite, Combine: combine1("%s", "spec.num"), ToFieldPath: ptr("spec.x")},
			want:   want{set: map[string]string{"spec.x": `"%!s(int64=3)"`}},
		},
		"CB003": {
			reason: "one missing variable makes the whole patch a no-op",
			patch:  Patch{Type: PatchTypeCombineFromComposite, Combine: combine1("%s-%s", "spec.str", "spec.nope"), ToFieldPath: ptr("spec.x")},
		},
		"CB004": {
			reason: "a missing variable under Required is an error",
			patch: Patch{Type: PatchTypeCombineFromComposite, Combine: combine1("%s-%s", "spec.str", "spec.nope"), ToFieldPath: ptr("spec.x"),
				Policy: required()},
			want: want{err: "spec.nope: no such field"},
		},
		"CB005": {
			reason: "surplus variables are reported by fmt",
			patch:  Patch{Type: PatchTypeCombineFromComposite, Combine: combine1("%s", "spec.str", "spec.str"), ToFieldPath: ptr("spec.x")},
			want:   want{set: map[string]string{"spec.x": `"hello%!(EXTRA string=hello)"`}},
		},
		"CB006": {
			reason: "missing arguments are reported by fmt",
			patch:  Patch{Type: PatchTypeCombineFromComposite, Combine: combine1("%s-%s", "spec.str"), ToFieldPath: ptr("spec.x")},
			want:   want{set: map[string]string{"spec.x": `"hello-%!s(MISSING)"`}},
		},
		"CB007": {
			reason: "a null variable is found, not missing",
			patch:  Patch{Type: PatchTypeCombineFromComposite, Combine: combine1("%s", "spec.nul"), ToFieldPath: ptr("spec.x")},
			want:   want{set: map[string]string{"spec.x": `"%!s(<nil>)"`}},
		},
		"CB008": {
			reason: "objects print as Go maps with sorted keys",
			patch:  Patch{Type: PatchTypeCombineFromComposite, Combine: combine1("%v", "spec.obj"), ToFieldPath: ptr("spec.x")},
			want:   want{set: map[string]string{"spec.x": `"map[k1:v1 k2:v2 nested:map[x:1]]"`}},
		},
		"CB009": {
			reason: "native Combine patches ignore merge options at render time",
			patch: Patch{Type: PatchTypeCombineFromComposite, Combine: combine1("%s", "spec.str"), ToFieldPath: ptr("spec.obj"),
				Policy: &Policy{MergeOptions: &MergeOptions{KeepMapValues: ptr(true)}}},
			want: want{set: map[string]string{"spec.obj": "hello"}},
		},
		"CB010": {
			reason: "Combine patches do not expand wildcards",
			patch:  Patch{Type: PatchTypeCombineFromComposite, Combine: combine1("%s", "spec.str"), ToFieldPath: ptr("spec.items[*].name")},
			want:   want{err: "spec.items is not an object"},
		},
		"CB011": {
			reason: "Combine patches need a toFieldPath",
			patch:  Patch{Type: PatchTypeCombineFromComposite, Combine: combine1("%s", "spec.str")},
			want:   want{err: "ToFieldPath is required by type CombineFromComposite"},
		},
		"CB012": {
			reason: "the string strategy needs its configuration",
			patch: Patch{Type: PatchTypeCombineFromComposite, ToFieldPath: ptr("spec.x"),
				Combine: &Combine{Strategy: CombineStrategyString, Variables: []CombineVariable{{FromFieldPath: "spec.str"}}}},
			want: want{err: "given combine strategy string requires configuration"},
		},
		"CB013": {
			reason: "only the string strategy exists",
			patch: Patch{Type: PatchTypeCombineFromComposite, ToFieldPath: ptr("spec.x"),
				Combine: &Combine{Strategy: "foo", String: &StringCombine{Format: "%s"}, Variables: []CombineVariable{{FromFieldPath: "spec.str"}}}},
			want: want{err: "combine strategy foo is not supported"},
		},
		"CB014": {
			reason: "Combine patches need at least one variable",
			patch:  Patch{Type: PatchTypeCombineFromComposite, ToFieldPath: ptr("spec.x"), Combine: combine1("%s")},
			want:   want{err: "combine patch types require at least one variable"},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			from := fieldpath.Pave(kube(t, fixtureXR0))
			to := fieldpath.Pave(kube(t, fixtureCD0))
			err := Apply(Native, tc.patch, from, to)
			if diff := errContains(err, tc.want.err); diff != "" {
				t.Fatalf("\n%s\nApply(...): %s", tc.reason, diff)
			}
			if tc.want.err != "" {
				return
			}
			want := withPaths(t, kube(t, fixtureCD0), tc.want.set)
			if diff := cmp.Diff(want, to.UnstructuredContent()); diff != "" {
				t.Errorf("\n%s\nApply(...): -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}

// TestApplyToComposite covers docs/semantics/legacy.md#test-vectors: the source is the post-apply composed
// resource (CD0) and the target the XR (XR0).
func TestApplyToComposite(t *testing.T) {
	type want struct {
		set map[string]string
		err string
	}
	cases := map[string]struct {
		reason string
		patch  Patch
		want   want
	}{
		"CB015": {
			reason: "CombineToComposite writes into the XR",
			patch:  Patch{Type: PatchTypeCombineToComposite, Combine: combine1("%s/%d", "status.id", "status.num"), ToFieldPath: ptr("status.comb")},
			want:   want{set: map[string]string{"status.comb": "abc/7"}},
		},
		"TC001": {
			reason: "ToCompositeFieldPath copies into the XR",
			patch:  Patch{Type: PatchTypeToCompositeFieldPath, FromFieldPath: ptr("status.id"), ToFieldPath: ptr("status.id")},
			want:   want{set: map[string]string{"status.id": "abc"}},
		},
		"TC002": {
			reason: "a missing optional source is a no-op",
			patch:  Patch{Type: PatchTypeToCompositeFieldPath, FromFieldPath: ptr("status.missing"), ToFieldPath: ptr("status.id")},
		},
		"TC003": {
			reason: "a missing required source is an error (fatal for the composer)",
			patch:  Patch{Type: PatchTypeToCompositeFieldPath, FromFieldPath: ptr("status.missing"), ToFieldPath: ptr("status.id"), Policy: required()},
			want:   want{err: "status.missing: no such field"},
		},
		"TC004": {
			reason: "toFieldPath defaults to fromFieldPath",
			patch:  Patch{Type: PatchTypeToCompositeFieldPath, FromFieldPath: ptr("status.id")},
			want:   want{set: map[string]string{"status.id": "abc"}},
		},
		"TC005": {
			reason: "keepMapValues keeps the XR's values and adds new keys",
			patch: Patch{Type: PatchTypeToCompositeFieldPath, FromFieldPath: ptr("spec.obj"), ToFieldPath: ptr("spec.obj"),
				Policy: &Policy{MergeOptions: &MergeOptions{KeepMapValues: ptr(true)}}},
			want: want{set: map[string]string{"spec.obj": "{k1: v1, k2: v2, k3: base3, nested: {x: 1, yy: 2}}"}},
		},
		"TC006": {
			reason: "a transform error is returned (fatal for the composer)",
			patch: Patch{Type: PatchTypeToCompositeFieldPath, FromFieldPath: ptr("spec.a"), ToFieldPath: ptr("status.v"),
				Transforms: []Transform{{Type: TransformTypeMap, Map: &MapTransform{Pairs: map[string]RawJSON{"other": RawJSON(`"x"`)}}}}},
			want: want{err: "key fromdesired is not found in map"},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			from := fieldpath.Pave(kube(t, fixtureCD0))
			to := fieldpath.Pave(kube(t, fixtureXR0))
			err := Apply(Native, tc.patch, from, to)
			if diff := errContains(err, tc.want.err); diff != "" {
				t.Fatalf("\n%s\nApply(...): %s", tc.reason, diff)
			}
			if tc.want.err != "" {
				return
			}
			want := withPaths(t, kube(t, fixtureXR0), tc.want.set)
			if diff := cmp.Diff(want, to.UnstructuredContent()); diff != "" {
				t.Errorf("\n%s\nApply(...): -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}

func TestMerge(t *testing.T) {
	kmv := func(b bool) *MergeOptions { return &MergeOptions{KeepMapValues: ptr(b)} }
	app := &MergeOptions{AppendSlice: ptr(true)}
	both := &MergeOptions{AppendSlice: ptr(true), KeepMapValues: ptr(true)}
	obj := "{k1: base1, k3: base3, nested: {yy: 2}}"
	src := "{k1: v1, k2: v2, nested: {x: 1}}"
	cases := map[string]struct {
		dst, src, want string
		mo             *MergeOptions
	}{
		"MO001": {dst: obj, src: src, mo: nil, want: "{k1: v1, k2: v2, nested: {x: 1}}"},
		"MO002": {dst: obj, src: src, mo: &MergeOptions{}, want: "{k1: v1, k2: v2, k3: base3, nested: {x: 1, yy: 2}}"},
		"MO003": {dst: obj, src: src, mo: kmv(true), want: "{k1: base1, k2: v2, k3: base3, nested: {x: 1, yy: 2}}"},
		"MO004": {dst: "[b, c]", src: "[a, b]", mo: app, want: "[b, c, a]"},
		"MO005": {dst: "[b, c]", src: "[a, b]", mo: &MergeOptions{}, want: "[a, b]"},
		"MO006": {dst: "base", src: "hello", mo: kmv(true), want: "base"},
		"MO007": {dst: "base", src: "hello", mo: &MergeOptions{}, want: "hello"},
		"MO008": {dst: `{a: "", b: x}`, src: "{a: new, b: new}", mo: kmv(true), want: "{a: new, b: x}"},
		"MO009": {dst: "{a: 0, b: false}", src: "{a: 5, b: true}", mo: kmv(true), want: "{a: 5, b: true}"},
		"MO010": {dst: "{a: {}}", src: "{a: {z: 1}}", mo: kmv(true), want: "{a: {z: 1}}"},
		"MO011": {dst: "{a: 1}", src: "{a: null}", mo: kmv(true), want: "{a: 1}"},
		"MO012": {dst: "{a: 1}", src: "{a: null}", mo: &MergeOptions{}, want: "{a: null}"},
		"MO013": {dst: "{a: x}", src: `{a: ""}`, mo: &MergeOptions{}, want: `{a: ""}`},
		"MO014": {dst: "{a: {b: 1}}", src: "{a: {}}", mo: &MergeOptions{}, want: "{a: {b: 1}}"},
		"MO015": {dst: "{a: [1]}", src: "{a: []}", mo: &MergeOptions{}, want: "{a: []}"},
		"MO016": {dst: "{a: [1]}", src: "{a: [2]}", mo: kmv(true), want: "{a: [1]}"},
		"MO017": {dst: "{a: [1, 2]}", src: "{a: [2, 3]}", mo: app, want: "{a: [1, 2, 2, 3]}"},
		"MO018": {dst: "[1, 2]", src: "[2, 3]", mo: app, want: "[1, 2, 3]"},
		"MO019": {dst: "[{a: 1}]", src: "[{a: 1}, {b: 2}]", mo: app, want: "[{a: 1}, {b: 2}]"},
		"MO020": {dst: "{a: [1], b: x}", src: "{a: [2], b: y, c: z}", mo: both, want: "{a: [1, 2], b: x, c: z}"},
		"MO021": {dst: "[1]", src: "str", mo: app, want: "str"},
		"MO022": {dst: `""`, src: "src", mo: kmv(true), want: "src"},
		"MO023": {dst: "{a: 1}", src: "5", mo: kmv(true), want: "{a: 1}"},
		"MO024": {dst: "{a: 1}", src: "5", mo: &MergeOptions{}, want: "5"},
		"MO025": {dst: "{a: 2}", src: "{a: {b: 1}}", mo: kmv(true), want: "{a: 2}"},
		"MO026": {dst: "null", src: "{a: 1}", mo: kmv(true), want: "{a: 1}"},
		"MO027": {dst: "{a: 1}", src: "null", mo: kmv(true), want: "null"},
		"MO028": {dst: "[b, c]", src: "{k: v}", mo: &MergeOptions{}, want: "{k: v}"},
		"MO029": {dst: "{k: v}", src: "[a]", mo: kmv(true), want: "{k: v}"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, err := Merge(kubeValue(t, tc.dst), kubeValue(t, tc.src), tc.mo)
			if err != nil {
				t.Fatalf("Merge(...): unexpected error: %v", err)
			}
			if diff := cmp.Diff(kubeValue(t, tc.want), got); diff != "" {
				t.Errorf("Merge(%s, %s): -want, +got:\n%s", tc.dst, tc.src, diff)
			}
		})
	}
}

func TestExpandPatchSets(t *testing.T) {
	p := func(from string) Patch { return Patch{FromFieldPath: ptr(from)} }
	ref := func(name string) Patch { return Patch{Type: PatchTypePatchSet, PatchSetName: ptr(name)} }
	cases := map[string]struct {
		reason  string
		sets    []PatchSet
		patches []Patch
		want    []Patch
		err     string
	}{
		"PS001": {
			reason: "a PatchSet inside a PatchSet breaks everything, even if unused",
			sets:   []PatchSet{{Name: "a", Patches: []Patch{ref("b")}}},
			err:    "a patch in a PatchSet cannot be of type PatchSet",
		},
		"PS002": {
			reason:  "the last definition of a name wins",
			sets:    []PatchSet{{Name: "a", Patches: []Patch{p("one")}}, {Name: "a", Patches: []Patch{p("two")}}},
			patches: []Patch{ref("a")},
			want:    []Patch{p("two")},
		},
		"PS003": {
			reason:  "an unknown name is an error",
			patches: []Patch{ref("zz")},
			err:     "cannot find PatchSet by name zz",
		},
		"PS004": {
			reason:  "sets are inlined in place, in order",
			sets:    []PatchSet{{Name: "ps1", Patches: []Patch{p("P1"), p("P2")}}, {Name: "ps2", Patches: []Patch{p("P3"), p("P4")}}},
			patches: []Patch{ref("ps2"), p("P5"), ref("ps1")},
			want:    []Patch{p("P3"), p("P4"), p("P5"), p("P1"), p("P2")},
		},
		"MissingName": {
			reason:  "a PatchSet patch needs a name",
			patches: []Patch{{Type: PatchTypePatchSet}},
			err:     "PatchSetName is required by type PatchSet",
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, err := ExpandPatchSets(tc.sets, tc.patches)
			if diff := errContains(err, tc.err); diff != "" {
				t.Fatalf("\n%s\nExpandPatchSets(...): %s", tc.reason, diff)
			}
			if diff := cmp.Diff(tc.want, got); tc.err == "" && diff != "" {
				t.Errorf("\n%s\nExpandPatchSets(...): -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}
