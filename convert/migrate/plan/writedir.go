package plan

import (
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/pkg/errors"

	"github.com/xpmigrate/xpmigrate/internal/atomicfile"
	"github.com/xpmigrate/xpmigrate/internal/errkind"
)

// Write makes the directory out hold exactly files (by "/"-separated path
// relative to it), whatever an earlier plan left there: it builds the
// whole directory aside, in a new directory beside out
// (".<out>.xpmigrate-tmp-<n>"), and then puts it in out's place (an atomic
// exchange where the system has one, else two renames). Nothing is
// written, and out is left as it was, unless every file can be.
//
// out must be absent (its parent must exist), an empty directory or an
// earlier plan directory: one with plan.json that holds only directories
// and files a plan writes, no symlink. Anything else is refused (invalid
// input), so that a rerun replaces a plan and never anything else. A path
// of files that is absolute or climbs out ("..") is refused. No symlink is
// followed inside out: the new directory is made file by file (every
// directory created, every file created exclusively), and an earlier plan
// holds none.
func Write(out string, files map[string][]byte) error {
	paths, err := layout(files)
	if err != nil {
		return err
	}
	target, old, err := outDir(out)
	if err != nil {
		return err
	}
	tmp, err := mkdirBeside(target)
	if err != nil {
		return err
	}
	done := false
	defer func() {
		if !done {
			_ = os.RemoveAll(tmp)
		}
	}()
	if old != nil {
		if err := os.Chmod(tmp, old.Mode().Perm()); err != nil {
			return errors.Wrapf(err, "cannot write the plan in %q", tmp)
		}
	}
	made := map[string]bool{".": true}
	for _, p := range paths {
		if err := writeNew(tmp, p, files[p], made); err != nil {
			return err
		}
	}
	if err := swapIn(tmp, target, old != nil); err != nil {
		return err
	}
	done = true
	return nil
}

