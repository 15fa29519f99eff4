package migrate

import (
	"bytes"
	"context"
	"crypto/sha256"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/pkg/errors"

	"github.com/xpmigrate/xpmigrate/convert/migrate/finding"
	"github.com/xpmigrate/xpmigrate/convert/migrate/functions"
	"github.com/xpmigrate/xpmigrate/convert/migrate/tree"
	"github.com/xpmigrate/xpmigrate/convert/yamledit"
	"github.com/xpmigrate/xpmigrate/internal/atomicfile"
	"github.com/xpmigrate/xpmigrate/internal/jsonobj"
	"github.com/xpmigrate/xpmigrate/internal/manifest"
	"github.com/xpmigrate/xpmigrate/internal/regularfile"
	"github.com/xpmigrate/xpmigrate/internal/udiff"
	"github.com/xpmigrate/xpmigrate/internal/xp"
)

// FunctionsNone as Options.FunctionsOut writes no Function manifests (the
// Configurations' dependencies are still added).
const FunctionsNone = "none"

// A wiring is the plan, made before any file is written, of the function
// manifests and Configuration dependencies a run adds.
type wiring struct {
	pt, ec functions.Pin
	scopes []*wireScope
	// out is Options.FunctionsOut: one file for every scope, "" for one
	// per scope, FunctionsNone for none.
	out string
	// added are the Function manifests and dependencies the run adds.
	added []installer
}

// A wireScope is one package scope (a directory with a Configuration's
// crossplane.yaml, or the tree) with legacy Compositions.
type wireScope struct {
	dir string
	// config is the Configuration's crossplane.yaml, "" without one.
	config string
	// functions is the file manifests go to, "" for none.
	functions string
}

// planWiring decides where function manifests and dependencies go, and
// checks before anything is written that every one of those files can be
// written.
func (r *runner) planWiring() error {
	if !r.o.WireFunctions || r.o.Phase1 {
		return nil
	}
	w := &wiring{out: r.o.FunctionsOut}
	w.pt, w.ec = functions.Pins(r.o.Target)
	if w.out != "" && w.out != FunctionsNone {
		clean := path.Clean(filepath.ToSlash(w.out))
		if path.IsAbs(clean) || clean == ".." || strings.HasPrefix(clean, "../") || clean == "." {
			return invalid("--functions-out must be a file path inside the tree, relative to it, not %q", r.o.FunctionsOut)
		}
		w.out = clean
	}
	dirs := map[string][]string{} // scope → files with legacy Compositions
	for _, c := range r.ix.Compositions {
		if c.Legacy || c.NativeEnv {
			s := r.ix.ScopeOf(c.File)
			dirs[s] = append(dirs[s], c.File)
		}
	}
	scopes := make([]string, 0, len(dirs))
	for s := range dirs {
		scopes = append(scopes, s)
	}
	sort.Strings(scopes)
	for _, s := range scopes {
		ws := &wireScope{dir: s}
		if cfg := path.Join(s, "crossplane.yaml"); r.hasConfiguration(cfg) {
			ws.config = cfg
		}
		switch {
		case w.out == FunctionsNone:
		case w.out != "":
			ws.functions = w.out
		case ws.config != "":
			// Not beside crossplane.yaml: a Configuration package holds
			// only XRDs and Compositions, and `crossplane xpkg build`
			// refuses any other object in the package root. The examples
			// directory is left out of the package.
			ws.functions = path.Join(s, "examples", "functions.yaml")
		default:
			ws.functions = path.Join(commonDir(dirs[s]), "functions.yaml")
		}
		w.scopes = append(w.scopes, ws)
	}
	for _, f := range r.files {
		for _, ws := range w.scopes {
			if f.Rel == ws.functions && f.Compositions > 0 {
				return invalid("cannot write Function manifests to %q: it holds Compositions; choose another --functions-out", f.Rel)
			}
		}
	}
	if r.o.Write == WriteInPlace {
		for _, ws := range w.scopes {
			for _, rel := range []string{ws.config, ws.functions} {
				if rel == "" {
					continue
				}
				if err := checkWritable(filepath.Join(r.o.Root, filepath.FromSlash(rel))); err != nil {
					return invalid("cannot wire functions: %v", err)
				}
			}
		}
	}
	r.wiring = w
	return nil
}

