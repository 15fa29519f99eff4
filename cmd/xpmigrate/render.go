package main

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/pkg/errors"
	"github.com/spf13/cobra"

	"github.com/xpmigrate/xpmigrate/internal/manifest"
	"github.com/xpmigrate/xpmigrate/internal/regularfile"
	"github.com/xpmigrate/xpmigrate/render"
	"github.com/xpmigrate/xpmigrate/render/engine"
	"github.com/xpmigrate/xpmigrate/render/pipeline"
)

type renderOptions struct {
	xr, composition, functions string

	observed, extra, credentials, xrd string
	contextFiles, contextValues       map[string]string

	includeResults, includeFullXR, includeContext, includeConnectionDetails bool

	timeout     time.Duration
	loops       int
	untilStable bool
	target      string
	profile     string
}

func newRenderCmd(s streams) *cobra.Command {
	o := &renderOptions{}
	cmd := &cobra.Command{
		Use:   "render <xr.yaml> <composition.yaml> [<functions.yaml|dir>]",
		Short: "Render a Composition, legacy or Pipeline, in process",
		Long: `Render one reconcile of a composite resource (XR) with a Composition and print
what it produces, in the format of crossplane render v1.20.11: the XR, the
composed resources sorted by composition resource name, then results and
context when asked for.

Legacy mode: Resources Compositions are rendered by an emulation of Crossplane's
native composer (v1.20.11, with the v1.17 composition environment); Pipeline
Compositions by an emulation of the function composer. function-patch-and-transform
and function-environment-configs run in process, so the Functions file is
optional. Any other function must be served locally: give it in the Functions
file with the annotation render.crossplane.io/runtime: Development (and
render.crossplane.io/runtime-development-target, default localhost:9443).
Docker is neither needed nor supported.

EnvironmentConfigs for both the native environment and function-environment-configs
come from --extra-resources.`,
		Example: `  # Render a legacy composition
  xpmigrate render xr.yaml composition.yaml

  # Render its pipeline twin with observed resources, results and context
  xpmigrate render xr.yaml pipeline.yaml -o observed/ -r -c

  # Simulate reconciles until nothing changes
  xpmigrate render xr.yaml composition.yaml -o observed.yaml --until-stable

  # Render for a claim
  xpmigrate render claim.yaml composition.yaml --xrd definition.yaml`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) < 2 || len(args) > 3 {
				return usageError{err: errors.Errorf("render takes 2 or 3 arguments (an XR, a Composition and optionally Functions), got %d", len(args))}
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			o.xr, o.composition = args[0], args[1]
			if len(args) == 3 {
				o.functions = args[2]
			}
			return runRender(cmd.Context(), s, o)
		},
	}
	f := cmd.Flags()
	f.StringVarP(&o.observed, "observed-resources", "o", "", "file or directory of observed composed resources")
	f.StringVarP(&o.extra, "extra-resources", "e", "", "file or directory of other cluster objects (EnvironmentConfigs, Secrets, anything functions require)")
	f.StringVar(&o.credentials, "function-credentials", "", "file or directory of Secrets for pipeline steps' credentials")
	f.StringVar(&o.xrd, "xrd", "", "the CompositeResourceDefinition; lets the first argument be a claim")
	f.StringToStringVar(&o.contextFiles, "context-files", nil, "seed context keys from JSON files (key=file,...)")
	f.StringToStringVar(&o.contextValues, "context-values", nil, "seed context keys with JSON values (key=value,...); wins over --context-files")
	f.BoolVarP(&o.includeResults, "include-function-results", "r", false, "print non-fatal function results as Result documents")
	f.BoolVarP(&o.includeFullXR, "include-full-xr", "x", false, "print the input XR's spec and metadata in the XR document")
	f.BoolVarP(&o.includeContext, "include-context", "c", false, "print the final pipeline context as a Context document")
	f.BoolVar(&o.includeConnectionDetails, "include-connection-details", false, "print the XR's connection details as the Secret Crossplane would publish")
	f.DurationVar(&o.timeout, "timeout", time.Minute, "how long the whole render may take (1s–24h)")
	f.IntVar(&o.loops, "loops", 1, "how many reconciles to simulate, feeding each one's composed resources back as observed (1–100)")
	f.BoolVar(&o.untilStable, "until-stable", false, fmt.Sprintf("reconcile until the output stops changing (at most %d times)", engine.MaxStableLoops))
	f.StringVar(&o.target, "target", "v1", "Crossplane line the pipeline side emulates: v1 (v1.20.11, function-environment-configs v0.6) or v2 (function-environment-configs v0.7)")
	f.StringVar(&o.profile, "profile", "crank-v1.20", "pipeline output profile: crank-v1.20 (as crossplane render prints) or reconciler (as the cluster would keep it)")
	return cmd
}

