package live

import (
	"bytes"
	"fmt"
	"html/template"
	"io"

	"github.com/pkg/errors"

	"github.com/xpmigrate/xpmigrate/internal/htmlstyle"
	"github.com/xpmigrate/xpmigrate/render/verify"
	"github.com/xpmigrate/xpmigrate/render/verify/format"
)

type htmlView struct {
	Headline   string
	HeadlineOK bool
	Reports    []htmlReport
	Missing    []permission
}

type htmlReport struct {
	ID          string
	Label       string
	LabelClass  string
	Composition string
	Legacy      string
	Verdict     string
	Summary     string
	Conversion  string
	Unverified  string
	XRs, Pinned int
	ConvVerdict string
	Emulation   string
	Drift       int
	// Tallies are every finding by object and path, when XRs are unlisted.
	Tallies     []tallyLine
	Diffs       []htmlDiff
	Benign      int
	XRRows      []htmlXR
	DriftRows   []htmlFinding
	DriftHidden bool
}

type htmlDiff struct {
	XR, Sample     string
	Title          string
	Legacy, Pipe   string
	Classification string
	Class          string
}

type htmlXR struct {
	Name, Claim, Revision string
	Conversion            string
	Error                 string
	Notes                 []string
	Findings              []htmlFinding
	More                  int
}

type htmlFinding struct {
	XR, Object, Path string
	Live, Rendered   string
	Message          string
}

func buildHTML(reports []*Report, o FormatOptions) htmlView {
	v := htmlView{Headline: headline(reports), Missing: missing(reports)}
	v.HeadlineOK = safe(reports) == "yes"
	for i, r := range reports {
		hr := htmlReport{ID: fmt.Sprintf("cluster-c-%d", i), Label: label(r), LabelClass: labelClass[label(r)], Composition: r.Composition, Legacy: r.Legacy, Verdict: r.Verdict,
			Summary: summary(r), XRs: r.XRs, Pinned: r.Pinned, ConvVerdict: "–", Drift: r.Drift,
			Emulation: fmt.Sprintf("%d on %s", r.Emulation, plural(r.EmulationXRs, "XR"))}
		if r.Unlisted > 0 {
			hr.Tallies = tallyLines(r)
		}
		if c := r.Conversion; c != nil {
			hr.ConvVerdict = string(c.Verdict)
			hr.Conversion = fmt.Sprintf("%s against %s: %s", c.Legacy, c.Converted, format.ReportSummary(c))
			if c.Verdict == verify.Unverified {
				hr.Unverified = c.Reason + ". Hint: " + c.Hint
			}
		}
		diffs, left := conversionDiffs(r.Conversion, o.Verbose)
		hr.Benign = left
		for _, sd := range diffs {
			if sd.sample.Verdict == verify.Inconclusive {
				hr.Diffs = append(hr.Diffs, htmlDiff{XR: sd.sample.Sample, Title: "inconclusive", Class: "warn",
					Classification: fmt.Sprintf("both sides failed, nothing was proven. Legacy: %s. Pipeline: %s. Hint: %s", sd.sample.LegacyError, sd.sample.PipelineError, sd.sample.Hint)})
			}
			for _, d := range sd.diffs {
				class := "bad"
				switch {
				case d.Fails(r.Conversion.Strict):
				case d.Gap != nil && d.Gap.Class == verify.ClassBreaking:
					class = "warn"
				default:
					class = ""
				}
				hr.Diffs = append(hr.Diffs, htmlDiff{XR: sd.sample.Sample, Title: d.Title(), Legacy: format.ValueText(d.Legacy), Pipe: format.ValueText(d.Pipeline),
					Classification: format.Classification(d, r.Conversion.Strict), Class: class})
			}
		}
		for j := range r.Composites {
			x := &r.Composites[j]
			if hasFindings(x) {
				hx := htmlXR{Name: x.Name, Claim: x.Claim, Conversion: string(x.Conversion), Error: x.EmulationError, Notes: x.Notes}
				if x.Pinned {
					hx.Revision = x.Revision
				}
				for k, f := range x.Emulation {
					if k == maxFindings && !o.Verbose {
						hx.More = len(x.Emulation) - k
						break
					}
					hx.Findings = append(hx.Findings, htmlFindingOf(x.Name, f))
				}
				hr.XRRows = append(hr.XRRows, hx)
			}
			if o.Verbose {
				for _, f := range x.Drift {
					hr.DriftRows = append(hr.DriftRows, htmlFindingOf(x.Name, f))
				}
			}
		}
		hr.DriftHidden = r.Drift > 0 && !o.Verbose
		v.Reports = append(v.Reports, hr)
	}
	return v
}

