package migrate

import (
	"bytes"
	"context"
	"crypto/sha256"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"strings"

	"github.com/pkg/errors"

	"github.com/xpmigrate/xpmigrate/convert/migrate/finding"
	"github.com/xpmigrate/xpmigrate/convert/migrate/tree"
	"github.com/xpmigrate/xpmigrate/internal/atomicfile"
	"github.com/xpmigrate/xpmigrate/internal/jsonobj"
	"github.com/xpmigrate/xpmigrate/internal/manifest"
	"github.com/xpmigrate/xpmigrate/internal/regularfile"
	"github.com/xpmigrate/xpmigrate/internal/udiff"
	"github.com/xpmigrate/xpmigrate/internal/xp"
	"github.com/xpmigrate/xpmigrate/render"
)

// migrate handles one file.
func (r *runner) migrate(ctx context.Context, f *tree.Scanned) *outcome {
	if ctx.Err() != nil {
		return notProcessed(f)
	}
	if f.Kind != tree.EntryOther && r.o.Progress != nil {
		r.mu.Lock()
		r.o.Progress.Started(f.Rel)
		r.mu.Unlock()
	}
	oc := &outcome{emit: true, file: FileResult{Path: f.Rel, Compositions: f.Compositions}}
	switch {
	case f.Kind == tree.EntrySkipped:
		oc.file.Status, oc.file.Reason, oc.file.Detail = FileSkipped, f.Why, f.WhyDetail
		return oc
	case f.DupOf != "":
		oc.file.Status, oc.file.Reason, oc.file.Detail = FileSkipped, ReasonDuplicate, "same file as "+f.DupOf
		return oc
	case f.Kind == tree.EntryOther && isTemplateFile(f.Rel):
		if fd := r.legacyTemplate(f); fd != nil {
			oc.file.Status, oc.file.Reason, oc.file.Detail = FileSkipped, ReasonTemplate, "template file ("+templateExt(f.Rel)+"), not YAML"
			oc.file.Diagnostics = append(oc.file.Diagnostics, *fd)
			if r.o.Write == WriteOut {
				if err := copyOut(r.outAbs, f.Rel, f.Real, f.Mode); err != nil {
					oc.file.Status, oc.file.Reason, oc.file.Detail = FileFailed, ReasonWriteError, err.Error()
				}
			}
			return oc
		}
		fallthrough
	case f.Kind == tree.EntryOther:
		oc.emit = false
		if r.o.Write == WriteOut {
			if err := copyOut(r.outAbs, f.Rel, f.Real, f.Mode); err != nil {
				oc.emit = true
				oc.file.Status, oc.file.Reason, oc.file.Detail = FileFailed, ReasonWriteError, err.Error()
			}
		}
		return oc
	case f.Reason != "":
		return r.skipWhole(f, oc)
	case f.Compositions > 0 && r.ix.PatchFiles[f.Rel]:
		f.Reason, f.Detail = ReasonKustomizePatch, "kustomize patch file: patches are fragments, not Compositions"
		return r.skipWhole(f, oc)
	}

	data, err := regularfile.ReadFile(f.Real)
	var nr *regularfile.NotRegularError
	switch {
	case errors.Is(err, fs.ErrNotExist):
		oc.file.Status, oc.file.Reason, oc.file.Detail = FileSkipped, ReasonVanished, "deleted during the run"
		return oc
	case errors.As(err, &nr):
		oc.file.Status, oc.file.Reason, oc.file.Detail = FileSkipped, ReasonNotRegular, tree.NotRegularDetail(nr.Mode)
		return oc
	case err != nil:
		oc.file.Status, oc.file.Reason, oc.file.Detail = FileFailed, ReasonUnreadable, err.Error()
		return oc
	case sha256.Sum256(data) != f.Sum:
		oc.file.Status, oc.file.Reason, oc.file.Detail = FileSkipped, ReasonModified, "changed by something else during the run"
		return oc
	}

	if f.Compositions == 0 && (!r.o.Definitions || f.XRDs == 0) && !r.v2ObjectsIn(f) {
		oc.file.Status = FileUnchanged
		oc.file.Diagnostics = r.fileFindings(f)
		r.keep(f, data)
		if r.o.Write == WriteOut {
			if err := writeOut(r.outAbs, f.Rel, data, f.Mode); err != nil {
				oc.file.Status, oc.file.Reason, oc.file.Detail = FileFailed, ReasonWriteError, err.Error()
			} else {
				oc.file.Written = true
			}
		}
		return oc
	}

	return r.convert(ctx, f, data, oc)
}

func notProcessed(f *tree.Scanned) *outcome {
	return &outcome{file: FileResult{Path: f.Rel, Status: FileNotProcessed, Compositions: f.Compositions}, emit: f.Kind != tree.EntryOther}
}

