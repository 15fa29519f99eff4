package migrate

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	yaml3 "go.yaml.in/yaml/v3"

	"github.com/xpmigrate/xpmigrate/convert"
	"github.com/xpmigrate/xpmigrate/convert/migrate/tree"
	"github.com/xpmigrate/xpmigrate/internal/benchdata"
	"github.com/xpmigrate/xpmigrate/internal/manifest"
	"github.com/xpmigrate/xpmigrate/internal/testutil"
)

// walkLine is verification's own walk (render/verify lineIndex.line): the
// line of the deepest node of path that exists, the root's when none does.
func walkLine(root *yaml3.Node, path []any) int {
	n, line := root, root.Line
	for _, seg := range path {
		n = tree.Resolve(n)
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

// TestLines checks the lines verification reports point at, as the
// converter gives them and counted from the document's first line, against
// verification's own walk, in every converted Composition of the corpus.
func TestLines(t *testing.T) {
	type file struct {
		rel  string
		data []byte
	}
	var files []file
	root := testutil.Corpus(t)
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".yaml") {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		files = append(files, file{rel: p, data: b})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	paths := [][]any{nil, {"spec"}, {"spec", "resources"}, {"spec", "environment", "patches", 0}, {"spec", "environment", "patches", 7}}
	for i := 0; i < 40; i++ {
		paths = append(paths, []any{"spec", "resources", i}, []any{"spec", "resources", i, "patches"})
		for j := 0; j < 12; j++ {
			paths = append(paths, []any{"spec", "resources", i, "patches", j})
		}
	}
	offRoute := [][]any{{"metadata", "name"}, {"spec", "resources", 0, "base"}, {"spec", "pipeline", 0}, {"spec", "resources", 0, "patches", 0, "fromFieldPath"}}
	conv := NewConverter(convert.Options{})
	converted := 0
	for _, f := range files {
		docs := manifest.Split(f.data)
		var resp *ConvertResponse
		for _, doc := range docs {
			info, ok, err := tree.SlimDoc(doc)
			if err != nil || !ok || !tree.IsLegacy(info.Obj) {
				continue
			}
			var n yaml3.Node
			if err := yaml3.Unmarshal(doc.Raw, &n); err != nil {
				t.Fatal(err)
			}
			root := n.Content[0]
			if resp == nil {
				if resp, err = conv.Convert(context.Background(), ConvertRequest{Path: f.rel, Data: f.data, Format: "yaml"}); err != nil {
					t.Fatal(err)
				}
			}
			var lines func([]any) (int, bool)
			for _, s := range resp.Documents {
				if s.Index == doc.Index && s.Lines != nil {
					first := doc.Line
					lines = func(p []any) (int, bool) {
						l, ok := s.Lines(p)
						return l - first + 1, ok
					}
				}
			}
			if lines == nil {
				continue // Not converted.
			}
			converted++
			for _, p := range paths {
				got, ok := lines(p)
				if !ok {
					t.Errorf("%s: line(%v): not covered", f.rel, p)
					continue
				}
				if want := walkLine(root, p); got != want {
					t.Errorf("%s document %d: line(%v): got line %d, want %d", f.rel, doc.Index, p, got, want)
				}
			}
			for _, p := range offRoute {
				if _, ok := lines(p); ok {
					t.Errorf("%s: line(%v): covered, want declined", f.rel, p)
				}
			}
		}
	}
	if converted == 0 {
		t.Fatal("no converted Composition in the corpus")
	}
	t.Logf("lines from the converter for %d Compositions", converted)
}

// TestSlimPlain checks that reading a Composition in the plain subset of
// block YAML through its JSON finds what reading its YAML nodes finds.
func TestSlimPlain(t *testing.T) {
	var docs []manifest.Document
	err := filepath.WalkDir(testutil.Corpus(t), func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".yaml") {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		docs = append(docs, manifest.Split(b)...)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	docs = append(docs, manifest.Split([]byte(benchdata.Composition(7, 3)))...)
	plain := 0
	for _, doc := range docs {
		j, ok := manifest.PlainJSON(doc.Raw)
		if !ok {
			continue
		}
		got, gotOK, err := tree.SlimPlain(doc, j)
		if err != nil {
			t.Fatal(err)
		}
		want, wantOK, err := tree.SlimNodes(doc)
		if err != nil {
			t.Fatal(err)
		}
		if gotOK != wantOK {
			t.Fatalf("slimPlain(...): a Composition: %v, slimNodes(...): %v", gotOK, wantOK)
		}
		if !gotOK {
			continue
		}
		plain++
		if diff := cmp.Diff(want, got, cmp.AllowUnexported(tree.DocInfo{})); diff != "" {
			t.Errorf("slimPlain(%s...): -slimNodes, +slimPlain:\n%s", strings.SplitN(string(doc.Raw), "\n", 4)[:3], diff)
		}
	}
	if plain == 0 {
		t.Fatal("no Composition in the plain subset")
	}
	t.Logf("%d Compositions in the plain subset", plain)
}
