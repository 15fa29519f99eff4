package render

import "github.com/xpmigrate/xpmigrate/internal/manifest"

// An InputError is bad input: unparseable YAML, a missing file, a document
// of the wrong kind. Commands exit 2 for it. It is the reading layer's
// (manifest.InputError), which the loaders return; the engines name it
// here.
type InputError = manifest.InputError

// InvalidInput wraps err as an InputError.
func InvalidInput(err error) error { return manifest.InvalidInput(err) }

// InvalidInputf returns a new InputError.
func InvalidInputf(format string, args ...any) error { return manifest.InvalidInputf(format, args...) }