// skipWhole reports a file skipped as a whole, copying it to Out.
func (r *runner) skipWhole(f *tree.Scanned, oc *outcome) *outcome {
	oc.file.Status, oc.file.Reason, oc.file.Detail = FileSkipped, f.Reason, f.Detail
	if f.Reason == ReasonUnreadable || f.Reason == ReasonAliasBomb || (f.Reason == ReasonTooLarge && f.LegacyHint) {
		oc.file.Status = FileFailed
	}
	if f.Reason == ReasonKustomizePatch {
		oc.file.Diagnostics = append(oc.file.Diagnostics, r.ix.Kustomize[f.Rel]...)
		for _, d := range f.Docs {
			if tree.IsComposition(d.APIVersion, d.Kind) {
				oc.comps = append(oc.comps, CompositionResult{File: f.Rel, Document: d.Index, Line: d.Line, Name: d.Name, CompositeType: typeOf(d.Obj), Legacy: tree.IsLegacy(d.Obj), Status: CompositionSkipped})
			}
		}
	}
	if f.LegacyHint {
		oc.file.Diagnostics = append(oc.file.Diagnostics, Finding{Code: "M402", Severity: SeverityWarning, Document: -1, Line: f.Line,
			Message: fmt.Sprintf("file seems to hold a Composition in mode Resources but was skipped (%s): %s", f.Detail, legacyFix(f.Reason))})
	}
	if r.o.Write == WriteOut && f.Reason != ReasonVanished && f.Reason != ReasonUnreadable {
		if err := copyOut(r.outAbs, f.Rel, f.Real, f.Mode); err == nil {
			oc.file.Written = true
		}
	}
	return oc
}

func typeOf(obj map[string]any) string {
	av := jsonobj.String(obj, "spec", "compositeTypeRef", "apiVersion")
	k := jsonobj.String(obj, "spec", "compositeTypeRef", "kind")
	if av == "" && k == "" {
		return ""
	}
	return av + ", Kind=" + k
}

// keep remembers a file's final content when a duplicate needs it.
func (r *runner) keep(f *tree.Scanned, final []byte) {
	if !r.needs[f.Real] {
		return
	}
	r.mu.Lock()
	r.finalFor[f.Real] = final
	r.mu.Unlock()
}

