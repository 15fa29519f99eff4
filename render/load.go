package render

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/pkg/errors"
	kjson "k8s.io/apimachinery/pkg/util/json"
	"sigs.k8s.io/yaml"

	"github.com/xpmigrate/xpmigrate/internal/jsonobj"
	"github.com/xpmigrate/xpmigrate/internal/regularfile"
)

// A Document is one YAML document of a stream, with where it came from.
type Document struct {
	// Source names the file (or "-" for stdin).
	Source string
	// Index is the document's 0-based position in its file, counting
	// empty documents.
	Index int
	// Line is the 1-based line the document starts on.
	Line int
	// Raw is the document's text.
	Raw []byte
	// Object is the document decoded as the API server would: YAML 1.1
	// scalars, integers as int64. Nil for an empty document.
	Object map[string]any
}

// An InputError is bad input: unparseable YAML, a missing file, a document
// of the wrong kind. Commands exit 2 for it.
type InputError struct {
	err error
}

func (e *InputError) Error() string { return e.err.Error() }
func (e *InputError) Unwrap() error { return e.err }

// InvalidInput wraps err as an InputError.
func InvalidInput(err error) error {
	if err == nil {
		return nil
	}
	return &InputError{err: err}
}

// InvalidInputf returns a new InputError.
func InvalidInputf(format string, args ...any) error {
	return &InputError{err: errors.Errorf(format, args...)}
}

// SplitDocuments splits a YAML stream on `---` separator lines. It keeps
// every document, empty ones included, so callers can count them.
func SplitDocuments(b []byte) []Document {
	var docs []Document
	// cur collects the current document's lines, each ended by "\n" (a
	// line's own "\r\n" or missing final newline read as "\n").
	cur := make([]byte, 0, len(b)+1)
	start := 1
	line := 0
	flush := func(next int) {
		docs = append(docs, Document{Index: len(docs), Line: start, Raw: append([]byte(nil), cur...)})
		cur = cur[:0]
		start = next
	}
	for i := 0; i < len(b); {
		var text []byte
		if j := bytes.IndexByte(b[i:], '\n'); j >= 0 {
			text, i = b[i:i+j], i+j+1
		} else {
			text, i = b[i:], len(b)
		}
		if n := len(text); n > 0 && text[n-1] == '\r' {
			text = text[:n-1]
		}
		line++
		if isSeparator(text) {
			if line == 1 || (len(docs) == 0 && isBlank(cur)) {
				// A leading separator opens the first document.
				cur = cur[:0]
				start = line + 1
				continue
			}
			flush(line + 1)
			continue
		}
		cur = append(cur, text...)
		cur = append(cur, '\n')
	}
	flush(line + 1)
	return docs
}

func isSeparator(line []byte) bool {
	if !bytes.HasPrefix(line, []byte("---")) {
		return false
	}
	rest := line[3:]
	return len(rest) == 0 || rest[0] == ' ' || rest[0] == '\t'
}

func isBlank(b []byte) bool {
	for _, l := range strings.Split(string(b), "\n") {
		t := strings.TrimSpace(l)
		if t != "" && !strings.HasPrefix(t, "#") {
			return false
		}
	}
	return true
}

// DecodeObject decodes one YAML or JSON document as the API server would.
// It returns nil for an empty document.
func DecodeObject(raw []byte) (map[string]any, error) {
	if isBlank(raw) {
		return nil, nil
	}
	j, err := yaml.YAMLToJSON(raw)
	if err != nil {
		return nil, err
	}
	return DecodeJSONObject(j)
}

// DecodeJSONObject decodes what DecodeObject decodes once the document is
// JSON: the output of sigs.k8s.io/yaml.YAMLToJSON. It returns nil for null.
func DecodeJSONObject(j []byte) (map[string]any, error) {
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

// LoadStream reads a YAML stream and decodes every non-empty document.
// Errors name the source, the document and its line.
func LoadStream(r io.Reader, source string) ([]Document, error) {
	b, err := io.ReadAll(r)
	if err != nil {
		return nil, errors.Wrapf(err, "cannot read %s", source)
	}
	var out []Document
	for _, d := range SplitDocuments(b) {
		d.Source = source
		o, err := DecodeObject(d.Raw)
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

func asInputError(err error, target **InputError) bool {
	return errors.As(err, target)
}
