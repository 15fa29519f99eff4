//go:build unix

package migrate

import (
	"net"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/xpmigrate/xpmigrate/convert/migrate/tree"
	"github.com/xpmigrate/xpmigrate/internal/testutil"
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
	e := tree.Entry{Kind: tree.EntryCandidate, Rel: "x.yaml", Real: filepath.Join(root, "x.yaml")}
	var s *tree.Scanned
	noHang(t, "scanFile", func() { s = tree.ScanFile(e) })
	if got, want := s.Reason+" "+s.Detail, "not-regular a FIFO, not a regular file: not opened"; got != want {
		t.Errorf("scanFile(FIFO): got %q, want %q", got, want)
	}
}

func TestScanAliasBomb(t *testing.T) {
	cases := map[string]struct {
		reason string
		in     string
		want   string
	}{
		"Composition": {
			reason: "A Composition that is an alias bomb is refused by the scan, naming the line, with the budget the other readers use.",
			in:     testutil.AliasBomb,
			want:   "alias-bomb line 15: aliases expand the document to more than 4194304 nodes (an alias bomb?)",
		},
		"SecondDocument": {
			reason: "The line counts from the start of the file.",
			in:     "a: 1\n---\n" + testutil.AliasBomb,
			want:   "alias-bomb line 17: aliases expand the document to more than 4194304 nodes (an alias bomb?)",
		},
		"OtherDocument": {
			reason: "A bomb in a document that is not a Composition is refused the same way.",
			in:     "a: &a [1,2,3,4,5,6,7,8,9]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\ne: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]\nf: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]\ng: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]\nh: &h [*g,*g,*g,*g,*g,*g,*g,*g,*g]\n",
			want:   "alias-bomb line 7: aliases expand the document to more than 4194304 nodes (an alias bomb?)",
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			s := &tree.Scanned{Entry: tree.Entry{Rel: "bomb.yaml"}, Format: "yaml"}
			noHang(t, "classify", func() { s.Classify([]byte(tc.in)) })
			if diff := cmp.Diff(tc.want, s.Reason+" "+s.Detail); diff != "" {
				t.Errorf("%s\nclassify(...): -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}

func TestStaleTemporaries(t *testing.T) {
	stale := []string{".a.yaml.xpmigrate-tmp-123", "sub/.b.yaml.xpmigrate-4567"}
	cases := map[string]struct {
		reason      string
		write       WriteMode
		wantRemoved bool
	}{
		"InPlace": {
			reason:      "Writing in place removes the temporary files a killed run left, and reports them.",
			write:       WriteInPlace,
			wantRemoved: true,
		},
		"DryRun": {
			reason: "A run that writes nothing reports them and leaves them.",
			write:  WriteNone,
		},
		"Out": {
			reason: "Writing a copy reports them, leaves them, and does not copy them.",
			write:  WriteOut,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			var out string
			res, _ := runTxtarCase(t, txtarCase{
				reason:  tc.reason,
				archive: "stale-temporaries.txtar",
				opts: func(o *Options, _, tmp string) {
					o.Verify, o.Write = false, tc.write
					if tc.write == WriteOut {
						o.Out = filepath.Join(tmp, "out")
						out = o.Out
					}
				},
				noGolden: true,
			})
			if diff := cmp.Diff(stale, res.StaleTemporaries); diff != "" {
				t.Errorf("%s\nRun(...): StaleTemporaries: -want, +got:\n%s", tc.reason, diff)
			}
			if res.StaleRemoved != tc.wantRemoved {
				t.Errorf("%s\nRun(...): StaleRemoved = %t, want %t", tc.reason, res.StaleRemoved, tc.wantRemoved)
			}
			for _, f := range res.Files {
				if f.Path != "a.yaml" {
					t.Errorf("%s\nRun(...): reported %s (%s), want only a.yaml", tc.reason, f.Path, f.Status)
				}
			}
			root := res.Root
			for _, s := range stale {
				_, err := os.Stat(filepath.Join(root, filepath.FromSlash(s)))
				if gone := os.IsNotExist(err); gone != tc.wantRemoved {
					t.Errorf("%s\n%s: removed %t, want %t", tc.reason, s, gone, tc.wantRemoved)
				}
				if out != "" {
					if _, err := os.Stat(filepath.Join(out, filepath.FromSlash(s))); err == nil {
						t.Errorf("%s\n%s copied to the output tree", tc.reason, s)
					}
				}
			}
			if _, err := os.Stat(filepath.Join(root, ".a.yaml.bak")); err != nil {
				t.Errorf("%s\n.a.yaml.bak: %v", tc.reason, err)
			}
		})
	}
}
