package migrate

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"

	"github.com/pkg/errors"

	"github.com/xpmigrate/xpmigrate/convert/migrate/finding"
	"github.com/xpmigrate/xpmigrate/convert/migrate/tree"
	"github.com/xpmigrate/xpmigrate/internal/atomicfile"
	"github.com/xpmigrate/xpmigrate/internal/crossplane"
	"github.com/xpmigrate/xpmigrate/internal/gitignore"
	"github.com/xpmigrate/xpmigrate/internal/xp"
)

// A WriteMode says where a run writes.
type WriteMode int

// Write modes.
const (
	// WriteInPlace replaces each changed file, atomically.
	WriteInPlace WriteMode = iota
	// WriteOut writes a copy of the whole tree under Options.Out, with
	// changed files converted and everything else copied verbatim.
	WriteOut
	// WriteNone writes nothing (dry run, --check, --diff).
	WriteNone
)

func (m WriteMode) String() string {
	switch m {
	case WriteInPlace:
		return "in-place"
	case WriteOut:
		return "out"
	}
	return "none"
}

// DefaultMaxSamples bounds the examples each Composition is verified with.
const DefaultMaxSamples = 5

// Options configure a run.
type Options struct {
	// Root is the tree to migrate.
	Root string
	// Include, if set, limits migration to files matching one of these
	// globs; Exclude skips files and directories matching one. Both use
	// gitignore's grammar, relative to Root.
	Include, Exclude []string

	// Write chooses where to write; Out is the directory for WriteOut. It
	// must not exist or be empty, and is never walked.
	Write WriteMode
	Out   string
	// Check records that the run answers "would anything change?"; it
	// implies nothing by itself (use WriteNone).
	Check bool
	// Diff fills FileResult.Diff with a unified diff of each change.
	Diff bool
	// KeepSources fills CompositionResult.Before and After (for the HTML
	// report).
	KeepSources bool

	// Target is the Crossplane line (V1 for ""), passed to the converter
	// and the verifier.
	Target crossplane.Target
	// Definitions converts CompositeResourceDefinitions too (--target v2
	// with an XR scope other than legacy: the converter writes their v2
	// twins): a file with XRDs is converted even without a Composition.
	Definitions bool
	// Phase1 asks the converter for step one of the unnamed-template
	// rollout instead of the conversion; nothing is verified.
	Phase1 bool
	// PatchAndTransform and EnvironmentConfigs force the functions' names;
	// empty resolves them from the tree (docs/semantics/conversion.md#function-names).
	PatchAndTransform, EnvironmentConfigs string
	// WireFunctions adds what the Compositions converted in a package
	// scope (a Configuration's directory, or the tree) need to run, once
	// per scope: a pinned Function manifest per function no manifest in
	// the scope installs, and a dependency on it in the Configuration's
	// crossplane.yaml (edited in place, comments kept). Existing manifests
	// and dependencies at a release the target does not support are
	// reported (M409, M410). Whether it is set or not, every run checks
	// the Functions the tree's mode Pipeline Compositions use (M409, M410,
	// M414; Result.Verdict).
	WireFunctions bool
	// ClusterFunctions, when not nil, are the Functions the cluster
	// installs (migrate --cluster): functionRefs and pins are checked
	// against them as well as against the tree's (M409, M414).
	ClusterFunctions []InstalledFunction
	// FunctionsOut is the file (slash-separated, relative to Root) every
	// scope's Function manifests go to; empty means examples/functions.yaml
	// in a Configuration's directory, else functions.yaml beside the
	// scope's legacy Compositions; FunctionsNone writes none.
	FunctionsOut string

	// Verify runs the equivalence check for every converted Composition.
	Verify bool
	// AllowLegacy are globs (gitignore syntax, relative to Root) of files
	// whose legacy Compositions may stay: they are reported, but do not
	// count as left over.
	AllowLegacy []string
	// Base is a git revision (the merge base in CI): every Composition
	// that is mode Pipeline in the tree and was mode Resources at Base
	// under the same name is verified against that legacy form, read
	// from git's object store (the work tree is never touched).
	Base string
	// Accept lists breaking gap codes the user accepts: they are reported
	// but do not fail verification (see verify.Options.Accept).
	Accept []string
	// Synthesize asks the verifier for this many generated samples per
	// Composition.
	Synthesize int
	// MaxSamples bounds the examples per Composition, nearest first; 0
	// means DefaultMaxSamples, negative means no bound.
	MaxSamples int

	// Force writes what would otherwise be refused or held back: in place,
	// read-only files (their mode is kept) and hard-linked ones (their
	// other names keep the old content, reported as M408); and files whose
	// conversion fails verification.
	Force bool

	// Jobs is the number of files handled at once; 0 means
	// runtime.NumCPU().
	Jobs int

	// Converter converts files; required.
	Converter Converter
	// Verifier checks conversions; required when Verify is set.
	Verifier Verifier
	// Progress, if set, is told about the run as it goes.
	Progress Progress
}

