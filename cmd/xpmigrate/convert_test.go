package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/xpmigrate/xpmigrate/convert"
	"github.com/xpmigrate/xpmigrate/convert/migrate"
)

const convertLegacy = `# Queues.
apiVersion: apiextensions.crossplane.io/v1
kind: Composition
metadata:
  name: queues
spec:
  compositeTypeRef: {apiVersion: example.org/v1, kind: XQueue}
  resources:
  - base: {apiVersion: sqs.example.org/v1, kind: Queue}
    patches:
    - fromFieldPath: spec.region # the region
      toFieldPath: spec.forProvider.region
`

// convertSize formats an XR field with %d.
const convertSize = `apiVersion: apiextensions.crossplane.io/v1
kind: Composition
metadata:
  name: queues
spec:
  compositeTypeRef: {apiVersion: example.org/v1, kind: XQueue}
  resources:
  - name: q
    base: {apiVersion: sqs.example.org/v1, kind: Queue}
    patches:
    - fromFieldPath: spec.size
      transforms: [{type: string, string: {type: Format, fmt: 'q-%d'}}]
`

// convertSizeXRD types convertSize's spec.size integer.
const convertSizeXRD = `apiVersion: apiextensions.crossplane.io/v1
kind: CompositeResourceDefinition
metadata: {name: xqueues.example.org}
spec:
  group: example.org
  names: {kind: XQueue, plural: xqueues}
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
              size: {type: integer}
`

const convertConverted = `# Queues.
apiVersion: apiextensions.crossplane.io/v1
kind: Composition
metadata:
  name: queues
spec:
  compositeTypeRef: {apiVersion: example.org/v1, kind: XQueue}
  mode: Pipeline
  pipeline:
  - step: patch-and-transform
    functionRef:
      name: function-patch-and-transform
    input:
      apiVersion: pt.fn.crossplane.io/v1beta1
      kind: Resources
      resources:
      - name: resource-0
        base: {apiVersion: sqs.example.org/v1, kind: Queue}
        patches:
        - type: FromCompositeFieldPath
          fromFieldPath: spec.region # the region
          toFieldPath: spec.forProvider.region
`

const convertBroken = `apiVersion: apiextensions.crossplane.io/v1
kind: Composition
metadata:
  name: broken
spec:
  compositeTypeRef: {apiVersion: example.org/v1, kind: XQueue}
  resources:
  - {name: a, base: {apiVersion: v1, kind: A}}
  - {base: {apiVersion: v1, kind: B}}
`

// runConvert runs `xpmigrate convert args...` with stdin and returns the
// exit code and both streams. It registers the command on the root when
// the root does not have it yet.
func runConvert(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	s := streams{In: strings.NewReader(stdin), Out: &out, ErrOut: &errOut}
	root := newRootCmd(s)
	if c, _, err := root.Find([]string{"convert"}); err != nil || c.Name() != "convert" {
		root.AddCommand(newConvertCmd(s, nil))
	}
	root.SetArgs(append([]string{"convert"}, args...))
	return exitCodeReported(root.Execute(), s), out.String(), errOut.String()
}

// exitCodeReported reports err on the error stream and maps it to the
// exit code, as run does.
func exitCodeReported(err error, s streams) int {
	reportError(s.ErrOut, err)
	return exitCode(err)
}

