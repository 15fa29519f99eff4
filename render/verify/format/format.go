// Package format writes a verification report in the output formats:
// text, JSON, JUnit, SARIF and GitHub workflow commands.
package format

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/pkg/errors"

	"github.com/xpmigrate/xpmigrate/internal/junit"
	"github.com/xpmigrate/xpmigrate/internal/logsafe"
	"github.com/xpmigrate/xpmigrate/internal/sarif"
	"github.com/xpmigrate/xpmigrate/internal/workflow"
	"github.com/xpmigrate/xpmigrate/render"
	"github.com/xpmigrate/xpmigrate/render/verify"
)

// A Format is an output format of Write.
type Format string

// Output formats.
const (
	Text   Format = "text"
	JSON   Format = "json"
	JUnit  Format = "junit"
	SARIF  Format = "sarif"
	GitHub Format = "github"
)

// Formats lists the output formats.
var Formats = []Format{Text, JSON, JUnit, SARIF, GitHub}

// Options tune Write.
type Options struct {
	Format Format

	// TTY says the stream is a terminal; NoColor says NO_COLOR is set.
	// Text output is coloured only on a TTY without NO_COLOR.
	TTY     bool
	NoColor bool

	// Verbose lists benign differences in full and every patch no sample
	// exercised (text output).
	Verbose bool
}

