//go:build unix

package batch

import (
	"net"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// mkfifo makes a FIFO at rel under root, or skips the test.
func mkfifo(t *testing.T, root, rel string) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(p, 0o644); err != nil {
		t.Skipf("cannot make a FIFO: %v", err)
	}
}

// mksocket makes a listening Unix socket at rel under root (closed when
// the test ends), or skips the test.
func mksocket(t *testing.T, root, rel string) {
	t.Helper()
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	// Socket paths are limited to about 100 bytes: bind a relative one.
	if err := os.Chdir(filepath.Join(root, filepath.Dir(filepath.FromSlash(rel)))); err != nil {
		t.Fatal(err)
	}
	l, err := net.Listen("unix", filepath.Base(rel))
	if cerr := os.Chdir(wd); cerr != nil {
		t.Fatal(cerr)
	}
	if err != nil {
		t.Skipf("cannot make a socket: %v", err)
	}
	t.Cleanup(func() { _ = l.Close() })
}

// noHang runs fn and fails the test if it has not returned within a
// generous deadline: the property is "does not block forever", not speed.
func noHang(t *testing.T, what string, fn func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); fn() }()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatalf("%s: still running after 30s (blocked on a special file?)", what)
	}
}

func TestMigrateSpecialFiles(t *testing.T) {
	tc := txtarCase{
		reason:  "FIFOs and sockets in the tree are never opened; they are reported as skipped and the run completes.",
		archive: "special-files.txtar",
		setup: func(t *testing.T, root string, _ *hooks) {
			mkfifo(t, root, ".gitignore")
			mkfifo(t, root, "pipe.yaml")
			mkfifo(t, root, "sub/.gitignore")
			mksocket(t, root, "sock.yaml")
		},
		opts: func(o *Options, _, _ string) { o.Verify = false },
		check: func(t *testing.T, _ string, res *Result, _ *hooks) {
			got := map[string]string{}
			for _, f := range res.Files {
				got[f.Path] = string(f.Status) + " " + f.Reason + " " + f.Detail
			}
			want := map[string]string{
				".gitignore":     "skipped not-regular a FIFO, not a regular file: not opened",
				"a.yaml":         "converted  ",
				"pipe.yaml":      "skipped not-regular a FIFO, not a regular file: not opened",
				"sock.yaml":      "skipped not-regular a socket, not a regular file: not opened",
				"sub/.gitignore": "skipped not-regular a FIFO, not a regular file: not opened",
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("Run(...): files: -want, +got:\n%s", diff)
			}
		},
		noGolden: true,
	}
	noHang(t, "Run", func() { runTxtarCase(t, tc) })
}

func TestScanRefusesFIFOSwappedIn(t *testing.T) {
	// A file that was regular when the walk listed it and is a FIFO when
	// the scan reads it: the scan must not block.
	root := t.TempDir()
	mkfifo(t, root, "x.yaml")
	e := entry{kind: entryCandidate, rel: "x.yaml", real: filepath.Join(root, "x.yaml")}
	var s *scanned
	noHang(t, "scanFile", func() { s = scanFile(e) })
	if got, want := s.reason+" "+s.detail, "not-regular a FIFO, not a regular file: not opened"; got != want {
		t.Errorf("scanFile(FIFO): got %q, want %q", got, want)
	}
}
