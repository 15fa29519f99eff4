package report

import (
	"fmt"
	"io"
	"path"
	"strings"

	"github.com/xpmigrate/xpmigrate/convert/migrate"
	"github.com/xpmigrate/xpmigrate/internal/workflow"
)

// WriteGitHub writes the run's problems as GitHub Actions workflow commands
// (`::error file=…,line=…::message`), one a line, so a pull request shows
// them on the files: failed files and Compositions, Compositions that still
// need converting in a --check run, verification differences, known gaps
// (as warnings) and findings. root prefixes the paths, which are relative to
// the migrated tree, so annotations point at files of the repository.
func WriteGitHub(w io.Writer, res *migrate.Result, root string) error {
	var b strings.Builder
	for _, p := range problems(res) {
		fmt.Fprintln(&b, workflow.Annotation{Level: p.Level, File: path.Join(root, p.File), Line: p.Line, Message: p.Message})
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// A problem is one thing a run reports to a person or a CI system: what
// the GitHub, SARIF and JUnit outputs are made of.
type problem struct {
	// Level is error, warning or notice.
	Level string
	// File is relative to the migrated tree; Line is 0 when unknown.
	File string
	Line int
	// Rule classifies the problem: a diagnostic or gap code, or one of
	// file-failed, composition-failed, not-migrated, verification-error,
	// unverified, inconclusive, unexplained.
	Rule    string
	Message string
	// Composition is the Composition concerned, if any.
	Composition string
}

// problems lists the run's problems in a stable order: failed files,
// then per Composition its failure, what is left to migrate, and its
// verification, then the converter's warnings and the findings.
func problems(res *migrate.Result) []problem {
	var out []problem
	emit := func(level, file string, line int, rule, comp, msg string) {
		out = append(out, problem{Level: level, File: file, Line: line, Rule: rule, Composition: comp, Message: msg})
	}
	for _, f := range res.Files {
		switch f.Status {
		case migrate.FileFailed:
			emit("error", f.Path, 0, "file-failed", "", fmt.Sprintf("xpmigrate cannot migrate this file (%s): %s", f.Reason, f.Detail))
		case migrate.FileHeldBack:
			emit("error", f.Path, 0, "held-back", "", fmt.Sprintf("xpmigrate held this file back (%s): %s", f.Reason, f.Detail))
		}
	}
	for _, c := range res.Compositions {
		switch {
		case c.Status == migrate.CompositionFailed:
			emit("error", c.File, c.Line, "composition-failed", c.Name, fmt.Sprintf("Composition %s cannot be converted: %s", c.Name, diagnosticsText(c.Diagnostics)))
		case res.Check && (c.Status == migrate.CompositionConverted || c.Status == migrate.CompositionChanged || c.Status == migrate.CompositionPhase1):
			emit("error", c.File, c.Line, "not-migrated", c.Name, fmt.Sprintf("Composition %s still needs migrating (run xpmigrate migrate)", c.Name))
		}
		v := c.Verification
		if v == nil {
			continue
		}
		if v.Error != "" {
			emit("error", c.File, c.Line, "verification-error", c.Name, fmt.Sprintf("Composition %s: verification could not run: %s", c.Name, v.Error))
		}
		if v.Status == migrate.VerifyUnverified && v.Reason != "" {
			emit("warning", c.File, c.Line, "unverified", c.Name, fmt.Sprintf("Composition %s is unverified: %s. Hint: %s", c.Name, v.Reason, v.Hint))
		}
		for _, s := range v.Samples {
			if s.Error != "" {
				emit("error", c.File, c.Line, "verification-error", c.Name, fmt.Sprintf("Composition %s, sample %s: verification could not run: %s", c.Name, s.Source, s.Error))
			}
			if s.Status == migrate.VerifyInconclusive {
				emit("warning", c.File, c.Line, "inconclusive", c.Name, fmt.Sprintf("Composition %s, sample %s: inconclusive, both sides failed (legacy: %s; pipeline: %s). Hint: %s", c.Name, s.Source, s.LegacyError, s.PipelineError, s.Hint))
				continue
			}
			for _, d := range s.Differences {
				switch {
				case d.Code == "":
					emit("error", c.File, c.Line, "unexplained", c.Name, fmt.Sprintf("Composition %s, sample %s: %s differs after conversion (legacy %q, pipeline %q)", c.Name, s.Source, d.Path, d.Legacy, d.Pipeline))
				case d.Class == "breaking" && d.Accepted == "":
					emit("error", c.File, c.Line, d.Code, c.Name, fmt.Sprintf("Composition %s, sample %s: %s differs, breaking known gap %s (accept it with --accept %s or the annotation xpmigrate.io/accept-gaps): %s", c.Name, s.Source, d.Path, d.Code, d.Code, d.Message))
				case d.Class == "breaking":
					emit("warning", c.File, c.Line, d.Code, c.Name, fmt.Sprintf("Composition %s, sample %s: %s differs, breaking known gap %s, accepted (%s): %s", c.Name, s.Source, d.Path, d.Code, d.Accepted, d.Message))
				default:
					emit("notice", c.File, c.Line, d.Code, c.Name, fmt.Sprintf("Composition %s, sample %s: %s differs, %s known gap %s: %s", c.Name, s.Source, d.Path, d.Class, d.Code, d.Message))
				}
			}
		}
	}
	// The converter's warnings, once each, at their own line.
	for _, w := range res.ConverterWarnings() {
		emit("warning", w.File, w.Line, w.Code, w.Composition, w.Code+" "+w.Message)
	}
	for _, f := range res.Findings {
		level := "notice"
		switch f.Severity {
		case migrate.SeverityError:
			level = "error"
		case migrate.SeverityWarning:
			level = "warning"
		}
		emit(level, f.File, f.Line, f.Code, f.Composition, f.Code+" "+f.Message)
	}
	return out
}

func diagnosticsText(ds []migrate.Diagnostic) string {
	parts := make([]string, 0, len(ds))
	for _, d := range ds {
		if d.Severity == migrate.SeverityError {
			parts = append(parts, d.Code+" "+d.Message)
		}
	}
	if len(parts) == 0 {
		return "see the report"
	}
	return strings.Join(parts, "; ")
}
