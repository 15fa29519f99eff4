package live

import (
	"bytes"
	"fmt"
	"io"
	"strings"

	"github.com/xpmigrate/xpmigrate/internal/junit"
	"github.com/xpmigrate/xpmigrate/internal/sarif"
	"github.com/xpmigrate/xpmigrate/internal/workflow"
	"github.com/xpmigrate/xpmigrate/render/verify"
	"github.com/xpmigrate/xpmigrate/render/verify/format"
)

// located returns the conversion check of r with its results pointing at
// file (render/verify/format locates them at Legacy).
func located(r *Report, file string) *verify.Report {
	if r.Conversion == nil {
		return nil
	}
	c := *r.Conversion
	c.Legacy = file
	return &c
}

// byName indexes the XRs of a report by name (a conversion sample is named
// after its XR).
func byName(r *Report) map[string]*XR {
	m := make(map[string]*XR, len(r.Composites))
	for i := range r.Composites {
		m[r.Composites[i].Name] = &r.Composites[i]
	}
	return m
}

// findingLines are an XR's emulation differences, its render error and
// what could not be read, one line each (at most maxFindings differences
// without verbose).
func findingLines(x *XR, verbose bool) []string {
	var out []string
	if x.EmulationError != "" {
		out = append(out, "emulation: the legacy render failed: "+x.EmulationError)
	}
	for i, f := range x.Emulation {
		if i == maxFindings && !verbose {
			out = append(out, fmt.Sprintf("emulation: %d more (--verbose lists them)", len(x.Emulation)-i))
			break
		}
		out = append(out, "emulation: "+f.String())
	}
	for _, n := range x.Notes {
		out = append(out, "not read: "+n)
	}
	return out
}

// junitSuites are a suite per report: format's case per XR (the
// conversion check) with the XR's emulation differences, unread objects
// and drift as output (emulation differences and unread objects fail the
// case with RequireVerified), a skipped case for the missing permissions
// and a passing "summary" case whose output is the report's summary.
func junitSuites(reports []*Report, o FormatOptions) []junit.Suite {
	suites := make([]junit.Suite, 0, len(reports))
	for _, r := range reports {
		file, _ := o.locate(r)
		suite := junit.Suite{Name: "cluster: " + r.Composition}
		if c := located(r, file); c != nil {
			suite = format.JUnitSuite(c)
			suite.Name = "cluster: " + r.Composition
		}
		xrs := byName(r)
		for i := range suite.Cases {
			c := &suite.Cases[i]
			c.Classname = "cluster." + r.Composition
			x := xrs[c.Name]
			if x == nil {
				continue
			}
			lines := findingLines(x, o.Verbose)
			if len(x.Drift) > 0 {
				lines = append(lines, fmt.Sprintf("drift (info): %s no render produces", plural(len(x.Drift), "live field")))
			}
			if len(lines) == 0 {
				continue
			}
			text := strings.Join(lines, "\n") + "\n"
			if o.RequireVerified && hasFindings(x) && c.Failure == nil && c.Skipped == nil {
				c.Failure = &junit.Failure{Message: "the legacy render does not reproduce the live XR: " + emulationNote, Type: "emulation", Text: text}
				suite.Failures++ // A case of the suite already, now failing.
				continue
			}
			c.SystemOut += text
		}
		if len(r.Missing) > 0 {
			suite.Add(junit.Case{Name: "missing permissions", Classname: "cluster." + r.Composition, File: file,
				Skipped: &junit.Skipped{Message: "not checked, the kubeconfig's user may not: " + strings.Join(r.Missing, "; ")}})
		}
		suite.Add(junit.Case{Name: "summary", Classname: "cluster." + r.Composition, File: file,
			SystemOut: label(r) + " " + r.Composition + ": " + summary(r) + "\n"})
		suites = append(suites, suite)
	}
	return suites
}

func writeJUnit(w io.Writer, reports []*Report, o FormatOptions) error {
	doc := junit.Suites{Name: "xpmigrate verify --cluster"}
	for _, s := range junitSuites(reports, o) {
		doc.Add(s)
	}
	return junit.Write(w, doc)
}

// SARIF rule ids of the cluster check (the conversion check's are
// render/verify/format's: gap codes, unexplained, inconclusive,
// unverified).
const (
	ruleEmulation = "emulation-difference"
	ruleEmuError  = "emulation-error"
	ruleDrift     = "drift"
	ruleNotRead   = "not-read"
	ruleMissing   = "missing-permission"
	ruleSummary   = "cluster-summary"
)

