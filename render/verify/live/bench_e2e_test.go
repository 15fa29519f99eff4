//go:build e2e

package live_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/xpmigrate/xpmigrate/convert/migrate"
	"github.com/xpmigrate/xpmigrate/internal/cluster"
	"github.com/xpmigrate/xpmigrate/internal/kubetest"
	"github.com/xpmigrate/xpmigrate/render/verify"
	"github.com/xpmigrate/xpmigrate/render/verify/live"
)

// benchComposed is the number of composed resources of the benchmark's
// Composition.
const benchComposed = 10

// benchYAML is a legacy Composition of benchComposed Buckets, each with its
// size mapped from the XR's.
func benchYAML() string {
	var b strings.Builder
	b.WriteString(`apiVersion: apiextensions.crossplane.io/v1
kind: Composition
metadata:
  name: bench
spec:
  compositeTypeRef:
    apiVersion: example.org/v1alpha1
    kind: XThing
  resources:
`)
	for j := range benchComposed {
		fmt.Fprintf(&b, `  - name: bucket-%d
    base:
      apiVersion: example.org/v1
      kind: Bucket
      spec:
        forProvider:
          region: us-east-1
          tier: gold
    patches:
    - type: FromCompositeFieldPath
      fromFieldPath: spec.size
      toFieldPath: spec.forProvider.size
      transforms:
      - type: map
        map:
          small: S
          large: L
`, j)
	}
	return b.String()
}

// benchSeed creates XRs bench-0000 … (XPMIGRATE_BENCH_XRS, 2000 by
// default) of the Composition bench, each with benchComposed Buckets as
// the legacy composer wrote them, and writes the Composition's file.
var benchSeed = sync.OnceValues(func() (int, error) {
	n := 2000
	if v := os.Getenv("XPMIGRATE_BENCH_XRS"); v != "" {
		var err error
		if n, err = strconv.Atoi(v); err != nil {
			return 0, err
		}
	}
	ctx := context.Background()
	y := benchYAML()
	if err := os.WriteFile(filepath.Join(dir, "bench.yaml"), []byte(y), 0o600); err != nil {
		return 0, err
	}
	comp := fromYAML(y)
	if err := server.Create(ctx, comp, revision(comp, "bench-1", 1)); err != nil {
		return 0, err
	}
	labels := func(name string) map[string]any {
		return map[string]any{"crossplane.io/composite": name, "crossplane.io/claim-name": "", "crossplane.io/claim-namespace": ""}
	}
	// Eight writers: the set-up is the admin's, not what is measured.
	const writers = 8
	parallel := func(f func(i int) error) error {
		errs := make(chan error, writers)
		for w := range writers {
			go func() {
				for i := w; i < n; i += writers {
					if err := f(i); err != nil {
						errs <- err
						return
					}
				}
				errs <- nil
			}()
		}
		var first error
		for range writers {
			if err := <-errs; err != nil && first == nil {
				first = err
			}
		}
		return first
	}
	err := parallel(func(i int) error {
		name := fmt.Sprintf("bench-%04d", i)
		refs := make([]any, benchComposed)
		for j := range refs {
			refs[j] = map[string]any{"apiVersion": "example.org/v1", "kind": "Bucket", "name": fmt.Sprintf("%s-%d", name, j)}
		}
		return server.Create(ctx, u(map[string]any{
			"apiVersion": "example.org/v1alpha1", "kind": "XThing",
			"metadata": map[string]any{"name": name, "labels": map[string]any{"crossplane.io/composite": name}},
			"spec": map[string]any{
				"size": "small", "compositionRef": map[string]any{"name": "bench"},
				"compositionRevisionRef": map[string]any{"name": "bench-1"}, "compositionUpdatePolicy": "Automatic",
				"resourceRefs": refs,
			},
			"status": map[string]any{"conditions": conditions},
		}))
	})
	if err != nil {
		return 0, err
	}
	dyn, _, err := server.Client(kubetest.Admin)
	if err != nil {
		return 0, err
	}
	list, err := dyn.Resource(schema.GroupVersionResource{Group: "example.org", Version: "v1alpha1", Resource: "xthings"}).List(ctx, metav1.ListOptions{})
	if err != nil {
		return 0, err
	}
	uids := map[string]string{}
	for _, x := range list.Items {
		uids[x.GetName()] = string(x.GetUID())
	}
	err = parallel(func(i int) error {
		name := fmt.Sprintf("bench-%04d", i)
		objs := make([]*unstructured.Unstructured, 0, benchComposed)
		for j := range benchComposed {
			objs = append(objs, u(map[string]any{
				"apiVersion": "example.org/v1", "kind": "Bucket",
				"metadata": map[string]any{
					"name":        fmt.Sprintf("%s-%d", name, j),
					"labels":      labels(name),
					"annotations": map[string]any{"crossplane.io/composition-resource-name": fmt.Sprintf("bucket-%d", j)},
					"ownerReferences": []any{map[string]any{
						"apiVersion": "example.org/v1alpha1", "kind": "XThing", "name": name, "uid": uids[name],
						"controller": true, "blockOwnerDeletion": true,
					}},
				},
				"spec":   map[string]any{"forProvider": map[string]any{"region": "us-east-1", "size": "S", "tier": "gold"}},
				"status": map[string]any{"conditions": conditions},
			}))
		}
		return server.Create(ctx, objs...)
	})
	return n, err
})

