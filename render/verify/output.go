package verify

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/pkg/errors"

	"github.com/xpmigrate/xpmigrate/render"
)

// A Format is an output format of Write.
type Format string

// Output formats.
const (
	FormatText   Format = "text"
	FormatJSON   Format = "json"
	FormatJUnit  Format = "junit"
	FormatSARIF  Format = "sarif"
	FormatGitHub Format = "github"
)

// Formats lists the output formats.
var Formats = []Format{FormatText, FormatJSON, FormatJUnit, FormatSARIF, FormatGitHub}

// WriteOptions tune Write.
type WriteOptions struct {
	Format Format

	// TTY says the stream is a terminal; NoColor says NO_COLOR is set.
	// Text output is coloured only on a TTY without NO_COLOR.
	TTY     bool
	NoColor bool
}

// Write writes the report in a format. Every format is deterministic.
func Write(w io.Writer, r *Report, o WriteOptions) error {
	var b bytes.Buffer
	var err error
	switch o.Format {
	case FormatText, "":
		err = writeText(&b, r, o.TTY && !o.NoColor)
	case FormatJSON:
		err = writeJSON(&b, r)
	case FormatJUnit:
		err = writeJUnit(&b, r)
	case FormatSARIF:
		err = writeSARIF(&b, r)
	case FormatGitHub:
		err = writeGitHub(&b, r)
	default:
		return errors.Errorf("unknown format %q", o.Format)
	}
	if err != nil {
		return err
	}
	_, err = w.Write(b.Bytes())
	return err
}

func writeJSON(w io.Writer, r *Report) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return errors.Wrap(enc.Encode(r), "cannot encode report")
}

// ANSI colours.
const (
	ansiReset  = "\x1b[0m"
	ansiBold   = "\x1b[1m"
	ansiRed    = "\x1b[31m"
	ansiGreen  = "\x1b[32m"
	ansiYellow = "\x1b[33m"
	ansiCyan   = "\x1b[36m"
)

type painter bool

func (p painter) paint(code, s string) string {
	if !p {
		return s
	}
	return code + s + ansiReset
}

func writeText(w io.Writer, r *Report, color bool) error {
	p := painter(color)
	fmt.Fprintf(w, "verify %s against %s (composition %q, target %s%s)\n", r.Legacy, r.Converted, r.Composition, r.Target, strictNote(r.Strict))
	for _, s := range r.Samples {
		fmt.Fprintf(w, "%s %s: %s\n", verdictLabel(p, s.Verdict), s.Sample, sampleSummary(s))
	}
	for _, s := range r.Samples {
		for i := range s.Differences {
			d := &s.Differences[i]
			fmt.Fprintln(w)
			writeDifference(w, p, s, d, r.Strict)
		}
	}
	if len(r.Unexercised) > 0 {
		fmt.Fprintf(w, "\n%d patches no sample exercised:\n", len(r.Unexercised))
		for _, pr := range r.Unexercised {
			fmt.Fprintf(w, "  %s\n", patchRefText(r.Legacy, pr))
		}
	}
	fmt.Fprintf(w, "\n%s: %d samples, %d unexplained differences, %d known gaps, %d transient\n",
		verdictLabel(p, r.Verdict), len(r.Samples), r.Unexplained, r.Gaps, r.Transient)
	return nil
}

func strictNote(strict bool) string {
	if strict {
		return ", strict"
	}
	return ""
}

func verdictLabel(p painter, v Verdict) string {
	switch v {
	case Equivalent:
		return p.paint(ansiGreen+ansiBold, "PASS")
	case EquivalentWithGaps:
		return p.paint(ansiYellow+ansiBold, "GAPS")
	default:
		return p.paint(ansiRed+ansiBold, "FAIL")
	}
}

