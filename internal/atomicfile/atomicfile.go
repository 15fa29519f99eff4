// Package atomicfile replaces files so that readers see either the old or
// the new content, never a mix, and a failure or an interruption leaves the
// old file alone: the data goes to a temporary file in the same directory,
// is synced (Write) or not (WriteUnsynced), and is renamed over the target.
//
// The temporary file is named ".<name>.xpmigrate-tmp-<random>" and locked
// while it is written: a process killed mid-write (SIGKILL, power loss)
// leaves it behind, unlocked, and the next run recognises it (IsTemporary),
// never reads it as input, and removes it (RemoveStale).
//
//	err := atomicfile.Write("composition.yaml", out, 0o644, nil)
package atomicfile

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/pkg/errors"
)

// tempMark sits between a temporary file's target name and its random
// suffix.
const tempMark = ".xpmigrate-tmp-"

// temporary matches the names of temporary files: ours, and those of
// earlier versions (".<name>.xpmigrate-<digits>").
var temporary = regexp.MustCompile(`^\..+\.xpmigrate-(tmp-)?[0-9]+$`)

// IsTemporary reports whether a file name (a base name, not a path) is
// that of a temporary file Write creates.
func IsTemporary(name string) bool {
	return temporary.MatchString(name)
}

// RemoveStale removes the temporary files a killed process left beside
// dst: those of dst's name that no running write holds. It returns the
// paths it removed, sorted.
func RemoveStale(dst string) ([]string, error) {
	dir, base := filepath.Split(dst)
	if dir == "" {
		dir = "."
	}
	des, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, errors.Wrapf(err, "cannot list %q", dir)
	}
	var removed []string
	var errs []error
	for _, de := range des {
		name := de.Name()
		if !de.Type().IsRegular() || !IsTemporary(name) || !strings.HasPrefix(name, "."+base+".xpmigrate-") {
			continue
		}
		// A longer name that starts like ours (".a.yaml.xpmigrate-…" for
		// "a.yaml.xpmigrate-…") is not dst's: the rest must be the suffix.
		if rest := strings.TrimPrefix(name, "."+base); !temporary.MatchString(".x" + rest) {
			continue
		}
		p := filepath.Join(dir, name)
		ok, err := removeUnlocked(p)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if ok {
			removed = append(removed, p)
		}
	}
	sort.Strings(removed)
	return removed, errors.Wrapf(joinErrs(errs), "cannot remove stale temporary files beside %q", dst)
}

// RemoveIfStale removes the temporary file at path (one IsTemporary
// names) unless a running write holds it, and reports whether it did.
func RemoveIfStale(path string) (bool, error) {
	return removeUnlocked(path)
}

func joinErrs(errs []error) error {
	if len(errs) == 0 {
		return nil
	}
	return errs[0]
}

// Write replaces dst with data, with mode perm. check, when not nil, runs
// after the data is safely on disk and before the rename, and may veto the
// write (e.g. when dst changed meanwhile). On any error the temporary file
// is removed and dst is untouched.
func Write(dst string, data []byte, perm fs.FileMode, check func() error) error {
	_, err := write(dst, data, &meta{mode: perm}, check, true)
	return err
}

// WriteUnsynced is Write without syncing the data before the rename, as git
// writes a work tree's files: the replacement is as atomic for readers and
// for an interrupted process, and the kernel writes the data back in its
// own time. A migration writes hundreds of files, and a sync each keeps a
// core idle for every one of them.
func WriteUnsynced(dst string, data []byte, perm fs.FileMode, check func() error) error {
	_, err := write(dst, data, &meta{mode: perm}, check, false)
	return err
}

// ReplaceOptions configure Replace.
type ReplaceOptions struct {
	// Sync syncs the data before the rename (see WriteUnsynced).
	Sync bool
	// Check, when not nil, may veto the write, as for Write.
	Check func() error
	// AllowHardLinks replaces a file that has other names (hard links):
	// they keep the old content. Without it such a file is refused with
	// a *HardLinkError.
	AllowHardLinks bool
}

