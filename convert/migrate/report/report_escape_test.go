package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/xpmigrate/xpmigrate/convert/migrate"
	"github.com/xpmigrate/xpmigrate/internal/testutil"
)

// stripCodeSpans is testutil.StripCodeSpans.
var stripCodeSpans = testutil.StripCodeSpans

// unescapedPipes counts the | of a table row not escaped by a backslash.
func unescapedPipes(row string) int {
	n := 0
	for i := 0; i < len(row); i++ {
		switch row[i] {
		case '\\':
			i++
		case '|':
			n++
		}
	}
	return n
}

func TestMarkdownReportEscapes(t *testing.T) {
	hostile := "<img src=x onerror=alert(1)>|[click](javascript:alert(1))*x*_y_"
	r := &migrate.Result{
		Mode: "none",
		Files: []migrate.FileResult{{Path: "evil/" + hostile + ".yaml", Status: migrate.FileSkipped, Reason: migrate.ReasonUnparseable, Detail: hostile,
			Diagnostics: []migrate.Diagnostic{{Code: "C204", Severity: migrate.SeverityWarning, Composition: hostile, Path: "spec." + hostile, Message: hostile}}}},
		Compositions: []migrate.CompositionResult{{
			File: "evil/" + hostile + ".yaml", Name: hostile, Status: migrate.CompositionConverted,
			Verification: &migrate.Verification{Status: migrate.VerifyDifferences, Fails: true, Error: hostile, Samples: []migrate.SampleResult{{
				Source: "x`<b>bold</b>`" + hostile + ".yaml", Status: migrate.VerifyDifferences, Error: hostile,
				Differences: []migrate.Difference{{Path: "xr.spec.`<script>`" + hostile, Legacy: "`<script>`", Pipeline: hostile, Message: hostile}},
			}}},
		}},
	}
	r.Summary.Files, r.Summary.Compositions = 1, 1
	var b bytes.Buffer
	if err := WriteMarkdown(&b, r); err != nil {
		t.Fatal(err)
	}
	out, closed := stripCodeSpans(b.String())
	if !closed {
		t.Fatalf("WriteMarkdown(...): a code span is not closed:\n%s", b.String())
	}
	for _, raw := range []string{"<img", "<b>", "<script", "](javascript"} {
		if strings.Contains(out, raw) {
			t.Errorf("WriteMarkdown(...): %q written raw outside code spans:\n%s", raw, b.String())
		}
	}
	for _, line := range strings.Split(b.String(), "\n") {
		if !strings.HasPrefix(line, "| ") || strings.HasPrefix(line, "| |") {
			continue
		}
		// Tables of the report have 2, 4, 5 or 7 columns: a name with a
		// pipe must not add one.
		switch unescapedPipes(line) {
		case 3, 5, 6, 8:
		default:
			t.Errorf("WriteMarkdown(...): row with %d cell separators: %s", unescapedPipes(line), line)
		}
	}
}

// checkMarkdown fails t when text from the tree could have become markup
// in a Markdown report: an unclosed code span, HTML or a link outside code
// spans, or a table row with an extra cell.
func checkMarkdown(t *testing.T, md string) {
	t.Helper()
	out, closed := stripCodeSpans(md)
	if !closed {
		t.Fatalf("WriteMarkdown(...): a code span is not closed:\n%s", md)
	}
	for _, raw := range []string{"<", "]("} {
		if strings.Contains(out, raw) {
			t.Fatalf("WriteMarkdown(...): %q outside code spans:\n%s", raw, md)
		}
	}
	for _, line := range strings.Split(md, "\n") {
		if !strings.HasPrefix(line, "| ") || strings.HasPrefix(line, "| |") {
			continue
		}
		switch unescapedPipes(line) {
		case 3, 5, 6, 8:
		default:
			t.Fatalf("WriteMarkdown(...): row with %d cell separators: %s", unescapedPipes(line), line)
		}
	}
}

// FuzzMarkdownReport writes reports whose names, paths and messages are
// arbitrary, and checks that none of them becomes markup.
func FuzzMarkdownReport(f *testing.F) {
	f.Add("name", "dir/file.yaml", "examples/xr.yaml", "xr.spec.a", "a message", "1")
	f.Add("<img src=x onerror=alert(1)>", "a|b.yaml", "x`y`.yaml", "spec.`<s>`", "[x](javascript:1)", "``")
	f.Add("a\\|b", "\\", "`", "``` ", "\r\n|", "<")
	f.Fuzz(func(t *testing.T, name, path, source, diffPath, msg, value string) {
		r := &migrate.Result{
			Mode: "none",
			Files: []migrate.FileResult{{Path: path, Status: migrate.FileFailed, Reason: migrate.ReasonUnparseable, Detail: msg,
				Diagnostics: []migrate.Diagnostic{{Code: "C204", Severity: migrate.SeverityWarning, Composition: name, Path: diffPath, Message: msg}}}},
			Compositions: []migrate.CompositionResult{{
				File: path, Name: name, Status: migrate.CompositionConverted,
				Verification: &migrate.Verification{Status: migrate.VerifyDifferences, Fails: true, Error: msg, Reason: msg, Hint: msg, Samples: []migrate.SampleResult{{
					Source: source, Status: migrate.VerifyInconclusive, Error: msg, LegacyError: msg, PipelineError: msg, Hint: msg, Ready: value,
					Differences: []migrate.Difference{{Path: diffPath, Legacy: value, Pipeline: msg, Message: msg, Code: value}},
				}}},
			}},
		}
		var b bytes.Buffer
		if err := WriteMarkdown(&b, r); err != nil {
			t.Fatal(err)
		}
		checkMarkdown(t, b.String())
	})
}