func sampleSummary(s SampleReport) string {
	var unexplained, gaps, transient int
	for _, d := range s.Differences {
		switch {
		case d.Gap == nil:
			unexplained++
		case d.Transient:
			transient++
		default:
			gaps++
		}
	}
	var parts []string
	switch s.Verdict {
	case Equivalent:
		parts = append(parts, "equivalent")
	case EquivalentWithGaps:
		parts = append(parts, "equivalent with known gaps")
	default:
		parts = append(parts, "different")
	}
	if unexplained > 0 {
		parts = append(parts, fmt.Sprintf("%d unexplained", unexplained))
	}
	if gaps > 0 {
		parts = append(parts, fmt.Sprintf("%d known gaps", gaps))
	}
	if transient > 0 {
		parts = append(parts, fmt.Sprintf("%d transient", transient))
	}
	parts = append(parts, fmt.Sprintf("%d reconciles", s.Loops))
	if !s.LegacyStable || !s.PipelineStable {
		parts = append(parts, "not stable")
	}
	return strings.Join(parts, ", ")
}

// classification names what explains a difference, in one line.
func classification(d *Difference, strict bool) string {
	if d.Gap == nil {
		return "unexplained difference"
	}
	s := d.Gap.Code
	if len(d.Gap.Diagnostics) > 0 {
		s += " (" + strings.Join(d.Gap.Diagnostics, ", ") + ")"
	}
	s += ": " + d.Gap.Title
	switch {
	case d.Transient:
		s = "transient " + s
	case strict:
		s = "known gap, failing with --strict, " + s
	default:
		s = "known gap " + s
	}
	return s
}

func loops(d *Difference) string {
	if d.FirstLoop == d.LastLoop {
		return fmt.Sprintf("reconcile %d", d.FirstLoop)
	}
	return fmt.Sprintf("reconciles %d-%d", d.FirstLoop, d.LastLoop)
}

func writeDifference(w io.Writer, p painter, s SampleReport, d *Difference, strict bool) {
	mark := p.paint(ansiRed, "✗")
	if !d.Fails(strict) {
		mark = p.paint(ansiYellow, "~")
	}
	fmt.Fprintf(w, "%s %s: %s (%s)\n", mark, s.Sample, d.Title(), loops(d))
	fmt.Fprintf(w, "  %s\n", classification(d, strict))
	if d.Gap != nil {
		fmt.Fprintf(w, "  why: %s\n", d.Gap.Detail)
		fmt.Fprintf(w, "  fix: %s\n", d.Gap.Fix)
	}
	for _, l := range unifiedDiff(d) {
		switch {
		case strings.HasPrefix(l, "@@"), strings.HasPrefix(l, "---"), strings.HasPrefix(l, "+++"):
			l = p.paint(ansiCyan, l)
		case strings.HasPrefix(l, "-"):
			l = p.paint(ansiRed, l)
		case strings.HasPrefix(l, "+"):
			l = p.paint(ansiGreen, l)
		}
		fmt.Fprintf(w, "  %s\n", l)
	}
}

// unifiedDiff shows the two values of a difference as a unified diff of
// their YAML, under the path they are at.
func unifiedDiff(d *Difference) []string {
	out := []string{"--- legacy", "+++ pipeline", "@@ " + d.Title() + " @@"}
	a, b := valueLines(d.Legacy), valueLines(d.Pipeline)
	return append(out, lineDiff(a, b)...)
}

func valueLines(v *Value) []string {
	if v == nil {
		return nil
	}
	y, err := render.MarshalYAML(v.V)
	if err != nil {
		return []string{fmt.Sprint(v.V)}
	}
	s := strings.TrimSuffix(string(y), "\n")
	return strings.Split(s, "\n")
}

