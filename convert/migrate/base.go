package migrate

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os/exec"
	"path"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"

	"github.com/pkg/errors"

	"github.com/xpmigrate/xpmigrate/convert/migrate/tree"
)

// A baseTree is the tree as it was at a git revision, read from git's
// object store: never checked out, the work tree never touched. It lets a
// Composition converted in a commit (by xpmigrate or by hand) be verified
// against its legacy form.
type baseTree struct {
	// ref is the revision as the user gave it, commit the commit it
	// names.
	ref, commit string

	ix *tree.Index

	// docs holds each base file's documents as text, by path relative to
	// the root.
	docs map[string][]string
	// legacy holds the legacy Compositions by name; pipeline the mode:
	// Pipeline ones.
	legacy, pipeline map[string][]*tree.CompInfo
	// renamedFrom holds, by path at HEAD, the path at the base of each
	// file git sees renamed between the base and HEAD.
	renamedFrom map[string]string
}

// BaseError is returned when the base revision cannot be read: the ref
// does not name a commit, or the root is not in a git repository.
type BaseError struct{ err error }

func (e *BaseError) Error() string { return e.err.Error() }
func (e *BaseError) Unwrap() error { return e.err }

// readBase reads the YAML and JSON files under root at revision ref.
func readBase(ctx context.Context, root, ref string) (*baseTree, error) {
	if ref == "" || strings.HasPrefix(ref, "-") {
		return nil, &BaseError{err: errors.Errorf("invalid base revision %q", ref)}
	}
	commit, err := git(ctx, root, nil, "rev-parse", "--verify", "--quiet", "--end-of-options", ref+"^{commit}")
	if err != nil && ref == "HEAD" {
		// A repository without a commit yet (a pre-commit hook on the
		// first commit): nothing was legacy before.
		if _, gerr := git(ctx, root, nil, "rev-parse", "--git-dir"); gerr == nil {
			return &baseTree{ref: ref, ix: tree.BuildIndex(nil), docs: map[string][]string{},
				legacy: map[string][]*tree.CompInfo{}, pipeline: map[string][]*tree.CompInfo{}}, nil
		}
	}
	if err != nil {
		return nil, &BaseError{err: errors.Errorf("cannot resolve base revision %q in %s: it names no commit (in CI, fetch the base first: git fetch --depth=1 origin <sha>)", ref, root)}
	}
	b := &baseTree{ref: ref, commit: strings.TrimSpace(string(commit)), docs: map[string][]string{},
		legacy: map[string][]*tree.CompInfo{}, pipeline: map[string][]*tree.CompInfo{}}

	// Paths are relative to root: ls-tree lists the current directory's
	// part of the tree.
	list, err := git(ctx, root, nil, "ls-tree", "-r", "-l", "-z", b.commit)
	if err != nil {
		return nil, &BaseError{err: errors.Wrapf(err, "cannot list the files of %s", ref)}
	}
	type blob struct{ sha, rel string }
	var blobs []blob
	for _, rec := range bytes.Split(list, []byte{0}) {
		meta, rel, ok := bytes.Cut(rec, []byte{'\t'})
		if !ok {
			continue
		}
		f := strings.Fields(string(meta))
		// Regular files only: no symlinks (120000), no submodules; and
		// none larger than the readers' bound (never read from git).
		if len(f) != 4 || f[1] != "blob" || (f[0] != "100644" && f[0] != "100755") || !tree.BlobFits(f[3]) {
			continue
		}
		switch strings.ToLower(path.Ext(string(rel))) {
		case ".yaml", ".yml", ".json":
			blobs = append(blobs, blob{sha: f[2], rel: string(rel)})
		}
	}
	if len(blobs) == 0 {
		b.ix = tree.BuildIndex(nil)
		return b, nil
	}
	var in bytes.Buffer
	for _, bl := range blobs {
		in.WriteString(bl.sha + "\n")
	}
	out, err := git(ctx, root, &in, "cat-file", "--batch")
	if err != nil {
		return nil, &BaseError{err: errors.Wrapf(err, "cannot read the files of %s", ref)}
	}
	rd := bufio.NewReader(bytes.NewReader(out))
	datas := make([][]byte, len(blobs))
	for i, bl := range blobs {
		if datas[i], err = readBatchObject(rd); err != nil {
			return nil, &BaseError{err: errors.Wrapf(err, "cannot read %s at %s", bl.rel, ref)}
		}
	}
	// Classify the files on every core, as the scan of the work tree does.
	scannedFiles := make([]*tree.Scanned, len(blobs))
	var wg sync.WaitGroup
	next := make(chan int)
	for w := 0; w < runtime.GOMAXPROCS(0); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				s := &tree.Scanned{Entry: tree.Entry{Rel: blobs[i].rel, Kind: tree.EntryCandidate}, Format: tree.FormatOf(blobs[i].rel)}
				s.Classify(datas[i])
				scannedFiles[i] = s
			}
		}()
	}
	for i := range blobs {
		next <- i
	}
	close(next)
	wg.Wait()
	var files []*tree.Scanned
	for i, s := range scannedFiles {
		if s.Reason != "" {
			continue
		}
		files = append(files, s)
		if s.Compositions > 0 {
			b.docs[s.Rel] = splitFile(datas[i], s.Format)
		}
	}
	b.ix = tree.BuildIndex(files)
	if b.renamedFrom, err = renames(ctx, root, b.commit); err != nil {
		return nil, &BaseError{err: errors.Wrapf(err, "cannot list the files renamed since %s", ref)}
	}
	for _, c := range b.ix.Compositions {
		if c.Legacy {
			b.legacy[c.Name] = append(b.legacy[c.Name], c)
		} else {
			b.pipeline[c.Name] = append(b.pipeline[c.Name], c)
		}
	}
	return b, nil
}

