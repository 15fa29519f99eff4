package atomicfile

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
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

func TestTemporaryNames(t *testing.T) {
	dir := t.TempDir()
	dst := filepath.Join(dir, "f.yaml")
	var seen []string
	err := Write(dst, []byte("new"), 0o644, func() error {
		entries, _ := os.ReadDir(dir)
		for _, e := range entries {
			seen = append(seen, e.Name())
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(seen) != 1 || !IsTemporary(seen[0]) || !strings.HasPrefix(seen[0], ".f.yaml.xpmigrate-tmp-") {
		t.Errorf("Write(...): want one temporary file named .f.yaml.xpmigrate-tmp-*, recognised by IsTemporary; got %q", seen)
	}
	for name, want := range map[string]bool{
		".f.yaml.xpmigrate-tmp-123": true,
		".f.yaml.xpmigrate-123":     true, // Named by earlier versions.
		"f.yaml":                    false,
		".f.yaml.xpmigrate-tmp-x/y": false,
		"f.yaml.xpmigrate-tmp-1":    false,
		".f.yaml.orig":              false,
	} {
		if got := IsTemporary(name); got != want {
			t.Errorf("IsTemporary(%q): got %t, want %t", name, got, want)
		}
	}
}

func TestRemoveStale(t *testing.T) {
	dir := t.TempDir()
	dst := filepath.Join(dir, "f.yaml")
	for _, n := range []string{"f.yaml", ".f.yaml.xpmigrate-tmp-1", ".f.yaml.xpmigrate-42", ".g.yaml.xpmigrate-tmp-2", ".f.yaml.bak"} {
		if err := os.WriteFile(filepath.Join(dir, n), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := RemoveStale(dst)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{filepath.Join(dir, ".f.yaml.xpmigrate-42"), filepath.Join(dir, ".f.yaml.xpmigrate-tmp-1")}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("RemoveStale(...): removed: -want, +got:\n%s", diff)
	}
	var left []string
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		left = append(left, e.Name())
	}
	if diff := cmp.Diff([]string{".f.yaml.bak", ".g.yaml.xpmigrate-tmp-2", "f.yaml"}, left); diff != "" {
		t.Errorf("RemoveStale(...): files left: -want, +got:\n%s", diff)
	}
}
