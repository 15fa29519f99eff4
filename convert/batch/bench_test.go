package batch

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"syscall"
	"testing"
	"time"

	"github.com/xpmigrate/xpmigrate/convert"
	"github.com/xpmigrate/xpmigrate/internal/benchdata"
)

func benchXRD(i int) string {
	return fmt.Sprintf(`apiVersion: apiextensions.crossplane.io/v1
kind: CompositeResourceDefinition
metadata:
  name: xthing%[1]ds.bench.example.org
spec:
  group: bench.example.org
  names:
    kind: XThing%[1]d
    plural: xthing%[1]ds
  versions:
  - name: v1
    served: true
    referenceable: true
`, i)
}

func benchXR(i int) string {
	return fmt.Sprintf(`apiVersion: bench.example.org/v1
kind: XThing%[1]d
metadata:
  name: thing-%[1]d
  labels:
    team: a
spec:
  region: eu-west-1
  size: large
`, i)
}

// genRepo writes a repository of n compositions with r resources each,
// each with its XRD and an XR example.
func genRepo(tb testing.TB, dir string, n, r int) {
	tb.Helper()
	for i := 0; i < n; i++ {
		d := filepath.Join(dir, "apis", fmt.Sprintf("thing%04d", i))
		if err := os.MkdirAll(d, 0o755); err != nil {
			tb.Fatal(err)
		}
		for name, body := range map[string]string{
			"composition.yaml": benchdata.Composition(i, r),
			"definition.yaml":  benchXRD(i),
			"example.yaml":     benchXR(i),
		} {
			if err := os.WriteFile(filepath.Join(d, name), []byte(body), 0o644); err != nil {
				tb.Fatal(err)
			}
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "README.md"), []byte("# bench\n"), 0o644); err != nil {
		tb.Fatal(err)
	}
}

// BenchmarkMigrate migrates, in place and with verification, a generated
// repository of 1,000 compositions of 20 resources each, each with its XRD
// and an XR example, with as many jobs as GOMAXPROCS:
//
//   - Real: with the convert package and render/verify, the whole job;
//   - RealNoVerify: the same with --verify=false;
//   - MigratorOnly: with a textual converter and a verifier that renders
//     nothing, which leaves what the migrator itself costs: walking,
//     scanning, indexing, matching, findings, atomic writes.
//
// It reports the peak RSS of the process (getrusage), which includes the
// benchmark's own setup:
//
//	go test ./convert/batch/ -run '^$' -bench BenchmarkMigrate -benchtime 1x -cpu 2
func BenchmarkMigrate(b *testing.B) {
	// Run the collector as xpmigrate migrate does.
	if os.Getenv("GOGC") == "" {
		defer debug.SetGCPercent(debug.SetGCPercent(GCPercent))
	}
	const compositions, resources = 1000, 20
	pristine := filepath.Join(b.TempDir(), "pristine")
	genRepo(b, pristine, compositions, resources)
	cases := map[string]struct {
		conv   Converter
		ver    Verifier
		verify bool
	}{
		"Real":         {conv: NewConverter(convert.Options{}), ver: NewVerifier(false), verify: true},
		"RealNoVerify": {conv: NewConverter(convert.Options{})},
		"MigratorOnly": {conv: &fakeConverter{}, ver: nopVerifier{}, verify: true},
	}
	for _, name := range []string{"MigratorOnly", "RealNoVerify", "Real"} {
		tc := cases[name]
		b.Run(name, func(b *testing.B) {
			var cpu time.Duration
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				root := filepath.Join(b.TempDir(), "repo")
				copyTree(b, pristine, root)
				// Flush the copy to disk first, so that the run's own
				// synced writes do not wait for the setup's.
				syscall.Sync()
				runtime.GC()
				before := cpuTime()
				b.StartTimer()
				res, err := Run(context.Background(), Options{
					Root: root, Converter: tc.conv, Verifier: tc.ver, Verify: tc.verify, Jobs: runtime.GOMAXPROCS(0),
				})
				if err != nil {
					b.Fatal(err)
				}
				b.StopTimer()
				cpu += cpuTime() - before
				s := res.Summary
				if s.ConvertedCompositions != compositions || (tc.verify && s.VerifiedEquivalent+s.KnownGaps != compositions) {
					b.Fatalf("converted %d, verified %d equivalent and %d with known gaps, want %d each (differences %d, errors %d)",
						s.ConvertedCompositions, s.VerifiedEquivalent, s.KnownGaps, compositions, s.Differences, s.VerifyErrors)
				}
				b.StartTimer()
			}
			b.StopTimer()
			var ru syscall.Rusage
			if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err == nil {
				b.ReportMetric(float64(ru.Maxrss)/1024, "peak-RSS-MB")
			}
			// CPU time (user and system) of the runs: on a shared machine
			// a steadier figure than the wall time.
			b.ReportMetric(cpu.Seconds()/float64(b.N), "cpu-s/op")
		})
	}
}

// cpuTime is the process's user and system time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
