package report

import (
	"fmt"
	"html/template"
	"io"
	"strings"

	"github.com/pkg/errors"

	"github.com/xpmigrate/xpmigrate/convert/migrate"
	"github.com/xpmigrate/xpmigrate/internal/htmlstyle"
	"github.com/xpmigrate/xpmigrate/internal/udiff"
)

// WriteHTML writes the report as one self-contained HTML page (inline
// style, no script, no external assets): the summary, a row per
// Composition with its status and diagnostics, and, on click, the
// side-by-side before/after of its document and, per sample, the unified
// diff between the legacy and the pipeline render. Before/after needs
// Options.KeepSources; renders need a Verifier that returns them.
func WriteHTML(w io.Writer, r *migrate.Result) error { return writeHTML(w, r, nil) }

func writeHTML(w io.Writer, r *migrate.Result, cl *Cluster) error {
	v := buildHTMLView(r)
	if cl != nil {
		v.Cluster = cl.HTML
	}
	if err := htmlPage.Execute(w, v); err != nil {
		return errors.Wrap(err, "cannot write the HTML report")
	}
	return nil
}

type htmlView struct {
	Headline     string
	HeadlineOK   bool
	Cancelled    bool
	Mode         string
	Summary      []kv
	Compositions []htmlComp
	Files        []htmlFile
	Findings     []htmlFinding
	// Cluster is the cluster check's section, rendered (escaped) by its
	// writer.
	Cluster template.HTML
}

type kv struct {
	Key   string
	Value string
	Class string
}

type htmlComp struct {
	ID, FileID  string
	Name        string
	File        string
	Document    int
	Type        string
	Status      string
	Verify      string
	Diagnostics []migrate.Diagnostic
	DiagSummary string
	SideBySide  []sbsRow
	HasSources  bool
	Samples     []htmlSample
	Unexercised []string
	VerifyError string
	Unverified  string
}

type htmlSample struct {
	ID          string
	Source      string
	Status      string
	Error       string
	Differences []migrate.Difference
	Diff        []diffLine
	HasRenders  bool
	Ready       string
}

type diffLine struct {
	Class string
	Text  string
}

type sbsRow struct {
	LNum, RNum     string
	Left, Right    string
	LClass, RClass string
}

type htmlFile struct {
	ID          string
	Path        string
	Status      string
	Reason      string
	Detail      string
	Diagnostics []migrate.Diagnostic
	Diff        []diffLine
}

type htmlFinding struct {
	migrate.Finding
	FileID string
}

