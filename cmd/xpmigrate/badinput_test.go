package main

import (
	"bytes"
	"context"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/xpmigrate/xpmigrate/internal/testutil"
	"github.com/xpmigrate/xpmigrate/render/verify"
)

// cmdAliasBomb is a "billion laughs" Composition (387 million nodes once
// expanded); the alias that crosses the expansion budget is on line 15.
const cmdAliasBomb = testutil.AliasBomb

// runWithin runs xpmigrate args in process and fails the test if it has
// not returned within a generous deadline (a hang, not slowness).
func runWithin(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	s := streams{In: strings.NewReader(""), Out: &out, ErrOut: &errOut}
	code := make(chan int, 1)
	go func() { code <- run(args, s) }()
	select {
	case c := <-code:
		return c, out.String(), errOut.String()
	case <-time.After(30 * time.Second):
		t.Fatalf("xpmigrate %s: still running after 30s", strings.Join(args, " "))
	}
	return 0, "", ""
}

// TestBadInputExitCodes holds the one rule for every command: input that
// cannot be used (not YAML, an alias bomb, not a file) exits 2 and names
// the file (and the line where there is one); usage mistakes exit 2.
func TestBadInputExitCodes(t *testing.T) {
	type want struct {
		code   int
		stderr []string
	}
	cases := map[string]struct {
		reason string
		files  map[string]string
		args   []string
		want   want
	}{
		"MigrateAliasBomb": {
			reason: "migrate refuses an alias bomb as the other readers do: exit 2, naming the file and line.",
			files:  map[string]string{"repo/bomb.yaml": cmdAliasBomb, "repo/comp.yaml": migrateLegacy},
			args:   []string{"migrate", "--dry-run", "--verify=false", "repo"},
			want:   want{code: exitInvalid, stderr: []string{"bomb.yaml", "line 15", "alias"}},
		},
		"ConvertAliasBomb": {
			reason: "convert refuses an alias bomb as input it cannot read: exit 2, naming the file and line.",
			files:  map[string]string{"bomb.yaml": cmdAliasBomb},
			args:   []string{"convert", "bomb.yaml"},
			want:   want{code: exitInvalid, stderr: []string{"bomb.yaml:15:", "alias"}},
		},
		"VerifyAliasBomb": {
			reason: "verify refuses an alias bomb: exit 2, naming the file.",
			files:  map[string]string{"bomb.yaml": cmdAliasBomb},
			args:   []string{"verify", "bomb.yaml"},
			want:   want{code: exitInvalid, stderr: []string{"bomb.yaml", "alias"}},
		},
		"RenderAliasBomb": {
			reason: "render refuses an alias bomb: exit 2, naming the file.",
			files:  map[string]string{"bomb.yaml": cmdAliasBomb, "xr.yaml": migrateXR},
			args:   []string{"render", "xr.yaml", "bomb.yaml"},
			want:   want{code: exitInvalid, stderr: []string{"bomb.yaml", "alias"}},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			for n, body := range tc.files {
				p := filepath.Join(dir, filepath.FromSlash(n))
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			t.Chdir(dir)
			code, _, stderr := runWithin(t, tc.args...)
			if code != tc.want.code {
				t.Errorf("%s\nxpmigrate %s: exit %d, want %d; stderr:\n%s", tc.reason, strings.Join(tc.args, " "), code, tc.want.code, stderr)
			}
			for _, s := range tc.want.stderr {
				if !strings.Contains(stderr, s) {
					t.Errorf("%s\nxpmigrate %s: stderr does not contain %q:\n%s", tc.reason, strings.Join(tc.args, " "), s, stderr)
				}
			}
		})
	}
}

