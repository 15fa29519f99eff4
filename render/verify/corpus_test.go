package verify

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/xpmigrate/xpmigrate/internal/crossplane"
	"github.com/xpmigrate/xpmigrate/internal/manifest"
	"github.com/xpmigrate/xpmigrate/internal/testutil"
)

// A verifyCase is a directory of testdata: legacy.yaml, converted.yaml,
// xr.yaml (XRs or claims) and optionally xrd.yaml, observed.yaml and
// extra.yaml.
type verifyCase struct {
	dir       string
	legacy    Document
	converted Document
	samples   []Sample
	opts      Options
}

func loadCase(t testing.TB, dir string) verifyCase {
	t.Helper()
	read := func(n string) []byte {
		b, err := os.ReadFile(filepath.Join(dir, n))
		if err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
		return b
	}
	c := verifyCase{
		dir:       dir,
		legacy:    Document{Path: filepath.Join(dir, "legacy.yaml"), Data: read("legacy.yaml")},
		converted: Document{Path: filepath.Join(dir, "converted.yaml"), Data: read("converted.yaml")},
	}
	if b := read("observed.yaml"); b != nil {
		c.opts.Observed = objects(t, string(b))
	}
	if b := read("extra.yaml"); b != nil {
		c.opts.Extra = objects(t, string(b))
	}
	if b := read("xrd.yaml"); b != nil {
		c.opts.XRD = objects(t, string(b))[0]
	}
	docs, err := manifest.LoadStream(strings.NewReader(string(read("xr.yaml"))), "xr.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range docs {
		if k, _ := d.Object["kind"].(string); k == "Secret" {
			c.opts.Extra = append(c.opts.Extra, d.Object)
			continue
		}
		c.samples = append(c.samples, Sample{Name: fmt.Sprintf("xr.yaml#%d", d.Index+1), Source: "xr.yaml", Line: d.Line, XR: d.Object})
	}
	return c
}

func (c verifyCase) verify(t testing.TB) *Report {
	t.Helper()
	r, err := Verify(context.Background(), c.legacy, c.converted, c.samples, c.opts)
	if err != nil {
		t.Fatalf("Verify(%s): %v", c.dir, err)
	}
	return r
}

func corpusCases(t *testing.T) []string {
	t.Helper()
	dirs, err := filepath.Glob("testdata/corpus/*/legacy.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for i := range dirs {
		dirs[i] = filepath.Dir(dirs[i])
	}
	return dirs
}

// TestCorpusConversions keeps testdata/corpus/*/converted.yaml what the
// reference conversion gives (-update rewrites them); the files are
// reviewed against docs/semantics/conversion.md#examples.
func TestCorpusConversions(t *testing.T) {
	for _, dir := range corpusCases(t) {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			legacy, err := os.ReadFile(filepath.Join(dir, "legacy.yaml"))
			if err != nil {
				t.Fatal(err)
			}
			got, err := referenceConvert(ConvertRequest{Composition: legacy, Target: crossplane.V1})
			if err != nil {
				t.Fatal(err)
			}
			testutil.Golden(t, filepath.Join(dir, "converted.yaml"), got)
		})
	}
}

// TestCorpusEquivalent: real compositions and their conversions verify
// equivalent (known gaps allowed, nothing unexplained).
func TestCorpusEquivalent(t *testing.T) {
	for _, dir := range corpusCases(t) {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			r := loadCase(t, dir).verify(t)
			if r.Verdict == Different || r.Unexplained > 0 {
				t.Errorf("Verify(%s): verdict %s, want equivalent; differences:\n%s", dir, r.Verdict, strings.Join(summary(r), "\n"))
			}
			if len(r.Samples) == 0 {
				t.Errorf("Verify(%s): no samples", dir)
			}
		})
	}
}

// TestCorpusConvertOnTheFly: Options.Convert is used when no converted
// Composition is given, and gives the same report.
func TestCorpusConvertOnTheFly(t *testing.T) {
	for _, dir := range corpusCases(t) {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			c := loadCase(t, dir)
			want := summary(c.verify(t))
			c.converted = Document{Path: "converted"}
			c.opts.Convert = referenceConvert
			got := summary(c.verify(t))
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("Verify(%s) converting on the fly: -want, +got:\n%s", dir, diff)
			}
		})
	}
}
