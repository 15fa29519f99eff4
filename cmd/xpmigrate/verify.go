package main

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/pkg/errors"
	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/xpmigrate/xpmigrate/convert/migrate"
	"github.com/xpmigrate/xpmigrate/internal/jsonobj"
	"github.com/xpmigrate/xpmigrate/internal/manifest"
	"github.com/xpmigrate/xpmigrate/internal/regularfile"
	"github.com/xpmigrate/xpmigrate/internal/samples"
	"github.com/xpmigrate/xpmigrate/render"
	"github.com/xpmigrate/xpmigrate/render/verify"
	"github.com/xpmigrate/xpmigrate/render/verify/format"
)

type verifyOptions struct {
	legacy, converted string

	xr, observed, extra, xrd string
	synthesize               int

	loops               int
	format              string
	strict              bool
	requireVerified     bool
	verbose             bool
	accept              []string
	base                string
	target              string
	environmentFunction string
	timeout             time.Duration

	// convert converts on the fly when --converted is not given.
	convert verify.Converter

	// tty and noColor decide colour in text output.
	tty, noColor bool

	// fsys is the file system examples and the XRD are looked for in,
	// rooted at /; nil means the machine's (tests count what is read).
	fsys fs.FS
}

// converter returns the converter `xpmigrate verify` uses when it is given
// no --converted file: xpmigrate's own.
func converter() verify.Converter { return migrate.VerifyConverter }

