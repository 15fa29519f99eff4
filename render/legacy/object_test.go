package legacy

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/xpmigrate/xpmigrate/internal/jsonobj"
)

// TestMergePatch checks the RFC 7386 merge the offline apply model uses
// (docs/semantics/legacy.md#the-offline-cluster, FL-011…FL-013).
func TestMergePatch(t *testing.T) {
	cases := map[string]struct {
		reason string
		target string
		patch  string
		want   string
	}{
		"KeepsUnmentioned": {reason: "Fields the patch does not mention stay.", target: "{a: 1, b: 2}", patch: "{b: 3}", want: "{a: 1, b: 3}"},
		"NullDeletes":      {reason: "A null deletes.", target: "{a: 1, b: 2}", patch: "{b: null}", want: "{a: 1}"},
		"ObjectsMerge":     {reason: "Objects merge key by key.", target: "{o: {a: 1, b: 2}}", patch: "{o: {b: null, c: 3}}", want: "{o: {a: 1, c: 3}}"},
		"ListsReplace":     {reason: "Lists are replaced.", target: "{l: [1, 2, 3]}", patch: "{l: [4]}", want: "{l: [4]}"},
		"ObjectOverScalar": {reason: "An object replaces a scalar, without its nulls.", target: "{o: 1}", patch: "{o: {a: 1, b: null}}", want: "{o: {a: 1}}"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got := jsonobj.MergePatch(object(t, tc.target), object(t, tc.patch))
			if diff := cmp.Diff(object(t, tc.want), got); diff != "" {
				t.Errorf("\n%s\nmergePatch(...): -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}

// TestDefaultNameGenerator checks that the default generator makes names
// as the API server does, deterministically.
func TestDefaultNameGenerator(t *testing.T) {
	gen := newNameGenerator(object(t, xr1), nil)
	a := gen("xr1-", "A", 0)
	if diff := cmp.Diff(a, gen("xr1-", "A", 0)); diff != "" {
		t.Errorf("gen(...) is not deterministic: -first, +second:\n%s", diff)
	}
	if a == gen("xr1-", "B", 0) || a == gen("xr1-", "A", 1) {
		t.Errorf("gen(...): templates and attempts should get different names, got %q for all", a)
	}
	suffix := strings.TrimPrefix(a, "xr1-")
	if len(suffix) != 5 || strings.Trim(suffix, "bcdfghjklmnpqrstvwxz2456789") != "" {
		t.Errorf("gen(...): want 5 characters of %q after the prefix, got %q", "bcdfghjklmnpqrstvwxz2456789", a)
	}
}

// TestComposeDeterministic composes the same inputs twice with the default
// name generator and expects the same Outcome.
func TestComposeDeterministic(t *testing.T) {
	c := corpusComposition(t, "vfarcic__devops-toolkit-crossplane/packages/k8s/eks.yaml")
	xr := corpusXR(t, "vfarcic__devops-toolkit-crossplane/examples/aws-eks-no-claim.yaml", c)
	first, err := Compose(xr, c, nil, Options{})
	if err != nil {
		t.Fatalf("Compose(...): %v", err)
	}
	second, err := Compose(xr, c, nil, Options{})
	if err != nil {
		t.Fatalf("Compose(...): %v", err)
	}
	if diff := cmp.Diff(first, second); diff != "" {
		t.Errorf("Compose(...) twice: -first, +second:\n%s", diff)
	}
}

// TestComposeDoesNotModifyInputs checks that Compose leaves its arguments
// alone.
func TestComposeDoesNotModifyInputs(t *testing.T) {
	xr := object(t, xr1)
	observed := objects(t, `
apiVersion: ex.org/v1
kind: CD
metadata: {name: other}
`)
	c := composition(t, `resources: [{name: A, base: {apiVersion: ex.org/v1, kind: CD}}]`)
	if _, err := Compose(xr, c, observed, Options{}); err != nil {
		t.Fatalf("Compose(...): %v", err)
	}
	if diff := cmp.Diff(object(t, xr1), xr); diff != "" {
		t.Errorf("Compose(...) modified the XR: -want, +got:\n%s", diff)
	}
	if diff := cmp.Diff(objects(t, "apiVersion: ex.org/v1\nkind: CD\nmetadata: {name: other}\n"), observed); diff != "" {
		t.Errorf("Compose(...) modified the observed objects: -want, +got:\n%s", diff)
	}
}
