package format

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

// A verifyCase is a directory of render/verify's testdata: legacy.yaml,
// converted.yaml, xr.yaml (XRs or claims) and optionally xrd.yaml,
// observed.yaml and extra.yaml.
type verifyCase struct {
	dir       string
	legacy    verify.Document
	converted verify.Document
	samples   []verify.Sample
	opts      verify.Options
}

// loadCase reads the case dir of render/verify's testdata (a path
// relative to render/verify, e.g. testdata/report). Its documents are named
// by that path, as render/verify's tests name them, so that the reports
// (and the goldens) are the same.
func loadCase(t testing.TB, dir string) verifyCase {
	t.Helper()
	read := func(n string) []byte {
		b, err := os.ReadFile(filepath.Join("..", dir, n))
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
	c := verifyCase{
		dir:       dir,
		legacy:    verify.Document{Path: filepath.Join(dir, "legacy.yaml"), Data: read("legacy.yaml")},
		converted: verify.Document{Path: filepath.Join(dir, "converted.yaml"), Data: read("converted.yaml")},
	}
	if b := read("observed.yaml"); b != nil {
		c.opts.Observed = objects(b, "test")
	}
	if b := read("extra.yaml"); b != nil {
		c.opts.Extra = objects(b, "test")
	}
	if b := read("xrd.yaml"); b != nil {
		c.opts.XRD = objects(b, "test")[0]
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
		c.samples = append(c.samples, verify.Sample{Name: fmt.Sprintf("xr.yaml#%d", d.Index+1), Source: "xr.yaml", Line: d.Line, XR: d.Object})
	}
	return c
}

func (c verifyCase) verify(t testing.TB) *verify.Report {
	t.Helper()
	r, err := verify.Verify(context.Background(), c.legacy, c.converted, c.samples, c.opts)
	if err != nil {
		t.Fatalf("Verify(%s): %v", c.dir, err)
	}
	return r
}
