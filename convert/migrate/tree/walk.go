package tree

import (
	"context"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/pkg/errors"

	"github.com/xpmigrate/xpmigrate/internal/atomicfile"
	"github.com/xpmigrate/xpmigrate/internal/gitignore"
	"github.com/xpmigrate/xpmigrate/internal/regularfile"
)

// An EntryKind classifies what the walk found.
type EntryKind int

const (
	// EntryCandidate is a .yaml, .yml or .json file to migrate.
	EntryCandidate EntryKind = iota
	// EntryOther is any other file that is not ignored: copied verbatim
	// to Options.Out, otherwise left alone.
	EntryOther
	// EntrySkipped is a path reported as skipped (symlink problems).
	EntrySkipped
)

// An Entry is one file (or skipped path) of the tree.
type Entry struct {
	Kind EntryKind
	// Rel is the slash-separated path relative to the root.
	Rel string
	// Real is the absolute path of the file itself, symlinks resolved.
	Real string
	// Linked reports whether rel goes through a symlink.
	Linked bool
	// Mode is the real file's permission bits.
	Mode fs.FileMode
	// Why and whyDetail say why an entrySkipped was skipped.
	Why, WhyDetail string
}

// A Walker is the listing of a tree Walk returns.
type Walker struct {
	root     string // absolute, symlinks resolved
	include  gitignore.Globs
	exclude  gitignore.Globs
	skipReal string // absolute real path not to descend into (Options.Out)
	Entries  []Entry
	// Temps are the temporary files of atomic writes found in the tree
	// (left by a killed run): never input, never copied.
	Temps []Entry
}

// Walk lists the tree at root in lexical path order, honouring .gitignore
// files, the include and exclude globs, and never descending into .git or
// skipReal. Symlinked directories are followed when their target is inside
// the tree and is not one of their own ancestors (a loop).
func Walk(ctx context.Context, root string, include, exclude gitignore.Globs, skipReal string) (*Walker, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, errors.Wrapf(err, "cannot resolve %q", root)
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return nil, errors.Wrapf(err, "cannot resolve %q", root)
	}
	fi, err := os.Stat(real)
	if err != nil {
		return nil, errors.Wrapf(err, "cannot read %q", root)
	}
	if !fi.IsDir() {
		return nil, errors.Errorf("%q is not a directory", root)
	}
	w := &Walker{root: real, include: include, exclude: exclude, skipReal: skipReal}
	if err := w.dir(ctx, "", real, nil, []string{real}); err != nil {
		return nil, err
	}
	sort.SliceStable(w.Entries, func(i, j int) bool { return w.Entries[i].Rel < w.Entries[j].Rel })
	sort.SliceStable(w.Temps, func(i, j int) bool { return w.Temps[i].Rel < w.Temps[j].Rel })
	return w, nil
}