// convert converts, verifies and writes one file with Compositions.
func (r *runner) convert(ctx context.Context, f *tree.Scanned, data []byte, oc *outcome) *outcome {
	req := ConvertRequest{Path: f.Rel, Data: data, Format: f.Format, Target: r.o.Target, Phase1: r.o.Phase1,
		PatchAndTransform: r.o.PatchAndTransform, EnvironmentConfigs: r.o.EnvironmentConfigs}
	var extra []Finding
	if n, ok := r.fnPT[f.Rel]; ok {
		req.PatchAndTransform = n.name
		if n.ambiguous {
			extra = append(extra, ambiguousFn(xp.FunctionPatchAndTransform))
		}
	}
	if n, ok := r.fnEC[f.Rel]; ok {
		req.EnvironmentConfigs = n.name
		if n.ambiguous {
			extra = append(extra, ambiguousFn(xp.FunctionEnvironmentConfigs))
		}
	}
	comps := r.compositionsOf(f)
	req.XRDs = r.xrdsOf(f, comps)
	if r.o.Definitions && f.XRDs > 0 {
		req.Compositions = r.compositionsOfXRDs(f)
	}

	resp, err := r.o.Converter.Convert(ctx, req)
	if err != nil {
		oc.file.Status, oc.file.Reason, oc.file.Detail = FileFailed, ReasonConversionError, err.Error()
		return r.failConversion(f, data, oc, comps, extra)
	}
	if why := r.heldBack(f); why != "" && firstError(resp.Diagnostics) == "" {
		oc.file.Status, oc.file.Reason, oc.file.Detail = FileFailed, ReasonConversionError, why
		return r.failConversion(f, data, oc, comps, extra)
	}
	out := resp.Data
	before, after := splitFile(data, f.Format), splitFile(out, f.Format)
	if len(before) != len(after) {
		oc.file.Status, oc.file.Reason, oc.file.Detail = FileFailed, ReasonConversionError,
			fmt.Sprintf("the converter's output has %d documents where the input has %d", len(after), len(before))
		return r.failConversion(f, data, oc, comps, extra)
	}
	docStatus := map[int]string{}
	docData := map[int]DocumentStatus{}
	for _, d := range resp.Documents {
		docStatus[d.Index] = d.Status
		docData[d.Index] = d
	}

	diags := append([]Diagnostic(nil), resp.Diagnostics...)
	gate := make([]bool, len(comps))
	for i := range comps {
		c := &comps[i]
		c.Diagnostics = diagsFor(diags, c)
		changed := before[c.Document] != after[c.Document]
		st, known := docStatus[c.Document]
		if !known || c.Item >= 0 {
			st = fallbackStatus(c, changed, after[c.Document])
		}
		switch {
		case hasError(c.Diagnostics) || st == DocFailed:
			c.Status = CompositionFailed
		case st == DocUnchanged || st == DocSkipped || !changed:
			c.Status = CompositionUnchanged
			if c.Legacy && !r.o.Phase1 {
				c.Status = CompositionFailed
				c.Diagnostics = append(c.Diagnostics, Diagnostic{Code: "M402", Severity: SeverityError, Document: c.Document, Line: c.Line, Composition: c.Name,
					Message: "the converter left this Composition in mode Resources without saying why"})
			}
		case c.Legacy && r.o.Phase1:
			c.Status = CompositionPhase1
		case c.Legacy:
			c.Status = CompositionConverted
		default:
			c.Status = CompositionChanged
		}
		if r.o.KeepSources {
			c.Before, c.After = before[c.Document], after[c.Document]
		}
		if r.o.Verify && c.Status == CompositionConverted {
			c.Verification = r.verifyDoc(ctx, f, c, before[c.Document], after[c.Document], docData[c.Document])
		}
		if r.base != nil && !c.Legacy && c.Status != CompositionFailed {
			// What the tree holds after the run: a rewritten Composition
			// is verified as rewritten.
			doc := before[c.Document]
			if c.Status == CompositionChanged {
				doc = after[c.Document]
			}
			found := r.verifyBase(ctx, f, c, doc)
			gate[i] = c.Base != "" || len(found) > 0
			extra = append(extra, found...)
		}
		if r.o.Verify && c.Status == CompositionChanged && c.Verification == nil {
			c.Verification = &Verification{Status: VerifyUnverified,
				Reason: "a mode Pipeline Composition rewritten by the run (" + rewriteCodes(c.Diagnostics) + "): verify proves a conversion from a legacy form, and there is none, so nothing proves the rewrite",
				Hint:   "check the rewritten pipeline by hand (xpmigrate render it and the original with the same XR, observed resources and EnvironmentConfigs), or give --base the revision where it was still mode Resources"}
		}
	}
	oc.comps = comps
	oc.steps = make([]compSteps, len(comps))
	for i, c := range comps {
		oc.steps[i] = compSteps{before: pipelineSteps(before[c.Document], c.Item), gate: gate[i]}
		if before[c.Document] != after[c.Document] {
			oc.steps[i].after = pipelineSteps(after[c.Document], c.Item)
		} else {
			oc.steps[i].after = oc.steps[i].before
		}
	}

	// Findings over the final content: what the scan found, less what the
	// converter fixed or reported itself, at the converted paths.
	findings := r.finalFindings(f, comps, diags)
	findings = append(findings, extra...)
	for _, c := range comps {
		if c.Status == CompositionFailed {
			findings = append(findings, Finding{Code: "M402", Severity: SeverityWarning, Document: c.Document, Line: c.Line, Composition: c.Name,
				Message: "Composition is still in mode Resources (its conversion failed): Crossplane v2 no longer runs it"})
		}
	}
	oc.file.Diagnostics = finding.Sort(append(diags, findings...))

	changed := !bytes.Equal(data, out)
	var refused, held []string
	for _, c := range comps {
		switch {
		case c.Status == CompositionFailed && c.Legacy:
			refused = append(refused, fmt.Sprintf("%s (document %d): %s", c.Name, c.Document, strings.TrimPrefix(firstError(c.Diagnostics), ": ")))
		case c.Verification.failing() && c.Status == CompositionConverted:
			held = append(held, c.Name)
		}
	}
	if r.o.Definitions {
		refused = append(refused, refusedXRDs(f, docStatus, diags)...)
	}
	switch {
	case len(refused) > 0:
		// One rule for convert and migrate: a file is written only when
		// every legacy Composition in it converts.
		oc.file.Status, oc.file.Reason, oc.file.Detail = FileFailed, ReasonConversionError, "not written: the converter refused "+strings.Join(refused, "; ")
		for i := range comps {
			if comps[i].Status == CompositionConverted {
				comps[i].Status = CompositionHeldBack
			}
		}
		changed = false
	case len(held) > 0 && !r.o.Force && r.o.Write != WriteNone:
		oc.file.Status, oc.file.Reason, oc.file.Detail = FileHeldBack, ReasonVerification,
			"not written: the conversion of "+strings.Join(held, ", ")+" renders differently from the legacy form (or has breaking gaps nobody accepted); fix it, accept the gaps, or write it anyway with --force"
		for i := range comps {
			if comps[i].Status == CompositionConverted {
				comps[i].Status = CompositionHeldBack
			}
		}
		changed = false
	case changed:
		oc.file.Status = FileConverted
	default:
		oc.file.Status = FileUnchanged
	}
	if changed && r.o.Diff {
		text, err := manifest.Text(data)
		if err != nil {
			text = data
		}
		oc.file.Diff = udiff.Unified("a/"+f.Rel, "b/"+f.Rel, text, out)
	}

	if ctx.Err() != nil {
		// Cancelled while converting: leave the file as it was.
		return notProcessed(f)
	}
	final := data
	if changed {
		final = out
	}
	// The write waits for the disk, not a core: the caller runs it
	// while the next file converts.
	oc.write = func() {
		r.write(f, oc, data, out, final, changed)
	}
	if changed {
		// Held back after all (holdback.go): the file stays as it is.
		oc.keep = func() {
			r.write(f, oc, data, out, data, false)
		}
	}
	return oc
}

