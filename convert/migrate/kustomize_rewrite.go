package migrate

import (
	"bytes"
	"context"
	"fmt"
	"path"
	"sort"
	"strconv"
	"strings"

	"github.com/pkg/errors"
	yaml3 "go.yaml.in/yaml/v3"

	"github.com/xpmigrate/xpmigrate/internal/manifest"
	"github.com/xpmigrate/xpmigrate/internal/regularfile"
)

// pipelinePointer maps a JSON pointer into a legacy Composition to where
// the same content is once the Composition is converted, with ptStep the
// index of the patch-and-transform step. It answers only for content the
// conversion copies as it is, so that the patch's value still fits:
//
//   - anything under a template's base (/spec/resources/0/base/spec/x);
//   - the field paths of a patch of a template or a patch set
//     (/spec/resources/0/patches/1/fromFieldPath,
//     /spec/patchSets/0/patches/2/toFieldPath).
//
// Everything else (whole templates, names, patch policies and transforms,
// readiness checks, connection details, the environment, appends with "-")
// changes form or place in conversion: ok is false.
func pipelinePointer(p string, ptStep int) (string, bool) {
	segs := strings.Split(p, "/")
	if len(segs) < 5 || segs[0] != "" || segs[1] != "spec" {
		return "", false
	}
	list, idx, rest := segs[2], segs[3], segs[4:]
	if list != "resources" && list != "patchSets" {
		return "", false
	}
	if _, err := strconv.Atoi(idx); err != nil {
		return "", false
	}
	field := func(r []string) bool {
		if len(r) != 3 || r[0] != "patches" {
			return false
		}
		if _, err := strconv.Atoi(r[1]); err != nil {
			return false
		}
		return r[2] == "fromFieldPath" || r[2] == "toFieldPath"
	}
	switch {
	case list == "resources" && rest[0] == "base",
		field(rest):
	default:
		return "", false
	}
	return fmt.Sprintf("/spec/pipeline/%d/input/%s/%s/%s", ptStep, list, idx, strings.Join(rest, "/")), true
}

// A textEdit replaces the scalar at a line and column (1-based, bytes) of a
// file.
type textEdit struct {
	line, col int
	old, new  string
}

// applyTextEdits replaces each scalar in data, keeping its quoting. It
// fails, changing nothing, when a scalar is not where an edit says.
func applyTextEdits(data []byte, edits []textEdit) ([]byte, error) {
	starts := []int{0}
	for i, b := range data {
		if b == '\n' {
			starts = append(starts, i+1)
		}
	}
	sort.Slice(edits, func(i, j int) bool {
		if edits[i].line != edits[j].line {
			return edits[i].line > edits[j].line
		}
		return edits[i].col > edits[j].col
	})
	out := append([]byte(nil), data...)
	for _, e := range edits {
		if e.line < 1 || e.line > len(starts) {
			return nil, errors.Errorf("no line %d", e.line)
		}
		at := starts[e.line-1] + e.col - 1
		tok := ""
		for _, t := range []string{e.old, `"` + e.old + `"`, `'` + e.old + `'`} {
			if at >= 0 && bytes.HasPrefix(out[at:], []byte(t)) {
				tok = t
				break
			}
		}
		if tok == "" {
			return nil, errors.Errorf("line %d column %d does not hold %q", e.line, e.col, e.old)
		}
		repl := strings.Replace(tok, e.old, e.new, 1)
		out = append(out[:at:at], append([]byte(repl), out[at+len(tok):]...)...)
	}
	return out, nil
}

// An opEdit is the rewrite of one JSON 6902 operation.
type opEdit struct {
	// at is the finding path of the operation's path (as M401 has it).
	at          string
	composition string
	edits       []textEdit
	from, to    string
}

