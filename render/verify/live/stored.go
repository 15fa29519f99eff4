package live

import (
	"context"
	"strings"

	"github.com/pkg/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/xpmigrate/xpmigrate/internal/cluster"
	"github.com/xpmigrate/xpmigrate/internal/errkind"
	"github.com/xpmigrate/xpmigrate/render/verify"
)

// A CompositionLister lists the Compositions a cluster holds: a
// cluster.Reader.
type CompositionLister interface {
	Compositions(ctx context.Context) ([]*unstructured.Unstructured, error)
	Missing() []cluster.Permission
}

// StoredOptions tune VerifyStored.
type StoredOptions struct {
	// Options are those of each Composition's check; its
	// Verify.Convert converts every Composition (none is given converted).
	Options

	// Names select the Compositions to check (see FromCluster); every
	// legacy Composition when empty.
	Names []string

	// Skipped, when set, is told each Composition that is not checked (not
	// legacy), in name order, before the checks begin.
	Skipped func(Skipped)

	// Start and Finish, when set, are called before and after each
	// Composition's check (a progress display), with its document's path.
	Start  func(path string)
	Finish func()
}

// A StoredResult is what VerifyStored found: one Report per legacy
// Composition, sorted by name.
type StoredResult struct {
	Reports []*Report
	// Unchecked names the Compositions that could not be checked (one
	// that cannot be converted, say); their Reports say why.
	Unchecked []string
}

// VerifyStored checks the legacy Compositions a cluster stores (those
// o.Names names, or all), each converted on the fly, against the XRs of
// that cluster that run them, as `verify --cluster --from-cluster` does.
// l lists the Compositions; open, called once after they are selected,
// opens the cluster the XRs are read from, told whether any of them reads
// connection details (so that connection Secrets are worth reading).
//
// A Composition that cannot be checked gets a Report saying why
// (Unchecked) and the others are still checked; a cancelled or timed-out
// context stops the run with an error. A name the cluster has no
// Composition of is invalid input; a missing permission to list them is an
// error.
func VerifyStored(ctx context.Context, l CompositionLister, open func(secrets bool) (Cluster, error), o StoredOptions) (*StoredResult, error) {
	comps, err := l.Compositions(ctx)
	if err != nil {
		return nil, errors.Wrap(err, "cannot read the cluster's Compositions")
	}
	if m := l.Missing(); len(m) > 0 {
		return nil, errors.Errorf("cannot read the cluster's Compositions: missing permission %s", m[0])
	}
	docs, skipped, err := FromCluster(comps, o.Names)
	if err != nil {
		return nil, err
	}
	if o.Skipped != nil {
		for _, sk := range skipped {
			o.Skipped(sk)
		}
	}
	secrets := false
	for _, d := range docs {
		secrets = secrets || ReadsConnectionDetails(d)
	}
	c, err := open(secrets)
	if err != nil {
		return nil, err
	}
	res := &StoredResult{Reports: make([]*Report, 0, len(docs))}
	for _, d := range docs {
		rep, err := verifyStored(ctx, c, d, o)
		if err != nil && ctx.Err() != nil {
			return nil, errors.Wrapf(err, "cannot verify %s against the cluster", d.Path)
		}
		if err != nil {
			rep = Unchecked(d, err)
			res.Unchecked = append(res.Unchecked, rep.Composition)
		}
		res.Reports = append(res.Reports, rep)
	}
	return res, nil
}

// verifyStored checks one stored Composition, between o's Start and Finish.
func verifyStored(ctx context.Context, c Cluster, d verify.Document, o StoredOptions) (*Report, error) {
	if o.Start != nil {
		o.Start(d.Path)
	}
	if o.Finish != nil {
		defer o.Finish()
	}
	return Verify(ctx, c, d, verify.Document{}, o.Options)
}

// Err is the outcome of the run: an error naming the Compositions that
// could not be checked, else a findings error (errkind) when a Report
// fails (see Report.Fails), else nil.
func (r *StoredResult) Err(requireVerified bool) error {
	if len(r.Unchecked) > 0 {
		return errors.Errorf("cannot verify %d of %d Compositions against the cluster: %s (see their reports)", len(r.Unchecked), len(r.Reports), strings.Join(r.Unchecked, ", "))
	}
	if Fail(r.Reports, requireVerified) {
		return errkind.Findings(nil)
	}
	return nil
}

// Fail reports whether any of reports fails (see Report.Fails).
func Fail(reports []*Report, requireVerified bool) bool {
	for _, rep := range reports {
		if rep.Fails(requireVerified) {
			return true
		}
	}
	return false
}
