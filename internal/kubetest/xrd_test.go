package kubetest

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/yaml"
)

const testXRD = `
apiVersion: apiextensions.crossplane.io/v1
kind: CompositeResourceDefinition
metadata:
  name: xthings.example.org
spec:
  group: example.org
  names: {kind: XThing, plural: xthings}
  claimNames: {kind: Thing, plural: things}
  defaultCompositionUpdatePolicy: Manual
  versions:
  - name: v1alpha1
    served: true
    referenceable: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            required: [size]
            properties:
              size: {type: string}
          status:
            type: object
            properties:
              arn: {type: string}
`

func TestCompositeCRDs(t *testing.T) {
	x := &unstructured.Unstructured{}
	if err := yaml.Unmarshal([]byte(testXRD), &x.Object); err != nil {
		t.Fatal(err)
	}
	xr, claim, err := CompositeCRDs(x)
	if err != nil {
		t.Fatalf("CompositeCRDs(): %v", err)
	}
	get := func(u *unstructured.Unstructured, path ...string) any {
		v, _, _ := unstructured.NestedFieldNoCopy(u.Object, path...)
		return v
	}
	version := func(u *unstructured.Unstructured) map[string]any {
		vs, _ := get(u, "spec", "versions").([]any)
		v, _ := vs[0].(map[string]any)
		return v
	}
	xrSpec := []string{"schema", "openAPIV3Schema", "properties", "spec"}
	cases := map[string]struct {
		reason string
		got    any
		want   any
	}{
		"XRName":  {"The XR CRD is named as the XRD.", xr.GetName(), "xthings.example.org"},
		"XRScope": {"XRs are cluster-scoped in Crossplane v1.", get(xr, "spec", "scope"), "Cluster"},
		"XRCategories": {"The XR CRD is in the composite category.",
			get(xr, "spec", "names", "categories"), []any{"composite"}},
		"Storage": {"A referenceable version is the storage version.", version(xr)["storage"], true},
		"StatusSubresource": {"Crossplane's CRDs have a status subresource.",
			version(xr)["subresources"], map[string]any{"status": map[string]any{}}},
		"XRDSpecKept": {"The XRD's spec fields and required list are kept.",
			get(&unstructured.Unstructured{Object: version(xr)}, append(xrSpec, "required")...), []any{"size"}},
		"ResourceRefs": {"Crossplane's resourceRefs is added as an atomic list.",
			get(&unstructured.Unstructured{Object: version(xr)}, append(xrSpec, "properties", "resourceRefs", "x-kubernetes-list-type")...), "atomic"},
		"UpdatePolicyDefault": {"defaultCompositionUpdatePolicy becomes the default of spec.compositionUpdatePolicy.",
			get(&unstructured.Unstructured{Object: version(xr)}, append(xrSpec, "properties", "compositionUpdatePolicy", "default")...), "Manual"},
		"XRStatus": {"The XRD's status fields and Crossplane's conditions are both in the status schema.",
			len(get(&unstructured.Unstructured{Object: version(xr)}, "schema", "openAPIV3Schema", "properties", "status", "properties").(map[string]any)), 4},
		"ClaimName":  {"The claim CRD is named after the claim plural and the group.", claim.GetName(), "things.example.org"},
		"ClaimScope": {"Claims are namespaced.", get(claim, "spec", "scope"), "Namespaced"},
		"ClaimHasResourceRef": {"A claim refers to its XR by spec.resourceRef.",
			get(&unstructured.Unstructured{Object: version(claim)}, append(xrSpec, "properties", "resourceRef", "required")...), []any{"apiVersion", "kind", "name"}},
		"ClaimHasNoClaimRef": {"A claim has no spec.claimRef.",
			get(&unstructured.Unstructured{Object: version(claim)}, append(xrSpec, "properties", "claimRef")...), nil},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, tc.got); diff != "" {
				t.Errorf("%s\nCompositeCRDs(): -want, +got:\n%s", tc.reason, diff)
			}
		})
	}

	delete(x.Object["spec"].(map[string]any), "claimNames")
	if _, claim, err := CompositeCRDs(x); err != nil || claim != nil {
		t.Errorf("CompositeCRDs() of an XRD without claimNames: want no claim CRD, got %v, %v", claim, err)
	}
}
