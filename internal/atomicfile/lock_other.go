//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package atomicfile

import (
	"os"
	"time"

	"github.com/pkg/errors"
)

func lock(*os.File) {}

// staleAfter is how old a temporary file must be to count as left behind
// where files cannot be locked.
const staleAfter = 10 * time.Minute

func removeUnlocked(p string) (bool, error) {
	fi, err := os.Lstat(p)
	if err != nil || !fi.Mode().IsRegular() || time.Since(fi.ModTime()) < staleAfter {
		return false, nil //nolint:nilerr // Gone, not ours, or maybe in use.
	}
	if err := os.Remove(p); err != nil && !errors.Is(err, os.ErrNotExist) {
		return false, errors.Wrapf(err, "cannot remove %q", p)
	}
	return true, nil
}
