//go:build linux

package migrate

import (
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/sys/unix"
)

type statOf struct {
	Mode     fs.FileMode
	UID, GID uint32
	Xattr    string
	Links    uint64
}

func statFile(t *testing.T, p string) statOf {
	t.Helper()
	fi, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	st := fi.Sys().(*syscall.Stat_t)
	s := statOf{Mode: fi.Mode(), UID: st.Uid, GID: st.Gid, Links: st.Nlink}
	buf := make([]byte, 64)
	if n, err := unix.Getxattr(p, "user.xpmigrate-test", buf); err == nil {
		s.Xattr = string(buf[:n])
	}
	return s
}

func TestMigrateKeepsMetadata(t *testing.T) {
	cases := map[string]struct {
		reason string
		force  bool
		// want is each file's status, reason and whether it changed.
		want map[string]string
	}{
		"Default": {
			reason: "a.yaml keeps owner, mode bits and extended attributes; the hard-linked b.yaml and the read-only c.yaml are refused and left alone.",
			want: map[string]string{
				"a.yaml":      "converted  written",
				"b-link.yaml": "failed hard-linked ",
				"b.yaml":      "failed hard-linked ",
				"c.yaml":      "failed read-only ",
			},
		},
		"Force": {
			reason: "--force writes the hard-linked and the read-only file too (the other name keeps the old content), keeping their metadata.",
			force:  true,
			want: map[string]string{
				"a.yaml":      "converted  written",
				"b-link.yaml": "converted  written",
				"b.yaml":      "converted  written",
				"c.yaml":      "converted  written",
			},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			var before map[string]statOf
			res, _ := runTxtarCase(t, txtarCase{
				reason:  tc.reason,
				archive: "metadata.txtar",
				setup: func(t *testing.T, root string, _ *hooks) {
					a := filepath.Join(root, "a.yaml")
					if os.Geteuid() == 0 {
						if err := os.Chown(a, 1234, 2345); err != nil {
							t.Fatal(err)
						}
					}
					if err := os.Chmod(a, 0o640|fs.ModeSetuid|fs.ModeSetgid|fs.ModeSticky); err != nil {
						t.Fatal(err)
					}
					if err := unix.Setxattr(a, "user.xpmigrate-test", []byte("kept"), 0); err != nil {
						t.Logf("no user extended attributes here: %v", err)
					}
					if err := os.Link(filepath.Join(root, "b.yaml"), filepath.Join(root, "b-link.yaml")); err != nil {
						t.Fatal(err)
					}
					if err := os.Chmod(filepath.Join(root, "c.yaml"), 0o444); err != nil {
						t.Fatal(err)
					}
					before = map[string]statOf{"a.yaml": statFile(t, a), "c.yaml": statFile(t, filepath.Join(root, "c.yaml"))}
				},
				opts:     func(o *Options, _, _ string) { o.Verify, o.Force = false, tc.force },
				noGolden: true,
			})
			got := map[string]string{}
			for _, f := range res.Files {
				w := ""
				if f.Written {
					w = "written"
				}
				got[f.Path] = string(f.Status) + " " + f.Reason + " " + w
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s\nRun(...): files: -want, +got:\n%s", tc.reason, diff)
			}
			after := map[string]statOf{"a.yaml": statFile(t, filepath.Join(res.Root, "a.yaml")), "c.yaml": statFile(t, filepath.Join(res.Root, "c.yaml"))}
			if diff := cmp.Diff(before, after); diff != "" {
				t.Errorf("%s\nRun(...): metadata: -before, +after:\n%s", tc.reason, diff)
			}
		})
	}
}
