package migrate

import (
	"strings"

	"github.com/xpmigrate/xpmigrate/convert"
	"github.com/xpmigrate/xpmigrate/convert/v2native"
	"github.com/xpmigrate/xpmigrate/internal/errkind"
	"github.com/xpmigrate/xpmigrate/render/verify"
)

// VerifyConverter is the verify.Converter that xpmigrate's own converter
// implements, for `verify` without a converted Composition: it converts as
// `convert` and `migrate` do with their default options and the same
// inputs (the target, the XRD of the Composition's type: ConvertOptions),
// and refuses a Composition the converter refuses, naming the findings.
// It lives here, above both, so that verify never imports the converter.
func VerifyConverter(req verify.ConvertRequest) ([]byte, error) {
	in := ConvertInputs{Target: req.Target}
	if req.XRD != nil {
		in.XRDs = []map[string]any{req.XRD}
	}
	res, err := v2native.Convert(req.Composition, ConvertOptions(convert.Options{AckUnnamed: true}, in))
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
