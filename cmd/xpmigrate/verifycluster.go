package main

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/pkg/errors"
	"github.com/spf13/pflag"

	"github.com/xpmigrate/xpmigrate/convert/migrate"
	"github.com/xpmigrate/xpmigrate/internal/cluster"
	"github.com/xpmigrate/xpmigrate/internal/errkind"
	"github.com/xpmigrate/xpmigrate/internal/logsafe"
	"github.com/xpmigrate/xpmigrate/render/verify"
	"github.com/xpmigrate/xpmigrate/render/verify/format"
	"github.com/xpmigrate/xpmigrate/render/verify/live"
)

// clusterOptions are the flags of `verify --cluster`, bound to the
// reader's kubeconfig and options.
type clusterOptions struct {
	enabled     bool
	kubeconfig  cluster.Kubeconfig
	reader      cluster.Options
	maxResponse byteSize
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
	o.maxResponse = cluster.DefaultMaxResponseSize
	f.Var(&o.maxResponse, "max-response-size", "with --cluster: refuse a response of the API server larger than this: bytes, or with a Ki, Mi or Gi suffix (1Ki–16Gi)")
}

// validate rejects the cluster flags without --cluster, out-of-range values,
// and the flags of samples (incompatible) --cluster replaces.
func (o *clusterOptions) validate(f *pflag.FlagSet, samples ...string) error {
	clusterOnly := []string{"kubeconfig", "context", "namespace", "concurrency", "qps", "burst", "max-response-size"}
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
	if o.maxResponse < minMaxFileSize || o.maxResponse > maxMaxFileSize {
		return errkind.InvalidInputf("--max-response-size must be between 1Ki and 16Gi, not %s", o.maxResponse.String())
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
	pr := newClusterProgress(s)
	r, err := o.cluster.newReader(live.ReadsConnectionDetails(legacy), pr.Listed)
	if err != nil {
		return err
	}

	ctx, cancel := context.WithTimeout(ctx, o.timeout)
	defer cancel()
	lo := live.Options{Verify: o.verify, Progress: pr.Checked}
	lo.Verify.Convert = migrate.VerifyConverter
	pr.Start(legacy.Path)
	rep, err := live.Verify(ctx, r, legacy, converted, lo)
	pr.Finish()
	if err != nil {
		if errkind.IsInvalidInput(err) {
			return err
		}
		return errors.Wrap(err, "cannot verify against the cluster")
	}
	if err := live.WriteFormat(s.Out, []*live.Report{rep}, o.liveWrite(s, false)); err != nil {
		return errors.Wrap(err, "cannot write report")
	}
	if rep.Fails(o.requireVerified) {
		return errkind.Findings(nil)
	}
	return nil
}

// liveWrite are the options of the cluster report: the --format and
// --verbose flags, the terminal, --require-verified; list writes JSON as a
// list even of one report.
func (o *verifyOptions) liveWrite(s streams, list bool) live.FormatOptions {
	wo := live.FormatOptions{Options: o.write, RequireVerified: o.requireVerified, List: list}
	wo.TTY, wo.NoColor = s.OutTTY, s.NoColor
	return wo
}

// newReader reads the cluster the kubeconfig flags select; secrets says
// whether connection Secrets are read (as digests); listed, when not nil,
// is told how far the XRs are listed (a progress bar's total).
func (o *clusterOptions) newReader(secrets bool, listed func(cluster.Listing)) (*cluster.Reader, error) {
	cfg, _, err := cluster.LoadConfig(o.kubeconfig)
	if err != nil {
		return nil, errkind.InvalidInput(err)
	}
	ro := o.reader
	ro.ConnectionSecrets, ro.Listed = secrets, listed
	ro.MaxResponseSize = int64(o.maxResponse)
	return cluster.NewReader(cfg, ro)
}

// clusterCheck are the options of migrate --cluster's check: the
// cluster's Functions, then the live check of every legacy Composition
// the run converted, its legacy and converted documents as the run kept
// them, with a progress bar.
func (o *migrateOptions) clusterCheck(s streams) (*migrate.ClusterOptions, error) {
	rd, err := o.cluster.newReader(false, nil)
	if err != nil {
		return nil, err
	}
	pr := newClusterProgress(s)
	co := &migrate.ClusterOptions{
		Functions: rd,
		Open:      func(secrets bool) (live.Cluster, error) { return o.cluster.newReader(secrets, pr.Listed) },
		Live:      live.Options{Verify: verify.Options{Accept: o.run.Accept, Convert: migrate.VerifyConverter}, Progress: pr.Checked},
		Timeout:   o.timeout,
		Done:      pr.Finish,
		Log:       s.ErrOut,
	}
	co.Live.Verify.Target = o.run.Target
	return co, nil
}

// writeMigratedText writes the cluster reports of migrate --cluster as
// text on stdout, after the run's own output.
func writeMigratedText(s streams, reports []*live.Report) error {
	if len(reports) == 0 {
		fmt.Fprintln(s.Out, "cluster: no converted legacy Composition to check against the cluster")
		return nil
	}
	if err := live.Write(s.Out, reports, format.Options{Format: format.Text, TTY: s.OutTTY, NoColor: s.NoColor}); err != nil {
		return errors.Wrap(err, "cannot write the cluster report")
	}
	return nil
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
	lister, err := o.cluster.newReader(false, nil)
	if err != nil {
		return err
	}
	pr := newClusterProgress(s)
	so := live.StoredOptions{
		Options: live.Options{Verify: o.verify, Progress: pr.Checked},
		Names:   names,
		Skipped: func(sk live.Skipped) { logsafe.Fprintf(s.ErrOut, "skipped Composition %s: %s\n", sk.Name, sk.Reason) },
		Start:   pr.Start,
		Finish:  pr.Finish,
	}
	so.Verify.Convert = migrate.VerifyConverter
	open := func(secrets bool) (live.Cluster, error) { return o.cluster.newReader(secrets, pr.Listed) }
	res, err := live.VerifyStored(ctx, lister, open, so)
	if err != nil {
		return err
	}
	if len(res.Reports) == 0 {
		fmt.Fprintln(s.ErrOut, "no legacy Composition in the cluster to check")
	}
	if err := live.WriteFormat(s.Out, res.Reports, o.liveWrite(s, true)); err != nil {
		return errors.Wrap(err, "cannot write report")
	}
	return res.Err(o.requireVerified)
}
