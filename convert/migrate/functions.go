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

	mmsemver "github.com/Masterminds/semver"
	"github.com/pkg/errors"
	yaml3 "go.yaml.in/yaml/v3"

	"github.com/xpmigrate/xpmigrate/convert"
	"github.com/xpmigrate/xpmigrate/convert/v2native"
	"github.com/xpmigrate/xpmigrate/convert/yamledit"
	"github.com/xpmigrate/xpmigrate/internal/atomicfile"
	"github.com/xpmigrate/xpmigrate/internal/crossplane"
	"github.com/xpmigrate/xpmigrate/internal/jsonobj"
	"github.com/xpmigrate/xpmigrate/internal/manifest"
	"github.com/xpmigrate/xpmigrate/internal/regularfile"
	"github.com/xpmigrate/xpmigrate/internal/udiff"
	"github.com/xpmigrate/xpmigrate/internal/xp"
)

// FunctionsNone as Options.FunctionsOut writes no Function manifests (the
// Configurations' dependencies are still added).
const FunctionsNone = "none"

// A functionPin is what a target needs of one function: the package, the
// release the converted Compositions are verified against (and that
// emitted manifests pin), the releases that behave the same, and the
// constraint a Configuration's dependency gets.
type functionPin struct {
	repo, pkg, pin string
	ok             versionRange
	constraint     string
	// supported says ok in words.
	supported string
}

// functionPins returns the pins of function-patch-and-transform and
// function-environment-configs for a target.
//
// PT: verify emulates v0.10.8. The spec's version table
// (pipeline-mode.md §4) lists no semantic change in v0.10.1–v0.10.8, and
// v0.10.0's change (an automatic connection Secret) only applies to XRs
// with spec.crossplane, which Crossplane 1.x does not have; releases before
// v0.10.0 are built on crossplane-runtime v1 and SDK v0.4 and differ
// (readiness before v0.8, Combine policies before v0.8, mergeOptions
// before v0.4). So v0.10.x on target v1. No later line has been examined,
// so v1 stops there; v2 takes any release from v0.10.0 (the line Crossplane
// v2 modern XRs need).
//
// EC: v0.7+ speaks only the required-resources protocol, which Crossplane
// 1.x does not know: it gets no EnvironmentConfigs there (D43, C1). So
// v0.6.x on v1, v0.7.x on v2.
func functionPins(target crossplane.Target) (pt, ec functionPin) {
	pt = functionPin{repo: xp.FunctionPatchAndTransform, pkg: xp.PackagePatchAndTransform, pin: convert.PTVersion}
	ec = functionPin{repo: xp.FunctionEnvironmentConfigs, pkg: xp.PackageEnvironmentConfigs}
	if target == crossplane.V2 {
		pt.ok = versionRange{lo: semver{minor: 10}, noHi: true}
		pt.constraint, pt.supported = v2native.PTConstraintV2, "v0.10.0 or later"
		ec.pin = convert.ECVersionV2
		ec.ok = versionRange{lo: semver{minor: 7}, hi: semver{minor: 8}}
		ec.constraint, ec.supported = v2native.ECConstraintV2, "v0.7.x"
		return pt, ec
	}
	pt.ok = versionRange{lo: semver{minor: 10}, hi: semver{minor: 11}}
	pt.constraint, pt.supported = ">="+convert.PTVersion+", <v0.11.0", "v0.10.x"
	ec.pin = convert.ECVersionV1
	ec.ok = versionRange{lo: semver{minor: 6}, hi: semver{minor: 7}}
	ec.constraint, ec.supported = ">="+convert.ECVersionV1+", <v0.7.0", "v0.6.x"
	return pt, ec
}

// packageTag returns the tag of a package reference, "" when it has none
// or is pinned by digest.
func packageTag(pkg string) string {
	if strings.Contains(pkg, "@") {
		return ""
	}
	if i := strings.LastIndexByte(pkg, ':'); i > strings.LastIndexByte(pkg, '/') {
		return pkg[i+1:]
	}
	return ""
}

