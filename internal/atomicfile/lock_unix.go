//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package atomicfile

import (
	"os"
	"syscall"

	"github.com/pkg/errors"
)

// lock takes an advisory lock on a temporary file being written. It is
// released when the file is closed, or the process ends however it ends.
func lock(f *os.File) {
	// Without the lock, RemoveStale of a concurrent run could remove the
	// file mid-write; the rename then fails and nothing is lost.
	_ = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
}

// removeUnlocked removes the temporary file at p unless a running write
// holds its lock.
func removeUnlocked(p string) (bool, error) {
	f, err := os.OpenFile(p, os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOFOLLOW, 0) //nolint:gosec,forbidigo // Our own temporary file, opened to lock it, not to read it.
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return false, nil
		}
		return false, errors.Wrapf(err, "cannot open %q", p)
	}
	defer f.Close() //nolint:errcheck // Read-only.
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		return false, nil
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		return false, nil
	}
	if err := os.Remove(p); err != nil && !errors.Is(err, os.ErrNotExist) {
		return false, errors.Wrapf(err, "cannot remove %q", p)
	}
	return true, nil
}