// labelClass colours a label with the report style's classes.
var labelClass = map[string]string{"FAIL": "bad", "WARN": "warn", "PASS": "ok"}

func htmlFindingOf(xr string, f Finding) htmlFinding {
	h := htmlFinding{XR: xr, Object: f.Object, Path: f.Path, Message: f.Message}
	if f.Message == "" {
		h.Live, h.Rendered = ShowValue(f.Live), ShowValue(f.Rendered)
	}
	return h
}

// htmlSection renders the reports as the <section id="cluster"> of
// migrate's HTML report.
func htmlSection(reports []*Report, o FormatOptions) (template.HTML, error) {
	var b bytes.Buffer
	if err := htmlTemplates.ExecuteTemplate(&b, "section", buildHTML(reports, o)); err != nil {
		return "", errors.Wrap(err, "cannot write the HTML report")
	}
	//nolint:gosec // G203: html/template rendered and escaped the section.
	return template.HTML(b.String()), nil
}

// writeHTMLPage writes the reports as one self-contained page (inline
// style, migrate's, no script, no external asset).
func writeHTMLPage(w io.Writer, reports []*Report, o FormatOptions) error {
	page := struct {
		Style   template.CSS
		Section htmlView
	}{
		//nolint:gosec // G203: the style sheet is internal/htmlstyle's constant.
		Style:   template.CSS(htmlstyle.Sheet),
		Section: buildHTML(reports, o),
	}
	return errors.Wrap(htmlTemplates.ExecuteTemplate(w, "page", page), "cannot write the HTML report")
}

