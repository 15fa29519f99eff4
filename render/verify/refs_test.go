package verify

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestNamespacedResourceRefs checks that the references both engines keep
// for namespaced composed resources compare equal: Crossplane v1.20.11
// writes a namespaced object's namespace into spec.resourceRefs in either
// mode (measured on the real engines).
func TestNamespacedResourceRefs(t *testing.T) {
	xr := `
apiVersion: example.org/v1
kind: XApp
metadata: {name: app, uid: 6f1c2d3e-0000-4000-8000-000000000001}
spec: {ns: team-a}
`
	cases := map[string]struct {
		reason string
		comp   string
		want   []string
	}{
		"NamespacePatchedNamedTemplate": {
			reason: "A named template whose metadata.namespace a patch sets.",
			comp: `
apiVersion: apiextensions.crossplane.io/v1
kind: Composition
metadata: {name: app}
spec:
  compositeTypeRef: {apiVersion: example.org/v1, kind: XApp}
  resources:
  - name: config
    base: {apiVersion: kubernetes.crossplane.io/v1alpha1, kind: Object, spec: {forProvider: {}}}
    patches:
    - {fromFieldPath: spec.ns, toFieldPath: metadata.namespace}
`,
		},
		"NamespacedKindAndClusterScopedKind": {
			reason: "Two templates, one namespaced by a patch, one cluster scoped: the references are ordered differently but equal.",
			comp: `
apiVersion: apiextensions.crossplane.io/v1
kind: Composition
metadata: {name: app}
spec:
  compositeTypeRef: {apiVersion: example.org/v1, kind: XApp}
  resources:
  - name: role
    base: {apiVersion: rbac.example.org/v1, kind: ClusterThing}
  - name: cm
    base: {apiVersion: v1, kind: ConfigMap, data: {a: b}}
    patches:
    - {fromFieldPath: spec.ns, toFieldPath: metadata.namespace}
`,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			r := verifyYAML(t, tc.comp, "", xr, Options{Convert: referenceConvert})
			if diff := cmp.Diff(tc.want, summary(r)); diff != "" {
				dump(t, r)
				t.Errorf("%s\nVerify(...): -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}