// write writes a converted file as the run's mode says, and completes its
// outcome.
func (r *runner) write(f *tree.Scanned, oc *outcome, data, out, final []byte, changed bool) {
	switch r.o.Write {
	case WriteInPlace:
		if !changed {
			break
		}
		if f.Mode&0o200 == 0 && !r.o.Force {
			oc.file.Status, oc.file.Reason, oc.file.Detail = FileFailed, ReasonReadOnly, "the file is read-only; make it writable, write it anyway with --force, or write a converted copy with --out"
			final = data
			r.unwritten(oc)
			break
		}
		lost, err := atomicfile.Replace(f.Real, out, atomicfile.ReplaceOptions{
			Check:          func() error { return unchangedSince(f.Real, f.Sum) },
			AllowHardLinks: r.o.Force,
		})
		var hl *atomicfile.HardLinkError
		switch {
		case errors.As(err, &hl):
			oc.file.Status, oc.file.Reason, oc.file.Detail = FileFailed, ReasonHardLinked,
				fmt.Sprintf("the file has %d names (hard links) and replacing it would split them; write it anyway with --force (the other names keep the old content), or write a converted copy with --out", hl.Links)
		case errors.Is(err, fs.ErrNotExist):
			oc.file.Status, oc.file.Reason, oc.file.Detail = FileSkipped, ReasonVanished, "deleted during the run"
		case errors.Is(err, errModified):
			oc.file.Status, oc.file.Reason, oc.file.Detail = FileSkipped, ReasonModified, "changed by something else during the run"
		case err != nil:
			oc.file.Status, oc.file.Reason, oc.file.Detail = FileFailed, ReasonWriteError, err.Error()
		default:
			oc.file.Written = true
			if len(lost) > 0 {
				oc.file.Diagnostics = append(oc.file.Diagnostics, Finding{Code: "M408", Severity: SeverityWarning, Document: -1,
					Message: "written in place, but not kept: " + strings.Join(lost, "; ")})
			}
		}
		if !oc.file.Written {
			final = data
			r.unwritten(oc)
		}
	case WriteOut:
		if err := writeOut(r.outAbs, f.Rel, final, f.Mode); err != nil {
			oc.file.Status, oc.file.Reason, oc.file.Detail = FileFailed, ReasonWriteError, err.Error()
		} else {
			oc.file.Written = true
		}
	}
	r.keep(f, final)
}

// splitFile returns the text of each document of a file, by index, as
// UTF-8 (manifest.Text).
func splitFile(data []byte, format string) []string {
	if text, err := manifest.Text(data); err == nil {
		data = text
	}
	docs := manifest.Whole(data)
	if format != "json" {
		docs = manifest.Split(data)
	}
	out := make([]string, len(docs))
	for i, d := range docs {
		out[i] = string(d.Raw)
	}
	return out
}

// fallbackStatus reads the converter's output for a Composition when the
// converter did not say what it did with it.
func fallbackStatus(c *CompositionResult, changed bool, after string) string {
	if !changed {
		return DocUnchanged
	}
	v, err := manifest.DecodeValue([]byte(after))
	if err != nil {
		return DocFailed
	}
	obj, _ := v.(map[string]any)
	if c.Item >= 0 {
		items := jsonobj.List(obj, "items")
		if c.Item >= len(items) {
			return DocFailed
		}
		obj, _ = items[c.Item].(map[string]any)
	}
	if obj == nil || !tree.IsComposition(jsonobj.AsString(obj["apiVersion"]), jsonobj.AsString(obj["kind"])) {
		return DocFailed
	}
	return DocConverted
}

