package migrate

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestPipelinePointer(t *testing.T) {
	type want struct {
		p  string
		ok bool
	}
	cases := map[string]struct {
		reason string
		in     string
		step   int
		want   want
	}{
		"Base": {
			reason: "A template's base is copied as it is.",
			in:     "/spec/resources/0/base/spec/forProvider/size", step: 1,
			want: want{"/spec/pipeline/1/input/resources/0/base/spec/forProvider/size", true},
		},
		"WholeBase": {
			reason: "So is the whole base.",
			in:     "/spec/resources/2/base",
			want:   want{"/spec/pipeline/0/input/resources/2/base", true},
		},
		"PatchFieldPath": {
			reason: "A patch's field paths keep their form.",
			in:     "/spec/resources/0/patches/3/toFieldPath",
			want:   want{"/spec/pipeline/0/input/resources/0/patches/3/toFieldPath", true},
		},
		"PatchSetFieldPath": {
			reason: "So do a patch set's.",
			in:     "/spec/patchSets/1/patches/0/fromFieldPath", step: 1,
			want: want{"/spec/pipeline/1/input/patchSets/1/patches/0/fromFieldPath", true},
		},
		"PatchPolicy": {
			reason: "Policies change form (mergeOptions become toFieldPath).",
			in:     "/spec/resources/0/patches/1/policy",
		},
		"WholeTemplate": {
			reason: "A whole template may need a name and converted patches.",
			in:     "/spec/resources/0",
		},
		"Append": {
			reason: "An appended template is in legacy form.",
			in:     "/spec/resources/-",
		},
		"Name": {
			reason: "Names of unnamed templates are made up by the converter.",
			in:     "/spec/resources/0/name",
		},
		"Environment": {
			reason: "The environment moves to another step in another shape.",
			in:     "/spec/environment/environmentConfigs/0",
		},
		"NotComposition": {
			reason: "Other paths are not this function's business.",
			in:     "/metadata/name",
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			p, ok := pipelinePointer(tc.in, tc.step)
			if diff := cmp.Diff(tc.want, want{p, ok}, cmp.AllowUnexported(want{})); diff != "" {
				t.Errorf("%s\npipelinePointer(%q, %d): -want, +got:\n%s", tc.reason, tc.in, tc.step, diff)
			}
		})
	}
}

func TestApplyTextEdits(t *testing.T) {
	cases := map[string]struct {
		reason  string
		in      string
		edits   []textEdit
		want    string
		wantErr bool
	}{
		"PlainAndQuoted": {
			reason: "Each scalar is replaced in place, its quotes and the comment after it kept.",
			in:     "- op: add\n  path: /a # here\n- op: remove\n  path: \"/a\"\n",
			edits:  []textEdit{{line: 2, col: 9, old: "/a", new: "/b/c"}, {line: 4, col: 9, old: "/a", new: "/b/c"}},
			want:   "- op: add\n  path: /b/c # here\n- op: remove\n  path: \"/b/c\"\n",
		},
		"SameLine": {
			reason: "Two edits on one line both land.",
			in:     "[{op: copy, from: /a, path: /a/x}]\n",
			edits:  []textEdit{{line: 1, col: 19, old: "/a", new: "/p/a"}, {line: 1, col: 29, old: "/a/x", new: "/p/a/x"}},
			want:   "[{op: copy, from: /p/a, path: /p/a/x}]\n",
		},
		"NotThere": {
			reason:  "An edit whose scalar is not where it says changes nothing.",
			in:      "path: /a\n",
			edits:   []textEdit{{line: 1, col: 3, old: "/a", new: "/b"}},
			wantErr: true,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, err := applyTextEdits([]byte(tc.in), tc.edits)
			if (err != nil) != tc.wantErr {
				t.Fatalf("%s\napplyTextEdits(...): want error %v, got %v", tc.reason, tc.wantErr, err)
			}
			if tc.wantErr {
				return
			}
			if diff := cmp.Diff(tc.want, string(got)); diff != "" {
				t.Errorf("%s\napplyTextEdits(...): -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}

// TestRewriteKustomizeOut checks that with Options.Out the rewritten patch
// is in the copy and the tree stays as it was.
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
