package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/pkg/errors"
	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/xpmigrate/xpmigrate/convert"
	"github.com/xpmigrate/xpmigrate/convert/migrate"
	"github.com/xpmigrate/xpmigrate/convert/migrate/report"
	"github.com/xpmigrate/xpmigrate/internal/atomicfile"
	"github.com/xpmigrate/xpmigrate/render/verify"
)

type migrateOptions struct {
	include, exclude []string
	out              string
	format           string
	dryRun           bool
	force            bool
	diff             bool
	check            bool
	phase1           bool
	verify           bool
	synthesize       int
	maxSamples       int
	jobs             int
	report           string
	target           string
	ptFunction       string
	ecFunction       string
	nameStrategy     string
	accept           []string
	requireVerified  bool
	base             string
	allowLegacy      []string
	fixQuirks        []string
	wireFunctions    bool
	functionsOut     string
}

// migrateDeps are what tests replace: the converter and verifier, and
// whether stderr is a terminal (and how wide).
type migrateDeps struct {
	converter func(o *migrateOptions) migrate.Converter
	verifier  func(renders bool) migrate.Verifier
	tty       func(s streams) (bool, int)
}

func newMigrateCmd(s streams) *cobra.Command {
	return newMigrateCmdWith(s, migrateDeps{})
}

