package migrate

import (
	"context"
	"fmt"

	"github.com/pkg/errors"

	"github.com/xpmigrate/xpmigrate/render/verify"
	"github.com/xpmigrate/xpmigrate/render/verify/live"
)

// CheckCluster checks, as `xpmigrate migrate --cluster` does, every legacy
// Composition the run converted (and changed) against the XRs of the
// cluster that run it (render/verify/live): one Report per Composition, in
// the run's order. newCluster is called once, told whether any of them
// reads connection details (so that connection Secrets are worth reading),
// and not at all when there is nothing to check (no Report).
func CheckCluster(ctx context.Context, res *Result, newCluster func(secrets bool) (live.Cluster, error), o live.Options) ([]*live.Report, error) {
	var todo []CompositionResult
	secrets := false
	for _, c := range res.Compositions {
		// An item of a kind: List document has no document of its own.
		if !c.Legacy || c.Item >= 0 || c.Before == "" || c.After == "" || c.After == c.Before {
			continue
		}
		todo = append(todo, c)
		secrets = secrets || live.ReadsConnectionDetails(verify.Document{Data: []byte(c.Before)})
	}
	if len(todo) == 0 {
		return nil, nil
	}
	cl, err := newCluster(secrets)
	if err != nil {
		return nil, err
	}
	reports := make([]*live.Report, 0, len(todo))
	for _, c := range todo {
		path := ClusterPath(c)
		rep, err := live.Verify(ctx, cl, verify.Document{Path: path, Data: []byte(c.Before)},
			verify.Document{Path: path + " (converted)", Data: []byte(c.After)}, o)
		if err != nil {
			return nil, errors.Wrapf(err, "cannot verify %s against the cluster", path)
		}
		reports = append(reports, rep)
	}
	return reports, nil
}

// ClusterPath is the Legacy path of the Report CheckCluster writes for a
// Composition of the run: "<file>#<document, from 1>".
func ClusterPath(c CompositionResult) string {
	return fmt.Sprintf("%s#%d", c.File, c.Document+1)
}
