package migrate

import (
	"context"
	"fmt"
	"io"
	"path"
	"time"

	"github.com/pkg/errors"

	"github.com/xpmigrate/xpmigrate/internal/cluster"
	"github.com/xpmigrate/xpmigrate/internal/errkind"
	"github.com/xpmigrate/xpmigrate/render/verify/live"
)

// An Execution says how Execute ends a run: how long a cancelled run may
// take, the cluster check, and where the outputs go.
type Execution struct {
	// Grace is how long a cancelled run may take to finish the files in
	// progress (RunWithin).
	Grace time.Duration

	// RequireVerified fails the run when it is not proven safe to merge,
	// and the cluster check when a Report fails with it (see
	// live.Report.Fails).
	RequireVerified bool

	// Cluster, when not nil, checks the run against a cluster (migrate
	// --cluster).
	Cluster *ClusterOptions

	// Write writes the run's outputs (its reports, diffs and summary).
	// cluster is the cluster check, nil when there is none: no Cluster,
	// a run that failed, or a check that failed (its error is returned
	// after the outputs are written).
	Write func(res *Result, cluster *ClusterCheck) error
}

// ClusterOptions are those of a run's cluster check.
type ClusterOptions struct {
	// Functions, when not nil, lists the cluster's Functions before the
	// run: functionRefs and pins are checked against them as well as
	// against the tree's (Options.ClusterFunctions).
	Functions FunctionLister

	// Open opens the cluster the live check reads (see CheckCluster).
	Open func(secrets bool) (live.Cluster, error)

	// Live are the options of each Composition's check.
	Live live.Options

	// Timeout bounds the listing of the Functions and, separately, the
	// live check; none when zero.
	Timeout time.Duration

	// Done, when set, is called once the live check ends, before the
	// outputs are written (a progress display finishes).
	Done func()

	// Log, when set, is told what the check has to leave out (stderr).
	Log io.Writer
}

// A FunctionLister lists the Functions of a cluster: a cluster.Reader.
// ok is false when they cannot be listed (not served, or forbidden).
type FunctionLister interface {
	Functions(ctx context.Context) (fns []cluster.Function, ok bool, err error)
}

// A ClusterCheck is the live check of the Compositions a run converted:
// one Report per Composition, in the run's order (CheckCluster), and the
// section they add to the run's reports.
type ClusterCheck struct {
	Reports []*live.Report
	Section *live.Section
}

// Execute is `xpmigrate migrate` once its flags are read: it lists the
// cluster's Functions (with x.Cluster), runs the migration (RunWithin),
// checks the Compositions it converted against the cluster (when the run
// passed), has x.Write write the outputs, and returns how the run ends:
// the run's error (Result.Err), else the cluster check's, else a findings
// error (errkind) when a cluster Report fails, else nil.
func Execute(ctx context.Context, o Options, x Execution) error {
	if x.Cluster != nil && x.Cluster.Functions != nil {
		fns, err := ClusterFunctions(ctx, x.Cluster)
		if err != nil {
			return err
		}
		o.ClusterFunctions = fns
	}
	res, runErr := RunWithin(ctx, o, x.Grace)
	if res == nil {
		return runErr
	}
	runErr = res.Err(runErr, o.Check, x.RequireVerified)
	if runErr != nil || x.Cluster == nil {
		if err := x.Write(res, nil); err != nil {
			return err
		}
		return runErr
	}
	// The cluster check joins the outputs: it runs before they are
	// written.
	cc, clusterErr := VerifyCluster(ctx, res, o.Root, x.RequireVerified, *x.Cluster)
	if err := x.Write(res, cc); err != nil {
		return err
	}
	if clusterErr != nil {
		return clusterErr
	}
	if live.Fail(cc.Reports, x.RequireVerified) {
		return errkind.Findings(nil)
	}
	return nil
}

// ClusterFunctions lists the Functions of o.Functions' cluster, within
// o.Timeout. When they cannot be listed it says so on o.Log and returns
// nil: the tree's Functions alone are checked.
func ClusterFunctions(ctx context.Context, o *ClusterOptions) ([]InstalledFunction, error) {
	ctx, cancel := withTimeout(ctx, o.Timeout)
	defer cancel()
	fns, ok, err := o.Functions.Functions(ctx)
	if err != nil {
		return nil, errors.Wrap(err, "cannot list the cluster's Functions")
	}
	if !ok {
		if o.Log != nil {
			fmt.Fprintln(o.Log, "migrate: cannot list the cluster's Functions (not served, or forbidden): functionRefs are checked against the tree's Functions only")
		}
		return nil, nil
	}
	out := make([]InstalledFunction, 0, len(fns))
	for _, f := range fns {
		out = append(out, InstalledFunction{Name: f.Name, Package: f.Package})
	}
	return out, nil
}

// VerifyCluster checks the Compositions the run converted against the
// cluster (CheckCluster, within o.Timeout) and renders the section the
// check adds to the run's reports, its results pointing at each
// Composition's file below root and its line.
func VerifyCluster(ctx context.Context, res *Result, root string, requireVerified bool, o ClusterOptions) (*ClusterCheck, error) {
	ctx, cancel := withTimeout(ctx, o.Timeout)
	defer cancel()
	reports, err := CheckCluster(ctx, res, o.Open, o.Live)
	if o.Done != nil {
		o.Done()
	}
	if err != nil {
		return nil, err
	}
	sec, err := live.RenderSection(reports, clusterFormat(res, root, requireVerified))
	if err != nil {
		return nil, err
	}
	return &ClusterCheck{Reports: reports, Section: sec}, nil
}

// clusterFormat are the options of the cluster section of a run's
// reports: its results point at the Composition's file (below root) and
// line.
func clusterFormat(res *Result, root string, requireVerified bool) live.FormatOptions {
	at := map[string]CompositionResult{}
	for _, c := range res.Compositions {
		at[ClusterPath(c)] = c
	}
	return live.FormatOptions{
		RequireVerified: requireVerified,
		Locate: func(r *live.Report) (string, int) {
			if c, ok := at[r.Legacy]; ok {
				return path.Join(root, c.File), c.Line
			}
			return r.Legacy, 0
		},
	}
}

// withTimeout is context.WithTimeout, or ctx as it is for none.
func withTimeout(ctx context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	if d <= 0 {
		return context.WithCancel(ctx)
	}
	return context.WithTimeout(ctx, d)
}
