package convert

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata")

// golden compares got with the golden file at path, or rewrites the file
// with -update. Line endings are normalised.
func golden(t *testing.T, path string, got []byte) {
	t.Helper()
	got = bytes.ReplaceAll(got, []byte("\r\n"), []byte("\n"))
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("cannot read golden file (run go test -update): %v", err)
	}
	want = bytes.ReplaceAll(want, []byte("\r\n"), []byte("\n"))
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("%s: -want, +got:\n%s", path, diff)
	}
}

// repoRoot returns the directory holding go.mod.
func repoRoot(t testing.TB) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod above the test directory")
		}
		dir = parent
	}
}

// corpusDir returns ../shared/corpus relative to the repository root, or
// skips the test when it is absent.
func corpusDir(t testing.TB) string {
	t.Helper()
	dir := filepath.Join(repoRoot(t), "..", "shared", "corpus")
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		t.Skipf("no corpus at %s", dir)
	}
	return dir
}

// codes returns the codes of the findings about documents (not the
// once-per-run ones), in order.
func codes(ds []Diagnostic) []Code {
	var out []Code
	for _, d := range ds {
		if d.Document >= 0 {
			out = append(out, d.Code)
		}
	}
	return out
}

// render formats findings one per line, as the CLI prints them.
func render(ds []Diagnostic) string {
	var b strings.Builder
	for _, d := range ds {
		b.WriteString(d.String())
		b.WriteByte('\n')
	}
	return b.String()
}
