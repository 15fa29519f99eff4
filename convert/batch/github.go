package batch

import (
	"fmt"
	"io"
	"path"
	"strings"
)

// WriteGitHub writes the run's problems as GitHub Actions workflow commands
// (`::error file=…,line=…::message`), one a line, so a pull request shows
// them on the files: failed files and Compositions, Compositions that still
// need converting in a --check run, verification differences, known gaps
// (as warnings) and findings. root prefixes the paths, which are relative to
// the migrated tree, so annotations point at files of the repository.
func WriteGitHub(w io.Writer, res *Result, root string) error {
	at := func(file string, line int) string {
		p := path.Join(root, file)
		if line > 0 {
			return fmt.Sprintf("file=%s,line=%d", escapeProperty(p), line)
		}
		return "file=" + escapeProperty(p)
	}
	var b strings.Builder
	emit := func(level, where, msg string) {
		fmt.Fprintf(&b, "::%s %s::%s\n", level, where, escapeData(msg))
	}
	for _, f := range res.Files {
		if f.Status == FileFailed {
			emit("error", at(f.Path, 0), fmt.Sprintf("xpmigrate cannot migrate this file (%s): %s", f.Reason, f.Detail))
		}
	}
	for _, c := range res.Compositions {
		where := at(c.File, c.Line)
		switch {
		case c.Status == CompositionFailed:
			emit("error", where, fmt.Sprintf("Composition %s cannot be converted: %s", c.Name, diagnosticsText(c.Diagnostics)))
		case res.Check && (c.Status == CompositionConverted || c.Status == CompositionChanged || c.Status == CompositionPhase1):
			emit("error", where, fmt.Sprintf("Composition %s still needs migrating (run xpmigrate migrate)", c.Name))
		}
		v := c.Verification
		if v == nil {
			continue
		}
		if v.Error != "" {
			emit("error", where, fmt.Sprintf("Composition %s: verification could not run: %s", c.Name, v.Error))
		}
		if v.Status == VerifyUnverified && v.Reason != "" {
			emit("warning", where, fmt.Sprintf("Composition %s is unverified: %s. Hint: %s", c.Name, v.Reason, v.Hint))
		}
		for _, s := range v.Samples {
			if s.Error != "" {
				emit("error", where, fmt.Sprintf("Composition %s, sample %s: verification could not run: %s", c.Name, s.Source, s.Error))
			}
			if s.Status == VerifyInconclusive {
				emit("warning", where, fmt.Sprintf("Composition %s, sample %s: inconclusive, both sides failed (legacy: %s; pipeline: %s). Hint: %s", c.Name, s.Source, s.LegacyError, s.PipelineError, s.Hint))
				continue
			}
			for _, d := range s.Differences {
				switch {
				case d.Code == "":
					emit("error", where, fmt.Sprintf("Composition %s, sample %s: %s differs after conversion (legacy %q, pipeline %q)", c.Name, s.Source, d.Path, d.Legacy, d.Pipeline))
				case d.Class == "breaking" && d.Accepted == "":
					emit("error", where, fmt.Sprintf("Composition %s, sample %s: %s differs, breaking known gap %s (accept it with --accept %s or the annotation xpmigrate.io/accept-gaps): %s", c.Name, s.Source, d.Path, d.Code, d.Code, d.Message))
				case d.Class == "breaking":
					emit("warning", where, fmt.Sprintf("Composition %s, sample %s: %s differs, breaking known gap %s, accepted (%s): %s", c.Name, s.Source, d.Path, d.Code, d.Accepted, d.Message))
				default:
					emit("notice", where, fmt.Sprintf("Composition %s, sample %s: %s differs, %s known gap %s: %s", c.Name, s.Source, d.Path, d.Class, d.Code, d.Message))
				}
			}
		}
	}
	// The converter's warnings, once each, at their own line.
	for _, w := range converterWarnings(res) {
		emit("warning", at(w.File, w.Line), w.Code+" "+w.Message)
	}
	for _, f := range res.Findings {
		level := "notice"
		switch f.Severity {
		case SeverityError:
			level = "error"
		case SeverityWarning:
			level = "warning"
		}
		emit(level, at(f.File, f.Line), f.Code+" "+f.Message)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func diagnosticsText(ds []Diagnostic) string {
	parts := make([]string, 0, len(ds))
	for _, d := range ds {
		if d.Severity == SeverityError {
			parts = append(parts, d.Code+" "+d.Message)
		}
	}
	if len(parts) == 0 {
		return "see the report"
	}
	return strings.Join(parts, "; ")
}

// escapeData and escapeProperty escape workflow-command text as the
// runner expects.
func escapeData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

func escapeProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}

// converterWarnings returns the converter's warnings (C-codes) of every
// file, with File set, once each, in file and line order.
func converterWarnings(res *Result) []Diagnostic {
	var out []Diagnostic
	seen := map[string]bool{}
	for _, f := range res.Files {
		for _, d := range f.Diagnostics {
			if d.Severity != SeverityWarning || !strings.HasPrefix(d.Code, "C") {
				continue
			}
			k := fmt.Sprintf("%s\x00%d\x00%s\x00%s", f.Path, d.Line, d.Code, d.Message)
			if seen[k] {
				continue
			}
			seen[k] = true
			d.File = f.Path
			out = append(out, d)
		}
	}
	return out
}
