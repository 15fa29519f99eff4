package native

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"sigs.k8s.io/yaml"

	"github.com/xpmigrate/xpmigrate/internal/testutil"
)

// corpusDoc is one Resources-mode Composition found in the corpus.
type corpusDoc struct {
	name string // file#document
	data []byte
}

// resourcesCompositions walks dir for *.yaml and returns every document that
// is an apiextensions.crossplane.io/v1 Composition in Resources mode (mode
// absent or Resources), in path order.
func resourcesCompositions(t *testing.T, dir string) []corpusDoc {
	t.Helper()
	var docs []corpusDoc
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || !strings.HasSuffix(path, ".yaml") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		r := utilyaml.NewYAMLReader(bufio.NewReader(bytes.NewReader(b)))
		for i := 0; ; i++ {
			chunk, err := r.Read()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				t.Logf("%s: cannot split YAML: %v", rel, err)
				break
			}
			var head struct {
				APIVersion string `json:"apiVersion"`
				Kind       string `json:"kind"`
				Spec       struct {
					Mode *string `json:"mode"`
				} `json:"spec"`
			}
			if err := yaml.Unmarshal(chunk, &head); err != nil {
				continue // Not ours to judge (Helm templates and the like).
			}
			if head.APIVersion != APIVersion || head.Kind != Kind {
				continue
			}
			if head.Spec.Mode != nil && *head.Spec.Mode != string(CompositionModeResources) {
				continue
			}
			docs = append(docs, corpusDoc{name: fmt.Sprintf("%s#%d", rel, i+1), data: chunk})
		}
		return nil
	})
	if err != nil {
		t.Fatalf("cannot walk %s: %v", dir, err)
	}
	return docs
}

// TestCorpus decodes, defaults and converts every Resources-mode Composition
// in the corpus, which must all succeed, and logs what validation says
// about them (run with -v to see it). Real Compositions may be invalid
// upstream too.
func TestCorpus(t *testing.T) {
	dir := testutil.Corpus(t)
	docs := resourcesCompositions(t, dir)
	if len(docs) == 0 {
		t.Fatalf("no Resources-mode Composition found in %s", dir)
	}
	clean, cleanV120 := 0, 0
	failures := map[string]int{}
	for _, d := range docs {
		c, err := Decode(d.data)
		if err != nil {
			t.Errorf("%s: Decode(...): %v", d.name, err)
			continue
		}
		c.Default()
		c.PatchSets()
		c.EnvironmentPatches()
		for i, tmpl := range c.Templates() {
			if _, err := tmpl.Object(); err != nil {
				t.Errorf("%s: resources[%d]: Object(): %v", d.name, i, err)
			}
		}
		if len(c.Validate(ForTarget(TargetV120))) == 0 {
			cleanV120++
		}
		errs := c.Validate()
		if len(errs) == 0 {
			clean++
			continue
		}
		for _, e := range errs {
			t.Logf("%s: %v", d.name, e)
			failures[e.Type.String()+": "+e.Detail]++
		}
	}
	t.Logf("corpus: %d Resources-mode Compositions, %d validate clean for v1.17, %d do not; %d validate clean for v1.20", len(docs), clean, len(docs)-clean, cleanV120)
	kinds := make([]string, 0, len(failures))
	for k := range failures {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	for _, k := range kinds {
		t.Logf("corpus: %4d × %s", failures[k], k)
	}
}
