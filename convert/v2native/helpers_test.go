package v2native

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	yaml "go.yaml.in/yaml/v3"
	sigsyaml "sigs.k8s.io/yaml"

	"github.com/xpmigrate/xpmigrate/convert"
	"github.com/xpmigrate/xpmigrate/convert/yamledit"
	"github.com/xpmigrate/xpmigrate/internal/testutil"
)

// codes returns the codes of the findings about documents (not the
// once-per-run ones), in order.
func codes(ds []convert.Diagnostic) []convert.Code {
	var out []convert.Code
	for _, d := range ds {
		if d.Document >= 0 {
			out = append(out, d.Code)
		}
	}
	return out
}

// render formats findings one per line, as the CLI prints them.
func render(ds []convert.Diagnostic) string {
	var b strings.Builder
	for _, d := range ds {
		b.WriteString(d.String())
		b.WriteByte('\n')
	}
	return b.String()
}

// compositionYAML returns a Resources-mode Composition with spec body.
func compositionYAML(body string) string { return passHead + body }

// oneResource returns a spec body with one named template with patches.
func oneResource(patches string) string {
	return "  resources:\n  - name: r\n    base: {apiVersion: nop.crossplane.io/v1alpha1, kind: NopResource}\n    patches:\n" + patches
}

// lastComposition returns the last document of a converted stream.
func lastComposition(t *testing.T, stream []byte) map[string]any {
	t.Helper()
	docs := strings.Split(string(stream), "\n---\n")
	m := map[string]any{}
	if err := sigsyaml.Unmarshal([]byte(docs[len(docs)-1]), &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// A corpusFile is a file of the shared corpus: its path in the corpus
// and its bytes.
type corpusFile struct {
	rel  string
	data []byte
}

// corpusFiles reads the YAML files of the shared corpus.
func corpusFiles(t testing.TB) []corpusFile {
	t.Helper()
	dir := testutil.Corpus(t)
	var out []corpusFile
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || !(strings.HasSuffix(path, ".yaml") || strings.HasSuffix(path, ".yml")) {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		out = append(out, corpusFile{rel: filepath.ToSlash(rel), data: b})
		return nil
	})
	if err != nil {
		t.Fatalf("cannot walk %s: %v", dir, err)
	}
	return out
}

const passHead = "apiVersion: apiextensions.crossplane.io/v1\nkind: Composition\nmetadata:\n  name: c\nspec:\n  compositeTypeRef: {apiVersion: acme.io/v1, kind: X}\n"

// passComposition reads the first Composition of src, as the v2-native
// conversion sees it before anything converts.
func passComposition(t *testing.T, src string, opts convert.Options) *composition {
	t.Helper()
	cs := compositions(t, []byte(src), opts)
	if len(cs) == 0 {
		t.Fatal("convert.Compositions(...): no Composition")
	}
	return cs[0]
}

// compositions reads the Compositions of a stream, as the v2-native
// conversion sees them before anything converts.
func compositions(t testing.TB, src []byte, opts convert.Options) []*composition {
	t.Helper()
	cs, err := convert.Compositions(src, opts)
	if err != nil {
		t.Fatalf("convert.Compositions(...): %v", err)
	}
	out := make([]*composition, len(cs))
	for i, c := range cs {
		out[i] = &composition{Composition: c, o: c.Options()}
	}
	return out
}

// findings returns what was reported so far, one "code path" each, in
// order.
func findings(c *composition) []string {
	var out []string
	for _, d := range c.Diagnostics() {
		out = append(out, string(d.Code)+" "+d.Path)
	}
	return out
}

// output returns the Composition's document as it is now.
func output(t *testing.T, c *composition) string {
	t.Helper()
	b, err := c.Encode()
	if err != nil {
		t.Fatalf("Encode(): %v", err)
	}
	return string(b)
}

// specOf returns the resolved spec of the Composition.
func specOf(c *composition) *yaml.Node { return yamledit.Resolve(yamledit.Get(c.Node(), "spec")) }
