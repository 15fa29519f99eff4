package liveformat

import (
	"bytes"
	"fmt"
	"io"
	"strings"

	"github.com/pkg/errors"

	"github.com/xpmigrate/xpmigrate/convert/migrate/report"
	"github.com/xpmigrate/xpmigrate/render/verify"
	"github.com/xpmigrate/xpmigrate/render/verify/format"
	"github.com/xpmigrate/xpmigrate/render/verify/live"
)

// Formats of Write beyond verify's.
const (
	Markdown format.Format = "markdown"
	HTML     format.Format = "html"
)

// Formats lists the output formats of Write.
var Formats = []format.Format{format.Text, format.JSON, Markdown, HTML, format.JUnit, format.SARIF, format.GitHub}

// maxFindings bounds the findings of one kind Markdown, HTML, JUnit and
// GitHub list per XR without Verbose (text output's bound); JSON and
// SARIF list every finding.
const maxFindings = 5

// Options tune Write and Section.
type Options struct {
	format.Options

	// RequireVerified says emulation differences, unread objects and
	// inconclusive checks fail the run (--require-verified): JUnit then
	// fails their cases, SARIF and GitHub report them as errors.
	RequireVerified bool

	// List writes JSON as a list even of one report (verify
	// --from-cluster).
	List bool

	// Locate returns the file (and line, 0 when unknown) the results of a
	// report point at in SARIF, GitHub and JUnit; r.Legacy when nil.
	Locate func(r *live.Report) (file string, line int)
}

func (o Options) locate(r *live.Report) (string, int) {
	if o.Locate != nil {
		return o.Locate(r)
	}
	return r.Legacy, 0
}

// Write writes the reports in o.Format. Every format is deterministic.
func Write(w io.Writer, reports []*live.Report, o Options) error {
	var b bytes.Buffer
	var err error
	switch o.Format {
	case format.Text, "", format.JSON:
		if o.List {
			return live.WriteList(w, reports, o.Options)
		}
		return live.Write(w, reports, o.Options)
	case Markdown:
		err = writeMarkdown(&b, reports, o, 1)
	case HTML:
		err = writeHTMLPage(&b, reports, o)
	case format.JUnit:
		err = writeJUnit(&b, reports, o)
	case format.SARIF:
		err = writeSARIF(&b, reports, o)
	case format.GitHub:
		err = writeGitHub(&b, reports, o)
	default:
		return errors.Errorf("unknown format %q", o.Format)
	}
	if err != nil {
		return err
	}
	_, err = w.Write(b.Bytes())
	return err
}

// Section renders the reports as the cluster section of migrate's report
// and outputs.
func Section(reports []*live.Report, o Options) (*report.Cluster, error) {
	if reports == nil {
		reports = []*live.Report{}
	}
	cl := &report.Cluster{JSON: reports}
	var md bytes.Buffer
	if err := writeMarkdown(&md, reports, o, 2); err != nil {
		return nil, err
	}
	cl.Markdown = md.String()
	h, err := htmlSection(reports, o)
	if err != nil {
		return nil, err
	}
	cl.HTML = h
	var gh bytes.Buffer
	if err := writeGitHub(&gh, reports, o); err != nil {
		return nil, err
	}
	cl.GitHub = gh.String()
	cl.JUnit = junitSuites(reports, o)
	cl.SARIFRules, cl.SARIFResults = sarifParts(reports, o)
	return cl, nil
}

// headline words the reports' verdict in one line, as migrate's does:
// "2 Compositions checked against the cluster (70 XRs): 1 equivalent, 1
// conversion-differences: safe to upgrade? no".
func headline(reports []*live.Report) string {
	xrs := 0
	count := map[string]int{}
	for _, r := range reports {
		xrs += r.XRs
		count[r.Verdict]++
	}
	var parts []string
	for _, v := range []string{live.Equivalent, live.EmulationDifferences, live.ConversionDifferences, live.Unverified} {
		if count[v] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", count[v], v))
		}
	}
	s := fmt.Sprintf("%s checked against the cluster (%s)", plural(len(reports), "Composition"), plural(xrs, "XR"))
	if len(parts) > 0 {
		s += ": " + strings.Join(parts, ", ")
	}
	return s + ": safe to upgrade? " + safe(reports)
}

