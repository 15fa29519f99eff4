package engine

import (
	"context"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/xpmigrate/xpmigrate/internal/benchdata"
	"github.com/xpmigrate/xpmigrate/internal/manifest"
	"github.com/xpmigrate/xpmigrate/render"
)

// benchComposition builds a legacy composition with n templates, each with
// a PatchSet, a transformed patch, a Combine, a ToComposite patch, a
// connection detail and a readiness check, and its pipeline twin.
func benchComposition(n int) (legacyC, pipelineC map[string]any) {
	var resources []any
	var ptResources []any
	for i := 0; i < n; i++ {
		name := fmt.Sprintf("bucket-%d", i)
		base := map[string]any{
			"apiVersion": "s3.aws.upbound.io/v1beta1", "kind": "Bucket",
			"spec": map[string]any{"forProvider": map[string]any{"tags": map[string]any{"index": fmt.Sprint(i)}}},
		}
		patches := []any{
			map[string]any{"type": "PatchSet", "patchSetName": "common"},
			map[string]any{"type": "FromCompositeFieldPath", "fromFieldPath": "spec.parameters.size", "toFieldPath": "spec.forProvider.size",
				"transforms": []any{map[string]any{"type": "map", "map": map[string]any{"small": "S", "large": "L"}}}},
			map[string]any{"type": "CombineFromComposite", "toFieldPath": "spec.forProvider.bucketName",
				"combine": map[string]any{"strategy": "string", "variables": []any{
					map[string]any{"fromFieldPath": "metadata.name"}, map[string]any{"fromFieldPath": "spec.parameters.region"}},
					"string": map[string]any{"fmt": "%s-%s"}}},
			map[string]any{"type": "ToCompositeFieldPath", "fromFieldPath": "status.atProvider.arn", "toFieldPath": fmt.Sprintf("status.arns.b%d", i)},
		}
		details := []any{map[string]any{"type": "FromFieldPath", "name": fmt.Sprintf("arn-%d", i), "fromFieldPath": "status.atProvider.arn"}}
		checks := []any{map[string]any{"type": "MatchCondition", "matchCondition": map[string]any{"type": "Ready", "status": "True"}}}
		resources = append(resources, map[string]any{"name": name, "base": base, "patches": patches, "connectionDetails": details, "readinessChecks": checks})
		ptResources = append(ptResources, map[string]any{"name": name, "base": base, "patches": patches, "connectionDetails": details, "readinessChecks": checks})
	}
	patchSets := []any{map[string]any{"name": "common", "patches": []any{
		map[string]any{"type": "FromCompositeFieldPath", "fromFieldPath": "spec.parameters.region", "toFieldPath": "spec.forProvider.region"},
		map[string]any{"type": "FromCompositeFieldPath", "fromFieldPath": "metadata.labels[team]", "toFieldPath": "metadata.labels[team]"},
	}}}
	meta := map[string]any{"name": "bench"}
	ref := map[string]any{"apiVersion": "example.org/v1", "kind": "XBench"}
	legacyC = map[string]any{
		"apiVersion": "apiextensions.crossplane.io/v1", "kind": "Composition", "metadata": meta,
		"spec": map[string]any{"compositeTypeRef": ref, "patchSets": patchSets, "resources": resources},
	}
	pipelineC = map[string]any{
		"apiVersion": "apiextensions.crossplane.io/v1", "kind": "Composition", "metadata": meta,
		"spec": map[string]any{"compositeTypeRef": ref, "mode": "Pipeline", "pipeline": []any{map[string]any{
			"step": "patch-and-transform", "functionRef": map[string]any{"name": "function-patch-and-transform"},
			"input": map[string]any{"apiVersion": "pt.fn.crossplane.io/v1beta1", "kind": "Resources",
				"patchSets": patchSets, "resources": ptResources},
		}}},
	}
	return legacyC, pipelineC
}

func benchXR() map[string]any {
	return map[string]any{
		"apiVersion": "example.org/v1", "kind": "XBench",
		"metadata": map[string]any{"name": "bench", "labels": map[string]any{"team": "platform"}},
		"spec":     map[string]any{"parameters": map[string]any{"size": "small", "region": "eu-west-1"}},
	}
}

// BenchmarkRender renders and prints one reconcile of compositions of 1 to 1,000
// composed resources, legacy and pipeline. Divide ns/op by the resource
// count for the cost per composed resource.
func BenchmarkRender(b *testing.B) {
	for _, n := range []int{1, 10, 100, 1000} {
		legacyC, pipelineC := benchComposition(n)
		for _, c := range []struct {
			mode string
			comp map[string]any
		}{{"Legacy", legacyC}, {"Pipeline", pipelineC}} {
			b.Run(fmt.Sprintf("%s/%d", c.mode, n), func(b *testing.B) {
				req := Request{XR: benchXR(), Composition: c.comp}
				b.ReportAllocs()
				for i := 0; i < b.N; i++ {
					res, err := Render(context.Background(), req, Options{})
					if err != nil {
						b.Fatal(err)
					}
					// What xpmigrate render does next: print it.
					if err := render.Print(io.Discard, res.Outcome, render.PrintOptions{}); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n)/1e6, "ms/resource")
			})
		}
	}
}

