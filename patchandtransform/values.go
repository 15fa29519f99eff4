package patchandtransform

import (
	"encoding/json"

	"github.com/pkg/errors"
	kjson "k8s.io/apimachinery/pkg/util/json"
)

// Normalize round-trips a value through JSON and the Kubernetes decoder, as
// the API server and crossplane-runtime's fieldpath do: every integral
// number becomes int64, every other number float64.
func Normalize(v any) (any, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, errors.Wrap(err, "cannot marshal value to JSON")
	}
	var out any
	if err := kjson.Unmarshal(b, &out); err != nil {
		return nil, errors.Wrap(err, "cannot unmarshal value from JSON")
	}
	return out, nil
}

// NormalizeObject is Normalize for a JSON object.
func NormalizeObject(o map[string]any) (map[string]any, error) {
	b, err := json.Marshal(o)
	if err != nil {
		return nil, errors.Wrap(err, "cannot marshal object to JSON")
	}
	out := map[string]any{}
	if err := kjson.Unmarshal(b, &out); err != nil {
		return nil, errors.Wrap(err, "cannot unmarshal object from JSON")
	}
	return out, nil
}

// DecodePlain decodes JSON with the plain Go decoder, as both engines do for
// map values, match results, `convert` with format json and the
// EnvironmentConfig data: every number becomes float64. Empty input decodes
// to nil.
func DecodePlain(b []byte) (any, error) {
	if len(b) == 0 {
		return nil, nil
	}
	var out any
	if err := json.Unmarshal(b, &out); err != nil {
		return nil, err
	}
	return out, nil
}

// WireNumbers returns a deep copy of v in which every number is a float64,
// as every value is after a trip through a protobuf Struct on its way to a
// function (pipeline-mode spec §0.2, rule N1).
func WireNumbers(v any) any {
	switch t := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, e := range t {
			out[k] = WireNumbers(e)
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = WireNumbers(e)
		}
		return out
	case int64:
		return float64(t)
	case int:
		return float64(t)
	case int32:
		return float64(t)
	case float32:
		return float64(t)
	case json.Number:
		f, err := t.Float64()
		if err != nil {
			return t.String()
		}
		return f
	default:
		return v
	}
}
