package liveformat

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/pkg/errors"

	"github.com/xpmigrate/xpmigrate/convert/migrate/report"
	"github.com/xpmigrate/xpmigrate/render/verify"
	"github.com/xpmigrate/xpmigrate/render/verify/format"
	"github.com/xpmigrate/xpmigrate/render/verify/live"
)

var (
	mdEscape = report.EscapeMarkdown
	mdCode   = report.MarkdownCode
)

// writeMarkdown writes the reports as GitHub-flavoured Markdown in the
// look of migrate's report: a page (level 1) or the "Cluster check"
// section of migrate's report (level 2).
func writeMarkdown(w io.Writer, reports []*live.Report, o Options, level int) error {
	var b strings.Builder
	h := func(n int) string { return strings.Repeat("#", level+n) + " " }
	if level == 1 {
		b.WriteString(h(0) + "xpmigrate verify --cluster report\n\n")
	} else {
		b.WriteString(h(0) + "Cluster check\n\n")
	}
	fmt.Fprintf(&b, "**%s**\n\n", mdEscape(headline(reports)))
	if level == 1 {
		b.WriteString(h(1) + "Summary\n\n")
	}
	if len(reports) == 0 {
		b.WriteString("No legacy Composition was checked against the cluster.\n")
	} else {
		b.WriteString("| Composition | Verdict | XRs | Pinned to another revision | Conversion | Emulation differences | Drifted fields (info) |\n|---|---|---|---|---|---|---|\n")
		for _, r := range reports {
			conv := "–"
			if r.Conversion != nil {
				conv = string(r.Conversion.Verdict)
			}
			fmt.Fprintf(&b, "| %s | %s | %d | %d | %s | %s | %d |\n", mdEscape(r.Composition), r.Verdict, r.XRs, r.Pinned, conv,
				mdEscape(fmt.Sprintf("%d on %s", r.Emulation, plural(r.EmulationXRs, "XR"))), r.Drift)
		}
	}
	if perms := missing(reports); len(perms) > 0 {
		b.WriteString("\n" + h(1) + "Missing permissions\n\nThe kubeconfig's user may not make these requests: what they guard was not checked (grant them, see the runbook's RBAC role).\n\n")
		for _, p := range perms {
			fmt.Fprintf(&b, "- %s (%s)\n", mdCode(p.Perm), mdEscape(strings.Join(p.Comps, ", ")))
		}
	}
	for _, r := range reports {
		markdownReport(&b, r, o, h)
	}
	_, err := io.WriteString(w, b.String())
	return errors.Wrap(err, "cannot write the report")
}

