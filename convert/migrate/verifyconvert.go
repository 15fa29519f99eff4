package migrate

import (
	"strings"

	"github.com/xpmigrate/xpmigrate/convert"
	"github.com/xpmigrate/xpmigrate/internal/crossplane"
	"github.com/xpmigrate/xpmigrate/internal/errkind"
	"github.com/xpmigrate/xpmigrate/render/verify"
)

// VerifyConverter is the verify.Converter that xpmigrate's own converter
// implements, for `verify` without a converted Composition: it converts for
// the target, names anonymous templates as the converter
// does by default, and refuses a Composition the converter refuses, naming
// the findings. It lives here, above both, so that verify never imports the
// converter.
func VerifyConverter(composition []byte, target crossplane.Target) ([]byte, error) {
	res, err := convert.Convert(composition, convert.Options{Target: target, AckUnnamed: true})
	if err != nil {
		if convert.IsInvalidInput(err) || convert.IsInvalidOption(err) {
			return nil, errkind.InvalidInput(err)
		}
		return nil, err
	}
	if res.Failed() {
		msgs := make([]string, 0, len(res.Diagnostics))
		for _, d := range res.Diagnostics {
			msgs = append(msgs, d.String())
		}
		return nil, errkind.InvalidInputf("cannot convert: %s", strings.Join(msgs, "; "))
	}
	return res.Output, nil
}

var _ verify.Converter = VerifyConverter