// finalFindings returns the v2-readiness findings of a file after
// conversion. For a converted Composition the scan's findings are kept at
// their new paths, less those the converter resolved or reported itself:
// server fields it strips (C302), the external secret store reference it
// drops for v2 (C202, C303), and XR writes outside status (C209).
func (r *runner) finalFindings(f *tree.Scanned, comps []CompositionResult, diags []Diagnostic) []Finding {
	converted := map[int]bool{}
	for _, c := range comps {
		if c.Status == CompositionConverted {
			converted[c.Document] = true
		}
	}
	codes := map[int]map[string]bool{}
	for _, d := range diags {
		if codes[d.Document] == nil {
			codes[d.Document] = map[string]bool{}
		}
		codes[d.Document][d.Code] = true
	}
	var out []Finding
	for _, d := range f.Docs {
		for _, fd := range d.Findings {
			if tree.IsComposition(d.APIVersion, d.Kind) && converted[d.Index] {
				cs := codes[d.Index]
				switch {
				case fd.Code == "M405" && cs["C209"],
					fd.Code == "M406" && cs["C302"],
					fd.Code == "M403" && (cs["C202"] || cs["C303"]):
					continue
				}
				fd.Path = pipelinePath(fd.Path, d.PTStep)
			}
			out = append(out, fd)
		}
	}
	return append(out, r.ix.Kustomize[f.Rel]...)
}

// pipelinePath maps a path in a legacy Composition to the path the same
// content has after conversion.
func pipelinePath(p string, ptStep int) string {
	prefix := ""
	if strings.HasPrefix(p, "items[") {
		if i := strings.Index(p, "]."); i >= 0 {
			prefix, p = p[:i+2], p[i+2:]
		}
	}
	in := fmt.Sprintf("spec.pipeline[%d].input.", ptStep)
	for _, from := range []string{"spec.resources", "spec.patchSets", "spec.environment.patches"} {
		if p == from || strings.HasPrefix(p, from+"[") || strings.HasPrefix(p, from+".") {
			return prefix + in + strings.TrimPrefix(p, "spec.")
		}
	}
	return prefix + p
}

// unwritten marks the Compositions of a file whose new content was not
// written: those converted are still legacy.
func (r *runner) unwritten(oc *outcome) {
	for i := range oc.comps {
		c := &oc.comps[i]
		if c.Status != CompositionConverted && c.Status != CompositionPhase1 && c.Status != CompositionChanged {
			continue
		}
		if c.Status == CompositionConverted {
			oc.file.Diagnostics = append(oc.file.Diagnostics, Finding{Code: "M402", Severity: SeverityWarning, Document: c.Document, Line: c.Line, Composition: c.Name,
				Message: "Composition is still in mode Resources: its file was not written (" + oc.file.Reason + ")"})
		}
		c.Status = CompositionSkipped
	}
}

func ambiguousFn(repo string) Finding {
	return Finding{Code: "M407", Severity: SeverityInfo, Document: -1,
		Message: fmt.Sprintf("Function manifests or Configuration dependencies in this package name %s differently; the converter's default name was used: pass the name explicitly", repo)}
}

// failConversion finishes a file the converter failed on, as oc's status
// says: every Composition failed, the file copied unconverted.
func (r *runner) failConversion(f *tree.Scanned, data []byte, oc *outcome, comps []CompositionResult, extra []Finding) *outcome {
	for i := range comps {
		comps[i].Status = CompositionFailed
	}
	oc.comps = comps
	oc.file.Diagnostics = r.withLeftovers(f, comps, extra)
	r.copyOriginal(f, data, oc)
	return oc
}

// copyOriginal copies an unconverted file to Out.
func (r *runner) copyOriginal(f *tree.Scanned, data []byte, oc *outcome) {
	r.keep(f, data)
	if r.o.Write != WriteOut {
		return
	}
	if err := writeOut(r.outAbs, f.Rel, data, f.Mode); err == nil {
		oc.file.Written = true
	}
}

// withLeftovers returns findings for a file whose conversion failed as a
// whole.
func (r *runner) withLeftovers(f *tree.Scanned, comps []CompositionResult, extra []Finding) []Diagnostic {
	out := r.fileFindings(f)
	out = append(out, extra...)
	for _, c := range comps {
		if c.Legacy {
			out = append(out, Finding{Code: "M402", Severity: SeverityWarning, Document: c.Document, Line: c.Line, Composition: c.Name,
				Message: "Composition is still in mode Resources (its file could not be converted): Crossplane v2 no longer runs it"})
		}
	}
	return finding.Sort(out)
}

// compositionsOf lists the Compositions of a file, as the scan found them.
func (r *runner) compositionsOf(f *tree.Scanned) []CompositionResult {
	var out []CompositionResult
	for _, d := range f.Docs {
		if d.Obj == nil || !tree.IsComposition(d.APIVersion, d.Kind) {
			continue
		}
		out = append(out, CompositionResult{File: f.Rel, Document: d.Index, Item: d.Item, Line: d.Line, Name: d.Name, CompositeType: typeOf(d.Obj), Legacy: tree.IsLegacy(d.Obj)})
	}
	return out
}

