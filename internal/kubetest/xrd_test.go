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

const testXRDV2 = `
apiVersion: apiextensions.crossplane.io/v2
kind: CompositeResourceDefinition
metadata:
  name: things.example.org
spec:
  group: example.org
  names: {kind: Thing, plural: things}
  defaultCompositionUpdatePolicy: Manual
  versions:
  - name: v1alpha1
    served: true
    referenceable: true
    additionalPrinterColumns:
    - {name: SIZE, type: string, jsonPath: .spec.size}
    schema:
      openAPIV3Schema:
        type: object
        x-kubernetes-validations:
        - {rule: "self.metadata.name.size() < 20", message: short names}
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

func TestCompositeCRDV2(t *testing.T) {
	parse := func(t *testing.T, scope string) *unstructured.Unstructured {
		t.Helper()
		x := &unstructured.Unstructured{}
		if err := yaml.Unmarshal([]byte(testXRDV2), &x.Object); err != nil {
			t.Fatal(err)
		}
		if scope != "" {
			x.Object["spec"].(map[string]any)["scope"] = scope
		}
		return x
	}
	get := func(u *unstructured.Unstructured, path ...string) any {
		v, _, _ := unstructured.NestedFieldNoCopy(u.Object, path...)
		return v
	}
	version := func(u *unstructured.Unstructured, path ...string) any {
		vs, _ := get(u, "spec", "versions").([]any)
		v, _ := vs[0].(map[string]any)
		return get(&unstructured.Unstructured{Object: v}, path...)
	}
	spec := []string{"schema", "openAPIV3Schema", "properties", "spec", "properties"}
	crossplane := append(append([]string{}, spec...), "crossplane", "properties")
	refProps := append(append([]string{}, crossplane...), "resourceRefs", "items", "properties")

	namespaced, err := CompositeCRDV2(parse(t, ""))
	if err != nil {
		t.Fatalf("CompositeCRDV2(): %v", err)
	}
	cluster, err := CompositeCRDV2(parse(t, "Cluster"))
	if err != nil {
		t.Fatalf("CompositeCRDV2(Cluster): %v", err)
	}
	columns := func(u *unstructured.Unstructured) []any {
		var names []any
		cols, _ := version(u, "additionalPrinterColumns").([]any)
		for _, c := range cols {
			names = append(names, c.(map[string]any)["name"])
		}
		return names
	}
	cases := map[string]struct {
		reason string
		got    any
		want   any
	}{
		"Name":              {"The XR CRD is named as the XRD.", namespaced.GetName(), "things.example.org"},
		"NamespacedDefault": {"A v2 XRD without a scope defines namespaced XRs.", get(namespaced, "spec", "scope"), "Namespaced"},
		"ClusterScope":      {"A Cluster XRD defines cluster-scoped XRs.", get(cluster, "spec", "scope"), "Cluster"},
		"XRDSpecKept": {"The XRD's spec fields are kept.",
			version(namespaced, append(append([]string{}, spec...), "size", "type")...), "string"},
		"MachineryUnderSpecCrossplane": {"compositionRef is under spec.crossplane, not spec.",
			version(namespaced, append(append([]string{}, crossplane...), "compositionRef", "required")...), []any{"name"}},
		"NoLegacyCompositionRef": {"A modern XR has no spec.compositionRef.",
			version(namespaced, append(append([]string{}, spec...), "compositionRef")...), nil},
		"NoClaimRef": {"A modern XR has no spec.claimRef.",
			version(namespaced, append(append([]string{}, spec...), "claimRef")...), nil},
		"NoWriteConnectionSecretToRef": {"A modern XR has no spec.writeConnectionSecretToRef from Crossplane.",
			version(namespaced, append(append([]string{}, spec...), "writeConnectionSecretToRef")...), nil},
		"UpdatePolicyDefault": {"defaultCompositionUpdatePolicy becomes the default of spec.crossplane.compositionUpdatePolicy.",
			version(namespaced, append(append([]string{}, crossplane...), "compositionUpdatePolicy", "default")...), "Manual"},
		"NamespacedRefsHaveNoNamespace": {"A namespaced XR cannot refer to composed resources in other namespaces.",
			version(namespaced, append(append([]string{}, refProps...), "namespace")...), nil},
		"ClusterRefsHaveNamespace": {"A cluster-scoped XR's resourceRefs carry a namespace.",
			version(cluster, append(append([]string{}, refProps...), "namespace", "type")...), "string"},
		"StatusHasOnlyConditions": {"The XRD's status fields and conditions, no claim or connection fields.",
			len(version(namespaced, "schema", "openAPIV3Schema", "properties", "status", "properties").(map[string]any)), 2},
		"RootValidationsKept": {"The schema's own CEL rules are carried over.",
			len(version(namespaced, "schema", "openAPIV3Schema", "x-kubernetes-validations").([]any)), 1},
		"PrinterColumns": {"The XRD's printer columns, then Crossplane's.",
			columns(namespaced), []any{"SIZE", "SYNCED", "READY", "COMPOSITION", "COMPOSITIONREVISION", "AGE"}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, tc.got); diff != "" {
				t.Errorf("%s\nCompositeCRDV2(): -want, +got:\n%s", tc.reason, diff)
			}
		})
	}

	if _, err := CompositeCRDV2(parse(t, "LegacyCluster")); err == nil {
		t.Errorf("CompositeCRDV2() of a LegacyCluster XRD: want an error, got none")
	}
}

func TestCrossplaneV2CRDs(t *testing.T) {
	crds, err := CrossplaneV2CRDs()
	if err != nil {
		t.Fatalf("CrossplaneV2CRDs(): %v", err)
	}
	var got []string
	for _, c := range crds {
		got = append(got, c.GetName())
	}
	want := []string{
		"compositeresourcedefinitions.apiextensions.crossplane.io",
		"compositionrevisions.apiextensions.crossplane.io",
		"compositions.apiextensions.crossplane.io",
		"environmentconfigs.apiextensions.crossplane.io",
		"configurations.pkg.crossplane.io",
		"deploymentruntimeconfigs.pkg.crossplane.io",
		"functions.pkg.crossplane.io",
		"providers.pkg.crossplane.io",
		"clusterusages.protection.crossplane.io",
		"usages.protection.crossplane.io",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("CrossplaneV2CRDs(): -want, +got names:\n%s", diff)
	}
}