// A Progress follows a run. Calls are serialised.
type Progress interface {
	// Scanned is called once the tree is scanned, with the number of
	// files the migration will go through.
	Scanned(total int)
	// Started is called when a worker starts on a file, in any order.
	Started(path string)
	// Done is called for each file in path order, with the number of
	// files done so far.
	Done(r *FileResult, done, total int)
	// Finished is called once at the end, also after a cancellation.
	Finished(r *Result)
}

// An InvalidOptionsError is an unusable Options value.
type InvalidOptionsError struct{ err error }

func (e *InvalidOptionsError) Error() string { return e.err.Error() }
func (e *InvalidOptionsError) Unwrap() error { return e.err }

func invalid(format string, args ...any) error {
	return &InvalidOptionsError{err: errors.Errorf(format, args...)}
}

// runner holds one run's state.
type runner struct {
	o  Options
	ix *tree.Index
	// allowLegacy are Options.AllowLegacy compiled.
	allowLegacy gitignore.Globs
	// stage is where WriteOut builds the tree (outdir.go).
	stage *outStage
	// refused are the refused Compositions by XR type (holdback.go).
	refused map[string][]string
	// base is the tree at Options.Base, nil without it.
	base     *baseTree
	outAbs   string
	files    []*tree.Scanned
	mu       sync.Mutex // guards progress
	finalFor map[string][]byte
	needs    map[string]bool // real paths whose final content duplicates need
	fnPT     map[string]fnName
	fnEC     map[string]fnName
	// wiring is the plan for function manifests and dependencies.
	wiring *wiring
	// twins are the example files' v2 XR twins (twins.go).
	twins []*twinFile
	// late are the outcomes of files changed after pass 2 (wiring,
	// kustomize rewrites).
	late []*outcome
	// held are the XR types held back (holdback.go).
	held map[string]heldType
	// names are the names of the tree's Compositions (named).
	names     map[string]bool
	namesOnce sync.Once
}

type fnName struct {
	name      string
	ambiguous bool
}

// GCPercent is the garbage collector target (as GOGC) xpmigrate migrate
// runs with unless GOGC is set. A migration allocates heavily and briefly
// per file (parse, convert, render both sides, compare) and keeps little:
// a higher target than Go's default of 100 spends less CPU in the
// collector at a bounded cost in peak memory (docs/performance.md).
const GCPercent = 300

// A job's outcome.
type outcome struct {
	file  FileResult
	comps []CompositionResult
	emit  bool // false for verbatim copies that went well
	// steps are the pipeline steps of comps, by index (installed.go).
	steps []compSteps
	// write, when set, writes the file and completes the outcome; keep,
	// when set, completes it with the file left as it was (held back).
	write, keep func()
}

