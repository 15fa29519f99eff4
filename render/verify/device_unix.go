//go:build unix

package verify

import (
	"io/fs"
	"syscall"
)

// device returns the device a directory of fsys is on, when fsys tells:
// its Stat gives the system's stat (the machine's files do).
func device(fsys fs.FS, dir string) (uint64, bool) {
	fi, err := fs.Stat(fsys, dir)
	if err != nil {
		return 0, false
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, false
	}
	return uint64(st.Dev), true //nolint:unconvert // Dev is int32 on some platforms.
}
