package main

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/pkg/errors"
	"github.com/spf13/pflag"

	"github.com/xpmigrate/xpmigrate/convert/migrate"
	"github.com/xpmigrate/xpmigrate/internal/errkind"
	"github.com/xpmigrate/xpmigrate/render/cluster"
	"github.com/xpmigrate/xpmigrate/render/verify"
	"github.com/xpmigrate/xpmigrate/render/verify/format"
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

func addClusterFlags(f *pflag.FlagSet, o *clusterOptions, usage string) {
	f.BoolVar(&o.enabled, "cluster", false, usage)
	f.StringVar(&o.kubeconfig.Path, "kubeconfig", "", "with --cluster: the kubeconfig file (default: $KUBECONFIG, then ~/.kube/config, then in-cluster)")
	f.StringVar(&o.kubeconfig.Context, "context", "", "with --cluster: the kubeconfig context (default: the current context)")
	f.StringVarP(&o.reader.Namespace, "namespace", "n", "", "with --cluster: only the XRs whose claim is in this namespace (default: every XR)")
	f.IntVar(&o.reader.Concurrency, "concurrency", cluster.DefaultConcurrency, "with --cluster: XRs fetched at once (1-64)")
	f.Float32Var(&o.reader.QPS, "qps", cluster.DefaultQPS, "with --cluster: client-side rate limit, requests per second (1-10000)")
	f.IntVar(&o.reader.Burst, "burst", cluster.DefaultBurst, "with --cluster: burst of the client-side rate limit (1-10000)")
}

// validate rejects the cluster flags without --cluster, out-of-range values,
// and the flags of samples (incompatible) --cluster replaces.
func (o *clusterOptions) validate(f *pflag.FlagSet, samples ...string) error {
	clusterOnly := []string{"kubeconfig", "context", "namespace", "concurrency", "qps", "burst"}
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
	legacy, converted, err := verify.LoadCompositions(ctx, verify.Sources{Legacy: o.src.Legacy, Converted: o.src.Converted})
	if err != nil {
		return err
	}
	r, err := o.cluster.newReader(live.ReadsConnectionDetails(legacy))
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

// newReader reads the cluster the kubeconfig flags select; secrets says
// whether connection Secrets are read (as digests).
func (o *clusterOptions) newReader(secrets bool) (*cluster.Reader, error) {
	cfg, _, err := cluster.LoadConfig(o.kubeconfig)
	if err != nil {
		return nil, errkind.InvalidInput(err)
	}
	ro := o.reader
	ro.ConnectionSecrets = secrets
	return cluster.NewReader(cfg, ro)
}

// verifyMigrated runs the live check for every legacy Composition a
// migrate run converted, its legacy and converted documents as the run
// kept them, and writes the reports (text) after the run's own output.
// It reports whether a check fails.
func verifyMigrated(ctx context.Context, s streams, o *migrateOptions, res *migrate.Result) (bool, error) {
	lo := live.Options{Verify: verify.Options{Accept: o.run.Accept, Convert: migrate.VerifyConverter}}
	lo.Verify.Target = o.convert.Target
	reports, err := live.Migrated(ctx, res, func(secrets bool) (live.Cluster, error) { return o.cluster.newReader(secrets) }, lo)
	if err != nil {
		return false, err
	}
	if len(reports) == 0 {
		fmt.Fprintln(s.Out, "cluster: no converted legacy Composition to check against the cluster")
		return false, nil
	}
	if err := live.Write(s.Out, reports, format.Options{Format: format.Text, TTY: s.OutTTY, NoColor: s.NoColor}); err != nil {
		return false, errors.Wrap(err, "cannot write the cluster report")
	}
	for _, rep := range reports {
		if rep.Fails(o.requireVerified) {
			return true, nil
		}
	}
	return false, nil
}

// fromClusterArgs rejects files among the arguments of --from-cluster,
// which names Compositions of the cluster.
func fromClusterArgs(args []string) error {
	for _, a := range args {
		_, statErr := os.Stat(a)
		if statErr == nil || strings.ContainsRune(a, os.PathSeparator) || strings.ContainsRune(a, '/') ||
			strings.HasSuffix(a, ".yaml") || strings.HasSuffix(a, ".yml") || strings.HasSuffix(a, ".json") {
			return errkind.InvalidInputf("--from-cluster reads the Compositions from the cluster: its arguments name Compositions, not files (%q); drop --from-cluster to verify a file", a)
		}
	}
	return nil
}

// runVerifyFromCluster checks the legacy Compositions stored in the cluster
// (those named, or all), each converted on the fly, against their XRs,
// and writes one report per Composition.
func runVerifyFromCluster(ctx context.Context, s streams, o *verifyOptions, names []string) error {
	ctx, cancel := context.WithTimeout(ctx, o.timeout)
	defer cancel()
	lister, err := o.cluster.newReader(false)
	if err != nil {
		return err
	}
	comps, err := lister.Compositions(ctx)
	if err != nil {
		return errors.Wrap(err, "cannot read the cluster's Compositions")
	}
	if m := lister.Missing(); len(m) > 0 {
		return errors.Errorf("cannot read the cluster's Compositions: missing permission %s", m[0])
	}
	docs, skipped, err := live.FromCluster(comps, names)
	if err != nil {
		return err
	}
	for _, sk := range skipped {
		fmt.Fprintf(s.ErrOut, "skipped Composition %s: %s\n", sk.Name, sk.Reason)
	}
	if len(docs) == 0 {
		fmt.Fprintln(s.ErrOut, "no legacy Composition in the cluster to check")
	}
	secrets := false
	for _, d := range docs {
		secrets = secrets || live.ReadsConnectionDetails(d)
	}
	r, err := o.cluster.newReader(secrets)
	if err != nil {
		return err
	}
	lo := live.Options{Verify: o.verify}
	lo.Verify.Convert = migrate.VerifyConverter
	reports := make([]*live.Report, 0, len(docs))
	// A Composition that cannot be checked (one that cannot be converted,
	// say) gets a report saying why, and the others are still checked; the
	// run fails at the end. A cancelled or timed-out run stops.
	var unchecked []string
	for _, d := range docs {
		if s.ErrTTY {
			path := d.Path
			lo.Progress = func(n int) { fmt.Fprintf(s.ErrOut, "\r%s: checked %d XRs", path, n) }
		}
		rep, err := live.Verify(ctx, r, d, verify.Document{}, lo)
		if s.ErrTTY && rep != nil && rep.XRs > 0 {
			fmt.Fprintln(s.ErrOut)
		}
		if err != nil && ctx.Err() != nil {
			return errors.Wrapf(err, "cannot verify %s against the cluster", d.Path)
		}
		if err != nil {
			rep = live.Unchecked(d, err)
			unchecked = append(unchecked, rep.Composition)
		}
		reports = append(reports, rep)
	}
	wo := o.write
	wo.TTY, wo.NoColor = s.OutTTY, s.NoColor
	if err := live.WriteList(s.Out, reports, wo); err != nil {
		return errors.Wrap(err, "cannot write report")
	}
	if len(unchecked) > 0 {
		return errors.Errorf("cannot verify %d of %d Compositions against the cluster: %s (see their reports)", len(unchecked), len(reports), strings.Join(unchecked, ", "))
	}
	for _, rep := range reports {
		if rep.Fails(o.requireVerified) {
			return errkind.Findings(nil)
		}
	}
	return nil
}