// Run migrates the tree at o.Root. It returns an error only for problems
// with the run itself (bad options, an unreadable root); everything about
// single files is in the Result. When ctx is cancelled, Run stops between
// files and returns the partial Result with Cancelled set, and
// ctx.Err().
func Run(ctx context.Context, o Options) (*Result, error) {
	if err := o.defaults(); err != nil {
		return nil, err
	}
	include, err := gitignore.CompileGlobs(o.Include)
	if err != nil {
		return nil, &InvalidOptionsError{err: errors.Wrap(err, "--include")}
	}
	exclude, err := gitignore.CompileGlobs(o.Exclude)
	if err != nil {
		return nil, &InvalidOptionsError{err: errors.Wrap(err, "--exclude")}
	}
	r := &runner{o: o, finalFor: map[string][]byte{}, needs: map[string]bool{}}
	if r.allowLegacy, err = gitignore.CompileGlobs(o.AllowLegacy); err != nil {
		return nil, &InvalidOptionsError{err: errors.Wrap(err, "--allow-legacy")}
	}
	if err := r.prepareStage(); err != nil {
		return nil, err
	}
	defer r.stage.discard()

	w, err := tree.Walk(ctx, o.Root, include, exclude, r.outAbs)
	if err != nil {
		if ctx.Err() != nil {
			return &Result{Root: o.Root, Cancelled: true, Mode: o.Write.String(), Check: o.Check}, ctx.Err()
		}
		return nil, err
	}
	entries := w.Entries
	staleRemoved, err := r.removeStale(w.Temps)
	if err != nil {
		return nil, err
	}

	// Pass 1: scan every candidate.
	r.files = make([]*tree.Scanned, len(entries))
	r.parallel(ctx, len(entries), func(i int) {
		e := entries[i]
		if e.Kind != tree.EntryCandidate {
			r.files[i] = &tree.Scanned{Entry: e}
			return
		}
		s := tree.ScanFile(e)
		slim(s)
		r.files[i] = s
	})
	if err := ctx.Err(); err != nil {
		return &Result{Root: o.Root, Cancelled: true, Mode: o.Write.String(), Check: o.Check}, err
	}
	var cands []*tree.Scanned
	for _, f := range r.files {
		if f.Kind == tree.EntryCandidate {
			cands = append(cands, f)
		}
	}
	r.ix = tree.BuildIndex(cands)
	if o.Base != "" {
		if r.base, err = readBase(ctx, o.Root, o.Base); err != nil {
			return nil, err
		}
	}
	r.resolveFunctions(cands)
	if err := r.planWiring(); err != nil {
		return nil, err
	}
	if err := r.planTwins(ctx); err != nil {
		return nil, err
	}
	r.markDuplicates()

	// Pass 2: migrate file by file.
	total := 0
	for _, f := range r.files {
		if f.Kind != tree.EntryOther {
			total++
		}
	}
	if o.Progress != nil {
		o.Progress.Scanned(total)
	}
	outs := make([]*outcome, len(r.files))
	ready := make(chan int, len(r.files))
	done := make(chan struct{})
	emitted := 0
	go func() {
		defer close(done)
		have := make([]bool, len(r.files))
		next := 0
		for i := range ready {
			have[i] = true
			for next < len(have) && have[next] {
				if oc := outs[next]; oc != nil && oc.emit && r.files[next].Kind != tree.EntryOther && o.Progress != nil {
					emitted++
					r.mu.Lock()
					o.Progress.Done(&oc.file, emitted, total)
					r.mu.Unlock()
				}
				next++
			}
		}
	}()
	// Writes wait for the disk (each is synced): they run beside the
	// workers, a few at a time, so that the cores keep converting.
	var writes sync.WaitGroup
	writeSlots := make(chan struct{}, 4*o.Jobs)
	finish := func(i int, oc *outcome) {
		w := oc.write
		oc.write, oc.keep = nil, nil
		if w == nil {
			outs[i] = oc
			ready <- i
			return
		}
		writeSlots <- struct{}{}
		writes.Add(1)
		go func() {
			defer writes.Done()
			w()
			<-writeSlots
			outs[i] = oc
			ready <- i
		}()
	}
	// Files whose write waits until every Composition is verified
	// (holdback.go).
	deferred := make([]*outcome, len(r.files))
	r.parallel(ctx, len(r.files), func(i int) {
		oc := r.migrateSafely(ctx, r.files[i])
		if r.defers(oc) {
			deferred[i] = oc
			return
		}
		finish(i, oc)
	})
	writes.Wait()
	if r.holdsTogether() {
		r.holdTogether(outs, deferred)
	}
	for i, oc := range deferred {
		switch {
		case oc == nil:
		case ctx.Err() != nil:
			outs[i] = notProcessed(r.files[i])
			ready <- i
		default:
			finish(i, oc)
		}
	}
	writes.Wait()
	// Files the cancellation kept from starting.
	for i := range outs {
		if outs[i] == nil {
			outs[i] = notProcessed(r.files[i])
			ready <- i
		}
	}
	close(ready)
	<-done

	r.finishDuplicates(outs)
	outs = r.rewriteKustomize(ctx, outs)
	outs = r.wire(ctx, outs)
	outs = r.writeTwins(ctx, outs)
	r.checkFunctions(ctx, outs)
	r.reportLate(total)
	res := r.result(outs)
	for _, t := range w.Temps {
		res.StaleTemporaries = append(res.StaleTemporaries, t.Rel)
	}
	res.StaleRemoved = staleRemoved && len(w.Temps) > 0
	res.Cancelled = ctx.Err() != nil
	outErr := r.finishOut(res)
	if o.Progress != nil {
		o.Progress.Finished(res)
	}
	if res.Cancelled {
		return res, ctx.Err()
	}
	return res, outErr
}

