package migrate

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/xpmigrate/xpmigrate/convert"
)

// unnamedLegacy is a legacy Composition with an unnamed template: the
// conversion names it, so phase one of the rollout differs from the input.
const unnamedLegacy = `apiVersion: apiextensions.crossplane.io/v1
kind: Composition
metadata:
  name: queues
spec:
  compositeTypeRef: {apiVersion: example.org/v1, kind: XQueue}
  resources:
  - base: {apiVersion: sqs.example.org/v1, kind: Queue}
`

func TestConvertFile(t *testing.T) {
	cases := map[string]struct {
		reason string
		in     string
		o      FileOptions
		// want is how it ends: ok, findings, invalid or error.
		want string
		// wantOut and wantErrOut are in the output and error streams.
		wantOut, wantErrOut string
		// wantFiles are files written, by name, holding this text.
		wantFiles map[string]string
	}{
		"Stdout": {
			reason:  "The conversion goes to the output stream.",
			in:      unnamedLegacy,
			want:    "ok",
			wantOut: "mode: Pipeline",
		},
		"CheckChanged": {
			reason:  "--check on a file that would change is a finding, and --diff shows it.",
			in:      unnamedLegacy,
			o:       FileOptions{Check: true, Diff: true},
			want:    "findings",
			wantOut: "+  mode: Pipeline",
		},
		"CheckUnchanged": {
			reason: "--check on a file that would not change passes.",
			in:     "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n",
			o:      FileOptions{Check: true},
			want:   "ok",
		},
		"NotYAML": {
			reason:     "Input that is not YAML is invalid input, with its finding written first.",
			in:         "a: [\n",
			want:       "invalid",
			wantErrOut: "C102 error",
		},
		"JSONInput": {
			reason:  "A JSON input comes back as JSON.",
			in:      `{"apiVersion": "apiextensions.crossplane.io/v1", "kind": "Composition", "metadata": {"name": "q"}, "spec": {"compositeTypeRef": {"apiVersion": "example.org/v1", "kind": "XQueue"}, "resources": [{"name": "a", "base": {"apiVersion": "v1", "kind": "A"}}]}}`,
			want:    "ok",
			wantOut: `"mode": "Pipeline"`,
		},
		"Phase1Out": {
			reason:     "--phase1-out also writes phase one, converting a second time: mode Resources with the names added.",
			in:         unnamedLegacy,
			o:          FileOptions{Output: "pipeline.yaml", Phase1Out: "phase1.yaml"},
			want:       "ok",
			wantErrOut: "wrote phase one of the rollout",
			wantFiles:  map[string]string{"pipeline.yaml": "mode: Pipeline", "phase1.yaml": "name: resource-0"},
		},
		"BadXRD": {
			reason: "An --xrd file that holds no XRD is invalid input.",
			in:     unnamedLegacy,
			o:      FileOptions{XRDs: []string{"in.yaml"}},
			want:   "invalid",
		},
		"BadOption": {
			reason: "An invalid converter option is invalid input.",
			in:     unnamedLegacy,
			o:      FileOptions{Convert: convert.Options{Target: "v3"}},
			want:   "invalid",
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			o := tc.o
			o.File = filepath.Join(dir, "in.yaml")
			if err := os.WriteFile(o.File, []byte(tc.in), 0o644); err != nil {
				t.Fatal(err)
			}
			for i, x := range o.XRDs {
				o.XRDs[i] = filepath.Join(dir, x)
			}
			for _, p := range []*string{&o.Output, &o.Phase1Out} {
				if *p != "" {
					*p = filepath.Join(dir, *p)
				}
			}
			var out, errOut bytes.Buffer
			err := ConvertFile(o, &out, &errOut)
			if got := kind(err); got != tc.want {
				t.Fatalf("\n%s\nConvertFile(...): want %s, got %s (%v)\nstderr: %s", tc.reason, tc.want, got, err, errOut.String())
			}
			if !strings.Contains(out.String(), tc.wantOut) {
				t.Errorf("\n%s\nConvertFile(...): output lacks %q:\n%s", tc.reason, tc.wantOut, out.String())
			}
			if !strings.Contains(errOut.String(), tc.wantErrOut) {
				t.Errorf("\n%s\nConvertFile(...): error stream lacks %q:\n%s", tc.reason, tc.wantErrOut, errOut.String())
			}
			for n, want := range tc.wantFiles {
				b, err := os.ReadFile(filepath.Join(dir, n))
				if err != nil || !strings.Contains(string(b), want) {
					t.Errorf("\n%s\nConvertFile(...): %s lacks %q (%v):\n%s", tc.reason, n, want, err, b)
				}
			}
			if b, _ := os.ReadFile(filepath.Join(dir, "phase1.yaml")); len(b) > 0 && strings.Contains(string(b), "mode: Pipeline") {
				t.Errorf("\n%s\nConvertFile(...): phase one is a Pipeline Composition:\n%s", tc.reason, b)
			}
		})
	}
}

func TestConvertFileStdin(t *testing.T) {
	var out, errOut bytes.Buffer
	err := ConvertFile(FileOptions{File: "-", Stdin: strings.NewReader(unnamedLegacy), Convert: convert.Options{Strict: true}}, &out, &errOut)
	if kind(err) != "error" || !strings.Contains(err.Error(), "cannot convert <stdin>") {
		t.Errorf("ConvertFile(stdin, --strict): want a conversion error naming <stdin>, got %v", err)
	}
	if out.Len() != 0 {
		t.Errorf("ConvertFile(stdin, --strict): wrote %q although the conversion failed", out.String())
	}
}
