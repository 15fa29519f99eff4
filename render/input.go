package render

import "github.com/xpmigrate/xpmigrate/internal/errkind"

// An InputError is bad input: unparseable YAML, a missing file, a document
// of the wrong kind. Commands exit 2 for it. It is errkind's invalid input,
// which the loaders (internal/manifest) return; the engines name it here.
type InputError = errkind.InvalidInputError
