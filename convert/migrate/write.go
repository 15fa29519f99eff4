package migrate

import (
	"crypto/sha256"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/pkg/errors"

	"github.com/xpmigrate/xpmigrate/internal/atomicfile"
	"github.com/xpmigrate/xpmigrate/internal/regularfile"
)

// errModified says a file changed between the scan and the write.
var errModified = errors.New("file changed during the run")

// writeAtomic replaces dst with data through atomicfile.WriteUnsynced: each
// file is either old or new, whatever interrupts the run.
func writeAtomic(dst string, data []byte, perm fs.FileMode, check func() error) error {
	return atomicfile.WriteUnsynced(dst, data, perm, check)
}

// unchangedSince returns fs.ErrNotExist when path is gone and errModified
// when its content no longer hashes to sum.
func unchangedSince(path string, sum [sha256.Size]byte) error {
	f, err := regularfile.Open(path)
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
	data, err := regularfile.ReadFile(src)
	if err != nil {
		return errors.Wrapf(err, "cannot read %q", rel)
	}
	return writeOut(outDir, rel, data, perm)
}
