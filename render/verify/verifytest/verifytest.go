// Package verifytest loads render/verify's test cases for the tests of the
// packages beside it (render/verify/gaps, render/verify/format), so that
// they render the same cases with the same names as render/verify's own
// tests. Imported by _test.go files only.
package verifytest

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/xpmigrate/xpmigrate/internal/manifest"
	"github.com/xpmigrate/xpmigrate/render/verify"
)

// A Case is a directory of render/verify's testdata: legacy.yaml,
// converted.yaml, xr.yaml (XRs or claims) and optionally xrd.yaml,
// observed.yaml and extra.yaml.
type Case struct {
	Dir       string
	Legacy    verify.Document
	Converted verify.Document
	Samples   []verify.Sample
	Opts      verify.Options
}

// Load reads the case dir of render/verify's testdata (a path relative to
// render/verify, e.g. testdata/report) from a test of a package one level
// below render/verify. Its documents are named by that path, as
// render/verify's own tests name them, so that the reports (and the
// goldens) are the same.
func Load(t testing.TB, dir string) Case {
	t.Helper()
	read := func(n string) []byte {
		b, err := os.ReadFile(filepath.Join("..", dir, n)) //nolint:gosec,forbidigo // Tests name cases of the repository's own testdata.
		if err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
		return b
	}
	objects := func(b []byte, name string) []map[string]any {
		docs, err := manifest.LoadStream(strings.NewReader(string(b)), name)
		if err != nil {
			t.Fatal(err)
		}
		return manifest.Objects(docs)
	}
	c := Case{
		Dir:       dir,
		Legacy:    verify.Document{Path: filepath.Join(dir, "legacy.yaml"), Data: read("legacy.yaml")},
		Converted: verify.Document{Path: filepath.Join(dir, "converted.yaml"), Data: read("converted.yaml")},
	}
	if b := read("observed.yaml"); b != nil {
		c.Opts.Observed = objects(b, "test")
	}
	if b := read("extra.yaml"); b != nil {
		c.Opts.Extra = objects(b, "test")
	}
	if b := read("xrd.yaml"); b != nil {
		c.Opts.XRD = objects(b, "test")[0]
	}
	docs, err := manifest.LoadStream(strings.NewReader(string(read("xr.yaml"))), "xr.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range docs {
		if k, _ := d.Object["kind"].(string); k == "Secret" {
			c.Opts.Extra = append(c.Opts.Extra, d.Object)
			continue
		}
		c.Samples = append(c.Samples, verify.Sample{Name: fmt.Sprintf("xr.yaml#%d", d.Index+1), Source: "xr.yaml", Line: d.Line, XR: d.Object})
	}
	return c
}

// Verify runs verify.Verify over the case, failing t when it cannot run.
func (c Case) Verify(t testing.TB) *verify.Report {
	t.Helper()
	r, err := verify.Verify(context.Background(), c.Legacy, c.Converted, c.Samples, c.Opts)
	if err != nil {
		t.Fatalf("Verify(%s): %v", c.Dir, err)
	}
	return r
}
