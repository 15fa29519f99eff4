package docgen

import (
	"fmt"
	"strings"

	"github.com/pkg/errors"
)

// A Diagnostic is one code of the converter's registry with its
// explanation.
type Diagnostic struct {
	Code     string
	Severity string
	Summary  string

	// Meaning says when the converter reports the code and why it matters;
	// Fix what the user does about it.
	Meaning string
	Fix     string
}

// Diagnostics checks the codes the caller documents, in their order: a
// code without a meaning or a fix is an error, so the reference covers
// every code the converter reports, each explained.
func Diagnostics(codes []Diagnostic) ([]Diagnostic, error) {
	var missing []string
	for _, d := range codes {
		if strings.TrimSpace(d.Meaning) == "" || strings.TrimSpace(d.Fix) == "" {
			missing = append(missing, d.Code)
		}
	}
	if len(missing) > 0 {
		return nil, errors.Errorf("cannot document diagnostic codes %s: add their explanations (convert/explanations.go)", strings.Join(missing, ", "))
	}
	return codes, nil
}

// severityTitles orders and names the sections of the diagnostics page.
var severityTitles = []struct {
	severity, title, effect string
}{
	{"error", "Errors (C1xx, C4xx)", "The document is not converted and nothing is written for its file; the command exits 1."},
	{"warning", "Warnings (C2xx, C4xx)", "The document is converted and the finding reported. `--strict` turns warnings into errors."},
	{"info", "Information (C3xx, C4xx)", "Reported only: something to know or confirm, never a failure."},
}

func diagnosticsPage(diags []Diagnostic) []byte {
	var b strings.Builder
	b.WriteString(Marker + "\n\n")
	b.WriteString("# Diagnostic codes\n\n")
	b.WriteString("`xpmigrate convert` and `xpmigrate migrate` report every finding with a stable\n")
	b.WriteString("code, one line per finding on stderr, in the form\n")
	b.WriteString("`FILE:LINE: CODE severity: path: message` (`convert --diagnostics-format json`\n")
	b.WriteString("gives the same as JSON). `xpmigrate verify` names the codes that warned about\n")
	b.WriteString("a known gap next to the gap's D-code (see\n")
	b.WriteString("[the migration runbook](../migration-runbook.md#reading-a-verify-report)).\n\n")
	b.WriteString("| Severity | Codes | Effect |\n|---|---|---|\n")
	for _, s := range severityTitles {
		fmt.Fprintf(&b, "| %s | %s | %s |\n", s.severity, strings.TrimSuffix(strings.SplitN(s.title, "(", 2)[1], ")"), s.effect)
	}
	b.WriteString("\nThis page is generated from `convert.Registry`; the codes are stable, and a\n")
	b.WriteString("new code cannot be added without its explanation here.\n\n")

	b.WriteString("## Summary\n\n| Code | Severity | Summary |\n|---|---|---|\n")
	for _, d := range diags {
		fmt.Fprintf(&b, "| [%s](#%s) | %s | %s |\n", d.Code, strings.ToLower(d.Code), d.Severity, tableCell(d.Summary))
	}
	b.WriteString("\n")

	for _, s := range severityTitles {
		var in []Diagnostic
		for _, d := range diags {
			if d.Severity == s.severity {
				in = append(in, d)
			}
		}
		if len(in) == 0 {
			continue
		}
		fmt.Fprintf(&b, "## %s\n\n%s\n\n", s.title, s.effect)
		for _, d := range in {
			fmt.Fprintf(&b, "### %s\n\n", d.Code)
			fmt.Fprintf(&b, "*%s:* %s\n\n", d.Severity, prose(d.Summary))
			b.WriteString(d.Meaning + "\n\n")
			b.WriteString("**What to do:** " + d.Fix + "\n\n")
		}
	}
	return []byte(strings.TrimRight(b.String(), "\n") + "\n")
}
