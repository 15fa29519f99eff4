//go:build !(linux || darwin)

package atomicfile

import (
	"io/fs"
	"os"
)

// meta is the metadata of a file Replace keeps: only the mode here.
type meta struct {
	mode  fs.FileMode
	links uint64
}

func readMeta(path string) (*meta, error) {
	fi, err := statRegular(path)
	if err != nil {
		return nil, err
	}
	return &meta{mode: keptMode(fi)}, nil
}

func (m *meta) apply(f *os.File) ([]string, error) {
	return nil, f.Chmod(m.mode)
}