// lineDiff is a longest-common-subsequence line diff.
func lineDiff(a, b []string) []string {
	n, m := len(a), len(b)
	lcs := make([][]int, n+1)
	for i := range lcs {
		lcs[i] = make([]int, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var out []string
	i, j := 0, 0
	for i < n && j < m {
		switch {
		case a[i] == b[j]:
			out = append(out, " "+a[i])
			i++
			j++
		case lcs[i+1][j] >= lcs[i][j+1]:
			out = append(out, "-"+a[i])
			i++
		default:
			out = append(out, "+"+b[j])
			j++
		}
	}
	for ; i < n; i++ {
		out = append(out, "-"+a[i])
	}
	for ; j < m; j++ {
		out = append(out, "+"+b[j])
	}
	return out
}

func patchRefText(file string, p PatchRef) string {
	where := "environment"
	if p.Resource != "" {
		where = fmt.Sprintf("resource %q", p.Resource)
	}
	s := fmt.Sprintf("%s:%d: %s patch %d (%s %s -> %s)", file, p.Line, where, p.Index, p.Type, p.From, p.To)
	if p.PatchSet != "" {
		s += fmt.Sprintf(" from PatchSet %q", p.PatchSet)
	}
	return s
}

// A location is where a difference points to in the legacy Composition.
type location struct {
	file string
	line int
}

// differenceLocation points at the patch or template of the legacy
// Composition a difference comes from, or at the Composition.
func (r *Report) differenceLocation(d *Difference) location {
	return location{file: r.Legacy, line: d.Line}
}

// JUnit XML, as the Ant/Jenkins schema most CI systems read defines it.
type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Errors   int          `xml:"errors,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name     string      `xml:"name,attr"`
	Tests    int         `xml:"tests,attr"`
	Failures int         `xml:"failures,attr"`
	Errors   int         `xml:"errors,attr"`
	Skipped  int         `xml:"skipped,attr"`
	Cases    []junitCase `xml:"testcase"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	File      string        `xml:"file,attr,omitempty"`
	Failure   *junitFailure `xml:"failure,omitempty"`
	SystemOut string        `xml:"system-out,omitempty"`
}

type junitFailure struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",chardata"`
}

func writeJUnit(w io.Writer, r *Report) error {
	suite := junitSuite{Name: r.Composition}
	for _, s := range r.Samples {
		c := junitCase{Name: s.Sample, Classname: "verify." + r.Composition, File: r.Legacy}
		var fail, info bytes.Buffer
		failures := 0
		for i := range s.Differences {
			d := &s.Differences[i]
			var b *bytes.Buffer
			if d.Fails(r.Strict) {
				b = &fail
				failures++
			} else {
				b = &info
			}
			writeDifference(b, false, s, d, r.Strict)
		}
		if failures > 0 {
			c.Failure = &junitFailure{
				Message: fmt.Sprintf("%d differences fail verification", failures),
				Type:    string(s.Verdict),
				Text:    fail.String(),
			}
			suite.Failures++
		}
		c.SystemOut = info.String()
		suite.Cases = append(suite.Cases, c)
		suite.Tests++
	}
	doc := junitSuites{Name: "xpmigrate verify", Tests: suite.Tests, Failures: suite.Failures, Suites: []junitSuite{suite}}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return errors.Wrap(err, "cannot encode JUnit report")
	}
	_, err := io.WriteString(w, "\n")
	return err
}

// GitHub Actions workflow commands: one annotation per failing
// difference, a warning per accepted gap.
func writeGitHub(w io.Writer, r *Report) error {
	for _, s := range r.Samples {
		for i := range s.Differences {
			d := &s.Differences[i]
			loc := r.differenceLocation(d)
			level := "warning"
			if d.Fails(r.Strict) {
				level = "error"
			}
			title := fmt.Sprintf("%s: %s", s.Sample, d.Title())
			msg := classification(d, r.Strict)
			if d.Gap != nil {
				msg += ". " + d.Gap.Detail + ". Fix: " + d.Gap.Fix
			} else {
				msg += ": legacy " + valueText(d.Legacy) + ", pipeline " + valueText(d.Pipeline)
			}
			fmt.Fprintf(w, "::%s file=%s,line=%d,title=%s::%s\n", level, ghProperty(loc.file), loc.line, ghProperty(title), ghData(msg))
		}
	}
	for _, p := range r.Unexercised {
		fmt.Fprintf(w, "::notice file=%s,line=%d,title=%s::%s\n", ghProperty(r.Legacy), p.Line, ghProperty("patch not exercised"), ghData(patchRefText(r.Legacy, p)+": no sample made it fire"))
	}
	return nil
}

func valueText(v *Value) string {
	if v == nil {
		return "absent"
	}
	b, err := json.Marshal(v.V)
	if err != nil {
		return fmt.Sprint(v.V)
	}
	if len(b) > 200 {
		b = append(b[:200], "…"...)
	}
	return string(b)
}

// ghData escapes a workflow command's message.
func ghData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

// ghProperty escapes a workflow command's property value.
func ghProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}

// SARIF 2.1.0: one rule per gap code plus "unexplained", one result per
// difference.
type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool    sarifTool     `json:"tool"`
	Results []sarifResult `json:"results"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name           string      `json:"name"`
	InformationURI string      `json:"informationUri,omitempty"`
	Rules          []sarifRule `json:"rules"`
}

