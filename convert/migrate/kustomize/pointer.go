package kustomize

import (
	"bytes"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/pkg/errors"
	yaml3 "go.yaml.in/yaml/v3"
)

// PipelinePointer maps a JSON pointer into a legacy Composition to where
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
func PipelinePointer(p string, ptStep int) (string, bool) {
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

// A TextEdit replaces the scalar at a line and column (1-based, bytes) of a
// file.
type TextEdit struct {
	Line, Col int
	old, new  string
}

// ApplyTextEdits replaces each scalar in data, keeping its quoting. It
// fails, changing nothing, when a scalar is not where an edit says.
func ApplyTextEdits(data []byte, edits []TextEdit) ([]byte, error) {
	starts := []int{0}
	for i, b := range data {
		if b == '\n' {
			starts = append(starts, i+1)
		}
	}
	sort.Slice(edits, func(i, j int) bool {
		if edits[i].Line != edits[j].Line {
			return edits[i].Line > edits[j].Line
		}
		return edits[i].Col > edits[j].Col
	})
	out := append([]byte(nil), data...)
	for _, e := range edits {
		if e.Line < 1 || e.Line > len(starts) {
			return nil, errors.Errorf("no line %d", e.Line)
		}
		at := starts[e.Line-1] + e.Col - 1
		tok := ""
		for _, t := range []string{e.old, `"` + e.old + `"`, `'` + e.old + `'`} {
			if at >= 0 && bytes.HasPrefix(out[at:], []byte(t)) {
				tok = t
				break
			}
		}
		if tok == "" {
			return nil, errors.Errorf("line %d column %d does not hold %q", e.Line, e.Col, e.old)
		}
		repl := strings.Replace(tok, e.old, e.new, 1)
		out = append(out[:at:at], append([]byte(repl), out[at+len(tok):]...)...)
	}
	return out, nil
}

// An OpEdit is the rewrite of one JSON 6902 operation.
type OpEdit struct {
	// At is the finding path of the operation's path (as M401 has it).
	At          string
	Composition string
	Edits       []TextEdit
	From, To    string
}

// JSONPatchEdits returns the rewrites of the operations of a JSON 6902
// patch given as YAML text, whose first line is line (and whose columns
// are shifted by indent) in its file. where prefixes the finding paths.
func JSONPatchEdits(text string, line, indent int, where, composition string, ptStep int) []OpEdit {
	var n yaml3.Node
	if err := yaml3.Unmarshal([]byte(text), &n); err != nil || n.Kind != yaml3.DocumentNode || len(n.Content) != 1 {
		return nil
	}
	seq := n.Content[0]
	if seq.Kind != yaml3.SequenceNode {
		return nil
	}
	var out []OpEdit
	for i, op := range seq.Content {
		if op.Kind != yaml3.MappingNode {
			continue
		}
		e := OpEdit{At: fmt.Sprintf("%s[%d].path", where, i), Composition: composition}
		ok, touches := true, false
		for _, key := range []string{"path", "from"} {
			v := MapValue(op, key)
			if v == nil || v.Kind != yaml3.ScalarNode {
				continue
			}
			if !intoComposition(v.Value) {
				continue
			}
			touches = true
			np, safe := PipelinePointer(v.Value, ptStep)
			if !safe {
				ok = false
				break
			}
			// A quoted scalar's column is its quote's; the edit keeps it.
			e.Edits = append(e.Edits, TextEdit{Line: line + v.Line - 1, Col: indent + v.Column, old: v.Value, new: np})
			if key == "path" {
				e.From, e.To = v.Value, np
			}
		}
		if touches && ok && e.To != "" {
			out = append(out, e)
		}
	}
	return out
}

// intoComposition reports whether a JSON pointer points into what
// conversion moves.
func intoComposition(p string) bool {
	for _, cp := range CompositionPaths {
		if p == "/spec/"+cp || strings.HasPrefix(p, "/spec/"+cp+"/") {
			return true
		}
	}
	return false
}

// MapValue returns the value of key in mapping node m, nil when m has no
// such key.
func MapValue(m *yaml3.Node, key string) *yaml3.Node {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1]
		}
	}
	return nil
}