// jsonPatchEdits returns the rewrites of the operations of a JSON 6902
// patch given as YAML text, whose first line is line (and whose columns
// are shifted by indent) in its file. where prefixes the finding paths.
func jsonPatchEdits(text string, line, indent int, where, composition string, ptStep int) []opEdit {
	var n yaml3.Node
	if err := yaml3.Unmarshal([]byte(text), &n); err != nil || n.Kind != yaml3.DocumentNode || len(n.Content) != 1 {
		return nil
	}
	seq := n.Content[0]
	if seq.Kind != yaml3.SequenceNode {
		return nil
	}
	var out []opEdit
	for i, op := range seq.Content {
		if op.Kind != yaml3.MappingNode {
			continue
		}
		e := opEdit{at: fmt.Sprintf("%s[%d].path", where, i), composition: composition}
		ok, touches := true, false
		for _, key := range []string{"path", "from"} {
			v := mapValue(op, key)
			if v == nil || v.Kind != yaml3.ScalarNode {
				continue
			}
			if !intoComposition(v.Value) {
				continue
			}
			touches = true
			np, safe := pipelinePointer(v.Value, ptStep)
			if !safe {
				ok = false
				break
			}
			// A quoted scalar's column is its quote's; the edit keeps it.
			e.edits = append(e.edits, textEdit{line: line + v.Line - 1, col: indent + v.Column, old: v.Value, new: np})
			if key == "path" {
				e.from, e.to = v.Value, np
			}
		}
		if touches && ok && e.to != "" {
			out = append(out, e)
		}
	}
	return out
}

// intoComposition reports whether a JSON pointer points into what
// conversion moves.
func intoComposition(p string) bool {
	for _, cp := range compositionPaths {
		if p == "/spec/"+cp || strings.HasPrefix(p, "/spec/"+cp+"/") {
			return true
		}
	}
	return false
}

func mapValue(m *yaml3.Node, key string) *yaml3.Node {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1]
		}
	}
	return nil
}

// rewriteKustomize rewrites, once the files are migrated, the JSON 6902
// patches of kustomizations that point into spec.resources or
// spec.patchSets of a Composition converted in this run, to where that
// content now is, as text edits of the path scalars (everything else in
// the file stays byte for byte). A patch is rewritten only when its target
// names the Composition, every legacy Composition of that name was
// converted, and all of them put patch-and-transform at the same step;
// an operation only when pipelinePointer answers for it. The others keep
// their M401 finding.
func (r *runner) rewriteKustomize(ctx context.Context, outs []*outcome) []*outcome {
	if ctx.Err() != nil || r.o.Phase1 {
		return outs
	}
	byRel := map[string]int{}
	for i, f := range r.files {
		if i < len(outs) && outs[i] != nil {
			byRel[f.rel] = i
		}
	}
	perFile, order := r.kustomizeEdits(r.convertedSteps(outs), byRel)
	for _, file := range order {
		r.applyKustomizeEdits(outs[byRel[file]], r.files[byRel[file]], perFile[file])
	}
	return outs
}

// convertedSteps returns, for the name of a Composition, the step
// patch-and-transform is at in every legacy Composition of that name, and
// true; false when one of them was not converted or they differ.
func (r *runner) convertedSteps(outs []*outcome) func(name string) (int, bool) {
	steps, blocked := map[string]map[int]bool{}, map[string]bool{}
	for i, oc := range outs {
		if i >= len(r.files) || oc == nil || oc.file.Reason == ReasonKustomizePatch {
			continue
		}
		for _, c := range oc.comps {
			switch {
			case c.Status == CompositionConverted && oc.file.Status == FileConverted:
				if steps[c.Name] == nil {
					steps[c.Name] = map[int]bool{}
				}
				steps[c.Name][r.ptStepOf(r.files[i], c)] = true
			case c.Legacy:
				blocked[c.Name] = true
			}
		}
	}
	return func(name string) (int, bool) {
		if name == "" || blocked[name] || len(steps[name]) != 1 {
			return 0, false
		}
		for s := range steps[name] {
			return s, true
		}
		return 0, false
	}
}

// kustomizeEdits returns the edits of the patches of every kustomization
// that targets a converted Composition (stepOf), by the file (relative
// path) they edit, and those files in the order they were found. byRel
// numbers the migrated files by relative path.
func (r *runner) kustomizeEdits(stepOf func(string) (int, bool), byRel map[string]int) (map[string][]opEdit, []string) {
	perFile := map[string][]opEdit{}
	var order []string
	add := func(file string, es []opEdit) {
		if len(es) == 0 {
			return
		}
		if _, ok := perFile[file]; !ok {
			order = append(order, file)
		}
		perFile[file] = append(perFile[file], es...)
	}
	for _, f := range r.files {
		if f.reason != "" || f.kind != entryCandidate {
			continue
		}
		for _, d := range f.docs {
			if d.obj == nil || !isKustomization(f.rel, d) {
				continue
			}
			for _, p := range kustomizePatches(d.obj) {
				if p.targetKind != "" && p.targetKind != "Composition" {
					continue
				}
				step, ok := stepOf(p.targetName)
				if !ok {
					continue
				}
				if p.inline != "" {
					add(f.rel, r.inlineEdits(f, d.index, p, step))
					continue
				}
				rel := path.Clean(path.Join(path.Dir(f.rel), p.path))
				i, ok := byRel[rel]
				if !ok || r.files[i].reason != "" {
					continue
				}
				data, err := readScanned(r.files[i])
				if err != nil {
					continue
				}
				add(rel, jsonPatchEdits(string(data), 1, 0, "", p.targetName, step))
			}
		}
	}
	return perFile, order
}

