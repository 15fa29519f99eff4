package cluster

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

func obj(o map[string]any) *unstructured.Unstructured { return &unstructured.Unstructured{Object: o} }

func TestRuns(t *testing.T) {
	comp := obj(map[string]any{"metadata": map[string]any{"name": "legacy", "labels": map[string]any{"provider": "aws", "tier": "dev"}}})
	cases := map[string]struct {
		reason string
		xr     *unstructured.Unstructured
		want   bool
	}{
		"CompositionRefNamesIt": {
			reason: "An XR whose spec.compositionRef names the Composition runs it.",
			xr:     obj(map[string]any{"spec": map[string]any{"compositionRef": map[string]any{"name": "legacy"}}}),
			want:   true,
		},
		"CompositionRefNamesAnother": {
			reason: "spec.compositionRef wins over a selector that would match.",
			xr: obj(map[string]any{"spec": map[string]any{
				"compositionRef":      map[string]any{"name": "other"},
				"compositionSelector": map[string]any{"matchLabels": map[string]any{"provider": "aws"}},
			}}),
			want: false,
		},
		"SelectorMatchesLabels": {
			reason: "Before Crossplane selects a Composition, a selector matching its labels picks it.",
			xr:     obj(map[string]any{"spec": map[string]any{"compositionSelector": map[string]any{"matchLabels": map[string]any{"provider": "aws"}}}}),
			want:   true,
		},
		"SelectorMissesALabel": {
			reason: "Every label of the selector must match.",
			xr:     obj(map[string]any{"spec": map[string]any{"compositionSelector": map[string]any{"matchLabels": map[string]any{"provider": "aws", "tier": "prod"}}}}),
			want:   false,
		},
		"NeitherRefNorSelector": {
			reason: "An XR that names no Composition and selects none runs none here (the XRD's default is not known to the reader).",
			xr:     obj(map[string]any{"spec": map[string]any{}}),
			want:   false,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, Runs(comp, tc.xr)); diff != "" {
				t.Errorf("%s\nRuns(...): -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}

func TestCompositeKind(t *testing.T) {
	cases := map[string]struct {
		reason  string
		comp    *unstructured.Unstructured
		want    schema.GroupVersionKind
		wantErr bool
	}{
		"TypeRef": {
			reason: "The XR kind is spec.compositeTypeRef's apiVersion and kind.",
			comp:   obj(map[string]any{"spec": map[string]any{"compositeTypeRef": map[string]any{"apiVersion": "example.org/v1alpha1", "kind": "XThing"}}}),
			want:   schema.GroupVersionKind{Group: "example.org", Version: "v1alpha1", Kind: "XThing"},
		},
		"NoTypeRef": {
			reason:  "A Composition without compositeTypeRef is an error.",
			comp:    obj(map[string]any{"metadata": map[string]any{"name": "c"}, "spec": map[string]any{}}),
			wantErr: true,
		},
		"BadAPIVersion": {
			reason:  "An unparsable apiVersion is an error.",
			comp:    obj(map[string]any{"spec": map[string]any{"compositeTypeRef": map[string]any{"apiVersion": "a/b/c", "kind": "XThing"}}}),
			wantErr: true,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, err := CompositeKind(tc.comp)
			if (err != nil) != tc.wantErr {
				t.Fatalf("%s\nCompositeKind(...): error %v, want error %t", tc.reason, err, tc.wantErr)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s\nCompositeKind(...): -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}

func TestPermissionString(t *testing.T) {
	cases := map[string]struct {
		reason string
		p      Permission
		want   string
	}{
		"ClusterWide": {
			reason: "A cluster-wide request names the resource with its group.",
			p:      Permission{Verb: "list", Group: "apiextensions.crossplane.io", Resource: "compositions"},
			want:   "list compositions.apiextensions.crossplane.io (cluster-wide)",
		},
		"CoreNamespaced": {
			reason: "A core resource has no group suffix; a namespaced request names its namespace.",
			p:      Permission{Verb: "get", Resource: "secrets", Namespace: "team-a"},
			want:   "get secrets in namespace team-a",
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, tc.p.String()); diff != "" {
				t.Errorf("%s\nString(): -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}
