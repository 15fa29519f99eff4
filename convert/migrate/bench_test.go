package migrate

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
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
//	go test ./convert/migrate/ -run '^$' -bench BenchmarkMigrate -benchtime 1x -cpu 2
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

// BenchmarkMigrateBase checks, as a pull request's CI does, a repository
// whose 1,000 Compositions (20 resources each) were converted in the last
// commit: `migrate --check --base <the commit before>` reads every legacy
// Composition from git and verifies each conversion against it.
//
//	go test ./convert/migrate/ -run '^$' -bench BenchmarkMigrateBase -benchtime 1x -cpu 2
func BenchmarkMigrateBase(b *testing.B) {
	if os.Getenv("GOGC") == "" {
		defer debug.SetGCPercent(debug.SetGCPercent(GCPercent))
	}
	if _, err := exec.LookPath("git"); err != nil {
		b.Skip("git is not installed")
	}
	const compositions, resources = 1000, 20
	root := filepath.Join(b.TempDir(), "repo")
	genRepo(b, root, compositions, resources)
	gitBench(b, root, "init", "-q")
	gitBench(b, root, "add", "-A")
	gitBench(b, root, "commit", "-q", "-m", "legacy")
	out, err := exec.Command("git", "-C", root, "rev-parse", "HEAD").Output()
	if err != nil {
		b.Fatal(err)
	}
	base := strings.TrimSpace(string(out))
	if _, err := Run(context.Background(), Options{Root: root, Converter: NewConverter(convert.Options{}), Jobs: runtime.GOMAXPROCS(0)}); err != nil {
		b.Fatal(err)
	}
	gitBench(b, root, "add", "-A")
	gitBench(b, root, "commit", "-q", "-m", "converted")
	syscall.Sync()
	var cpu time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		runtime.GC()
		before := cpuTime()
		b.StartTimer()
		res, err := Run(context.Background(), Options{
			Root: root, Converter: NewConverter(convert.Options{}), Verifier: NewVerifier(false), Verify: true,
			Check: true, Write: WriteNone, Base: base, Jobs: runtime.GOMAXPROCS(0),
		})
		if err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		cpu += cpuTime() - before
		if s := res.Summary; s.VerifiedEquivalent+s.KnownGaps != compositions {
			b.Fatalf("verified %d equivalent and %d with known gaps against the base, want %d (differences %d, errors %d, unverified %d)",
				s.VerifiedEquivalent, s.KnownGaps, compositions, s.Differences, s.VerifyErrors, s.Unverified)
		}
		b.StartTimer()
	}
	b.StopTimer()
	b.ReportMetric(cpu.Seconds()/float64(b.N), "cpu-s/op")
}

func gitBench(b *testing.B, dir string, args ...string) {
	b.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir, "-c", "user.name=bench", "-c", "user.email=bench@example.org", "-c", "commit.gpgsign=false",
		// No background gc: it would still be writing into .git when the
		// benchmark's temporary directory is removed.
		"-c", "gc.auto=0", "-c", "maintenance.auto=false"}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_SYSTEM=/dev/null")
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("git %v: %v\n%s", args, err, out)
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