func (r *runner) hasConfiguration(file string) bool {
	for _, c := range r.ix.Configs {
		if c.File == file {
			return true
		}
	}
	return false
}

// commonDir returns the deepest directory holding every file.
func commonDir(files []string) string {
	if len(files) == 0 {
		return "."
	}
	dir := path.Dir(files[0])
	for _, f := range files[1:] {
		for dir != "." && !strings.HasPrefix(f, dir+"/") {
			dir = path.Dir(dir)
		}
	}
	return dir
}

// checkWritable reports whether a file can be written at p: an existing
// file must be writable, and the nearest existing directory must take a
// new file. It leaves nothing behind.
func checkWritable(p string) error {
	fi, err := os.Stat(p)
	switch {
	case err == nil && fi.IsDir():
		return errors.Errorf("%q is a directory", p)
	case err == nil && fi.Mode()&0o200 == 0:
		return errors.Errorf("%q is read-only", p)
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		return errors.Wrapf(err, "cannot read %q", p)
	}
	dir := filepath.Dir(p)
	for {
		di, err := os.Stat(dir)
		if err == nil {
			if !di.IsDir() {
				return errors.Errorf("cannot write %q: %q is not a directory", p, dir)
			}
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return errors.Errorf("cannot write %q: no directory to create it in", p)
		}
		dir = parent
	}
	if err := atomicfile.Probe(dir, filepath.Base(p)); err != nil {
		return errors.Wrapf(err, "cannot write %q", p)
	}
	return nil
}

// wire adds, after the files are migrated, the Function manifests and
// Configuration dependencies the Compositions converted in this run need,
// and the findings about existing ones. It returns outs with the outcome
// of a new functions file appended.
func (r *runner) wire(ctx context.Context, outs []*outcome) []*outcome {
	n := len(outs)
	outs = r.wireScopes(ctx, outs)
	r.late = append(r.late, outs[n:]...)
	return outs
}

// reportLate tells Progress about the files changed after the files of the
// run were migrated (wiring, kustomize rewrites), counted after them.
func (r *runner) reportLate(total int) {
	if r.o.Progress == nil {
		return
	}
	var changed []*outcome
	for _, oc := range r.late {
		if oc.file.Status == FileConverted {
			changed = append(changed, oc)
		}
	}
	for i, oc := range changed {
		r.o.Progress.Done(&oc.file, total+i+1, total+len(changed))
	}
}

