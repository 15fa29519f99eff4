package convert

import (
	"fmt"
	"strings"
	"testing"
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
// (convert/batch BenchmarkMigrate): one op is one Composition.
//
//	go test ./convert/ -run '^$' -bench BenchmarkConvertGenerated -benchmem -count 5
func BenchmarkConvertGenerated(b *testing.B) {
	src := []byte(generatedComposition(7, 20))
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

// generatedComposition writes a legacy Composition with n resources, each
// with a PatchSet, map and format transforms, a status write, a
// connection detail and a readiness check (the text of convert/batch's
// benchComposition).
func generatedComposition(i, n int) string {
	var b strings.Builder
	fmt.Fprintf(&b, `# Generated benchmark composition %d.
apiVersion: apiextensions.crossplane.io/v1
kind: Composition
metadata:
  name: xthings-%d.bench.example.org
  labels:
    provider: aws
spec:
  compositeTypeRef:
    apiVersion: bench.example.org/v1
    kind: XThing%d
  writeConnectionSecretsToNamespace: crossplane-system
  patchSets:
  - name: common
    patches:
    - fromFieldPath: spec.region
      toFieldPath: spec.forProvider.region
    - fromFieldPath: metadata.labels
      toFieldPath: metadata.labels
      policy:
        mergeOptions:
          keepMapValues: true
  resources:
`, i, i, i)
	for r := 0; r < n; r++ {
		fmt.Fprintf(&b, `  - name: bucket-%[1]d # resource %[1]d
    base:
      apiVersion: s3.aws.upbound.io/v1beta1
      kind: Bucket
      spec:
        forProvider:
          region: us-east-1
          tags:
            team: platform
    patches:
    - type: PatchSet
      patchSetName: common
    - fromFieldPath: spec.size
      toFieldPath: spec.forProvider.size
      transforms:
      - type: map
        map:
          small: "10"
          large: "100"
    - fromFieldPath: metadata.name
      toFieldPath: metadata.annotations[crossplane.io/external-name]
      transforms:
      - type: string
        string:
          fmt: "%%s-bucket-%[1]d"
    - type: ToCompositeFieldPath
      fromFieldPath: status.atProvider.arn
      toFieldPath: status.bucket%[1]dArn
    connectionDetails:
    - name: arn-%[1]d
      fromFieldPath: status.atProvider.arn
    readinessChecks:
    - type: None
`, r)
	}
	return b.String()
}
