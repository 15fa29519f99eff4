//go:build linux || darwin

package atomicfile

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestWriteFile(t *testing.T) {
	type setup func(t *testing.T, dir string)
	file := func(name, data string, mode fs.FileMode) setup {
		return func(t *testing.T, dir string) {
			t.Helper()
			if err := os.WriteFile(filepath.Join(dir, name), []byte(data), mode); err != nil {
				t.Fatal(err)
			}
			if err := os.Chmod(filepath.Join(dir, name), mode); err != nil {
				t.Fatal(err)
			}
		}
	}
	cases := map[string]struct {
		reason   string
		setup    []setup
		dst      string
		modeOf   string
		force    bool
		wantErr  string
		wantData string // of dst after the write ("" when wantErr)
		wantMode fs.FileMode
		wantLog  string
	}{
		"NewFileDefaultMode": {
			reason:   "A new file without a mode source gets 0644.",
			dst:      "out.yaml",
			wantData: "new",
			wantMode: 0o644,
		},
		"NewFileModeOfInput": {
			reason:   "A new file gets the input file's mode bits.",
			setup:    []setup{file("in.yaml", "old", 0o600)},
			dst:      "out.yaml",
			modeOf:   "in.yaml",
			wantData: "new",
			wantMode: 0o600,
		},
		"ReplaceKeepsMode": {
			reason:   "An existing file keeps its mode.",
			setup:    []setup{file("out.yaml", "old", 0o640)},
			dst:      "out.yaml",
			wantData: "new",
			wantMode: 0o640,
		},
		"ReadOnlyRefused": {
			reason:  "A read-only file is refused, naming --force.",
			setup:   []setup{file("out.yaml", "old", 0o444)},
			dst:     "out.yaml",
			wantErr: "the file is read-only",
		},
		"ReadOnlyForced": {
			reason:   "With Force a read-only file is written and stays read-only.",
			setup:    []setup{file("out.yaml", "old", 0o444)},
			dst:      "out.yaml",
			force:    true,
			wantData: "new",
			wantMode: 0o444,
		},
		"SymlinkFollowed": {
			reason: "A symlink is written through: the link stays, its target changes.",
			setup: []setup{file("real.yaml", "old", 0o644), func(t *testing.T, dir string) {
				t.Helper()
				if err := os.Symlink("real.yaml", filepath.Join(dir, "out.yaml")); err != nil {
					t.Fatal(err)
				}
			}},
			dst:      "out.yaml",
			wantData: "new",
			wantMode: 0o644,
		},
		"StaleTemporaryRemoved": {
			reason:   "A temporary file a killed run left is removed and logged.",
			setup:    []setup{file("out.yaml", "old", 0o644), file(".out.yaml"+tempMark+"123", "half", 0o600)},
			dst:      "out.yaml",
			wantData: "new",
			wantMode: 0o644,
			wantLog:  "a temporary file left by an interrupted run",
		},
		"HardLinkRefused": {
			reason: "A file with other names is refused unless forced.",
			setup: []setup{file("out.yaml", "old", 0o644), func(t *testing.T, dir string) {
				t.Helper()
				if err := os.Link(filepath.Join(dir, "out.yaml"), filepath.Join(dir, "other.yaml")); err != nil {
					t.Fatal(err)
				}
			}},
			dst:     "out.yaml",
			wantErr: "has 2 names (hard links)",
		},
		"Directory": {
			reason: "A directory is not written over.",
			setup: []setup{func(t *testing.T, dir string) {
				t.Helper()
				if err := os.Mkdir(filepath.Join(dir, "out.yaml"), 0o755); err != nil {
					t.Fatal(err)
				}
			}},
			dst:     "out.yaml",
			wantErr: "not a regular file",
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			for _, s := range tc.setup {
				s(t, dir)
			}
			modeOf := tc.modeOf
			if modeOf != "" {
				modeOf = filepath.Join(dir, modeOf)
			}
			var log bytes.Buffer
			dst := filepath.Join(dir, tc.dst)
			err := WriteFile(dst, []byte("new"), WriteFileOptions{ModeOf: modeOf, Force: tc.force, Log: &log})
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("\n%s\nWriteFile(...): want error containing %q, got %v", tc.reason, tc.wantErr, err)
				}
				return
			}
			if err != nil {
				t.Fatalf("\n%s\nWriteFile(...): %v", tc.reason, err)
			}
			b, err := os.ReadFile(dst)
			if err != nil || string(b) != tc.wantData {
				t.Errorf("\n%s\nWriteFile(...): content %q (%v), want %q", tc.reason, b, err, tc.wantData)
			}
			fi, err := os.Stat(dst)
			if err != nil || fi.Mode().Perm() != tc.wantMode {
				t.Errorf("\n%s\nWriteFile(...): mode %v (%v), want %v", tc.reason, fi.Mode().Perm(), err, tc.wantMode)
			}
			if tc.wantLog == "" && log.Len() > 0 || !strings.Contains(log.String(), tc.wantLog) {
				t.Errorf("\n%s\nWriteFile(...): log %q, want %q", tc.reason, log.String(), tc.wantLog)
			}
			if lfi, err := os.Lstat(dst); err == nil && name == "SymlinkFollowed" && lfi.Mode()&fs.ModeSymlink == 0 {
				t.Errorf("\n%s\nWriteFile(...): the symlink was replaced by a file", tc.reason)
			}
		})
	}
}

func TestCheckWritable(t *testing.T) {
	dir := t.TempDir()
	cases := map[string]struct {
		reason  string
		path    string
		wantErr string
	}{
		"NewFile":    {reason: "A new file in an existing directory can be written.", path: filepath.Join(dir, "report.json")},
		"Directory":  {reason: "A directory is not a file.", path: dir, wantErr: "is a directory"},
		"MissingDir": {reason: "A file in a missing directory cannot be written.", path: filepath.Join(dir, "no", "report.json"), wantErr: "does not exist"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			err := CheckWritable(tc.path)
			if tc.wantErr == "" && err != nil || tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)) {
				t.Errorf("\n%s\nCheckWritable(%q): want error %q, got %v", tc.reason, tc.path, tc.wantErr, err)
			}
		})
	}
	if des, _ := os.ReadDir(dir); len(des) != 0 {
		t.Errorf("CheckWritable left %d files behind", len(des))
	}
}
