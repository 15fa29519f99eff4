//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package atomicfile

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestRemoveStaleKeepsATemporaryInUse(t *testing.T) {
	dir := t.TempDir()
	dst := filepath.Join(dir, "f.yaml")
	// Another run is writing f.yaml: its temporary file is locked.
	var removed []string
	err := Write(dst, []byte("new"), 0o644, func() error {
		var err error
		removed, err = RemoveStale(dst)
		return err
	})
	if err != nil {
		t.Fatalf("Write(...) with RemoveStale running meanwhile: %v", err)
	}
	if len(removed) != 0 {
		t.Errorf("RemoveStale(...) while a write is in progress: removed %q, want nothing", removed)
	}
	if b, _ := os.ReadFile(dst); string(b) != "new" {
		t.Errorf("Write(...): got %q, want %q", b, "new")
	}
}

// TestHelperKilledMidWrite is not a test: run by
// TestSIGKILLLeavesAStaleTemporary in a child process, it starts a write
// of $XPMIGRATE_TEST_DST and blocks before the rename until it is killed.
func TestHelperKilledMidWrite(t *testing.T) {
	dst := os.Getenv("XPMIGRATE_TEST_DST")
	if dst == "" {
		t.Skip("helper process")
	}
	_ = Write(dst, []byte("new"), 0o644, func() error {
		fmt.Println("writing") // Tells the parent the temporary file exists.
		select {}
	})
}

func TestSIGKILLLeavesAStaleTemporary(t *testing.T) {
	dir := t.TempDir()
	dst := filepath.Join(dir, "f.yaml")
	if err := os.WriteFile(dst, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperKilledMidWrite$")
	cmd.Env = append(os.Environ(), "XPMIGRATE_TEST_DST="+dst)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil || line != "writing\n" {
		_ = cmd.Process.Kill()
		t.Fatalf("helper: got %q, %v; want \"writing\"", line, err)
	}
	// While the writer lives, its temporary file is not stale.
	if removed, err := RemoveStale(dst); err != nil || len(removed) != 0 {
		t.Errorf("RemoveStale(...) during the write: removed %q (%v), want nothing", removed, err)
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()

	entries, _ := os.ReadDir(dir)
	var temps []string
	for _, e := range entries {
		if IsTemporary(e.Name()) {
			temps = append(temps, filepath.Join(dir, e.Name()))
		}
	}
	if len(temps) != 1 {
		t.Fatalf("after SIGKILL mid-write: want one temporary file left, got %q", temps)
	}
	if b, _ := os.ReadFile(dst); string(b) != "old" {
		t.Errorf("after SIGKILL mid-write: %s = %q, want the old content", dst, b)
	}
	removed, err := RemoveStale(dst)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(temps, removed); diff != "" {
		t.Errorf("RemoveStale(...) after SIGKILL: -want, +got:\n%s", diff)
	}
}
