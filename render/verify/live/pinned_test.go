package live

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/xpmigrate/xpmigrate/internal/cluster"
	"github.com/xpmigrate/xpmigrate/render/verify"
)

// TestPairForPinned: an XR runs the CompositionRevision it refers to, not
// the legacy Composition, when its compositionUpdatePolicy is Manual, or
// when it is Automatic with a compositionRevisionSelector the Composition's
// labels do not match (Crossplane keeps it on the newest revision the
// selector matches); and only when that revision differs.
func TestPairForPinned(t *testing.T) {
	legacy := verify.Document{Path: "legacy.yaml", Data: []byte(legacyYAML)}
	comp, err := composition(legacy)
	if err != nil {
		t.Fatal(err)
	}
	comp.SetLabels(map[string]string{"channel": "beta"})
	current := &pair{legacy: legacy, obj: comp.Object}
	// The old revision's Bucket is in another region.
	old := comp.DeepCopy()
	res, _, _ := unstructured.NestedSlice(old.Object, "spec", "resources")
	res[0].(map[string]any)["base"].(map[string]any)["spec"].(map[string]any)["forProvider"].(map[string]any)["region"] = "ap-south-1"
	if err := unstructured.SetNestedSlice(old.Object, res, "spec", "resources"); err != nil {
		t.Fatal(err)
	}
	rev := func(spec map[string]any) *unstructured.Unstructured {
		s := map[string]any{}
		for k, v := range spec {
			s[k] = v
		}
		s["revision"] = int64(1)
		return &unstructured.Unstructured{Object: map[string]any{"apiVersion": "apiextensions.crossplane.io/v1", "kind": "CompositionRevision",
			"metadata": map[string]any{"name": "buckets-1", "labels": map[string]any{"channel": "stable"}}, "spec": s}}
	}
	oldRev := rev(old.Object["spec"].(map[string]any))
	sameRev := rev(comp.Object["spec"].(map[string]any))
	xr := func(policy string, selector map[string]any) *unstructured.Unstructured {
		spec := map[string]any{"compositionRef": map[string]any{"name": "buckets"}, "compositionRevisionRef": map[string]any{"name": "buckets-1"}}
		if policy != "" {
			spec["compositionUpdatePolicy"] = policy
		}
		if selector != nil {
			spec["compositionRevisionSelector"] = map[string]any{"matchLabels": selector}
		}
		return &unstructured.Unstructured{Object: map[string]any{"apiVersion": "example.org/v1alpha1", "kind": "XThing", "metadata": map[string]any{"name": "x"}, "spec": spec}}
	}
	cases := map[string]struct {
		reason string
		xr     *unstructured.Unstructured
		rev    *unstructured.Unstructured
		want   bool
	}{
		"Manual": {
			reason: "A Manual XR runs the revision it refers to.",
			xr:     xr("Manual", nil), rev: oldRev, want: true,
		},
		"AutomaticWithoutSelector": {
			reason: "An Automatic XR without a revision selector runs the newest revision: the legacy Composition.",
			xr:     xr("Automatic", nil), rev: oldRev,
		},
		"DefaultPolicyWithoutSelector": {
			reason: "No policy is Automatic.",
			xr:     xr("", nil), rev: oldRev,
		},
		"AutomaticSelectorNotMatchingComposition": {
			reason: "An Automatic XR whose revision selector the Composition's labels do not match stays on the revision it refers to.",
			xr:     xr("Automatic", map[string]any{"channel": "stable"}), rev: oldRev, want: true,
		},
		"DefaultPolicySelectorNotMatchingComposition": {
			reason: "The same without an explicit policy.",
			xr:     xr("", map[string]any{"channel": "stable"}), rev: oldRev, want: true,
		},
		"AutomaticSelectorMatchingComposition": {
			reason: "An Automatic XR whose revision selector the Composition matches runs the Composition.",
			xr:     xr("Automatic", map[string]any{"channel": "beta"}), rev: oldRev,
		},
		"AutomaticSelectorSameRevision": {
			reason: "A revision that is the Composition is not a pin.",
			xr:     xr("Automatic", map[string]any{"channel": "stable"}), rev: sameRev,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			o := Options{}
			o.Verify.Convert = testConvert(t)
			live := &cluster.Composite{XR: tc.xr, RevisionName: "buckets-1", Revision: tc.rev}
			p, err := pairFor(current, map[string]*pair{}, live, o)
			if err != nil {
				t.Fatalf("pairFor(...): %v", err)
			}
			if diff := cmp.Diff(tc.want, p.pinned); diff != "" {
				t.Errorf("\n%s\npairFor(...).pinned: -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}
