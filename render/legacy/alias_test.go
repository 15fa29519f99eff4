package legacy

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/xpmigrate/xpmigrate/internal/jsonobj"
	"github.com/xpmigrate/xpmigrate/render"
)

// outcomeRoots are the objects an Outcome holds, by a name for messages.
func outcomeRoots(o *render.Outcome) map[string]map[string]any {
	out := map[string]map[string]any{"XR": o.XR, "EffectiveXR": o.EffectiveXR}
	for i, r := range o.Composed {
		out[fmt.Sprintf("Composed[%d].Desired", i)] = r.Desired
		out[fmt.Sprintf("Composed[%d].Applied", i)] = r.Applied
	}
	return out
}

// scribble changes every object and list in v in place.
func scribble(v any) {
	switch t := v.(type) {
	case map[string]any:
		for _, e := range t {
			scribble(e)
		}
		t["x-scribbled"] = true
	case []any:
		for i, e := range t {
			if _, ok := e.(map[string]any); ok {
				scribble(e)
				continue
			}
			if _, ok := e.([]any); ok {
				scribble(e)
				continue
			}
			t[i] = "scribbled"
		}
	}
}

// TestComposeOutcomeSharesNothing checks that an Outcome's objects share
// nothing with each other, with the inputs, or with the Composer: changing
// one changes nothing else, and the Composer composes the same again. The
// Composition makes two templates render one object (the second patches
// the first's), merges on apply and on persist, and has a base status.
func TestComposeOutcomeSharesNothing(t *testing.T) {
	c := composition(t, `
patchSets:
- name: common
  patches:
  - {fromFieldPath: metadata.labels, toFieldPath: metadata.labels, policy: {mergeOptions: {keepMapValues: true}}}
resources:
- name: a
  base: {apiVersion: ex.org/v1, kind: CD, metadata: {name: shared, labels: {t: a}}, spec: {list: [1, {k: v}]}, status: {s: base}}
  patches:
  - {type: PatchSet, patchSetName: common}
  - {fromFieldPath: spec.str, toFieldPath: spec.str}
  - {type: ToCompositeFieldPath, fromFieldPath: spec.list, toFieldPath: status.list}
  - {type: ToCompositeFieldPath, fromFieldPath: metadata.labels, toFieldPath: metadata.labels, policy: {mergeOptions: {keepMapValues: true}}}
  readinessChecks: [{type: None}]
- name: b
  base: {apiVersion: ex.org/v1, kind: CD, metadata: {name: shared}, spec: {other: [x]}}
  patches:
  - {type: PatchSet, patchSetName: common}
  readinessChecks: [{type: None}]
- name: c
  base: {apiVersion: ex.org/v1, kind: CD, spec: {nested: {deep: {v: 1}}}}
  patches:
  - {fromFieldPath: spec.num, toFieldPath: spec.nested.deep.n}
`)
	xr := object(t, `
apiVersion: ex.org/v1
kind: XR
metadata: {name: xr1, uid: u-1, labels: {team: a}}
spec: {str: hello, num: 3}
`)
	p := NewComposer(c)
	var observed []map[string]any
	for loop := 1; loop <= 3; loop++ {
		inXR := jsonobj.DeepCopy(xr)
		var inObserved []map[string]any
		for _, o := range observed {
			inObserved = append(inObserved, jsonobj.DeepCopy(o))
		}
		out, err := p.Compose(xr, observed, Options{NameGenerator: sequence()})
		if err != nil {
			t.Fatalf("loop %d: Compose(...): %v", loop, err)
		}
		again, _ := p.Compose(xr, observed, Options{NameGenerator: sequence()})
		if diff := cmp.Diff(again, out); diff != "" {
			t.Fatalf("loop %d: a second Compose differs: -want, +got:\n%s", loop, diff)
		}
		next := clusterAfter(observed, out)
		nextXR := jsonobj.DeepCopy(out.EffectiveXR)

		roots := outcomeRoots(out)
		for name, root := range roots {
			if root == nil {
				continue
			}
			want := map[string]map[string]any{}
			for n, r := range roots {
				want[n] = jsonobj.DeepCopy(r)
			}
			scribble(root)
			for n, r := range roots {
				if n == name {
					continue
				}
				if diff := cmp.Diff(want[n], r); diff != "" {
					t.Errorf("loop %d: changing %s changed %s: -want, +got:\n%s", loop, name, n, diff)
				}
			}
			roots[name] = want[name]
		}
		if diff := cmp.Diff(inXR, xr); diff != "" {
			t.Errorf("loop %d: Compose changed its XR: -want, +got:\n%s", loop, diff)
		}
		if diff := cmp.Diff(inObserved, observed); diff != "" {
			t.Errorf("loop %d: Compose changed the observed objects: -want, +got:\n%s", loop, diff)
		}
		// The outcomes were scribbled over: the Composer must not care.
		third, _ := p.Compose(xr, observed, Options{NameGenerator: sequence()})
		fresh, _ := Compose(xr, c, observed, Options{NameGenerator: sequence()})
		if diff := cmp.Diff(fresh, third); diff != "" {
			t.Errorf("loop %d: after its outcomes changed, the Composer composes differently: -fresh, +got:\n%s", loop, diff)
		}
		xr, observed = nextXR, next
	}
}