func TestConvertCmdFlags(t *testing.T) {
	cases := map[string]struct {
		reason  string
		args    []string
		want    migrate.FileOptions
		wantErr bool
	}{
		"Defaults": {
			reason: "No flags: stdin, YAML, target v1, index names, text findings.",
			args:   nil,
			want: migrate.FileOptions{DiagnosticsFormat: "text", Convert: convert.Options{Target: "v1", NameStrategy: "index",
				PTStep: "patch-and-transform", ECStep: "environment-configs", ProviderConfigKind: "ClusterProviderConfig"}},
		},
		"Everything": {
			reason: "Every flag reaches the options.",
			args: []string{"c.yaml", "-o", "out.yaml", "--format", "json", "--target", "v2", "--name-strategy", "kind",
				"--emit-functions", "--function-patch-and-transform-ref", "pt", "--ec-function", "ec", "--strict", "--ack-unnamed",
				"--keep-server-fields", "--move-env-patches", "--fix-enum-case", "--assume-env-flag", "off", "--xr-style", "v2",
				"--no-compensate", "K1,K2", "--fix-quirk", "C325", "--xrd", "xrd.yaml", "--diagnostics-format", "json", "--phase1-out", "p1.yaml", "--configuration", "crossplane.yaml",
				"--provider-crds", "crds", "--provider-crds", "more.yaml", "--provider-config-kind", "ProviderConfig", "--unwrap-objects"},
			want: migrate.FileOptions{File: "c.yaml", Output: "out.yaml", Format: "json", XRDs: []string{"xrd.yaml"}, ProviderCRDs: []string{"crds", "more.yaml"},
				DiagnosticsFormat: "json", Phase1Out: "p1.yaml", Configuration: "crossplane.yaml",
				Convert: convert.Options{Target: "v2", NameStrategy: "kind",
					EmitFunctions: true, PTFunction: "pt", ECFunction: "ec", PTStep: "patch-and-transform", ECStep: "environment-configs",
					Strict: true, AckUnnamed: true, KeepServerFields: true, MoveEnvPatches: true, FixEnumCase: true, EnvironmentFlagOff: true,
					XRStyleV2: true, NoCompensate: []string{"K1", "K2"}, FixQuirks: []string{"C325"}, ProviderConfigKind: "ProviderConfig", UnwrapObjects: true}},
		},
		"XRFlags": {
			reason: "The v2-native flags reach the options.",
			args:   []string{"--target", "v2", "--xr-scope", "cluster", "--xr-naming", "new-group", "--xr-group", "platform.example.org"},
			want: migrate.FileOptions{DiagnosticsFormat: "text", Convert: convert.Options{Target: "v2", NameStrategy: "index",
				PTStep: "patch-and-transform", ECStep: "environment-configs", XRScope: "cluster", XRNaming: "new-group", XRGroup: "platform.example.org", ProviderConfigKind: "ClusterProviderConfig"}},
		},
		"XRScopeLegacy": {
			reason: "--xr-scope legacy keeps the old --target v2 conversion.",
			args:   []string{"--target", "v2", "--xr-scope", "legacy"},
			want: migrate.FileOptions{DiagnosticsFormat: "text", Convert: convert.Options{Target: "v2", NameStrategy: "index",
				PTStep: "patch-and-transform", ECStep: "environment-configs", XRScope: "legacy", ProviderConfigKind: "ClusterProviderConfig"}},
		},
		"XRScopeWithoutV2":      {reason: "--xr-scope needs --target v2.", args: []string{"--xr-scope", "namespaced"}, wantErr: true},
		"XRNamingWithoutV2":     {reason: "--xr-naming needs --target v2.", args: []string{"--xr-naming", "drop-prefix"}, wantErr: true},
		"BadXRScope":            {reason: "--xr-scope takes auto, namespaced, cluster or legacy.", args: []string{"--target", "v2", "--xr-scope", "global"}, wantErr: true},
		"XRGroupWithoutNew":     {reason: "--xr-group needs --xr-naming new-group.", args: []string{"--target", "v2", "--xr-group", "a.example.org"}, wantErr: true},
		"NewGroupWithoutGroup":  {reason: "--xr-naming new-group needs --xr-group.", args: []string{"--target", "v2", "--xr-naming", "new-group"}, wantErr: true},
		"LegacyWithNaming":      {reason: "--xr-scope legacy keeps the XR types.", args: []string{"--target", "v2", "--xr-scope", "legacy", "--xr-naming", "drop-prefix"}, wantErr: true},
		"BadTarget":             {reason: "The target is v1 or v2.", args: []string{"--target", "v3"}, wantErr: true},
		"BadFormat":             {reason: "The format is yaml or json.", args: []string{"--format", "toml"}, wantErr: true},
		"BadProviderConfigKind": {reason: "--provider-config-kind takes the two kinds only.", args: []string{"--provider-config-kind", "Secret"}, wantErr: true},
		"BadQuirk":              {reason: "--fix-quirk takes the codes of fixable quirks only.", args: []string{"--fix-quirk", "C212"}, wantErr: true},
		"InPlaceAndOutput":      {reason: "--in-place and -o exclude each other.", args: []string{"f.yaml", "--in-place", "-o", "x"}, wantErr: true},
		"InPlaceStdin":          {reason: "--in-place needs a file.", args: []string{"--in-place"}, wantErr: true},
		"CheckAndInPlace":       {reason: "--check writes nothing.", args: []string{"f.yaml", "--check", "--in-place"}, wantErr: true},
		"TwoFiles":              {reason: "One file at most.", args: []string{"a.yaml", "b.yaml"}, wantErr: true},
		"UnknownFlag":           {reason: "Unknown flags are usage errors.", args: []string{"--nope"}, wantErr: true},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			var got migrate.FileOptions
			var out, errOut bytes.Buffer
			s := streams{In: strings.NewReader(""), Out: &out, ErrOut: &errOut}
			root := newRootCmd(s)
			if c, _, err := root.Find([]string{"convert"}); err == nil && c.Name() == "convert" {
				root.RemoveCommand(c)
			}
			root.AddCommand(newConvertCmd(s, func(o migrate.FileOptions) error { got = o; return nil }))
			root.SetArgs(append([]string{"convert"}, tc.args...))
			err := root.Execute()
			if (err != nil) != tc.wantErr {
				t.Fatalf("\n%s\nExecute(): want error %v, got %v", tc.reason, tc.wantErr, err)
			}
			if tc.wantErr {
				if code := exitCodeReported(err, s); code != exitInvalid {
					t.Errorf("\n%s\nexit code: want %d, got %d", tc.reason, exitInvalid, code)
				}
				return
			}
			if diff := cmp.Diff(tc.want, got, cmpopts.IgnoreUnexported(convert.Options{}), cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("\n%s\noptions: -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}

func TestConvertCmd(t *testing.T) {
	type file struct {
		name, content string
		mode          os.FileMode
	}
	cases := map[string]struct {
		reason     string
		files      []file
		stdin      string
		args       []string // "$D" is replaced by the temporary directory
		wantCode   int
		wantStdout string
		wantStderr []string // substrings
		wantFiles  map[string]string
		wantMode   map[string]os.FileMode
	}{
		"Stdout": {
			reason:     "A file is converted to stdout; findings go to stderr.",
			files:      []file{{"c.yaml", convertLegacy, 0o644}},
			args:       []string{"$D/c.yaml"},
			wantStdout: convertConverted,
			wantStderr: []string{"c.yaml:9: C204 warning: spec.resources: named the unnamed templates resource-0"},
		},
		"Stdin": {
			reason:     "- reads stdin.",
			stdin:      convertLegacy,
			args:       []string{"-"},
			wantStdout: convertConverted,
			wantStderr: []string{"<stdin>:9: C204 warning"},
		},
		"InPlace": {
			reason:    "--in-place replaces the file and keeps its mode; --backup-suffix keeps the original.",
			files:     []file{{"c.yaml", convertLegacy, 0o600}},
			args:      []string{"$D/c.yaml", "--in-place", "--backup-suffix", ".orig"},
			wantFiles: map[string]string{"c.yaml": convertConverted, "c.yaml.orig": convertLegacy},
			wantMode:  map[string]os.FileMode{"c.yaml": 0o600},
		},
		"Output": {
			reason:    "-o writes the result to a file.",
			files:     []file{{"c.yaml", convertLegacy, 0o640}},
			args:      []string{"$D/c.yaml", "-o", "$D/out.yaml"},
			wantFiles: map[string]string{"c.yaml": convertLegacy, "out.yaml": convertConverted},
			wantMode:  map[string]os.FileMode{"out.yaml": 0o640},
		},
		"OutputNamedLikeAFormat": {
			reason:     "-o json names a file called json, which is never what the user meant: refused with a hint, nothing written.",
			files:      []file{{"c.yaml", convertLegacy, 0o640}},
			args:       []string{"$D/c.yaml", "-o", "json"},
			wantCode:   exitInvalid,
			wantStderr: []string{"--output-format json"},
			wantFiles:  map[string]string{"c.yaml": convertLegacy},
		},
		"OutputFormat": {
			reason:     "--output-format json writes JSON on stdout.",
			files:      []file{{"c.yaml", convertLegacy, 0o640}},
			args:       []string{"$D/c.yaml", "--output-format", "json"},
			wantStdout: "\n\"mode\": \"Pipeline\"",
			wantFiles:  map[string]string{"c.yaml": convertLegacy},
		},
		"CheckChanged": {
			reason:     "--check exits 3 when the file would change, and writes nothing.",
			files:      []file{{"c.yaml", convertLegacy, 0o644}},
			args:       []string{"$D/c.yaml", "--check"},
			wantCode:   exitDifferences,
			wantStderr: []string{"c.yaml would change"},
			wantFiles:  map[string]string{"c.yaml": convertLegacy},
		},
		"CheckUnchanged": {
			reason:    "--check exits 0 when the file is converted already.",
			files:     []file{{"c.yaml", convertConverted, 0o644}},
			args:      []string{"$D/c.yaml", "--check"},
			wantFiles: map[string]string{"c.yaml": convertConverted},
		},
		"Diff": {
			reason:     "--diff prints a unified diff.",
			files:      []file{{"c.yaml", convertLegacy, 0o644}},
			args:       []string{"$D/c.yaml", "--diff"},
			wantStdout: "\n-  resources:\n-  - base: {apiVersion: sqs.example.org/v1, kind: Queue}\n",
			wantFiles:  map[string]string{"c.yaml": convertLegacy},
		},
		"Failed": {
			reason:     "A Composition that cannot be converted exits 1 and writes nothing.",
			files:      []file{{"c.yaml", convertBroken, 0o644}},
			args:       []string{"$D/c.yaml", "--in-place"},
			wantCode:   exitError,
			wantStderr: []string{"c.yaml:9: C109 error", "cannot convert", "nothing written"},
			wantFiles:  map[string]string{"c.yaml": convertBroken},
		},
		"NotYAML": {
			reason:     "Input that is not YAML exits 2, naming the line, and writes nothing.",
			files:      []file{{"c.yaml", "a: 1\n---\nb: [\n", 0o644}},
			args:       []string{"$D/c.yaml", "--in-place"},
			wantCode:   exitInvalid,
			wantStderr: []string{"c.yaml:3: C102 error: cannot parse YAML"},
			wantFiles:  map[string]string{"c.yaml": "a: 1\n---\nb: [\n"},
		},
		"Strict": {
			reason:     "--strict fails on warnings.",
			files:      []file{{"c.yaml", convertLegacy, 0o644}},
			args:       []string{"$D/c.yaml", "--strict", "--in-place"},
			wantCode:   exitError,
			wantStderr: []string{"C204 error"},
			wantFiles:  map[string]string{"c.yaml": convertLegacy},
		},
		"Phase1": {
			reason:     "--phase1 writes the Resources-mode Composition with names.",
			files:      []file{{"c.yaml", convertLegacy, 0o644}},
			args:       []string{"$D/c.yaml", "--phase1"},
			wantStdout: strings.Replace(convertLegacy, "  - base:", "  - name: resource-0\n    base:", 1),
		},
		"Phase1Out": {
			reason:     "--phase1-out writes phase one beside the conversion.",
			files:      []file{{"c.yaml", convertLegacy, 0o644}},
			args:       []string{"$D/c.yaml", "--phase1-out", "$D/p1.yaml"},
			wantStdout: convertConverted,
			wantFiles:  map[string]string{"p1.yaml": strings.Replace(convertLegacy, "  - base:", "  - name: resource-0\n    base:", 1)},
		},
		"JSONStaysJSON": {
			reason:     "A JSON input gives JSON output.",
			files:      []file{{"c.json", `{"apiVersion": "apiextensions.crossplane.io/v1", "kind": "Composition", "metadata": {"name": "c"}, "spec": {"compositeTypeRef": {"apiVersion": "a/v1", "kind": "X"}, "resources": [{"name": "a", "base": {"apiVersion": "v1", "kind": "A"}}]}}`, 0o644}},
			args:       []string{"$D/c.json"},
			wantStdout: "\n  \"spec\": {\n    \"compositeTypeRef\": {\n      \"apiVersion\": \"a/v1\",\n      \"kind\": \"X\"\n    },\n    \"mode\": \"Pipeline\",\n",
		},
		"FixQuirk": {
			reason:     "--fix-quirk C325 inserts the int64 convert on purpose, reports C325 and annotates the Composition.",
			files:      []file{{"c.yaml", convertSize, 0o644}},
			args:       []string{"$D/c.yaml", "--fix-quirk", "C325"},
			wantStdout: "\n    xpmigrate.io/intended-changes: \"C325\"\n",
			wantStderr: []string{"C325 info", "quirk fixed on request: integer verb now prints the integer (intended change)"},
		},
		"IntegerFormatDefault": {
			reason:     "Without an XRD the converter cannot prove the value an integer: C212, no convert.",
			files:      []file{{"c.yaml", convertSize, 0o644}},
			args:       []string{"$D/c.yaml"},
			wantStdout: "\n          transforms: [{type: string, string: {type: Format, fmt: 'q-%d'}}]\n",
			wantStderr: []string{"c.yaml:12: C212 warning"},
		},
		"IntegerFormatXRD": {
			reason:     "--xrd types the field integer: the convert restores native output (C323).",
			files:      []file{{"c.yaml", convertSize, 0o644}, {"xrd.yaml", convertSizeXRD, 0o644}},
			args:       []string{"$D/c.yaml", "--xrd", "$D/xrd.yaml"},
			wantStdout: "\n          transforms: [{type: convert, convert: {toType: int64}}, {type: string, string: {type: Format, fmt: 'q-%d'}}]\n",
			wantStderr: []string{"c.yaml:12: C323 info"},
		},
		"BadXRD": {
			reason:     "An --xrd file without an XRD is a usage error.",
			files:      []file{{"c.yaml", convertSize, 0o644}},
			args:       []string{"$D/c.yaml", "--xrd", "$D/c.yaml"},
			wantCode:   exitInvalid,
			wantStderr: []string{"holds no CompositeResourceDefinition"},
		},
		"UnknownQuirk": {
			reason:     "An unknown --fix-quirk code is a usage error listing the allowed ones.",
			files:      []file{{"c.yaml", convertSize, 0o644}},
			args:       []string{"$D/c.yaml", "--fix-quirk", "C323"},
			wantCode:   exitInvalid,
			wantStderr: []string{"--fix-quirk must be one of C325, not \"C323\""},
		},
		"MissingFile": {
			reason:   "A missing file is a usage error.",
			args:     []string{"$D/nope.yaml"},
			wantCode: exitInvalid,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			for _, f := range tc.files {
				if err := os.WriteFile(filepath.Join(dir, f.name), []byte(f.content), f.mode); err != nil {
					t.Fatal(err)
				}
				if err := os.Chmod(filepath.Join(dir, f.name), f.mode); err != nil {
					t.Fatal(err)
				}
			}
			args := make([]string, len(tc.args))
			for i, a := range tc.args {
				args[i] = strings.ReplaceAll(a, "$D", dir)
			}
			code, stdout, stderr := runConvert(t, tc.stdin, args...)
			if code != tc.wantCode {
				t.Errorf("\n%s\nexit code: want %d, got %d\nstderr:\n%s", tc.reason, tc.wantCode, code, stderr)
			}
			switch {
			case tc.wantStdout == "" && stdout != "":
				t.Errorf("\n%s\nstdout: want nothing, got:\n%s", tc.reason, stdout)
			case strings.HasPrefix(tc.wantStdout, "\n"):
				if !strings.Contains(stdout, tc.wantStdout[1:]) {
					t.Errorf("\n%s\nstdout: want it to contain\n%s\ngot:\n%s", tc.reason, tc.wantStdout[1:], stdout)
				}
			default:
				if diff := cmp.Diff(tc.wantStdout, stdout); diff != "" {
					t.Errorf("\n%s\nstdout: -want, +got:\n%s", tc.reason, diff)
				}
			}
			for _, s := range tc.wantStderr {
				if !strings.Contains(stderr, s) {
					t.Errorf("\n%s\nstderr: want it to contain %q, got:\n%s", tc.reason, s, stderr)
				}
			}
			for name, want := range tc.wantFiles {
				got, err := os.ReadFile(filepath.Join(dir, name))
				if err != nil {
					t.Errorf("\n%s\n%s: %v", tc.reason, name, err)
					continue
				}
				if diff := cmp.Diff(want, string(got)); diff != "" {
					t.Errorf("\n%s\n%s: -want, +got:\n%s", tc.reason, name, diff)
				}
			}
			for name, want := range tc.wantMode {
				fi, err := os.Stat(filepath.Join(dir, name))
				if err != nil {
					t.Fatal(err)
				}
				if got := fi.Mode().Perm(); got != want {
					t.Errorf("\n%s\n%s: mode: want %v, got %v", tc.reason, name, want, got)
				}
			}
			entries, _ := os.ReadDir(dir)
			for _, e := range entries {
				if strings.Contains(e.Name(), ".xpmigrate-") {
					t.Errorf("\n%s\na temporary file was left behind: %s", tc.reason, e.Name())
				}
			}
		})
	}
}

func TestConvertCmdJSON(t *testing.T) {
	code, stdout, stderr := runConvert(t, convertLegacy, "-", "--format", "json", "--diagnostics-format", "json")
	if code != exitOK {
		t.Fatalf("exit code: want 0, got %d\n%s", code, stderr)
	}
	var obj map[string]any
	if err := json.Unmarshal([]byte(stdout), &obj); err != nil {
		t.Fatalf("stdout is not JSON: %v\n%s", err, stdout)
	}
	if spec, _ := obj["spec"].(map[string]any); spec["mode"] != "Pipeline" {
		t.Errorf("stdout: want a Pipeline Composition, got %v", obj)
	}
	var report struct {
		File        string `json:"file"`
		Diagnostics []struct {
			Code string `json:"code"`
			Line int    `json:"line"`
		} `json:"diagnostics"`
		Documents []struct {
			Status string `json:"status"`
		} `json:"documents"`
	}
	if err := json.Unmarshal([]byte(stderr), &report); err != nil {
		t.Fatalf("stderr is not JSON: %v\n%s", err, stderr)
	}
	if report.File != "<stdin>" || len(report.Documents) != 1 || report.Documents[0].Status != "converted" ||
		len(report.Diagnostics) == 0 || report.Diagnostics[0].Code != "C204" || report.Diagnostics[0].Line != 9 {
		t.Errorf("stderr: unexpected report:\n%s", stderr)
	}
}

// TestVersionFlag: --version prints what the version command prints.
func TestVersionFlag(t *testing.T) {
	code, out, _ := runCLI("--version")
	_, want, _ := runCLI("version")
	if code != exitOK || out != want || !strings.HasPrefix(out, "xpmigrate ") {
		t.Errorf("xpmigrate --version: exit %d, %q; want 0 and %q", code, out, want)
	}
}
