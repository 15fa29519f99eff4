package patchandtransform

import (
	"encoding/json"
	"math"
	"strconv"

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

// NormalizeObject is Normalize for a JSON object. Plain JSON data is copied
// without JSON text (jsonCopy gives what the round trip gives); anything
// else takes the round trip.
func NormalizeObject(o map[string]any) (map[string]any, error) {
	if o != nil {
		if c, ok := jsonCopy(o); ok {
			if m, isMap := c.(map[string]any); isMap {
				return m, nil
			}
		}
	}
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
// function (docs/semantics/pipeline.md#numbers-at-the-function-boundary, rule N1).
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

// normalizeInPlace converts, in place, every number of a JSON tree to what a
// round trip through encoding/json and the Kubernetes decoder gives: an
// integral float64 that fits an int64 becomes int64 (encoding/json prints it
// without a fraction or exponent, and the decoder reads such text as int64).
// It reports false, leaving the tree partly converted but equivalent, when it
// meets a value that is not plain JSON data; the caller then normalises
// through JSON.
func normalizeInPlace(v any) bool {
	switch t := v.(type) {
	case map[string]any:
		for k, e := range t {
			n, changed, ok := normalizeElement(e)
			if !ok {
				return false
			}
			if changed {
				t[k] = n
			}
		}
		return true
	case []any:
		for i, e := range t {
			n, changed, ok := normalizeElement(e)
			if !ok {
				return false
			}
			if changed {
				t[i] = n
			}
		}
		return true
	}
	return false
}

// normalizeElement normalises one value of an object or list: containers
// in place, scalars by returning their normalised form. It reports whether
// that form must replace the value: storing an unchanged value again is
// wasted work.
func normalizeElement(e any) (any, bool, bool) {
	switch n := e.(type) {
	case nil, string, bool, int64:
		return n, false, true
	case map[string]any, []any:
		return n, false, normalizeInPlace(n)
	default:
		s, ok := normalizeScalar(n)
		return s, true, ok
	}
}

// Below 2^53 every integral float64 prints as its exact integer.
const exactIntFloat = 1 << 53

func normalizeScalar(v any) (any, bool) {
	switch n := v.(type) {
	case nil, string, bool, int64:
		return v, true
	case float64:
		if math.IsInf(n, 0) || math.IsNaN(n) {
			return nil, false
		}
		if n != math.Trunc(n) {
			return n, true
		}
		if math.Abs(n) < exactIntFloat {
			return int64(n), true
		}
		if math.Abs(n) >= 1e21 {
			// encoding/json prints these with an exponent.
			return n, true
		}
		// encoding/json prints the shortest decimal that reads back as n;
		// the decoder makes it an int64 only if that text fits one.
		if i, err := strconv.ParseInt(strconv.FormatFloat(n, 'f', -1, 64), 10, 64); err == nil {
			return i, true
		}
		return n, true
	case int:
		return int64(n), true
	case int32:
		return int64(n), true
	}
	return nil, false
}