var clusterRules = map[string]sarif.Rule{
	ruleEmulation: {ID: ruleEmulation, Name: "EmulationDifference",
		ShortDescription: sarif.Message{Text: "The legacy render does not reproduce a field of a live object: the cluster does something the emulator does not."},
		Help:             sarif.Message{Text: "Not a conversion problem. The proof is incomplete for this field: check what writes it in the cluster (a controller, a webhook, a hand edit); it fails only with --require-verified."}},
	ruleEmuError: {ID: ruleEmuError, Name: "EmulationError",
		ShortDescription: sarif.Message{Text: "The legacy render failed for a live XR that the cluster composes."},
		Help:             sarif.Message{Text: "Not a conversion problem: the emulator cannot render what the cluster did; the message names the error."}},
	ruleDrift: {ID: ruleDrift, Name: "Drift",
		ShortDescription: sarif.Message{Text: "A field of a live composed resource that no render produces."},
		Help:             sarif.Message{Text: "Information only: a manual edit or a field a provider late-initialised."}},
	ruleNotRead: {ID: ruleNotRead, Name: "NotRead",
		ShortDescription: sarif.Message{Text: "An object an XR refers to could not be read, so what it holds was not checked."},
		Help:             sarif.Message{Text: "Grant the missing permission, or check why the object is missing."}},
	ruleMissing: {ID: ruleMissing, Name: "MissingPermission",
		ShortDescription: sarif.Message{Text: "The kubeconfig's user may not make a read request: what it guards was not checked."},
		Help:             sarif.Message{Text: "Grant the view-only role of the migration runbook (get and list only)."}},
	ruleSummary: {ID: ruleSummary, Name: "ClusterSummary",
		ShortDescription: sarif.Message{Text: "The verdict of a Composition checked against the XRs of the cluster."},
		Help:             sarif.Message{Text: "A summary, not a problem: the other results say what differs."}},
}

// sarifParts are the rules (sorted by id) and results of the reports: the
// conversion check's (render/verify/format), then per XR its emulation
// differences (warnings; errors with RequireVerified), unread objects and
// drift (notes), then the missing permissions and a summary note per
// Composition.
func sarifParts(reports []*Report, o FormatOptions) ([]sarif.Rule, []sarif.Result) {
	rules := map[string]sarif.Rule{}
	var results []sarif.Result
	use := func(id string) { rules[id] = clusterRules[id] }
	warn := "warning"
	if o.RequireVerified {
		warn = "error"
	}
	for _, r := range reports {
		file, line := o.locate(r)
		at := sarif.At(file, line)
		if c := located(r, file); c != nil {
			crules, cres := format.SARIFParts(c)
			for _, cr := range crules {
				if _, ok := rules[cr.ID]; !ok {
					rules[cr.ID] = cr
				}
			}
			for _, res := range cres {
				res.Properties = withComposition(res.Properties, r.Composition)
				results = append(results, res)
			}
		}
		for i := range r.Composites {
			x := &r.Composites[i]
			props := func(f *Finding) map[string]any {
				p := map[string]any{"composition": r.Composition, "xr": x.Name}
				if f != nil {
					p["object"], p["path"] = f.Object, f.Path
				}
				return p
			}
			if x.EmulationError != "" {
				use(ruleEmuError)
				results = append(results, sarif.Result{RuleID: ruleEmuError, Level: warn, Locations: at, Properties: props(nil),
					Message: sarif.Message{Text: fmt.Sprintf("%s: XR %s: the legacy render failed: %s: %s", r.Composition, x.Name, x.EmulationError, emulationNote)}})
			}
			for j := range x.Emulation {
				f := &x.Emulation[j]
				use(ruleEmulation)
				results = append(results, sarif.Result{RuleID: ruleEmulation, Level: warn, Locations: at, Properties: props(f),
					Message: sarif.Message{Text: fmt.Sprintf("%s: XR %s: emulation difference: %s: %s", r.Composition, x.Name, f, emulationNote)}})
			}
			for _, n := range x.Notes {
				use(ruleNotRead)
				results = append(results, sarif.Result{RuleID: ruleNotRead, Level: warn, Locations: at, Properties: props(nil),
					Message: sarif.Message{Text: fmt.Sprintf("%s: XR %s: not checked: %s", r.Composition, x.Name, n)}})
			}
			for j := range x.Drift {
				f := &x.Drift[j]
				use(ruleDrift)
				results = append(results, sarif.Result{RuleID: ruleDrift, Level: "note", Locations: at, Properties: props(f),
					Message: sarif.Message{Text: fmt.Sprintf("%s: XR %s: drift (info): %s", r.Composition, x.Name, f)}})
			}
		}
		for _, m := range r.Missing {
			use(ruleMissing)
			results = append(results, sarif.Result{RuleID: ruleMissing, Level: "warning", Locations: at,
				Properties: map[string]any{"composition": r.Composition, "permission": m},
				Message:    sarif.Message{Text: fmt.Sprintf("%s: missing permission %s: not checked", r.Composition, m)}})
		}
		use(ruleSummary)
		results = append(results, sarif.Result{RuleID: ruleSummary, Level: "note", Locations: at,
			Properties: map[string]any{"composition": r.Composition, "verdict": r.Verdict, "xrs": r.XRs, "pinned": r.Pinned,
				"emulationXRs": r.EmulationXRs, "emulationDifferences": r.Emulation, "driftFields": r.Drift},
			Message: sarif.Message{Text: fmt.Sprintf("%s %s: %s", label(r), r.Composition, summary(r))}})
	}
	return sarif.Index(rules, results)
}