func markdownReport(b *strings.Builder, r *live.Report, o Options, h func(int) string) {
	fmt.Fprintf(b, "\n%sComposition %s (%s): %s\n\n", h(1), mdCode(r.Composition), mdCode(r.Legacy), r.Verdict)
	fmt.Fprintf(b, "**%s** %s\n\n", label(r), mdEscape(summary(r)))
	if r.Verdict == live.NotChecked {
		return
	}
	if r.Unlisted > 0 {
		fmt.Fprintf(b, "%s\n\n| Check | Finding | XRs | For example |\n|---|---|---|---|\n", mdEscape(fmt.Sprintf("Every finding over all %s, by object and path (%s with findings are not listed one by one):", plural(r.XRs, "XR"), plural(r.Unlisted, "XR"))))
		for _, t := range tallies(r) {
			fmt.Fprintf(b, "| %s | %s | %d | %s |\n", t.Kind, mdEscape(t.Finding), t.XRs, mdEscape(t.Examples))
		}
		b.WriteString("\n")
	}
	if c := r.Conversion; c != nil {
		fmt.Fprintf(b, "Conversion (%s against %s): %s\n", mdCode(c.Legacy), mdCode(c.Converted), mdEscape(format.ReportSummary(c)))
		if c.Verdict == verify.Unverified {
			fmt.Fprintf(b, "\nUnverified: %s. Hint: %s\n", mdEscape(c.Reason), mdEscape(c.Hint))
		}
	}
	if diffs, left := conversionDiffs(r.Conversion, o.Verbose); len(diffs) > 0 || left > 0 {
		b.WriteString("\n" + h(2) + "Conversion differences\n\n")
		for _, sd := range diffs {
			fmt.Fprintf(b, "- XR %s: %s\n", mdCode(sd.sample.Sample), mdEscape(format.SampleSummary(sd.sample)))
			if sd.sample.Verdict == verify.Inconclusive {
				fmt.Fprintf(b, "  - legacy: %s; pipeline: %s. Hint: %s\n", mdEscape(sd.sample.LegacyError), mdEscape(sd.sample.PipelineError), mdEscape(sd.sample.Hint))
			}
			for _, d := range sd.diffs {
				fmt.Fprintf(b, "  - %s: %s: legacy %s, pipeline %s\n", mdCode(d.Title()), mdEscape(format.Classification(d, r.Conversion.Strict)),
					mdCode(format.ValueText(d.Legacy)), mdCode(format.ValueText(d.Pipeline)))
			}
		}
		if left > 0 {
			fmt.Fprintf(b, "\n%s (info; --verbose lists them).\n", plural(left, "benign difference"))
		}
	}
	var emu, notes []*live.XR
	for i := range r.Composites {
		x := &r.Composites[i]
		if len(x.Emulation) > 0 || x.EmulationError != "" {
			emu = append(emu, x)
		}
		if len(x.Notes) > 0 {
			notes = append(notes, x)
		}
	}
	if len(emu) > 0 {
		b.WriteString("\n" + h(2) + "Emulation differences\n\nThe legacy render did not reproduce these live fields: " + emulationNote + ".\n\n")
		for _, x := range emu {
			fmt.Fprintf(b, "- %s\n", mdXR(x))
			if x.EmulationError != "" {
				fmt.Fprintf(b, "  - the legacy render failed: %s\n", mdEscape(x.EmulationError))
			}
			mdFindings(b, x.Emulation, o.Verbose)
		}
	}
	if len(notes) > 0 {
		b.WriteString("\n" + h(2) + "Not read\n\n")
		for _, x := range notes {
			fmt.Fprintf(b, "- %s\n", mdXR(x))
			for _, n := range x.Notes {
				fmt.Fprintf(b, "  - %s\n", mdEscape(n))
			}
		}
	}
	if r.Drift > 0 {
		b.WriteString("\n" + h(2) + "Drift (info)\n\n")
		fmt.Fprintf(b, "%s of live objects no render produces (manual edits, late-initialised provider fields): info, never a failure.", plural(r.Drift, "field"))
		if !o.Verbose {
			b.WriteString(" --verbose lists them.\n")
			return
		}
		b.WriteString("\n\n")
		for i := range r.Composites {
			if x := &r.Composites[i]; len(x.Drift) > 0 {
				fmt.Fprintf(b, "- %s\n", mdXR(x))
				mdFindings(b, x.Drift, true)
			}
		}
	}
}

// mdXR names an XR: "XR `name` (claim `ns/n`, pinned to `rev`)".
func mdXR(x *live.XR) string {
	s := "XR " + mdCode(x.Name)
	var parts []string
	if x.Claim != "" {
		parts = append(parts, "claim "+mdCode(x.Claim))
	}
	if x.Pinned {
		parts = append(parts, "pinned to "+mdCode(x.Revision))
	}
	if len(parts) > 0 {
		s += " (" + strings.Join(parts, ", ") + ")"
	}
	return s
}

func mdFindings(b *strings.Builder, fs []live.Finding, verbose bool) {
	for i, f := range fs {
		if i == maxFindings && !verbose {
			fmt.Fprintf(b, "  - %d more (--verbose lists them)\n", len(fs)-i)
			return
		}
		where := mdEscape(f.Object)
		if f.Path != "" {
			where += " " + mdCode(f.Path)
		}
		if f.Message != "" {
			fmt.Fprintf(b, "  - %s: %s\n", where, mdEscape(f.Message))
			continue
		}
		fmt.Fprintf(b, "  - %s: live %s, rendered %s\n", where, mdCode(live.ShowValue(f.Live)), mdCode(live.ShowValue(f.Rendered)))
	}
}

// A permission is a missing permission and the Compositions it concerns.
type permission struct {
	Perm  string
	Comps []string
}

// missing collects the reports' missing permissions, sorted.
func missing(reports []*live.Report) []permission {
	by := map[string][]string{}
	for _, r := range reports {
		for _, m := range r.Missing {
			by[m] = append(by[m], r.Composition)
		}
	}
	out := make([]permission, 0, len(by))
	for p, cs := range by {
		out = append(out, permission{Perm: p, Comps: cs})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Perm < out[j].Perm })
	return out
}
