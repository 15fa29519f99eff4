package manifest

import (
	"fmt"
	"regexp"
	"strconv"

	"github.com/xpmigrate/xpmigrate/internal/errkind"
)

// An InputError is bad input: unparseable YAML, a missing file, a document
// of the wrong kind. It is errkind's invalid input, for which commands exit
// 2.
type InputError = errkind.InvalidInputError

// A DocumentError is a document of a file that cannot be read. Line counts
// in the file, not in the document: the YAML readers number the lines of
// the text they are given, and that text is one document of the file.
type DocumentError struct {
	// Source names the file.
	Source string
	// Document is the document's 1-based position in the file.
	Document int
	// Line is the 1-based line of the problem in the file.
	Line int
	// Msg is the reader's message without its line.
	Msg string
	err error
}

func (e *DocumentError) Error() string {
	return fmt.Sprintf("%s:%d: document %d: %s", e.Source, e.Line, e.Document, e.Msg)
}

func (e *DocumentError) Unwrap() error { return e.err }

// yamlLine finds the line a YAML reader names in its message
// (sigs.k8s.io/yaml and yaml.v2/v3 say "yaml: line N: ...").
var yamlLine = regexp.MustCompile(`yaml: line (\d+): (.*)$`)

// NewDocumentError returns err, the error of reading document d (its Raw)
// of source, as a *DocumentError with the line counted in the file.
func NewDocumentError(source string, d Document, err error) *DocumentError {
	e := &DocumentError{Source: source, Document: d.Index + 1, Line: d.Line, Msg: err.Error(), err: err}
	if m := yamlLine.FindStringSubmatch(e.Msg); m != nil {
		if n, cerr := strconv.Atoi(m[1]); cerr == nil && n > 0 {
			e.Line, e.Msg = d.Line+n-1, m[2]
		}
	}
	return e
}
