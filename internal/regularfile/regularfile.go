package regularfile

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"

	"github.com/pkg/errors"
)

// A NotRegularError is a path that names something other than a regular
// file (or, for FS, a directory).
type NotRegularError struct {
	Path string
	Mode fs.FileMode
}

func (e *NotRegularError) Error() string {
	return fmt.Sprintf("%q is %s, not a regular file", e.Path, e.Kind())
}

// Kind names what the path is: "a FIFO", "a socket", "a device", "a
// directory" or "not a regular file".
func (e *NotRegularError) Kind() string { return Kind(e.Mode) }

// Kind names the type of a file mode as NotRegularError.Kind does.
func Kind(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0, m&fs.ModeCharDevice != 0:
		return "a device"
	case m.IsDir():
		return "a directory"
	case m.IsRegular():
		return "a regular file"
	}
	return "not a regular file"
}

// IsNotRegular reports whether err is (or wraps) a *NotRegularError.
func IsNotRegular(err error) bool {
	var nr *NotRegularError
	return errors.As(err, &nr)
}

// Open opens path for reading when it is a regular file (symlinks
// followed), and returns a *NotRegularError otherwise. It never blocks on a
// FIFO.
func Open(path string) (*os.File, error) {
	return open(path, false)
}

func open(name string, dirOK bool) (*os.File, error) {
	fi, err := os.Stat(name)
	if err != nil {
		return nil, err
	}
	if !acceptable(fi.Mode(), dirOK) {
		return nil, &NotRegularError{Path: name, Mode: fi.Mode()}
	}
	f, err := os.OpenFile(name, os.O_RDONLY|nonBlock, 0) //nolint:gosec // Opening the caller's path is the point.
	if err != nil {
		return nil, err
	}
	// The path may have been replaced between the Stat and the open.
	fi, err = f.Stat()
	if err != nil {
		_ = f.Close()
		return nil, err
	}
	if !acceptable(fi.Mode(), dirOK) {
		_ = f.Close()
		return nil, &NotRegularError{Path: name, Mode: fi.Mode()}
	}
	return f, nil
}

func acceptable(m fs.FileMode, dirOK bool) bool {
	return m.IsRegular() || (dirOK && m.IsDir())
}

// ReadFile reads the regular file at path, as os.ReadFile does, and
// returns a *NotRegularError for anything else.
func ReadFile(path string) ([]byte, error) {
	return ReadFileMax(path, -1)
}

// A TooLargeError is a file (or stream) larger than the bound its reader
// was given: it is not read, or not read further.
type TooLargeError struct {
	Path string
	// Size is the file's size in bytes, -1 when unknown (a stream, or a
	// file that grew while it was read).
	Size int64
	// Limit is the bound in bytes.
	Limit int64
}

func (e *TooLargeError) Error() string {
	if e.Size < 0 {
		return fmt.Sprintf("%q is larger than the limit of %d bytes (--max-file-size): not read", e.Path, e.Limit)
	}
	return fmt.Sprintf("%q is %d bytes, larger than the limit of %d bytes (--max-file-size): not read", e.Path, e.Size, e.Limit)
}

// IsTooLarge reports whether err is (or wraps) a *TooLargeError.
func IsTooLarge(err error) bool {
	var tl *TooLargeError
	return errors.As(err, &tl)
}

// ReadFileMax is ReadFile for a file of at most limit bytes (no bound
// when limit is negative): a larger file is a *TooLargeError, found from
// its size before anything is read, and a file that grows past the limit
// while it is read is one too.
func ReadFileMax(path string, limit int64) ([]byte, error) {
	f, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close() //nolint:errcheck // Read-only.
	var size int
	if fi, err := f.Stat(); err == nil {
		if limit >= 0 && fi.Size() > limit {
			return nil, &TooLargeError{Path: path, Size: fi.Size(), Limit: limit}
		}
		if fi.Size() > 0 && int64(int(fi.Size())) == fi.Size() {
			size = int(fi.Size())
		}
	}
	data := make([]byte, 0, size+512)
	for {
		n, err := f.Read(data[len(data):cap(data)])
		data = data[:len(data)+n]
		if limit >= 0 && int64(len(data)) > limit {
			return nil, &TooLargeError{Path: path, Size: -1, Limit: limit}
		}
		if err == io.EOF {
			return data, nil
		}
		if err != nil {
			return data, err
		}
		if len(data) == cap(data) {
			data = append(data, 0)[:len(data)]
		}
	}
}

// FS returns a file system rooted at dir, as os.DirFS does, whose Open
// refuses anything but regular files and directories with a
// *NotRegularError.
func FS(dir string) fs.FS { return dirFS(dir) }

type dirFS string

func (d dirFS) Open(name string) (fs.File, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrInvalid}
	}
	f, err := open(d.join(name), true)
	if err != nil {
		var nr *NotRegularError
		if errors.As(err, &nr) {
			nr.Path = name
			return nil, &fs.PathError{Op: "open", Path: name, Err: nr}
		}
		return nil, err
	}
	return f, nil
}

// Stat follows symlinks, as os.DirFS does.
func (d dirFS) Stat(name string) (fs.FileInfo, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "stat", Path: name, Err: fs.ErrInvalid}
	}
	return os.Stat(d.join(name))
}

func (d dirFS) join(name string) string {
	return filepath.Join(string(d), filepath.FromSlash(path.Clean(name)))
}
