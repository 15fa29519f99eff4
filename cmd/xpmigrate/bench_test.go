package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/xpmigrate/xpmigrate/internal/testutil"
)

// BenchmarkProcess measures the fixed cost of one `xpmigrate render`
// process: start, load a one-resource legacy composition, render, print.
func BenchmarkProcess(b *testing.B) {
	dir := b.TempDir()
	bin, err := testutil.BuildXpmigrate(dir)
	if err != nil {
		b.Fatalf("cannot build xpmigrate: %v", err)
	}
	for name, body := range map[string]string{"xr.yaml": testXR, "composition.yaml": testLegacy} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o600); err != nil {
			b.Fatal(err)
		}
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		cmd := exec.Command(bin, "render", filepath.Join(dir, "xr.yaml"), filepath.Join(dir, "composition.yaml"))
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("xpmigrate render: %v\n%s", err, out)
		}
	}
}
