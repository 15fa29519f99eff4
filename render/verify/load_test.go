package verify

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"sigs.k8s.io/yaml"
)

// TestDocumentJSON checks that giving Verify the documents' data as JSON,
// as the converter has it, changes nothing in any report: the gap cases
// cover legacy and pipeline compositions of every shape the rules know.
func TestDocumentJSON(t *testing.T) {
	dirs, err := filepath.Glob(filepath.Join("testdata", "gaps", "*"))
	if err != nil {
		t.Fatal(err)
	}
	for _, dir := range dirs {
		if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
			continue
		}
		t.Run(filepath.Base(dir), func(t *testing.T) {
			c := loadCase(t, dir)
			if len(c.converted.Data) == 0 {
				t.Skip("converted on the fly")
			}
			want := c.verify(t)
			for _, d := range []*Document{&c.legacy, &c.converted} {
				j, err := yaml.YAMLToJSON(d.Data)
				if err != nil {
					t.Fatal(err)
				}
				d.JSON = j
			}
			got := c.verify(t)
			if diff := cmp.Diff(want, got, cmpopts.IgnoreUnexported(Difference{})); diff != "" {
				t.Errorf("Verify with Document.JSON: -without, +with:\n%s", diff)
			}
		})
	}
}

// TestDocumentJSONIsRead checks that Verify reads Document.JSON rather than
// parsing Data again.
func TestDocumentJSONIsRead(t *testing.T) {
	c := loadCase(t, filepath.Join("testdata", "gaps", "anonymous-new"))
	j, err := yaml.YAMLToJSON(c.legacy.Data)
	if err != nil {
		t.Fatal(err)
	}
	var obj map[string]any
	if err := yaml.Unmarshal(j, &obj); err != nil {
		t.Fatal(err)
	}
	obj["metadata"].(map[string]any)["name"] = "read-from-json"
	if c.legacy.JSON, err = yaml.Marshal(obj); err != nil {
		t.Fatal(err)
	}
	if c.legacy.JSON, err = yaml.YAMLToJSON(c.legacy.JSON); err != nil {
		t.Fatal(err)
	}
	if got := c.verify(t).Composition; got != "read-from-json" {
		t.Errorf("Verify(...).Composition: got %q, want the name from Document.JSON", got)
	}
}
