package atomicfile

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func TestWrite(t *testing.T) {
	for name, write := range map[string]func(string, []byte, os.FileMode, func() error) error{
		"Write":         Write,
		"WriteUnsynced": WriteUnsynced,
	} {
		t.Run(name, func(t *testing.T) { testWrite(t, write) })
	}
}

func testWrite(t *testing.T, replace func(string, []byte, os.FileMode, func() error) error) {
	t.Helper()
	dir := t.TempDir()
	dst := filepath.Join(dir, "f.yaml")
	if err := os.WriteFile(dst, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}

	veto := errors.New("changed meanwhile")
	if err := replace(dst, []byte("new"), 0o640, func() error { return veto }); !errors.Is(err, veto) {
		t.Fatalf("Write(..., veto): want the veto, got %v", err)
	}
	if b, _ := os.ReadFile(dst); string(b) != "old" {
		t.Errorf("Write(..., veto): want the old content kept, got %q", b)
	}

	if err := replace(dst, []byte("new"), 0o640, nil); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(dst); string(b) != "new" {
		t.Errorf("Write(...): want the new content, got %q", b)
	}
	if fi, _ := os.Stat(dst); fi.Mode().Perm() != 0o640 {
		t.Errorf("Write(...): want mode 0640, got %v", fi.Mode().Perm())
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("Write(...): want no temporary file left, found %d entries", len(entries))
	}
}
