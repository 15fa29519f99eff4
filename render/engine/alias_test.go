package engine

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/xpmigrate/xpmigrate/render"
)

// TestOutcomesStayPut renders every corpus case until stable and checks
// that no reconcile changes the outcome of an earlier one: the engines
// share objects between a reconcile's outcome and the next one's input
// (verify keeps them all), so neither may modify what it observes.
func TestOutcomesStayPut(t *testing.T) {
	dirs, err := filepath.Glob("testdata/corpus/*/composition.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range dirs {
		dir := filepath.Dir(c)
		t.Run(filepath.Base(dir), func(t *testing.T) {
			for _, comp := range []string{"composition.yaml", "pipeline.yaml"} {
				req := Request{XR: loadFirst(t, filepath.Join(dir, "xr.yaml")), Composition: loadFirst(t, filepath.Join(dir, comp))}
				if _, err := os.Stat(filepath.Join(dir, "xrd.yaml")); err == nil {
					req.XRD = loadFirst(t, filepath.Join(dir, "xrd.yaml"))
				}
				var kept []*render.Outcome
				var printed []string
				print := func(o *render.Outcome) string {
					var b bytes.Buffer
					if err := render.Print(&b, o, render.PrintOptions{IncludeResults: true, IncludeConnectionDetails: true}); err != nil {
						t.Fatal(err)
					}
					for _, cd := range o.Composed {
						b.WriteString("--- applied\n")
						y, err := render.MarshalYAML(cd.Applied)
						if err != nil {
							t.Fatal(err)
						}
						b.Write(y)
					}
					return b.String()
				}
				o := Options{UntilStable: true, Observe: func(_ int, out *render.Outcome, _ bool) {
					kept = append(kept, out)
					printed = append(printed, print(out))
				}}
				if _, err := Render(context.Background(), req, o); err != nil {
					continue // A failing case has nothing to keep.
				}
				for i, out := range kept {
					if diff := cmp.Diff(printed[i], print(out)); diff != "" {
						t.Errorf("%s: reconcile %d's outcome changed after it was returned: -then, +now:\n%s", comp, i+1, diff)
					}
				}
			}
		})
	}
}
