//go:build unix

package regularfile

import (
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/pkg/errors"
)

// tree makes a directory with a regular file, a FIFO, a socket, a
// directory and a symlink to the FIFO.
func tree(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "file.yaml"), []byte("a: 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo.yaml"), 0o644); err != nil {
		t.Skipf("cannot make a FIFO: %v", err)
	}
	// Unix socket paths are short: listen from inside dir.
	wd, _ := os.Getwd()
	if err := os.Chdir(dir); err != nil {
		t.Fatal(err)
	}
	l, err := net.Listen("unix", "sock.yaml")
	_ = os.Chdir(wd)
	if err != nil {
		t.Skipf("cannot make a socket: %v", err)
	}
	t.Cleanup(func() { _ = l.Close() })
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("fifo.yaml", filepath.Join(dir, "link.yaml")); err != nil {
		t.Fatal(err)
	}
	return dir
}

// withinDeadline fails the test instead of hanging when fn blocks.
func withinDeadline(t *testing.T, fn func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); fn() }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("blocked for 10s")
	}
}

func TestReadFile(t *testing.T) {
	dir := tree(t)
	type want struct {
		data string
		kind string // "" for no NotRegularError
		err  bool
	}
	cases := map[string]struct {
		reason string
		name   string
		want   want
	}{
		"Regular": {
			reason: "A regular file is read whole.",
			name:   "file.yaml",
			want:   want{data: "a: 1\n"},
		},
		"FIFO": {
			reason: "A FIFO is refused without waiting for a writer.",
			name:   "fifo.yaml",
			want:   want{kind: "a FIFO", err: true},
		},
		"SymlinkToFIFO": {
			reason: "A symlink is followed, and a FIFO behind it refused.",
			name:   "link.yaml",
			want:   want{kind: "a FIFO", err: true},
		},
		"Socket": {
			reason: "A socket is refused.",
			name:   "sock.yaml",
			want:   want{kind: "a socket", err: true},
		},
		"Directory": {
			reason: "A directory is refused.",
			name:   "sub",
			want:   want{kind: "a directory", err: true},
		},
		"Missing": {
			reason: "A missing file is fs.ErrNotExist, as for os.ReadFile.",
			name:   "missing.yaml",
			want:   want{err: true},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			var data []byte
			var err error
			withinDeadline(t, func() { data, err = ReadFile(filepath.Join(dir, tc.name)) })
			got := want{data: string(data), err: err != nil}
			var nr *NotRegularError
			if errors.As(err, &nr) {
				got.kind = nr.Kind()
			}
			if diff := cmp.Diff(tc.want, got, cmp.AllowUnexported(want{})); diff != "" {
				t.Errorf("%s\nReadFile(%q): -want, +got:\n%s", tc.reason, tc.name, diff)
			}
		})
	}
}

func TestFS(t *testing.T) {
	dir := tree(t)
	fsys := FS(dir)
	cases := map[string]struct {
		reason      string
		name        string
		wantErr     bool
		wantRegular bool
	}{
		"Regular":  {reason: "A regular file opens.", name: "file.yaml"},
		"Dir":      {reason: "A directory opens, so that fs.ReadDir and fs.WalkDir work.", name: "sub"},
		"FIFO":     {reason: "A FIFO is refused with a NotRegularError.", name: "fifo.yaml", wantErr: true, wantRegular: true},
		"Socket":   {reason: "A socket is refused with a NotRegularError.", name: "sock.yaml", wantErr: true, wantRegular: true},
		"Symlink":  {reason: "A symlink to a FIFO is refused.", name: "link.yaml", wantErr: true, wantRegular: true},
		"Missing":  {reason: "A missing file is an error, not a NotRegularError.", name: "nope.yaml", wantErr: true},
		"Invalid":  {reason: "Invalid paths are refused as os.DirFS refuses them.", name: "../x", wantErr: true},
		"ReadFile": {reason: "fs.ReadFile reads regular files through it.", name: "file.yaml"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			var err error
			withinDeadline(t, func() {
				var f fs.File
				if f, err = fsys.Open(tc.name); err == nil {
					_ = f.Close()
				}
			})
			if (err != nil) != tc.wantErr || IsNotRegular(err) != tc.wantRegular {
				t.Errorf("%s\nOpen(%q): got error %v, want error %t (not regular %t)", tc.reason, tc.name, err, tc.wantErr, tc.wantRegular)
			}
		})
	}
	des, err := fs.ReadDir(fsys, ".")
	if err != nil || len(des) != 5 {
		t.Errorf("fs.ReadDir(FS(dir), \".\"): got %d entries, error %v; want 5, nil", len(des), err)
	}
}

func TestReadFileMax(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "f.yaml")
	if err := os.WriteFile(p, []byte("0123456789"), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := map[string]struct {
		reason   string
		limit    int64
		tooLarge *TooLargeError
		data     string
	}{
		"NoLimit":   {reason: "A negative limit reads everything.", limit: -1, data: "0123456789"},
		"AtLimit":   {reason: "A file exactly as large as the limit is read.", limit: 10, data: "0123456789"},
		"OverLimit": {reason: "A larger file is refused from its size, unread.", limit: 9, tooLarge: &TooLargeError{Path: p, Size: 10, Limit: 9}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			data, err := ReadFileMax(p, tc.limit)
			var tl *TooLargeError
			if !errors.As(err, &tl) {
				tl = nil
			}
			if diff := cmp.Diff(tc.tooLarge, tl); diff != "" || string(data) != tc.data || (err != nil) != (tc.tooLarge != nil) {
				t.Errorf("%s\nReadFileMax(%d): got %q, %v; -want, +got error:\n%s", tc.reason, tc.limit, data, err, diff)
			}
		})
	}
}
