//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package atomicfile

import (
	"os"
	"path/filepath"
	"testing"
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
