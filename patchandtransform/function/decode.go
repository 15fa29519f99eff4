package function

import (
	"encoding/json"

	"github.com/pkg/errors"
	kjson "sigs.k8s.io/json"
)

// Decode reads the input as the function receives it: a JSON object (numbers
// as float64, after the trip through a protobuf Struct). A nil input is an
// empty one, as an absent input is upstream; validation then rejects it.
func Decode(input map[string]any) (*Resources, error) {
	if r, ok := decodeMap(input); ok {
		return r, nil
	}
	b, err := json.Marshal(input)
	if err != nil {
		return nil, errors.Wrap(err, "cannot marshal input to JSON")
	}
	return DecodeJSON(b)
}

// DecodeJSON reads the input from JSON, strictly: member names must match
// exactly, including their case, and an unknown member at any depth is an
// error. Only the first problem is returned. Nothing is defaulted.
//
// Upstream decodes with a JSON library whose error text is deliberately
// unstable ("cannot" and "unable to" alternate), so only the gist of the
// error matches upstream: a wrong type names the value and the Go field, an
// unknown member is reported as `unknown field "<path>"`.
func DecodeJSON(b []byte) (*Resources, error) {
	r := &Resources{}
	strict, err := kjson.UnmarshalStrict(b, r, kjson.DisallowUnknownFields, kjson.DisallowDuplicateFields)
	if err != nil {
		return nil, err
	}
	if len(strict) > 0 {
		return nil, strict[0]
	}
	return r, nil
}
