package main

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/xpmigrate/xpmigrate/internal/testutil"
)

// layers is the declared order of the module's packages, bottom first
// (docs/architecture.md, "Layers"). A package may import only packages of
// a lower layer: nothing imports upward, and the packages of one layer
// never import each other (verify takes converted documents as values; the
// orchestration that converts and then verifies lives above both).
var layers = [][]string{
	// Escaping of text for terminals and CI logs, which the helpers that
	// print (internal/xp's workflow commands, internal/atomicfile's log) use.
	{"internal/logsafe"},
	// Shared helpers: no domain package.
	{"internal/redact", "internal/atomicfile", "internal/benchdata", "internal/docgen", "internal/gitignore", "internal/jsonobj", "internal/protostruct",
		"internal/junit", "internal/kubetest", "internal/regularfile", "internal/samples", "internal/sarif", "internal/testutil", "internal/udiff", "internal/xp",
		"internal/crossplane", "internal/errkind", "internal/markdown", "internal/shquote",
		// The real-Crossplane tier's fake cloud, read by its tests and
		// written by its test provider (a module of its own).
		"e2e/crossplane/fakecloud"},
	// The reading layer: splitting streams, numbering documents, kubectl's view.
	{"internal/manifest", "internal/v2map"},
	// The YAML editor, which reads back what it writes through the reading layer.
	{"convert/yamledit"},
	{"patchandtransform"},
	{"patchandtransform/function", "patchandtransform/native", "environment"},
	{"render"},
	{"render/builtin/environmentconfigs", "render/builtin/patchandtransform", "render/legacy", "render/pipeline"},
	{"render/engine", "render/cluster"},
	{"render/verify/gaps"},
	{"convert", "render/verify"},
	{"convert/migrate", "render/verify/format", "render/verify/verifytest"},
	{"convert/migrate/report", "render/verify/live", "convert/migrate/plan"},
	// The cluster check's formats, which join migrate's report.
	{"render/verify/live/liveformat"},
	{"cmd/xpmigrate"},
	// The e2e tier runs the binary; it imports no package of the module
	// outside its tests.
	{"e2e", "convert/migrate/v2e2e", "e2e/crossplane"},
}

// TestLayers fails on any import edge outside the declared layer order, and
// on a package the order does not place.
func TestLayers(t *testing.T) {
	const module = "github.com/xpmigrate/xpmigrate/"
	rank := map[string]int{}
	for i, l := range layers {
		for _, p := range l {
			rank[p] = i
		}
	}
	cmd := exec.Command("go", "list", "-f", "{{.ImportPath}}{{range .Imports}} {{.}}{{end}}", "./...")
	cmd.Dir = testutil.RepoRoot(t)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		p := strings.TrimPrefix(f[0], module)
		r, ok := rank[p]
		if !ok {
			t.Errorf("package %s has no layer: place it in layers (and in docs/architecture.md)", p)
			continue
		}
		for _, imp := range f[1:] {
			q, ours := strings.CutPrefix(imp, module)
			if !ours {
				continue
			}
			if rq, ok := rank[q]; ok && rq >= r {
				t.Errorf("%s imports %s: layer %d may import only layers below it, and %s is in layer %d", p, q, r, q, rq)
			}
		}
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
