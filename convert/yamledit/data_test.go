package yamledit

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	yaml "go.yaml.in/yaml/v3"

	"github.com/xpmigrate/xpmigrate/internal/manifest"
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
	for _, in := range plainCases {
		checkTreeText(t, in, []byte(in))
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range manifest.Split(b) {
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
	for _, in := range plainCases {
		f.Add([]byte(in))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		checkTreeText(t, "fuzz", in)
	})
}

// plainCases are the inputs of the kubectl-view reader's table
// (manifest simpleCases): plain block YAML and what it declines.
var plainCases = []string{
	"a: b\nc: d\n",
	"# c\n---\na: b\n",
	"a:\n  b:\n  - c: d\n    e: f\n  - g\n  h: 1\n",
	"a:\n- b\n- c: d\n  e:\n  - f\nz: w\n",
	"a:\n-   b: c\n    d: e\n",
	"a: b # c\n# d\n  # e\nf: # g\n  h: 'i' # j\nk: \"l\"   #m\n",
	"a: true\nb: false\nc: null\nd: ~\ne:\nf: 0\ng: -12\nh: 123456789012345678\ni: []\nj: {}\nk: ''\nl: \"\"\n",
	"a: x<y>&z\n\"<k>\": '&'\n",
	"a: metadata.annotations[x/y]\nb: a,b{c}\nc: http://x:8080/y\n",
	"a: b  c   \n",
	"b: 1\nB: 2\na: 3\nx_: 4\n'a b': 5\n",
	"a: b",
	"a: yes\n",
	"on: a\n",
	"a: 1.5\n",
	"a: 0755\n",
	"a: -0\n",
	"a: 1234567890123456789\n",
	"a: &x b\nc: *x\n",
	"a: {b: 1}\n<<: {c: 2}\n",
	"a: [b]\n",
	"a: |\n  b\n",
	"a: b\n  c\n",
	"a: \"b\n  c\"\n",
	"a: \"b\\tc\"\nd: 'it''s'\n",
	"a: 1\na: 2\n",
	"a:\tb\n",
	"a: b\r\n",
	"a: é\n",
	"a: !!str 1\n",
	"a:\n  b: 1\n c: 2\n",
	"a: b: c\n",
	"a: b#c\n",
	"- a\n",
	"# only\n",
	"a: b\n...\n",
	"a: b\n---\nc: d\n",
	"a:\n-\n  b: c\n",
	"a:\n- - b\n",
	"a: b\n- c\n",
	"  a: b\n",
	"a:b\n",
	"a: 'b' c\n",
	"%YAML 1.1\n---\na: b\n",
	"a : b\n",
}
