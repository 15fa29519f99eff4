package manifest

import (
	"bytes"

	"github.com/pkg/errors"
	yaml "go.yaml.in/yaml/v3"
	kjson "k8s.io/apimachinery/pkg/util/json"

	"github.com/xpmigrate/xpmigrate/internal/jsonobj"
)

// JSON returns the document's data as kubectl reads it (JSON of its Raw).
func (d Document) JSON() ([]byte, error) { return JSON(d.Raw) }

// Decode decodes the document as the API server would: YAML 1.1 scalars,
// integers as int64. It returns nil for an empty document.
func (d Document) Decode() (map[string]any, error) { return DecodeObject(d.Raw) }

// Node parses the document's Raw into a yaml.v3 node tree, whose lines
// count from the document's Line. It returns a new tree on every call,
// and a *DepthError for data nested deeper than Limits.MaxDepth.
func (d Document) Node() (*yaml.Node, error) {
	var n yaml.Node
	if err := yaml.Unmarshal(d.Raw, &n); err != nil {
		return nil, err
	}
	if err := CheckNodeDepth(&n); err != nil {
		return nil, err
	}
	return &n, nil
}

// DecodeObject decodes one YAML or JSON document as the API server would.
// It returns nil for an empty document.
func DecodeObject(raw []byte) (map[string]any, error) {
	if IsBlank(raw) {
		return nil, nil
	}
	j, err := JSON(raw)
	if err != nil {
		return nil, err
	}
	if bytes.Equal(bytes.TrimSpace(j), []byte("null")) {
		return nil, nil
	}
	return decodeJSON(j)
}

// DecodeJSON decodes what DecodeObject decodes once the document is JSON:
// the output of JSON. It returns nil for null, and a *DepthError for data
// nested deeper than the current Limits.MaxDepth.
func DecodeJSON(j []byte) (map[string]any, error) {
	if bytes.Equal(bytes.TrimSpace(j), []byte("null")) {
		return nil, nil
	}
	if err := CheckDepth(j); err != nil {
		return nil, err
	}
	return decodeJSON(j)
}

// decodeJSON is DecodeJSON for JSON whose depth JSON checked.
func decodeJSON(j []byte) (map[string]any, error) {
	if out, ok := jsonobj.DecodePlainObject(j); ok {
		return out, nil
	}
	out := map[string]any{}
	if err := kjson.Unmarshal(j, &out); err != nil {
		return nil, errors.Wrap(err, "document is not an object")
	}
	return out, nil
}

// DecodeValue decodes one YAML or JSON document as the API server would,
// whatever its top level: an object, or a list (a JSON 6902 patch). It
// returns nil for an empty document.
func DecodeValue(raw []byte) (any, error) {
	j, err := JSON(raw)
	if err != nil {
		return nil, err
	}
	j = bytes.TrimSpace(j)
	if len(j) == 0 || bytes.Equal(j, []byte("null")) {
		return nil, nil
	}
	var v any
	if err := kjson.Unmarshal(j, &v); err != nil {
		return nil, err
	}
	return v, nil
}
