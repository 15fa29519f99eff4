package main

import (
	"os/exec"
	"strings"
	"testing"
)

// layers is the declared order of the module's packages, bottom first
// (docs/architecture.md, "Layers"). A package may import only packages of
// a lower layer: nothing imports upward, and the packages of one layer
// never import each other (verify takes converted documents as values; the
// orchestration that converts and then verifies lives above both).
var layers = [][]string{
	// Shared helpers and the YAML editor: no domain package.
	{"internal/atomicfile", "internal/benchdata", "internal/docgen", "internal/jsonobj", "internal/protostruct",
		"internal/junit", "internal/kubetest", "internal/regularfile", "internal/samples", "internal/sarif", "convert/yamledit"},
	{"patchandtransform"},
	{"patchandtransform/function", "patchandtransform/native", "environment"},
	{"render"},
	{"render/builtin/environmentconfigs", "render/builtin/patchandtransform", "render/legacy", "render/pipeline"},
	{"render/engine", "render/cluster"},
	{"convert", "render/verify"},
	{"convert/migrate"},
	{"cmd/xpmigrate"},
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
	cmd.Dir = repoRoot
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
