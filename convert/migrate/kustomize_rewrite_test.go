package migrate

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestRewriteKustomizeOut(t *testing.T) {
	tree := map[string]string{
		"base/composition.yaml":            "apiVersion: apiextensions.crossplane.io/v1\nkind: Composition\nmetadata:\n  name: xthings\nspec:\n  compositeTypeRef:\n    apiVersion: example.org/v1\n    kind: XThing\n  resources:\n  - name: a\n    base:\n      apiVersion: v1\n      kind: ConfigMap\n",
		"base/kustomization.yaml":          "resources:\n- composition.yaml\n",
		"overlays/prod/kustomization.yaml": "resources:\n- ../../base\npatches:\n- target:\n    kind: Composition\n    name: xthings\n  path: size.yaml\n",
		"overlays/prod/size.yaml":          "- op: add\n  path: /spec/resources/0/base/data # the size\n  value: {size: large}\n",
	}
	root := t.TempDir()
	writeTree(t, root, tree)
	out := t.TempDir() + "/out"
	if _, err := Run(t.Context(), Options{Root: root, Converter: &fakeConverter{}, Write: WriteOut, Out: out, Jobs: 2}); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(tree, readTree(t, root)); diff != "" {
		t.Errorf("Run(...) with Out changed the tree: -want, +got:\n%s", diff)
	}
	want := "- op: add\n  path: /spec/pipeline/0/input/resources/0/base/data # the size\n  value: {size: large}\n"
	if diff := cmp.Diff(want, readTree(t, out)["overlays/prod/size.yaml"]); diff != "" {
		t.Errorf("patch under Out: -want, +got:\n%s", diff)
	}
}

// TestRewriteKustomizeSharedPatch checks that a patch file two overlays use
// is rewritten once.
func TestRewriteKustomizeSharedPatch(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{
		"base/composition.yaml":            "apiVersion: apiextensions.crossplane.io/v1\nkind: Composition\nmetadata:\n  name: xthings\nspec:\n  compositeTypeRef:\n    apiVersion: example.org/v1\n    kind: XThing\n  resources:\n  - name: a\n    base:\n      apiVersion: v1\n      kind: ConfigMap\n",
		"base/kustomization.yaml":          "resources:\n- composition.yaml\n",
		"patches/size.yaml":                "- op: add\n  path: /spec/resources/0/base/data\n  value: {size: large}\n",
		"overlays/prod/kustomization.yaml": "resources:\n- ../../base\npatches:\n- target:\n    name: xthings\n  path: ../../patches/size.yaml\n",
		"overlays/dev/kustomization.yaml":  "resources:\n- ../../base\npatches:\n- target:\n    name: xthings\n  path: ../../patches/size.yaml\n",
	})
	res, err := Run(t.Context(), Options{Root: root, Converter: &fakeConverter{}, Jobs: 2})
	if err != nil {
		t.Fatal(err)
	}
	want := "- op: add\n  path: /spec/pipeline/0/input/resources/0/base/data\n  value: {size: large}\n"
	if diff := cmp.Diff(want, readTree(t, root)["patches/size.yaml"]); diff != "" {
		t.Errorf("shared patch: -want, +got:\n%s", diff)
	}
	if got := findingCodes(res, "M401"); len(got) > 0 {
		t.Errorf("findings: want no M401, got %v", got)
	}
}

// TestRewriteKustomizeInlineAfterHeader checks that an inline patch is
// found in the document the scan numbered, when a comment header comes
// before the kustomization's `---`: the header belongs to no document.
func TestRewriteKustomizeInlineAfterHeader(t *testing.T) {
	root := t.TempDir()
	kustomization := "# Production overlay.\n---\nresources:\n- ../../base\npatches:\n- target:\n    name: xthings\n  patch: |\n    - op: add\n      path: /spec/resources/0/base/data\n      value: {size: large}\n"
	writeTree(t, root, map[string]string{
		"base/composition.yaml":            "apiVersion: apiextensions.crossplane.io/v1\nkind: Composition\nmetadata:\n  name: xthings\nspec:\n  compositeTypeRef:\n    apiVersion: example.org/v1\n    kind: XThing\n  resources:\n  - name: a\n    base:\n      apiVersion: v1\n      kind: ConfigMap\n",
		"base/kustomization.yaml":          "resources:\n- composition.yaml\n",
		"overlays/prod/kustomization.yaml": kustomization,
	})
	res, err := Run(t.Context(), Options{Root: root, Converter: &fakeConverter{}, Jobs: 2})
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Replace(kustomization, "path: /spec/resources/0/base/data", "path: /spec/pipeline/0/input/resources/0/base/data", 1)
	if diff := cmp.Diff(want, readTree(t, root)["overlays/prod/kustomization.yaml"]); diff != "" {
		t.Errorf("inline patch after a header: -want, +got:\n%s", diff)
	}
	if got := findingCodes(res, "M401"); len(got) > 0 {
		t.Errorf("findings: want no M401, got %v", got)
	}
}