// checkManifest returns a finding when a Function manifest's package is
// not at a release the target supports, or its release cannot be told.
func (p functionPin) checkManifest(name, pkg string, target crossplane.Target) *Finding {
	want := p.pkg + ":" + p.pin
	tag := packageTag(pkg)
	v, ok := parseVersion(tag)
	switch {
	case !ok || !isRelease(tag) || v.Prerelease() != "":
		return &Finding{Code: "M409", Severity: SeverityInfo,
			Message: fmt.Sprintf("Function %q installs %s, whose release cannot be told (no release tag); the converted Compositions (target %s) need %s %s, verified against %s: make sure it is one, or set spec.package to %s",
				name, pkg, target, p.repo, p.supported, p.pin, want)}
	case !p.ok.contains(v):
		return &Finding{Code: "M409", Severity: SeverityWarning,
			Message: fmt.Sprintf("Function %q installs %s %s, but the converted Compositions (target %s) need %s %s (verified against %s); they use this Function by name, so set its spec.package to %s",
				name, p.repo, v.Original(), target, p.repo, p.supported, p.pin, want)}
	}
	return nil
}

// checkDependency returns a finding when a Configuration dependency's
// version constraint lets Crossplane install a release the target does not
// support.
func (p functionPin) checkDependency(at, pkg, version string, target crossplane.Target) *Finding {
	fix := fmt.Sprintf("set its version to %q", p.constraint)
	if strings.HasPrefix(version, "sha256:") {
		return &Finding{Code: "M410", Severity: SeverityInfo, Path: at,
			Message: fmt.Sprintf("the dependency on %s is pinned by digest, so its release cannot be told; the converted Compositions (target %s) need %s %s (verified against %s): make sure it is one, or %s",
				pkg, target, p.repo, p.supported, p.pin, fix)}
	}
	if version == "" {
		return &Finding{Code: "M410", Severity: SeverityWarning, Path: at,
			Message: fmt.Sprintf("the dependency on %s has no version, which does not bound the release; the converted Compositions (target %s) need %s %s (verified against %s): %s",
				pkg, target, p.repo, p.supported, p.pin, fix)}
	}
	c, err := parseConstraint(version)
	if err != nil {
		return &Finding{Code: "M410", Severity: SeverityWarning, Path: at,
			Message: fmt.Sprintf("the dependency on %s has version %q, which Crossplane's package manager cannot read (%v; comparisons are joined by commas); the converted Compositions (target %s) need %s %s (verified against %s): %s",
				pkg, version, err, target, p.repo, p.supported, p.pin, fix)}
	}
	if in, outside := constraintWithin(c, p.ok, mustSemver(p.pin)); !in {
		what := "admits no release of " + p.supported
		if len(outside) > 0 {
			what = fmt.Sprintf("admits %s", outside[0].Original())
		}
		return &Finding{Code: "M410", Severity: SeverityWarning, Path: at,
			Message: fmt.Sprintf("the dependency on %s has version %q, which %s; the converted Compositions (target %s) need %s %s (verified against %s): %s",
				pkg, version, what, target, p.repo, p.supported, p.pin, fix)}
	}
	return nil
}

// mustSemver reads a release the code pins, such as v0.10.8.
func mustSemver(s string) semver {
	v := mmsemver.MustParse(s)
	return semver{major: int(v.Major()), minor: int(v.Minor()), patch: int(v.Patch())}
}

// isRelease reports whether a tag names a whole release, major.minor.patch
// (v0.10 may name any of a line, or no release at all).
func isRelease(tag string) bool {
	core, _, _ := strings.Cut(strings.TrimPrefix(tag, "v"), "-")
	core, _, _ = strings.Cut(core, "+")
	return strings.Count(core, ".") == 2
}