// renames returns, by path at HEAD, the path at commit of each file git
// sees renamed from commit to HEAD (paths relative to root). It compares
// the two commits' trees in git's object store: the work tree and the
// index are not read, no hook runs. Without a HEAD commit there are none.
func renames(ctx context.Context, root, commit string) (map[string]string, error) {
	out := map[string]string{}
	head, err := git(ctx, root, nil, "rev-parse", "--verify", "--quiet", "--end-of-options", "HEAD^{commit}")
	if err != nil {
		return out, nil //nolint:nilerr // No commit yet: nothing renamed.
	}
	list, err := git(ctx, root, nil, "diff-tree", "-r", "-M", "--relative", "--name-status", "-z", "--no-ext-diff", "--no-textconv",
		"--end-of-options", commit, strings.TrimSpace(string(head)))
	if err != nil {
		return nil, err
	}
	f := bytes.Split(bytes.TrimSuffix(list, []byte{0}), []byte{0})
	for i := 0; i < len(f); {
		status := string(f[i])
		switch {
		case strings.HasPrefix(status, "R") && i+2 < len(f):
			out[string(f[i+2])] = string(f[i+1])
			i += 3
		case strings.HasPrefix(status, "C") && i+2 < len(f):
			i += 3
		default:
			i += 2
		}
	}
	return out, nil
}

// readBatchObject reads one object of `git cat-file --batch` output.
func readBatchObject(rd *bufio.Reader) ([]byte, error) {
	header, err := rd.ReadString('\n')
	if err != nil {
		return nil, err
	}
	f := strings.Fields(header)
	if len(f) != 3 {
		return nil, errors.Errorf("unexpected git cat-file header %q", strings.TrimSpace(header))
	}
	n, err := strconv.Atoi(f[2])
	if err != nil {
		return nil, errors.Wrapf(err, "unexpected git cat-file header %q", strings.TrimSpace(header))
	}
	data := make([]byte, n+1) // the object and its newline
	if _, err := io.ReadFull(rd, data); err != nil {
		return nil, err
	}
	return data[:n], nil
}

// git runs git in dir and returns its standard output.
func git(ctx context.Context, dir string, stdin io.Reader, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "git", append([]string{"-C", dir}, args...)...) //nolint:gosec // Arguments are passed as a vector, never through a shell.
	cmd.Stdin = stdin
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		if msg := strings.TrimSpace(stderr.String()); msg != "" {
			return nil, errors.Wrap(err, msg)
		}
		return nil, err
	}
	return stdout.Bytes(), nil
}

// A headComposition is what identifies a Composition of the work tree
// to its legacy form at the base.
type headComposition struct {
	file, name string
	// typeRef is its compositeTypeRef, from the legacy type it was
	// converted from (a v2 conversion's), both "apiVersion|kind".
	typeRef, from string
	// named reports whether a Composition of that name is in the work
	// tree: a legacy Composition at the base that is still there under its
	// name is that one's, not another's.
	named func(name string) bool
}

