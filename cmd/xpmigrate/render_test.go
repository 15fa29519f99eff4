package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/xpmigrate/xpmigrate/internal/testutil"
)

func writeFiles(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, body := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

const (
	testXR       = testutil.ThingsXR
	testLegacy   = testutil.ThingsLegacy
	testPipeline = testutil.ThingsPipeline
)

func TestRenderCommand(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"xr.yaml":          testXR,
		"legacy.yaml":      testLegacy,
		"pipeline.yaml":    testPipeline,
		"broken.yaml":      "apiVersion: v1\nkind: [\n",
		"notcomp.yaml":     "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n",
		"otherxr.yaml":     strings.Replace(testXR, "XThing", "XOther", 1),
		"fatal.yaml":       strings.Replace(testPipeline, "fromFieldPath: spec.size", "fromFieldPath: spec.size[0]", 1),
		"unknownfn.yaml":   strings.Replace(testPipeline, "name: function-patch-and-transform", "name: function-go-templating", 1),
		"functions.yaml":   "apiVersion: pkg.crossplane.io/v1\nkind: Function\nmetadata:\n  name: function-patch-and-transform\nspec:\n  package: xpkg.upbound.io/crossplane-contrib/function-patch-and-transform:v0.10.8\n",
		"observed/cd.yaml": "apiVersion: s3.example.org/v1\nkind: Bucket\nmetadata:\n  name: demo-abcde\n  annotations:\n    crossplane.io/composition-resource-name: bucket\nstatus:\n  conditions:\n  - type: Ready\n    status: \"True\"\n",
	})
	p := func(n string) string { return filepath.Join(dir, n) }

	cases := map[string]struct {
		reason   string
		args     []string
		wantCode int
		wantOut  []string // substrings of stdout
		wantErr  string   // substring of stderr
	}{
		"Legacy": {
			reason:   "a legacy composition renders in process",
			args:     []string{"render", p("xr.yaml"), p("legacy.yaml")},
			wantCode: exitOK,
			wantOut:  []string{"kind: XThing", "kind: Bucket", "size: small", "crossplane.io/composition-resource-name: bucket"},
		},
		"Pipeline": {
			reason:   "a pipeline renders with the built-in function and no Functions file",
			args:     []string{"render", p("xr.yaml"), p("pipeline.yaml")},
			wantCode: exitOK,
			wantOut:  []string{"kind: XThing", "size: small", "generateName: demo-"},
		},
		"PipelineWithFunctionsAndObserved": {
			reason:   "a Functions file naming the PT package and observed resources are honoured",
			args:     []string{"render", p("xr.yaml"), p("pipeline.yaml"), p("functions.yaml"), "-o", p("observed"), "-c"},
			wantCode: exitOK,
			wantOut:  []string{"name: demo-abcde", "status: \"True\"", "kind: Context"},
		},
		"UnparseableYAML": {
			reason:   "unparseable YAML is invalid input and names the file",
			args:     []string{"render", p("xr.yaml"), p("broken.yaml")},
			wantCode: exitInvalid,
			wantErr:  "broken.yaml:2: document 1:",
		},
		"MissingFile": {
			reason:   "a missing file is invalid input",
			args:     []string{"render", p("xr.yaml"), p("nope.yaml")},
			wantCode: exitInvalid,
			wantErr:  "nope.yaml",
		},
		"NotAComposition": {
			reason:   "a document of the wrong kind is invalid input",
			args:     []string{"render", p("xr.yaml"), p("notcomp.yaml")},
			wantCode: exitInvalid,
			wantErr:  "not a composition: ConfigMap/x",
		},
		"WrongXRType": {
			reason:   "a composition that does not match the XR type is invalid input",
			args:     []string{"render", p("otherxr.yaml"), p("legacy.yaml")},
			wantCode: exitInvalid,
			wantErr:  "compositeTypeRef.kind (XThing) does not match XR's kind (XOther)",
		},
		"UnknownFunction": {
			reason:   "a function that is neither built in nor served locally is invalid input",
			args:     []string{"render", p("xr.yaml"), p("unknownfn.yaml")},
			wantCode: exitInvalid,
			wantErr:  `unknown Function "function-go-templating"`,
		},
		"FatalResult": {
			reason:   "a function's fatal result is an error (exit 1)",
			args:     []string{"render", p("xr.yaml"), p("fatal.yaml")},
			wantCode: exitError,
			wantErr:  `pipeline step "patch-and-transform" returned a fatal result`,
		},
		"Usage": {
			reason:   "a wrong number of arguments is a usage error",
			args:     []string{"render", p("xr.yaml")},
			wantCode: exitInvalid,
			wantErr:  "render takes 2 or 3 arguments",
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			code := run(tc.args, streams{In: strings.NewReader(""), Out: &out, ErrOut: &errOut})
			if code != tc.wantCode {
				t.Fatalf("\n%s\nrun(%v): want exit %d, got %d\nstderr: %s", tc.reason, tc.args, tc.wantCode, code, errOut.String())
			}
			for _, w := range tc.wantOut {
				if !strings.Contains(out.String(), w) {
					t.Errorf("\n%s\nrun(%v): stdout lacks %q:\n%s", tc.reason, tc.args, w, out.String())
				}
			}
			if !strings.Contains(errOut.String(), tc.wantErr) {
				t.Errorf("\n%s\nrun(%v): stderr %q lacks %q", tc.reason, tc.args, errOut.String(), tc.wantErr)
			}
			if tc.wantCode != exitOK && out.Len() != 0 {
				t.Errorf("\n%s\nrun(%v): nothing may go to stdout on failure, got:\n%s", tc.reason, tc.args, out.String())
			}
		})
	}
}
