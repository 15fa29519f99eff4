// Package benchdata generates the inputs of the benchmarks that measure
// the migrate workload (convert/migrate's BenchmarkMigrate, convert's
// BenchmarkConvertGenerated, render/engine's BenchmarkRenderLegacy), so
// that they measure the same Compositions.
package benchdata

import (
	"fmt"
	"strings"
)

// Composition returns legacy Composition number i with n resources, each
// with a PatchSet, map and format transforms, a status write, a connection
// detail and a readiness check, as real compositions have: about 950 lines
// and 27 KB for 20 resources.
func Composition(i, n int) string {
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
