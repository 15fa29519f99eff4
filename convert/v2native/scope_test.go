package v2native

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestClusterScopedKind(t *testing.T) {
	cases := map[string]struct {
		reason           string
		apiVersion, kind string
		want             bool
	}{
		"CoreNamespace":   {reason: "A Namespace is cluster-scoped.", apiVersion: "v1", kind: "Namespace", want: true},
		"CoreConfigMap":   {reason: "A ConfigMap is namespaced.", apiVersion: "v1", kind: "ConfigMap", want: false},
		"WholeGroup":      {reason: "Every kind of pkg.crossplane.io is cluster-scoped.", apiVersion: "pkg.crossplane.io/v1", kind: "Provider", want: true},
		"ManagedResource": {reason: "Managed resources are not listed: v2 composes their namespaced twins.", apiVersion: "s3.aws.upbound.io/v1beta1", kind: "Bucket", want: false},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, ClusterScopedKind(tc.apiVersion, tc.kind)); diff != "" {
				t.Errorf("%s\nClusterScopedKind(%q, %q): -want, +got:\n%s", tc.reason, tc.apiVersion, tc.kind, diff)
			}
		})
	}
}
