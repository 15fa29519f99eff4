package convert

import (
	"testing"

	"github.com/xpmigrate/xpmigrate/internal/benchdata"
)

// BenchmarkConvertCorpus converts the whole shared corpus, file by file,
// in one process: one op is the whole corpus.
func BenchmarkConvertCorpus(b *testing.B) {
	files := corpusFiles(b)
	var size int64
	for _, f := range files {
		size += int64(len(f.data))
	}
	b.SetBytes(size)
	b.ReportAllocs()
	var compositions int
	for b.Loop() {
		compositions = 0
		for _, f := range files {
			res, err := Convert(f.data, Options{Source: f.rel})
			if err != nil {
				continue // Not YAML (Helm templates): skipped, as the CLI would.
			}
			for _, d := range res.Documents {
				if d.Kind == "Composition" {
					compositions++
				}
			}
		}
	}
	b.ReportMetric(float64(compositions), "compositions/op")
}

// BenchmarkConvertGenerated converts one generated Composition of 20
// resources (about 27 KB, 950 lines), the unit of the migrate benchmark
// (convert/migrate BenchmarkMigrate): one op is one Composition.
//
//	go test ./convert/ -run '^$' -bench BenchmarkConvertGenerated -benchmem -count 5
func BenchmarkConvertGenerated(b *testing.B) {
	src := []byte(benchdata.Composition(7, 20))
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		res, err := Convert(src, Options{Source: "composition.yaml"})
		if err != nil {
			b.Fatal(err)
		}
		if res.Failed() || res.Documents[0].Status != StatusConverted {
			b.Fatalf("Convert(...): not converted:\n%s", render(res.Diagnostics))
		}
	}
}
