package engine

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/xpmigrate/xpmigrate/render"
)

// TestNextStateComposedStatus checks what the next reconcile observes of a
// pipeline's composed resource: the API server ignores the status of a
// desired composed resource (docs/semantics/pipeline.md#desired-state: a composed resource's status
// in desired state counts for nothing), on create as on update.
func TestNextStateComposedStatus(t *testing.T) {
	xr := obj(t, "apiVersion: example.org/v1\nkind: XThing\nmetadata: {name: demo, uid: u1}\n")
	desired := "apiVersion: nop.crossplane.io/v1alpha1\nkind: NopResource\nmetadata:\n  generateName: demo-\n  annotations: {crossplane.io/composition-resource-name: r}\nspec: {forProvider: {a: b}}\nstatus: {atProvider: {zone: from-base}}\n"
	cases := map[string]struct {
		reason   string
		observed []map[string]any
		want     any
	}{
		"Created": {
			reason: "A new resource is created without the status its desired state carries.",
			want:   nil,
		},
		"Updated": {
			reason:   "An existing resource keeps its own status.",
			observed: []map[string]any{obj(t, "apiVersion: nop.crossplane.io/v1alpha1\nkind: NopResource\nmetadata:\n  name: demo-abcde\n  annotations: {crossplane.io/composition-resource-name: r}\nstatus: {atProvider: {zone: eu-west-1a}}\n")},
			want:     map[string]any{"atProvider": map[string]any{"zone": "eu-west-1a"}},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			d := obj(t, desired)
			out := &render.Outcome{EffectiveXR: xr, Composed: []render.ComposedResource{{Name: "r", Index: -1, Desired: d, Applied: d, Rendered: true}}}
			_, next := nextState("Pipeline", xr, out, tc.observed)
			if len(next) != 1 {
				t.Fatalf("\n%s\nnextState(...): want one object, got %d", tc.reason, len(next))
			}
			if diff := cmp.Diff(tc.want, next[0]["status"]); diff != "" {
				t.Errorf("\n%s\nnextState(...) status: -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}
