package docgen

import (
	"bytes"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/pkg/errors"
)

// A ChangeKind says how a file on disk differs from the generated one.
type ChangeKind string

// Kinds of change.
const (
	// Added: the page is generated but absent on disk.
	Added ChangeKind = "missing"

	// Changed: the page on disk differs from the generated one.
	Changed ChangeKind = "stale"

	// Removed: a generated page (it carries Marker) that is no longer
	// generated, because its command is gone.
	Removed ChangeKind = "obsolete"
)

// A Change is one file that Write would write or remove.
type Change struct {
	Name string
	Kind ChangeKind
}

// Diff compares the generated files with the reference directory fsys and
// returns what Write would change, sorted by name; none when the
// directory is current. Files without Marker that are not generated are
// not the generator's and never reported.
func Diff(fsys fs.FS, files []File) ([]Change, error) {
	var out []Change
	want := map[string]bool{}
	for _, f := range files {
		want[f.Name] = true
		got, err := fs.ReadFile(fsys, f.Name)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			out = append(out, Change{Name: f.Name, Kind: Added})
		case err != nil:
			return nil, errors.Wrapf(err, "cannot read %q", f.Name)
		case !bytes.Equal(got, f.Data):
			out = append(out, Change{Name: f.Name, Kind: Changed})
		}
	}
	entries, err := fs.ReadDir(fsys, ".")
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, errors.Wrap(err, "cannot list the reference directory")
	}
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || path.Ext(name) != ".md" || want[name] {
			continue
		}
		data, err := fs.ReadFile(fsys, name)
		if err != nil {
			return nil, errors.Wrapf(err, "cannot read %q", name)
		}
		if bytes.HasPrefix(data, []byte(Marker)) {
			out = append(out, Change{Name: name, Kind: Removed})
		}
	}
	slices.SortFunc(out, func(a, b Change) int { return strings.Compare(a.Name, b.Name) })
	return out, nil
}

// Write brings the directory dir up to date with the generated files:
// missing and stale pages are written (each to a temporary file renamed
// over the old one), obsolete generated pages removed. It returns what it
// changed.
func Write(dir string, files []File) ([]Change, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil { //nolint:gosec // Documentation is world-readable.
		return nil, errors.Wrapf(err, "cannot create %q", dir)
	}
	changes, err := Diff(os.DirFS(dir), files)
	if err != nil {
		return nil, err
	}
	data := map[string][]byte{}
	for _, f := range files {
		data[f.Name] = f.Data
	}
	for _, c := range changes {
		p := filepath.Join(dir, filepath.FromSlash(c.Name))
		if c.Kind == Removed {
			if err := os.Remove(p); err != nil {
				return nil, errors.Wrapf(err, "cannot remove %q", p)
			}
			continue
		}
		if err := writeAtomic(p, data[c.Name]); err != nil {
			return nil, err
		}
	}
	return changes, nil
}

func writeAtomic(p string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(p), "."+filepath.Base(p)+".tmp-*")
	if err != nil {
		return errors.Wrapf(err, "cannot write %q", p)
	}
	name := tmp.Name()
	if _, err := tmp.Write(data); err != nil {
		_ = tmp.Close()
		_ = os.Remove(name)
		return errors.Wrapf(err, "cannot write %q", p)
	}
	if err := tmp.Close(); err != nil {
		_ = os.Remove(name)
		return errors.Wrapf(err, "cannot write %q", p)
	}
	if err := os.Chmod(name, 0o644); err != nil { //nolint:gosec // Documentation is world-readable.
		_ = os.Remove(name)
		return errors.Wrapf(err, "cannot write %q", p)
	}
	if err := os.Rename(name, p); err != nil {
		_ = os.Remove(name)
		return errors.Wrapf(err, "cannot write %q", p)
	}
	return nil
}