func newMigrateCmdWith(s streams, deps migrateDeps) *cobra.Command {
	o := &migrateOptions{}
	cmd := &cobra.Command{
		Use:   "migrate [DIR]",
		Short: "Convert every legacy Composition in a repository, and prove each conversion",
		Long: `Walk a tree (default: the current directory), convert every mode: Resources
Composition in its YAML and JSON files to mode: Pipeline, and verify each
conversion by rendering both forms in process with the XR and claim examples
found in the tree.

Files ignored by .gitignore (the root's and nested ones) are left out, as are
files excluded by --exclude or not matched by --include (gitignore-style globs,
relative to DIR). Helm templates that are not YAML, ytt files, unparseable
files and kustomize patch files are skipped and reported, never touched.

By default each changed file is replaced atomically, file by file, keeping
its owner, group, mode bits and extended attributes (M408 says what could not
be kept); read-only and hard-linked files are refused unless --force; --out
DIR writes a converted copy of the whole tree instead; --dry-run, --check and
--diff write nothing. FIFOs, sockets and devices are never opened (skipped as
not-regular). Ctrl-C stops between files (within a second) and leaves every
file either old or new; temporary files a killed run left behind are removed
by the next run that writes in place, and reported.

Progress goes to stderr (a bar on a terminal, a line per changed or skipped
file otherwise), then a summary; --diff prints unified diffs on stdout.
--report writes a JSON, Markdown or self-contained HTML report (by extension).

Each verification has one verdict (see xpmigrate verify --help): equivalent,
intended-change, known-gaps, different, or unverified when no sample was
conclusive. An unexplained difference, or a breaking known gap whose code is
not accepted (--accept, or the annotation xpmigrate.io/accept-gaps on the
Composition), fails the run. Unverified Compositions and inconclusive samples
are listed as WARN and fail only with --require-verified, the setting for CI.

A tree that is already converted has no legacy side left: --base REF reads
the legacy Compositions from a git revision (the pull request's merge base
in CI) and verifies each Composition that is mode Pipeline in the tree and
was mode Resources at REF under the same name, converted by xpmigrate or by
hand, with the examples of both trees. A Composition that was already mode
Pipeline at REF and changed is reported (M408), not verified as a migration.

A file is written only when every legacy Composition in it converts, and,
in place or with --out, only when every conversion in it passes
verification: a file whose conversion is different (or has a breaking gap
nobody accepted) is held back and listed, unless --force.

The converted Compositions need function-patch-and-transform (and
function-environment-configs when they use an environment). Once per
package scope (a directory with a Configuration's crossplane.yaml, or the
tree), migrate adds a Function manifest pinned for --target for each
function no manifest in the scope installs (to examples/functions.yaml in a
Configuration's directory, which crossplane xpkg build leaves out of the
package, else to functions.yaml beside the Compositions; --functions-out
chooses one file for all, none writes none), and a dependency on it to the
Configuration's spec.dependsOn (edited in place, comments kept). An existing
Function or dependency at a release the target does not support is reported
(M409, M410) with the fix. --wire-functions=false adds nothing.

With --check, any legacy Composition left in the tree fails the run: one the
converter refused, one in a Helm template or a .tpl/.yaml.in file (reported
with M402 and what to do). --allow-legacy exempts files on purpose.

Exit codes: 0 done; 1 a file or Composition failed, or the run was
cancelled; 2 invalid usage (a --base that names no commit included), or a
file refused as unusable input (an alias bomb); 3 --check found files to
change or a legacy Composition left, a verification
failed, or with --require-verified a Composition was not proven.`,
		Example: `  # Migrate the repository in place, verifying every conversion
  xpmigrate migrate

  # Show what would change, for CI: exit 3 if anything would
  xpmigrate migrate --check --diff

  # In a pull request: verify the committed conversions against the base
  xpmigrate migrate --check --base "$(git merge-base origin/main HEAD)" --require-verified

  # Write a converted copy and an HTML report
  xpmigrate migrate ./platform --out /tmp/platform-v2 --report report.html

  # Only the APIs, and not the examples
  xpmigrate migrate --include 'apis/**' --exclude '**/examples/'`,
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) > 1 {
				return usageError{err: errors.Errorf("migrate takes at most one directory, got %d arguments", len(args))}
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			dir := "."
			if len(args) == 1 {
				dir = args[0]
			}
			ctx := cmd.Context()
			if ctx == nil {
				ctx = context.Background()
			}
			ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
			defer stop()
			// After the first signal, a second one ends the process at
			// once (every write is a rename: files are old or new).
			go func() { <-ctx.Done(); stop() }()
			return runMigrate(ctx, s, deps, dir, o)
		},
	}
	f := cmd.Flags()
	f.StringArrayVar(&o.include, "include", nil, "migrate only files matching this glob (gitignore syntax, relative to DIR); repeatable")
	f.StringArrayVar(&o.exclude, "exclude", nil, "skip files and directories matching this glob (gitignore syntax, relative to DIR); repeatable")
	f.StringVar(&o.out, "out", "", "write a converted copy of the tree to this directory (absent or empty) instead of writing in place")
	f.BoolVar(&o.dryRun, "dry-run", false, "write nothing; report what would change")
	f.BoolVar(&o.force, "force", false, "write what is otherwise refused or held back: read-only and hard-linked files in place (their mode is kept; other names of a hard-linked file keep the old content), and files whose conversion fails verification")
	f.BoolVar(&o.diff, "diff", false, "write nothing; print a unified diff of every change on stdout")
	f.BoolVar(&o.check, "check", false, "write nothing; exit 3 if any file would change")
	f.BoolVar(&o.phase1, "phase1", false, "step one of the unnamed-template rollout: name unnamed templates and keep mode Resources")
	f.BoolVar(&o.verify, "verify", true, "verify every conversion by rendering both forms with the examples found in the tree")
	f.IntVar(&o.synthesize, "synthesize", 0, "also verify with this many samples generated from each XRD's schema (0–1000)")
	f.StringVar(&o.base, "base", "", "git revision (the merge base in CI) to read legacy Compositions from: every Composition that is mode Pipeline here and was mode Resources there is verified against that legacy form (read from git, the work tree untouched)")
	f.StringArrayVar(&o.allowLegacy, "allow-legacy", nil, "files whose legacy Compositions may stay (glob, gitignore syntax, relative to DIR): reported, but --check does not fail on them; repeatable")
	f.StringSliceVar(&o.accept, "accept", nil, "breaking gap codes to accept in every verification, so they are reported but do not fail (e.g. D21,D30); repeatable")
	f.BoolVar(&o.requireVerified, "require-verified", false, "exit 3 when a Composition is unverified or a sample inconclusive (use in CI)")
	f.IntVar(&o.maxSamples, "max-samples", migrate.DefaultMaxSamples, "verify each Composition with at most this many examples, nearest first (1–1000; negative: all)")
	f.IntVar(&o.jobs, "jobs", min(runtime.NumCPU(), maxJobs), "files to handle at once (1–256)")
	f.StringVar(&o.report, "report", "", "write a report to this file: .json, .md or .html")
	f.StringVar(&o.format, "format", "text", "what is printed on stdout: text (nothing; the summary is on stderr), github (workflow commands that annotate files in GitHub Actions), json (the JSON report), junit or sarif (the same problems for CI dashboards and code scanning)")
	f.StringVar(&o.target, "target", "v1", "Crossplane line the converted Compositions are for: v1 (1.18–1.20) or v2")
	f.StringVar(&o.ptFunction, "function-patch-and-transform-ref", "", "functionRef name for function-patch-and-transform (default: from Function manifests and Configuration dependencies in the tree, else function-patch-and-transform)")
	f.StringVar(&o.ecFunction, "function-environment-configs-ref", "", "functionRef name for function-environment-configs (default: as for --function-patch-and-transform-ref)")
	f.BoolVar(&o.wireFunctions, "wire-functions", true, "add the functions the converted Compositions need: pinned Function manifests and Configuration dependencies (see --functions-out)")
	f.StringVar(&o.functionsOut, "functions-out", "", "file, relative to DIR, for the Function manifests of every package scope (default: examples/functions.yaml beside a Configuration's crossplane.yaml, else functions.yaml beside the Compositions); none writes no manifests")
	f.StringVar(&o.nameStrategy, "name-strategy", "index", "names for unnamed templates: index (resource-<i>) or kind (<kind>-<i>)")
	f.StringSliceVar(&o.fixQuirks, "fix-quirk", nil, "fix a native quirk on purpose, by code (changes behaviour; converted Compositions are annotated "+convert.IntendedChangesAnnotation+"): C325 (integer format verbs print the integer where native printed %!d(float64=N))")
	return cmd
}