// TestNumericFlagBounds checks that every numeric flag is bounded: out of
// range is usage (exit 2) naming the allowed range, before any work.
func TestNumericFlagBounds(t *testing.T) {
	files := map[string]string{"comp.yaml": migrateLegacy, "xr.yaml": migrateXR}
	cases := map[string]struct {
		args []string
		want string // in stderr
	}{
		"MigrateSynthesizeHuge":  {args: []string{"migrate", "--dry-run", "--synthesize", "2000000000", "."}, want: "--synthesize must be between 0 and 1000"},
		"MigrateSynthesizeNeg":   {args: []string{"migrate", "--dry-run", "--synthesize", "-1", "."}, want: "--synthesize must be between 0 and 1000"},
		"MigrateMaxSamplesHuge":  {args: []string{"migrate", "--dry-run", "--max-samples", "100000000", "."}, want: "--max-samples must be between 1 and 1000 (or negative: all)"},
		"MigrateJobsZero":        {args: []string{"migrate", "--dry-run", "--jobs", "0", "."}, want: "--jobs must be between 1 and 256"},
		"MigrateJobsHuge":        {args: []string{"migrate", "--dry-run", "--jobs", "100000", "."}, want: "--jobs must be between 1 and 256"},
		"VerifySynthesizeHuge":   {args: []string{"verify", "comp.yaml", "--synthesize", "2000000000"}, want: "--synthesize must be between 0 and 1000"},
		"VerifyLoopsHuge":        {args: []string{"verify", "comp.yaml", "--loops", "1000000"}, want: "--loops must be between 0 and 100"},
		"VerifyTimeoutZero":      {args: []string{"verify", "comp.yaml", "--timeout", "0s"}, want: "--timeout must be between 1s and 24h0m0s"},
		"VerifyTimeoutHuge":      {args: []string{"verify", "comp.yaml", "--timeout", "100000h"}, want: "--timeout must be between 1s and 24h0m0s"},
		"RenderLoopsHuge":        {args: []string{"render", "xr.yaml", "comp.yaml", "--loops", "1000000"}, want: "--loops must be between 1 and 100"},
		"RenderLoopsZero":        {args: []string{"render", "xr.yaml", "comp.yaml", "--loops", "0"}, want: "--loops must be between 1 and 100"},
		"RenderTimeoutNegative":  {args: []string{"render", "xr.yaml", "comp.yaml", "--timeout", "-1s"}, want: "--timeout must be between 1s and 24h0m0s"},
		"RenderTimeoutHuge":      {args: []string{"render", "xr.yaml", "comp.yaml", "--timeout", "1000h"}, want: "--timeout must be between 1s and 24h0m0s"},
		"VerifySynthesizeNeg":    {args: []string{"verify", "comp.yaml", "--synthesize", "-3"}, want: "--synthesize must be between 0 and 1000"},
		"VerifyLoopsNegative":    {args: []string{"verify", "comp.yaml", "--loops", "-1"}, want: "--loops must be between 0 and 100"},
		"MigrateMaxSamplesZero":  {args: []string{"migrate", "--dry-run", "--max-samples", "0", "."}, want: "--max-samples must be between 1 and 1000 (or negative: all)"},
		"MigrateMaxSamplesAllOK": {args: []string{"migrate", "--dry-run", "--verify=false", "--max-samples", "-1", "."}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			for n, body := range files {
				if err := os.WriteFile(filepath.Join(dir, n), []byte(body), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			t.Chdir(dir)
			code, _, stderr := runWithin(t, tc.args...)
			wantCode := exitInvalid
			if tc.want == "" {
				wantCode = exitOK
			}
			if code != wantCode || !strings.Contains(stderr, tc.want) {
				t.Errorf("xpmigrate %s: exit %d, stderr:\n%s\nwant exit %d and %q", strings.Join(tc.args, " "), code, stderr, wantCode, tc.want)
			}
		})
	}
}

// countingFS records the files opened through it.
type countingFS struct {
	fs.FS
	mu     sync.Mutex
	opened []string
}

func (c *countingFS) Open(name string) (fs.File, error) {
	f, err := c.FS.Open(name)
	if err == nil {
		if fi, serr := f.Stat(); serr == nil && !fi.IsDir() {
			c.mu.Lock()
			c.opened = append(c.opened, path.Base(name))
			c.mu.Unlock()
		}
	}
	return f, err
}

const besideXRD = `apiVersion: apiextensions.crossplane.io/v1
kind: CompositeResourceDefinition
metadata:
  name: xthings.example.org
spec:
  group: example.org
  names:
    kind: XThing
    plural: xthings
  claimNames:
    kind: Thing
    plural: things
  versions:
  - name: v1
    served: true
    referenceable: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              size:
                type: string
`

const besideClaim = `apiVersion: example.org/v1
kind: Thing
metadata:
  name: demo-claim
  namespace: default
spec:
  size: large
`

func TestVerifyLooksBesideOnlyWhenNeeded(t *testing.T) {
	cases := map[string]struct {
		reason string
		// samples is the --xr file's content; "" for no --xr.
		samples    string
		synthesize int
		// converted gives a converted Composition (--converted).
		converted bool
		// wantOpened are the files beside the Composition opened.
		wantOpened []string
		// wantSamples are the samples' names.
		wantSamples []string
		wantXRD     bool
	}{
		"NoSampleSource": {
			reason:      "Without --xr, examples are looked for beside the Composition: every YAML file there is read.",
			wantOpened:  []string{"cm.yaml", "comp.yaml", "example.yaml", "xrd.yaml"},
			wantSamples: []string{"example.yaml#1"},
			wantXRD:     true,
		},
		"XRsGiven": {
			reason:      "With --xr holding only XRs and --converted, nothing beside the Composition is read.",
			samples:     migrateXR,
			converted:   true,
			wantSamples: []string{"samples/xr.yaml#1"},
		},
		"XRsGivenConvertedOnTheFly": {
			reason:      "With --xr holding only XRs and no --converted, the XRD is looked for: the on-the-fly conversion reads it, as convert --xrd and migrate do; only files that mention one are decoded.",
			samples:     migrateXR,
			wantOpened:  []string{"cm.yaml", "comp.yaml", "example.yaml", "xrd.yaml"},
			wantSamples: []string{"samples/xr.yaml#1"},
			wantXRD:     true,
		},
		"ClaimsGiven": {
			reason:      "With --xr holding a claim, the XRD is looked for; only files that mention one are decoded, and the claim is a sample.",
			samples:     besideClaim,
			wantOpened:  []string{"cm.yaml", "comp.yaml", "example.yaml", "xrd.yaml"},
			wantSamples: []string{"samples/xr.yaml#1"},
			wantXRD:     true,
		},
		"Synthesize": {
			reason:      "With --synthesize, the XRD is looked for.",
			samples:     migrateXR,
			synthesize:  1,
			wantOpened:  []string{"cm.yaml", "comp.yaml", "example.yaml", "xrd.yaml"},
			wantSamples: []string{"samples/xr.yaml#1", "synthesized#1"},
			wantXRD:     true,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			for n, body := range map[string]string{
				"comp.yaml": migrateLegacy, "xrd.yaml": besideXRD, "example.yaml": migrateXR,
				"cm.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\n",
			} {
				if err := os.WriteFile(filepath.Join(dir, n), []byte(body), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			o := verify.Sources{Legacy: filepath.Join(dir, "comp.yaml"), Synthesize: tc.synthesize}
			if tc.samples != "" {
				o.XR = filepath.Join(dir, "samples", "xr.yaml")
				if err := os.MkdirAll(filepath.Dir(o.XR), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(o.XR, []byte(tc.samples), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if tc.converted {
				o.Converted = filepath.Join(dir, "samples", "converted.yaml")
				if err := os.MkdirAll(filepath.Dir(o.Converted), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(o.Converted, []byte(migratePipeline), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			cfs := &countingFS{FS: os.DirFS("/")}
			o.FS = cfs
			in, err := verify.Load(context.Background(), o)
			if err != nil {
				t.Fatal(err)
			}
			sort.Strings(cfs.opened)
			var opened []string
			for _, n := range cfs.opened {
				if n != "xr.yaml" || tc.samples == "" {
					opened = append(opened, n)
				}
			}
			if diff := cmp.Diff(tc.wantOpened, opened); diff != "" {
				t.Errorf("%s\nverify.Load(...): files opened beside the Composition: -want, +got:\n%s", tc.reason, diff)
			}
			var names []string
			for _, s := range in.Samples {
				n := s.Name
				if i := strings.LastIndex(n, "samples/"); i >= 0 {
					n = n[i:]
				}
				if strings.HasPrefix(n, "synthesized") || strings.Contains(n, "synth") {
					n = "synthesized#1"
				}
				names = append(names, n)
			}
			if diff := cmp.Diff(tc.wantSamples, names); diff != "" {
				t.Errorf("%s\nverify.Load(...): samples: -want, +got:\n%s", tc.reason, diff)
			}
			if got := in.XRD != nil; got != tc.wantXRD {
				t.Errorf("%s\nverify.Load(...): XRD found %t, want %t", tc.reason, got, tc.wantXRD)
			}
		})
	}
}

// syntaxErrorAt8 has a YAML error on line 8, in its second document.
const syntaxErrorAt8 = "a: 1\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\ndata:\n  k: [unclosed\n  j: 2\n"

// TestInputErrorsNameFileAndLine holds the rule for messages about input:
// FILE:LINE, the line counted in the file (not in the document), and the
// same line from every command; binary data is not called a template;
// --out naming a file is usage (exit 2).
func TestInputErrorsNameFileAndLine(t *testing.T) {
	binary := string([]byte{0x7f, 'E', 'L', 'F', 2, 1, 1, 0, 0, 0, 0xff, 0xfe, '{', '{', ' ', 0x00, 0x01, '\n', 0xc3, 0x28, '}', '}', '\n'})
	cases := map[string]struct {
		reason string
		files  map[string]string
		args   []string
		code   int
		want   []string // in stderr
		not    []string // not in stderr
	}{
		"ConvertSyntaxError": {
			reason: "convert names the file line of a syntax error in a second document.",
			files:  map[string]string{"s.yaml": syntaxErrorAt8},
			args:   []string{"convert", "s.yaml"},
			code:   exitInvalid,
			want:   []string{"s.yaml:8:"},
		},
		"VerifySyntaxError": {
			reason: "verify names the same line, counted in the file.",
			files:  map[string]string{"s.yaml": syntaxErrorAt8},
			args:   []string{"verify", "s.yaml"},
			code:   exitInvalid,
			want:   []string{"s.yaml:8:"},
			not:    []string{"line 6"},
		},
		"RenderSyntaxError": {
			reason: "render names the same line, counted in the file.",
			files:  map[string]string{"s.yaml": syntaxErrorAt8, "xr.yaml": migrateXR},
			args:   []string{"render", "xr.yaml", "s.yaml"},
			code:   exitInvalid,
			want:   []string{"s.yaml:8:"},
			not:    []string{"line 6"},
		},
		"MigrateSyntaxError": {
			reason: "migrate names the same line, counted in the file.",
			files:  map[string]string{"repo/s.yaml": syntaxErrorAt8},
			args:   []string{"migrate", "--dry-run", "repo"},
			code:   exitOK,
			want:   []string{"s.yaml: unparseable (line 8"},
			not:    []string{"line 6"},
		},
		"MigrateBinary": {
			reason: "Binary data is unparseable, not a Helm template.",
			files:  map[string]string{"repo/b.yaml": binary},
			args:   []string{"migrate", "--dry-run", "repo"},
			code:   exitOK,
			want:   []string{"b.yaml: unparseable (binary data"},
			not:    []string{"template"},
		},
		"ConvertBinary": {
			reason: "convert refuses binary data as input it cannot read (exit 2).",
			files:  map[string]string{"b.yaml": binary},
			args:   []string{"convert", "b.yaml"},
			code:   exitInvalid,
			want:   []string{"b.yaml"},
			not:    []string{"template"},
		},
		"MigrateOutIsAFile": {
			reason: "--out naming a file is a usage error (exit 2).",
			files:  map[string]string{"repo/comp.yaml": migrateLegacy, "out.txt": "x"},
			args:   []string{"migrate", "--out", "out.txt", "repo"},
			code:   exitInvalid,
			want:   []string{"out.txt", "not a directory"},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			for n, body := range tc.files {
				p := filepath.Join(dir, filepath.FromSlash(n))
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			t.Chdir(dir)
			code, _, stderr := runWithin(t, tc.args...)
			if code != tc.code {
				t.Errorf("%s\nxpmigrate %s: exit %d, want %d; stderr:\n%s", tc.reason, strings.Join(tc.args, " "), code, tc.code, stderr)
			}
			for _, s := range tc.want {
				if !strings.Contains(stderr, s) {
					t.Errorf("%s\nxpmigrate %s: stderr does not contain %q:\n%s", tc.reason, strings.Join(tc.args, " "), s, stderr)
				}
			}
			for _, s := range tc.not {
				if strings.Contains(stderr, s) {
					t.Errorf("%s\nxpmigrate %s: stderr contains %q:\n%s", tc.reason, strings.Join(tc.args, " "), s, stderr)
				}
			}
		})
	}
}

func TestStaleTemporariesReported(t *testing.T) {
	cases := map[string]struct {
		reason string
		files  map[string]string
		args   []string
		want   string
		gone   bool
	}{
		"MigrateInPlace": {
			reason: "migrate writing in place removes what a killed run left, and says so.",
			files:  map[string]string{"repo/comp.yaml": migrateLegacy, "repo/.comp.yaml.xpmigrate-tmp-12": "apiVersion: apiext"},
			args:   []string{"migrate", "--verify=false", "repo"},
			want:   "removed 1 temporary files left by an interrupted run: .comp.yaml.xpmigrate-tmp-12",
			gone:   true,
		},
		"MigrateDryRun": {
			reason: "migrate writing nothing reports them and leaves them.",
			files:  map[string]string{"repo/comp.yaml": migrateLegacy, "repo/.comp.yaml.xpmigrate-tmp-12": "apiVersion: apiext"},
			args:   []string{"migrate", "--dry-run", "repo"},
			want:   "found 1 temporary files left by an interrupted run",
		},
		"ConvertInPlace": {
			reason: "convert --in-place removes what a killed run left beside the file, and says so.",
			files:  map[string]string{"repo/comp.yaml": migrateLegacy, "repo/.comp.yaml.xpmigrate-tmp-12": "apiVersion: apiext"},
			args:   []string{"convert", "--in-place", "repo/comp.yaml"},
			want:   "removed repo/.comp.yaml.xpmigrate-tmp-12, a temporary file left by an interrupted run",
			gone:   true,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			for n, body := range tc.files {
				p := filepath.Join(dir, filepath.FromSlash(n))
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			t.Chdir(dir)
			code, _, stderr := runWithin(t, tc.args...)
			if code != exitOK || !strings.Contains(stderr, tc.want) {
				t.Errorf("%s\nxpmigrate %s: exit %d, stderr:\n%s\nwant exit 0 and %q", tc.reason, strings.Join(tc.args, " "), code, stderr, tc.want)
			}
			_, err := os.Stat(filepath.Join(dir, "repo", ".comp.yaml.xpmigrate-tmp-12"))
			if gone := os.IsNotExist(err); gone != tc.gone {
				t.Errorf("%s\ntemporary file removed: %t, want %t", tc.reason, gone, tc.gone)
			}
		})
	}
}
