package report

import (
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/pkg/errors"

	"github.com/xpmigrate/xpmigrate/convert/migrate"
	"github.com/xpmigrate/xpmigrate/internal/markdown"
)

// Report formats.
const (
	JSON     = "json"
	Markdown = "md"
	HTML     = "html"
)

// FileFormat returns the report format a file name asks for by its
// extension: .json, .md (or .markdown), .html (or .htm).
func FileFormat(name string) (string, error) {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".json":
		return JSON, nil
	case ".md", ".markdown":
		return Markdown, nil
	case ".html", ".htm":
		return HTML, nil
	}
	return "", errors.Errorf("report %q: the name must end in .json, .md or .html", name)
}

// Write writes r in format.
func Write(w io.Writer, format string, r *migrate.Result) error {
	return write(w, format, r, nil)
}

// write writes r in format, with the cluster check's section when cl is
// not nil.
func write(w io.Writer, format string, r *migrate.Result, cl *Cluster) error {
	switch format {
	case JSON:
		return writeJSON(w, r, cl)
	case Markdown:
		return writeMarkdown(w, r, cl)
	case HTML:
		return writeHTML(w, r, cl)
	}
	return errors.Errorf("unknown report format %q", format)
}

// jsonReport is the JSON report's shape; ReportVersion changes when it
// does incompatibly.
type jsonReport struct {
	ReportVersion int                         `json:"reportVersion"`
	Mode          string                      `json:"mode"`
	Check         bool                        `json:"check,omitempty"`
	Cancelled     bool                        `json:"cancelled,omitempty"`
	Summary       migrate.Summary             `json:"summary"`
	Files         []migrate.FileResult        `json:"files"`
	Compositions  []migrate.CompositionResult `json:"compositions"`
	Findings      []migrate.Finding           `json:"findings"`
	// Cluster is the cluster check of migrate --cluster.
	Cluster any `json:"cluster,omitempty"`
}

// WriteJSON writes the machine-readable report: the summary, every file
// and Composition with its diagnostics and verification, and the findings.
func WriteJSON(w io.Writer, r *migrate.Result) error { return writeJSON(w, r, nil) }

func writeJSON(w io.Writer, r *migrate.Result, cl *Cluster) error {
	rep := jsonReport{ReportVersion: 1, Mode: r.Mode, Check: r.Check, Cancelled: r.Cancelled, Summary: r.Summary,
		Files: r.Files, Compositions: r.Compositions, Findings: r.Findings}
	if rep.Files == nil {
		rep.Files = []migrate.FileResult{}
	}
	if rep.Compositions == nil {
		rep.Compositions = []migrate.CompositionResult{}
	}
	if rep.Findings == nil {
		rep.Findings = []migrate.Finding{}
	}
	if cl != nil {
		rep.Cluster = cl.JSON
	}
	b, err := json.MarshalIndent(rep, "", "  ")
	if err != nil {
		return errors.Wrap(err, "cannot encode the report")
	}
	b = append(b, '\n')
	_, err = w.Write(b)
	return errors.Wrap(err, "cannot write the report")
}

// WriteMarkdown writes the report as GitHub-flavoured Markdown, for pull
// request comments and job summaries.
func WriteMarkdown(w io.Writer, r *migrate.Result) error { return writeMarkdown(w, r, nil) }

