package batch

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	yaml3 "go.yaml.in/yaml/v3"

	"github.com/xpmigrate/xpmigrate/render"
)

// walkLine is verification's own walk (render/verify lineIndex.line): the
// line of the deepest node of path that exists, the root's when none does.
func walkLine(root *yaml3.Node, path []any) int {
	n, line := root, root.Line
	for _, seg := range path {
		n = resolve(n)
		var next *yaml3.Node
		switch s := seg.(type) {
		case string:
			if n.Kind == yaml3.MappingNode {
				for i := 0; i+1 < len(n.Content); i += 2 {
					if n.Content[i].Value == s {
						next, line = n.Content[i+1], n.Content[i].Line
						break
					}
				}
			}
		case int:
			if n.Kind == yaml3.SequenceNode && s >= 0 && s < len(n.Content) {
				next = n.Content[s]
				line = next.Line
			}
		}
		if next == nil {
			break
		}
		n = next
	}
	return line
}

// TestLineTable checks the scan's line table against verification's walk
// for every path it covers, in every legacy Composition of the corpus,
// and that it declines paths it does not cover.
func TestLineTable(t *testing.T) {
	var docs []render.Document
	err := filepath.WalkDir(corpusDir(t), func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".yaml") {
			return err
		}
		b, err := os.ReadFile(p) //nolint:gosec // Test data.
		if err != nil {
			return err
		}
		docs = append(docs, render.SplitDocuments(b)...)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, doc := range docs {
		info, ok, err := slimDoc(doc)
		if err != nil || !ok || info.lines == nil {
			continue
		}
		var n yaml3.Node
		if err := yaml3.Unmarshal(doc.Raw, &n); err != nil {
			t.Fatal(err)
		}
		root := n.Content[0]
		paths := [][]any{nil, {"spec"}, {"spec", "resources"}, {"spec", "environment", "patches", 0}, {"spec", "environment", "patches", 7}}
		for i := 0; i < 40; i++ {
			paths = append(paths, []any{"spec", "resources", i}, []any{"spec", "resources", i, "patches"})
			for j := 0; j < 12; j++ {
				paths = append(paths, []any{"spec", "resources", i, "patches", j})
			}
		}
		for _, p := range paths {
			got, ok := info.lines.line(p)
			if !ok {
				t.Errorf("lineTable.line(%v): not covered", p)
				continue
			}
			if want := walkLine(root, p); got != want {
				t.Errorf("lineTable.line(%v) in %s: got line %d, want %d", p, strings.SplitN(string(doc.Raw), "\n", 5)[:4], got, want)
			}
			checked++
		}
		for _, p := range [][]any{{"metadata", "name"}, {"spec", "resources", 0, "base"}, {"spec", "pipeline", 0}, {"spec", "resources", 0, "patches", 0, "fromFieldPath"}} {
			if _, ok := info.lines.line(p); ok {
				t.Errorf("lineTable.line(%v): covered, want declined", p)
			}
		}
	}
	if checked == 0 {
		t.Fatal("no legacy Composition in the corpus")
	}
}