func (o *Options) defaults() error {
	if o.Root == "" {
		o.Root = "."
	}
	if o.Converter == nil {
		return invalid("no converter")
	}
	if o.Verify && o.Verifier == nil {
		return invalid("verification needs a verifier")
	}
	t, err := crossplane.ParseTarget(string(o.Target))
	if err != nil {
		return &InvalidOptionsError{err: err}
	}
	o.Target = t
	if o.Write == WriteOut && o.Out == "" {
		return invalid("writing a copy needs an output directory")
	}
	if o.Jobs <= 0 {
		o.Jobs = runtime.NumCPU()
	}
	if o.MaxSamples == 0 {
		o.MaxSamples = DefaultMaxSamples
	}
	if o.Synthesize < 0 {
		return invalid("synthesize must not be negative, not %d", o.Synthesize)
	}
	return nil
}

// removeStale removes, when the run writes in place, the temporary files
// a killed run left in the tree (atomicfile.RemoveStale spares those a
// running write holds). It reports whether it removed them.
func (r *runner) removeStale(temps []tree.Entry) (bool, error) {
	if r.o.Write != WriteInPlace || len(temps) == 0 {
		return false, nil
	}
	all := true
	for _, t := range temps {
		ok, err := atomicfile.RemoveIfStale(t.Real)
		if err != nil {
			return false, err
		}
		all = all && ok
	}
	return all, nil
}

// prepareOut checks the output directory: absent or empty, and not the
// tree itself. It returns its absolute real path.
func prepareOut(root, out string) (string, error) {
	abs, err := filepath.Abs(out)
	if err != nil {
		return "", errors.Wrapf(err, "cannot resolve %q", out)
	}
	rootAbs, err := filepath.Abs(root)
	if err != nil {
		return "", errors.Wrapf(err, "cannot resolve %q", root)
	}
	if r, err := filepath.EvalSymlinks(rootAbs); err == nil {
		rootAbs = r
	}
	if r, err := filepath.EvalSymlinks(abs); err == nil {
		abs = r
	}
	if abs == rootAbs || tree.Within(abs, rootAbs) {
		return "", invalid("output directory %q must not be the tree or contain it", out)
	}
	if fi, err := os.Stat(abs); err == nil && !fi.IsDir() {
		return "", invalid("output directory %q is not a directory", out)
	}
	des, err := os.ReadDir(abs)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return abs, nil
	case err != nil:
		return "", errors.Wrapf(err, "cannot read output directory %q", out)
	case len(des) > 0:
		return "", invalid("output directory %q is not empty", out)
	}
	return abs, nil
}

