package finding

import "sort"

// Severities of a Diagnostic, as docs/semantics/conversion.md uses them.
const (
	SeverityError   = "error"
	SeverityWarning = "warning"
	SeverityInfo    = "info"
)

// A Diagnostic is one finding about one document of a file: a converter
// diagnostic (codes C1xx–C3xx of docs/reference/diagnostics.md) or a migrator finding
// (codes M4xx, see migrate.Finding).
type Diagnostic struct {
	// File is set in migrate.Result.Findings only: the file's path.
	File string `json:"file,omitempty"`
	// Code is the stable finding code, such as "C204".
	Code string `json:"code"`
	// Severity is SeverityError, SeverityWarning or SeverityInfo.
	Severity string `json:"severity"`
	// Document is the 0-based index of the document in its file, -1 when
	// the finding concerns the whole file.
	Document int `json:"document"`
	// Line is the 1-based line in the input file, 0 when unknown.
	Line int `json:"line,omitempty"`
	// Composition names the Composition concerned, if any.
	Composition string `json:"composition,omitempty"`
	// Path is the YAML path concerned, such as spec.resources[0].patches[2].
	Path string `json:"path,omitempty"`
	// Message says what was found and, where there is one, the fix.
	Message string `json:"message"`
}

// Sort orders diagnostics by document then code, keeping the order they
// were found in otherwise (resources, then patches, as in the file), and
// drops exact duplicates. It reuses ds.
func Sort(ds []Diagnostic) []Diagnostic {
	sort.SliceStable(ds, func(i, j int) bool {
		a, b := ds[i], ds[j]
		if a.Document != b.Document {
			return a.Document < b.Document
		}
		return a.Code < b.Code
	})
	seen := make(map[Diagnostic]bool, len(ds))
	out := ds[:0]
	for _, d := range ds {
		if seen[d] {
			continue
		}
		seen[d] = true
		out = append(out, d)
	}
	return out
}
