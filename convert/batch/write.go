package batch

import (
	"crypto/sha256"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/pkg/errors"
)

// errModified says a file changed between the scan and the write.
var errModified = errors.New("file changed during the run")

// writeAtomic replaces dst with data: it writes a temporary file in dst's
// directory, gives it perm, calls check (which may veto the write), and
// renames it over dst. dst is either old or new at every moment, and on any
// error the temporary file is removed.
func writeAtomic(dst string, data []byte, perm fs.FileMode, check func() error) (err error) {
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
	if err = tmp.Sync(); err != nil {
		return errors.Wrapf(err, "cannot sync %q", name)
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

// unchangedSince returns fs.ErrNotExist when path is gone and errModified
// when its content no longer hashes to sum.
func unchangedSince(path string, sum [sha256.Size]byte) error {
	f, err := os.Open(path) //nolint:gosec // The tree's own file.
	if err != nil {
		return err
	}
	defer f.Close() //nolint:errcheck // Read-only.
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return errors.Wrapf(err, "cannot read %q", path)
	}
	var got [sha256.Size]byte
	copy(got[:], h.Sum(nil))
	if got != sum {
		return errModified
	}
	return nil
}

// writeOut writes data to rel under the output directory, atomically.
func writeOut(outDir, rel string, data []byte, perm fs.FileMode) error {
	dst := filepath.Join(outDir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil { //nolint:gosec // A tree others read.
		return errors.Wrapf(err, "cannot create directory for %q", dst)
	}
	if perm == 0 {
		perm = 0o644
	}
	return writeAtomic(dst, data, perm, nil)
}

// copyOut copies the file at src to rel under the output directory.
func copyOut(outDir, rel, src string, perm fs.FileMode) error {
	data, err := os.ReadFile(src) //nolint:gosec // The tree's own file.
	if err != nil {
		return errors.Wrapf(err, "cannot read %q", rel)
	}
	return writeOut(outDir, rel, data, perm)
}
