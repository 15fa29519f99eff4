package convert

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"

	"github.com/pkg/errors"

	"github.com/xpmigrate/xpmigrate/internal/logsafe"
	"github.com/xpmigrate/xpmigrate/internal/manifest"
)

// Output formats of a converted stream.
const (
	FormatYAML = "yaml" // the input's layout, edited
	FormatJSON = "json" // one object, or a v1 List of several
)

// Diagnostics formats.
const (
	DiagnosticsText = "text" // one finding per line
	DiagnosticsJSON = "json" // one JSON object: file, documents, diagnostics
)

// OutputFormat returns the format a converted stream is written in: the
// requested one, else json for an input that is one JSON value, else yaml.
func OutputFormat(requested string, in []byte) string {
	if requested != "" {
		return requested
	}
	if t := bytes.TrimSpace(in); len(t) > 0 && t[0] == '{' && json.Valid(t) {
		return FormatJSON
	}
	return FormatYAML
}

// StreamJSON renders a YAML stream as JSON: one object as itself, several
// as a v1 List. Empty documents are dropped.
func StreamJSON(b []byte) ([]byte, error) {
	var items []any
	for _, c := range manifest.Split(b) {
		j, err := manifest.JSON(c.Text)
		if err != nil {
			return nil, errors.Wrapf(err, "cannot write the document at line %d as JSON", c.TextLine)
		}
		dec := json.NewDecoder(bytes.NewReader(j))
		dec.UseNumber()
		var v any
		if err := dec.Decode(&v); err != nil {
			return nil, errors.Wrapf(err, "cannot write the document at line %d as JSON", c.TextLine)
		}
		if v != nil {
			items = append(items, v)
		}
	}
	var v any = map[string]any{"apiVersion": "v1", "kind": "List", "items": items}
	if len(items) == 1 {
		v = items[0]
	}
	var out bytes.Buffer
	enc := json.NewEncoder(&out)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return nil, errors.Wrap(err, "cannot write JSON")
	}
	return out.Bytes(), nil
}

// WriteDiagnostics writes the findings of converting source to w: as text,
// one per line, or (format DiagnosticsJSON) as one JSON object with the
// documents' reports.
func WriteDiagnostics(w io.Writer, format, source string, docs []DocumentReport, ds []Diagnostic) error {
	if format == DiagnosticsJSON {
		if docs == nil {
			docs = []DocumentReport{}
		}
		if ds == nil {
			ds = []Diagnostic{}
		}
		enc := json.NewEncoder(w)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		return enc.Encode(struct {
			File        string           `json:"file"`
			Documents   []DocumentReport `json:"documents"`
			Diagnostics []Diagnostic     `json:"diagnostics"`
		}{source, docs, ds})
	}
	for _, d := range ds {
		if _, err := fmt.Fprintln(w, logsafe.Escape(d.String())); err != nil {
			return err
		}
	}
	return nil
}

// InvalidInput reports that an invalid option is invalid input (exit 2).
func (e *OptionError) InvalidInput() bool { return true }

// InvalidInput reports that input that is not YAML is invalid input
// (exit 2).
func (e *InputError) InvalidInput() bool { return true }
