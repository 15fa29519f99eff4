package atomicfile

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/pkg/errors"

	"github.com/xpmigrate/xpmigrate/internal/logsafe"
)

// WriteFileOptions configure WriteFile.
type WriteFileOptions struct {
	// ModeOf names the file whose mode bits a new file gets (the input
	// file); "", "-" or a missing file mean 0644.
	ModeOf string

	// Force writes a read-only or hard-linked file anyway.
	Force bool

	// Log receives one line per temporary file removed and per piece of
	// metadata that could not be kept, each prefixed "xpmigrate: ". Nil
	// discards them.
	Log io.Writer
}

// WriteFile writes data to dst, synced, through a temporary file in the
// same directory and a rename, so dst is never half-written: what
// `xpmigrate convert` does for -o, --in-place and --phase1-out. An existing
// dst is written through its symlinks and keeps its metadata (mode bits,
// owner, group, extended attributes; what cannot be kept is logged); a
// read-only or hard-linked one is refused unless o.Force. A new dst gets
// the mode of o.ModeOf, else 0644. Temporary files a killed run left beside
// dst are removed first, and logged.
func WriteFile(dst string, data []byte, o WriteFileOptions) error {
	log := o.Log
	if log == nil {
		log = io.Discard
	}
	real := dst
	if fi, err := os.Lstat(dst); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		if real, err = filepath.EvalSymlinks(dst); err != nil {
			return errors.Wrapf(err, "cannot write %q: cannot follow the symlink", dst)
		}
	}
	removed, err := RemoveStale(real)
	for _, p := range removed {
		logsafe.Fprintf(log, "xpmigrate: removed %s, a temporary file left by an interrupted run\n", p)
	}
	if err != nil {
		logsafe.Fprintf(log, "xpmigrate: %v\n", err)
	}
	fi, err := os.Stat(real)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		perm := fs.FileMode(0o644)
		if mfi, err := os.Stat(o.ModeOf); err == nil && o.ModeOf != "" && o.ModeOf != "-" {
			perm = mfi.Mode().Perm()
		}
		return Write(real, data, perm, nil)
	case err != nil:
		return errors.Wrapf(err, "cannot write %q", dst)
	case !fi.Mode().IsRegular():
		return errors.Errorf("cannot write %q: not a regular file", dst)
	case fi.Mode().Perm()&0o200 == 0 && !o.Force:
		return errors.Errorf("cannot write %q: the file is read-only; make it writable, or write it anyway with --force", dst)
	}
	lost, err := Replace(real, data, ReplaceOptions{Sync: true, AllowHardLinks: o.Force})
	var hl *HardLinkError
	if errors.As(err, &hl) {
		return errors.Errorf("cannot write %q: it has %d names (hard links) and replacing it would leave the others with the old content; write it anyway with --force", dst, hl.Links)
	}
	if err != nil {
		return err
	}
	if len(lost) > 0 {
		fmt.Fprintf(log, "xpmigrate: %s: written, but not kept: %s\n", dst, strings.Join(lost, "; "))
	}
	return nil
}

// CheckWritable reports whether a file can be written at path: its
// directory exists and takes a new file, and path is not a directory. It
// leaves nothing behind.
func CheckWritable(path string) error {
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return errors.Errorf("%q is a directory", path)
	}
	dir := filepath.Dir(path)
	fi, err := os.Stat(dir)
	if err != nil || !fi.IsDir() {
		return errors.Errorf("cannot write %q: directory %q does not exist", path, dir)
	}
	if err := Probe(dir, filepath.Base(path)); err != nil {
		return errors.Wrapf(err, "cannot write %q", path)
	}
	return nil
}
