package render

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	yamlv2 "go.yaml.in/yaml/v2"
	"sigs.k8s.io/yaml"
)

// MarshalYAML emits v as the Kubernetes JSON serializer does in YAML mode:
// JSON first, then YAML through sigs.k8s.io/yaml, which parses the JSON with
// go-yaml v2 and emits the result. For JSON trees (map[string]any, []any,
// strings, bools, int64, float64, nil) it skips the JSON text and hands
// go-yaml the values its parser would have produced, which gives the same
// bytes at a fraction of the cost; anything else takes the JSON path.
func MarshalYAML(v any) ([]byte, error) {
	if y, ok := yamlValue(v); ok {
		return yamlv2.Marshal(y)
	}
	j, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return yaml.JSONToYAML(j)
}

// yamlValue returns what go-yaml's parser makes of json.Marshal(v), or false
// when v holds something other than plain JSON data.
func yamlValue(v any) (any, bool) {
	switch t := v.(type) {
	case nil, bool, int64:
		return t, true
	case string:
		// encoding/json replaces invalid UTF-8 with U+FFFD.
		if !utf8.ValidString(t) {
			return strings.ToValidUTF8(t, "\uFFFD"), true
		}
		return t, true
	case int:
		return int64(t), true
	case float64:
		return yamlNumber(t)
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, e := range t {
			y, ok := yamlValue(e)
			if !ok {
				return nil, false
			}
			if !utf8.ValidString(k) {
				k = strings.ToValidUTF8(k, "\uFFFD")
			}
			out[k] = y
		}
		return out, true
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			y, ok := yamlValue(e)
			if !ok {
				return nil, false
			}
			out[i] = y
		}
		return out, true
	}
	return nil, false
}

// yamlNumber mirrors how a float64 travels: encoding/json prints an integral
// value below 1e21 as plain digits, which go-yaml reads as an int (int64, or
// uint64 when it is larger), and anything else as a float.
func yamlNumber(f float64) (any, bool) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return nil, false // encoding/json refuses these; let it say so.
	}
	if f != math.Trunc(f) || math.Abs(f) >= 1e21 {
		return f, true
	}
	if math.Abs(f) < 1<<53 {
		return int64(f), true
	}
	// Past 2^53 encoding/json prints the shortest decimal that reads back
	// as f, which is not always f's exact integer value.
	text := strconv.FormatFloat(f, 'f', -1, 64)
	if i, err := strconv.ParseInt(text, 10, 64); err == nil {
		return i, true
	}
	if u, err := strconv.ParseUint(text, 10, 64); err == nil {
		return u, true
	}
	return f, true
}
