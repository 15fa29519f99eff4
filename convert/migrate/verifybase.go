package migrate

import (
	"context"

	"github.com/pkg/errors"

	"github.com/xpmigrate/xpmigrate/internal/errkind"
	"github.com/xpmigrate/xpmigrate/internal/jsonobj"
	"github.com/xpmigrate/xpmigrate/internal/manifest"
	"github.com/xpmigrate/xpmigrate/render/verify"
)

// LegacyFromBase returns, for `xpmigrate verify --base REF`, the legacy
// form at ref of the converted Composition in file (data), and the
// converted one. It is a verify.Sources FromBase. An unreadable revision
// is a *BaseError; a file with no Composition, or no legacy Composition of
// its name at ref, is invalid input.
func LegacyFromBase(ctx context.Context, ref, file string, data []byte) (verify.Document, verify.Document, error) {
	converted := verify.Document{Path: file, Data: data}
	var name string
	for _, d := range manifest.Split(data) {
		obj, err := d.Decode()
		if err == nil && obj != nil && obj["kind"] == "Composition" {
			name = jsonobj.String(obj, "metadata", "name")
			break
		}
	}
	if name == "" {
		return verify.Document{}, verify.Document{}, errkind.InvalidInputf("%s: no Composition found", file)
	}
	doc, where, ok, err := LegacyAt(ctx, file, ref, name)
	var be *BaseError
	switch {
	case errors.As(err, &be):
		return verify.Document{}, verify.Document{}, err
	case err != nil:
		return verify.Document{}, verify.Document{}, errors.Wrapf(err, "cannot read %s at %s", file, ref)
	case !ok:
		return verify.Document{}, verify.Document{}, errkind.InvalidInputf("no legacy (mode: Resources) Composition named %q at %s: nothing to verify %s against", name, ref, file)
	}
	return verify.Document{Path: where, Data: doc}, converted, nil
}
