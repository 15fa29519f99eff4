package yamledit

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	yaml "go.yaml.in/yaml/v3"

	"github.com/xpmigrate/xpmigrate/internal/testutil"
)

// checkTreeJSON compares, for n and every collection below it, the JSON
// written straight from the tree with the JSON of the data as Go values.
func checkTreeJSON(t *testing.T, name string, n *yaml.Node, depth int) {
	t.Helper()
	if n == nil || depth > 50 {
		return
	}
	if got, ok := treeJSON(n); ok {
		want, err := dataJSON(n)
		if err != nil {
			t.Fatalf("%s: treeJSON(...) accepted a node dataJSON refuses: %v", name, err)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("%s: treeJSON(...):\n-%s\n+%s", name, want, got)
		}
	}
	for _, c := range n.Content {
		if c.Kind == yaml.MappingNode || c.Kind == yaml.SequenceNode {
			checkTreeJSON(t, name, c, depth+1)
		}
	}
}

// TestTreeJSON reads the converter's test files and the shared corpus
// (when present) both ways.
func TestTreeJSON(t *testing.T) {
	var files []string
	dirs := []string{filepath.Join("..", "testdata")}
	if corpus, ok := testutil.LookupCorpus(t); ok {
		dirs = append(dirs, corpus)
	}
	for _, dir := range dirs {
		_ = filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && (strings.HasSuffix(path, ".yaml") || strings.HasSuffix(path, ".yml")) {
				files = append(files, path)
			}
			return nil
		})
	}
	for _, tc := range simpleCases {
		checkTreeText(t, tc.reason, []byte(tc.in))
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range Split(b) {
			checkTreeText(t, f, c.Text)
		}
	}
}

func checkTreeText(t *testing.T, name string, text []byte) {
	t.Helper()
	d, err := Parse(text)
	if err != nil || d == nil {
		return
	}
	checkTreeJSON(t, name, d.Node, 0)
}

// FuzzTreeJSON checks that whatever treeJSON accepts, it writes as
// dataJSON does.
func FuzzTreeJSON(f *testing.F) {
	for _, s := range []string{"a: 1\nb: [x, 'y', \"<z>\"]\nc: {d: yes, e: ~, f: 0x1F, g: 1.50}\n", "1: a\n2.5: b\nnull: c\n", "a: &x 1\nb: *x\n<<: {c: 2}\n", "a: \"\\u2028\\t\\x01é\"\n"} {
		f.Add([]byte(s))
	}
	for _, tc := range simpleCases {
		f.Add([]byte(tc.in))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		checkTreeText(t, "fuzz", in)
	})
}
