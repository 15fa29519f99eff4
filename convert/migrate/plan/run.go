package plan

import (
	"context"

	"github.com/pkg/errors"

	"github.com/xpmigrate/xpmigrate/convert"
	"github.com/xpmigrate/xpmigrate/convert/migrate"
	"github.com/xpmigrate/xpmigrate/internal/crossplane"
	"github.com/xpmigrate/xpmigrate/internal/errkind"
	"github.com/xpmigrate/xpmigrate/internal/manifest"
)

// A Request is one `plan v2` run.
type Request struct {
	// Cluster is the cluster to read, or nil for Manifests.
	Cluster   *Cluster
	Manifests *Manifests

	// V2 are the files or directories of the v2 definitions (the output
	// of migrate --target v2); empty converts the legacy Compositions with
	// Convert (Target forced to v2) and the CRDs of ProviderCRDs.
	V2           []string
	Convert      convert.Options
	ProviderCRDs []string

	// Out is the plan directory to write.
	Out string
}

// Run reads the legacy platform and the v2 definitions, builds the plan
// and writes it to Request.Out. It never writes to a cluster.
func Run(ctx context.Context, r Request) (*Plan, error) {
	var defs Definitions
	if len(r.V2) > 0 {
		var objs []map[string]any
		for _, p := range r.V2 {
			docs, err := manifest.LoadPath(p)
			if err != nil {
				return nil, errkind.InvalidInput(errors.Wrapf(err, "cannot read --v2 %s", p))
			}
			objs = append(objs, NewManifests(manifest.Objects(docs)...).Objects()...)
		}
		defs = DefinitionsOf(objs)
		if len(defs.Compositions) == 0 {
			return nil, errkind.InvalidInputf("--v2 holds no Composition with the xpmigrate.io/v2-mapping annotation: give the output of migrate --target v2")
		}
	}
	var types []string
	for _, comp := range defs.Compositions {
		types = append(types, FromType(comp))
	}
	var legacy *Legacy
	var err error
	if r.Cluster != nil {
		legacy, err = r.Cluster.Legacy(ctx, types)
	} else {
		legacy, err = r.Manifests.Legacy(ctx)
	}
	if err != nil {
		return nil, err
	}
	co := r.Convert
	co.Target = crossplane.V2
	if len(r.V2) == 0 {
		if co.ProviderCRDs, err = migrate.ReadProviderCRDs(r.ProviderCRDs); err != nil {
			return nil, errkind.InvalidInput(err)
		}
		if defs, err = Convert(legacy, co); err != nil {
			return nil, err
		}
	}
	p, err := Build(ctx, legacy, defs, Options{Convert: co})
	if err != nil {
		return nil, err
	}
	files, err := p.Files(defs)
	if err != nil {
		return nil, err
	}
	return p, Write(r.Out, files)
}
