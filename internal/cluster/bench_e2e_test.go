//go:build e2e

package cluster_test

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"sync"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/xpmigrate/xpmigrate/internal/cluster"
	"github.com/xpmigrate/xpmigrate/internal/kubetest"
)

// benchXRs is the number of XRs BenchmarkComposites reads
// (XPMIGRATE_BENCH_XRS, 2000 by default), each with benchComposed composed
// resources.
const benchComposed = 10

var benchSeed = sync.OnceValues(func() (int, error) {
	n := 2000
	if v := os.Getenv("XPMIGRATE_BENCH_XRS"); v != "" {
		var err error
		if n, err = strconv.Atoi(v); err != nil {
			return 0, err
		}
	}
	ctx := context.Background()
	x := xrd()
	x.SetName("xbenches.example.org")
	spec := x.Object["spec"].(map[string]any)
	spec["names"] = map[string]any{"kind": "XBench", "plural": "xbenches"}
	delete(spec, "claimNames")
	xrCRD, _, err := kubetest.CompositeCRDs(x)
	if err != nil {
		return 0, err
	}
	if err := server.InstallCRDs(ctx, xrCRD); err != nil {
		return 0, err
	}
	comp := composition("bench", nil)
	comp.Object["spec"].(map[string]any)["compositeTypeRef"] = map[string]any{"apiVersion": "example.org/v1alpha1", "kind": "XBench"}
	if err := server.Create(ctx, comp, revision("bench-1", "bench", 1)); err != nil {
		return 0, err
	}
	// Eight writers: the set-up is the admin's, not what is measured.
	const writers = 8
	errs := make(chan error, writers)
	for w := range writers {
		go func() {
			for i := w; i < n; i += writers {
				name := fmt.Sprintf("bench-%04d", i)
				buckets := make([]string, benchComposed)
				objs := make([]*unstructured.Unstructured, 0, benchComposed+1)
				for j := range buckets {
					buckets[j] = fmt.Sprintf("%s-%d", name, j)
					objs = append(objs, bucket(buckets[j], name))
				}
				o := xr(name, "bench", "bench-1", "", buckets...)
				o.SetKind("XBench")
				objs = append(objs, o)
				if err := server.Create(ctx, objs...); err != nil {
					errs <- err
					return
				}
			}
			errs <- nil
		}()
	}
	for range writers {
		if err := <-errs; err != nil {
			return 0, err
		}
	}
	return n, nil
})

// BenchmarkComposites reads every XR of a Composition with its composed
// resources from the local API server as the read-only user: "defaults" with
// the default concurrency, rate limit and page size (bound by the rate limit:
// 11 requests per XR at DefaultQPS), "unlimited" without a rate limit and 16
// XRs at a time (bound by the API server).
//
//	make kube-apiserver
//	go test -tags e2e -run '^$' -bench 'Composites/unlimited' -benchtime 3x ./internal/cluster/
func BenchmarkComposites(b *testing.B) {
	n, err := benchSeed()
	if err != nil {
		b.Fatalf("seed: %v", err)
	}
	for name, o := range map[string]cluster.Options{"defaults": {}, "unlimited": {QPS: -1, Concurrency: 16}} {
		b.Run(name, func(b *testing.B) {
			cfg, _, err := cluster.LoadConfig(cluster.Kubeconfig{Path: server.Kubeconfig(kubetest.Reader)})
			if err != nil {
				b.Fatal(err)
			}
			runtime.GC()
			var peak uint64
			for b.Loop() {
				r, err := cluster.NewReader(cfg, o)
				if err != nil {
					b.Fatal(err)
				}
				comps, err := r.Compositions(context.Background())
				if err != nil {
					b.Fatal(err)
				}
				var comp *unstructured.Unstructured
				for _, c := range comps {
					if c.GetName() == "bench" {
						comp = c
					}
				}
				got, composed := 0, 0
				if err := r.Composites(context.Background(), comp, func(c *cluster.Composite) error {
					got++
					composed += len(c.Composed)
					if got%100 == 0 {
						var ms runtime.MemStats
						runtime.ReadMemStats(&ms)
						peak = max(peak, ms.HeapInuse)
					}
					return nil
				}); err != nil {
					b.Fatal(err)
				}
				if got != n || composed != n*benchComposed {
					b.Fatalf("read %d XRs and %d composed resources, want %d and %d", got, composed, n, n*benchComposed)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N)/float64(n), "ms/XR")
			// The heap in use while XRs stream by (sampled every 100 XRs): it
			// is bounded by the page size and the concurrency, not by n.
			b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MiB")
		})
	}
}
