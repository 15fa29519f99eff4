package main

import (
	"fmt"
	"os/exec"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/xpmigrate/xpmigrate/internal/testutil"
)

// layers is the declared order of the module's packages, bottom first
// (docs/architecture.md, "Layers"). A package may import only packages of
// a lower layer: nothing imports upward, and the packages of one layer
// never import each other (verify takes converted documents as values; the
// orchestration that converts and then verifies lives above both).
var layers = [][]string{
	// CRD schemas: Crossplane's CRDs and the API server's validation.
	{"internal/crdschema", "internal/xcrd"},
	// Escaping of text for terminals and CI logs, which the helpers that
	// print (internal/workflow's commands, internal/atomicfile's log) use.
	{"internal/logsafe"},
	// Reading JSON-shaped objects (map[string]any), which the helpers that
	// walk objects (internal/redact, internal/samples) use.
	{"internal/jsonobj"},
	// Shared helpers: no domain package.
	{"internal/redact", "internal/atomicfile", "internal/benchdata", "internal/docgen", "internal/gitignore", "internal/protostruct",
		"internal/junit", "internal/kubetest", "internal/regularfile", "internal/samples", "internal/sarif", "internal/testutil", "internal/udiff", "internal/xp",
		"internal/crossplane", "internal/errkind", "internal/markdown", "internal/shquote", "internal/htmlstyle", "internal/workflow", "internal/progress",
		// The real-Crossplane tier's fake cloud, read by its tests and
		// written by its test provider (a module of its own).
		"e2e/crossplane/fakecloud"},
	// The reading layer: splitting streams, numbering documents, kubectl's view,
	// and a live cluster read with get and list only.
	{"internal/manifest", "internal/v2map", "internal/cluster"},
	// The YAML editor, which reads back what it writes through the reading
	// layer; which machinery an XR field path names.
	{"convert/yamledit", "convert/xrpath"},
	{"patchandtransform"},
	{"patchandtransform/function", "patchandtransform/native", "environment"},
	{"render"},
	{"render/builtin/environmentconfigs", "render/builtin/patchandtransform", "render/legacy", "render/pipeline"},
	{"render/engine"},
	{"render/verify/gaps"},
	{"convert", "render/verify"},
	// The v2-native conversion, on top of convert's Pipeline conversion
	// (convert.ConvertWith).
	{"convert/v2native"},
	{"render/verify/format", "render/verify/verifytest"},
	// The live check, which migrate calls for `migrate --cluster`.
	{"render/verify/live"},
	// The migrator's leaves: its Diagnostic, which its parts share, and
	// kustomize's patches.
	{"convert/migrate/finding", "convert/migrate/kustomize"},
	// The migrator's parts: what the converted Compositions need of their
	// Functions, and the walk, scan and index of the tree.
	{"convert/migrate/functions", "convert/migrate/tree"},
	{"convert/migrate"},
	{"convert/migrate/report", "convert/migrate/plan"},
	{"cmd/xpmigrate"},
	// The e2e tier runs the binary; it imports no package of the module
	// outside its tests.
	{"e2e", "convert/migrate/v2e2e", "e2e/crossplane"},
}

// layerNames name the layers, in the order of layers: docs/architecture.md
// shows them (TestArchitecture).
var layerNames = []string{
	"CRD schemas",
	"escaping",
	"JSON access",
	"helpers",
	"reading",
	"YAML editor",
	"core",
	"front-ends",
	"render core",
	"engines",
	"engine",
	"classification",
	"workflows",
	"v2-native conversion",
	"verify's writers",
	"live check",
	"migrate's leaves",
	"migrate's parts",
	"orchestration",
	"migrate's writers, v2 planner",
	"commands",
	"e2e tier",
}

// folders is the declared order of the module's top-level folders,
// bottom first: the folder tree is the layer diagram. A package may import
// only packages of its own folder or of a folder below it, so render/…
// never imports convert/…, whatever the package layers say.
var folders = [][]string{
	{"internal"},
	{"patchandtransform"},
	{"environment"},
	{"render"},
	{"convert"},
	{"cmd"},
	{"e2e"},
}

// TestLayers fails on any import edge outside the declared layer and
// folder orders, and on a package either order does not place.
func TestLayers(t *testing.T) {
	const module = "github.com/xpmigrate/xpmigrate/"
	cmd := exec.Command("go", "list", "-f", "{{.ImportPath}}{{range .Imports}} {{.}}{{end}}", "./...")
	cmd.Dir = testutil.RepoRoot(t)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	graph := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		p := strings.TrimPrefix(f[0], module)
		graph[p] = []string{}
		for _, imp := range f[1:] {
			if q, ours := strings.CutPrefix(imp, module); ours {
				graph[p] = append(graph[p], q)
			}
		}
	}
	for _, v := range layerViolations(graph, layers, folders) {
		t.Error(v)
	}
}