// Write writes the report in a format. Every format is deterministic.
func Write(w io.Writer, r *verify.Report, o Options) error {
	var b bytes.Buffer
	var err error
	switch o.Format {
	case Text, "":
		err = writeText(&b, r, o.TTY && !o.NoColor, o.Verbose)
	case JSON:
		err = writeJSON(&b, r)
	case JUnit:
		err = writeJUnit(&b, r)
	case SARIF:
		err = writeSARIF(&b, r)
	case GitHub:
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

// writeJSON writes the report with its findings (verify.Findings): one
// entry, listing the resources, for a root cause that differs in each.
func writeJSON(w io.Writer, r *verify.Report) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return errors.Wrap(enc.Encode(r.Grouped()), "cannot encode report")
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

// painted is text the program wrote and coloured: logsafe.Fprintf prints
// it as is, where it escapes every string from data.
type painted string

// paint colours s, which must be safe to print (the program's words, or
// data escaped by logsafe).
func (p painter) paint(code, s string) painted {
	if !p {
		return painted(s)
	}
	return painted(code + s + ansiReset)
}

func writeText(w io.Writer, r *verify.Report, color, verbose bool) error {
	p := painter(color)
	// A finding per root cause, not per composed resource.
	r = r.Grouped()
	fails := r.Fails(false)
	logsafe.Fprintf(w, "%s %s: %s\n", reportLabel(p, r, fails), r.Composition, reportSummary(r))
	logsafe.Fprintf(w, "  %s against %s, target %s%s\n", r.Legacy, r.Converted, r.Target, strictNote(r.Strict))
	if m := r.Mapping; m != nil {
		logsafe.Fprintf(w, "  v2 mapping: %s -> %s (%s)", m.From, m.To, m.Scope)
		if len(m.Applied) > 0 {
			logsafe.Fprintf(w, ", differences explained by %s", strings.Join(m.Applied, ", "))
		}
		fmt.Fprintln(w)
	}
	for _, a := range r.Assumptions {
		logsafe.Fprintf(w, "  assumed: %s\n", a)
	}
	if r.Verdict == verify.Unverified {
		logsafe.Fprintf(w, "%s %s: unverified: %s\n  hint: %s\n", p.paint(ansiYellow+ansiBold, "WARN"), r.Composition, r.Reason, r.Hint)
	}
	for i := range r.Samples {
		s := &r.Samples[i]
		logsafe.Fprintf(w, "%s %s: %s\n", sampleLabel(p, s, r.Strict), s.Sample, sampleSummary(s))
		if s.Verdict == verify.Inconclusive {
			logsafe.Fprintf(w, "  legacy:   %s\n  pipeline: %s\n  hint: %s\n", s.LegacyError, s.PipelineError, s.Hint)
		}
	}
	// Failing differences in full, then accepted gaps and intended
	// changes, then benign ones: a line each unless verbose.
	printed := false
	for _, pass := range []int{0, 1, 2, 3} {
		for i := range r.Samples {
			s := &r.Samples[i]
			if pass == 3 && !verbose {
				for _, l := range mappedLines(p, s) {
					if !printed {
						fmt.Fprintln(w)
					}
					fmt.Fprintln(w, l)
					printed = true
				}
				continue
			}
			for j := range s.Differences {
				d := &s.Differences[j]
				if differencePass(d, r.Strict) != pass {
					continue
				}
				if pass == 2 && !verbose {
					if !printed {
						fmt.Fprintln(w)
					}
					logsafe.Fprintf(w, "%s %s: %s (%s): %s\n", p.paint(ansiCyan, "info"), s.Sample, d.Title(), loops(d), classification(d, r.Strict))
					printed = true
					continue
				}
				fmt.Fprintln(w)
				writeDifference(w, p, *s, d, r.Strict)
				printed = true
			}
		}
	}
	if printed || len(r.Unexercised) > 0 {
		fmt.Fprintln(w)
	}
	switch {
	case len(r.Unexercised) > 0 && verbose:
		logsafe.Fprintf(w, "%d patches no sample exercised:\n", len(r.Unexercised))
		for _, pr := range r.Unexercised {
			logsafe.Fprintf(w, "  %s\n", patchRefText(r.Legacy, pr))
		}
	case len(r.Unexercised) > 0:
		logsafe.Fprintf(w, "%d patches no sample exercised (--verbose lists them; --synthesize N generates samples that do)\n", len(r.Unexercised))
	}
	logsafe.Fprintf(w, "%s: %s\n", reportLabel(p, r, fails), countsLine(r))
	return nil
}

// differencePass orders differences in text output: 0 failing, 1 accepted
// breaking gaps and intended changes, 2 benign (info).
func differencePass(d *verify.Difference, strict bool) int {
	switch {
	case d.Fails(strict):
		return 0
	case d.Gap.Class == verify.ClassBenign:
		return 2
	case d.Gap.Class == verify.ClassMapped:
		return 3
	}
	return 1
}

// mappedLines are a sample's mapped differences, a line per code: the
// fields the declared v2 mapping explains.
func mappedLines(p painter, s *verify.SampleReport) []string {
	byCode := map[string][]string{}
	titles := map[string]string{}
	var codes []string
	for i := range s.Differences {
		d := &s.Differences[i]
		if d.Gap == nil || d.Gap.Class != verify.ClassMapped {
			continue
		}
		if _, ok := byCode[d.Gap.Code]; !ok {
			codes = append(codes, d.Gap.Code)
			titles[d.Gap.Code] = d.Gap.Title
		}
		byCode[d.Gap.Code] = append(byCode[d.Gap.Code], d.Title())
	}
	sort.Slice(codes, func(i, j int) bool { return codeLess(codes[i], codes[j]) })
	out := make([]string, 0, len(codes))
	for _, c := range codes {
		out = append(out, logsafe.Sprintf("%s %s: %s %s: %s", p.paint(ansiCyan, "mapped"), s.Sample, c, titles[c], strings.Join(byCode[c], "; ")))
	}
	return out
}

func strictNote(strict bool) string {
	if strict {
		return ", strict"
	}
	return ""
}

// reportLabel is the Composition's verdict label: FAIL when verification
// fails, WARN when it proved nothing or some samples were inconclusive,
// GAPS when accepted breaking gaps remain, PASS otherwise.
func reportLabel(p painter, r *verify.Report, fails bool) painted {
	switch {
	case fails:
		return p.paint(ansiRed+ansiBold, "FAIL")
	case r.Verdict == verify.Unverified || r.InconclusiveSamples > 0:
		return p.paint(ansiYellow+ansiBold, "WARN")
	case r.Verdict == verify.KnownGaps:
		return p.paint(ansiYellow+ansiBold, "GAPS")
	}
	return p.paint(ansiGreen+ansiBold, "PASS")
}

func sampleLabel(p painter, s *verify.SampleReport, strict bool) painted {
	switch {
	case s.Fails(strict):
		return p.paint(ansiRed+ansiBold, "FAIL")
	case s.Verdict == verify.Inconclusive:
		return p.paint(ansiYellow+ansiBold, "WARN")
	case s.Verdict == verify.KnownGaps:
		return p.paint(ansiYellow+ansiBold, "GAPS")
	}
	return p.paint(ansiGreen+ansiBold, "PASS")
}

// reportSummary words the Composition's verdict in one line.
func reportSummary(r *verify.Report) string {
	switch r.Verdict {
	case verify.Unverified:
		return "unverified: nothing was proven"
	case verify.Different, verify.KnownGaps:
		var parts []string
		if r.Unexplained > 0 {
			parts = append(parts, fmt.Sprintf("%s nothing explains (a bug in the conversion)", plural(r.Unexplained, "difference")))
		}
		codes := gapCodes(r, func(g *verify.Gap) bool { return g.Class == verify.ClassBreaking && !g.Accepted })
		acc := gapCodes(r, func(g *verify.Gap) bool { return g.Class == verify.ClassBreaking && g.Accepted })
		if len(codes) > 0 {
			parts = append(parts, fmt.Sprintf("breaking known gaps %s, not accepted (fix them, or accept with --accept %s or the annotation %s)", strings.Join(codes, ", "), strings.Join(codes, ","), verify.AnnotationAcceptGaps))
		}
		if len(acc) > 0 {
			parts = append(parts, fmt.Sprintf("accepted breaking gaps %s", strings.Join(acc, ", ")))
		}
		return string(r.Verdict) + ": " + strings.Join(parts, "; ")
	case verify.IntendedChange:
		return fmt.Sprintf("equivalent up to the intended changes %s you asked for", strings.Join(r.IntendedChanges, ", "))
	case verify.EquivalentUpToMapping:
		s := "equivalent up to the declared v2 mapping"
		if r.Mapping != nil && len(r.Mapping.Applied) > 0 {
			s += " (" + strings.Join(r.Mapping.Applied, ", ") + ")"
		}
		if r.Benign > 0 {
			s += fmt.Sprintf(", %s benign", plural(r.Benign, "difference"))
		}
		if r.InconclusiveSamples > 0 {
			s += fmt.Sprintf("; %d of %d samples inconclusive", r.InconclusiveSamples, len(r.Samples))
		}
		return s
	}
	s := "equivalent"
	if r.Benign > 0 {
		s += fmt.Sprintf(" (%s benign: lags or bookkeeping, shown as info)", plural(r.Benign, "difference"))
	}
	if r.InconclusiveSamples > 0 {
		s += fmt.Sprintf("; %d of %d samples inconclusive", r.InconclusiveSamples, len(r.Samples))
	}
	return s
}

// gapCodes returns the sorted codes of the gaps keep accepts.
func gapCodes(r *verify.Report, keep func(*verify.Gap) bool) []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range r.Samples {
		if s.Verdict == verify.Inconclusive {
			continue
		}
		for _, d := range s.Differences {
			if d.Gap != nil && keep(d.Gap) && !seen[d.Gap.Code] {
				seen[d.Gap.Code] = true
				out = append(out, d.Gap.Code)
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return codeLess(out[i], out[j]) })
	return out
}

// codeLess orders codes by letter, then number: D2 before D10.
func codeLess(a, b string) bool {
	if len(a) != len(b) && len(a) > 0 && len(b) > 0 && a[0] == b[0] {
		return len(a) < len(b)
	}
	return a < b
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

func countsLine(r *verify.Report) string {
	byVerdict := map[verify.Verdict]int{}
	for _, s := range r.Samples {
		byVerdict[s.Verdict]++
	}
	var vs []string
	for _, v := range []verify.Verdict{verify.Equivalent, verify.EquivalentUpToMapping, verify.IntendedChange, verify.KnownGaps, verify.Different, verify.Inconclusive} {
		if byVerdict[v] > 0 {
			vs = append(vs, fmt.Sprintf("%d %s", byVerdict[v], v))
		}
	}
	samples := plural(len(r.Samples), "sample")
	if len(vs) > 0 {
		samples += " (" + strings.Join(vs, ", ") + ")"
	}
	line := fmt.Sprintf("%s; %d unexplained, %d breaking, %d accepted, %d benign, %d intended",
		samples, r.Unexplained, r.Breaking, r.AcceptedGaps, r.Benign, r.Intended)
	if r.Mapped > 0 {
		line += fmt.Sprintf(", %d mapped", r.Mapped)
	}
	return line
}

func sampleSummary(s *verify.SampleReport) string {
	var unexplained, breaking, accepted, benign, intended, mapped int
	for _, d := range s.Differences {
		// A finding counts the differences it stands for.
		n := max(1, len(d.Resources))
		switch {
		case d.Gap == nil:
			unexplained += n
		case d.Gap.Class == verify.ClassIntended:
			intended += n
		case d.Gap.Class == verify.ClassMapped:
			mapped += n
		case d.Gap.Class == verify.ClassBreaking && d.Gap.Accepted:
			accepted += n
		case d.Gap.Class == verify.ClassBreaking:
			breaking += n
		default:
			benign += n
		}
	}
	var parts []string
	switch s.Verdict {
	case verify.Inconclusive:
		return fmt.Sprintf("inconclusive: both sides failed, nothing was proven (%d reconciles)", s.Loops)
	case verify.Equivalent:
		parts = append(parts, "equivalent")
	case verify.IntendedChange:
		parts = append(parts, "intended change")
	case verify.EquivalentUpToMapping:
		parts = append(parts, "equivalent up to the mapping")
	case verify.KnownGaps:
		parts = append(parts, "known gaps")
	default:
		parts = append(parts, "different")
	}
	if s.Ready != nil {
		parts = append(parts, fmt.Sprintf("XR Ready: legacy %s, pipeline %s", s.Ready.Legacy, s.Ready.Pipeline))
	}
	for _, c := range []struct {
		n    int
		what string
	}{{unexplained, "unexplained"}, {breaking, "breaking"}, {accepted, "accepted"}, {intended, "intended"}, {benign, "benign"}, {mapped, "mapped"}} {
		if c.n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", c.n, c.what))
		}
	}
	if s.Omitted > 0 {
		parts = append(parts, fmt.Sprintf("%d differences not listed", s.Omitted))
	}
	parts = append(parts, fmt.Sprintf("%d reconciles", s.Loops))
	if !s.LegacyStable || !s.PipelineStable {
		parts = append(parts, "not stable")
	}
	return strings.Join(parts, ", ")
}

// classification names what explains a difference, in one line.
func classification(d *verify.Difference, strict bool) string {
	if d.Gap == nil && d.Candidate != nil {
		return fmt.Sprintf("unexplained difference (candidate %s refuted: the pipeline rendered with switch %s still differs here)", d.Candidate.Code, strings.Join(d.Candidate.ProvenBy, "+"))
	}
	if d.Gap == nil {
		return "unexplained difference"
	}
	if d.Unexplained() {
		return fmt.Sprintf("unexplained difference (unproven candidate %s: %s; %s)", d.Gap.Code, d.Gap.Title, d.Gap.Unproven)
	}
	s := d.Gap.Code
	if len(d.Gap.Diagnostics) > 0 {
		s += " (" + strings.Join(d.Gap.Diagnostics, ", ") + ")"
	}
	s += ": " + d.Gap.Title
	switch {
	case d.Gap.Class == verify.ClassIntended:
		s = "intended change " + s
	case d.Gap.Class == verify.ClassMapped:
		s = "mapped by the declared v2 edit " + s
	case d.Transient:
		s = "benign (transient) " + s
	case d.Gap.Class == verify.ClassBreaking && d.Gap.Accepted && strict:
		s = "breaking known gap, accepted (" + d.Gap.AcceptedBy + ") but failing with --strict, " + s
	case d.Gap.Class == verify.ClassBreaking && d.Gap.Accepted:
		s = "breaking known gap, accepted (" + d.Gap.AcceptedBy + "), " + s
	case d.Gap.Class == verify.ClassBreaking:
		s = "breaking known gap " + s
	case strict:
		s = "benign known gap, failing with --strict, " + s
	default:
		s = "benign known gap " + s
	}
	return s
}

// proof says how the attribution of a difference was checked.
func proof(d *verify.Difference) string {
	switch {
	case d.Gap == nil && d.Candidate != nil:
		return fmt.Sprintf("refuted: the rule for %s matched the shape of the difference, but the pipeline rendered with switch %s still differs here", d.Candidate.Code, strings.Join(d.Candidate.ProvenBy, "+"))
	case d.Gap == nil, d.Gap.Class == verify.ClassIntended, d.Gap.Class == verify.ClassMapped:
		return ""
	case d.Gap.Proven && len(d.Gap.ProvenBy) == 1 && d.Gap.ProvenBy[0] == verify.ProvenByLaterReconcile:
		return "proven by the simulation: the pipeline reaches legacy's value in a later reconcile"
	case d.Gap.Proven:
		return "proven: the pipeline rendered with " + strings.Join(d.Gap.ProvenBy, "+") + " agrees with legacy here"
	case d.Gap.Unproven != "":
		return "unproven: " + d.Gap.Unproven
	}
	return ""
}

func loops(d *verify.Difference) string {
	if d.FirstLoop == d.LastLoop {
		return fmt.Sprintf("reconcile %d", d.FirstLoop)
	}
	return fmt.Sprintf("reconciles %d-%d", d.FirstLoop, d.LastLoop)
}

func writeDifference(w io.Writer, p painter, s verify.SampleReport, d *verify.Difference, strict bool) {
	mark := p.paint(ansiRed, "✗")
	switch {
	case !d.Fails(strict) && d.Gap.Class == verify.ClassBreaking:
		mark = p.paint(ansiYellow, "~")
	case !d.Fails(strict):
		mark = p.paint(ansiCyan, "i")
	}
	logsafe.Fprintf(w, "%s %s: %s (%s)\n", mark, s.Sample, d.Title(), loops(d))
	logsafe.Fprintf(w, "  %s\n", classification(d, strict))
	if d.Gap != nil {
		logsafe.Fprintf(w, "  why: %s\n", d.Gap.Detail)
		logsafe.Fprintf(w, "  fix: %s\n", d.Gap.Fix)
	}
	if p := proof(d); p != "" {
		fmt.Fprintf(w, "  proof: %s\n", p)
	}
	for _, l := range unifiedDiff(d) {
		line := painted(logsafe.Escape(l))
		switch {
		case strings.HasPrefix(l, "@@"), strings.HasPrefix(l, "---"), strings.HasPrefix(l, "+++"):
			line = p.paint(ansiCyan, string(line))
		case strings.HasPrefix(l, "-"):
			line = p.paint(ansiRed, string(line))
		case strings.HasPrefix(l, "+"):
			line = p.paint(ansiGreen, string(line))
		}
		logsafe.Fprintf(w, "  %s\n", line)
	}
}

// unifiedDiff shows the two values of a difference as a unified diff of
// their YAML, under the path they are at.
func unifiedDiff(d *verify.Difference) []string {
	out := []string{"--- legacy", "+++ pipeline", "@@ " + d.Title() + " @@"}
	a, b := valueLines(d.Legacy), valueLines(d.Pipeline)
	return append(out, lineDiff(a, b)...)
}

func valueLines(v *verify.Value) []string {
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

func patchRefText(file string, p verify.PatchRef) string {
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
func differenceLocation(r *verify.Report, d *verify.Difference) location {
	return location{file: r.Legacy, line: d.Line}
}

// JUnit XML (internal/junit): one suite, a case per sample.
func writeJUnit(w io.Writer, r *verify.Report) error {
	doc := junit.Suites{Name: "xpmigrate verify"}
	doc.Add(JUnitSuite(r))
	return junit.Write(w, doc)
}

// JUnitSuite is the JUnit suite of a report: a case per sample, failing on
// the differences that fail verification, skipped when inconclusive; a
// skipped "unverified" case when there is no sample.
func JUnitSuite(r *verify.Report) junit.Suite {
	r = r.Grouped()
	suite := junit.Suite{Name: r.Composition}
	for _, s := range r.Samples {
		c := junit.Case{Name: s.Sample, Classname: "verify." + r.Composition, File: r.Legacy}
		var fail, info bytes.Buffer
		failures := 0
		for i := range s.Differences {
			d := &s.Differences[i]
			var b *bytes.Buffer
			if d.Fails(r.Strict) && s.Verdict != verify.Inconclusive {
				b = &fail
				failures += max(1, len(d.Resources))
			} else {
				b = &info
			}
			writeDifference(b, false, s, d, r.Strict)
		}
		switch {
		case s.Verdict == verify.Inconclusive:
			c.Skipped = &junit.Skipped{Message: fmt.Sprintf("inconclusive: both sides failed (legacy: %s; pipeline: %s). Hint: %s", s.LegacyError, s.PipelineError, s.Hint)}
		case failures > 0:
			c.Failure = &junit.Failure{
				Message: fmt.Sprintf("%s: %d differences fail verification", s.Verdict, failures),
				Type:    string(s.Verdict),
				Text:    fail.String(),
			}
		}
		c.SystemOut = info.String()
		suite.Add(c)
	}
	if len(r.Samples) == 0 {
		suite.Add(junit.Case{
			Name: "unverified", Classname: "verify." + r.Composition, File: r.Legacy,
			Skipped: &junit.Skipped{Message: fmt.Sprintf("unverified: %s. Hint: %s", r.Reason, r.Hint)},
		})
	}
	return suite
}

// GitHub Actions workflow commands: one annotation per failing
// finding (verify.Findings), a warning per accepted gap. Differences the declared v2
// mapping explains are not annotated.
func writeGitHub(w io.Writer, r *verify.Report) error {
	r = r.Grouped()
	if r.Verdict == verify.Unverified {
		fmt.Fprintln(w, workflow.Annotation{Level: workflow.Warning, File: r.Legacy, Line: 1, Title: "unverified: " + r.Composition, Message: r.Reason + ". Hint: " + r.Hint})
	}
	for _, s := range r.Samples {
		if s.Verdict == verify.Inconclusive {
			fmt.Fprintln(w, workflow.Annotation{Level: workflow.Warning, File: r.Legacy, Line: 1, Title: s.Sample + ": inconclusive",
				Message: fmt.Sprintf("both sides failed, nothing was proven. legacy: %s; pipeline: %s. Hint: %s", s.LegacyError, s.PipelineError, s.Hint)})
			continue
		}
		for i := range s.Differences {
			d := &s.Differences[i]
			if d.Gap != nil && d.Gap.Class == verify.ClassMapped {
				// The declared v2 mapping is no finding: one line per code
				// is in the text report, every field in JSON.
				continue
			}
			loc := differenceLocation(r, d)
			level := workflow.Warning
			switch {
			case d.Fails(r.Strict):
				level = workflow.Error
			case d.Gap.Class != verify.ClassBreaking:
				level = workflow.Notice
			}
			title := fmt.Sprintf("%s: %s", s.Sample, d.Title())
			msg := classification(d, r.Strict)
			if d.Gap != nil {
				msg += ". " + d.Gap.Detail + ". Fix: " + d.Gap.Fix
			} else {
				msg += ": legacy " + valueText(d.Legacy) + ", pipeline " + valueText(d.Pipeline)
			}
			fmt.Fprintln(w, workflow.Annotation{Level: level, File: loc.file, Line: loc.line, Title: title, Message: msg})
		}
	}
	if len(r.Unexercised) > 0 {
		fmt.Fprintln(w, workflow.Annotation{Level: workflow.Notice, File: r.Legacy, Line: r.Unexercised[0].Line, Title: "patches not exercised",
			Message: fmt.Sprintf("%d patches of %s no sample made fire, the first at line %d; generate samples that do with --synthesize N", len(r.Unexercised), r.Composition, r.Unexercised[0].Line)})
	}
	return nil
}

func valueText(v *verify.Value) string {
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

// SARIF 2.1.0 (internal/sarif): one rule per gap code plus "unexplained",
// one result per finding (verify.Findings).
type (
	sarifRule    = sarif.Rule
	sarifMessage = sarif.Message
	sarifResult  = sarif.Result
)

// SARIF rule ids that are not gap codes.
const (
	unexplainedRule  = "unexplained"
	inconclusiveRule = "inconclusive"
	unverifiedRule   = "unverified"
)

func writeSARIF(w io.Writer, r *verify.Report) error {
	rules, results := SARIFParts(r)
	return sarif.Write(w, sarif.New(sarif.Driver{Name: "xpmigrate verify", Rules: rules}, results))
}

// SARIFParts returns the SARIF rules of a report, sorted by id, and its
// results (never nil), each pointing at its rule by RuleID and RuleIndex.
func SARIFParts(r *verify.Report) ([]sarif.Rule, []sarif.Result) {
	r = r.Grouped()
	rules := map[string]sarifRule{unexplainedRule: {
		ID:               unexplainedRule,
		Name:             "UnexplainedDifference",
		ShortDescription: sarifMessage{Text: "The converted Composition composes something the legacy one does not, and no known gap explains it."},
		Help:             sarifMessage{Text: "This is a bug in the conversion (or in xpmigrate). Compare the two Compositions around the resource named in the message."},
	}}
	var results []sarifResult
	for _, s := range r.Samples {
		for i := range s.Differences {
			d := &s.Differences[i]
			if d.Gap != nil && d.Gap.Class == verify.ClassMapped {
				continue
			}
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
			switch {
			case s.Verdict == verify.Inconclusive:
				level = "note"
			case d.Fails(r.Strict):
				level = "error"
			case d.Gap.Class != verify.ClassBreaking:
				level = "note"
			}
			msg := fmt.Sprintf("%s: %s: %s", s.Sample, d.Title(), classification(d, r.Strict))
			if d.Gap != nil {
				msg += ". " + d.Gap.Detail
			} else {
				msg += ": legacy " + valueText(d.Legacy) + ", pipeline " + valueText(d.Pipeline)
			}
			loc := differenceLocation(r, d)
			res := sarifResult{
				RuleID:     id,
				Level:      level,
				Message:    sarifMessage{Text: msg},
				Locations:  sarif.At(loc.file, loc.line),
				Properties: map[string]any{"sample": s.Sample, "verdict": string(s.Verdict), "aspect": string(d.Aspect), "firstLoop": d.FirstLoop, "lastLoop": d.LastLoop},
			}
			if d.Gap != nil && len(d.Gap.Diagnostics) > 0 {
				res.Properties["diagnostics"] = d.Gap.Diagnostics
			}
			if len(d.Resources) > 0 {
				res.Properties["resources"] = d.Resources
			}
			if d.Gap != nil {
				res.Properties["class"] = string(d.Gap.Class)
				if d.Gap.Accepted {
					res.Properties["acceptedBy"] = d.Gap.AcceptedBy
				}
			}
			results = append(results, res)
		}
	}
	// Samples that proved nothing, and a Composition nothing verified.
	for _, s := range r.Samples {
		if s.Verdict != verify.Inconclusive {
			continue
		}
		rules[inconclusiveRule] = sarifRule{ID: inconclusiveRule, Name: "InconclusiveSample",
			ShortDescription: sarifMessage{Text: "Both sides failed to render the sample, so nothing was proven."},
			Help:             sarifMessage{Text: "Give the inputs the Composition reads (EnvironmentConfigs and Secrets with -e, existing composed resources with -o)."}}
		results = append(results, sarifResult{
			RuleID: inconclusiveRule, Level: "warning",
			Message:    sarifMessage{Text: fmt.Sprintf("%s: inconclusive: legacy: %s; pipeline: %s. Hint: %s", s.Sample, s.LegacyError, s.PipelineError, s.Hint)},
			Locations:  sarif.At(r.Legacy, 0),
			Properties: map[string]any{"sample": s.Sample, "verdict": string(s.Verdict)},
		})
	}
	if r.Verdict == verify.Unverified {
		rules[unverifiedRule] = sarifRule{ID: unverifiedRule, Name: "UnverifiedComposition",
			ShortDescription: sarifMessage{Text: "No sample was conclusive: the conversion is not verified."},
			Help:             sarifMessage{Text: "Give samples with --xr, or generate them with --synthesize N; give the inputs they read with -e and -o."}}
		results = append(results, sarifResult{
			RuleID: unverifiedRule, Level: "warning",
			Message:   sarifMessage{Text: fmt.Sprintf("%s: unverified: %s. Hint: %s", r.Composition, r.Reason, r.Hint)},
			Locations: sarif.At(r.Legacy, 0),
		})
	}
	return sarif.Index(rules, results)
}
