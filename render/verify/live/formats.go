package live

import (
	"bytes"
	"fmt"
	"html/template"
	"io"
	"strings"

	"github.com/pkg/errors"

	"github.com/xpmigrate/xpmigrate/internal/junit"
	"github.com/xpmigrate/xpmigrate/internal/sarif"
	"github.com/xpmigrate/xpmigrate/render/verify"
	"github.com/xpmigrate/xpmigrate/render/verify/format"
)

// Formats of WriteFormat beyond verify's.
const (
	Markdown format.Format = "markdown"
	HTML     format.Format = "html"
)

// Formats lists the output formats of WriteFormat.
var Formats = []format.Format{format.Text, format.JSON, Markdown, HTML, format.JUnit, format.SARIF, format.GitHub}

// FormatOptions tune WriteFormat and RenderSection.
type FormatOptions struct {
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
	Locate func(r *Report) (file string, line int)
}

func (o FormatOptions) locate(r *Report) (string, int) {
	if o.Locate != nil {
		return o.Locate(r)
	}
	return r.Legacy, 0
}

// WriteFormat writes the reports in o.Format: text and JSON as Write does,
// Markdown, HTML, JUnit, SARIF and GitHub workflow commands with all three
// checks. Every format is deterministic.
func WriteFormat(w io.Writer, reports []*Report, o FormatOptions) error {
	var b bytes.Buffer
	var err error
	switch o.Format {
	case format.Text, "", format.JSON:
		if o.List {
			return WriteList(w, reports, o.Options)
		}
		return Write(w, reports, o.Options)
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

// A Section is the cluster check of `migrate --cluster` rendered in each
// format of migrate's report and outputs (convert/migrate/report places
// it). Each part may be empty.
type Section struct {
	// JSON is the value of the JSON report's "cluster" field.
	JSON any
	// Markdown is a "## " section, appended to the Markdown report.
	Markdown string
	// HTML is a <section id="cluster">, appended to the HTML report (and
	// linked from its navigation); its writer escapes what it holds.
	HTML template.HTML
	// GitHub are workflow command lines, appended to the GitHub output.
	GitHub string
	// JUnit are test suites, appended to the JUnit output's.
	JUnit []junit.Suite
	// SARIFRules and SARIFResults join the SARIF run (results point at
	// their rule by RuleID; RuleIndex is set here). A rule id the run
	// uses already keeps the run's description.
	SARIFRules   []sarif.Rule
	SARIFResults []sarif.Result
}

// RenderSection renders the reports as the cluster section of migrate's
// report and outputs.
func RenderSection(reports []*Report, o FormatOptions) (*Section, error) {
	if reports == nil {
		reports = []*Report{}
	}
	cl := &Section{JSON: reports}
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
func headline(reports []*Report) string {
	xrs := 0
	count := map[string]int{}
	for _, r := range reports {
		xrs += r.XRs
		count[r.Verdict]++
	}
	var parts []string
	for _, v := range []string{Equivalent, EmulationDifferences, ConversionDifferences, Unverified} {
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
func safe(reports []*Report) string {
	answer := "yes"
	for _, r := range reports {
		switch {
		case r.Fails(false):
			return "no"
		case r.Verdict != Equivalent:
			answer = "not proven"
		}
	}
	return answer
}

// summary words one report's verdict, as text output's first line.
func summary(r *Report) string {
	if r.Verdict == NotChecked {
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
func label(r *Report) string {
	switch {
	case r.Fails(false), r.Verdict == NotChecked:
		return "FAIL"
	case r.Verdict != Equivalent:
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
func hasFindings(x *XR) bool {
	return len(x.Emulation) > 0 || x.EmulationError != "" || len(x.Notes) > 0
}

// tallyLines are the findings of a report by object and path, over every
// XR: what a report with unlisted XRs shows instead of each XR's.
func tallyLines(r *Report) []tallyLine {
	var out []tallyLine
	for _, g := range []struct {
		kind string
		ts   []Tally
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