func runMigrate(ctx context.Context, s streams, deps migrateDeps, dir string, o *migrateOptions) error {
	// GOGC, when set, wins over the migration's own target.
	if os.Getenv("GOGC") == "" {
		defer debug.SetGCPercent(debug.SetGCPercent(migrate.GCPercent))
	}
	bo, err := o.batchOptions(dir)
	if err != nil {
		return err
	}
	format := ""
	if o.report != "" {
		if format, err = report.FileFormat(o.report); err != nil {
			return usageError{err: err}
		}
	}
	if !slices.Contains(report.Formats, o.format) {
		return usageError{err: errors.Errorf("--format must be one of %s, not %q", strings.Join(report.Formats, ", "), o.format)}
	}
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return usageError{err: errors.Errorf("%q is not a directory", dir)}
	}
	if o.report != "" {
		// Every output path is known to be writable before the tree is
		// touched.
		if err := checkWritableFile(o.report); err != nil {
			return usageError{err: errors.Wrap(err, "--report")}
		}
	}
	html := format == report.HTML
	bo.KeepSources = html
	if deps.converter != nil {
		bo.Converter = deps.converter(o)
	} else {
		bo.Converter = migrate.NewConverter(convert.Options{NameStrategy: convert.NameStrategy(o.nameStrategy), FixQuirks: o.fixQuirks})
	}
	if deps.verifier != nil {
		bo.Verifier = deps.verifier(html)
	} else {
		bo.Verifier = migrate.NewVerifier(html)
	}
	tty, width := false, 0
	if deps.tty != nil {
		tty, width = deps.tty(s)
	} else {
		tty, width = stderrTerminal(s)
	}
	bo.Progress = migrate.NewProgress(s.ErrOut, tty, width)

	res, runErr, ok := runCancellable(ctx, bo, cancelGrace)
	if !ok {
		return exitCodeError{code: exitError, err: errors.Errorf("cancelled: stopped waiting %s for the files in progress; every file is either old or new", cancelGrace)}
	}
	var ie *migrate.InvalidOptionsError
	var be *migrate.BaseError
	if errors.As(runErr, &ie) || errors.As(runErr, &be) {
		return usageError{err: runErr}
	}
	if res == nil {
		return errors.Wrap(runErr, "cannot migrate")
	}

	if n := len(res.StaleTemporaries); n > 0 {
		what := "found %d temporary files left by an interrupted run (left as they are: this run does not write in place): %s\n"
		if res.StaleRemoved {
			what = "removed %d temporary files left by an interrupted run: %s\n"
		}
		fmt.Fprintf(s.ErrOut, what, n, strings.Join(res.StaleTemporaries, ", "))
	}
	if o.diff {
		for _, f := range res.Files {
			if f.Diff != "" {
				fmt.Fprint(s.Out, f.Diff)
			}
		}
	}
	if err := migrate.WriteSummary(s.ErrOut, res); err != nil {
		return errors.Wrap(err, "cannot write the summary")
	}
	if err := report.WriteFormat(s.Out, o.format, res, dir); err != nil {
		return errors.Wrap(err, "cannot write the output")
	}
	if o.report != "" {
		if err := writeReportFile(o.report, format, res); err != nil {
			return err
		}
		fmt.Fprintf(s.ErrOut, "report written to %s\n", o.report)
	}

	switch {
	case res.Cancelled:
		return exitCodeError{code: exitError, err: errors.New("cancelled: files not processed were left as they were")}
	case runErr != nil:
		return errors.Wrap(runErr, "cannot migrate")
	case len(res.Refused()) > 0:
		f := res.Refused()[0]
		return exitCodeError{code: exitInvalid, err: errors.Errorf("%s: %s: refused (%d files refused)", f.Path, f.Detail, len(res.Refused()))}
	case res.Failed():
		return exitCodeError{code: exitError, err: errors.Errorf("%d files and %d Compositions failed, %d verifications could not run",
			res.Summary.Failed, res.Summary.FailedCompositions, res.Summary.VerifyErrors)}
	case res.HasDifferences():
		return exitCodeError{code: exitDifferences, err: errors.Errorf("%d verifications fail: %d render differently from their legacy form, the others have breaking gaps nobody accepted", res.Summary.Failing, res.Summary.Differences)}
	case o.check && res.HasLegacyLeft():
		return exitCodeError{code: exitDifferences, err: errors.Errorf("%d files still hold a legacy Composition (see the M402 findings); exempt one on purpose with --allow-legacy", res.Summary.LegacyLeft)}
	case o.requireVerified && res.Unproven():
		return exitCodeError{code: exitDifferences, err: errors.Errorf("--require-verified: %d Compositions unverified, %d samples inconclusive", res.Summary.Unverified, res.Summary.InconclusiveSamples)}
	case o.check && res.Changed():
		return exitCodeError{code: exitDifferences, err: errors.Errorf("%d files would change", res.Summary.Converted)}
	}
	return nil
}

