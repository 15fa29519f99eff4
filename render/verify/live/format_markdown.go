package live

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/pkg/errors"

	"github.com/xpmigrate/xpmigrate/internal/markdown"
	"github.com/xpmigrate/xpmigrate/render/verify"
	"github.com/xpmigrate/xpmigrate/render/verify/format"
)

// writeMarkdown writes the reports as GitHub-flavoured Markdown in the
// look of migrate's report: a page (level 1) or the "Cluster check"
// section of migrate's report (level 2).
func writeMarkdown(w io.Writer, reports []*Report, o FormatOptions, level int) error {
	var b strings.Builder
	h := func(n int) string { return strings.Repeat("#", level+n) + " " }
	if level == 1 {
		b.WriteString(h(0) + "xpmigrate verify --cluster report\n\n")
	} else {
		b.WriteString(h(0) + "Cluster check\n\n")
	}
	fmt.Fprintf(&b, "**%s**\n\n", markdown.Escape(headline(reports)))
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
			fmt.Fprintf(&b, "| %s | %s | %d | %d | %s | %s | %d |\n", markdown.Escape(r.Composition), r.Verdict, r.XRs, r.Pinned, conv,
				markdown.Escape(fmt.Sprintf("%d on %s", r.Emulation, plural(r.EmulationXRs, "XR"))), r.Drift)
		}
	}
	if perms := missing(reports); len(perms) > 0 {
		b.WriteString("\n" + h(1) + "Missing permissions\n\nThe kubeconfig's user may not make these requests: what they guard was not checked (grant them, see the runbook's RBAC role).\n\n")
		for _, p := range perms {
			fmt.Fprintf(&b, "- %s (%s)\n", markdown.Code(p.Perm), markdown.Escape(strings.Join(p.Comps, ", ")))
		}
	}
	for _, r := range reports {
		markdownReport(&b, r, o, h)
	}
	_, err := io.WriteString(w, b.String())
	return errors.Wrap(err, "cannot write the report")
}

func markdownReport(b *strings.Builder, r *Report, o FormatOptions, h func(int) string) {
	fmt.Fprintf(b, "\n%sComposition %s (%s): %s\n\n", h(1), markdown.Code(r.Composition), markdown.Code(r.Legacy), r.Verdict)
	fmt.Fprintf(b, "**%s** %s\n\n", label(r), markdown.Escape(summary(r)))
	if r.Verdict == NotChecked {
		return
	}
	if r.Unlisted > 0 {
		fmt.Fprintf(b, "%s\n\n| Check | Finding | XRs | For example |\n|---|---|---|---|\n", markdown.Escape(fmt.Sprintf("Every finding over all %s, by object and path (%s with findings are not listed one by one):", plural(r.XRs, "XR"), plural(r.Unlisted, "XR"))))
		for _, t := range tallyLines(r) {
			fmt.Fprintf(b, "| %s | %s | %d | %s |\n", t.Kind, markdown.Escape(t.Finding), t.XRs, markdown.Escape(t.Examples))
		}
		b.WriteString("\n")
	}
	if c := r.Conversion; c != nil {
		fmt.Fprintf(b, "Conversion (%s against %s): %s\n", markdown.Code(c.Legacy), markdown.Code(c.Converted), markdown.Escape(format.ReportSummary(c)))
		if c.Verdict == verify.Unverified {
			fmt.Fprintf(b, "\nUnverified: %s. Hint: %s\n", markdown.Escape(c.Reason), markdown.Escape(c.Hint))
		}
	}
	if diffs, left := conversionDiffs(r.Conversion, o.Verbose); len(diffs) > 0 || left > 0 {
		b.WriteString("\n" + h(2) + "Conversion differences\n\n")
		for _, sd := range diffs {
			fmt.Fprintf(b, "- XR %s: %s\n", markdown.Code(sd.sample.Sample), markdown.Escape(format.SampleSummary(sd.sample)))
			if sd.sample.Verdict == verify.Inconclusive {
				fmt.Fprintf(b, "  - legacy: %s; pipeline: %s. Hint: %s\n", markdown.Escape(sd.sample.LegacyError), markdown.Escape(sd.sample.PipelineError), markdown.Escape(sd.sample.Hint))
			}
			for _, d := range sd.diffs {
				fmt.Fprintf(b, "  - %s: %s: legacy %s, pipeline %s\n", markdown.Code(d.Title()), markdown.Escape(format.Classification(d, r.Conversion.Strict)),
					markdown.Code(format.ValueText(d.Legacy)), markdown.Code(format.ValueText(d.Pipeline)))
			}
		}
		if left > 0 {
			fmt.Fprintf(b, "\n%s (info; --verbose lists them).\n", plural(left, "benign difference"))
		}
	}
	var emu, notes []*XR
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
				fmt.Fprintf(b, "  - the legacy render failed: %s\n", markdown.Escape(x.EmulationError))
			}
			mdFindings(b, x.Emulation, o.Verbose)
		}
	}
	if len(notes) > 0 {
		b.WriteString("\n" + h(2) + "Not read\n\n")
		for _, x := range notes {
			fmt.Fprintf(b, "- %s\n", mdXR(x))
			for _, n := range x.Notes {
				fmt.Fprintf(b, "  - %s\n", markdown.Escape(n))
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
func mdXR(x *XR) string {
	s := "XR " + markdown.Code(x.Name)
	var parts []string
	if x.Claim != "" {
		parts = append(parts, "claim "+markdown.Code(x.Claim))
	}
	if x.Pinned {
		parts = append(parts, "pinned to "+markdown.Code(x.Revision))
	}
	if len(parts) > 0 {
		s += " (" + strings.Join(parts, ", ") + ")"
	}
	return s
}

func mdFindings(b *strings.Builder, fs []Finding, verbose bool) {
	for i, f := range fs {
		if i == maxFindings && !verbose {
			fmt.Fprintf(b, "  - %d more (--verbose lists them)\n", len(fs)-i)
			return
		}
		where := markdown.Escape(f.Object)
		if f.Path != "" {
			where += " " + markdown.Code(f.Path)
		}
		if f.Message != "" {
			fmt.Fprintf(b, "  - %s: %s\n", where, markdown.Escape(f.Message))
			continue
		}
		fmt.Fprintf(b, "  - %s: live %s, rendered %s\n", where, markdown.Code(ShowValue(f.Live)), markdown.Code(ShowValue(f.Rendered)))
	}
}

// A permission is a missing permission and the Compositions it concerns.
type permission struct {
	Perm  string
	Comps []string
}

// missing collects the reports' missing permissions, sorted.
func missing(reports []*Report) []permission {
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