var htmlTemplates = template.Must(template.New("page").Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>xpmigrate verify --cluster report</title>
<style>
{{.Style}}</style>
</head>
<body>
<header>
<h1>xpmigrate verify --cluster report</h1>
<nav><a href="#cluster">Summary</a>{{range .Section.Reports}}<a href="#{{.ID}}">{{.Composition}}</a>{{end}}</nav>
</header>
<main>
{{template "section" .Section}}
</main>
</body>
</html>
{{define "section"}}<section id="cluster">
<h2>Cluster check</h2>
<p id="cluster-headline" class="{{if .HeadlineOK}}ok{{else}}bad{{end}}">{{.Headline}}</p>
{{if .Reports}}<table id="cluster-table" class="fixed">
<thead><tr><th>Composition</th><th>Verdict</th><th>XRs</th><th>Pinned to another revision</th><th>Conversion</th><th>Emulation differences</th><th>Drifted fields (info)</th></tr></thead>
<tbody>
{{range .Reports}}<tr class="cluster-composition"><td class="path"><a href="#{{.ID}}">{{.Composition}}</a></td><td class="{{.LabelClass}}">{{.Verdict}}</td><td>{{.XRs}}</td><td>{{.Pinned}}</td><td class="status status-{{.ConvVerdict}}">{{.ConvVerdict}}</td><td>{{.Emulation}}</td><td>{{.Drift}}</td></tr>
{{end}}</tbody>
</table>{{else}}<p>No legacy Composition was checked against the cluster.</p>{{end}}
{{if .Missing}}<h3>Missing permissions</h3>
<p class="warn">The kubeconfig's user may not make these requests: what they guard was not checked.</p>
<ul id="cluster-missing">{{range .Missing}}<li><span class="code">{{.Perm}}</span> ({{range $i, $c := .Comps}}{{if $i}}, {{end}}{{$c}}{{end}})</li>{{end}}</ul>
{{end}}{{range .Reports}}<div class="cluster-report" id="{{.ID}}">
<h3><span class="code path">{{.Composition}}</span>: <span class="{{.LabelClass}}">{{.Verdict}}</span></h3>
<p><b class="{{.LabelClass}}">{{.Label}}</b> {{.Summary}}</p>
<p>Legacy: <span class="code path">{{.Legacy}}</span></p>
{{if .Conversion}}<p>Conversion: {{.Conversion}}</p>{{end}}{{if .Tallies}}
<h4>Every finding, by object and path</h4>
<table class="tallies fixed"><thead><tr><th>Check</th><th>Finding</th><th>XRs</th><th>For example</th></tr></thead><tbody>
{{range .Tallies}}<tr><td>{{.Kind}}</td><td class="code path">{{.Finding}}</td><td>{{.XRs}}</td><td class="path">{{.Examples}}</td></tr>
{{end}}</tbody></table>{{end}}
{{if .Unverified}}<p class="warn">Unverified: {{.Unverified}}</p>{{end}}
{{if .Diffs}}<h4>Conversion differences</h4>
<table class="differences fixed"><thead><tr><th>XR</th><th>Path</th><th>Legacy</th><th>Pipeline</th><th>Classification</th></tr></thead><tbody>
{{range .Diffs}}<tr><td class="code path">{{.XR}}</td><td class="code path">{{.Title}}</td><td><pre class="value">{{.Legacy}}</pre></td><td><pre class="value">{{.Pipe}}</pre></td><td{{if .Class}} class="{{.Class}}"{{end}}>{{.Classification}}</td></tr>
{{end}}</tbody></table>{{end}}
{{if .Benign}}<p>{{.Benign}} benign differences (info; --verbose lists them).</p>{{end}}
{{if .XRRows}}<h4>Emulation differences and objects not read</h4>
<p class="warn">The legacy render did not reproduce these live fields: the cluster does something the emulator does not (not a conversion problem).</p>
{{range .XRRows}}<details class="cluster-xr" open><summary>XR <span class="code path">{{.Name}}</span>{{if .Claim}} (claim <span class="code">{{.Claim}}</span>){{end}}{{if .Revision}} pinned to <span class="code">{{.Revision}}</span>{{end}}: conversion <span class="status status-{{.Conversion}}">{{.Conversion}}</span></summary>
{{if .Error}}<p class="bad">The legacy render failed: {{.Error}}</p>{{end}}
{{if .Notes}}<ul class="notes">{{range .Notes}}<li class="warn">{{.}}</li>{{end}}</ul>{{end}}
{{if .Findings}}<table class="emulation fixed"><thead><tr><th>Object</th><th>Path</th><th>Live</th><th>Rendered</th></tr></thead><tbody>
{{range .Findings}}<tr><td class="path">{{.Object}}</td><td class="code path">{{.Path}}</td>{{if .Message}}<td colspan="2">{{.Message}}</td>{{else}}<td><pre class="value">{{.Live}}</pre></td><td><pre class="value">{{.Rendered}}</pre></td>{{end}}</tr>
{{end}}</tbody></table>{{end}}
{{if .More}}<p>{{.More}} more (--verbose lists them)</p>{{end}}
</details>
{{end}}{{end}}
{{if .DriftRows}}<details class="drift"><summary>Drift (info): {{.Drift}} fields of live objects no render produces</summary>
<table class="drift fixed"><thead><tr><th>XR</th><th>Object</th><th>Path</th><th>Live</th></tr></thead><tbody>
{{range .DriftRows}}<tr><td class="code path">{{.XR}}</td><td class="path">{{.Object}}</td><td class="code path">{{.Path}}</td><td>{{if .Message}}{{.Message}}{{else}}<pre class="value">{{.Live}}</pre>{{end}}</td></tr>
{{end}}</tbody></table>
</details>{{end}}
{{if .DriftHidden}}<p>Drift (info): {{.Drift}} fields of live objects no render produces (manual edits, late-initialised provider fields); --verbose lists them.</p>{{end}}
</div>
{{end}}</section>{{end}}`))
