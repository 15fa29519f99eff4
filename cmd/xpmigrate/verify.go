package main

import (
	"context"
	"time"

	"github.com/pkg/errors"
	"github.com/spf13/cobra"

	"github.com/xpmigrate/xpmigrate/convert/migrate"
	"github.com/xpmigrate/xpmigrate/internal/crossplane"
	"github.com/xpmigrate/xpmigrate/internal/errkind"
	"github.com/xpmigrate/xpmigrate/internal/logsafe"
	"github.com/xpmigrate/xpmigrate/render/verify"
	"github.com/xpmigrate/xpmigrate/render/verify/format"
	"github.com/xpmigrate/xpmigrate/render/verify/live"
)

// verifyOptions are the flags of `xpmigrate verify`, bound to verify's
// sources and options.
type verifyOptions struct {
	src             verify.Sources
	verify          verify.Options
	write           format.Options
	base            string
	requireVerified bool
	timeout         time.Duration
	cluster         clusterOptions
	fromCluster     bool
}

func newVerifyCmd(s streams) *cobra.Command {
	o := &verifyOptions{}
	cmd := &cobra.Command{
		Use:   "verify {<legacy-composition.yaml> | --cluster --from-cluster [NAME...]}",
		Short: "Prove a converted Composition composes what the legacy one did",
		Long: `Render the legacy (mode: Resources) Composition and its converted (mode:
Pipeline) form in process, for each sample XR and several reconciles, and
compare the composed resources, the XR, its connection details and readiness.
Each sample gets a verdict: equivalent, known-gaps, equivalent-up-to-mapping
(--target v2), intended-change, different or inconclusive.

Samples come from --xr (or the examples in the tree around the Composition),
or --synthesize N generates them from the XRD; --converted is the converted
Composition (converted on the fly when absent); --base REF verifies a
converted Composition against its legacy form at a git revision.
--accept CODES accepts breaking gaps, --strict fails on every known gap,
--require-verified (for CI) fails inconclusive samples and unverified
Compositions.

<<<<<<< HEAD
  equivalent       no difference, or only benign known gaps (lags the next
                   reconcile catches up on, bookkeeping nothing reads), shown
                   as info
  known-gaps       a breaking known gap (a D-code of docs/reference/gaps.md, with
                   the converter's codes, why and the fix): the steady state
                   differs in a way xpmigrate understands; it fails unless its
                   code is accepted (--accept D21,D30, or the annotation
                   xpmigrate.io/accept-gaps on either Composition)
  equivalent-up-to-mapping
                   (--target v2, a v2-native Composition) every other
                   difference is a declared v2 edit (see below), listed under
                   its C-code
  intended-change  a legacy quirk the converter fixed because you asked it
                   to (its C-code is declared in the converted Composition's
                   xpmigrate.io/intended-changes annotation)
  different        a difference nothing explains: a bug in the conversion;
                   always fails
  inconclusive     both sides failed to render the sample; nothing was
                   proven; both errors and the input that is probably
                   missing are shown
=======
--cluster checks against the live XRs of the cluster the kubeconfig selects
(get and list only), with three checks per XR: emulation, conversion, drift.
--from-cluster takes the legacy Compositions from the cluster too.
>>>>>>> h-cmdloops

Exit status: 0 verified; 1 error; 2 invalid input; 3 a difference or gap
that fails (see --strict, --require-verified).

Verdicts, the v2 mapping, the cluster checks and their reports in detail:
docs/verify.md.`,
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
  xpmigrate verify composition.yaml --converted pipeline.yaml --xr examples/ --format junit > verify.xml

  # A v2-native conversion (convert --target v2), up to its declared mapping
  xpmigrate verify composition.yaml --converted v2/composition.yaml --target v2 \
    --xr claim.yaml --xrd definition.yaml

  # Prove it on every XR of the cluster before upgrading (read-only)
  xpmigrate verify composition.yaml --converted pipeline.yaml --cluster --context prod
  xpmigrate verify composition.yaml --cluster -n team-a --format json > live.json
  xpmigrate verify composition.yaml --cluster --format html > live.html

  # Every legacy Composition the cluster holds, or those named
  xpmigrate verify --cluster --from-cluster --context prod
  xpmigrate verify --cluster --from-cluster xpostgres.example.org --format json
  xpmigrate verify --cluster --from-cluster --format markdown >> "$GITHUB_STEP_SUMMARY"`,
		Args: func(_ *cobra.Command, args []string) error {
			if o.fromCluster {
				return fromClusterArgs(args)
			}
			if len(args) != 1 {
				return errkind.InvalidInputf("verify takes 1 argument (the legacy Composition), got %d", len(args))
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if o.fromCluster && !o.cluster.enabled {
				return errkind.InvalidInputf("--from-cluster needs --cluster: it reads the Compositions from the cluster the kubeconfig selects")
			}
			if o.fromCluster && cmd.Flags().Changed("converted") {
				return errkind.InvalidInputf("--converted cannot be used with --from-cluster: each Composition of the cluster is converted on the fly")
			}
			if err := o.cluster.validate(cmd.Flags(), "xr", "observed-resources", "extra-resources", "synthesize", "base", "xrd"); err != nil {
				return err
			}
			if !o.cluster.enabled && (o.write.Format == live.Markdown || o.write.Format == live.HTML) {
				return errkind.InvalidInputf("--format %s needs --cluster: verify writes text, json, junit, sarif or github", o.write.Format)
			}
			if o.cluster.enabled {
				if err := firstError(inRange("loops", o.verify.Loops, 0, maxLoops), durationInRange("timeout", o.timeout, minTimeout, maxTimeout)); err != nil {
					return err
				}
				if o.fromCluster {
					return runVerifyFromCluster(cmd.Context(), s, o, args)
				}
				o.src.Legacy = args[0]
				return runVerifyCluster(cmd.Context(), s, o)
			}
			o.src.Legacy = args[0]
			return runVerify(cmd.Context(), s, o)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.base, "base", "", "git revision to read the legacy Composition from: the argument is then the converted (mode: Pipeline) Composition, verified against the legacy Composition of the same name at that revision")
	f.StringVar(&o.src.Converted, "converted", "", "the converted (mode: Pipeline) Composition; when absent, converted on the fly exactly as convert --xrd and migrate would (with the XRD given, found beside the Composition, or with --cluster the cluster's)")
	f.StringVar(&o.src.XR, "xr", "", "file or directory of sample XRs (or claims, with --xrd); when absent, the examples migrate would use, found in the tree around the Composition (the directory above it holding .git or crossplane.yaml)")
	f.StringVarP(&o.src.Observed, "observed-resources", "o", "", "file or directory of observed composed resources")
	f.StringVarP(&o.src.Extra, "extra-resources", "e", "", "file or directory of other cluster objects (EnvironmentConfigs, Secrets)")
	f.StringVar(&o.src.XRD, "xrd", "", "the CompositeResourceDefinition (claims, --synthesize, the on-the-fly conversion); found beside the Composition when absent")
	f.IntVar(&o.src.Synthesize, "synthesize", 0, "generate N sample XRs from the XRD's schema (0–1000)")
	f.IntVar(&o.verify.Loops, "loops", 0, "reconciles to simulate (0: until both sides are stable; at most 100)")
	stringEnumFlag(f, &o.write.Format, "format", format.Text, "output format: text, json, junit, sarif or github; with --cluster also markdown or html (a self-contained page)", live.Formats...)
	f.BoolVar(&o.verify.Strict, "strict", false, "fail on every known gap that persists, benign or accepted ones too, not only on unexplained differences and breaking gaps")
	f.BoolVar(&o.requireVerified, "require-verified", false, "fail (exit 3) when a sample is inconclusive or the Composition is unverified (use in CI)")
	f.StringSliceVar(&o.verify.Accept, "accept", nil, "breaking gap codes to accept, so they are reported but do not fail (e.g. D21,D30); repeatable")
	f.BoolVarP(&o.write.Verbose, "verbose", "v", false, "text output: show benign differences in full and list every patch no sample exercised")
	stringEnumFlag(f, &o.verify.Target, "target", crossplane.V1, "Crossplane line the pipeline side emulates: v1 (1.18-1.20) or v2", crossplane.Targets...)
	stringEnumFlag(f, &o.verify.EnvironmentFunction, "environment-function", "", "function-environment-configs release the pipeline runs: v0.6 or v0.7 (default: paired with --target)", "", "v0.6", "v0.7")
	f.DurationVar(&o.timeout, "timeout", 5*time.Minute, "how long verification may take (1s–24h)")
	addClusterFlags(f, &o.cluster, "verify against the live XRs that run the Composition in the cluster the kubeconfig selects (get and list only), with their composed resources as observed state")
	f.BoolVar(&o.fromCluster, "from-cluster", false, "with --cluster: check the legacy Compositions stored in the cluster (those the arguments name, or all), converted on the fly, instead of a file")
	return cmd
}

func runVerify(ctx context.Context, s streams, o *verifyOptions) error {
	if err := firstError(
		inRange("loops", o.verify.Loops, 0, maxLoops),
		inRange("synthesize", o.src.Synthesize, 0, maxSynthesize),
		durationInRange("timeout", o.timeout, minTimeout, maxTimeout),
	); err != nil {
		return err
	}
	if o.base != "" && o.src.Converted != "" {
		return errkind.InvalidInputf("--base reads the legacy Composition from git and takes the converted one as the argument: drop --converted")
	}
	if o.base != "" {
		o.src.FromBase = func(ctx context.Context, file string, data []byte) (verify.Document, verify.Document, error) {
			return migrate.LegacyFromBase(ctx, o.base, file, data)
		}
	}
	in, err := verify.Load(ctx, o.src)
	if err != nil {
		return err
	}
	for _, sk := range in.Skipped {
		logsafe.Fprintf(s.ErrOut, "skipped %s: %s\n", sk.Path, sk.Reason)
	}

	ctx, cancel := context.WithTimeout(ctx, o.timeout)
	defer cancel()
	vo := o.verify
	vo.Observed, vo.Extra, vo.XRD = in.Observed, in.Extra, in.XRD
	// Converted on the fly by xpmigrate's converter when no converted
	// Composition is given.
	vo.Convert = migrate.VerifyConverter
	rep, err := verify.Verify(ctx, in.Legacy, in.Converted, in.Samples, vo)
	if err != nil {
		if errkind.IsInvalidInput(err) {
			return err
		}
		return errors.Wrap(err, "cannot verify")
	}
	wo := o.write
	wo.TTY, wo.NoColor = s.OutTTY, s.NoColor
	if err := format.Write(s.Out, rep, wo); err != nil {
		return errors.Wrap(err, "cannot write report")
	}
	if rep.Fails(o.requireVerified) {
		return errkind.Findings(nil)
	}
	return nil
}
