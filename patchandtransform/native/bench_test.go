package native_test

import (
	"os"
	"testing"

	"github.com/crossplane/crossplane-runtime/v2/pkg/fieldpath"

	pt "github.com/xpmigrate/xpmigrate/patchandtransform"
	"github.com/xpmigrate/xpmigrate/patchandtransform/native"
)

// corpusComposition is the largest composition of the shared corpus: one
// template with about 400 patches (crossplane-contrib/x-generation, Apache-2.0).
const corpusComposition = "../../testdata/corpus/crossplane-contrib__x-generation/rds-dbinstance-composition.yaml"

type benchTemplate struct {
	base    map[string]any
	patches []pt.Patch
}

// loadBenchCase decodes, defaults and expands the composition and builds an
// XR that gives every FromComposite patch a source value: a string, or an
// integer where the patch's transforms need a number.
func loadBenchCase(b *testing.B) (map[string]any, []benchTemplate, int) {
	b.Helper()
	data, err := os.ReadFile(corpusComposition)
	if err != nil {
		b.Fatal(err)
	}
	c, err := native.Decode(data)
	if err != nil {
		b.Fatal(err)
	}
	c.Default()
	if errs := c.Validate(); len(errs) > 0 {
		b.Fatal(errs.ToAggregate())
	}
	xr := map[string]any{
		"apiVersion": "rds.aws.example.cloud/v1alpha1", "kind": "CompositeDBInstance",
		"metadata": map[string]any{"name": "bench", "labels": map[string]any{"crossplane.io/composite": "bench", "crossplane.io/claim-name": "bench"}},
	}
	xrp := fieldpath.Pave(xr)
	var out []benchTemplate
	count := 0
	for _, t := range c.Templates() {
		base, err := t.Object()
		if err != nil {
			b.Fatal(err)
		}
		patches, err := pt.ExpandPatchSets(c.PatchSets(), t.Patches)
		if err != nil {
			b.Fatal(err)
		}
		var keep []pt.Patch
		for _, p := range patches {
			if p.Type != pt.PatchTypeFromCompositeFieldPath && p.Type != pt.PatchTypeCombineFromComposite {
				continue
			}
			var sources []string
			if p.FromFieldPath != nil {
				sources = append(sources, *p.FromFieldPath)
			}
			if p.Combine != nil {
				for _, v := range p.Combine.Variables {
					sources = append(sources, v.FromFieldPath)
				}
			}
			ok := false
			for _, v := range []any{"value", int64(1), true} {
				for _, s := range sources {
					if _, err := xrp.GetValue(s); pt.IsNotFound(err) {
						_ = xrp.SetValue(s, v)
					}
				}
				to := fieldpath.Pave(deepCopy(base))
				if pt.Apply(pt.Native, p, xrp, to) == nil {
					ok = true
					break
				}
				for _, s := range sources {
					_ = xrp.DeleteField(s)
				}
			}
			if ok {
				keep = append(keep, p)
			}
		}
		count += len(keep)
		out = append(out, benchTemplate{base: base, patches: keep})
	}
	return xrp.UnstructuredContent(), out, count
}

func deepCopy(o map[string]any) map[string]any {
	v, err := pt.Normalize(o)
	if err != nil {
		panic(err)
	}
	return v.(map[string]any)
}

// BenchmarkApplyCorpusComposition applies every FromComposite patch of the
// largest corpus composition to a fresh copy of its base, once per op.
func BenchmarkApplyCorpusComposition(b *testing.B) {
	xr, templates, n := loadBenchCase(b)
	from := fieldpath.Pave(xr)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, t := range templates {
			to := fieldpath.Pave(deepCopy(t.base))
			for _, p := range t.patches {
				if err := pt.Apply(pt.Native, p, from, to); err != nil {
					b.Fatal(err)
				}
			}
		}
	}
	b.ReportMetric(float64(n), "patches/op")
}