func (r *runner) wireScopes(ctx context.Context, outs []*outcome) []*outcome {
	w := r.wiring
	if w == nil || ctx.Err() != nil {
		return outs
	}
	byRel := map[string]int{}
	for i, f := range r.files {
		if i < len(outs) && outs[i] != nil {
			byRel[f.Rel] = i
		}
	}
	// What each scope needs: the functions of its converted Compositions.
	needs := map[string][]functions.Want{}
	for i, oc := range outs {
		if i >= len(r.files) || oc == nil || oc.file.Status != FileConverted {
			continue
		}
		f := r.files[i]
		for ci, c := range oc.comps {
			s := r.ix.ScopeOf(f.Rel)
			if c.Status == CompositionChanged && len(oc.steps) == len(oc.comps) {
				// A rewritten Pipeline Composition: the functions of the
				// steps the rewrite added (a native environment's
				// function-environment-configs step).
				for _, st := range newSteps(oc.steps[ci]) {
					switch st.repo {
					case w.ec.Repo:
						needs[s] = addWant(needs[s], functions.Want{Pin: w.ec, Name: r.usedName(f.Rel, w.ec)})
					case w.pt.Repo:
						needs[s] = addWant(needs[s], functions.Want{Pin: w.pt, Name: r.usedName(f.Rel, w.pt)})
					}
				}
			}
			if c.Status != CompositionConverted {
				continue
			}
			if r.ptStepOf(f, c) == 1 {
				needs[s] = addWant(needs[s], functions.Want{Pin: w.ec, Name: r.usedName(f.Rel, w.ec)})
			}
			needs[s] = addWant(needs[s], functions.Want{Pin: w.pt, Name: r.usedName(f.Rel, w.pt)})
		}
	}
	manifests := map[string][]functions.Want{} // functions file → manifests
	clashes := map[string][]Finding{}          // functions file → names it cannot hold
	var files []string
	for _, ws := range w.scopes {
		want := needs[ws.dir]
		if len(want) == 0 {
			continue
		}
		sort.SliceStable(want, func(i, j int) bool { return want[i].Pin.Repo < want[j].Pin.Repo }) // EC first, as the pipeline runs.
		var deps []functions.Want
		for _, fn := range want {
			// One Function per package: two would both install the
			// function's input CRD.
			// Existing manifests and dependencies are checked with every
			// other Function the tree uses (checkFunctions).
			if len(r.functionManifests(ws.dir, fn.Pin.Repo)) == 0 && ws.functions != "" {
				if _, seen := manifests[ws.functions]; !seen {
					files = append(files, ws.functions)
				}
				for _, x := range manifests[ws.functions] {
					if x.Pin.Repo == fn.Pin.Repo && x.Name != fn.Name {
						clashes[ws.functions] = append(clashes[ws.functions], Finding{Code: "M407", Severity: SeverityInfo, Document: -1,
							Message: fmt.Sprintf("%s is written once to this file, named %q, but the Compositions converted under %q use %q: give them one name (--function-%s-ref), or leave --functions-out unset for one file per package",
								fn.Pin.Repo, x.Name, orRoot(ws.dir), fn.Name, strings.TrimPrefix(fn.Pin.Repo, "function-"))})
					}
				}
				manifests[ws.functions] = addWant(manifests[ws.functions], fn)
			}
			if ws.config == "" {
				continue
			}
			if len(r.configDependencies(ws.config, fn.Pin.Repo)) == 0 {
				deps = append(deps, fn)
				w.added = append(w.added, installer{name: xp.PackageName(fn.Pin.Pkg), pkg: fn.Pin.Pkg, version: fn.Pin.Constraint, dependency: true, file: ws.config, at: "spec.dependsOn"})
			}
		}
		if len(deps) > 0 || ws.config != "" {
			if i, ok := byRel[ws.config]; ok {
				r.addDependencies(ctx, outs[i], r.files[i], deps)
			}
		}
	}
	for _, rel := range files {
		for _, fn := range manifests[rel] {
			w.added = append(w.added, installer{name: fn.Name, pkg: fn.Pin.Pkg + ":" + fn.Pin.Release, file: rel, doc: -1})
		}
		if i, ok := byRel[rel]; ok {
			r.appendManifests(outs[i], r.files[i], manifests[rel])
			outs[i].file.Diagnostics = append(outs[i].file.Diagnostics, clashes[rel]...)
			continue
		}
		oc := r.newFunctionsFile(rel, manifests[rel])
		oc.file.Diagnostics = append(oc.file.Diagnostics, clashes[rel]...)
		outs = append(outs, oc)
	}
	return outs
}

func addWant(s []functions.Want, fn functions.Want) []functions.Want {
	for _, x := range s {
		if x.Pin.Repo == fn.Pin.Repo {
			return s
		}
	}
	return append(s, fn)
}

// ptStepOf returns the scan's ptStep for a Composition of f.
func (r *runner) ptStepOf(f *tree.Scanned, c CompositionResult) int {
	for _, d := range f.Docs {
		if d.Index == c.Document && d.Item == c.Item {
			return d.PTStep
		}
	}
	return 0
}

// usedName returns the functionRef name the converter was given for a
// file (its default when none).
func (r *runner) usedName(file string, p functions.Pin) string {
	forced, names, def := r.o.PatchAndTransform, r.fnPT, xp.FunctionPatchAndTransform
	if p.Repo == xp.FunctionEnvironmentConfigs {
		forced, names, def = r.o.EnvironmentConfigs, r.fnEC, xp.FunctionEnvironmentConfigs
	}
	if forced != "" {
		return forced
	}
	if n, ok := names[file]; ok && n.name != "" {
		return n.name
	}
	return def
}

