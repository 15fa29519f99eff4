//go:build !unix

package verify

import "io/fs"

// device tells no device where the system's stat is not known.
func device(fs.FS, string) (uint64, bool) { return 0, false }