// layerViolations checks an import graph (package → the module's packages
// it imports, both relative to the module) against the layer and folder
// orders, bottom first: an import of a package of the same or a higher
// layer, or of a folder above the importer's, is a violation, and so is a
// package or folder the orders do not place. It returns one sentence per
// violation, sorted.
func layerViolations(graph map[string][]string, layers, folders [][]string) []string {
	rank := ranks(layers)
	frank := ranks(folders)
	var out []string
	for p, imports := range graph {
		r, ok := rank[p]
		if !ok {
			out = append(out, fmt.Sprintf("package %s has no layer: place it in layers (and in docs/architecture.md)", p))
		}
		fr, fok := frank[folderOf(p)]
		if !fok {
			out = append(out, fmt.Sprintf("package %s is in folder %s, which has no place in folders", p, folderOf(p)))
		}
		for _, q := range imports {
			if rq, qok := rank[q]; ok && qok && rq >= r {
				out = append(out, fmt.Sprintf("%s imports %s: layer %d may import only layers below it, and %s is in layer %d", p, q, r, q, rq))
			}
			if fq, qok := frank[folderOf(q)]; fok && qok && fq > fr {
				out = append(out, fmt.Sprintf("%s imports %s: folder %s may import only its own folder and the folders below it, and %s is above it", p, q, folderOf(p), folderOf(q)))
			}
		}
	}
	sort.Strings(out)
	return out
}

func ranks(order [][]string) map[string]int {
	rank := map[string]int{}
	for i, l := range order {
		for _, p := range l {
			rank[p] = i
		}
	}
	return rank
}

// folderOf is the top-level folder of a package relative to the module.
func folderOf(p string) string {
	f, _, _ := strings.Cut(p, "/")
	return f
}

// TestLayerViolations plants import edges in synthetic graphs and checks
// that the layer and folder rules catch them.
func TestLayerViolations(t *testing.T) {
	small := [][]string{{"internal/a"}, {"convert/c"}, {"render/r"}}
	smallFolders := [][]string{{"internal"}, {"render"}, {"convert"}}
	cases := map[string]struct {
		reason  string
		graph   map[string][]string
		layers  [][]string
		folders [][]string
		want    []string
	}{
		"Clean": {
			reason:  "Imports down the layers and folders are no violation.",
			graph:   map[string][]string{"internal/a": {}, "convert/c": {"internal/a"}, "render/r": {"internal/a"}},
			layers:  small,
			folders: smallFolders,
		},
		"RenderImportsConvert": {
			reason:  "render/… importing convert/… fails on the folder order even where the package layers would let it.",
			graph:   map[string][]string{"render/r": {"convert/c"}, "convert/c": {}},
			layers:  small,
			folders: smallFolders,
			want:    []string{"render/r imports convert/c: folder render may import only its own folder and the folders below it, and convert is above it"},
		},
		"PlantedInTheDeclaredOrder": {
			reason:  "The module's own orders catch the edge that folded liveformat removed: the live check importing migrate's report.",
			graph:   map[string][]string{"render/verify/live": {"convert/migrate/report"}, "convert/migrate/report": {}},
			layers:  layers,
			folders: folders,
			want: []string{
				"render/verify/live imports convert/migrate/report: folder render may import only its own folder and the folders below it, and convert is above it",
				fmt.Sprintf("render/verify/live imports convert/migrate/report: layer %d may import only layers below it, and convert/migrate/report is in layer %d", ranks(layers)["render/verify/live"], ranks(layers)["convert/migrate/report"]),
			},
		},
		"UpwardLayer": {
			reason:  "An import of a higher layer fails.",
			graph:   map[string][]string{"internal/a": {"internal/b"}, "internal/b": {}},
			layers:  [][]string{{"internal/a"}, {"internal/b"}},
			folders: smallFolders,
			want:    []string{"internal/a imports internal/b: layer 0 may import only layers below it, and internal/b is in layer 1"},
		},
		"SameLayer": {
			reason:  "The packages of one layer never import each other.",
			graph:   map[string][]string{"internal/a": {"internal/b"}, "internal/b": {}},
			layers:  [][]string{{"internal/a", "internal/b"}},
			folders: smallFolders,
			want:    []string{"internal/a imports internal/b: layer 0 may import only layers below it, and internal/b is in layer 0"},
		},
		"UnplacedPackage": {
			reason:  "A package no layer names fails.",
			graph:   map[string][]string{"internal/new": {}},
			layers:  small,
			folders: smallFolders,
			want:    []string{"package internal/new has no layer: place it in layers (and in docs/architecture.md)"},
		},
		"UnplacedFolder": {
			reason:  "A package in a folder the folder order does not name fails.",
			graph:   map[string][]string{"tools/t": {}},
			layers:  [][]string{{"tools/t"}},
			folders: smallFolders,
			want:    []string{"package tools/t is in folder tools, which has no place in folders"},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got := layerViolations(tc.graph, tc.layers, tc.folders)
			want := tc.want
			sort.Strings(want)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("\n%s\nlayerViolations(...): -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}

// TestCoreSpeaksNoProtocol fails when the patch-and-transform core or the
// environment package depends on the function protocol (protobuf Structs,
// the function SDK, gRPC): the protocol belongs to the render/builtin
// adapters (docs/architecture.md, STYLE.md "One P&T core").
func TestCoreSpeaksNoProtocol(t *testing.T) {
	protocol := []string{
		"google.golang.org/protobuf/types/known/structpb",
		"github.com/crossplane/function-sdk-go",
		"google.golang.org/grpc",
	}
	cmd := exec.Command("go", "list", "-deps", "-f", "{{.ImportPath}}", "./patchandtransform/...", "./environment/...")
	cmd.Dir = testutil.RepoRoot(t)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, dep := range strings.Fields(string(out)) {
		for _, p := range protocol {
			if dep == p || strings.HasPrefix(dep, p+"/") {
				t.Errorf("the core depends on %s: the protocol belongs in the render/builtin adapters", dep)
			}
		}
	}
}