// BenchmarkVerifyCluster runs `xpmigrate verify bench.yaml --cluster` (the
// built binary, as the read-only user, converting on the fly) over every
// XR of a 10-resource Composition, and reports the time per XR and the
// binary's peak RSS (peak-RSS-MiB), with the floor under that figure
// (exec-floor-MiB: see resetPeakRSS). Not a timed test: figures go in
// docs/performance.md.
//
//	make kube-apiserver
//	go test -tags e2e -run '^$' -bench VerifyCluster -benchtime 1x ./render/verify/live/
func BenchmarkVerifyCluster(b *testing.B) {
	n, err := benchSeed()
	if err != nil {
		b.Fatalf("seed: %v", err)
	}
	for name, flags := range map[string][]string{
		"defaults":  nil,
		"unlimited": {"--qps", "10000", "--burst", "10000", "--concurrency", "16"},
	} {
		b.Run(name, func(b *testing.B) {
			var maxRSS, floor int64
			reset := true
			for b.Loop() {
				b.StopTimer()
				f, ok := resetPeakRSS()
				reset, floor = reset && ok, max(floor, f)
				b.StartTimer()
				args := append([]string{"verify", filepath.Join(dir, "bench.yaml"), "--cluster", "--kubeconfig", server.Kubeconfig(kubetest.Reader),
					"--format", "json", "--timeout", "1h"}, flags...)
				cmd := exec.Command(bin, args...)
				out, err := cmd.Output()
				if err != nil {
					b.Fatalf("xpmigrate verify --cluster: %v\n%s", err, out)
				}
				if !strings.Contains(string(out), fmt.Sprintf(`"xrs": %d,`, n)) || !strings.Contains(string(out), `"verdict": "equivalent"`) {
					b.Fatalf("xpmigrate verify --cluster: want %d equivalent XRs, got:\n%.2000s", n, out)
				}
				if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
					maxRSS = max(maxRSS, ru.Maxrss) // KiB on Linux
				}
			}
			b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N)/float64(n), "ms/XR")
			if !reset {
				b.Log("cannot reset this process's peak RSS (/proc/self/clear_refs): the binary's ru_maxrss would be this process's, not reported")
				return
			}
			b.ReportMetric(float64(maxRSS)/1024, "peak-RSS-MiB")
			b.ReportMetric(float64(floor)/1024, "exec-floor-MiB")
		})
	}
}