func newVerifyCmd(s streams) *cobra.Command {
	o := &verifyOptions{convert: converter()}
	cmd := &cobra.Command{
		Use:   "verify <legacy-composition.yaml>",
		Short: "Prove a converted Composition composes what the legacy one did",
		Long: `Render the legacy (mode: Resources) Composition with the native composer and
its converted (mode: Pipeline) form with the function pipeline, for each sample
composite resource (XR), with the same observed resources and EnvironmentConfigs,
for several reconciles, and compare: the composed resources (by composition
resource name, full content), the XR as the cluster would keep it (status written
by ToComposite patches), the XR's connection details, and readiness.

Every difference is classified, and each sample gets one verdict:

  equivalent       no difference, or only benign known gaps (lags the next
                   reconcile catches up on, bookkeeping nothing reads), shown
                   as info
  known-gaps       a breaking known gap (a D-code of the pipeline spec, with
                   the converter's codes, why and the fix): the steady state
                   differs in a way xpmigrate understands; it fails unless its
                   code is accepted (--accept D21,D30, or the annotation
                   xpmigrate.io/accept-gaps on either Composition)
  intended-change  a legacy quirk the converter fixed because you asked it
                   to (its C-code is declared in the converted Composition's
                   xpmigrate.io/intended-changes annotation)
  different        a difference nothing explains: a bug in the conversion;
                   always fails
  inconclusive     both sides failed to render the sample; nothing was
                   proven; both errors and the input that is probably
                   missing are shown

A Composition is unverified when no sample was conclusive (none found, or all
inconclusive); the report says why and what to give. Inconclusive samples and
unverified Compositions print a WARN line and pass, unless --require-verified
(the setting for CI) makes them fail.

Exit status: 0 verified (equivalent, intended changes, accepted or benign
gaps; inconclusive and unverified too unless --require-verified); 3 an
unexplained difference, a breaking gap not accepted, with --strict any known
gap that persists, or with --require-verified an inconclusive sample or an
unverified Composition; 2 invalid input; 1 error.`,
		Example: `  # Verify a conversion against the example XRs
  xpmigrate verify composition.yaml --converted pipeline.yaml --xr examples/

  # Claims, with the XRD, existing composed resources and EnvironmentConfigs
  xpmigrate verify composition.yaml --converted pipeline.yaml --xr claim.yaml \
    --xrd definition.yaml -o observed/ -e environmentconfigs.yaml

  # Generate 5 XRs from the XRD's schema and fail on known gaps too
  xpmigrate verify composition.yaml --converted pipeline.yaml --xrd definition.yaml \
    --synthesize 5 --strict

  # In CI: every Composition must be proven, MatchInteger readiness (D21) accepted
  xpmigrate verify composition.yaml --converted pipeline.yaml --require-verified --accept D21

  # Annotate a pull request from GitHub Actions, or feed CI dashboards
  xpmigrate verify composition.yaml --converted pipeline.yaml --xr examples/ --format github
  xpmigrate verify composition.yaml --converted pipeline.yaml --xr examples/ --format junit > verify.xml`,
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) != 1 {
				return usageError{err: errors.Errorf("verify takes 1 argument (the legacy Composition), got %d", len(args))}
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			o.legacy = args[0]
			o.tty = isTerminal(s.Out)
			_, o.noColor = os.LookupEnv("NO_COLOR")
			return runVerify(cmd.Context(), s, o)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.base, "base", "", "git revision to read the legacy Composition from: the argument is then the converted (mode: Pipeline) Composition, verified against the legacy Composition of the same name at that revision")
	f.StringVar(&o.converted, "converted", "", "the converted (mode: Pipeline) Composition; converted on the fly when absent")
	f.StringVar(&o.xr, "xr", "", "file or directory of sample XRs (or claims, with --xrd)")
	f.StringVarP(&o.observed, "observed-resources", "o", "", "file or directory of observed composed resources")
	f.StringVarP(&o.extra, "extra-resources", "e", "", "file or directory of other cluster objects (EnvironmentConfigs, Secrets)")
	f.StringVar(&o.xrd, "xrd", "", "the CompositeResourceDefinition (claims, --synthesize); found beside the Composition when absent")
	f.IntVar(&o.synthesize, "synthesize", 0, "generate N sample XRs from the XRD's schema (0–1000)")
	f.IntVar(&o.loops, "loops", 0, "reconciles to simulate (0: until both sides are stable; at most 100)")
	f.StringVar(&o.format, "format", "text", "output format: text, json, junit, sarif or github")
	f.BoolVar(&o.strict, "strict", false, "fail on every known gap that persists, benign or accepted ones too, not only on unexplained differences and breaking gaps")
	f.BoolVar(&o.requireVerified, "require-verified", false, "fail (exit 3) when a sample is inconclusive or the Composition is unverified (use in CI)")
	f.StringSliceVar(&o.accept, "accept", nil, "breaking gap codes to accept, so they are reported but do not fail (e.g. D21,D30); repeatable")
	f.BoolVarP(&o.verbose, "verbose", "v", false, "text output: show benign differences in full and list every patch no sample exercised")
	f.StringVar(&o.target, "target", "v1", "Crossplane line the pipeline side emulates: v1 (1.18-1.20) or v2")
	f.StringVar(&o.environmentFunction, "environment-function", "", "function-environment-configs release the pipeline runs: v0.6 or v0.7 (default: paired with --target)")
	f.DurationVar(&o.timeout, "timeout", 5*time.Minute, "how long verification may take (1s–24h)")
	return cmd
}

