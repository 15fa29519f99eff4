package live

import (
	"context"
	"fmt"
	"runtime"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/yaml"

	"github.com/xpmigrate/xpmigrate/internal/cluster"
	"github.com/xpmigrate/xpmigrate/render/verify"
)

// generated hands over n XRs of legacyYAML, made as they are asked for,
// each with a Bucket a provider late-initialised (drift on every XR: ten
// fields no template sets) and one field edited by hand (an emulation
// difference on every XR).
type generated struct{ n int }

func (g generated) Composites(ctx context.Context, _ *unstructured.Unstructured, fn func(*cluster.Composite) error) error {
	for i := range g.n {
		if err := ctx.Err(); err != nil {
			return err
		}
		name := fmt.Sprintf("x-%05d", i)
		var xr, bucket map[string]any
		if err := yaml.Unmarshal([]byte(fmt.Sprintf(`apiVersion: example.org/v1alpha1
kind: XThing
metadata: {name: %[1]s, uid: u-%[1]s, labels: {crossplane.io/composite: %[1]s}}
spec: {size: small, compositionRef: {name: buckets}, resourceRefs: [{apiVersion: example.org/v1, kind: Bucket, name: %[1]s-bucket}]}
status:
  arn: arn:x
  conditions: [{type: Synced, status: "True", reason: ReconcileSuccess}, {type: Ready, status: "True", reason: Available}]
`, name)), &xr); err != nil {
			return err
		}
		if err := yaml.Unmarshal([]byte(fmt.Sprintf(`apiVersion: example.org/v1
kind: Bucket
metadata:
  name: %[1]s-bucket
  labels: {crossplane.io/composite: %[1]s, crossplane.io/claim-name: "", crossplane.io/claim-namespace: ""}
  annotations: {crossplane.io/composition-resource-name: bucket}
spec:
  forProvider:
    region: eu-west-1
    size: small
    acl: private
    objectLockEnabled: false
    forceDestroy: false
    tags: {crossplane-kind: bucket.example.org, crossplane-name: %[1]s-bucket, crossplane-providerconfig: default}
    versioning: {enabled: false, mfaDelete: false}
    encryption: {algorithm: AES256, bucketKeyEnabled: false}
  deletionPolicy: Delete
  providerConfigRef: {name: default}
status:
  atProvider: {arn: "arn:x"}
  conditions: [{type: Ready, status: "True", reason: Available}]
`, name)), &bucket); err != nil {
			return err
		}
		c := &cluster.Composite{XR: &unstructured.Unstructured{Object: xr}, Composed: []cluster.Composed{{
			Ref: cluster.Ref{APIVersion: "example.org/v1", Kind: "Bucket", Name: name + "-bucket"}, State: cluster.Found,
			Object: &unstructured.Unstructured{Object: bucket}, ResourceName: "bucket",
		}}}
		if err := fn(c); err != nil {
			return err
		}
	}
	return nil
}

func (generated) EnvironmentConfigs(context.Context) ([]*unstructured.Unstructured, error) {
	return nil, nil
}

func (generated) Missing() []cluster.Permission { return nil }

// BenchmarkVerifyFindings runs Verify over 100 and 2,000 generated XRs,
// each with an emulation difference and drifted fields, and reports the
// heap the Report holds (after a collection, the Report alive): what the
// report costs as the XRs grow. No API server: the reader's part is
// BenchmarkVerifyClusterHeap's (e2e).
//
//	go test ./render/verify/live/ -run '^$' -bench VerifyFindings -benchtime 1x
func BenchmarkVerifyFindings(b *testing.B) {
	legacy := verify.Document{Path: "legacy.yaml", Data: []byte(legacyYAML)}
	for _, n := range []int{100, 2000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			var base, held runtime.MemStats
			for b.Loop() {
				runtime.GC()
				runtime.ReadMemStats(&base)
				rep, err := Verify(context.Background(), generated{n: n}, legacy, verify.Document{}, Options{Verify: verify.Options{Convert: testConvert(b)}})
				if err != nil {
					b.Fatal(err)
				}
				if rep.XRs != n || rep.EmulationXRs != n {
					b.Fatalf("Verify: %d XRs, %d with emulation differences; want %d each", rep.XRs, rep.EmulationXRs, n)
				}
				runtime.GC()
				runtime.ReadMemStats(&held)
				runtime.KeepAlive(rep)
			}
			report := float64(held.HeapAlloc) - float64(base.HeapAlloc)
			b.ReportMetric(report/(1<<20), "report-MiB")
			b.ReportMetric(report/float64(n)/1024, "report-KiB/XR")
		})
	}
}