// parallel runs fn for 0..n-1 on o.Jobs workers, in index order of
// starting, and stops starting new ones when ctx is done.
func (r *runner) parallel(ctx context.Context, n int, fn func(i int)) {
	jobs := r.o.Jobs
	if jobs > n {
		jobs = n
	}
	next := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < jobs; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				fn(i)
			}
		}()
	}
	for i := 0; i < n; i++ {
		if ctx.Err() != nil {
			break
		}
		select {
		case next <- i:
		case <-ctx.Done():
		}
		if ctx.Err() != nil {
			break
		}
	}
	close(next)
	wg.Wait()
}

// slim drops what the index does not need from a scanned file: the bodies
// of Compositions in List documents (the migration re-reads the file).
// Other Compositions were read slim already.
func slim(s *tree.Scanned) {
	for i := range s.Docs {
		d := &s.Docs[i]
		if d.Obj != nil && tree.IsComposition(d.APIVersion, d.Kind) {
			d.Obj = tree.SlimComposition(d.Obj)
		}
	}
}

// resolveFunctions resolves the function names for every file with
// Compositions.
func (r *runner) resolveFunctions(files []*tree.Scanned) {
	r.fnPT, r.fnEC = map[string]fnName{}, map[string]fnName{}
	for _, f := range files {
		if f.Compositions == 0 {
			continue
		}
		if r.o.PatchAndTransform == "" {
			n, amb := r.ix.FunctionName(f.Rel, xp.FunctionPatchAndTransform)
			if n == "" && !amb {
				n = r.defaultFunctionName(f.Rel, xp.PackagePatchAndTransform)
			}
			r.fnPT[f.Rel] = fnName{n, amb}
		}
		if r.o.EnvironmentConfigs == "" {
			n, amb := r.ix.FunctionName(f.Rel, xp.FunctionEnvironmentConfigs)
			if n == "" && !amb {
				n = r.defaultFunctionName(f.Rel, xp.PackageEnvironmentConfigs)
			}
			r.fnEC[f.Rel] = fnName{n, amb}
		}
	}
}

// markDuplicates finds candidate files reached by more than one path and
// keeps the one whose path is its real path (else the first).
func (r *runner) markDuplicates() {
	byReal := map[string][]*tree.Scanned{}
	for _, f := range r.files {
		if f.Kind == tree.EntrySkipped || f.Real == "" {
			continue
		}
		byReal[f.Real] = append(byReal[f.Real], f)
	}
	for real, fs := range byReal {
		if len(fs) < 2 {
			continue
		}
		canon := fs[0]
		for _, f := range fs {
			if !f.Linked {
				canon = f
				break
			}
		}
		for _, f := range fs {
			if f != canon {
				f.DupOf = canon.Rel
			}
		}
		r.needs[real] = true
	}
}

// finishDuplicates writes the copies of duplicated files under Out and
// reports them.
func (r *runner) finishDuplicates(outs []*outcome) {
	for i, f := range r.files {
		if f.DupOf == "" || outs[i] == nil || outs[i].file.Status != FileSkipped || outs[i].file.Reason != ReasonDuplicate {
			continue
		}
		if r.o.Write != WriteOut {
			continue
		}
		data, ok := r.finalFor[f.Real]
		if !ok {
			continue
		}
		if err := writeOut(r.outAbs, f.Rel, data, f.Mode); err != nil {
			outs[i].file.Status, outs[i].file.Reason, outs[i].file.Detail = FileFailed, ReasonWriteError, err.Error()
			continue
		}
		outs[i].file.Written = true
	}
}

