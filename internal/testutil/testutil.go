package testutil

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite the golden files instead of comparing with them")

// Update reports whether the test binary runs with -update: golden files
// (and other generated test data) are rewritten instead of compared.
func Update() bool { return *update }

// Golden compares got with the golden file at path, or, under -update,
// writes got to path (creating its directory). Line endings are
// normalised on both sides before the comparison, so a checkout with CRLF
// line endings compares equal.
func Golden(t testing.TB, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o750); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	CompareGolden(t, path, got)
}

// CompareGolden compares got with the golden file at path as Golden does,
// but never rewrites it: for a second output that must equal a golden file
// another case writes.
func CompareGolden(t testing.TB, path string, got []byte) {
	t.Helper()
	want, err := os.ReadFile(path) //nolint:gosec,forbidigo // G304: the path is the test's own golden file.
	if err != nil {
		t.Fatalf("cannot read golden file (run go test -update): %v", err)
	}
	if diff := cmp.Diff(string(NormalizeNewlines(want)), string(NormalizeNewlines(got))); diff != "" {
		t.Errorf("%s: -want, +got:\n%s", path, diff)
	}
}

// NormalizeNewlines replaces every CRLF of b with LF.
func NormalizeNewlines(b []byte) []byte {
	return bytes.ReplaceAll(b, []byte("\r\n"), []byte("\n"))
}

var root struct {
	once sync.Once
	dir  string
	err  error
}

// RepoRoot returns the absolute path of the directory holding go.mod,
// searched upwards from the test's working directory (its package's
// directory, under go test).
func RepoRoot(t testing.TB) string {
	t.Helper()
	root.once.Do(func() {
		dir, err := os.Getwd()
		if err != nil {
			root.err = err
			return
		}
		for {
			if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
				root.dir = dir
				return
			}
			parent := filepath.Dir(dir)
			if parent == dir {
				root.err = os.ErrNotExist
				return
			}
			dir = parent
		}
	})
	if root.err != nil {
		t.Fatalf("no go.mod above the test directory: %v", root.err)
	}
	return root.dir
}

// CorpusEnv names the environment variable that locates the shared corpus
// of real-world Compositions. A relative value is taken relative to the
// repository root; unset, the corpus is DefaultCorpus.
const CorpusEnv = "XPMIGRATE_CORPUS"

// DefaultCorpus is where the corpus is when CorpusEnv is unset: beside the
// repository, relative to its root.
const DefaultCorpus = "../shared/corpus"

// LookupCorpus returns the corpus directory and whether it exists, for
// tests that read the corpus when it is there and run without it.
func LookupCorpus(t testing.TB) (string, bool) {
	t.Helper()
	dir := os.Getenv(CorpusEnv)
	if dir == "" {
		dir = DefaultCorpus
	}
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(RepoRoot(t), filepath.FromSlash(dir))
	}
	fi, err := os.Stat(dir) //nolint:gosec // G703: the developer's own setting, read by tests only.
	return dir, err == nil && fi.IsDir()
}

// Corpus returns the corpus directory, or skips the test when it is absent.
func Corpus(t testing.TB) string {
	t.Helper()
	dir, ok := LookupCorpus(t)
	if !ok {
		t.Skipf("no corpus at %s (set %s to locate it)", dir, CorpusEnv)
	}
	return dir
}

// Cases returns how many random cases a property loop of n cases runs:
// n, or a tenth of it (at least one) under -short.
func Cases(n int) int {
	if testing.Short() {
		return max(n/10, 1)
	}
	return n
}