// A HardLinkError is a file with other names, which replacing it would
// split from them.
type HardLinkError struct {
	Path  string
	Links uint64
}

func (e *HardLinkError) Error() string {
	return fmt.Sprintf("%q has %d names (hard links): replacing it would leave the other names with the old content", e.Path, e.Links)
}

// Replace replaces the existing regular file dst (symlinks are not
// followed: pass the real path) with data, atomically, and keeps its
// metadata where the process may set it: the mode with its setuid, setgid
// and sticky bits, the owner and group, and the extended attributes. It
// returns what could not be kept, one phrase each. A missing dst is an
// error satisfying errors.Is(err, fs.ErrNotExist).
func Replace(dst string, data []byte, o ReplaceOptions) ([]string, error) {
	m, err := readMeta(dst)
	if err != nil {
		return nil, err
	}
	if m.links > 1 && !o.AllowHardLinks {
		return nil, &HardLinkError{Path: dst, Links: m.links}
	}
	lost, err := write(dst, data, m, o.Check, o.Sync)
	if err == nil && m.links > 1 {
		others := fmt.Sprintf("%d other names keep", m.links-1)
		if m.links == 2 {
			others = "the other name keeps"
		}
		lost = append(lost, "hard links ("+others+" the old content)")
	}
	return lost, err
}

func write(dst string, data []byte, m *meta, check func() error, sync bool) (lost []string, err error) {
	dir, base := filepath.Split(dst)
	if dir == "" {
		dir = "."
	}
	tmp, err := os.CreateTemp(dir, "."+base+tempMark+"*")
	if err != nil {
		return nil, errors.Wrapf(err, "cannot create a temporary file beside %q", dst)
	}
	name := tmp.Name()
	closed := false
	defer func() {
		if !closed {
			_ = tmp.Close()
		}
		if err != nil {
			_ = os.Remove(name) //nolint:gosec // Our own temporary, beside the target.
		}
	}()
	// Held until the rename: RemoveStale leaves a locked file alone.
	lock(tmp)
	if _, err = tmp.Write(data); err != nil {
		return nil, errors.Wrapf(err, "cannot write %q", name)
	}
	if lost, err = m.apply(tmp); err != nil {
		return nil, errors.Wrapf(err, "cannot set the mode of %q", name)
	}
	if sync {
		if err = tmp.Sync(); err != nil {
			return nil, errors.Wrapf(err, "cannot sync %q", name)
		}
	}
	if check != nil {
		if err = check(); err != nil {
			return nil, err
		}
	}
	if err = os.Rename(name, dst); err != nil { //nolint:gosec // The target the caller names, and our temporary beside it.
		return nil, errors.Wrapf(err, "cannot replace %q", dst)
	}
	closed = true
	if err := tmp.Close(); err != nil {
		// The data is in place; a failed close of an unsynced write may
		// still lose it, as a failed close before the rename would have.
		return lost, errors.Wrapf(err, "cannot close %q", dst)
	}
	return lost, nil
}

// Probe reports whether a new file can be created in dir, by creating and
// removing a temporary file named as Write names those for a target called
// name (so that RemoveStale recognises one a killed process left). It
// leaves nothing behind.
func Probe(dir, name string) error {
	tmp, err := os.CreateTemp(dir, "."+name+tempMark+"*")
	if err != nil {
		return err
	}
	p := tmp.Name()
	_ = tmp.Close()
	return os.Remove(p)
}

// statRegular stats the file at path, which Replace may replace only if it
// is a regular file.
func statRegular(path string) (fs.FileInfo, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, errors.Errorf("cannot replace %q: not a regular file", path)
	}
	return fi, nil
}

// keptMode is the part of a file's mode Replace keeps: permissions and the
// setuid, setgid and sticky bits.
func keptMode(fi fs.FileInfo) fs.FileMode {
	return fi.Mode() & (fs.ModePerm | fs.ModeSetuid | fs.ModeSetgid | fs.ModeSticky)
}