func buildHTMLView(r *migrate.Result) htmlView {
	s := r.Summary
	v := htmlView{Cancelled: r.Cancelled, Mode: r.Mode, Headline: migrate.Headline(r)}
	v.HeadlineOK = r.Verdict().Safe == migrate.SafeYes
	add := func(k string, n int, class string) {
		if n == 0 {
			class = ""
		}
		v.Summary = append(v.Summary, kv{Key: k, Value: fmt.Sprint(n), Class: class})
	}
	add("Files", s.Files, "")
	add("Converted", s.Converted, "ok")
	add("Unchanged", s.Unchanged, "")
	add("Skipped", s.Skipped, "warn")
	add("Failed", s.Failed, "bad")
	if s.NotProcessed > 0 {
		add("Not processed", s.NotProcessed, "warn")
	}
	add("Compositions", s.Compositions, "")
	add("Legacy compositions", s.LegacyCompositions, "")
	add("Compositions converted", s.ConvertedCompositions, "ok")
	add("Compositions failed", s.FailedCompositions, "bad")
	add("Verified equivalent", s.VerifiedEquivalent, "ok")
	add("Intended changes", s.IntendedChanges, "ok")
	add("Known gaps", s.KnownGaps, "warn")
	add("Different", s.Differences, "bad")
	add("Verifications failing", s.Failing, "bad")
	add("Verification errors", s.VerifyErrors, "bad")
	add("Unverified", s.Unverified, "warn")
	add("Inconclusive samples", s.InconclusiveSamples, "warn")
	add("Diagnostics and findings (all files)", s.Errors+s.Warnings+s.Infos, "")
	add("of which repository findings (M-codes)", s.Findings, "warn")
	if len(s.SkippedBy) > 0 {
		v.Summary = append(v.Summary, kv{Key: "Skipped or failed by reason", Value: migrate.CountList(s.SkippedBy)})
	}
	if len(s.GapCodes) > 0 {
		v.Summary = append(v.Summary, kv{Key: "Classified differences by gap code (benign ones included)", Value: migrate.CountList(s.GapCodes)})
	}

	// The files table lists every file worth a look, so every link to a
	// file resolves.
	fileID := map[string]string{}
	hasComp := map[string]bool{}
	for _, c := range r.Compositions {
		hasComp[c.File] = true
	}
	for _, f := range r.Files {
		if f.Status == migrate.FileUnchanged && len(f.Diagnostics) == 0 && !hasComp[f.Path] {
			continue
		}
		id := fmt.Sprintf("f-%d", len(v.Files))
		fileID[f.Path] = id
		hf := htmlFile{ID: id, Path: f.Path, Status: string(f.Status), Reason: f.Reason, Detail: f.Detail, Diagnostics: f.Diagnostics}
		if f.Diff != "" {
			hf.Diff = diffLines2HTML(f.Diff)
		}
		v.Files = append(v.Files, hf)
	}

	for i, c := range r.Compositions {
		hc := htmlComp{ID: fmt.Sprintf("c-%d", i), FileID: fileID[c.File], Name: c.Name, File: c.File, Document: c.Document,
			Type: c.CompositeType, Status: string(c.Status), Verify: "–", Diagnostics: c.Diagnostics, DiagSummary: severityCounts(c.Diagnostics)}
		if c.Before != "" || c.After != "" {
			hc.HasSources = true
			hc.SideBySide = sideBySide(c.Before, c.After)
		}
		if vr := c.Verification; vr != nil {
			hc.Verify = string(vr.Status)
			hc.VerifyError = vr.Error
			if vr.Fails && vr.Status == migrate.VerifyKnownGaps {
				hc.Verify = "known-gaps (failing)"
			}
			if vr.Reason != "" {
				hc.Unverified = vr.Reason + ". Hint: " + vr.Hint
			}
			hc.Unexercised = vr.Unexercised
			for j, sm := range vr.Samples {
				hs := htmlSample{ID: fmt.Sprintf("%s-s-%d", hc.ID, j), Source: sm.Source, Status: string(sm.Status), Error: sm.Error, Differences: sm.Differences, Ready: sm.Ready}
				if sm.Status == migrate.VerifyInconclusive {
					hs.Error = fmt.Sprintf("Both sides failed, nothing was proven. Legacy: %s. Pipeline: %s. Hint: %s", sm.LegacyError, sm.PipelineError, sm.Hint)
				}
				if sm.Legacy != "" || sm.Pipeline != "" {
					hs.HasRenders = true
					if d := udiff.Unified("legacy render", "pipeline render", []byte(sm.Legacy), []byte(sm.Pipeline)); d != "" {
						hs.Diff = diffLines2HTML(d)
					} else {
						hs.Diff = []diffLine{{Class: "ctx", Text: "(the renders are identical)"}}
					}
				}
				hc.Samples = append(hc.Samples, hs)
			}
		}
		v.Compositions = append(v.Compositions, hc)
	}
	for _, f := range r.Findings {
		v.Findings = append(v.Findings, htmlFinding{Finding: f, FileID: fileID[f.File]})
	}
	return v
}

// severityCounts renders "2 errors, 1 info" for a list of diagnostics.
func severityCounts(ds []migrate.Diagnostic) string {
	if len(ds) == 0 {
		return "–"
	}
	n := map[string]int{}
	for _, d := range ds {
		n[d.Severity]++
	}
	var parts []string
	for _, sev := range []string{migrate.SeverityError, migrate.SeverityWarning, migrate.SeverityInfo} {
		if n[sev] == 0 {
			continue
		}
		word := sev
		if sev == migrate.SeverityInfo {
			word = "info"
		} else if n[sev] > 1 {
			word += "s"
		}
		parts = append(parts, fmt.Sprintf("%d %s", n[sev], word))
	}
	return strings.Join(parts, ", ")
}

// diffLines2HTML classifies the lines of a unified diff.
func diffLines2HTML(d string) []diffLine {
	var out []diffLine
	for _, l := range strings.SplitAfter(d, "\n") {
		if l == "" {
			continue
		}
		l = strings.TrimSuffix(l, "\n")
		c := "ctx"
		switch {
		case strings.HasPrefix(l, "+++"), strings.HasPrefix(l, "---"):
			c = "hdr"
		case strings.HasPrefix(l, "@@"):
			c = "hunk"
		case strings.HasPrefix(l, "+"):
			c = "add"
		case strings.HasPrefix(l, "-"):
			c = "del"
		}
		out = append(out, diffLine{Class: c, Text: l})
	}
	return out
}