// A wiring is the plan, made before any file is written, of the function
// manifests and Configuration dependencies a run adds.
type wiring struct {
	pt, ec functionPin
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
	w.pt, w.ec = functionPins(r.o.Target)
	if w.out != "" && w.out != FunctionsNone {
		clean := path.Clean(filepath.ToSlash(w.out))
		if path.IsAbs(clean) || clean == ".." || strings.HasPrefix(clean, "../") || clean == "." {
			return invalid("--functions-out must be a file path inside the tree, relative to it, not %q", r.o.FunctionsOut)
		}
		w.out = clean
	}
	dirs := map[string][]string{} // scope → files with legacy Compositions
	for _, c := range r.ix.compositions {
		if c.legacy || c.nativeEnv {
			s := r.ix.scopeOf(c.file)
			dirs[s] = append(dirs[s], c.file)
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
			if f.rel == ws.functions && f.compositions > 0 {
				return invalid("cannot write Function manifests to %q: it holds Compositions; choose another --functions-out", f.rel)
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
	for _, c := range r.ix.configs {
		if c.file == file {
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

// A wantFunction is a Function the converted Compositions of a scope use.
type wantFunction struct {
	pin  functionPin
	name string
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
			byRel[f.rel] = i
		}
	}
	// What each scope needs: the functions of its converted Compositions.
	needs := map[string][]wantFunction{}
	for i, oc := range outs {
		if i >= len(r.files) || oc == nil || oc.file.Status != FileConverted {
			continue
		}
		f := r.files[i]
		for ci, c := range oc.comps {
			s := r.ix.scopeOf(f.rel)
			if c.Status == CompositionChanged && len(oc.steps) == len(oc.comps) {
				// A rewritten Pipeline Composition: the functions of the
				// steps the rewrite added (a native environment's
				// function-environment-configs step).
				for _, st := range newSteps(oc.steps[ci]) {
					switch st.repo {
					case w.ec.repo:
						needs[s] = addWant(needs[s], wantFunction{pin: w.ec, name: r.usedName(f.rel, w.ec)})
					case w.pt.repo:
						needs[s] = addWant(needs[s], wantFunction{pin: w.pt, name: r.usedName(f.rel, w.pt)})
					}
				}
			}
			if c.Status != CompositionConverted {
				continue
			}
			if r.ptStepOf(f, c) == 1 {
				needs[s] = addWant(needs[s], wantFunction{pin: w.ec, name: r.usedName(f.rel, w.ec)})
			}
			needs[s] = addWant(needs[s], wantFunction{pin: w.pt, name: r.usedName(f.rel, w.pt)})
		}
	}
	manifests := map[string][]wantFunction{} // functions file → manifests
	clashes := map[string][]Finding{}        // functions file → names it cannot hold
	var files []string
	for _, ws := range w.scopes {
		want := needs[ws.dir]
		if len(want) == 0 {
			continue
		}
		sort.SliceStable(want, func(i, j int) bool { return want[i].pin.repo < want[j].pin.repo }) // EC first, as the pipeline runs.
		var deps []wantFunction
		for _, fn := range want {
			// One Function per package: two would both install the
			// function's input CRD.
			// Existing manifests and dependencies are checked with every
			// other Function the tree uses (checkFunctions).
			if len(r.functionManifests(ws.dir, fn.pin.repo)) == 0 && ws.functions != "" {
				if _, seen := manifests[ws.functions]; !seen {
					files = append(files, ws.functions)
				}
				for _, x := range manifests[ws.functions] {
					if x.pin.repo == fn.pin.repo && x.name != fn.name {
						clashes[ws.functions] = append(clashes[ws.functions], Finding{Code: "M407", Severity: SeverityInfo, Document: -1,
							Message: fmt.Sprintf("%s is written once to this file, named %q, but the Compositions converted under %q use %q: give them one name (--function-%s-ref), or leave --functions-out unset for one file per package",
								fn.pin.repo, x.name, orRoot(ws.dir), fn.name, strings.TrimPrefix(fn.pin.repo, "function-"))})
					}
				}
				manifests[ws.functions] = addWant(manifests[ws.functions], fn)
			}
			if ws.config == "" {
				continue
			}
			if len(r.configDependencies(ws.config, fn.pin.repo)) == 0 {
				deps = append(deps, fn)
				w.added = append(w.added, installer{name: xp.PackageName(fn.pin.pkg), pkg: fn.pin.pkg, version: fn.pin.constraint, dependency: true, file: ws.config, at: "spec.dependsOn"})
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
			w.added = append(w.added, installer{name: fn.name, pkg: fn.pin.pkg + ":" + fn.pin.pin, file: rel, doc: -1})
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

func addWant(s []wantFunction, fn wantFunction) []wantFunction {
	for _, x := range s {
		if x.pin.repo == fn.pin.repo {
			return s
		}
	}
	return append(s, fn)
}

// ptStepOf returns the scan's ptStep for a Composition of f.
func (r *runner) ptStepOf(f *scanned, c CompositionResult) int {
	for _, d := range f.docs {
		if d.index == c.Document && d.item == c.Item {
			return d.ptStep
		}
	}
	return 0
}

// usedName returns the functionRef name the converter was given for a
// file (its default when none).
func (r *runner) usedName(file string, p functionPin) string {
	forced, names, def := r.o.PatchAndTransform, r.fnPT, xp.FunctionPatchAndTransform
	if p.repo == xp.FunctionEnvironmentConfigs {
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
	if r.hasConfiguration(path.Join(r.ix.scopeOf(file), "crossplane.yaml")) {
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
	for _, f := range r.ix.functions {
		if !inScope(scope, f.file) {
			continue
		}
		pkg := jsonobj.String(f.obj, "spec", "package")
		if packageRepo(pkg) != repo {
			continue
		}
		name := jsonobj.String(f.obj, "metadata", "name")
		out = append(out, haveFunction{file: f.file, name: name, pkg: pkg, doc: f.doc, line: r.docLine(f.file, f.doc)})
	}
	return out
}

// dependency reads an entry of a Configuration's spec.dependsOn: the
// entry as an object, and its package (package, else function).
func dependency(d any) (map[string]any, string) {
	dm, _ := d.(map[string]any)
	pkg, _ := dm["package"].(string)
	if pkg == "" {
		pkg, _ = dm["function"].(string)
	}
	return dm, pkg
}

// configDependencies returns a Configuration's dependencies on repo.
func (r *runner) configDependencies(file, repo string) []haveFunction {
	var out []haveFunction
	for _, c := range r.ix.configs {
		if c.file != file {
			continue
		}
		for i, d := range jsonobj.List(c.obj, "spec", "dependsOn") {
			dm, pkg := dependency(d)
			if packageRepo(pkg) != repo {
				continue
			}
			v, _ := dm["version"].(string)
			out = append(out, haveFunction{file: file, pkg: pkg, version: v, at: fmt.Sprintf("spec.dependsOn[%d].version", i), doc: c.doc, line: r.docLine(file, c.doc)})
		}
	}
	return out
}

func (r *runner) docLine(file string, doc int) int {
	for _, f := range r.files {
		if f.rel != file {
			continue
		}
		for _, d := range f.docs {
			if d.index == doc {
				return d.line
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

// manifestText renders Function manifests.
func manifestText(fns []wantFunction) []byte {
	var b bytes.Buffer
	for i, fn := range fns {
		if i > 0 {
			b.WriteString("---\n")
		}
		fmt.Fprintf(&b, "apiVersion: "+xp.FunctionAPIVersion+"\nkind: Function\nmetadata:\n  name: %s\nspec:\n  package: %s:%s\n", fn.name, fn.pin.pkg, fn.pin.pin)
	}
	return b.Bytes()
}

// newFunctionsFile writes a new file of Function manifests.
func (r *runner) newFunctionsFile(rel string, fns []wantFunction) *outcome {
	oc := &outcome{emit: true, file: FileResult{Path: rel, Status: FileConverted}}
	data := append([]byte("# Functions the Compositions converted by xpmigrate migrate use, pinned for\n# target "+string(r.o.Target)+".\n"), manifestText(fns)...)
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
func (r *runner) appendManifests(oc *outcome, f *scanned, fns []wantFunction) {
	r.editFile(oc, f, func(data []byte) ([]byte, error) {
		out := append([]byte(nil), data...)
		if len(out) > 0 && !bytes.HasSuffix(out, []byte("\n")) {
			out = append(out, '\n')
		}
		if len(bytes.TrimSpace(out)) > 0 {
			out = append(out, "---\n"...)
		}
		return append(out, manifestText(fns)...), nil
	})
}

// addDependencies adds dependencies to a Configuration's crossplane.yaml,
// editing its YAML nodes so that comments and key order stay.
//
// In a v2-native run the converter first rewrites the file for v2 (its
// Crossplane constraint, dependency pins and registries: C468–C470).
func (r *runner) addDependencies(ctx context.Context, oc *outcome, f *scanned, fns []wantFunction) {
	r.editFile(oc, f, func(data []byte) ([]byte, error) {
		if r.v2Native() {
			v2, diags, err := r.v2Rewrite(ctx, f, data)
			if err != nil {
				return nil, err
			}
			data = v2
			oc.file.Diagnostics = sortDiagnostics(append(oc.file.Diagnostics, diags...))
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
			if done || d == nil || !isConfigurationNode(d.Top()) {
				out.Write(c.Text)
				continue
			}
			addDependencyNodes(d.Top(), fns)
			if !r.v2Native() {
				if fd := raiseCrossplaneConstraint(d.Top()); fd != nil {
					fd.Document, fd.Line = c.Index, c.TextLine
					oc.file.Diagnostics = sortDiagnostics(append(oc.file.Diagnostics, *fd))
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

func isConfigurationNode(n *yaml3.Node) bool {
	av, _ := yamledit.Str(yamledit.Get(n, "apiVersion"))
	k, _ := yamledit.Str(yamledit.Get(n, "kind"))
	return k == "Configuration" && xp.Group(av) == xp.GroupMetaPkg
}

// addDependencyNodes appends a dependency per function to spec.dependsOn,
// in the form the list already uses (apiVersion, kind and package, or the
// function key).
func addDependencyNodes(top *yaml3.Node, fns []wantFunction) {
	spec := yamledit.Resolve(yamledit.Get(top, "spec"))
	if spec == nil || !yamledit.IsMap(spec) {
		spec = yamledit.NewMap()
		yamledit.Set(top, "spec", spec)
	}
	deps := yamledit.Resolve(yamledit.Get(spec, "dependsOn"))
	if deps == nil || !yamledit.IsSeq(deps) {
		deps = yamledit.NewSeq()
		yamledit.Set(spec, "dependsOn", deps)
	}
	byPackage := false
	for _, d := range deps.Content {
		if yamledit.Has(d, "package") {
			byPackage = true
		}
	}
	for _, fn := range fns {
		m := yamledit.NewMap()
		if byPackage {
			yamledit.Set(m, "apiVersion", yamledit.NewString(xp.FunctionAPIVersion))
			yamledit.Set(m, "kind", yamledit.NewString("Function"))
			yamledit.Set(m, "package", yamledit.NewString(fn.pin.pkg))
		} else {
			yamledit.Set(m, "function", yamledit.NewString(fn.pin.pkg))
		}
		v := yamledit.NewString(fn.pin.constraint)
		v.Style = yaml3.DoubleQuotedStyle
		yamledit.Set(m, "version", v)
		deps.Content = append(deps.Content, m)
	}
}

// editFile changes a file of the tree that has no Compositions: in place
// (atomically, and only when it is as the scan read it), under Out, or
// only in the result.
func (r *runner) editFile(oc *outcome, f *scanned, edit func([]byte) ([]byte, error)) {
	if !slices.Contains(r.late, oc) {
		r.late = append(r.late, oc)
	}
	data, err := regularfile.ReadFile(f.real)
	if err != nil {
		oc.file.Status, oc.file.Reason, oc.file.Detail = FileFailed, ReasonUnreadable, err.Error()
		return
	}
	if sha256.Sum256(data) != f.sum {
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
		oc.file.Diff = udiff.Unified("a/"+f.rel, "b/"+f.rel, data, out)
	}
	switch r.o.Write {
	case WriteInPlace:
		r.written(oc, writeAtomic(f.real, out, f.mode, func() error { return unchangedSince(f.real, f.sum) }))
	case WriteOut:
		r.written(oc, writeOut(r.outAbs, f.rel, out, f.mode))
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
