package function

import (
	"encoding/json"

	"github.com/pkg/errors"
	kjson "sigs.k8s.io/json"

	"github.com/xpmigrate/xpmigrate/internal/jsonobj"
)

// Decode reads the input as the function receives it: a JSON object (numbers
// as float64, after the trip through a protobuf Struct). A nil input is an
// empty one, as an absent input is upstream; validation then rejects it.
func Decode(input map[string]any) (*Resources, error) {
	if r, ok := decodeTree(input); ok {
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

// decodeTree reads the input straight from its JSON tree, giving what
// DecodeJSON gives for the tree's JSON text, when jsonobj.DecodeTree can
// vouch for that (strictly, as DecodeJSON decodes). A nil input goes
// through the text, which reads it as an empty object.
func decodeTree(input map[string]any) (*Resources, bool) {
	if input == nil {
		return nil, false
	}
	r := &Resources{}
	if !jsonobj.DecodeTree(input, r, jsonobj.TreeOptions{Strict: true}) {
		return nil, false
	}
	return r, true
}