// defaultFunctionName is the name a function gets when nothing in a file's
// scope names it: in a Configuration's scope, which gets a dependency on
// the function, the name Crossplane installs that dependency under; else
// "" (the converter's default).
func (r *runner) defaultFunctionName(file, pkg string) string {
	if !r.o.WireFunctions || r.o.Phase1 {
		return ""
	}
	if r.hasConfiguration(path.Join(r.ix.ScopeOf(file), "crossplane.yaml")) {
		return xp.PackageName(pkg)
	}
	return ""
}

// A haveFunction is a Function manifest or a Configuration dependency
// found in the tree.
type haveFunction struct {
	file, name, pkg, version, at string
	doc, line                    int
}

// functionManifests returns the Function manifests in a scope whose package
// is repo.
func (r *runner) functionManifests(scope, repo string) []haveFunction {
	var out []haveFunction
	for _, f := range r.ix.Functions {
		if !tree.InScope(scope, f.File) {
			continue
		}
		pkg := jsonobj.String(f.Obj, "spec", "package")
		if tree.PackageRepo(pkg) != repo {
			continue
		}
		name := jsonobj.String(f.Obj, "metadata", "name")
		out = append(out, haveFunction{file: f.File, name: name, pkg: pkg, doc: f.Doc, line: r.docLine(f.File, f.Doc)})
	}
	return out
}

// configDependencies returns a Configuration's dependencies on repo.
func (r *runner) configDependencies(file, repo string) []haveFunction {
	var out []haveFunction
	for _, c := range r.ix.Configs {
		if c.File != file {
			continue
		}
		for i, d := range jsonobj.List(c.Obj, "spec", "dependsOn") {
			dm, pkg := tree.Dependency(d)
			if tree.PackageRepo(pkg) != repo {
				continue
			}
			v, _ := dm["version"].(string)
			out = append(out, haveFunction{file: file, pkg: pkg, version: v, at: fmt.Sprintf("spec.dependsOn[%d].version", i), doc: c.Doc, line: r.docLine(file, c.Doc)})
		}
	}
	return out
}

func (r *runner) docLine(file string, doc int) int {
	for _, f := range r.files {
		if f.Rel != file {
			continue
		}
		for _, d := range f.Docs {
			if d.Index == doc {
				return d.Line
			}
		}
	}
	return 0
}

func (r *runner) addFinding(outs []*outcome, byRel map[string]int, file string, fd Finding) {
	i, ok := byRel[file]
	if !ok {
		return
	}
	outs[i].file.Diagnostics = append(outs[i].file.Diagnostics, fd)
}

// newFunctionsFile writes a new file of Function manifests.
func (r *runner) newFunctionsFile(rel string, fns []functions.Want) *outcome {
	oc := &outcome{emit: true, file: FileResult{Path: rel, Status: FileConverted}}
	data := append([]byte("# Functions the Compositions converted by xpmigrate migrate use, pinned for\n# target "+string(r.o.Target)+".\n"), functions.ManifestText(fns)...)
	if r.o.Diff {
		oc.file.Diff = udiff.Unified("/dev/null", "b/"+rel, nil, data)
	}
	dst := filepath.Join(r.o.Root, filepath.FromSlash(rel))
	switch r.o.Write {
	case WriteInPlace:
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil { //nolint:gosec // A tree others read.
			oc.file.Status, oc.file.Reason, oc.file.Detail = FileFailed, ReasonWriteError, err.Error()
			return oc
		}
		err := writeAtomic(dst, data, 0o644, func() error {
			if _, err := os.Lstat(dst); err == nil {
				return errModified
			}
			return nil
		})
		r.written(oc, err)
	case WriteOut:
		r.written(oc, writeOut(r.outAbs, rel, data, 0o644))
	}
	return oc
}