// dir lists the directory rel whose real path is realDir. chain holds the
// real paths of rel and its ancestors, to detect loops.
func (w *Walker) dir(ctx context.Context, rel, realDir string, ign gitignore.Stack, chain []string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	// A .gitignore that is not a regular file (a FIFO would block the
	// read) is reported with the directory's other special files.
	if data, err := regularfile.ReadFile(filepath.Join(realDir, ".gitignore")); err == nil {
		ign = append(ign[:len(ign):len(ign)], gitignore.ParseFile(rel, data))
	}
	des, err := os.ReadDir(realDir)
	if err != nil {
		return errors.Wrapf(err, "cannot read directory %q", displayPath(rel))
	}
	// os.ReadDir sorts by name; path order needs "a/x" before "a-b", so
	// sort directories as if their names ended in "/".
	sortEntries(des)
	for _, de := range des {
		name := de.Name()
		crel := path.Join(rel, name)
		creal := filepath.Join(realDir, name)
		isLink := de.Type()&fs.ModeSymlink != 0
		isDir := de.IsDir()
		linked := isLink || realDir != filepath.Join(w.root, filepath.FromSlash(rel))
		if isLink {
			target, err := filepath.EvalSymlinks(creal)
			if err != nil {
				if isCandidateName(name) && !ign.Ignored(crel, false) && !w.exclude.Match(crel, false) {
					w.Entries = append(w.Entries, Entry{Kind: EntrySkipped, Rel: crel, Why: ReasonBrokenSymlink, WhyDetail: "symlink to a missing file"})
				}
				continue
			}
			fi, err := os.Stat(target)
			if err != nil {
				continue
			}
			isDir = fi.IsDir()
			if !Within(w.root, target) {
				if ign.Ignored(crel, isDir) || w.exclude.Match(crel, isDir) || (!isDir && !isCandidateName(name)) {
					continue
				}
				w.Entries = append(w.Entries, Entry{Kind: EntrySkipped, Rel: crel, Why: ReasonSymlinkOutside, WhyDetail: "symlink to a path outside the tree"})
				continue
			}
			creal = target
		}
		if name == ".git" && isDir {
			continue
		}
		if ign.Ignored(crel, isDir) {
			continue
		}
		if !isDir && !isLink && atomicfile.IsTemporary(name) {
			if !w.exclude.Match(crel, false) {
				w.Temps = append(w.Temps, Entry{Kind: EntrySkipped, Rel: crel, Real: creal})
			}
			continue
		}
		if isDir {
			if w.skipReal != "" && (creal == w.skipReal || Within(w.skipReal, creal)) {
				continue
			}
			if w.exclude.Match(crel, true) {
				continue
			}
			if isLink {
				if loop := inChain(chain, creal); loop {
					w.Entries = append(w.Entries, Entry{Kind: EntrySkipped, Rel: crel, Why: ReasonSymlinkLoop, WhyDetail: "symlink to a directory that contains it"})
					continue
				}
			}
			if err := w.dir(ctx, crel, creal, ign, append(chain[:len(chain):len(chain)], creal)); err != nil {
				return err
			}
			continue
		}
		fi, err := os.Stat(creal)
		if err != nil {
			// Vanished between the listing and now: nothing to report.
			continue
		}
		if !fi.Mode().IsRegular() {
			if !w.exclude.Match(crel, false) {
				w.Entries = append(w.Entries, Entry{Kind: EntrySkipped, Rel: crel, Why: ReasonNotRegular, WhyDetail: NotRegularDetail(fi.Mode())})
			}
			continue
		}
		e := Entry{Kind: EntryOther, Rel: crel, Real: creal, Linked: linked, Mode: fi.Mode().Perm()}
		if isCandidateName(name) && !w.exclude.Match(crel, false) && (len(w.include) == 0 || w.include.Match(crel, false)) {
			e.Kind = EntryCandidate
		}
		w.Entries = append(w.Entries, e)
	}
	return nil
}

// NotRegularDetail says why a special file was skipped.
func NotRegularDetail(m fs.FileMode) string {
	return regularfile.Kind(m) + ", not a regular file: not opened"
}

// sortEntries orders directory entries so that the walk yields paths in
// lexical order of their slash-separated form.
func sortEntries(des []fs.DirEntry) {
	key := func(de fs.DirEntry) string {
		if de.IsDir() {
			return de.Name() + "/"
		}
		return de.Name()
	}
	// Insertion sort: directories are small and ReadDir is nearly sorted.
	for i := 1; i < len(des); i++ {
		for j := i; j > 0 && key(des[j]) < key(des[j-1]); j-- {
			des[j], des[j-1] = des[j-1], des[j]
		}
	}
}

// isCandidateName reports whether a file name has an extension the
// migrator reads.
func isCandidateName(name string) bool {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".yaml", ".yml", ".json":
		return true
	}
	return false
}

// Within reports whether p is inside dir (or is dir).
func Within(dir, p string) bool {
	if p == dir {
		return true
	}
	return strings.HasPrefix(p, strings.TrimSuffix(dir, string(filepath.Separator))+string(filepath.Separator))
}

func inChain(chain []string, p string) bool {
	for _, c := range chain {
		if c == p {
			return true
		}
	}
	return false
}

// displayPath names a relative path for messages.
func displayPath(rel string) string {
	if rel == "" {
		return "."
	}
	return rel
}