type sarifRule struct {
	ID               string       `json:"id"`
	Name             string       `json:"name,omitempty"`
	ShortDescription sarifMessage `json:"shortDescription"`
	Help             sarifMessage `json:"help"`
}

type sarifMessage struct {
	Text string `json:"text"`
}

type sarifResult struct {
	RuleID     string          `json:"ruleId"`
	RuleIndex  int             `json:"ruleIndex"`
	Level      string          `json:"level"`
	Kind       string          `json:"kind,omitempty"`
	Message    sarifMessage    `json:"message"`
	Locations  []sarifLocation `json:"locations"`
	Properties map[string]any  `json:"properties,omitempty"`
}

type sarifLocation struct {
	PhysicalLocation sarifPhysical `json:"physicalLocation"`
}

type sarifPhysical struct {
	ArtifactLocation sarifArtifact `json:"artifactLocation"`
	Region           *sarifRegion  `json:"region,omitempty"`
}

type sarifArtifact struct {
	URI string `json:"uri"`
}

type sarifRegion struct {
	StartLine int `json:"startLine"`
}

const unexplainedRule = "unexplained"

func writeSARIF(w io.Writer, r *Report) error {
	rules := map[string]sarifRule{unexplainedRule: {
		ID:               unexplainedRule,
		Name:             "UnexplainedDifference",
		ShortDescription: sarifMessage{Text: "The converted Composition composes something the legacy one does not, and no known gap explains it."},
		Help:             sarifMessage{Text: "This is a bug in the conversion (or in xpmigrate). Compare the two Compositions around the resource named in the message."},
	}}
	type pending struct {
		res  sarifResult
		rule string
	}
	var results []pending
	for _, s := range r.Samples {
		for i := range s.Differences {
			d := &s.Differences[i]
			id := unexplainedRule
			if d.Gap != nil {
				id = d.Gap.Code
				if _, ok := rules[id]; !ok {
					rules[id] = sarifRule{
						ID:               id,
						ShortDescription: sarifMessage{Text: d.Gap.Title},
						Help:             sarifMessage{Text: d.Gap.Fix},
					}
				}
			}
			level := "warning"
			if d.Fails(r.Strict) {
				level = "error"
			}
			if d.Transient {
				level = "note"
			}
			msg := fmt.Sprintf("%s: %s: %s", s.Sample, d.Title(), classification(d, r.Strict))
			if d.Gap != nil {
				msg += ". " + d.Gap.Detail
			} else {
				msg += ": legacy " + valueText(d.Legacy) + ", pipeline " + valueText(d.Pipeline)
			}
			loc := r.differenceLocation(d)
			res := sarifResult{
				RuleID:  id,
				Level:   level,
				Message: sarifMessage{Text: msg},
				Locations: []sarifLocation{{PhysicalLocation: sarifPhysical{
					ArtifactLocation: sarifArtifact{URI: loc.file},
				}}},
				Properties: map[string]any{"sample": s.Sample, "aspect": string(d.Aspect), "firstLoop": d.FirstLoop, "lastLoop": d.LastLoop},
			}
			if loc.line > 0 {
				res.Locations[0].PhysicalLocation.Region = &sarifRegion{StartLine: loc.line}
			}
			if d.Gap != nil && len(d.Gap.Diagnostics) > 0 {
				res.Properties["diagnostics"] = d.Gap.Diagnostics
			}
			results = append(results, pending{res: res, rule: id})
		}
	}
	ids := make([]string, 0, len(rules))
	for id := range rules {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	index := map[string]int{}
	driver := sarifDriver{Name: "xpmigrate verify"}
	for i, id := range ids {
		index[id] = i
		driver.Rules = append(driver.Rules, rules[id])
	}
	run := sarifRun{Tool: sarifTool{Driver: driver}, Results: []sarifResult{}}
	for _, p := range results {
		p.res.RuleIndex = index[p.rule]
		run.Results = append(run.Results, p.res)
	}
	log := sarifLog{
		Schema:  "https://json.schemastore.org/sarif-2.1.0.json",
		Version: "2.1.0",
		Runs:    []sarifRun{run},
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return errors.Wrap(enc.Encode(log), "cannot encode SARIF report")
}