// BenchmarkVerifyClusterHeap runs live.Verify in process over the same XRs
// as BenchmarkVerifyCluster (as the read-only user, no rate limit,
// Concurrency 16) and reports the heap in use, sampled every 100 XRs
// every 10 XRs without forcing a collection (peak-heap-MiB), and after a
// collection at the end with the report still held (report-heap-MiB): what
// the report costs, apart from the garbage collector's headroom; also the
// memory the Go runtime took from the system (go-sys-MiB) and the
// process's peak RSS while Verify ran (peak-RSS-MiB, Linux).
//
//	go test -tags e2e -run '^$' -bench VerifyClusterHeap -benchtime 1x ./render/verify/live/
func BenchmarkVerifyClusterHeap(b *testing.B) {
	n, err := benchSeed()
	if err != nil {
		b.Fatalf("seed: %v", err)
	}
	y, err := os.ReadFile(filepath.Join(dir, "bench.yaml"))
	if err != nil {
		b.Fatal(err)
	}
	cfg, _, err := cluster.LoadConfig(cluster.Kubeconfig{Path: server.Kubeconfig(kubetest.Reader)})
	if err != nil {
		b.Fatal(err)
	}
	var peak, held, sys uint64
	// The peak RSS of this process from here on (Linux: writing 5 to
	// clear_refs resets VmHWM to the current RSS), apart from the
	// seeding's, its freed memory returned to the system first.
	debug.FreeOSMemory()
	resetRSS := os.WriteFile("/proc/self/clear_refs", []byte("5"), 0) == nil
	for b.Loop() {
		r, err := cluster.NewReader(cfg, cluster.Options{QPS: -1, Concurrency: 16})
		if err != nil {
			b.Fatal(err)
		}
		var ms runtime.MemStats
		o := live.Options{Verify: verify.Options{Convert: migrate.VerifyConverter}}
		o.Progress = func(k int) {
			if k%10 == 0 {
				runtime.ReadMemStats(&ms)
				peak, sys = max(peak, ms.HeapInuse), max(sys, ms.Sys)
			}
		}
		rep, err := live.Verify(context.Background(), r, verify.Document{Path: "bench.yaml", Data: y}, verify.Document{}, o)
		if err != nil {
			b.Fatal(err)
		}
		if rep.XRs != n || rep.Verdict != live.Equivalent {
			b.Fatalf("live.Verify: %d XRs, %s; want %d, equivalent", rep.XRs, rep.Verdict, n)
		}
		runtime.GC()
		runtime.ReadMemStats(&ms)
		held = max(held, ms.HeapInuse)
		runtime.KeepAlive(rep)
	}
	b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N)/float64(n), "ms/XR")
	b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MiB")
	b.ReportMetric(float64(held)/(1<<20), "report-heap-MiB")
	b.ReportMetric(float64(sys)/(1<<20), "go-sys-MiB")
	if resetRSS {
		b.ReportMetric(float64(vmHWM())/1024, "peak-RSS-MiB")
	}
}

// resetPeakRSS prepares this process for measuring the peak RSS of a child
// by its ru_maxrss, and returns the floor under that figure (KiB): what a
// child that itself takes next to nothing (/bin/true) reports. os/exec
// starts a child with vfork (CLONE_VM: it shares this process's memory
// until it execs), and Linux's exec folds the high-water mark of the memory
// it leaves into the child's ru_maxrss (exec_mmap, setmax_mm_hiwater_rss):
// a child's ru_maxrss is at least this process's peak RSS so far, here
// that of seeding the API server, which grows with the XRs. So this
// returns freed memory to the system and resets this process's high-water
// mark to its current RSS (Linux: writing 5 to /proc/self/clear_refs);
// ok is false when it could not.
func resetPeakRSS() (floor int64, ok bool) {
	debug.FreeOSMemory()
	if os.WriteFile("/proc/self/clear_refs", []byte("5"), 0) != nil {
		return 0, false
	}
	cmd := exec.Command("/bin/true")
	if cmd.Run() != nil {
		return 0, false
	}
	ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	if !ok {
		return 0, false
	}
	return ru.Maxrss, true
}

// vmHWM is this process's peak RSS in KiB, 0 when unknown.
func vmHWM() int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			n, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			return n
		}
	}
	return 0
}
