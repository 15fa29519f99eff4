package manifest

import (
	"encoding/json"

	sigsyaml "sigs.k8s.io/yaml"
)

// JSON returns the data of one YAML (or JSON) document as kubectl reads it,
// as compact JSON with sorted keys: exactly what sigs.k8s.io/yaml.YAMLToJSON
// returns for b. Documents in a plain subset of block YAML are read by a
// fast reader that gives the same bytes (PlainJSON); the rest by
// sigs.k8s.io/yaml itself. Data nested deeper than the current
// Limits.MaxDepth is a *DepthError.
func JSON(b []byte) ([]byte, error) {
	j, ok := simpleJSON(b)
	if !ok {
		var err error
		if j, err = sigsyaml.YAMLToJSON(b); err != nil {
			return nil, err
		}
	}
	if err := CheckDepth(j); err != nil {
		return nil, err
	}
	return j, nil
}

// PlainJSON returns what JSON returns for a document written in the plain
// subset of block YAML that the fast reader knows, and false for any other
// document: the caller then reads it some other way.
func PlainJSON(b []byte) ([]byte, bool) { return simpleJSON(b) }

// AppendJSONString appends s as encoding/json writes it.
func AppendJSONString(out []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c > 0x7e || c == '\\' {
			b, err := json.Marshal(s)
			if err != nil {
				return append(out, `""`...) // cannot happen: strings always marshal
			}
			return append(out, b...)
		}
	}
	return appendJSONString(out, s)
}
