//go:build linux || darwin

package atomicfile

import (
	"fmt"
	"io/fs"
	"os"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// meta is the metadata of a file Replace keeps. A meta with only mode set
// is that of a new file.
type meta struct {
	mode     fs.FileMode
	owner    bool // uid and gid are set
	uid, gid uint32
	links    uint64
	xattrs   []xattr
}

type xattr struct {
	name  string
	value []byte
}

// readMeta reads the metadata of the file at path.
func readMeta(path string) (*meta, error) {
	fi, err := statRegular(path)
	if err != nil {
		return nil, err
	}
	m := &meta{mode: keptMode(fi)}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		m.owner, m.uid, m.gid, m.links = true, st.Uid, st.Gid, uint64(st.Nlink) //nolint:unconvert // Nlink is uint16 on darwin.
	}
	m.xattrs = readXattrs(path)
	return m, nil
}

// readXattrs reads the extended attributes of path; none where the file
// system has none.
func readXattrs(path string) []xattr {
	size, err := unix.Listxattr(path, nil)
	if err != nil || size <= 0 {
		return nil
	}
	buf := make([]byte, size)
	if size, err = unix.Listxattr(path, buf); err != nil {
		return nil
	}
	var out []xattr
	for _, name := range strings.Split(strings.TrimRight(string(buf[:size]), "\x00"), "\x00") {
		if name == "" {
			continue
		}
		n, err := unix.Getxattr(path, name, nil)
		if err != nil {
			continue
		}
		v := make([]byte, n)
		if n, err = unix.Getxattr(path, name, v); err != nil {
			continue
		}
		out = append(out, xattr{name: name, value: v[:n]})
	}
	return out
}

// apply gives f the metadata: owner and group first (a change of owner
// clears setuid and setgid), then the mode, then the extended attributes.
// It returns what could not be kept; the error is for a mode that could
// not be set at all.
func (m *meta) apply(f *os.File) ([]string, error) {
	var lost []string
	if m.owner {
		if err := keepOwner(f, m.uid, m.gid); err != "" {
			lost = append(lost, err)
		}
	}
	if err := f.Chmod(m.mode); err != nil {
		return nil, err
	}
	// The kernel may drop setgid (a group the process is not in) quietly.
	if fi, err := f.Stat(); err == nil {
		if got := keptMode(fi); got != m.mode {
			lost = append(lost, fmt.Sprintf("mode %s (now %s)", m.mode, got))
		}
	}
	fd := int(f.Fd())
	for _, x := range m.xattrs {
		if err := unix.Fsetxattr(fd, x.name, x.value, 0); err != nil {
			lost = append(lost, fmt.Sprintf("extended attribute %s (%v)", x.name, err))
		}
	}
	return lost, nil
}

// keepOwner sets the owner and group of f when they differ from the
// process's, and says what it could not keep.
func keepOwner(f *os.File, uid, gid uint32) string {
	fi, err := f.Stat()
	if err != nil {
		return fmt.Sprintf("owner and group %d:%d (%v)", uid, gid, err)
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok || (st.Uid == uid && st.Gid == gid) {
		return ""
	}
	if err := f.Chown(int(uid), int(gid)); err == nil {
		return ""
	}
	// Not root: the group alone may still be ours to set.
	if st.Uid == uid {
		if err := f.Chown(-1, int(gid)); err == nil {
			return ""
		}
		return fmt.Sprintf("group %d (the file now belongs to group %d)", gid, st.Gid)
	}
	if err := f.Chown(-1, int(gid)); err == nil {
		return fmt.Sprintf("owner %d (the file now belongs to user %d)", uid, st.Uid)
	}
	return fmt.Sprintf("owner and group %d:%d (the file now belongs to %d:%d)", uid, gid, st.Uid, st.Gid)
}