// cancelGrace is how long a cancelled migration may take to finish the
// files in progress before the command stops waiting for it.
const cancelGrace = 800 * time.Millisecond

// runCancellable runs the migration and returns its outcome, or ok false
// when ctx is cancelled and the run has not returned within grace: Ctrl-C
// ends the command within that time whatever a file operation waits for.
// Every write is a rename, so a file left behind is either old or new.
func runCancellable(ctx context.Context, bo migrate.Options, grace time.Duration) (*migrate.Result, error, bool) { //nolint:revive // ok last reads best here.
	type outcome struct {
		res *migrate.Result
		err error
	}
	done := make(chan outcome, 1)
	go func() {
		res, err := migrate.Run(ctx, bo)
		done <- outcome{res, err}
	}()
	select {
	case o := <-done:
		return o.res, o.err, true
	case <-ctx.Done():
	}
	t := time.NewTimer(grace)
	defer t.Stop()
	select {
	case o := <-done:
		return o.res, o.err, true
	case <-t.C:
		return nil, ctx.Err(), false
	}
}

// batchOptions validates the flags and maps them to migrate.Options.
func (o *migrateOptions) batchOptions(dir string) (migrate.Options, error) {
	bo := migrate.Options{
		Root: dir, Include: o.include, Exclude: o.exclude,
		Check: o.check, Diff: o.diff, Phase1: o.phase1,
		Target: o.target, Verify: o.verify && !o.phase1, Synthesize: o.synthesize, MaxSamples: o.maxSamples,
		Jobs: o.jobs, PatchAndTransform: o.ptFunction, EnvironmentConfigs: o.ecFunction,
		Accept: o.accept, Base: o.base, AllowLegacy: o.allowLegacy, Force: o.force,
		WireFunctions: o.wireFunctions, FunctionsOut: o.functionsOut,
	}
	if err := verify.CheckGapCodes(o.accept); err != nil {
		return bo, usageError{err: errors.Wrap(err, "--accept")}
	}
	noWrite := o.dryRun || o.check || o.diff
	switch {
	case o.out != "" && noWrite:
		return bo, usageError{err: errors.New("--out writes a copy of the tree; --dry-run, --check and --diff write nothing: choose one")}
	case o.out != "":
		bo.Write, bo.Out = migrate.WriteOut, o.out
	case noWrite:
		bo.Write = migrate.WriteNone
	}
	if o.target != "v1" && o.target != "v2" {
		return bo, usageError{err: errors.Errorf("--target must be v1 or v2, not %q", o.target)}
	}
	if o.nameStrategy != "index" && o.nameStrategy != "kind" {
		return bo, usageError{err: errors.Errorf("--name-strategy must be index or kind, not %q", o.nameStrategy)}
	}
	for _, q := range o.fixQuirks {
		if !slices.Contains(convert.Quirks, q) {
			return bo, usageError{err: errors.Errorf("--fix-quirk must be one of %s, not %q", strings.Join(convert.Quirks, ", "), q)}
		}
	}
	if err := firstError(
		inRange("jobs", o.jobs, 1, maxJobs),
		inRange("synthesize", o.synthesize, 0, maxSynthesize),
	); err != nil {
		return bo, err
	}
	if o.maxSamples == 0 || o.maxSamples > maxSamples {
		return bo, usageError{err: errors.Errorf("--max-samples must be between 1 and %d (or negative: all), not %d (use --verify=false to verify nothing)", maxSamples, o.maxSamples)}
	}
	if o.synthesize > 0 && !o.verify {
		return bo, usageError{err: errors.New("--synthesize needs --verify")}
	}
	return bo, nil
}