// legacyFor returns the legacy Composition at the base that a Composition
// of the work tree is the conversion of, by the first rule that finds
// one:
//
//   - the same name, preferring the same file;
//   - for a v2 conversion named NAME-v2, NAME;
//   - the file's history: the legacy Compositions of its file at the base
//     (the file it was renamed from, if git sees a rename), of its legacy
//     type, whose names the work tree no longer has: the one, if there is
//     one;
//   - its legacy type: the one legacy Composition of that type at the base
//     whose name the work tree no longer has.
//
// A conversion renamed, moved, or both is so still verified against its
// legacy form. ok is false when there is none.
func (b *baseTree) legacyFor(h headComposition) (*tree.CompInfo, bool) {
	byName := func(name string) (*tree.CompInfo, bool) {
		cs := b.legacy[name]
		for _, c := range cs {
			if c.File == h.file || c.File == b.renamedFrom[h.file] {
				return c, true
			}
		}
		if len(cs) > 0 {
			return cs[0], true
		}
		return nil, false
	}
	if c, ok := byName(h.name); ok {
		return c, true
	}
	if n, ok := strings.CutSuffix(h.name, "-v2"); ok && h.from != "" {
		if c, ok := byName(n); ok {
			return c, true
		}
	}
	legacyType := h.typeRef
	if h.from != "" {
		legacyType = h.from
	}
	if legacyType == "" || legacyType == "|" {
		return nil, false
	}
	gone := func(c *tree.CompInfo) bool {
		return c.TypeRef == legacyType && (h.named == nil || !h.named(c.Name))
	}
	was := h.file
	if from, ok := b.renamedFrom[h.file]; ok {
		was = from
	}
	var inFile, ofType []*tree.CompInfo
	for _, c := range b.ix.Compositions {
		if !c.Legacy || !gone(c) {
			continue
		}
		ofType = append(ofType, c)
		if c.File == was {
			inFile = append(inFile, c)
		}
	}
	switch {
	case len(inFile) == 1:
		return inFile[0], true
	case len(inFile) == 0 && len(ofType) == 1:
		return ofType[0], true
	}
	return nil, false
}

// pipelineAt returns the Composition of that name that was already mode:
// Pipeline at the base, preferring the same file.
func (b *baseTree) pipelineAt(file, name string) (*tree.CompInfo, bool) {
	cs := b.pipeline[name]
	for _, c := range cs {
		if c.File == file {
			return c, true
		}
	}
	if len(cs) > 0 {
		return cs[0], true
	}
	return nil, false
}

// document returns a base Composition's document (the List item alone for
// an item).
func (b *baseTree) document(c *tree.CompInfo) ([]byte, error) {
	docs := b.docs[c.File]
	if c.Doc < 0 || c.Doc >= len(docs) {
		return nil, errors.Errorf("no document %d in %s at %s", c.Doc, c.File, b.ref)
	}
	if c.Item >= 0 {
		return listItem(docs[c.Doc], c.Item)
	}
	return []byte(docs[c.Doc]), nil
}

// where names a base Composition for reports: "REF:file#doc".
func (b *baseTree) where(c *tree.CompInfo) string {
	return fmt.Sprintf("%s:%s#%d", b.ref, c.File, c.Doc)
}

// LegacyAt returns the legacy (mode: Resources) form, at git revision
// ref, of the Composition named name whose file is file (a path in the
// work tree of the repository that holds it): the Composition of that name
// in the same file at ref, else in any file. where names it for reports
// ("REF:path#doc"). It reads git's object store and never touches the work
// tree. A *BaseError says the revision cannot be read; ok is false when no
// legacy Composition of that name existed at ref.
func LegacyAt(ctx context.Context, file, ref, name string) (doc []byte, where string, ok bool, err error) {
	dir := filepath.Dir(file)
	top, err := git(ctx, dir, nil, "rev-parse", "--show-toplevel")
	if err != nil {
		return nil, "", false, &BaseError{err: errors.Wrapf(err, "cannot read base %q: %s is not in a git repository", ref, file)}
	}
	root := strings.TrimSpace(string(top))
	b, err := readBase(ctx, root, ref)
	if err != nil {
		return nil, "", false, err
	}
	abs, err := filepath.Abs(file)
	if err != nil {
		return nil, "", false, err
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		abs = real
	}
	if real, err := filepath.EvalSymlinks(root); err == nil {
		root = real
	}
	rel, err := filepath.Rel(root, abs)
	if err != nil {
		return nil, "", false, err
	}
	c, found := b.legacyFor(headComposition{file: filepath.ToSlash(rel), name: name})
	if !found {
		return nil, "", false, nil
	}
	d, err := b.document(c)
	if err != nil {
		return nil, "", false, err
	}
	return d, b.where(c), true, nil
}