// result assembles the Result.
func (r *runner) result(outs []*outcome) *Result {
	res := &Result{Root: r.o.Root, Mode: r.o.Write.String(), Check: r.o.Check}
	s := &res.Summary
	s.SkippedBy = map[string]int{}
	s.GapCodes = map[string]int{}
	for i, oc := range outs {
		if oc == nil || (!oc.emit && i < len(r.files) && r.files[i].Kind == tree.EntryOther) {
			continue
		}
		fr := oc.file
		fr.Diagnostics = finding.Sort(fr.Diagnostics)
		for _, d := range fr.Diagnostics {
			if d.Code == "M402" {
				if r.allowLegacy.Match(fr.Path, false) {
					s.LegacyAllowed++
				} else {
					s.LegacyLeft++
				}
				break
			}
		}
		res.Files = append(res.Files, fr)
		s.Files++
		switch fr.Status {
		case FileConverted:
			s.Converted++
		case FileUnchanged:
			s.Unchanged++
		case FileSkipped:
			s.Skipped++
			s.SkippedBy[fr.Reason]++
		case FileFailed:
			s.Failed++
			s.SkippedBy[fr.Reason]++
		case FileNotProcessed:
			s.NotProcessed++
		case FileHeldBack:
			s.HeldBack++
		}
		for _, d := range fr.Diagnostics {
			switch d.Severity {
			case SeverityError:
				s.Errors++
			case SeverityWarning:
				s.Warnings++
			default:
				s.Infos++
			}
			if strings.HasPrefix(d.Code, "M") {
				f := d
				f.File = fr.Path
				res.Findings = append(res.Findings, f)
			}
			switch {
			case !isFunctionCheck(d.Code):
			case d.Severity == SeverityInfo:
				s.FunctionsUnproven++
			default:
				s.FunctionProblems++
			}
		}
		for _, c := range oc.comps {
			c.Diagnostics = finding.Sort(c.Diagnostics)
			res.Compositions = append(res.Compositions, c)
			s.addComposition(c)
		}
	}
	s.Findings = len(res.Findings)
	if len(s.SkippedBy) == 0 {
		s.SkippedBy = nil
	}
	if len(s.GapCodes) == 0 {
		s.GapCodes = nil
	}
	return res
}

// addComposition counts a Composition and its verification.
func (s *Summary) addComposition(c CompositionResult) {
	s.Compositions++
	if c.Legacy {
		s.LegacyCompositions++
	}
	switch c.Status {
	case CompositionConverted:
		s.ConvertedCompositions++
	case CompositionPhase1:
		s.Phase1Compositions++
	case CompositionFailed:
		s.FailedCompositions++
	case CompositionHeldBack:
		s.HeldBackCompositions++
	}
	if c.Verification == nil && (c.Status == CompositionConverted || c.Status == CompositionChanged || c.Status == CompositionPhase1) {
		s.Unchecked++
	}
	if v := c.Verification; v != nil {
		switch v.Status {
		case VerifyEquivalent:
			s.VerifiedEquivalent++
		case VerifyEquivalentUpToMapping:
			s.EquivalentUpToMapping++
		case VerifyIntendedChange:
			s.IntendedChanges++
		case VerifyKnownGaps:
			s.KnownGaps++
		case VerifyDifferences:
			s.Differences++
		case VerifyError:
			s.VerifyErrors++
		case VerifyUnverified:
			s.Unverified++
		}
		if v.failing() {
			s.Failing++
		}
		for _, sm := range v.Samples {
			if sm.Status == VerifyInconclusive {
				s.InconclusiveSamples++
			}
			for _, d := range sm.Differences {
				if d.Code != "" {
					s.GapCodes[d.Code]++
				}
			}
		}
	}
}