// convertedComposition is what `xpmigrate convert` makes of the legacy
// composition the migrate benchmark generates (internal/benchdata's
// Composition) with n resources: one function-patch-and-transform step
// whose templates each have a PatchSet (two patches, one merging labels), a
// map and a format transform, a status write, a connection detail and a
// readiness check.
func convertedComposition(n int) string {
	var b strings.Builder
	b.WriteString(`apiVersion: apiextensions.crossplane.io/v1
kind: Composition
metadata:
  name: xthings-0.bench.example.org
  labels:
    provider: aws
spec:
  compositeTypeRef:
    apiVersion: bench.example.org/v1
    kind: XThing0
  writeConnectionSecretsToNamespace: crossplane-system
  mode: Pipeline
  pipeline:
  - step: patch-and-transform
    functionRef:
      name: function-patch-and-transform
    input:
      apiVersion: pt.fn.crossplane.io/v1beta1
      kind: Resources
      patchSets:
      - name: common
        patches:
        - type: FromCompositeFieldPath
          fromFieldPath: spec.region
          toFieldPath: spec.forProvider.region
        - type: FromCompositeFieldPath
          fromFieldPath: metadata.labels
          toFieldPath: metadata.labels
          policy:
            toFieldPath: MergeObjects
      resources:
`)
	for r := 0; r < n; r++ {
		fmt.Fprintf(&b, `      - name: bucket-%[1]d
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
        - type: FromCompositeFieldPath
          fromFieldPath: spec.size
          toFieldPath: spec.forProvider.size
          transforms:
          - type: map
            map:
              small: "10"
              large: "100"
        - type: FromCompositeFieldPath
          fromFieldPath: metadata.name
          toFieldPath: metadata.annotations[crossplane.io/external-name]
          transforms:
          - type: string
            string:
              type: Format
              fmt: "%%s-bucket-%[1]d"
        - type: ToCompositeFieldPath
          fromFieldPath: status.atProvider.arn
          toFieldPath: status.bucket%[1]dArn
        connectionDetails:
        - name: arn-%[1]d
          type: FromFieldPath
          fromFieldPath: status.atProvider.arn
        readinessChecks:
        - type: None
`, r)
	}
	return b.String()
}

// BenchmarkRenderConverted renders a converted 20-resource composition until
// it is stable (3 reconciles), as `xpmigrate migrate --verify` renders the
// pipeline side of each composition. Divide ns/op by 3 for the cost of one
// reconcile.
func BenchmarkRenderConverted(b *testing.B) {
	comp, err := manifest.DecodeObject([]byte(convertedComposition(20)))
	if err != nil {
		b.Fatal(err)
	}
	xr, err := manifest.DecodeObject([]byte(`apiVersion: bench.example.org/v1
kind: XThing0
metadata:
  name: thing-0
  labels:
    team: a
spec:
  region: eu-west-1
  size: large
`))
	if err != nil {
		b.Fatal(err)
	}
	req := Request{XR: xr, Composition: comp}
	b.ReportAllocs()
	for b.Loop() {
		res, err := Render(context.Background(), req, Options{UntilStable: true})
		if err != nil {
			b.Fatal(err)
		}
		if res.Loops != 3 || !res.Stable {
			b.Fatalf("rendered %d reconciles (stable %t), want 3 and stable", res.Loops, res.Stable)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/3/1e6, "ms/reconcile")
}

// BenchmarkRenderLegacy renders the migrate benchmark's legacy 20-resource
// composition until it is stable, as `xpmigrate migrate --verify` renders
// the legacy side of each composition: the twin of BenchmarkRenderConverted.
// The legacy side is stable after 2 reconciles; ms/reconcile divides by the
// reconciles that ran.
func BenchmarkRenderLegacy(b *testing.B) {
	comp, err := manifest.DecodeObject([]byte(benchdata.Composition(0, 20)))
	if err != nil {
		b.Fatal(err)
	}
	xr, err := manifest.DecodeObject([]byte(`apiVersion: bench.example.org/v1
kind: XThing0
metadata:
  name: thing-0
  labels:
    team: a
spec:
  region: eu-west-1
  size: large
`))
	if err != nil {
		b.Fatal(err)
	}
	req := Request{XR: xr, Composition: comp}
	b.ReportAllocs()
	loops := 0
	for b.Loop() {
		res, err := Render(context.Background(), req, Options{UntilStable: true})
		if err != nil {
			b.Fatal(err)
		}
		if !res.Stable {
			b.Fatalf("rendered %d reconciles, not stable", res.Loops)
		}
		loops += res.Loops
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(loops)/1e6, "ms/reconcile")
}

// BenchmarkNewLegacy reads the migrate benchmark's legacy 20-resource
// composition as every legacy render does first: encode, decode, default,
// validate.
func BenchmarkNewLegacy(b *testing.B) {
	comp, err := manifest.DecodeObject([]byte(benchdata.Composition(0, 20)))
	if err != nil {
		b.Fatal(err)
	}
	req := Request{Composition: comp}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := newLegacy(req); err != nil {
			b.Fatal(err)
		}
	}
}