// safe is "no" when a conversion check fails, "not proven" when a
// Composition is not equivalent against the cluster, else "yes".
func safe(reports []*live.Report) string {
	answer := "yes"
	for _, r := range reports {
		switch {
		case r.Fails(false):
			return "no"
		case r.Verdict != live.Equivalent:
			answer = "not proven"
		}
	}
	return answer
}

// summary words one report's verdict, as text output's first line.
func summary(r *live.Report) string {
	if r.Verdict == live.NotChecked {
		return "not checked against the cluster: " + r.Error
	}
	s := fmt.Sprintf("%s against the cluster: %s", r.Verdict, plural(r.XRs, "XR"))
	if r.Pinned > 0 {
		s += fmt.Sprintf(" (%d pinned to another CompositionRevision)", r.Pinned)
	}
	conv := "none"
	if r.Conversion != nil {
		conv = string(r.Conversion.Verdict)
	}
	s += fmt.Sprintf("; conversion %s; %s on %s; %s (info)", conv, plural(r.Emulation, "emulation difference"), plural(r.EmulationXRs, "XR"), plural(r.Drift, "drifted field"))
	if r.Unlisted > 0 {
		s += fmt.Sprintf("; %s with findings not listed one by one (see the findings by path)", plural(r.Unlisted, "more XR"))
	}
	return s
}

// label is text output's label of a report: FAIL, WARN or PASS.
func label(r *live.Report) string {
	switch {
	case r.Fails(false), r.Verdict == live.NotChecked:
		return "FAIL"
	case r.Verdict != live.Equivalent:
		return "WARN"
	}
	return "PASS"
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// emulationNote says what an emulation difference means.
const emulationNote = "the cluster does something the emulator does not (not a conversion problem)"

// conversionDiffs are the differences of a conversion check worth a line
// of their own: failing ones, breaking gaps and intended changes; benign
// ones too with verbose. It returns them by sample, in sample order, and
// the number of benign ones left out.
func conversionDiffs(c *verify.Report, verbose bool) ([]sampleDiffs, int) {
	if c == nil {
		return nil, 0
	}
	var out []sampleDiffs
	left := 0
	for i := range c.Samples {
		s := &c.Samples[i]
		sd := sampleDiffs{sample: s}
		for j := range s.Differences {
			d := &s.Differences[j]
			if !verbose && !d.Fails(c.Strict) && d.Gap != nil && d.Gap.Class == verify.ClassBenign {
				left++
				continue
			}
			sd.diffs = append(sd.diffs, d)
		}
		if len(sd.diffs) > 0 || s.Verdict == verify.Inconclusive {
			out = append(out, sd)
		}
	}
	return out, left
}

type sampleDiffs struct {
	sample *verify.SampleReport
	diffs  []*verify.Difference
}

// hasFindings reports whether an XR has something to list beyond drift.
func hasFindings(x *live.XR) bool {
	return len(x.Emulation) > 0 || x.EmulationError != "" || len(x.Notes) > 0
}

// tallies are the findings of a report by object and path, over every
// XR: what a report with unlisted XRs shows instead of each XR's.
func tallies(r *live.Report) []tallyLine {
	var out []tallyLine
	for _, g := range []struct {
		kind string
		ts   []live.Tally
	}{{"conversion", r.ConversionFindings}, {"emulation", r.EmulationFindings}, {"drift (info)", r.DriftFindings}} {
		for _, t := range g.ts {
			out = append(out, tallyLine{Kind: g.kind, Finding: t.String(), XRs: t.XRs, Examples: strings.Join(t.Examples, ", ")})
		}
	}
	return out
}

// A tallyLine is one finding over all XRs.
type tallyLine struct {
	Kind, Finding string
	XRs           int
	Examples      string
}
