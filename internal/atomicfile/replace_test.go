//go:build linux || darwin

package atomicfile

import (
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/pkg/errors"
	"golang.org/x/sys/unix"
)

// fileMeta is what Replace keeps, as the tests compare it.
type fileMeta struct {
	Data  string
	Mode  fs.FileMode
	UID   uint32
	GID   uint32
	Xattr string
}

func metaOf(t *testing.T, p string) fileMeta {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	st := fi.Sys().(*syscall.Stat_t)
	m := fileMeta{Data: string(b), Mode: fi.Mode(), UID: st.Uid, GID: st.Gid}
	buf := make([]byte, 64)
	if n, err := unix.Getxattr(p, "user.xpmigrate-test", buf); err == nil {
		m.Xattr = string(buf[:n])
	}
	return m
}

func TestReplace(t *testing.T) {
	cases := map[string]struct {
		reason string
		// setup prepares the file at p (content "old", mode 0644).
		setup    func(t *testing.T, p string)
		opts     ReplaceOptions
		want     func(before fileMeta) fileMeta
		wantLost []string
		wantErr  bool
	}{
		"KeepsModeBits": {
			reason: "Permission bits and setuid, setgid and sticky are kept.",
			setup: func(t *testing.T, p string) {
				if err := os.Chmod(p, 0o750|fs.ModeSetuid|fs.ModeSetgid|fs.ModeSticky); err != nil {
					t.Fatal(err)
				}
			},
			want: func(b fileMeta) fileMeta { b.Data = "new"; return b },
		},
		"KeepsOwnerAndGroup": {
			reason: "A file owned by another user and group keeps them (when the process may set them).",
			setup: func(t *testing.T, p string) {
				if os.Geteuid() != 0 {
					t.Skip("needs root to give a file away")
				}
				if err := os.Chown(p, 1234, 2345); err != nil {
					t.Fatal(err)
				}
			},
			want: func(b fileMeta) fileMeta { b.Data = "new"; return b },
		},
		"KeepsExtendedAttributes": {
			reason: "Extended attributes are copied to the new file.",
			setup: func(t *testing.T, p string) {
				if err := unix.Setxattr(p, "user.xpmigrate-test", []byte("kept"), 0); err != nil {
					t.Skipf("no user extended attributes here: %v", err)
				}
			},
			want: func(b fileMeta) fileMeta { b.Data = "new"; return b },
		},
		"RefusesHardLinks": {
			reason: "A file with other names (hard links) is refused: replacing it would split them.",
			setup: func(t *testing.T, p string) {
				if err := os.Link(p, p+".other"); err != nil {
					t.Fatal(err)
				}
			},
			want:    func(b fileMeta) fileMeta { return b },
			wantErr: true,
		},
		"HardLinksAllowed": {
			reason: "With AllowHardLinks, the file is replaced (the other names keep the old content).",
			setup: func(t *testing.T, p string) {
				if err := os.Link(p, p+".other"); err != nil {
					t.Fatal(err)
				}
			},
			opts:     ReplaceOptions{AllowHardLinks: true},
			want:     func(b fileMeta) fileMeta { b.Data = "new"; return b },
			wantLost: []string{"hard links (the other name keeps the old content)"},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "f.yaml")
			if err := os.WriteFile(p, []byte("old"), 0o644); err != nil {
				t.Fatal(err)
			}
			tc.setup(t, p)
			before := metaOf(t, p)
			lost, err := Replace(p, []byte("new"), tc.opts)
			var hl *HardLinkError
			if tc.wantErr != errors.As(err, &hl) {
				t.Fatalf("%s\nReplace(...): got error %v, want a HardLinkError %t", tc.reason, err, tc.wantErr)
			}
			if !tc.wantErr && err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.wantLost, lost); diff != "" {
				t.Errorf("%s\nReplace(...): lost: -want, +got:\n%s", tc.reason, diff)
			}
			if diff := cmp.Diff(tc.want(before), metaOf(t, p)); diff != "" {
				t.Errorf("%s\nReplace(...): -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}