func withComposition(p map[string]any, comp string) map[string]any {
	out := make(map[string]any, len(p)+1)
	for k, v := range p {
		out[k] = v
	}
	out["composition"] = comp
	return out
}

func writeSARIF(w io.Writer, reports []*Report, o FormatOptions) error {
	rules, results := sarifParts(reports, o)
	return sarif.Write(w, sarif.New(sarif.Driver{Name: "xpmigrate verify --cluster", Rules: rules}, results))
}

// writeGitHub writes workflow commands: per report its summary (a notice),
// the conversion check's annotations (render/verify/format), a warning per
// emulation difference, render error and unread object (errors with
// RequireVerified; at most maxFindings differences per XR without
// Verbose), and the drift as one notice (one per XR with Verbose); then a
// warning per missing permission.
func writeGitHub(w io.Writer, reports []*Report, o FormatOptions) error {
	var b bytes.Buffer
	warn := workflow.Warning
	if o.RequireVerified {
		warn = workflow.Error
	}
	for _, r := range reports {
		file, line := o.locate(r)
		cmd := func(level, title, msg string) {
			fmt.Fprintln(&b, workflow.Annotation{Level: level, File: file, Line: line, Title: title, Message: msg})
		}
		cmd(workflow.Notice, "cluster: "+r.Composition+": "+r.Verdict, label(r)+" "+summary(r))
		if c := located(r, file); c != nil {
			if err := format.WriteGitHub(&b, c); err != nil {
				return err
			}
		}
		driftXRs := 0
		for i := range r.Composites {
			x := &r.Composites[i]
			for _, l := range findingLines(x, o.Verbose) {
				msg := l
				if strings.HasPrefix(l, "emulation: ") {
					msg += ": " + emulationNote
				}
				cmd(warn, "cluster: "+r.Composition+": XR "+x.Name, msg)
			}
			if len(x.Drift) == 0 {
				continue
			}
			driftXRs++
			if o.Verbose {
				paths := make([]string, 0, len(x.Drift))
				for _, f := range x.Drift {
					paths = append(paths, f.String())
				}
				cmd(workflow.Notice, "cluster: "+r.Composition+": XR "+x.Name+": drift (info)", strings.Join(paths, "; "))
			}
		}
		if r.Drift > 0 && !o.Verbose {
			cmd(workflow.Notice, "cluster: "+r.Composition+": drift (info)",
				fmt.Sprintf("%s of live objects no render produces on %s (manual edits, late-initialised provider fields); --verbose lists them", plural(r.Drift, "field"), plural(driftXRs, "XR")))
		}
	}
	for _, p := range missing(reports) {
		fmt.Fprintln(&b, workflow.Annotation{Level: workflow.Warning, Title: "cluster: missing permission",
			Message: fmt.Sprintf("the kubeconfig's user may not %s: what it guards was not checked (%s)", p.Perm, strings.Join(p.Comps, ", "))})
	}
	_, err := w.Write(b.Bytes())
	return err
}
