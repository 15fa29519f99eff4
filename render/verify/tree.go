package verify

import (
	"io/fs"
	"path"

	"github.com/xpmigrate/xpmigrate/internal/gitignore"
)

// rootSearchDepth bounds how many directories, the Composition's own
// included, treeRoot looks at for the root of its tree.
const rootSearchDepth = 8

// maxTreeEntries bounds the directory entries treeFiles lists, so that a
// root that holds far more than a repository (a home directory under
// version control) costs a bounded walk.
const maxTreeEntries = 200000

// treeRoot returns the root of the tree a Composition in dir belongs to,
// what `migrate` is run on: the nearest directory, dir or above it, that
// holds .git (a repository's top level, a directory or a worktree's file),
// else the nearest that holds a Configuration's crossplane.yaml (a
// package). It looks at rootSearchDepth directories at most, never above
// the root of fsys, and never across a mount point (a directory on another
// device than dir, when fsys tells devices). ok is false when no directory
// qualifies.
func treeRoot(fsys fs.FS, dir string) (root string, ok bool) {
	dev, hasDev := device(fsys, dir)
	var pkg string
	for d, i := path.Clean(dir), 0; i < rootSearchDepth; d, i = path.Dir(d), i+1 {
		if i > 0 && hasDev {
			if dd, ok := device(fsys, d); !ok || dd != dev {
				break
			}
		}
		if _, err := fs.Stat(fsys, path.Join(d, ".git")); err == nil {
			return d, true
		}
		if fi, err := fs.Stat(fsys, path.Join(d, "crossplane.yaml")); err == nil && fi.Mode().IsRegular() && pkg == "" {
			pkg = d
		}
		if d == "." || d == "/" {
			break
		}
	}
	return pkg, pkg != ""
}

// treeFiles lists the files of the tree at root as `migrate` walks it:
// every file that may hold manifests, in path order, .git never entered,
// what .gitignore files ignore left out. Symlinked directories are not
// followed.
func treeFiles(fsys fs.FS, root string) []string {
	var out []string
	entries := 0
	var walk func(rel string, ign gitignore.Stack)
	walk = func(rel string, ign gitignore.Stack) {
		full := path.Join(root, rel)
		if b, err := fs.ReadFile(fsys, path.Join(full, ".gitignore")); err == nil {
			ign = append(ign[:len(ign):len(ign)], gitignore.ParseFile(rel, b))
		}
		des, err := fs.ReadDir(fsys, full)
		if err != nil {
			return
		}
		for _, de := range des {
			if entries++; entries > maxTreeEntries {
				return
			}
			crel := path.Join(rel, de.Name())
			if de.Name() == ".git" || ign.Ignored(crel, de.IsDir()) {
				continue
			}
			switch {
			case de.IsDir():
				walk(crel, ign)
			case de.Type().IsRegular() && isManifestName(crel):
				out = append(out, path.Join(root, crel))
			}
		}
	}
	walk("", nil)
	return out
}
