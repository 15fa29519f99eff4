package convert

import "testing"

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
