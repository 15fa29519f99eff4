package format

import (
	"io"

	"github.com/xpmigrate/xpmigrate/render/verify"
)

// The parts of the formats other writers compose (render/verify/live's
// cluster report carries the conversion check with them).

// WriteGitHub writes the report as GitHub Actions workflow commands, as
// Write does with GitHub.
func WriteGitHub(w io.Writer, r *verify.Report) error { return writeGitHub(w, r) }

// Classification names what explains a difference, in one line, as the
// text output does.
func Classification(d *verify.Difference, strict bool) string { return classification(d, strict) }

// ValueText is a value of a difference as one line of JSON, cut at 200
// bytes; "absent" for none.
func ValueText(v *verify.Value) string { return valueText(v) }

// ReportSummary words a report's verdict in one line, as the text output's
// first line does.
func ReportSummary(r *verify.Report) string { return reportSummary(r) }

// SampleSummary words a sample's verdict in one line.
func SampleSummary(s *verify.SampleReport) string { return sampleSummary(s) }
