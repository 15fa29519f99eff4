// Package atomicfile replaces files so that readers see either the old or
// the new content, never a mix, and a failure or an interruption leaves the
// old file alone: the data goes to a temporary file in the same directory,
// is synced (Write) or not (WriteUnsynced), and is renamed over the target.
//
//	err := atomicfile.Write("composition.yaml", out, 0o644, nil)
package atomicfile

import (
	"io/fs"
	"os"
	"path/filepath"

	"github.com/pkg/errors"
)

// Write replaces dst with data, with mode perm. check, when not nil, runs
// after the data is safely on disk and before the rename, and may veto the
// write (e.g. when dst changed meanwhile). On any error the temporary file
// is removed and dst is untouched.
func Write(dst string, data []byte, perm fs.FileMode, check func() error) error {
	return write(dst, data, perm, check, true)
}

// WriteUnsynced is Write without syncing the data before the rename, as git
// writes a work tree's files: the replacement is as atomic for readers and
// for an interrupted process, and the kernel writes the data back in its
// own time. A migration writes hundreds of files, and a sync each keeps a
// core idle for every one of them.
func WriteUnsynced(dst string, data []byte, perm fs.FileMode, check func() error) error {
	return write(dst, data, perm, check, false)
}

func write(dst string, data []byte, perm fs.FileMode, check func() error, sync bool) (err error) {
	dir, base := filepath.Split(dst)
	if dir == "" {
		dir = "."
	}
	tmp, err := os.CreateTemp(dir, "."+base+".xpmigrate-*")
	if err != nil {
		return errors.Wrapf(err, "cannot create a temporary file beside %q", dst)
	}
	name := tmp.Name()
	defer func() {
		if err != nil {
			_ = tmp.Close()
			_ = os.Remove(name)
		}
	}()
	if _, err = tmp.Write(data); err != nil {
		return errors.Wrapf(err, "cannot write %q", name)
	}
	if err = tmp.Chmod(perm); err != nil {
		return errors.Wrapf(err, "cannot set the mode of %q", name)
	}
	if sync {
		if err = tmp.Sync(); err != nil {
			return errors.Wrapf(err, "cannot sync %q", name)
		}
	}
	if err = tmp.Close(); err != nil {
		return errors.Wrapf(err, "cannot close %q", name)
	}
	if check != nil {
		if err = check(); err != nil {
			return err
		}
	}
	if err = os.Rename(name, dst); err != nil {
		return errors.Wrapf(err, "cannot replace %q", dst)
	}
	return nil
}
