//go:build linux

package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

func TestConvertInPlaceMetadata(t *testing.T) {
	type want struct {
		code int
		// converted says whether the file (the link's target) was
		// written.
		converted bool
		mode      fs.FileMode
		uid, gid  uint32
		stderr    string
	}
	cases := map[string]struct {
		reason string
		setup  func(t *testing.T, p string) // p is the file named on the command line
		args   []string
		want   want
	}{
		"KeepsOwnerAndModeBits": {
			reason: "--in-place keeps the owner, group and setuid/setgid/sticky bits.",
			setup: func(t *testing.T, p string) {
				if os.Geteuid() != 0 {
					t.Skip("needs root to give a file away")
				}
				if err := os.Chown(p, 1234, 2345); err != nil {
					t.Fatal(err)
				}
				if err := os.Chmod(p, 0o640|fs.ModeSetuid|fs.ModeSetgid|fs.ModeSticky); err != nil {
					t.Fatal(err)
				}
			},
			want: want{converted: true, mode: 0o640 | fs.ModeSetuid | fs.ModeSetgid | fs.ModeSticky, uid: 1234, gid: 2345},
		},
		"ReadOnlyRefused": {
			reason: "--in-place refuses a read-only file, as migrate does (exit 1).",
			setup: func(t *testing.T, p string) {
				if err := os.Chmod(p, 0o444); err != nil {
					t.Fatal(err)
				}
			},
			want: want{code: exitError, mode: 0o444, stderr: "read-only"},
		},
		"ReadOnlyForced": {
			reason: "--in-place --force writes a read-only file and keeps it read-only.",
			setup: func(t *testing.T, p string) {
				if err := os.Chmod(p, 0o444); err != nil {
					t.Fatal(err)
				}
			},
			args: []string{"--force"},
			want: want{converted: true, mode: 0o444},
		},
		"HardLinkRefused": {
			reason: "--in-place refuses a hard-linked file (exit 1): replacing it would split the link.",
			setup: func(t *testing.T, p string) {
				if err := os.Link(p, p+".other"); err != nil {
					t.Fatal(err)
				}
			},
			want: want{code: exitError, mode: 0o644, stderr: "hard links"},
		},
		"HardLinkForced": {
			reason: "--in-place --force writes a hard-linked file and says the link was split.",
			setup: func(t *testing.T, p string) {
				if err := os.Link(p, p+".other"); err != nil {
					t.Fatal(err)
				}
			},
			args: []string{"--force"},
			want: want{converted: true, mode: 0o644, stderr: "hard links"},
		},
		"Symlink": {
			reason: "--in-place through a symlink writes the target and keeps the link.",
			setup: func(t *testing.T, p string) {
				target := filepath.Join(filepath.Dir(p), "real", "comp.yaml")
				if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.Rename(p, target); err != nil {
					t.Fatal(err)
				}
				if err := os.Symlink("real/comp.yaml", p); err != nil {
					t.Fatal(err)
				}
			},
			want: want{converted: true, mode: 0o644},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			p := filepath.Join(dir, "comp.yaml")
			if err := os.WriteFile(p, []byte(migrateLegacy), 0o644); err != nil {
				t.Fatal(err)
			}
			tc.setup(t, p)
			args := append([]string{"convert", "--in-place", p}, tc.args...)
			code, _, stderr := runWithin(t, args...)
			if code != tc.want.code {
				t.Errorf("%s\nxpmigrate %s: exit %d, want %d; stderr:\n%s", tc.reason, strings.Join(args, " "), code, tc.want.code, stderr)
			}
			if !strings.Contains(stderr, tc.want.stderr) {
				t.Errorf("%s\nxpmigrate %s: stderr does not contain %q:\n%s", tc.reason, strings.Join(args, " "), tc.want.stderr, stderr)
			}
			if name == "Symlink" {
				if fi, err := os.Lstat(p); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
					t.Errorf("%s\n%s is no longer a symlink (%v)", tc.reason, p, err)
				}
			}
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.Contains(string(b), "mode: Pipeline"); got != tc.want.converted {
				t.Errorf("%s\nconverted: got %t, want %t", tc.reason, got, tc.want.converted)
			}
			fi, err := os.Stat(p)
			if err != nil {
				t.Fatal(err)
			}
			if fi.Mode() != tc.want.mode {
				t.Errorf("%s\nmode: got %v, want %v", tc.reason, fi.Mode(), tc.want.mode)
			}
			st := fi.Sys().(*syscall.Stat_t)
			if tc.want.uid != 0 && (st.Uid != tc.want.uid || st.Gid != tc.want.gid) {
				t.Errorf("%s\nowner: got %d:%d, want %d:%d", tc.reason, st.Uid, st.Gid, tc.want.uid, tc.want.gid)
			}
		})
	}
}