// xrdsOf returns the XRDs of the types of a file's Compositions, the
// nearest of each, once each.
func (r *runner) xrdsOf(f *tree.Scanned, comps []CompositionResult) []map[string]any {
	var out []map[string]any
	seen := map[*tree.XRDInfo]bool{}
	for _, c := range comps {
		ci := r.ix.ByPosition[tree.SourceName(f.Rel, c.Document, c.Item)]
		if ci == nil {
			continue
		}
		if x := r.ix.XRDFor(f.Rel, ci.TypeRef); x != nil && !seen[x] {
			seen[x] = true
			out = append(out, x.Obj)
		}
		// The XRDs of the nested XRs it composes: --target v2 composes
		// their v2 types (C458).
		for _, t := range ci.Composes {
			if x := r.ix.XRDFor(f.Rel, t); x != nil && !seen[x] {
				seen[x] = true
				out = append(out, x.Obj)
			}
		}
	}
	return out
}

// compositionsOfXRDs returns the Compositions in other files of the tree
// whose type an XRD of file f defines, decoded whole (the index keeps them
// slim): the converter reads their templates to choose the scope of the v2
// XRDs (--xr-scope auto).
func (r *runner) compositionsOfXRDs(f *tree.Scanned) []map[string]any {
	types := map[string]bool{}
	for _, d := range f.Docs {
		if tree.IsXRD(d.APIVersion, d.Kind) && d.Obj != nil {
			g := jsonobj.String(d.Obj, "spec", "group")
			k := jsonobj.String(d.Obj, "spec", "names", "kind")
			types[g+"|"+k] = true
		}
	}
	want := map[string]map[int]bool{} // file → documents
	for _, c := range r.ix.Compositions {
		av, k, _ := strings.Cut(c.TypeRef, "|")
		if c.File != f.Rel && types[xp.Group(av)+"|"+k] {
			if want[c.File] == nil {
				want[c.File] = map[int]bool{}
			}
			want[c.File][c.Doc] = true
		}
	}
	var out []map[string]any
	for _, s := range r.files {
		docs := want[s.Rel]
		if docs == nil {
			continue
		}
		data, err := regularfile.ReadFile(s.Real)
		if err != nil {
			continue
		}
		decoded, _, err := tree.DecodeDocs(data, s.Format, false)
		if err != nil {
			continue
		}
		for _, d := range decoded {
			if docs[d.Index] && d.Obj != nil {
				out = append(out, d.Obj)
			}
		}
	}
	return out
}

// refusedXRDs describes the XRDs of file f the converter refused to write
// as v2 XRDs: like a refused Composition, one keeps the file unwritten.
func refusedXRDs(f *tree.Scanned, docStatus map[int]string, diags []Diagnostic) []string {
	var out []string
	seen := map[int]bool{}
	for _, d := range f.Docs {
		if !tree.IsXRD(d.APIVersion, d.Kind) || seen[d.Index] || docStatus[d.Index] != DocFailed {
			continue
		}
		seen[d.Index] = true
		var ds []Diagnostic
		for _, g := range diags {
			if g.Document == d.Index {
				ds = append(ds, g)
			}
		}
		out = append(out, fmt.Sprintf("the CompositeResourceDefinition %s (document %d)%s", d.Name, d.Index, firstError(ds)))
	}
	return out
}

// fileFindings returns the findings of a file as it is.
func (r *runner) fileFindings(f *tree.Scanned) []Finding {
	var out []Finding
	for _, d := range f.Docs {
		out = append(out, d.Findings...)
	}
	return append(out, r.ix.Kustomize[f.Rel]...)
}

func diagsFor(diags []Diagnostic, c *CompositionResult) []Diagnostic {
	var out []Diagnostic
	for _, d := range diags {
		if d.Document == c.Document && (d.Composition == "" || d.Composition == c.Name) {
			out = append(out, d)
		}
	}
	return out
}

func hasError(ds []Diagnostic) bool {
	for _, d := range ds {
		if d.Severity == SeverityError {
			return true
		}
	}
	return false
}

