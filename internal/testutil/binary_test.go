package testutil

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestBuildXpmigrate: with $XPMIGRATE_BIN set, BuildXpmigrate builds
// nothing (the directory it was given stays empty) and returns the
// prebuilt binary, or an error when that binary is missing, not
// executable, named by a relative path or older than the sources linked
// into it.
func TestBuildXpmigrate(t *testing.T) {
	type want struct {
		Path string
		Err  bool
	}
	bins := t.TempDir()
	write := func(name string, perm os.FileMode, mtime time.Time) string {
		p := filepath.Join(bins, name)
		if err := os.WriteFile(p, []byte("#!/bin/sh\n"), perm); err != nil {
			t.Fatal(err)
		}
		if !mtime.IsZero() {
			if err := os.Chtimes(p, mtime, mtime); err != nil {
				t.Fatal(err)
			}
		}
		return p
	}
	fresh := write("fresh", 0o700, time.Time{})
	stale := write("stale", 0o700, time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC))
	plain := write("plain", 0o600, time.Time{})
	cases := map[string]struct {
		reason string
		env    string
		want   want
	}{
		"Prebuilt": {
			reason: "A binary at least as new as the command's sources is returned as given, and nothing is built.",
			env:    fresh,
			want:   want{Path: fresh},
		},
		"Stale": {
			reason: "A binary older than a source file linked into it is refused, not used and not rebuilt.",
			env:    stale,
			want:   want{Path: stale, Err: true},
		},
		"NotExecutable": {
			reason: "A file without an execute bit is refused.",
			env:    plain,
			want:   want{Path: plain, Err: true},
		},
		"Missing": {
			reason: "A path that names no file is refused.",
			env:    filepath.Join(bins, "missing"),
			want:   want{Path: filepath.Join(bins, "missing"), Err: true},
		},
		"Relative": {
			reason: "A relative path would name another file in each package's directory; it is refused.",
			env:    filepath.Join("bin", "xpmigrate"),
			want:   want{Path: filepath.Join("bin", "xpmigrate"), Err: true},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			t.Setenv(BinEnv, tc.env)
			dir := t.TempDir()
			path, err := BuildXpmigrate(dir)
			if diff := cmp.Diff(tc.want, want{Path: path, Err: err != nil}); diff != "" {
				t.Errorf("\n%s\nBuildXpmigrate(): -want, +got:\n%s\nerror: %v", tc.reason, diff, err)
			}
			entries, err := os.ReadDir(dir)
			if err != nil {
				t.Fatal(err)
			}
			if len(entries) != 0 {
				t.Errorf("\n%s\nBuildXpmigrate() built into %s although $%s is set: %v", tc.reason, dir, BinEnv, entries)
			}
		})
	}
}
