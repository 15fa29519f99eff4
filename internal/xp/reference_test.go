package xp

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestReferenceObject(t *testing.T) {
	type args struct {
		apiVersion, kind, namespace, name string
	}
	cases := map[string]struct {
		reason string
		args   args
		want   map[string]any
	}{
		"Full": {
			reason: "A namespaced reference keeps all four members.",
			args:   args{apiVersion: "v1", kind: "ConfigMap", namespace: "ns", name: "cm"},
			want:   map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "namespace": "ns", "name": "cm"},
		},
		"ClusterScoped": {
			reason: "An empty namespace is left out, as omitempty leaves it out.",
			args:   args{apiVersion: "apiextensions.crossplane.io/v1beta1", kind: "EnvironmentConfig", name: "e"},
			want:   map[string]any{"apiVersion": "apiextensions.crossplane.io/v1beta1", "kind": "EnvironmentConfig", "name": "e"},
		},
		"Empty": {
			reason: "An empty reference is an empty object.",
			want:   map[string]any{},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got := ReferenceObject(tc.args.apiVersion, tc.args.kind, tc.args.namespace, tc.args.name)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("\n%s\nReferenceObject(...): -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}