func runVerify(ctx context.Context, s streams, o *verifyOptions) error {
	if o.target != verify.TargetV1 && o.target != verify.TargetV2 {
		return usageError{err: errors.Errorf("--target must be v1 or v2, not %q", o.target)}
	}
	if err := firstError(
		inRange("loops", o.loops, 0, maxLoops),
		inRange("synthesize", o.synthesize, 0, maxSynthesize),
		durationInRange("timeout", o.timeout, minTimeout, maxTimeout),
	); err != nil {
		return err
	}
	outFormat := format.Format(o.format)
	known := false
	for _, f := range format.Formats {
		known = known || f == outFormat
	}
	if !known {
		return usageError{err: errors.Errorf("--format must be one of text, json, junit, sarif, github, not %q", o.format)}
	}

	if o.base != "" && o.converted != "" {
		return usageError{err: errors.New("--base reads the legacy Composition from git and takes the converted one as the argument: drop --converted")}
	}
	in, err := loadVerifyInput(ctx, o)
	if err != nil {
		return inputExit(err)
	}
	for _, sk := range in.skipped {
		fmt.Fprintf(s.ErrOut, "skipped %s: %s\n", sk.Path, sk.Reason)
	}
	if in.converted.Data == nil && o.convert == nil {
		return usageError{err: errors.New("--converted is required until the converter is built in")}
	}

	ctx, cancel := context.WithTimeout(ctx, o.timeout)
	defer cancel()
	rep, err := verify.Verify(ctx, in.legacy, in.converted, in.samples, verify.Options{
		Observed:            in.observed,
		Extra:               in.extra,
		XRD:                 in.xrd,
		Loops:               o.loops,
		Target:              o.target,
		EnvironmentFunction: o.environmentFunction,
		Strict:              o.strict,
		Accept:              o.accept,
		Convert:             o.convert,
	})
	if err != nil {
		var ie *render.InputError
		if errors.As(err, &ie) {
			return inputExit(err)
		}
		return errors.Wrap(err, "cannot verify")
	}
	if err := format.Write(s.Out, rep, format.Options{Format: outFormat, TTY: o.tty, NoColor: o.noColor, Verbose: o.verbose}); err != nil {
		return errors.Wrap(err, "cannot write report")
	}
	if rep.Fails(o.requireVerified) {
		return exitCodeError{code: exitDifferences}
	}
	return nil
}

type verifyInput struct {
	legacy, converted verify.Document
	samples           []verify.Sample
	observed, extra   []map[string]any
	xrd               map[string]any
	// skipped are the documents of a sample's kind that are not samples.
	skipped []verify.SkippedSample
}

func loadVerifyInput(ctx context.Context, o *verifyOptions) (*verifyInput, error) {
	in := &verifyInput{}
	b, err := regularfile.ReadFile(o.legacy)
	if err != nil {
		return nil, render.InvalidInput(errors.Wrapf(err, "cannot read legacy composition %q", o.legacy))
	}
	in.legacy = verify.Document{Path: o.legacy, Data: b}
	if o.base != "" {
		// The argument is the conversion; its legacy form is in git.
		if in.legacy, in.converted, err = legacyFromBase(ctx, o.legacy, o.base, b); err != nil {
			return nil, err
		}
	}
	if o.converted != "" {
		b, err := regularfile.ReadFile(o.converted)
		if err != nil {
			return nil, render.InvalidInput(errors.Wrapf(err, "cannot read converted composition %q", o.converted))
		}
		in.converted = verify.Document{Path: o.converted, Data: b}
	}
	if o.observed != "" {
		if in.observed, err = loadAll(o.observed, "observed composed resources"); err != nil {
			return nil, err
		}
	}
	if o.xrd != "" {
		if in.xrd, err = loadOne(o.xrd, "XRD"); err != nil {
			return nil, err
		}
	}

	// Examples beside the Composition when no sample source is given, and
	// its XRD when none was given and claims or --synthesize need one.
	abs, err := filepath.Abs(o.legacy)
	if err != nil {
		return nil, errors.Wrapf(err, "cannot resolve %q", o.legacy)
	}
	dir := strings.TrimPrefix(filepath.ToSlash(filepath.Dir(abs)), "/")

	var extraBesideSamples []manifest.Document
	if o.xr != "" {
		docs, err := manifest.LoadPath(o.xr)
		if err != nil {
			return nil, errors.Wrap(err, "cannot load sample XRs")
		}
		if in.xrd == nil && (o.synthesize > 0 || !onlyKinds(docs, sampleKinds(in.legacy, nil))) {
			if in.xrd, err = verify.FindXRD(o.rootFS(), dir, in.legacy); err != nil {
				return nil, err
			}
		}
		kinds := sampleKinds(in.legacy, in.xrd)
		for _, d := range docs {
			k, _ := d.Object["kind"].(string)
			if !kinds[k] {
				// Secrets and other objects next to the samples belong to
				// the cluster.
				extraBesideSamples = append(extraBesideSamples, d)
				continue
			}
			if reason := samples.NotASample(d.Object); reason != "" {
				in.skipped = append(in.skipped, verify.SkippedSample{Path: fmt.Sprintf("%s#%d", d.Source, d.Index+1), Reason: reason})
				continue
			}
			in.samples = append(in.samples, verify.Sample{
				Name:   fmt.Sprintf("%s#%d", d.Source, d.Index+1),
				Source: d.Source,
				Line:   d.Line,
				XR:     d.Object,
			})
		}
		if len(in.samples) == 0 {
			return nil, render.InvalidInputf("no XR or claim of the composition's kind in %q", o.xr)
		}
	} else {
		ex, err := verify.FindExamples(o.rootFS(), dir, in.legacy, in.xrd)
		if err != nil {
			return nil, err
		}
		in.xrd, in.samples, in.skipped = ex.XRD, ex.Samples, ex.Skipped
	}
	if in.extra, err = loadExtra(o.extra, extraBesideSamples); err != nil {
		return nil, err
	}
	if o.synthesize > 0 {
		syn, err := verify.Synthesize(in.xrd, in.legacy, o.synthesize)
		if err != nil {
			return nil, err
		}
		in.samples = append(in.samples, syn...)
	}
	return in, nil
}

