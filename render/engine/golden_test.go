package engine

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/xpmigrate/xpmigrate/internal/manifest"
	"github.com/xpmigrate/xpmigrate/internal/testutil"
	"github.com/xpmigrate/xpmigrate/render"
)

// TestCorpusGoldens renders real compositions from the shared corpus
// (testdata/corpus/<case>, sources and licences in SOURCES.tsv) with their
// example XR or claim, legacy and pipeline (the pipeline twin was converted
// by xpmigrate and reviewed), and compares both outputs with golden files.
// Each case runs twice: the output must be deterministic.
func TestCorpusGoldens(t *testing.T) {
	dirs, err := filepath.Glob("testdata/corpus/*/composition.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if len(dirs) < 30 {
		t.Fatalf("want at least 30 corpus cases, found %d", len(dirs))
	}
	for _, c := range dirs {
		dir := filepath.Dir(c)
		t.Run(filepath.Base(dir), func(t *testing.T) {
			for _, side := range []string{"legacy", "pipeline"} {
				comp := "composition.yaml"
				if side == "pipeline" {
					comp = "pipeline.yaml"
				}
				req := Request{XR: loadFirst(t, filepath.Join(dir, "xr.yaml")), Composition: loadFirst(t, filepath.Join(dir, comp))}
				if _, err := os.Stat(filepath.Join(dir, "xrd.yaml")); err == nil {
					req.XRD = loadFirst(t, filepath.Join(dir, "xrd.yaml"))
				}
				var outs [2][]byte
				for i := range outs {
					res, err := Render(context.Background(), req, Options{})
					if err != nil {
						t.Fatalf("%s: Render(...): %v", side, err)
					}
					var b bytes.Buffer
					if err := render.Print(&b, res.Outcome, render.PrintOptions{IncludeResults: true, IncludeConnectionDetails: true}); err != nil {
						t.Fatal(err)
					}
					outs[i] = b.Bytes()
				}
				if !bytes.Equal(outs[0], outs[1]) {
					t.Fatalf("%s: two renders of the same input differ:\n%s", side, cmp.Diff(string(outs[0]), string(outs[1])))
				}
				testutil.Golden(t, filepath.Join(dir, side+".golden.yaml"), outs[0])
			}
		})
	}
}

func loadFirst(t *testing.T, path string) map[string]any {
	t.Helper()
	docs, err := manifest.LoadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(docs) == 0 {
		t.Fatalf("%s holds no document", path)
	}
	return docs[0].Object
}