// verifyBase verifies a Composition that is mode: Pipeline in the work
// tree against its legacy form at the base revision (converted in this
// change, by xpmigrate or by hand), with the samples of both trees. A
// Composition that was already mode: Pipeline at the base is reported as
// changed, not verified as a migration.
func (r *runner) verifyBase(ctx context.Context, f *tree.Scanned, c *CompositionResult, doc string) []Finding {
	b := r.base
	h := headComposition{file: f.Rel, name: c.Name, named: r.named}
	if ci := r.ix.ByPosition[tree.SourceName(f.Rel, c.Document, c.Item)]; ci != nil {
		h.typeRef, h.from = ci.TypeRef, ci.From
	}
	if lc, ok := b.legacyFor(h); ok {
		legacy, err := b.document(lc)
		if err != nil {
			c.Verification = &Verification{Status: VerifyError, Error: err.Error()}
			return nil
		}
		converted := []byte(doc)
		if c.Item >= 0 {
			if converted, err = listItem(doc, c.Item); err != nil {
				c.Verification = &Verification{Status: VerifyError, Error: err.Error()}
				return nil
			}
		}
		c.Base = b.where(lc)
		if !r.o.Verify {
			return nil
		}
		req := VerifyRequest{File: f.Rel, Name: c.Name, Legacy: legacy, Converted: converted, Synthesize: r.o.Synthesize, Target: r.o.Target, Accept: r.o.Accept}
		seen := map[string]bool{}
		if ci := r.ix.ByPosition[tree.SourceName(f.Rel, c.Document, c.Item)]; ci != nil {
			xrd := r.ix.XRDFor(f.Rel, ci.TypeRef)
			if xrd != nil {
				req.XRD = xrd.Obj
			}
			for _, s := range r.ix.SamplesFor(ci, xrd, r.o.MaxSamples) {
				seen[s.Source] = true
				req.Samples = append(req.Samples, Sample{Source: s.Source, Object: s.Obj})
			}
			req.Extra = r.ix.EnvConfigsFor(f.Rel)
		}
		// The base tree's samples that the work tree no longer has: a
		// change that deletes its examples is still checked against them.
		bxrd := b.ix.XRDFor(lc.File, lc.TypeRef)
		if req.XRD == nil && bxrd != nil {
			req.XRD = bxrd.Obj
		}
		for _, s := range b.ix.SamplesFor(lc, bxrd, r.o.MaxSamples) {
			if !seen[s.Source] {
				req.Samples = append(req.Samples, Sample{Source: b.ref + ":" + s.Source, Object: s.Obj})
			}
		}
		if len(req.Extra) == 0 {
			req.Extra = b.ix.EnvConfigsFor(lc.File)
		}
		if len(req.Samples) == 0 && req.Synthesize == 0 {
			c.Verification = &Verification{Status: VerifyUnverified,
				Reason: "no samples: no XR or claim of its type was found in the tree or at " + b.ref,
				Hint:   "add an example XR or claim beside the Composition, or generate samples from the XRD with --synthesize N"}
			return nil
		}
		v, err := r.o.Verifier.Verify(ctx, req)
		switch {
		case err != nil:
			v = &Verification{Status: VerifyError, Error: err.Error()}
		case v == nil:
			v = &Verification{}
		}
		deriveStatus(v)
		c.Verification = v
		return nil
	}
	pc, ok := b.pipelineAt(f.Rel, c.Name)
	if !ok {
		return nil
	}
	old, err := b.document(pc)
	if err != nil || string(old) == doc || c.Item >= 0 {
		return nil
	}
	if c.Verification == nil {
		c.Verification = &Verification{Status: VerifyUnverified,
			Reason: fmt.Sprintf("changed since %s, where it was already mode Pipeline (%s): verify proves a conversion from a legacy form, so nothing proves this change", b.ref, b.where(pc)),
			Hint:   "review the change by hand (xpmigrate render it at both revisions with the same XR); --require-verified fails until it is proven"}
	}
	return []Finding{{Code: "M412", Severity: SeverityInfo, Document: c.Document, Line: c.Line, Composition: c.Name,
		Message: fmt.Sprintf("changed since %s, not a migration: the Composition was already mode Pipeline at %s, so it is not verified against a legacy form (unverified)", b.ref, b.where(pc))}}
}

// rewriteCodes lists the codes of the converter's diagnostics about a
// Composition, "no diagnostic" without one.
func rewriteCodes(ds []Diagnostic) string {
	var codes []string
	for _, d := range ds {
		if strings.HasPrefix(d.Code, "C") && !slices.Contains(codes, d.Code) {
			codes = append(codes, d.Code)
		}
	}
	if len(codes) == 0 {
		return "no diagnostic"
	}
	return strings.Join(codes, ", ")
}

// named reports whether the work tree has a Composition of that name.
func (r *runner) named(name string) bool {
	r.namesOnce.Do(func() {
		r.names = map[string]bool{}
		for _, c := range r.ix.Compositions {
			r.names[c.Name] = true
		}
	})
	return r.names[name]
}