// layout returns the paths of files, sorted, after checking that each is
// a clean relative path inside the directory and that none is both a file
// and a directory.
func layout(files map[string][]byte) ([]string, error) {
	paths := make([]string, 0, len(files))
	dirs := map[string]bool{}
	for p := range files {
		if p == "" || path.Clean(p) != p || !filepath.IsLocal(filepath.FromSlash(p)) || strings.Contains(p, `\`) || path.IsAbs(p) {
			return nil, errkind.InvalidInputf("cannot write the plan: %q is not a path inside the plan directory", p)
		}
		paths = append(paths, p)
		for d := path.Dir(p); d != "."; d = path.Dir(d) {
			dirs[d] = true
		}
	}
	for _, p := range paths {
		if dirs[p] {
			return nil, errkind.InvalidInputf("cannot write the plan: %q is both a file and a directory", p)
		}
	}
	sort.Strings(paths)
	return paths, nil
}

// outDir resolves out (a symlink the user names is followed once) and
// returns it with the FileInfo of the directory there, nil when there is
// none yet.
func outDir(out string) (string, fs.FileInfo, error) {
	fi, err := os.Lstat(out)
	if err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		resolved, rerr := filepath.EvalSymlinks(out)
		if rerr != nil {
			return "", nil, errkind.InvalidInput(errors.Wrapf(rerr, "cannot write the plan in %q", out))
		}
		out = resolved
		fi, err = os.Lstat(out)
	}
	switch {
	case errors.Is(err, fs.ErrNotExist):
		parent := filepath.Dir(out)
		if pfi, perr := os.Stat(parent); perr != nil || !pfi.IsDir() {
			return "", nil, errkind.InvalidInputf("cannot write the plan: directory %q does not exist", parent)
		}
		return out, nil, nil
	case err != nil:
		return "", nil, errors.Wrapf(err, "cannot write the plan in %q", out)
	case !fi.IsDir():
		return "", nil, errkind.InvalidInputf("cannot write the plan: %q is not a directory", out)
	}
	if err := earlierPlan(out); err != nil {
		return "", nil, err
	}
	return out, fi, nil
}

// planFiles are the files at the top of a plan directory.
var planFiles = map[string]bool{"README.md": true, "plan.json": true, "definitions.yaml": true}

// earlierPlan refuses a directory that is neither empty nor a plan
// directory: a plan.json at the top, and below only directories, the top
// files of a plan and YAML files (and temporary files of an interrupted
// write), no symlink, nothing else.
func earlierPlan(dir string) error {
	empty, hasPlan := true, false
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if p == dir {
			return nil
		}
		empty = false
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		switch {
		case d.IsDir():
			return nil
		case !d.Type().IsRegular():
			return errkind.InvalidInputf("cannot write the plan in %q: it is not a plan directory (%q is not a regular file): give a new or empty directory", dir, rel)
		case !strings.Contains(rel, "/") && planFiles[rel]:
			hasPlan = hasPlan || rel == "plan.json"
			return nil
		case strings.Contains(rel, "/") && strings.HasSuffix(rel, ".yaml"), atomicfile.IsTemporary(d.Name()):
			return nil
		}
		return errkind.InvalidInputf("cannot write the plan in %q: it is not a plan directory (it holds %q, which no plan writes): give a new or empty directory", dir, rel)
	})
	if err != nil {
		if errkind.IsInvalidInput(err) {
			return err
		}
		return errors.Wrapf(err, "cannot read %q", dir)
	}
	if !empty && !hasPlan {
		return errkind.InvalidInputf("cannot write the plan in %q: it is neither empty nor a plan directory (no plan.json): give a new or empty directory", dir)
	}
	return nil
}

// mkdirBeside creates a new directory beside target, named as a temporary
// file of target's (atomicfile.IsTemporary: never read as input).
func mkdirBeside(target string) (string, error) {
	dir, base := filepath.Split(target)
	for range 100 {
		p := filepath.Join(dir, fmt.Sprintf(".%s.xpmigrate-tmp-%d", base, rand.Uint32())) //nolint:gosec // A name, not a secret.
		err := os.Mkdir(p, 0o755)                                                         //nolint:gosec // A plan others read and apply.
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return "", errors.Wrapf(err, "cannot write the plan beside %q", target)
		}
		return p, nil
	}
	return "", errors.Errorf("cannot write the plan beside %q: no free temporary name", target)
}

// writeNew writes the file rel below root, creating each directory on its
// way (made records those it created): an existing directory or file
// there, a symlink included, is an error, never followed.
func writeNew(root, rel string, data []byte, made map[string]bool) error {
	parts := strings.Split(rel, "/")
	for i := range parts[:len(parts)-1] {
		d := strings.Join(parts[:i+1], "/")
		if made[d] {
			continue
		}
		if err := os.Mkdir(filepath.Join(root, filepath.FromSlash(d)), 0o755); err != nil { //nolint:gosec // A plan others read and apply.
			return errors.Wrapf(err, "cannot write the plan: cannot create %q", d)
		}
		made[d] = true
	}
	full := filepath.Join(root, filepath.FromSlash(rel))
	f, err := os.OpenFile(full, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644) //nolint:gosec,forbidigo // A plan others read and apply, created here (O_EXCL): a write, not a read.
	if err != nil {
		return errors.Wrapf(err, "cannot write the plan: cannot create %q", rel)
	}
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return errors.Wrapf(err, "cannot write the plan: cannot write %q", rel)
}

// swapIn puts the directory tmp in target's place and removes what was
// there (when exists).
func swapIn(tmp, target string, exists bool) error {
	if !exists {
		return errors.Wrapf(os.Rename(tmp, target), "cannot write the plan in %q", target)
	}
	if err := exchange(tmp, target); err == nil {
		// tmp now holds the earlier plan.
		return errors.Wrapf(os.RemoveAll(tmp), "the plan is written in %q, but the earlier plan moved aside to %q cannot be removed", target, tmp)
	}
	old, err := mkdirBeside(target)
	if err != nil {
		return err
	}
	if err := os.Rename(target, old); err != nil {
		_ = os.Remove(old)
		return errors.Wrapf(err, "cannot move the earlier plan %q aside", target)
	}
	if err := os.Rename(tmp, target); err != nil {
		if rerr := os.Rename(old, target); rerr != nil {
			return errors.Wrapf(err, "cannot write the plan in %q (the earlier plan is in %q)", target, old)
		}
		return errors.Wrapf(err, "cannot write the plan in %q", target)
	}
	return errors.Wrapf(os.RemoveAll(old), "the plan is written in %q, but the earlier plan moved aside to %q cannot be removed", target, old)
}
