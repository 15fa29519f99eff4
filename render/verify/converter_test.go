package verify

import (
	"strings"

	"github.com/xpmigrate/xpmigrate/convert"
	"github.com/xpmigrate/xpmigrate/convert/v2native"
	"github.com/xpmigrate/xpmigrate/internal/errkind"
)

// Convert converts with xpmigrate's converter, as the migrate package's
// VerifyConverter does; the tests use it where they give Verify no
// converted Composition. (Verify itself never imports the converter.)
func Convert(req ConvertRequest) ([]byte, error) {
	var xrds []map[string]any
	if req.XRD != nil {
		xrds = []map[string]any{req.XRD}
	}
	res, err := v2native.Convert(req.Composition, convert.Options{Target: req.Target, AckUnnamed: true, XRDs: xrds})
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