// applyKustomizeEdits applies the edits ops of file f (outcome oc), each
// once: a patch file two kustomizations use is rewritten once.
func (r *runner) applyKustomizeEdits(oc *outcome, f *scanned, ops []opEdit) {
	var es []opEdit
	var edits []textEdit
	seenOp, seenEdit := map[string]bool{}, map[[2]int]bool{}
	for _, e := range ops {
		if seenOp[e.at] {
			continue
		}
		seenOp[e.at] = true
		es = append(es, e)
		for _, te := range e.edits {
			if k := [2]int{te.line, te.col}; !seenEdit[k] {
				seenEdit[k] = true
				edits = append(edits, te)
			}
		}
	}
	failed := false
	r.editFile(oc, f, func(data []byte) ([]byte, error) {
		out, err := applyTextEdits(data, edits)
		failed = err != nil
		return out, err
	})
	if failed || oc.file.Status == FileFailed || oc.file.Status == FileSkipped {
		return
	}
	r.rewritten(oc, es)
}

// rewritten replaces the M401 findings of rewritten operations with M411.
func (r *runner) rewritten(oc *outcome, es []opEdit) {
	done := map[string]opEdit{}
	for _, e := range es {
		done[e.at] = e
	}
	var kept []Diagnostic
	for _, d := range oc.file.Diagnostics {
		e, ok := done[d.Path]
		if d.Code != "M401" || !ok {
			kept = append(kept, d)
			continue
		}
		kept = append(kept, Finding{Code: "M411", Severity: SeverityInfo, Document: d.Document, Line: d.Line, Composition: e.composition, Path: d.Path,
			Message: fmt.Sprintf("kustomize patch path %s rewritten to %s, where the converted Composition %q holds that content", e.from, e.to, e.composition)})
	}
	oc.file.Diagnostics = kept
}

// inlineEdits returns the rewrites of an inline JSON 6902 patch written as
// a literal block scalar (patch: |) in a kustomization; other styles are
// left alone.
func (r *runner) inlineEdits(f *scanned, doc int, p kpatch, step int) []opEdit {
	data, err := readScanned(f)
	if err != nil {
		return nil
	}
	docs := manifest.Split(data)
	if doc >= len(docs) {
		return nil
	}
	c := docs[doc]
	n, err := c.Node()
	if err != nil || len(n.Content) != 1 {
		return nil
	}
	field, idx, ok := strings.Cut(strings.TrimSuffix(p.at, "]"), "[")
	if !ok {
		return nil
	}
	i, err := strconv.Atoi(idx)
	if err != nil {
		return nil
	}
	list := mapValue(n.Content[0], field)
	if list == nil || list.Kind != yaml3.SequenceNode || i >= len(list.Content) {
		return nil
	}
	v := mapValue(list.Content[i], "patch")
	if v == nil || v.Kind != yaml3.ScalarNode || v.Style != yaml3.LiteralStyle {
		return nil
	}
	// The content starts on the line after the indicator, indented as its
	// first line that is not blank.
	lines := strings.Split(string(c.Raw), "\n")
	first := v.Line // 0-based index of the line after the indicator
	indent := -1
	for l := first; l < len(lines); l++ {
		if strings.TrimSpace(lines[l]) != "" {
			indent = len(lines[l]) - len(strings.TrimLeft(lines[l], " "))
			break
		}
	}
	if indent < 0 {
		return nil
	}
	return jsonPatchEdits(v.Value, c.Line+first, indent, p.at+".patch", p.targetName, step)
}

// readScanned reads a file of the tree as the scan read it.
func readScanned(f *scanned) ([]byte, error) {
	return regularfile.ReadFile(f.real)
}
