package verify

import "io"

// WriteText writes a report as text. Package render/verify/format writes
// it and imports this package, so the tests of this package cannot import
// it: the external test package sets WriteText (format_test.go).
var WriteText func(w io.Writer, r *Report) error
