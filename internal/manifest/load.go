package manifest

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"sort"

	"github.com/pkg/errors"
	yaml "go.yaml.in/yaml/v3"
	kjson "k8s.io/apimachinery/pkg/util/json"

	"github.com/xpmigrate/xpmigrate/internal/jsonobj"
	"github.com/xpmigrate/xpmigrate/internal/regularfile"
)

// JSON returns the document's data as kubectl reads it (JSON of its Raw).
func (d Document) JSON() ([]byte, error) { return JSON(d.Raw) }

// Decode decodes the document as the API server would: YAML 1.1 scalars,
// integers as int64. It returns nil for an empty document.
func (d Document) Decode() (map[string]any, error) { return DecodeObject(d.Raw) }

// Node parses the document's Raw into a yaml.v3 node tree, whose lines
// count from the document's Line. It returns a new tree on every call.
func (d Document) Node() (*yaml.Node, error) {
	var n yaml.Node
	if err := yaml.Unmarshal(d.Raw, &n); err != nil {
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
	return DecodeJSON(j)
}

// DecodeJSON decodes what DecodeObject decodes once the document is JSON:
// the output of JSON. It returns nil for null.
func DecodeJSON(j []byte) (map[string]any, error) {
	if bytes.Equal(bytes.TrimSpace(j), []byte("null")) {
		return nil, nil
	}
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

// LoadStream reads a YAML stream and decodes every non-empty document.
// Errors name the source, the document and its line.
func LoadStream(r io.Reader, source string) ([]Document, error) {
	b, err := io.ReadAll(r)
	if err != nil {
		return nil, errors.Wrapf(err, "cannot read %s", source)
	}
	var out []Document
	for _, d := range Split(b) {
		d.Source = source
		o, err := d.Decode()
		if err != nil {
			return nil, InvalidInput(NewDocumentError(source, d, err))
		}
		if o == nil {
			continue
		}
		d.Object = o
		out = append(out, d)
	}
	return out, nil
}

// LoadFile reads one YAML file.
func LoadFile(path string) ([]Document, error) {
	f, err := regularfile.Open(path)
	if err != nil {
		return nil, InvalidInput(errors.Wrapf(err, "cannot open %q", path))
	}
	defer f.Close() //nolint:errcheck // Read-only.
	return LoadStream(f, path)
}

// LoadPath reads a file, or every .yaml and .yml file directly in a
// directory (not recursive), in name order, as crossplane render does. An
// empty directory is an error.
func LoadPath(path string) ([]Document, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, InvalidInput(errors.Wrapf(err, "cannot open %q", path))
	}
	if !fi.IsDir() {
		return LoadFile(path)
	}
	entries, err := os.ReadDir(path)
	if err != nil {
		return nil, InvalidInput(errors.Wrapf(err, "cannot read directory %q", path))
	}
	var names []string
	for _, e := range entries {
		if e.IsDir() {
			continue
		}
		if ext := filepath.Ext(e.Name()); ext == ".yaml" || ext == ".yml" {
			names = append(names, e.Name())
		}
	}
	if len(names) == 0 {
		return nil, InvalidInputf("no YAML files found in %q (.yaml or .yml)", path)
	}
	sort.Strings(names)
	var out []Document
	for _, n := range names {
		docs, err := LoadFile(filepath.Join(path, n))
		if err != nil {
			return nil, err
		}
		out = append(out, docs...)
	}
	return out, nil
}

// Objects returns the decoded objects of docs.
func Objects(docs []Document) []map[string]any {
	out := make([]map[string]any, 0, len(docs))
	for _, d := range docs {
		out = append(out, d.Object)
	}
	return out
}
