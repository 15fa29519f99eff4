package verify_test

import (
	"io"

	"github.com/xpmigrate/xpmigrate/render/verify"
	"github.com/xpmigrate/xpmigrate/render/verify/format"
)

func init() {
	verify.WriteText = func(w io.Writer, r *verify.Report) error {
		return format.Write(w, r, format.Options{Format: format.Text})
	}
}