// verifyDoc runs the equivalence check for one converted Composition,
// given its document before and after.
func (r *runner) verifyDoc(ctx context.Context, f *tree.Scanned, c *CompositionResult, before, after string, conv DocumentStatus) *Verification {
	req := VerifyRequest{File: f.Rel, Name: c.Name, Legacy: []byte(before), Converted: []byte(after), Synthesize: r.o.Synthesize, Target: r.o.Target}
	if c.Item < 0 && f.Format != "json" {
		req.LegacyJSON, req.ConvertedJSON = conv.Before, conv.After
		for _, d := range f.Docs {
			if d.Index != c.Document || d.Item >= 0 || conv.Lines == nil {
				continue
			}
			// The converter's lines are the file's; verify counts from
			// the document's first line.
			first := d.Line
			req.LegacyLines = func(path []any) (int, bool) {
				l, ok := conv.Lines(path)
				return l - first + 1, ok
			}
		}
	}
	if c.Item >= 0 {
		var err error
		if req.Legacy, err = listItem(before, c.Item); err == nil {
			req.Converted, err = listItem(after, c.Item)
		}
		if err != nil {
			return &Verification{Status: VerifyError, Error: err.Error()}
		}
	}
	if ci := r.ix.ByPosition[tree.SourceName(f.Rel, c.Document, c.Item)]; ci != nil {
		xrd := r.ix.XRDFor(f.Rel, ci.TypeRef)
		if xrd != nil {
			req.XRD = xrd.Obj
		}
		for _, s := range r.ix.SamplesFor(ci, xrd, r.o.MaxSamples) {
			req.Samples = append(req.Samples, Sample{Source: s.Source, Object: s.Obj})
		}
		req.Extra = r.ix.EnvConfigsFor(f.Rel)
	}
	if len(req.Samples) == 0 && req.Synthesize == 0 {
		return &Verification{Status: VerifyUnverified,
			Reason: "no samples: no XR or claim of its type was found in the tree",
			Hint:   "add an example XR or claim beside the Composition, or generate samples from the XRD with --synthesize N"}
	}
	req.Accept = r.o.Accept
	v, err := r.o.Verifier.Verify(ctx, req)
	if err != nil {
		return &Verification{Status: VerifyError, Error: err.Error()}
	}
	if v == nil {
		v = &Verification{}
	}
	deriveStatus(v)
	return v
}

// listItem returns item i of a List document as YAML.
func listItem(doc string, i int) ([]byte, error) {
	v, err := manifest.DecodeValue([]byte(doc))
	if err != nil {
		return nil, err
	}
	obj, _ := v.(map[string]any)
	items := jsonobj.List(obj, "items")
	if i >= len(items) {
		return nil, errors.Errorf("the List has no item %d", i)
	}
	return render.MarshalYAML(items[i])
}

// templateExts are the names of template files that may hold a
// Composition once rendered; migrate reads them only to find legacy
// Compositions it cannot convert.
var templateExts = []string{".yaml.in", ".yml.in", ".yaml.tpl", ".yml.tpl", ".yaml.tmpl", ".yml.tmpl", ".yaml.gotmpl", ".yaml.j2", ".tpl", ".tmpl", ".gotmpl"}

func isTemplateFile(rel string) bool { return templateExt(rel) != "" }

func templateExt(rel string) string {
	l := strings.ToLower(rel)
	for _, e := range templateExts {
		if strings.HasSuffix(l, e) {
			return e
		}
	}
	return ""
}

// legacyTemplate returns the leftover finding for a template file that
// seems to hold a legacy Composition, or nil. Only regular files are read.
func (r *runner) legacyTemplate(f *tree.Scanned) *Finding {
	if fi, err := os.Stat(f.Real); err != nil || fi.Size() > maxTemplateSize {
		return nil
	}
	data, err := regularfile.ReadFile(f.Real)
	if err != nil || !tree.LooksLegacy(data) {
		return nil
	}
	return &Finding{Code: "M402", Severity: SeverityWarning, Document: -1, Line: firstMatchLine(data),
		Message: "template file seems to hold a Composition in mode Resources: " + legacyFix(ReasonTemplate)}
}

// maxTemplateSize bounds what is read of a template file.
const maxTemplateSize = 16 << 20

// legacyFix says what to do about a legacy Composition migrate could not
// convert, by why it was skipped.
func legacyFix(reason string) string {
	switch reason {
	case ReasonTemplate, ReasonYtt:
		return "inside a template: render it and convert the output, or convert the template by hand"
	case ReasonTooLarge:
		return "split the file, or raise --max-file-size"
	}
	return "convert it by hand, or convert the rendered output and port the change back"
}

// firstMatchLine is the line of the first `kind: Composition`, or 0.
func firstMatchLine(data []byte) int {
	loc := tree.KindComp.FindIndex(data)
	if loc == nil {
		return 0
	}
	return bytes.Count(data[:loc[0]], []byte("\n")) + 1
}
