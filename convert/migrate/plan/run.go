package plan

import (
	"bytes"
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/pkg/errors"

	"github.com/xpmigrate/xpmigrate/convert"
	"github.com/xpmigrate/xpmigrate/internal/atomicfile"
	"github.com/xpmigrate/xpmigrate/internal/crossplane"
	"github.com/xpmigrate/xpmigrate/internal/errkind"
	"github.com/xpmigrate/xpmigrate/internal/manifest"
	"github.com/xpmigrate/xpmigrate/internal/regularfile"
	"github.com/xpmigrate/xpmigrate/internal/xp"
)

// A Request is one `plan v2` run.
type Request struct {
	// Cluster is the cluster to read, or nil for Manifests.
	Cluster   *Cluster
	Manifests *Manifests

	// V2 are the files or directories of the v2 definitions (the output
	// of migrate --target v2); empty converts the legacy Compositions with
	// Convert (Target forced to v2) and the CRDs of ProviderCRDs.
	V2      []string
	Convert convert.Options
	// ProviderCRDs are files or directories of provider CRDs: they give
	// the conversion the namespaced twins (without V2) and the plan the
	// schemas its objects are validated against (after the cluster's or
	// the export's own CRDs).
	ProviderCRDs []string
	// ProviderConfigKind is the kind of a twin's providerConfigRef where
	// neither the live object nor the mapping names one (Options).
	ProviderConfigKind string

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
			o, err := loadV2(p)
			if err != nil {
				return nil, errkind.InvalidInput(errors.Wrapf(err, "cannot read --v2 %s", p))
			}
			objs = append(objs, NewManifests(o...).Objects()...)
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
	crds, err := convert.ReadProviderCRDs(r.ProviderCRDs)
	if err != nil {
		return nil, errkind.InvalidInput(err)
	}
	if len(r.V2) == 0 {
		co.ProviderCRDs = crds
		if defs, err = Convert(legacy, co); err != nil {
			return nil, err
		}
	}
	var live CRDSource = r.Manifests
	if r.Cluster != nil {
		live = r.Cluster
	}
	schemas, err := PlanSchemas(live, crds, defs)
	if err != nil {
		return nil, err
	}
	p, err := Build(ctx, legacy, defs, Options{Convert: co, Schemas: schemas, ProviderConfigKind: r.ProviderConfigKind})
	if err != nil {
		return nil, err
	}
	files, err := p.Files(defs)
	if err != nil {
		return nil, err
	}
	return p, Write(r.Out, files)
}

// v2Mark is in every file that holds v2 definitions (their apiVersion).
var v2Mark = []byte(xp.GroupAPIExtensions)

// loadV2 reads one --v2 path: a file, or every .yaml and .yml file under
// a directory, subdirectories included (migrate --out's tree), in lexical
// order. Hidden directories (.git), temporary files, symlinks and what is
// not a regular file are skipped; so is a file of a directory that does
// not mention apiextensions.crossplane.io, unparsed (a repository's copy
// may hold templates that are not YAML).
func loadV2(p string) ([]map[string]any, error) {
	fi, err := os.Stat(p)
	if err != nil {
		return nil, err
	}
	if !fi.IsDir() {
		docs, err := manifest.LoadFile(p)
		return manifest.Objects(docs), err
	}
	var objs []map[string]any
	files := 0
	err = filepath.WalkDir(p, func(f string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case d.IsDir():
			if f != p && strings.HasPrefix(d.Name(), ".") {
				return filepath.SkipDir
			}
			return nil
		case !d.Type().IsRegular() || atomicfile.IsTemporary(d.Name()):
			return nil
		}
		if ext := strings.ToLower(filepath.Ext(f)); ext != ".yaml" && ext != ".yml" {
			return nil
		}
		files++
		b, err := regularfile.ReadFile(f)
		if err != nil {
			return err
		}
		if !bytes.Contains(b, v2Mark) {
			return nil
		}
		docs, err := manifest.LoadStream(bytes.NewReader(b), f)
		if err != nil {
			return err
		}
		objs = append(objs, manifest.Objects(docs)...)
		return nil
	})
	if err != nil {
		return nil, err
	}
	if files == 0 {
		return nil, errors.Errorf("no YAML files found under %q (.yaml or .yml)", p)
	}
	return objs, nil
}
