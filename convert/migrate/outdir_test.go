package migrate

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/xpmigrate/xpmigrate/convert"
	"github.com/xpmigrate/xpmigrate/internal/crossplane"
)

// outTree is a small tree for the --out tests: a Composition the fake
// converter converts, one it is made to crash on, and a file it copies.
var outTree = map[string]string{
	"a.yaml":    "apiVersion: apiextensions.crossplane.io/v1\nkind: Composition\nmetadata:\n  name: a\nspec:\n  compositeTypeRef:\n    apiVersion: example.org/v1\n    kind: XThing\n  resources:\n  - name: a\n    base:\n      apiVersion: v1\n      kind: ConfigMap\n",
	"b.yaml":    "apiVersion: apiextensions.crossplane.io/v1\nkind: Composition\nmetadata:\n  name: b\nspec:\n  compositeTypeRef:\n    apiVersion: example.org/v1\n    kind: XThing\n  resources:\n  - name: b\n    base:\n      apiVersion: v1\n      kind: ConfigMap\n",
	"README.md": "# repo\n",
}

var sortStrings = cmpopts.SortSlices(func(a, b string) bool { return a < b })

// besideOut lists what the directory holding out holds, but out itself
// and the tree.
func besideOut(t *testing.T, out string) []string {
	t.Helper()
	des, err := os.ReadDir(filepath.Dir(out))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, d := range des {
		if d.Name() != filepath.Base(out) && d.Name() != "repo" {
			names = append(names, d.Name())
		}
	}
	return names
}

// TestOutWholeTreeOrNothing (issue 25 item 3): migrate --out writes the
// whole tree or nothing, returns a Result (the report) even when the
// converter crashes on a file, and a rerun after a failed run works.
func TestOutWholeTreeOrNothing(t *testing.T) {
	cases := map[string]struct {
		reason string
		// crash makes the converter panic on this file.
		crash string
		// cancel cancels the run when the converter starts.
		cancel bool
		// outExists creates out, empty, before the run.
		outExists bool
		wantMode  string
		wantFiles []string // in out after the run; nil: out absent
		wantFail  string   // the file the run reports failed
	}{
		"ConverterPanics": {
			reason:    "A converter that crashes on b.yaml fails that file; the run goes on, the copy holds every file (b.yaml as it was) and the Result is returned for the report.",
			crash:     "b.yaml",
			wantMode:  "out",
			wantFiles: []string{"README.md", "a.yaml", "b.yaml"},
			wantFail:  "b.yaml",
		},
		"Cancelled": {
			reason:   "A cancelled run writes nothing: out stays absent, and no staging directory is left beside it.",
			cancel:   true,
			wantMode: "none",
		},
		"CancelledIntoEmptyDirectory": {
			reason:    "A cancelled run leaves an empty output directory empty.",
			cancel:    true,
			outExists: true,
			wantMode:  "none",
			wantFiles: []string{},
		},
		"EmptyDirectoryExists": {
			reason:    "An empty output directory is replaced by the staged tree.",
			outExists: true,
			wantMode:  "out",
			wantFiles: []string{"README.md", "a.yaml", "b.yaml"},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			tmp := t.TempDir()
			root, out := filepath.Join(tmp, "repo"), filepath.Join(tmp, "out")
			writeTree(t, root, outTree)
			if tc.outExists {
				if err := os.Mkdir(out, 0o755); err != nil {
					t.Fatal(err)
				}
			}
			ctx, cancel := context.WithCancel(t.Context())
			defer cancel()
			conv := &fakeConverter{hook: func(path string) {
				if tc.cancel {
					cancel()
				}
				if path == tc.crash {
					panic("boom")
				}
			}}
			res, _ := Run(ctx, Options{Root: root, Converter: conv, Write: WriteOut, Out: out, Jobs: 1})
			if res == nil {
				t.Fatalf("%s\nRun(...): no Result", tc.reason)
			}
			if diff := cmp.Diff(tc.wantMode, res.Mode); diff != "" {
				t.Errorf("%s\nRun(...): Mode: -want, +got:\n%s", tc.reason, diff)
			}
			var got []string
			if _, err := os.Stat(out); err == nil {
				got = []string{}
				for k := range readTree(t, out) {
					got = append(got, k)
				}
			}
			if diff := cmp.Diff(tc.wantFiles, got, sortStrings); diff != "" {
				t.Errorf("%s\nout after the run: -want, +got:\n%s", tc.reason, diff)
			}
			if diff := cmp.Diff([]string(nil), besideOut(t, out)); diff != "" {
				t.Errorf("%s\nbeside out after the run: -want, +got:\n%s", tc.reason, diff)
			}
			failed := ""
			for _, f := range res.Files {
				if f.Status == FileFailed {
					failed = f.Path
				}
			}
			if diff := cmp.Diff(tc.wantFail, failed); diff != "" {
				t.Errorf("%s\nRun(...): failed file: -want, +got:\n%s", tc.reason, diff)
			}

			if len(tc.wantFiles) > 0 {
				return
			}
			// A rerun after a run that wrote nothing writes the tree.
			conv.hook = nil
			if _, err := Run(t.Context(), Options{Root: root, Converter: conv, Write: WriteOut, Out: out, Jobs: 1}); err != nil {
				t.Fatalf("%s\nRun(...) again: %v", tc.reason, err)
			}
			if got := len(readTree(t, out)); got != len(outTree) {
				t.Errorf("%s\nout after the rerun: %d files, want %d", tc.reason, got, len(outTree))
			}
		})
	}
}

// TestOutV2PipelineWithoutInput (issue 25 item 3): migrate --target v2
// --out over a tree whose Pipeline Composition has a step without input
// (function-auto-ready) writes the whole tree.
func TestOutV2PipelineWithoutInput(t *testing.T) {
	tmp := t.TempDir()
	root, out := filepath.Join(tmp, "repo"), filepath.Join(tmp, "out")
	writeTree(t, root, map[string]string{
		"xrd.yaml": "apiVersion: apiextensions.crossplane.io/v1\nkind: CompositeResourceDefinition\nmetadata: {name: xthings.example.org}\n" +
			"spec:\n  group: example.org\n  names: {kind: XThing, plural: xthings}\n  versions: [{name: v1, served: true, referenceable: true, schema: {openAPIV3Schema: {type: object}}}]\n",
		"composition.yaml": "apiVersion: apiextensions.crossplane.io/v1\nkind: Composition\nmetadata:\n  name: xthings.example.org\nspec:\n" +
			"  compositeTypeRef: {apiVersion: example.org/v1, kind: XThing}\n  mode: Pipeline\n  pipeline:\n  - step: ready\n    functionRef: {name: function-auto-ready}\n",
		"README.md": "# repo\n",
	})
	o := Options{Root: root, Converter: NewConverter(convert.Options{XRScope: convert.XRScopeNamespaced}), Target: crossplane.V2, Definitions: true, Write: WriteOut, Out: out, Jobs: 1}
	res, err := Run(t.Context(), o)
	if err != nil || res == nil {
		t.Fatalf("Run(...): %v", err)
	}
	for _, f := range res.Files {
		if f.Status == FileFailed {
			t.Errorf("Run(...): %s failed: %s", f.Path, f.Detail)
		}
	}
	got := readTree(t, out)
	if !strings.Contains(got["composition.yaml"], "kind: Thing") {
		t.Errorf("out/composition.yaml: want the Composition of the v2 type Thing, got:\n%s", got["composition.yaml"])
	}
	if _, ok := got["README.md"]; !ok {
		t.Errorf("out/README.md: missing")
	}
}
