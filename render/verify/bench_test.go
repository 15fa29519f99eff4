package verify

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/xpmigrate/xpmigrate/internal/crossplane"
)

// benchComposition is a legacy Composition with n templates, each with a
// PatchSet, a map transform, a string format, a ToComposite patch into
// status, a connection detail and a readiness check.
func benchComposition(n int) string {
	var b strings.Builder
	b.WriteString(`apiVersion: apiextensions.crossplane.io/v1
kind: Composition
metadata:
  name: xbenches.example.org
spec:
  compositeTypeRef:
    apiVersion: example.org/v1
    kind: XBench
  patchSets:
  - name: common
    patches:
    - fromFieldPath: spec.region
      toFieldPath: spec.forProvider.region
    - fromFieldPath: spec.providerConfigName
      toFieldPath: spec.providerConfigRef.name
  resources:
`)
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, `  - name: r%02d
    base:
      apiVersion: nop.crossplane.io/v1alpha1
      kind: NopResource
      spec:
        forProvider:
          index: %d
    patches:
    - type: PatchSet
      patchSetName: common
    - fromFieldPath: spec.size
      toFieldPath: spec.forProvider.class
      transforms:
      - type: map
        map:
          small: c.small
          large: c.large
    - fromFieldPath: metadata.name
      toFieldPath: spec.forProvider.name
      transforms:
      - type: string
        string:
          fmt: "%%s-r%02d"
    - type: ToCompositeFieldPath
      fromFieldPath: spec.forProvider.name
      toFieldPath: status.names.r%02d
    connectionDetails:
    - name: r%02d-endpoint
      fromFieldPath: spec.forProvider.name
    readinessChecks:
    - type: NonEmpty
      fieldPath: spec.forProvider.class
`, i, i, i, i, i)
	}
	return b.String()
}

func benchSamples(n int) []Sample {
	out := make([]Sample, n)
	for i := range out {
		size := "small"
		if i%2 == 1 {
			size = "large"
		}
		out[i] = Sample{Name: fmt.Sprintf("xr-%03d", i), XR: map[string]any{
			"apiVersion": "example.org/v1",
			"kind":       "XBench",
			"metadata":   map[string]any{"name": fmt.Sprintf("bench-%03d", i)},
			"spec": map[string]any{
				"region":             fmt.Sprintf("region-%d", i%5),
				"providerConfigName": "default",
				"size":               size,
			},
		}}
	}
	return out
}

// BenchmarkVerify verifies a 20-resource composition for 100 XR samples,
// until both sides are stable (3 reconciles each).
func BenchmarkVerify(b *testing.B) {
	legacy := []byte(benchComposition(20))
	converted, err := referenceConvert(ConvertRequest{Composition: legacy, Target: crossplane.V1})
	if err != nil {
		b.Fatal(err)
	}
	samples := benchSamples(100)
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r, err := Verify(ctx, Document{Path: "legacy.yaml", Data: legacy}, Document{Path: "converted.yaml", Data: converted}, samples, Options{})
		if err != nil {
			b.Fatal(err)
		}
		if !r.Equivalent() || r.Unexplained > 0 {
			b.Fatalf("verdict %s, %d unexplained", r.Verdict, r.Unexplained)
		}
	}
}

// TestBenchComposition keeps the benchmark honest: its pair verifies and
// every patch fires.
func TestBenchComposition(t *testing.T) {
	legacy := []byte(benchComposition(20))
	converted, err := referenceConvert(ConvertRequest{Composition: legacy, Target: crossplane.V1})
	if err != nil {
		t.Fatal(err)
	}
	r, err := Verify(context.Background(), Document{Path: "legacy.yaml", Data: legacy}, Document{Path: "converted.yaml", Data: converted}, benchSamples(2), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Unexplained > 0 || len(r.Unexercised) > 0 {
		t.Errorf("Verify(bench): %d unexplained, unexercised %v:\n%s", r.Unexplained, r.Unexercised, strings.Join(summary(r), "\n"))
	}
	t.Logf("reconciles: %d; differences:\n%s", r.Samples[0].Loops, strings.Join(summary(r), "\n"))
}