func writeMarkdown(w io.Writer, r *migrate.Result, cl *Cluster) error {
	var b strings.Builder
	s := r.Summary
	b.WriteString("# xpmigrate migrate report\n\n")
	fmt.Fprintf(&b, "**%s**\n\n", markdown.Escape(migrate.Headline(r)))
	if r.Cancelled {
		b.WriteString("> **Cancelled.** Files not processed were left as they were.\n\n")
	}
	b.WriteString("## Summary\n\n| | |\n|---|---|\n")
	row := func(k string, v any) { fmt.Fprintf(&b, "| %s | %v |\n", k, v) }
	row("Files", s.Files)
	row("Converted", s.Converted)
	row("Unchanged", s.Unchanged)
	row("Skipped", s.Skipped)
	row("Failed", s.Failed)
	if s.NotProcessed > 0 {
		row("Not processed", s.NotProcessed)
	}
	row("Compositions (legacy)", fmt.Sprintf("%d (%d)", s.Compositions, s.LegacyCompositions))
	row("Compositions converted", s.ConvertedCompositions)
	row("Compositions failed", s.FailedCompositions)
	row("Verified equivalent", s.VerifiedEquivalent)
	row("Intended changes", s.IntendedChanges)
	row("Known gaps", s.KnownGaps)
	row("Different", s.Differences)
	row("Verifications failing", s.Failing)
	row("Verification errors", s.VerifyErrors)
	row("Unverified", s.Unverified)
	row("Inconclusive samples", s.InconclusiveSamples)
	row("Diagnostics and findings (all files)", s.Errors+s.Warnings+s.Infos)
	row("of which repository findings (M-codes)", s.Findings)
	if len(s.GapCodes) > 0 {
		row("Classified differences by gap code (benign ones included)", migrate.CountList(s.GapCodes))
	}

	if len(r.Compositions) > 0 {
		b.WriteString("\n## Compositions\n\n| Composition | File | Status | Verification | Diagnostics |\n|---|---|---|---|---|\n")
		for _, c := range r.Compositions {
			v := "–"
			if c.Verification != nil {
				v = string(c.Verification.Status)
			}
			fmt.Fprintf(&b, "| %s | %s#%d | %s | %s | %s |\n", markdown.Escape(c.Name), markdown.Escape(c.File), c.Document, c.Status, v, markdown.Escape(diagCounts(c.Diagnostics)))
		}
	}

	var skipped []migrate.FileResult
	for _, f := range r.Files {
		if f.Status == migrate.FileSkipped || f.Status == migrate.FileFailed || f.Status == migrate.FileNotProcessed {
			skipped = append(skipped, f)
		}
	}
	if len(skipped) > 0 {
		b.WriteString("\n## Skipped and failed files\n\n| File | Status | Reason | Detail |\n|---|---|---|---|\n")
		for _, f := range skipped {
			fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", markdown.Escape(f.Path), f.Status, markdown.Escape(f.Reason), markdown.Escape(f.Detail))
		}
	}

	var diffs []migrate.CompositionResult
	for _, c := range r.Compositions {
		if v := c.Verification; v != nil && (v.Status != migrate.VerifyEquivalent || v.Fails || hasInconclusive(v)) {
			diffs = append(diffs, c)
		}
	}
	if len(diffs) > 0 {
		b.WriteString("\n## Verification differences\n")
		for _, c := range diffs {
			fmt.Fprintf(&b, "\n### %s (%s#%d): %s\n\n", markdown.Escape(c.Name), markdown.Escape(c.File), c.Document, c.Verification.Status)
			if c.Verification.Error != "" {
				fmt.Fprintf(&b, "Error: %s\n\n", markdown.Escape(c.Verification.Error))
			}
			if c.Verification.Reason != "" {
				fmt.Fprintf(&b, "Unverified: %s. Hint: %s\n\n", markdown.Escape(c.Verification.Reason), markdown.Escape(c.Verification.Hint))
			}
			for _, sm := range c.Verification.Samples {
				if sm.Status == migrate.VerifyEquivalent {
					continue
				}
				fmt.Fprintf(&b, "- sample %s: %s", markdown.Code(sm.Source), sm.Status)
				if sm.Error != "" {
					fmt.Fprintf(&b, ": %s", markdown.Escape(sm.Error))
				}
				if sm.Ready != "" {
					fmt.Fprintf(&b, " (XR Ready: legacy %s)", markdown.Escape(strings.Replace(sm.Ready, " -> ", ", pipeline ", 1)))
				}
				if sm.Status == migrate.VerifyInconclusive {
					fmt.Fprintf(&b, ": both sides failed, nothing was proven. Legacy: %s; pipeline: %s. Hint: %s", markdown.Escape(sm.LegacyError), markdown.Escape(sm.PipelineError), markdown.Escape(sm.Hint))
				}
				b.WriteString("\n")
				for _, d := range sm.Differences {
					code := d.Code
					switch {
					case code == "":
						code = "unexplained"
					case d.Accepted != "":
						code += ", " + d.Class + ", accepted"
					case d.Class != "":
						code += ", " + d.Class
					}
					fmt.Fprintf(&b, "  - %s (%s): legacy %s, pipeline %s", markdown.Code(d.Path), markdown.Escape(code), markdown.Code(oneLine(d.Legacy)), markdown.Code(oneLine(d.Pipeline)))
					if d.Message != "" {
						fmt.Fprintf(&b, ": %s", markdown.Escape(d.Message))
					}
					b.WriteString("\n")
				}
			}
		}
	}

	var diags []migrate.Diagnostic
	for _, f := range r.Files {
		for _, d := range f.Diagnostics {
			d.File = f.Path
			diags = append(diags, d)
		}
	}
	if len(diags) > 0 {
		b.WriteString("\n## Diagnostics and findings\n\n| File | Doc | Code | Severity | Composition | Path | Message |\n|---|---|---|---|---|---|---|\n")
		for _, d := range diags {
			fmt.Fprintf(&b, "| %s | %d | %s | %s | %s | %s | %s |\n", markdown.Escape(d.File), d.Document, d.Code, d.Severity, markdown.Escape(d.Composition), markdown.Escape(d.Path), markdown.Escape(d.Message))
		}
	}
	if cl != nil && cl.Markdown != "" {
		b.WriteString("\n")
		b.WriteString(cl.Markdown)
	}
	_, err := io.WriteString(w, b.String())
	return errors.Wrap(err, "cannot write the report")
}

func diagCounts(ds []migrate.Diagnostic) string {
	if len(ds) == 0 {
		return "–"
	}
	m := map[string]int{}
	for _, d := range ds {
		m[d.Code]++
	}
	return migrate.CountList(m)
}

func oneLine(s string) string {
	s = strings.TrimSpace(s)
	s = strings.ReplaceAll(s, "\n", " ")
	s = strings.ReplaceAll(s, "`", "'")
	if len(s) > 80 {
		s = s[:77] + "..."
	}
	if s == "" {
		return "(absent)"
	}
	return s
}

// hasInconclusive reports whether a verification has an inconclusive
// sample.
func hasInconclusive(v *migrate.Verification) bool {
	for _, s := range v.Samples {
		if s.Status == migrate.VerifyInconclusive {
			return true
		}
	}
	return false
}
