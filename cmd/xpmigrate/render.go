package main

import (
	"context"
	"fmt"
	"time"

	"github.com/pkg/errors"
	"github.com/spf13/cobra"

	"github.com/xpmigrate/xpmigrate/internal/crossplane"
	"github.com/xpmigrate/xpmigrate/internal/errkind"
	"github.com/xpmigrate/xpmigrate/render"
	"github.com/xpmigrate/xpmigrate/render/engine"
	"github.com/xpmigrate/xpmigrate/render/pipeline"
)

// renderOptions are the flags of `xpmigrate render`, bound to the
// engine's sources and options and to render.Print's.
type renderOptions struct {
	src           engine.Sources
	engine        engine.Options
	print         render.PrintOptions
	includeFullXR bool
	timeout       time.Duration
}

func newRenderCmd(s streams) *cobra.Command {
	o := &renderOptions{}
	cmd := &cobra.Command{
		Use:   "render <xr.yaml> <composition.yaml> [<functions.yaml|dir>]",
		Short: "Render a Composition, legacy or Pipeline, in process",
		Long: `Render one reconcile of a composite resource (XR) with a Composition, legacy
(mode: Resources) or Pipeline, in process, and print what it produces in the
format of crossplane render v1.20.11: the XR, the composed resources sorted
by composition resource name, then results (-r) and context (-c).

function-patch-and-transform and function-environment-configs run in
process; any other function must be served locally (the Functions file,
render.crossplane.io/runtime: Development). Docker is not used.
EnvironmentConfigs come from --extra-resources. The XR file holds one
document, or is named file.yaml#N for its Nth; with --xrd it may be a claim.

Exit codes: 0 rendered; 1 the render failed; 2 invalid input or usage.

In detail (inputs, output, profiles, functions): docs/render.md.`,
		Example: `  # Render a legacy composition
  xpmigrate render xr.yaml composition.yaml

  # Render its pipeline twin with observed resources, results and context
  xpmigrate render xr.yaml pipeline.yaml -o observed/ -r -c

  # Simulate reconciles until nothing changes
  xpmigrate render xr.yaml composition.yaml -o observed.yaml --until-stable

  # Render for a claim
  xpmigrate render claim.yaml composition.yaml --xrd definition.yaml

  # Render the second document of a file, as verify names it
  xpmigrate render examples/xrs.yaml#2 composition.yaml`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) < 2 || len(args) > 3 {
				return errkind.InvalidInputf("render takes 2 or 3 arguments (an XR, a Composition and optionally Functions), got %d", len(args))
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			o.src.XR, o.src.Composition = args[0], args[1]
			if len(args) == 3 {
				o.src.Functions = args[2]
			}
			return runRender(cmd.Context(), s, o)
		},
	}
	f := cmd.Flags()
	f.StringVarP(&o.src.Observed, "observed-resources", "o", "", "file or directory of observed composed resources")
	f.StringVarP(&o.src.Extra, "extra-resources", "e", "", "file or directory of other cluster objects (EnvironmentConfigs, Secrets, anything functions require)")
	f.StringVar(&o.src.Credentials, "function-credentials", "", "file or directory of Secrets for pipeline steps' credentials")
	f.StringVar(&o.src.XRD, "xrd", "", "the CompositeResourceDefinition; lets the first argument be a claim")
	f.StringToStringVar(&o.src.ContextFiles, "context-files", nil, "seed context keys from JSON files (key=file,...)")
	f.StringToStringVar(&o.src.ContextValues, "context-values", nil, "seed context keys with JSON values (key=value,...); wins over --context-files")
	f.BoolVarP(&o.print.IncludeResults, "include-function-results", "r", false, "print non-fatal function results as Result documents")
	f.BoolVarP(&o.includeFullXR, "include-full-xr", "x", false, "print the input XR's spec and metadata in the XR document (for a claim, the XR created from it)")
	f.BoolVarP(&o.print.IncludeContext, "include-context", "c", false, "print the final pipeline context as a Context document")
	f.BoolVar(&o.print.IncludeConnectionDetails, "include-connection-details", false, "print the XR's connection details as the Secret Crossplane would publish")
	f.DurationVar(&o.timeout, "timeout", time.Minute, "how long the whole render may take (1s–24h)")
	f.IntVar(&o.engine.Loops, "loops", 1, "how many reconciles to simulate, feeding each one's composed resources back as observed (1–100)")
	f.BoolVar(&o.engine.UntilStable, "until-stable", false, fmt.Sprintf("reconcile until the output stops changing (at most %d times)", engine.MaxStableLoops))
	stringEnumFlag(f, &o.engine.Target, "target", crossplane.V1, "Crossplane line the pipeline side emulates: v1 (v1.20.11, function-environment-configs v0.6) or v2 (function-environment-configs v0.7)", crossplane.Targets...)
	enumFlag(f, &o.engine.Profile, "profile", "", pipeline.CrankV120, "pipeline output profile: crank-v1.20 (as crossplane render prints) or reconciler (as the cluster would keep it)",
		[]string{pipeline.CrankV120.String(), pipeline.Reconciler.String()}, []pipeline.Profile{pipeline.CrankV120, pipeline.Reconciler})
	return cmd
}

func runRender(ctx context.Context, s streams, o *renderOptions) error {
	if err := firstError(
		inRange("loops", o.engine.Loops, 1, maxLoops),
		durationInRange("timeout", o.timeout, minTimeout, maxTimeout),
	); err != nil {
		return err
	}
	req, err := engine.LoadRequest(o.src)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, o.timeout)
	defer cancel()
	res, err := engine.Render(ctx, req, o.engine)
	if err != nil {
		if errkind.IsInvalidInput(err) {
			return err
		}
		return errors.Wrap(err, "cannot render composite resource")
	}
	if o.includeFullXR {
		// A claim's XR is the one the claim controller creates: its
		// generated name, no namespace, spec.claimRef.
		xr, err := engine.CompositeOf(req.XR, req.XRD)
		if err != nil {
			return errkind.InvalidInput(err)
		}
		if err := render.IncludeFullXR(res.Outcome, xr); err != nil {
			return errkind.InvalidInput(err)
		}
	}
	switch {
	case o.engine.UntilStable && res.Stable:
		fmt.Fprintf(s.ErrOut, "stable after %d reconciles\n", res.Loops-1)
	case o.engine.UntilStable:
		fmt.Fprintf(s.ErrOut, "not stable after %d reconciles\n", res.Loops)
	case o.engine.Loops > 1:
		fmt.Fprintf(s.ErrOut, "rendered %d reconciles\n", res.Loops)
	}
	return render.Print(s.Out, res.Outcome, o.print)
}
