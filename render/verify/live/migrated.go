package live

import (
	"context"

	"github.com/pkg/errors"

	"github.com/xpmigrate/xpmigrate/convert/migrate"
	"github.com/xpmigrate/xpmigrate/render/verify"
)

// Migrated checks, as `xpmigrate migrate --cluster` does, every legacy
// Composition a migrate run converted (and changed) against the XRs of the
// cluster that run it: one Report per Composition, in the run's order.
// newCluster is called once, told whether any of them reads connection
// details (so that connection Secrets are worth reading), and not at all
// when there is nothing to check (no Report).
func Migrated(ctx context.Context, res *migrate.Result, newCluster func(secrets bool) (Cluster, error), o Options) ([]*Report, error) {
	var todo []migrate.CompositionResult
	secrets := false
	for _, c := range res.Compositions {
		// An item of a kind: List document has no document of its own.
		if !c.Legacy || c.Item >= 0 || c.Before == "" || c.After == "" || c.After == c.Before {
			continue
		}
		todo = append(todo, c)
		secrets = secrets || ReadsConnectionDetails(verify.Document{Data: []byte(c.Before)})
	}
	if len(todo) == 0 {
		return nil, nil
	}
	cl, err := newCluster(secrets)
	if err != nil {
		return nil, err
	}
	reports := make([]*Report, 0, len(todo))
	for _, c := range todo {
		path := MigratedPath(c)
		rep, err := Verify(ctx, cl, verify.Document{Path: path, Data: []byte(c.Before)},
			verify.Document{Path: path + " (converted)", Data: []byte(c.After)}, o)
		if err != nil {
			return nil, errors.Wrapf(err, "cannot verify %s against the cluster", path)
		}
		reports = append(reports, rep)
	}
	return reports, nil
}
