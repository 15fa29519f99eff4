//go:build !(linux || darwin)

package atomicfile

import (
	"io/fs"
	"os"

	"github.com/pkg/errors"
)

// meta is the metadata of a file Replace keeps: only the mode here.
type meta struct {
	mode  fs.FileMode
	links uint64
}

func readMeta(path string) (*meta, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, errors.Errorf("cannot replace %q: not a regular file", path)
	}
	return &meta{mode: fi.Mode() & (fs.ModePerm | fs.ModeSetuid | fs.ModeSetgid | fs.ModeSticky)}, nil
}

func (m *meta) apply(f *os.File) ([]string, error) {
	return nil, f.Chmod(m.mode)
}
