package engine

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/xpmigrate/xpmigrate/internal/manifest"
	"github.com/xpmigrate/xpmigrate/render"
	"github.com/xpmigrate/xpmigrate/render/pipeline"
)

// FuzzRender renders arbitrary Compositions (legacy or pipeline, with the
// built-in functions) for an arbitrary XR, as `xpmigrate render` does, and
// checks what every render must hold: it never panics, a bad input is an
// InputError or a reconcile error rather than a crash, and the same input
// renders to the same bytes twice (generated names included).
func FuzzRender(f *testing.F) {
	dirs, _ := filepath.Glob(filepath.Join("testdata", "corpus", "*"))
	for i, d := range dirs {
		if i >= 6 {
			break
		}
		xr, err1 := os.ReadFile(filepath.Join(d, "xr.yaml"))
		comp, err2 := os.ReadFile(filepath.Join(d, "composition.yaml"))
		pipe, err3 := os.ReadFile(filepath.Join(d, "pipeline.yaml"))
		if err1 != nil || err2 != nil || err3 != nil {
			continue
		}
		f.Add(comp, xr)
		f.Add(pipe, xr)
	}
	f.Add([]byte("apiVersion: apiextensions.crossplane.io/v1\nkind: Composition\nmetadata: {name: c}\nspec:\n  compositeTypeRef: {apiVersion: a/v1, kind: X}\n  resources: [{name: r, base: {apiVersion: b/v1, kind: Y}, patches: [{fromFieldPath: spec.a, toFieldPath: spec.b}]}]\n"),
		[]byte("apiVersion: a/v1\nkind: X\nmetadata: {name: x}\nspec: {a: 1}\n"))
	f.Fuzz(func(t *testing.T, comp, xr []byte) {
		c, err := manifest.DecodeObject(comp)
		if err != nil || c == nil {
			return
		}
		x, err := manifest.DecodeObject(xr)
		if err != nil || x == nil {
			return
		}
		render1 := func() ([]byte, error) {
			opts := Options{Loops: 2}
			if mode, _ := c["spec"].(map[string]any); mode != nil && mode["mode"] == "Pipeline" {
				opts.Profile = pipeline.Reconciler
			}
			res, err := Render(context.Background(), Request{XR: x, Composition: c}, opts)
			var b bytes.Buffer
			if res != nil && res.Outcome != nil {
				if perr := render.Print(&b, res.Outcome, render.PrintOptions{}); perr != nil {
					t.Fatalf("Print(...): %v", perr)
				}
			}
			return b.Bytes(), err
		}
		out1, err1 := render1()
		out2, err2 := render1()
		if (err1 == nil) != (err2 == nil) || (err1 != nil && err1.Error() != err2.Error()) {
			t.Fatalf("Render(...) failed differently twice: %v / %v", err1, err2)
		}
		if !bytes.Equal(out1, out2) {
			t.Fatalf("Render(...) is not deterministic:\n%s\n---\n%s", out1, out2)
		}
	})
}