// sideBySide lines up before and after: unchanged lines side by side,
// removed lines on the left against added lines on the right.
func sideBySide(before, after string) []sbsRow {
	bl, al := udiff.SplitLines(before), udiff.SplitLines(after)
	// Lines are matched by their content without indentation, so a block
	// the conversion moved under the pipeline step (the same lines, more
	// deeply indented) shows as moved, not as deleted and added.
	ops := udiff.Lines(trimIndent(bl), trimIndent(al))
	var rows []sbsRow
	ln, rn := 1, 1
	clean := func(s string) string {
		s = strings.TrimSuffix(s, "\n")
		return strings.Replace(s, "\n\\ No newline at end of file", "", 1)
	}
	for i := 0; i < len(ops); {
		if ops[i].Kind == ' ' {
			l, r := bl[ln-1], al[rn-1]
			row := sbsRow{LNum: fmt.Sprint(ln), RNum: fmt.Sprint(rn), Left: clean(l), Right: clean(r)}
			if l != r {
				row.LClass, row.RClass = "mov", "mov"
			}
			rows = append(rows, row)
			ln++
			rn++
			i++
			continue
		}
		var dels, adds []string
		for i < len(ops) && ops[i].Kind == '-' {
			dels = append(dels, bl[ln-1+len(dels)])
			i++
		}
		for i < len(ops) && ops[i].Kind == '+' {
			adds = append(adds, al[rn-1+len(adds)])
			i++
		}
		for j := 0; j < len(dels) || j < len(adds); j++ {
			var row sbsRow
			if j < len(dels) {
				row.LNum, row.Left, row.LClass = fmt.Sprint(ln), clean(dels[j]), "del"
				ln++
			}
			if j < len(adds) {
				row.RNum, row.Right, row.RClass = fmt.Sprint(rn), clean(adds[j]), "add"
				rn++
			}
			rows = append(rows, row)
		}
	}
	return rows
}

// trimIndent returns the lines without their leading spaces.
func trimIndent(lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = strings.TrimLeft(l, " ")
	}
	return out
}

