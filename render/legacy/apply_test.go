package legacy

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestComposeApplyTimeMerge covers vectors AM-001…AM-006 (docs/semantics/legacy.md#test-vectors): the
// live object has labels {a: cur, b: cur} and spec.arr [x, y]; the XR's
// labels {b: des, c: des} and spec.arr [y, z] are patched into the desired
// object, which is then merged with the live value before it is sent.
func TestComposeApplyTimeMerge(t *testing.T) {
	const xr = `
apiVersion: ex.org/v1
kind: XR
metadata: {name: xr1, uid: u-1, labels: {crossplane.io/composite: xr1, b: des, c: des}}
spec:
  arr: ["y", z]
  resourceRefs: [{apiVersion: ex.org/v1, kind: CD, name: live}]
`
	const live = `
apiVersion: ex.org/v1
kind: CD
metadata:
  name: live
  annotations: {crossplane.io/composition-resource-name: cd}
  labels: {a: cur, b: cur}
  ownerReferences: [{apiVersion: ex.org/v1, kind: XR, name: xr1, uid: u-1, controller: true}]
spec: {arr: [x, "y"]}
`
	// Crossplane's own labels, as metadata rendering stamps them.
	own := map[string]any{"crossplane.io/composite": "xr1", "crossplane.io/claim-name": "", "crossplane.io/claim-namespace": ""}
	with := func(extra map[string]any) map[string]any {
		out := map[string]any{}
		for k, v := range own {
			out[k] = v
		}
		for k, v := range extra {
			out[k] = v
		}
		return out
	}

	type want struct {
		sentLabels    any
		sentArr       any
		appliedLabels any
		appliedArr    any
	}
	cases := map[string]struct {
		reason string
		patch  string
		want   want
	}{
		"AM001KeepMapValues": {
			reason: "With keepMapValues the live labels win; only new keys are added.",
			patch:  "{fromFieldPath: metadata.labels, toFieldPath: metadata.labels, policy: {mergeOptions: {keepMapValues: true}}}",
			want: want{
				sentLabels:    with(map[string]any{"a": "cur", "b": "cur", "c": "des"}),
				appliedLabels: with(map[string]any{"a": "cur", "b": "cur", "c": "des"}),
				appliedArr:    []any{"x", "y"},
			},
		},
		"AM002EmptyMergeOptions": {
			reason: "mergeOptions {} deep-merges with override: desired values win, live-only keys stay.",
			patch:  "{fromFieldPath: metadata.labels, toFieldPath: metadata.labels, policy: {mergeOptions: {}}}",
			want: want{
				sentLabels:    with(map[string]any{"a": "cur", "b": "des", "c": "des"}),
				appliedLabels: with(map[string]any{"a": "cur", "b": "des", "c": "des"}),
				appliedArr:    []any{"x", "y"},
			},
		},
		"AM003AppendSlice": {
			reason: "appendSlice appends the desired elements the live list lacks.",
			patch:  "{fromFieldPath: spec.arr, toFieldPath: spec.arr, policy: {mergeOptions: {appendSlice: true}}}",
			want: want{
				sentLabels:    own,
				sentArr:       []any{"x", "y", "z"},
				appliedLabels: with(map[string]any{"a": "cur", "b": "cur"}),
				appliedArr:    []any{"x", "y", "z"},
			},
		},
		"AM004NoExplicitToFieldPath": {
			reason: "Without an explicit toFieldPath there is no apply-time merge.",
			patch:  "{fromFieldPath: spec.arr, policy: {mergeOptions: {appendSlice: true}}}",
			want: want{
				sentLabels:    own,
				sentArr:       []any{"y", "z"},
				appliedLabels: with(map[string]any{"a": "cur", "b": "cur"}),
				appliedArr:    []any{"y", "z"},
			},
		},
		"AM005PolicyWithoutMergeOptions": {
			reason: "A policy without mergeOptions merges with nil options: the desired value replaces.",
			patch:  "{fromFieldPath: spec.arr, toFieldPath: spec.arr, policy: {fromFieldPath: Required}}",
			want: want{
				sentLabels:    own,
				sentArr:       []any{"y", "z"},
				appliedLabels: with(map[string]any{"a": "cur", "b": "cur"}),
				appliedArr:    []any{"y", "z"},
			},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			c := composition(t, `
resources:
- name: cd
  base: {apiVersion: ex.org/v1, kind: CD}
  patches: [`+tc.patch+`]
`)
			out, err := Compose(object(t, xr), c, objects(t, live), Options{})
			if err != nil {
				t.Fatalf("\n%s\nCompose(...): %v", tc.reason, err)
			}
			r := out.Composed[0]
			got := want{
				sentLabels:    dig(r.Desired, "metadata", "labels"),
				sentArr:       dig(r.Desired, "spec", "arr"),
				appliedLabels: dig(r.Applied, "metadata", "labels"),
				appliedArr:    dig(r.Applied, "spec", "arr"),
			}
			if diff := cmp.Diff(tc.want, got, cmp.AllowUnexported(want{})); diff != "" {
				t.Errorf("\n%s\nCompose(...): -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}

// TestComposeApplyTimeMergeLiveWins covers AM-006 (and Q-33): once a key
// exists on the live object, keepMapValues never lets the XR change it.
func TestComposeApplyTimeMergeLiveWins(t *testing.T) {
	c := composition(t, `
resources:
- name: cd
  base: {apiVersion: ex.org/v1, kind: CD}
  patches: [{fromFieldPath: metadata.labels, toFieldPath: metadata.labels, policy: {mergeOptions: {keepMapValues: true}}}]
`)
	xr := object(t, `
apiVersion: ex.org/v1
kind: XR
metadata: {name: xr1, uid: u-1, labels: {crossplane.io/composite: xr1, b: des, c: des}}
spec: {resourceRefs: [{apiVersion: ex.org/v1, kind: CD, name: live}]}
`)
	live := objects(t, `
apiVersion: ex.org/v1
kind: CD
metadata: {name: live, annotations: {crossplane.io/composition-resource-name: cd}, labels: {a: cur, b: cur}}
`)
	out, err := Compose(xr, c, live, Options{})
	if err != nil {
		t.Fatalf("Compose(...): %v", err)
	}
	// A second reconcile against the patched object changes nothing.
	out2, err := Compose(out.EffectiveXR, c, []map[string]any{out.Composed[0].Applied}, Options{})
	if err != nil {
		t.Fatalf("Compose(...): %v", err)
	}
	want := map[string]any{"a": "cur", "b": "cur", "c": "des", "crossplane.io/composite": "xr1", "crossplane.io/claim-name": "", "crossplane.io/claim-namespace": ""}
	if diff := cmp.Diff(want, dig(out2.Composed[0].Applied, "metadata", "labels")); diff != "" {
		t.Errorf("Compose(...): the XR value b=des is never applied: -want, +got:\n%s", diff)
	}
}

// dig reads a nested value.
func dig(o map[string]any, path ...string) any {
	var v any = o
	for _, p := range path {
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = m[p]
	}
	return v
}
