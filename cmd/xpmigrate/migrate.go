package main

import (
	"context"
	"os"
	"os/signal"
	"runtime"
	"runtime/debug"
	"syscall"
	"time"

	"github.com/pkg/errors"
	"github.com/spf13/cobra"

	"github.com/xpmigrate/xpmigrate/convert"
	"github.com/xpmigrate/xpmigrate/convert/migrate"
	"github.com/xpmigrate/xpmigrate/convert/migrate/report"
	"github.com/xpmigrate/xpmigrate/internal/atomicfile"
	"github.com/xpmigrate/xpmigrate/internal/crossplane"
	"github.com/xpmigrate/xpmigrate/internal/errkind"
	"github.com/xpmigrate/xpmigrate/render/verify"
)

// migrateOptions are the flags of `xpmigrate migrate`, bound to
// migrate.Options and the converter's options where they map one to one.
type migrateOptions struct {
	run             migrate.Options
	convert         convert.Options
	providerCRDs    []string
	out             string
	format          string
	report          string
	dryRun          bool
	verify          bool
	requireVerified bool
	cluster         clusterOptions
	// timeout bounds the cluster check (--cluster).
	timeout time.Duration
}

// migrateDeps are what tests replace: the converter and the verifier.
type migrateDeps struct {
	converter func(o *migrateOptions) migrate.Converter
	verifier  func(renders bool) migrate.Verifier
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
found in the tree. Files .gitignore, --exclude or --include leave out are
not read; unparseable and templated files are skipped and reported.

Each changed file is replaced atomically, keeping its owner, mode and
extended attributes; --out DIR writes a converted copy instead; --dry-run,
--check and --diff write nothing. A file whose conversion fails verification
is held back unless --force. migrate also adds the Function manifests and
Configuration dependencies the converted Compositions need
(--wire-functions), and checks every functionRef against what is installed.

--base REF verifies an already converted tree against the legacy
Compositions of a git revision. --cluster also checks each conversion
against the cluster's live XRs (get and list only). --target v2 converts the
XRDs and the objects around the Compositions for the v2-native platform.
--report writes a JSON, Markdown or HTML report; --format what stdout shows.
The summary's last line says whether the run is safe to merge.

Exit codes: 0 done; 1 a file or Composition failed, or the run was
cancelled; 2 invalid usage, or a file refused as unusable input; 3 --check
found something to change or a legacy Composition left, a verification or
a Function check failed, or with --require-verified the run was not proven.

In detail (files, writes, verification, --base, Functions, --cluster,
--target v2): docs/migrate.md.`,
		Example: `  # Migrate the repository in place, verifying every conversion
  xpmigrate migrate

  # Show what would change, for CI: exit 3 if anything would
  xpmigrate migrate --check --diff

  # In a pull request: verify the committed conversions against the base
  xpmigrate migrate --check --base "$(git merge-base origin/main HEAD)" --require-verified

  # Write a converted copy and an HTML report
  xpmigrate migrate ./platform --out /tmp/platform-v2 --report report.html

  # Also prove each conversion on the cluster's XRs, one HTML report for both
  xpmigrate migrate --dry-run --cluster --context prod --report report.html

  # Only the APIs, and not the examples
  xpmigrate migrate --include 'apis/**' --exclude '**/examples/'`,
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) > 1 {
				return errkind.InvalidInputf("migrate takes at most one directory, got %d arguments", len(args))
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			o.run.Root = "."
			if len(args) == 1 {
				o.run.Root = args[0]
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
			if err := o.cluster.validate(cmd.Flags(), "base", "phase1"); err != nil {
				return err
			}
			if cmd.Flags().Changed("timeout") && !o.cluster.enabled {
				return errkind.InvalidInputf("--timeout bounds the cluster check: it needs --cluster")
			}
			if err := durationInRange("timeout", o.timeout, minTimeout, maxTimeout); err != nil {
				return err
			}
			return untilCancelled(ctx, func() error { return runMigrate(ctx, s, deps, o) })
		},
	}
	f := cmd.Flags()
	f.StringArrayVar(&o.run.Include, "include", nil, "migrate only files matching this glob (gitignore syntax, relative to DIR); repeatable")
	f.StringArrayVar(&o.run.Exclude, "exclude", nil, "skip files and directories matching this glob (gitignore syntax, relative to DIR); repeatable")
	f.StringVar(&o.out, "out", "", "write a converted copy of the tree to this directory (absent or empty) instead of writing in place")
	f.BoolVar(&o.dryRun, "dry-run", false, "write nothing; report what would change")
	f.BoolVar(&o.run.Force, "force", false, "write what is otherwise refused or held back: read-only and hard-linked files in place (their mode is kept; other names of a hard-linked file keep the old content), and files whose conversion fails verification")
	f.BoolVar(&o.run.Diff, "diff", false, "write nothing; print a unified diff of every change on stdout")
	f.BoolVar(&o.run.Check, "check", false, "write nothing; exit 3 if any file would change")
	f.BoolVar(&o.run.Phase1, "phase1", false, "step one of the unnamed-template rollout: name unnamed templates and keep mode Resources")
	f.BoolVar(&o.verify, "verify", true, "verify every conversion by rendering both forms with the examples found in the tree")
	f.IntVar(&o.run.Synthesize, "synthesize", 0, "also verify with this many samples generated from each XRD's schema (0–1000)")
	f.StringVar(&o.run.Base, "base", "", "git revision (the merge base in CI) to read legacy Compositions from: every Composition that is mode Pipeline here and was mode Resources there is verified against that legacy form (read from git, the work tree untouched)")
	f.StringArrayVar(&o.run.AllowLegacy, "allow-legacy", nil, "files whose legacy Compositions may stay (glob, gitignore syntax, relative to DIR): reported, but --check does not fail on them; repeatable")
	f.StringSliceVar(&o.run.Accept, "accept", nil, "breaking gap codes to accept in every verification, so they are reported but do not fail (e.g. D21,D30); repeatable")
	f.BoolVar(&o.requireVerified, "require-verified", false, "exit 3 when a Composition is unverified or a sample inconclusive (use in CI)")
	f.IntVar(&o.run.MaxSamples, "max-samples", migrate.DefaultMaxSamples, "verify each Composition with at most this many examples, nearest first (1–1000; negative: all)")
	f.IntVar(&o.run.Jobs, "jobs", min(runtime.NumCPU(), maxJobs), "files to handle at once (1–256)")
	f.StringVar(&o.report, "report", "", "write a report to this file: .json, .md or .html")
	f.DurationVar(&o.timeout, "timeout", 30*time.Minute, "with --cluster: how long the cluster check may take (1s–24h)")
	addClusterFlags(f, &o.cluster, "also verify every legacy Composition the run converts against the live XRs that run it in the cluster the kubeconfig selects (get and list only; as verify --cluster), and add that report to the output: as text on stdout, or joining the --format output and the --report file")
	stringEnumFlag(f, &o.format, "format", report.FormatText, "what is printed on stdout: text (nothing; the summary is on stderr), github (workflow commands that annotate files in GitHub Actions), json (the JSON report), junit or sarif (the same problems for CI dashboards and code scanning)", report.Formats...)
	stringEnumFlag(f, &o.run.Target, "target", crossplane.V1, "Crossplane line the converted Compositions are for: v1 (1.18–1.20) or v2 (the v2-native platform; see --xr-scope)", crossplane.Targets...)
	addXRFlags(f, &o.convert)
	f.StringVar(&o.run.PatchAndTransform, "function-patch-and-transform-ref", "", "functionRef name for function-patch-and-transform (default: from Function manifests and Configuration dependencies in the tree, else function-patch-and-transform)")
	f.StringVar(&o.run.EnvironmentConfigs, "function-environment-configs-ref", "", "functionRef name for function-environment-configs (default: as for --function-patch-and-transform-ref)")
	f.BoolVar(&o.run.WireFunctions, "wire-functions", true, "add the functions the converted Compositions need: pinned Function manifests and Configuration dependencies (see --functions-out)")
	f.StringVar(&o.run.FunctionsOut, "functions-out", "", "file, relative to DIR, for the Function manifests of every package scope (default: examples/functions.yaml beside a Configuration's crossplane.yaml, else functions.yaml beside the Compositions); none writes no manifests")
	stringEnumFlag(f, &o.convert.NameStrategy, "name-strategy", convert.NameByIndex, "names for unnamed templates: index (resource-<i>) or kind (<kind>-<i>)", convert.NameByIndex, convert.NameByKind)
	enumSliceFlag(f, &o.convert.FixQuirks, "fix-quirk", "fix a native quirk on purpose, by code (changes behaviour; converted Compositions are annotated "+convert.IntendedChangesAnnotation+"): C325 (integer format verbs print the integer where native printed %!d(float64=N))", convert.Quirks)
	f.StringArrayVar(&o.providerCRDs, "provider-crds", nil, "with --target v2: a file or directory of provider CustomResourceDefinitions (a provider package's package/crds) that give the namespaced twins of managed resources, their versions and scopes; repeatable")
	stringEnumFlag(f, &o.convert.ProviderConfigKind, "provider-config-kind", convert.KindClusterProviderConfig, "with --target v2: the kind namespaced managed resources' providerConfigRef names: ClusterProviderConfig (cluster-wide) or ProviderConfig (in the XR's namespace)", convert.KindClusterProviderConfig, convert.KindProviderConfig)
	f.BoolVar(&o.convert.UnwrapObjects, "unwrap-objects", false, "with --target v2: compose the objects provider-kubernetes Objects wrap directly where nothing else depends on the wrapper (they are then created in the Crossplane cluster, and count as ready once composed)")
	return cmd
}

func runMigrate(ctx context.Context, s streams, deps migrateDeps, o *migrateOptions) error {
	// GOGC, when set, wins over the migration's own target.
	if os.Getenv("GOGC") == "" {
		defer debug.SetGCPercent(debug.SetGCPercent(migrate.GCPercent))
	}
	bo, err := o.batchOptions()
	if err != nil {
		return err
	}
	out := report.OutputOptions{Root: bo.Root, Diff: bo.Diff, Format: o.format, Report: o.report}
	if o.report != "" {
		if out.ReportFormat, err = report.FileFormat(o.report); err != nil {
			return errkind.InvalidInput(err)
		}
	}
	if fi, err := os.Stat(bo.Root); err != nil || !fi.IsDir() {
		return errkind.InvalidInputf("%q is not a directory", bo.Root)
	}
	if o.report != "" {
		// Every output path is known to be writable before the tree is
		// touched.
		if err := atomicfile.CheckWritable(o.report); err != nil {
			return errkind.InvalidInput(errors.Wrap(err, "--report"))
		}
	}
	html := out.ReportFormat == report.HTML
	// The cluster check renders each converted Composition's documents.
	bo.KeepSources = html || o.cluster.enabled
	if o.convert.ProviderCRDs, err = convert.ReadProviderCRDs(o.providerCRDs); err != nil {
		return err
	}
	bo.Converter = migrate.NewConverter(o.convert)
	if deps.converter != nil {
		bo.Converter = deps.converter(o)
	}
	bo.Verifier = migrate.NewVerifier(html)
	if deps.verifier != nil {
		bo.Verifier = deps.verifier(html)
	}
	bo.Progress = migrate.NewProgress(s.ErrOut, s.ErrTTY, s.ErrWidth)
	x := migrate.Execution{
		Grace:           cancelGrace,
		RequireVerified: o.requireVerified,
		Write: func(res *migrate.Result, cc *migrate.ClusterCheck) error {
			if cc != nil {
				out.Cluster = cc.Section
			}
			if err := report.WriteOutputs(s.Out, s.ErrOut, res, out); err != nil {
				return err
			}
			if cc != nil && (o.format == report.FormatText || o.format == "") {
				return writeMigratedText(s, cc.Reports)
			}
			return nil
		},
	}
	if o.cluster.enabled {
		if x.Cluster, err = o.clusterCheck(s); err != nil {
			return err
		}
	}
	return migrate.Execute(ctx, bo, x)
}

// cancelGrace is how long a cancelled migration may take to finish the
// files in progress before the command stops waiting for it.
const cancelGrace = 800 * time.Millisecond

// stopGrace is how long the command waits, once cancelled (the first
// SIGTERM or Ctrl-C), for a step that does not watch the context (a read
// outside the tree, writing the outputs) before it returns anyway: every
// signal ends the run within a second.
const stopGrace = 900 * time.Millisecond

// untilCancelled runs fn, and returns its error, or a cancelled error
// stopGrace after ctx is cancelled if fn has not returned by then (it
// goes on in the background until the process exits; every write is a
// rename, so files are old or new).
func untilCancelled(ctx context.Context, fn func() error) error {
	done := make(chan error, 1)
	go func() { done <- fn() }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
	}
	t := time.NewTimer(stopGrace)
	defer t.Stop()
	select {
	case err := <-done:
		return err
	case <-t.C:
		return errors.Errorf("cancelled: stopped waiting %s for the run to end", stopGrace)
	}
}

// batchOptions checks the flags against each other and completes
// migrate.Options from those that do not map one to one.
func (o *migrateOptions) batchOptions() (migrate.Options, error) {
	bo := o.run
	bo.Verify = o.verify && !bo.Phase1
	if err := verify.CheckGapCodes(bo.Accept); err != nil {
		return bo, errkind.InvalidInput(errors.Wrap(err, "--accept"))
	}
	noWrite := o.dryRun || bo.Check || bo.Diff
	switch {
	case o.out != "" && noWrite:
		return bo, errkind.InvalidInputf("--out writes a copy of the tree; --dry-run, --check and --diff write nothing: choose one")
	case o.out != "":
		bo.Write, bo.Out = migrate.WriteOut, o.out
	case noWrite:
		bo.Write = migrate.WriteNone
	}
	if err := firstError(
		inRange("jobs", bo.Jobs, 1, maxJobs),
		inRange("synthesize", bo.Synthesize, 0, maxSynthesize),
	); err != nil {
		return bo, err
	}
	if bo.MaxSamples == 0 || bo.MaxSamples > maxSamples {
		return bo, errkind.InvalidInputf("--max-samples must be between 1 and %d (or negative: all), not %d (use --verify=false to verify nothing)", maxSamples, bo.MaxSamples)
	}
	if bo.Synthesize > 0 && !o.verify {
		return bo, errkind.InvalidInputf("--synthesize needs --verify")
	}
	if err := validateXRFlags(bo.Target, o.convert); err != nil {
		return bo, errkind.InvalidInput(err)
	}
	bo.Definitions = bo.Target == crossplane.V2 && o.convert.XRScope != convert.XRScopeLegacy
	return bo, nil
}
