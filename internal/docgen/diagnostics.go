package docgen

import (
	"fmt"
	"slices"
	"strings"

	"github.com/pkg/errors"

	"github.com/xpmigrate/xpmigrate/convert"
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

// An explanation is the part of a Diagnostic that the registry does not
// hold.
type explanation struct {
	meaning, fix string
}

// Diagnostics joins the registry with the explanations kept in this
// package, in registry order. A code without an explanation, or an
// explanation for a code the registry no longer has, is an error: the
// reference must cover exactly the codes the converter reports.
func Diagnostics(registry []convert.CodeInfo) ([]Diagnostic, error) {
	out := make([]Diagnostic, 0, len(registry))
	seen := map[string]bool{}
	var missing []string
	for _, ci := range registry {
		code := string(ci.Code)
		seen[code] = true
		e, ok := explanations[code]
		if !ok {
			missing = append(missing, code)
			continue
		}
		out = append(out, Diagnostic{
			Code: code, Severity: string(ci.Severity), Summary: ci.Summary,
			Meaning: e.meaning, Fix: e.fix,
		})
	}
	var extra []string
	for code := range explanations {
		if !seen[code] {
			extra = append(extra, code)
		}
	}
	slices.Sort(extra)
	switch {
	case len(missing) > 0:
		return nil, errors.Errorf("cannot document diagnostic codes %s: add their explanations to internal/docgen/explanations.go", strings.Join(missing, ", "))
	case len(extra) > 0:
		return nil, errors.Errorf("cannot document diagnostic codes %s: they are not in convert.Registry any more; remove their explanations", strings.Join(extra, ", "))
	}
	return out, nil
}

// severityTitles orders and names the sections of the diagnostics page.
var severityTitles = []struct {
	severity, title, effect string
}{
	{string(convert.SeverityError), "Errors (C1xx)", "The document is not converted and nothing is written for its file; the command exits 1."},
	{string(convert.SeverityWarning), "Warnings (C2xx)", "The document is converted and the finding reported. `--strict` turns warnings into errors."},
	{string(convert.SeverityInfo), "Information (C3xx)", "Reported only: something to know or confirm, never a failure."},
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
