package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestVerifySkipsFixtures runs verify on a Composition whose examples hold
// test-framework fixtures and an unnamed object: they are not samples, and
// each is named on stderr with the reason.
func TestVerifySkipsFixtures(t *testing.T) {
	unnamed := strings.Replace(testXR, "metadata:\n  name: demo\n", "", 1)
	dir := writeFiles(t, map[string]string{
		"legacy.yaml":                    testLegacy,
		"pipeline.yaml":                  testPipeline,
		"examples/xr.yaml":               testXR,
		"examples/e2e/01-assert.yaml":    testXR,
		"examples/kuttl/00-step.yaml":    "apiVersion: kuttl.dev/v1beta1\nkind: TestStep\n",
		"examples/kuttl/00-install.yaml": testXR,
		"examples/unnamed.yaml":          unnamed,
		"given/explicit.yaml":            testXR + "---\n" + unnamed,
	})
	p := func(n string) string { return filepath.Join(dir, n) }
	cases := map[string]struct {
		reason  string
		args    []string
		wantOut string
		wantErr []string
	}{
		"Examples": {
			reason:  "Examples beside the Composition: fixtures and unnamed objects are skipped and named.",
			args:    []string{p("legacy.yaml"), "--converted", p("pipeline.yaml")},
			wantOut: "1 sample (1 equivalent)",
			wantErr: []string{
				"skipped examples/e2e/01-assert.yaml: a kuttl assert file",
				"skipped examples/kuttl/00-install.yaml: beside a kuttl TestStep (examples/kuttl/00-step.yaml)",
				"skipped examples/unnamed.yaml#1: no metadata.name",
			},
		},
		"ExplicitSamples": {
			reason:  "Samples given with --xr: an unnamed object is never a sample.",
			args:    []string{p("legacy.yaml"), "--converted", p("pipeline.yaml"), "--xr", p("given/explicit.yaml")},
			wantOut: "1 sample (1 equivalent)",
			wantErr: []string{"skipped " + p("given/explicit.yaml") + "#2: no metadata.name"},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			code, out, errOut := executeVerify(t, tc.args)
			if code != exitOK {
				t.Fatalf("%s\nverify %v: want exit 0, got %d\nstdout:\n%s\nstderr:\n%s", tc.reason, tc.args, code, out, errOut)
			}
			if !strings.Contains(out, tc.wantOut) {
				t.Errorf("%s\nverify %v: stdout lacks %q:\n%s", tc.reason, tc.args, tc.wantOut, out)
			}
			for _, w := range tc.wantErr {
				if !strings.Contains(errOut, w) {
					t.Errorf("%s\nverify %v: stderr lacks %q:\n%s", tc.reason, tc.args, w, errOut)
				}
			}
		})
	}
}
