package main

import (
	"context"
	"fmt"

	"github.com/pkg/errors"
	"github.com/spf13/pflag"

	"github.com/xpmigrate/xpmigrate/convert/migrate"
	"github.com/xpmigrate/xpmigrate/internal/errkind"
	"github.com/xpmigrate/xpmigrate/internal/regularfile"
	"github.com/xpmigrate/xpmigrate/render/cluster"
	"github.com/xpmigrate/xpmigrate/render/verify"
	"github.com/xpmigrate/xpmigrate/render/verify/live"
)

// clusterOptions are the flags of `verify --cluster`, bound to the
// reader's kubeconfig and options.
type clusterOptions struct {
	enabled    bool
	kubeconfig cluster.Kubeconfig
	reader     cluster.Options
}

// Bounds of the reader's flags.
const (
	maxConcurrency = 64
	maxQPS         = 10000
)

func addClusterFlags(f *pflag.FlagSet, o *clusterOptions) {
	f.BoolVar(&o.enabled, "cluster", false, "verify against the live XRs that run the Composition in the cluster the kubeconfig selects (get and list only), with their composed resources as observed state")
	f.StringVar(&o.kubeconfig.Path, "kubeconfig", "", "with --cluster: the kubeconfig file (default: $KUBECONFIG, then ~/.kube/config, then in-cluster)")
	f.StringVar(&o.kubeconfig.Context, "context", "", "with --cluster: the kubeconfig context (default: the current context)")
	f.StringVarP(&o.reader.Namespace, "namespace", "n", "", "with --cluster: only the XRs whose claim is in this namespace (default: every XR)")
	f.IntVar(&o.reader.Concurrency, "concurrency", cluster.DefaultConcurrency, "with --cluster: XRs fetched at once (1-64)")
	f.Float32Var(&o.reader.QPS, "qps", cluster.DefaultQPS, "with --cluster: client-side rate limit, requests per second (1-10000)")
	f.IntVar(&o.reader.Burst, "burst", cluster.DefaultBurst, "with --cluster: burst of the client-side rate limit (1-10000)")
}

// validate rejects the cluster flags without --cluster, out-of-range values,
// and the sample flags --cluster replaces.
func (o *clusterOptions) validate(f *pflag.FlagSet) error {
	clusterOnly := []string{"kubeconfig", "context", "namespace", "concurrency", "qps", "burst"}
	samples := []string{"xr", "observed-resources", "extra-resources", "synthesize", "base", "xrd"}
	if !o.enabled {
		for _, n := range clusterOnly {
			if f.Changed(n) {
				return errkind.InvalidInputf("--%s needs --cluster", n)
			}
		}
		return nil
	}
	for _, n := range samples {
		if f.Changed(n) {
			return errkind.InvalidInputf("--%s cannot be used with --cluster: the samples, observed resources and EnvironmentConfigs come from the cluster", n)
		}
	}
	if o.reader.QPS < 1 || o.reader.QPS > maxQPS {
		return errkind.InvalidInputf("--qps must be between 1 and %d, not %g", maxQPS, o.reader.QPS)
	}
	return firstError(
		inRange("concurrency", o.reader.Concurrency, 1, maxConcurrency),
		inRange("burst", o.reader.Burst, 1, maxQPS),
	)
}

func runVerifyCluster(ctx context.Context, s streams, o *verifyOptions) error {
	b, err := regularfile.ReadFile(o.src.Legacy)
	if err != nil {
		return errkind.InvalidInput(errors.Wrapf(err, "cannot read legacy composition %q", o.src.Legacy))
	}
	legacy := verify.Document{Path: o.src.Legacy, Data: b}
	var converted verify.Document
	if o.src.Converted != "" {
		cb, err := regularfile.ReadFile(o.src.Converted)
		if err != nil {
			return errkind.InvalidInput(errors.Wrapf(err, "cannot read converted composition %q", o.src.Converted))
		}
		converted = verify.Document{Path: o.src.Converted, Data: cb}
	}
	cfg, _, err := cluster.LoadConfig(o.cluster.kubeconfig)
	if err != nil {
		return errkind.InvalidInput(err)
	}
	ro := o.cluster.reader
	ro.ConnectionSecrets = live.ReadsConnectionDetails(legacy)
	r, err := cluster.NewReader(cfg, ro)
	if err != nil {
		return err
	}

	ctx, cancel := context.WithTimeout(ctx, o.timeout)
	defer cancel()
	lo := live.Options{Verify: o.verify}
	lo.Verify.Convert = migrate.VerifyConverter
	if s.ErrTTY {
		lo.Progress = func(n int) { fmt.Fprintf(s.ErrOut, "\rchecked %d XRs", n) }
	}
	rep, err := live.Verify(ctx, r, legacy, converted, lo)
	if s.ErrTTY && rep != nil && rep.XRs > 0 {
		fmt.Fprintln(s.ErrOut)
	}
	if err != nil {
		if errkind.IsInvalidInput(err) {
			return err
		}
		return errors.Wrap(err, "cannot verify against the cluster")
	}
	wo := o.write
	wo.TTY, wo.NoColor = s.OutTTY, s.NoColor
	if err := live.Write(s.Out, []*live.Report{rep}, wo); err != nil {
		return errors.Wrap(err, "cannot write report")
	}
	if rep.Fails(o.requireVerified) {
		return errkind.Findings(nil)
	}
	return nil
}