// onlyKinds reports whether every document is of one of kinds.
func onlyKinds(docs []manifest.Document, kinds map[string]bool) bool {
	for _, d := range docs {
		if k, _ := d.Object["kind"].(string); !kinds[k] {
			return false
		}
	}
	return true
}

// sampleKinds are the kinds a sample may have: the Composition's XR kind,
// and the XRD's claim kind.
func sampleKinds(legacy verify.Document, xrd map[string]any) map[string]bool {
	out := map[string]bool{}
	for _, d := range manifest.Split(legacy.Data) {
		o, err := d.Decode()
		if err != nil || o == nil || o["kind"] != "Composition" {
			continue
		}
		if k := jsonobj.String(o, "spec", "compositeTypeRef", "kind"); k != "" {
			out[k] = true
		}
		break
	}
	if k := jsonobj.String(xrd, "spec", "claimNames", "kind"); k != "" {
		out[k] = true
	}
	return out
}

// isTerminal reports whether w is a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// legacyFromBase returns the legacy form at ref of the converted
// Composition in file (data), and the converted one.
func legacyFromBase(ctx context.Context, file, ref string, data []byte) (verify.Document, verify.Document, error) {
	converted := verify.Document{Path: file, Data: data}
	var name string
	for _, d := range manifest.Split(data) {
		obj, err := d.Decode()
		if err == nil && obj != nil && obj["kind"] == "Composition" {
			name = jsonobj.String(obj, "metadata", "name")
			break
		}
	}
	if name == "" {
		return verify.Document{}, verify.Document{}, render.InvalidInputf("%s: no Composition found", file)
	}
	doc, where, ok, err := migrate.LegacyAt(ctx, file, ref, name)
	var be *migrate.BaseError
	switch {
	case errors.As(err, &be):
		return verify.Document{}, verify.Document{}, usageError{err: err}
	case err != nil:
		return verify.Document{}, verify.Document{}, errors.Wrapf(err, "cannot read %s at %s", file, ref)
	case !ok:
		return verify.Document{}, verify.Document{}, render.InvalidInputf("no legacy (mode: Resources) Composition named %q at %s: nothing to verify %s against", name, ref, file)
	}
	return verify.Document{Path: where, Data: doc}, converted, nil
}

// rootFS returns the file system rooted at / that examples are read from:
// regular files only (a FIFO beside the Composition is not waited on).
func (o *verifyOptions) rootFS() fs.FS {
	if o.fsys != nil {
		return o.fsys
	}
	return regularfile.FS("/")
}
