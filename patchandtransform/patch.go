package patchandtransform

import (
	"github.com/crossplane/crossplane-runtime/v2/pkg/fieldpath"
	"github.com/pkg/errors"
)

// Apply applies one patch (work in progress: the lead is finishing it).
func Apply(d Dialect, p Patch, from, to *fieldpath.Paved) error {
	return errors.New("not implemented yet")
}