// appendManifests appends Function manifests to a file of the tree.
func (r *runner) appendManifests(oc *outcome, f *tree.Scanned, fns []functions.Want) {
	r.editFile(oc, f, func(data []byte) ([]byte, error) {
		out := append([]byte(nil), data...)
		if len(out) > 0 && !bytes.HasSuffix(out, []byte("\n")) {
			out = append(out, '\n')
		}
		if len(bytes.TrimSpace(out)) > 0 {
			out = append(out, "---\n"...)
		}
		return append(out, functions.ManifestText(fns)...), nil
	})
}

// addDependencies adds dependencies to a Configuration's crossplane.yaml,
// editing its YAML nodes so that comments and key order stay.
//
// In a v2-native run the converter first rewrites the file for v2 (its
// Crossplane constraint, dependency pins and registries: C468–C470).
func (r *runner) addDependencies(ctx context.Context, oc *outcome, f *tree.Scanned, fns []functions.Want) {
	r.editFile(oc, f, func(data []byte) ([]byte, error) {
		if r.v2Native() {
			v2, diags, err := r.v2Rewrite(ctx, f, data)
			if err != nil {
				return nil, err
			}
			data = v2
			oc.file.Diagnostics = finding.Sort(append(oc.file.Diagnostics, diags...))
		}
		if len(fns) == 0 && r.v2Native() {
			return data, nil
		}
		var out bytes.Buffer
		done := false
		docs := manifest.Split(data)
		out.Write(docs[0].Lead)
		for _, c := range docs {
			d, err := yamledit.Parse(c.Text)
			if err != nil {
				return nil, err
			}
			if done || d == nil || !functions.IsConfiguration(d.Top()) {
				out.Write(c.Text)
				continue
			}
			functions.AddDependencies(d.Top(), fns)
			if !r.v2Native() {
				if fd := functions.RaiseCrossplaneConstraint(d.Top()); fd != nil {
					fd.Document, fd.Line = c.Index, c.TextLine
					oc.file.Diagnostics = finding.Sort(append(oc.file.Diagnostics, *fd))
				}
			}
			b, err := d.Encode()
			if err != nil {
				return nil, err
			}
			out.Write(b)
			done = true
		}
		return out.Bytes(), nil
	})
}

// editFile changes a file of the tree that has no Compositions: in place
// (atomically, and only when it is as the scan read it), under Out, or
// only in the result.
func (r *runner) editFile(oc *outcome, f *tree.Scanned, edit func([]byte) ([]byte, error)) {
	if !slices.Contains(r.late, oc) {
		r.late = append(r.late, oc)
	}
	data, err := regularfile.ReadFile(f.Real)
	if err != nil {
		oc.file.Status, oc.file.Reason, oc.file.Detail = FileFailed, ReasonUnreadable, err.Error()
		return
	}
	if sha256.Sum256(data) != f.Sum {
		oc.file.Status, oc.file.Reason, oc.file.Detail = FileSkipped, ReasonModified, "changed by something else during the run"
		return
	}
	out, err := edit(data)
	if err != nil {
		oc.file.Status, oc.file.Reason, oc.file.Detail = FileFailed, ReasonWriteError, "cannot add the functions: "+err.Error()
		return
	}
	if bytes.Equal(out, data) {
		return
	}
	oc.file.Status = FileConverted
	if r.o.Diff {
		oc.file.Diff = udiff.Unified("a/"+f.Rel, "b/"+f.Rel, data, out)
	}
	switch r.o.Write {
	case WriteInPlace:
		r.written(oc, writeAtomic(f.Real, out, f.Mode, func() error { return unchangedSince(f.Real, f.Sum) }))
	case WriteOut:
		r.written(oc, writeOut(r.outAbs, f.Rel, out, f.Mode))
	}
}

// written records the outcome of a write.
func (r *runner) written(oc *outcome, err error) {
	switch {
	case err == nil:
		oc.file.Written = true
	case errors.Is(err, errModified):
		oc.file.Status, oc.file.Reason, oc.file.Detail = FileSkipped, ReasonModified, "changed by something else during the run"
	default:
		oc.file.Status, oc.file.Reason, oc.file.Detail = FileFailed, ReasonWriteError, err.Error()
	}
}

func orRoot(dir string) string {
	if dir == "" {
		return "."
	}
	return dir
}