var htmlPage = template.Must(template.New("report").Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>xpmigrate migrate report</title>
<style>
` + htmlstyle.Sheet + `</style>
</head>
<body>
<header>
<h1>xpmigrate migrate report</h1>
<nav><a href="#summary">Summary</a><a href="#compositions">Compositions</a><a href="#files">Files</a><a href="#findings">Findings</a>{{if .Cluster}}<a href="#cluster">Cluster</a>{{end}}</nav>
</header>
<main>
<section id="summary">
<p id="headline" class="{{if .HeadlineOK}}ok{{else}}bad{{end}}">{{.Headline}}</p>
<h2>Summary</h2>
{{if .Cancelled}}<p class="bad" id="cancelled">The run was cancelled; files not processed were left as they were.</p>{{end}}
<p>Mode: <span class="code">{{.Mode}}</span></p>
<table class="summary">
{{range .Summary}}<tr><th>{{.Key}}</th><td{{if .Class}} class="{{.Class}}"{{end}}>{{.Value}}</td></tr>
{{end}}</table>
</section>
<section id="compositions">
<h2>Compositions</h2>
{{if .Compositions}}<table id="composition-table" class="fixed">
<colgroup><col style="width:24%"><col style="width:40%"><col style="width:10%"><col style="width:11%"><col style="width:15%"></colgroup>
<thead><tr><th>Composition</th><th>File</th><th>Status</th><th>Verification</th><th>Diagnostics</th></tr></thead>
<tbody>
{{range .Compositions}}<tr id="{{.ID}}" class="composition">
<td class="path"><a href="#{{.ID}}">{{.Name}}</a><span class="type code">{{.Type}}</span></td>
<td class="path">{{if .FileID}}<a href="#{{.FileID}}">{{.File}}</a>{{else}}{{.File}}{{end}}#{{.Document}}</td>
<td class="status status-{{.Status}}">{{.Status}}</td>
<td class="status status-{{.Verify}}">{{.Verify}}</td>
<td>{{.DiagSummary}}</td>
</tr>
<tr class="composition-detail"><td colspan="5" class="detail">
{{if .Diagnostics}}<details class="diagnostics" id="{{.ID}}-diags"><summary>Diagnostics ({{len .Diagnostics}})</summary><ul class="diags">{{range .Diagnostics}}<li class="sev-{{.Severity}}"><b>{{.Code}}</b> {{.Severity}}{{if .Path}} <span class="code path">{{.Path}}</span>{{end}}: {{.Message}}</li>{{end}}</ul></details>{{end}}
{{if .HasSources}}<details class="before-after" id="{{.ID}}-ba"><summary>Before / after <span class="legend">(<span class="del">removed</span> <span class="add">added</span> <span class="mov">moved, re-indented</span>)</span></summary>
<table class="sbs fixed"><colgroup><col style="width:3em"><col><col style="width:3em"><col></colgroup>
{{range .SideBySide}}<tr><td class="num">{{.LNum}}</td><td class="{{.LClass}}">{{.Left}}</td><td class="num">{{.RNum}}</td><td class="{{.RClass}}">{{.Right}}</td></tr>
{{end}}</table>
</details>{{end}}
{{if .VerifyError}}<p class="bad">Verification error: {{.VerifyError}}</p>{{end}}
{{if .Unverified}}<p class="warn">Unverified: {{.Unverified}}</p>{{end}}
{{range .Samples}}<details class="sample" id="{{.ID}}"><summary>Sample <span class="code path">{{.Source}}</span>: <span class="status status-{{.Status}}">{{.Status}}</span>{{if .Ready}} (XR Ready: {{.Ready}}){{end}}</summary>
{{if .Error}}<p class="bad">{{.Error}}</p>{{end}}
{{if .Differences}}<table class="differences fixed"><colgroup><col style="width:25%"><col style="width:25%"><col style="width:25%"><col style="width:25%"></colgroup><thead><tr><th>Path</th><th>Legacy</th><th>Pipeline</th><th>Classification</th></tr></thead><tbody>
{{range .Differences}}<tr><td class="code path">{{.Path}}</td><td><pre class="value">{{.Legacy}}</pre></td><td><pre class="value">{{.Pipeline}}</pre></td><td>{{if .Code}}<b>{{.Code}}</b>{{if .Class}} <i>{{.Class}}{{if .Accepted}}, accepted{{end}}</i>{{end}} {{.Message}}{{else}}<span class="bad">unexplained</span> {{.Message}}{{end}}</td></tr>
{{end}}</tbody></table>{{end}}
{{if .HasRenders}}<pre class="diff render-diff">{{range .Diff}}<span class="{{.Class}}">{{.Text}}</span>{{end}}</pre>{{end}}
</details>
{{end}}{{if .Unexercised}}<details class="unexercised"><summary>Patches no sample exercised ({{len .Unexercised}})</summary><ul>{{range .Unexercised}}<li class="code">{{.}}</li>{{end}}</ul></details>{{end}}
</td></tr>
{{end}}</tbody>
</table>{{else}}<p>No Compositions found.</p>{{end}}
</section>
<section id="files">
<h2>Files</h2>
{{if .Files}}<table id="file-table" class="fixed">
<colgroup><col style="width:35%"><col style="width:10%"><col style="width:20%"><col style="width:35%"></colgroup>
<thead><tr><th>File</th><th>Status</th><th>Reason</th><th>Diagnostics</th></tr></thead>
<tbody>
{{range .Files}}<tr id="{{.ID}}" class="file"><td class="code path">{{.Path}}</td><td class="status status-{{.Status}}">{{.Status}}</td><td>{{.Reason}}{{if .Detail}}: {{.Detail}}{{end}}</td>
<td>{{if .Diagnostics}}<details class="file-diags"><summary>{{len .Diagnostics}} diagnostics</summary><ul class="diags">{{range .Diagnostics}}<li class="sev-{{.Severity}}"><b>{{.Code}}</b> doc {{.Document}}{{if .Path}} <span class="code path">{{.Path}}</span>{{end}}: {{.Message}}</li>{{end}}</ul></details>{{end}}
{{if .Diff}}<details class="file-diff"><summary>Diff</summary><pre class="diff">{{range .Diff}}<span class="{{.Class}}">{{.Text}}</span>{{end}}</pre></details>{{end}}</td></tr>
{{end}}</tbody>
</table>{{else}}<p>No files to show.</p>{{end}}
</section>
<section id="findings">
<h2>Findings</h2>
{{if .Findings}}<table id="finding-table" class="fixed">
<colgroup><col style="width:6%"><col style="width:7%"><col style="width:25%"><col style="width:12%"><col style="width:18%"><col style="width:32%"></colgroup>
<thead><tr><th>Code</th><th>Severity</th><th>File</th><th>Composition</th><th>Path</th><th>Message</th></tr></thead>
<tbody>
{{range .Findings}}<tr class="finding"><td><b>{{.Code}}</b></td><td class="sev-{{.Severity}}">{{.Severity}}</td><td class="path">{{if .FileID}}<a href="#{{.FileID}}">{{.File}}</a>{{else}}{{.File}}{{end}}#{{.Document}}</td><td class="path">{{.Composition}}</td><td class="code path">{{.Path}}</td><td>{{.Message}}</td></tr>
{{end}}</tbody>
</table>{{else}}<p>No findings.</p>{{end}}
</section>
{{if .Cluster}}{{.Cluster}}
{{end}}</main>
</body>
</html>
`))
