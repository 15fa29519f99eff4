package verify

import (
	"strings"

	"github.com/xpmigrate/xpmigrate/convert"
	"github.com/xpmigrate/xpmigrate/internal/crossplane"
	"github.com/xpmigrate/xpmigrate/internal/errkind"
)

// Convert converts with xpmigrate's converter, as the migrate package's
// VerifyConverter does; the tests use it where they give Verify no
// converted Composition. (Verify itself never imports the converter.)
func Convert(composition []byte, target crossplane.Target) ([]byte, error) {
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

var _ Converter = Convert
