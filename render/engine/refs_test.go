package engine

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestObservedNamespacedResourceRefs checks that observed resources given
// without XR references are referenced as Crossplane v1.20.11 references
// them, namespace included, so the legacy composer finds the object and
// keeps its namespace.
func TestObservedNamespacedResourceRefs(t *testing.T) {
	comp := `
apiVersion: apiextensions.crossplane.io/v1
kind: Composition
metadata: {name: apps}
spec:
  compositeTypeRef: {apiVersion: example.org/v1, kind: XApp}
  resources:
  - name: cm
    base: {apiVersion: v1, kind: ConfigMap, data: {a: b}}
`
	xr := `{apiVersion: example.org/v1, kind: XApp, metadata: {name: app}}`
	observed := `
apiVersion: v1
kind: ConfigMap
metadata: {name: app-abcde, namespace: team-a, annotations: {crossplane.io/composition-resource-name: cm}}
data: {a: b}
`
	res, err := Render(context.Background(), Request{XR: obj(t, xr), Composition: obj(t, comp), Observed: []map[string]any{obj(t, observed)}}, Options{})
	if err != nil {
		t.Fatalf("Render(...): %v", err)
	}
	type got struct {
		Namespace any
		Refs      any
	}
	want := got{
		Namespace: "team-a",
		Refs:      []any{map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "namespace": "team-a", "name": "app-abcde"}},
	}
	g := got{Refs: valueAt(res.Outcome.EffectiveXR, "spec", "resourceRefs")}
	for _, cd := range res.Outcome.Composed {
		g.Namespace = valueAt(cd.Desired, "metadata", "namespace")
	}
	if diff := cmp.Diff(want, g); diff != "" {
		t.Errorf("Render(...): -want, +got:\n%s", diff)
	}
}