func runRender(ctx context.Context, s streams, o *renderOptions) error {
	if o.target != "v1" && o.target != "v2" {
		return usageError{err: errors.Errorf("--target must be v1 or v2, not %q", o.target)}
	}
	if err := firstError(
		inRange("loops", o.loops, 1, maxLoops),
		durationInRange("timeout", o.timeout, minTimeout, maxTimeout),
	); err != nil {
		return err
	}
	eo := engine.Options{Loops: o.loops, UntilStable: o.untilStable, Target: o.target}
	switch o.profile {
	case "crank-v1.20":
		eo.Profile = pipeline.CrankV120
	case "reconciler":
		eo.Profile = pipeline.Reconciler
	default:
		return usageError{err: errors.Errorf("--profile must be crank-v1.20 or reconciler, not %q", o.profile)}
	}

	req, err := loadRenderRequest(o)
	if err != nil {
		return inputExit(err)
	}

	ctx, cancel := context.WithTimeout(ctx, o.timeout)
	defer cancel()
	res, err := engine.Render(ctx, req, eo)
	if err != nil {
		var ie *render.InputError
		if errors.As(err, &ie) {
			return inputExit(err)
		}
		return errors.Wrap(err, "cannot render composite resource")
	}
	out := res.Outcome
	if o.includeFullXR {
		if err := render.IncludeFullXR(out, req.XR); err != nil {
			return inputExit(err)
		}
	}
	if o.loops > 1 || o.untilStable {
		switch {
		case o.untilStable && res.Stable:
			fmt.Fprintf(s.ErrOut, "stable after %d reconciles\n", res.Loops-1)
		case o.untilStable:
			fmt.Fprintf(s.ErrOut, "not stable after %d reconciles\n", res.Loops)
		default:
			fmt.Fprintf(s.ErrOut, "rendered %d reconciles\n", res.Loops)
		}
	}
	return render.Print(s.Out, out, render.PrintOptions{
		IncludeResults:           o.includeResults,
		IncludeContext:           o.includeContext,
		IncludeConnectionDetails: o.includeConnectionDetails,
	})
}

func loadRenderRequest(o *renderOptions) (engine.Request, error) {
	var req engine.Request
	xr, err := loadOne(o.xr, "composite resource")
	if err != nil {
		return req, err
	}
	req.XR = xr
	if req.Composition, err = loadOne(o.composition, "composition"); err != nil {
		return req, err
	}
	if o.functions != "" {
		if req.Functions, err = loadAll(o.functions, "functions"); err != nil {
			return req, err
		}
	}
	if o.observed != "" {
		if req.Observed, err = loadAll(o.observed, "observed composed resources"); err != nil {
			return req, err
		}
	}
	if o.extra != "" {
		if req.Extra, err = loadExtra(o.extra, nil); err != nil {
			return req, err
		}
	}
	if o.credentials != "" {
		if req.Credentials, err = loadAll(o.credentials, "function credentials"); err != nil {
			return req, err
		}
	}
	if o.xrd != "" {
		if req.XRD, err = loadOne(o.xrd, "XRD"); err != nil {
			return req, err
		}
	}
	values := map[string][]byte{}
	for k, path := range o.contextFiles {
		b, err := regularfile.ReadFile(path)
		if err != nil {
			return req, render.InvalidInput(errors.Wrapf(err, "cannot read context file for key %q", k))
		}
		values[k] = b
	}
	for k, v := range o.contextValues {
		values[k] = []byte(v)
	}
	if len(values) > 0 {
		if req.Context, err = pipeline.ContextFromJSON(values); err != nil {
			return req, render.InvalidInput(err)
		}
	}
	return req, nil
}

// loadOne reads the first object of a YAML file, as crossplane render does.
func loadOne(path, what string) (map[string]any, error) {
	docs, err := manifest.LoadFile(path)
	if err != nil {
		return nil, errors.Wrapf(err, "cannot load %s", what)
	}
	if len(docs) == 0 {
		return nil, render.InvalidInputf("cannot load %s: %q holds no YAML document", what, path)
	}
	return docs[0].Object, nil
}

func loadAll(path, what string) ([]map[string]any, error) {
	docs, err := manifest.LoadPath(path)
	if err != nil {
		return nil, errors.Wrapf(err, "cannot load %s from %q", what, path)
	}
	return manifest.Objects(docs), nil
}

// loadExtra reads the extra resources at path and appends them to more
// (extra objects read elsewhere): one copy of an EnvironmentConfig given
// in several API versions, and a conflict naming both files.
func loadExtra(path string, more []manifest.Document) ([]map[string]any, error) {
	var docs []manifest.Document
	if path != "" {
		var err error
		if docs, err = manifest.LoadPath(path); err != nil {
			return nil, errors.Wrapf(err, "cannot load extra resources from %q", path)
		}
	}
	objs, err := engine.DistinctExtra(append(docs, more...))
	if err != nil {
		return nil, errors.Wrap(err, "cannot load extra resources")
	}
	return objs, nil
}

// inputExit marks err as invalid input (exit 2).
func inputExit(err error) error {
	if strings.TrimSpace(err.Error()) == "" {
		return err
	}
	return exitCodeError{code: exitInvalid, err: err}
}