// stderrTerminal reports whether the error stream is a terminal, and its
// width.
func stderrTerminal(s streams) (bool, int) {
	f, ok := s.ErrOut.(*os.File)
	if !ok || !term.IsTerminal(int(f.Fd())) {
		return false, 0
	}
	w, _, err := term.GetSize(int(f.Fd()))
	if err != nil {
		w = 0
	}
	return true, w
}

// checkWritableFile reports whether a file can be written at path: its
// directory exists and takes a new file, and path is not a directory. It
// leaves nothing behind.
func checkWritableFile(path string) error {
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return errors.Errorf("%q is a directory", path)
	}
	dir := filepath.Dir(path)
	fi, err := os.Stat(dir)
	if err != nil || !fi.IsDir() {
		return errors.Errorf("cannot write %q: directory %q does not exist", path, dir)
	}
	if err := atomicfile.Probe(dir, filepath.Base(path)); err != nil {
		return errors.Wrapf(err, "cannot write %q", path)
	}
	return nil
}

// writeReportFile writes the report atomically: to a temporary file beside
// path, renamed over it.
func writeReportFile(path, format string, res *migrate.Result) error {
	var b bytes.Buffer
	if err := report.Write(&b, format, res); err != nil {
		return err
	}
	if err := atomicfile.Write(path, b.Bytes(), 0o644, nil); err != nil {
		return errors.Wrapf(err, "cannot write report %q", path)
	}
	return nil
}
