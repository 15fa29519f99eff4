package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/xpmigrate/xpmigrate/convert/migrate"
	"github.com/xpmigrate/xpmigrate/internal/testutil"
)

const migrateLegacy = `# Things.
apiVersion: apiextensions.crossplane.io/v1
kind: Composition
metadata:
  name: things
spec:
  compositeTypeRef:
    apiVersion: example.org/v1
    kind: XThing
  resources:
  - name: bucket
    base:
      apiVersion: s3.example.org/v1
      kind: Bucket
      spec: {}
    patches:
    - fromFieldPath: spec.size # the size
      toFieldPath: spec.forProvider.size
`

const migratePipeline = `apiVersion: apiextensions.crossplane.io/v1
kind: Composition
metadata:
  name: done
spec:
  compositeTypeRef:
    apiVersion: example.org/v1
    kind: XThing
  mode: Pipeline
  pipeline:
  - step: patch-and-transform
    functionRef:
      name: function-patch-and-transform
    input:
      apiVersion: pt.fn.crossplane.io/v1beta1
      kind: Resources
      resources:
      - name: bucket
        base:
          apiVersion: s3.example.org/v1
          kind: Bucket
`

// migrateXR is an XR for migrateLegacy.
const migrateXR = testutil.ThingsXR

// differingVerifier finds an unexplained difference in every conversion.
type differingVerifier struct{}

func (differingVerifier) Verify(_ context.Context, req migrate.VerifyRequest) (*migrate.Verification, error) {
	v := &migrate.Verification{}
	for _, s := range req.Samples {
		v.Samples = append(v.Samples, migrate.SampleResult{Source: s.Source, Differences: []migrate.Difference{{Path: "xr.status.size", Legacy: "small"}}})
	}
	return v, nil
}

// executeMigrate runs `xpmigrate migrate args...` with deps and returns the
// exit code run() would give, stdout and stderr.
func executeMigrate(t *testing.T, deps migrateDeps, args ...string) (int, string, string) {
	t.Helper()
	return executeMigrateOn(t, streams{}, deps, args...)
}

// executeMigrateOn is executeMigrate with the terminal state of s.
func executeMigrateOn(t *testing.T, s streams, deps migrateDeps, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	s.In, s.Out, s.ErrOut = strings.NewReader(""), &out, &errOut
	root := newRootCmd(s)
	// Replace the registered command with one using deps.
	if c, _, err := root.Find([]string{"migrate"}); err == nil && c != root {
		root.RemoveCommand(c)
	}
	root.AddCommand(newMigrateCmdWith(s, deps))
	root.SetArgs(append([]string{"migrate"}, args...))
	err := root.Execute()
	if err != nil {
		errOut.WriteString("xpmigrate: " + err.Error() + "\n")
	}
	return exitCode(err), out.String(), errOut.String()
}

func migrateTree(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "repo")
	for name, body := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func readFile(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestMigrateCommand(t *testing.T) {
	legacyTree := map[string]string{"apis/composition.yaml": migrateLegacy, "examples/xr.yaml": migrateXR, "README.md": "# hi\n"}
	cleanTree := map[string]string{"apis/composition.yaml": migratePipeline}

	type want struct {
		code int
		// stdout and stderr must contain these.
		out, errOut []string
		// changed reports whether apis/composition.yaml changes.
		changed bool
	}
	cases := map[string]struct {
		reason string
		tree   map[string]string
		// args are the arguments after the tree's path; {out} and
		// {report} are replaced by paths in a scratch directory.
		args []string
		deps migrateDeps
		// tty is the terminal state of the streams.
		tty   streams
		setup func(t *testing.T, dir string)
		check func(t *testing.T, dir, scratch string)
		want  want
	}{
		"InPlace": {
			reason: "Without flags the legacy Composition is converted in place and verified with the example.",
			tree:   legacyTree,
			want: want{code: exitOK, changed: true, errOut: []string{
				"converted      apis/composition.yaml",
				"compositions: 1 (1 legacy): 1 converted, 0 failed",
				"verification: 1 equivalent",
			}},
			check: func(t *testing.T, dir, _ string) {
				got := readFile(t, filepath.Join(dir, "apis/composition.yaml"))
				for _, s := range []string{"mode: Pipeline", "# Things.", "# the size"} {
					if !strings.Contains(got, s) {
						t.Errorf("converted file lacks %q:\n%s", s, got)
					}
				}
			},
		},
		"WiresFunctions": {
			reason: "The converted Composition's functions get a pinned manifest beside it, listed as a changed file; --functions-out moves it.",
			tree:   legacyTree,
			args:   []string{"--functions-out", "platform/fns.yaml"},
			want: want{code: exitOK, changed: true, errOut: []string{
				"converted      platform/fns.yaml",
			}},
			check: func(t *testing.T, dir, _ string) {
				got := readFile(t, filepath.Join(dir, "platform/fns.yaml"))
				if !strings.Contains(got, "package: xpkg.crossplane.io/crossplane-contrib/function-patch-and-transform:v0.10.8") {
					t.Errorf("functions file lacks the pinned function-patch-and-transform:\n%s", got)
				}
			},
		},
		"CheckWouldChange": {
			reason: "--check writes nothing and exits 3 when a file would change.",
			tree:   legacyTree,
			args:   []string{"--check"},
			want:   want{code: exitDifferences, errOut: []string{"2 files would change"}},
		},
		"CheckDiff": {
			reason: "--check --diff prints the diff on stdout, writes nothing, exits 3.",
			tree:   legacyTree,
			args:   []string{"--check", "--diff"},
			want:   want{code: exitDifferences, out: []string{"--- a/apis/composition.yaml", "+++ b/apis/composition.yaml", "+  mode: Pipeline"}},
		},
		"CheckClean": {
			reason: "--check on a migrated tree exits 0.",
			tree:   cleanTree,
			args:   []string{"--check"},
			want:   want{code: exitOK, errOut: []string{"files: 1: 0 converted, 1 unchanged"}},
		},
		"CheckLegacyInTemplateFile": {
			reason: "A legacy Composition left in a template file (.yaml.in) fails --check, with what to do.",
			tree:   map[string]string{"apis/composition.yaml": migratePipeline, "chart/composition.yaml.in": migrateLegacy},
			args:   []string{"--check"},
			want:   want{code: exitDifferences, errOut: []string{"chart/composition.yaml.in", "M402", "render it and convert the output", "1 files still hold a legacy Composition"}},
		},
		"AllowLegacy": {
			reason: "--allow-legacy exempts a path on purpose: the leftover is reported, --check passes.",
			tree:   map[string]string{"apis/composition.yaml": migratePipeline, "chart/composition.yaml.in": migrateLegacy},
			args:   []string{"--check", "--allow-legacy", "chart/**"},
			want:   want{code: exitOK, errOut: []string{"chart/composition.yaml.in"}},
		},
		"DryRun": {
			reason: "--dry-run reports the change, writes nothing, and exits 0.",
			tree:   legacyTree,
			args:   []string{"--dry-run"},
			want:   want{code: exitOK, errOut: []string{"(nothing written)"}},
		},
		"Out": {
			reason: "--out writes a converted copy with every file, and leaves the tree alone.",
			tree:   legacyTree,
			args:   []string{"--out", "{out}"},
			want:   want{code: exitOK, errOut: []string{"(written to the output tree)"}},
			check: func(t *testing.T, _, scratch string) {
				out := filepath.Join(scratch, "out")
				if got := readFile(t, filepath.Join(out, "apis/composition.yaml")); !strings.Contains(got, "mode: Pipeline") {
					t.Errorf("--out copy not converted:\n%s", got)
				}
				if diff := cmp.Diff("# hi\n", readFile(t, filepath.Join(out, "README.md"))); diff != "" {
					t.Errorf("README.md copy: -want, +got:\n%s", diff)
				}
			},
		},
		"ReadOnly": {
			reason: "A read-only file that needs converting fails the run (exit 1) and is left alone.",
			tree:   legacyTree,
			setup: func(t *testing.T, dir string) {
				if err := os.Chmod(filepath.Join(dir, "apis/composition.yaml"), 0o444); err != nil {
					t.Fatal(err)
				}
			},
			want: want{code: exitError, errOut: []string{"failed   apis/composition.yaml: read-only"}},
		},
		"Differences": {
			reason: "An unexplained verification difference exits 3, and the file is held back, not written.",
			tree:   legacyTree,
			deps:   migrateDeps{verifier: func(bool) migrate.Verifier { return differingVerifier{} }},
			want:   want{code: exitDifferences, changed: false, errOut: []string{"held-back", "apis/composition.yaml", "different   apis/composition.yaml#0 things", "1 verifications fail: 1 render differently"}},
		},
		"DifferencesForce": {
			reason: "--force writes a conversion that fails verification, and still exits 3.",
			tree:   legacyTree,
			args:   []string{"--force"},
			deps:   migrateDeps{verifier: func(bool) migrate.Verifier { return differingVerifier{} }},
			want:   want{code: exitDifferences, changed: true, errOut: []string{"different   apis/composition.yaml#0 things"}},
		},
		"ReportDirectoryMissing": {
			reason: "A --report in a directory that does not exist is refused before anything is written.",
			tree:   legacyTree,
			args:   []string{"--report", "{report}/missing/report.json"},
			want:   want{code: exitInvalid, changed: false, errOut: []string{"does not exist"}},
		},
		"Reports": {
			reason: "--report writes the JSON report.",
			tree:   legacyTree,
			args:   []string{"--report", "{report}.json"},
			want:   want{code: exitOK, changed: true, errOut: []string{"report written to"}},
			check: func(t *testing.T, _, scratch string) {
				got := readFile(t, filepath.Join(scratch, "report.json"))
				for _, s := range []string{`"reportVersion": 1`, `"status": "converted"`, `"status": "equivalent"`} {
					if !strings.Contains(got, s) {
						t.Errorf("report lacks %q", s)
					}
				}
			},
		},
		"TerminalProgress": {
			reason: "On a terminal the progress is a bar redrawn in place, cleared at the end.",
			tree:   legacyTree,
			args:   []string{"--dry-run"},
			tty:    streams{ErrTTY: true, ErrWidth: 60},
			want:   want{code: exitOK, errOut: []string{"\r\x1b[K[", "] 1/2 ", "files: 3:"}},
		},
		"OutAndCheck": {
			reason: "--out with --check is a usage error.",
			tree:   legacyTree,
			args:   []string{"--out", "{out}", "--check"},
			want:   want{code: exitInvalid, errOut: []string{"choose one"}},
		},
		"FixQuirk": {
			reason: "--fix-quirk C325 reaches the converter: the %d format gets its int64 convert and the Composition the intended-changes annotation.",
			tree: map[string]string{"apis/composition.yaml": strings.Replace(migrateLegacy, "      toFieldPath: spec.forProvider.size\n",
				"      toFieldPath: spec.forProvider.size\n      transforms: [{type: string, string: {type: Format, fmt: '%d GiB'}}]\n", 1)},
			args: []string{"--fix-quirk", "C325", "--verify=false"},
			want: want{code: exitOK, changed: true},
			check: func(t *testing.T, dir, _ string) {
				got := readFile(t, filepath.Join(dir, "apis/composition.yaml"))
				for _, s := range []string{"xpmigrate.io/intended-changes: \"C325\"", "{type: convert, convert: {toType: int64}}"} {
					if !strings.Contains(got, s) {
						t.Errorf("converted file lacks %q:\n%s", s, got)
					}
				}
			},
		},
		"BadFixQuirk": {
			reason: "An unknown --fix-quirk code is a usage error listing the allowed ones.",
			tree:   legacyTree,
			args:   []string{"--fix-quirk", "C999"},
			want:   want{code: exitInvalid, errOut: []string{"--fix-quirk must be one of C325, not \"C999\""}},
		},
		"ProviderCRDsMissing": {
			reason: "A --provider-crds path that cannot be read is a usage error, before anything is written.",
			tree:   legacyTree,
			args:   []string{"--provider-crds", "{out}/absent"},
			want:   want{code: exitInvalid, changed: false, errOut: []string{"cannot read --provider-crds"}},
		},
		"BadProviderConfigKind": {
			reason: "--provider-config-kind takes the two kinds only.",
			tree:   legacyTree,
			args:   []string{"--provider-config-kind", "Secret"},
			want:   want{code: exitInvalid, errOut: []string{"--provider-config-kind must be"}},
		},
		"BadTarget": {
			reason: "An unknown --target is a usage error.",
			tree:   legacyTree,
			args:   []string{"--target", "v3"},
			want:   want{code: exitInvalid, errOut: []string{"--target must be v1 or v2"}},
		},
		"XRScopeWithoutV2": {
			reason: "--xr-scope is a usage error without --target v2.",
			tree:   legacyTree,
			args:   []string{"--xr-scope", "namespaced"},
			want:   want{code: exitInvalid, errOut: []string{"--xr-scope needs --target v2"}},
		},
		"XRGroupWithoutNewGroup": {
			reason: "--xr-group is a usage error without --xr-naming new-group.",
			tree:   legacyTree,
			args:   []string{"--target", "v2", "--xr-group", "platform.example.org"},
			want:   want{code: exitInvalid, errOut: []string{"--xr-group needs --xr-naming new-group"}},
		},
		"BadReport": {
			reason: "A report name without a known extension is a usage error.",
			tree:   legacyTree,
			args:   []string{"--report", "{report}.txt"},
			want:   want{code: exitInvalid, errOut: []string{"must end in .json, .md or .html"}},
		},
		"BadGlob": {
			reason: "An --exclude that is not a glob is a usage error.",
			tree:   legacyTree,
			args:   []string{"--exclude", "!x"},
			want:   want{code: exitInvalid, errOut: []string{`invalid glob "!x"`}},
		},
		"UnknownFlag": {
			reason: "An unknown flag is a usage error.",
			tree:   legacyTree,
			args:   []string{"--frobnicate"},
			want:   want{code: exitInvalid, errOut: []string{"unknown flag"}},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			dir := migrateTree(t, tc.tree)
			scratch := t.TempDir()
			if tc.setup != nil {
				tc.setup(t, dir)
			}
			before := readFile(t, filepath.Join(dir, "apis/composition.yaml"))
			args := []string{dir}
			for _, a := range tc.args {
				a = strings.ReplaceAll(a, "{out}", filepath.Join(scratch, "out"))
				a = strings.ReplaceAll(a, "{report}", filepath.Join(scratch, "report"))
				args = append(args, a)
			}
			code, out, errOut := executeMigrateOn(t, tc.tty, tc.deps, args...)
			if code != tc.want.code {
				t.Errorf("%s\nmigrate %v: exit code: want %d, got %d\nstderr:\n%s", tc.reason, tc.args, tc.want.code, code, errOut)
			}
			for _, s := range tc.want.out {
				if !strings.Contains(out, s) {
					t.Errorf("%s\nmigrate %v: stdout lacks %q:\n%s", tc.reason, tc.args, s, out)
				}
			}
			for _, s := range tc.want.errOut {
				if !strings.Contains(errOut, s) {
					t.Errorf("%s\nmigrate %v: stderr lacks %q:\n%s", tc.reason, tc.args, s, errOut)
				}
			}
			after := readFile(t, filepath.Join(dir, "apis/composition.yaml"))
			if changed := after != before; changed != tc.want.changed {
				t.Errorf("%s\nmigrate %v: apis/composition.yaml changed: want %t, got %t", tc.reason, tc.args, tc.want.changed, changed)
			}
			if tc.check != nil {
				tc.check(t, dir, scratch)
			}
		})
	}
}

func TestMigrateNotADirectory(t *testing.T) {
	code, _, errOut := executeMigrate(t, migrateDeps{}, filepath.Join(t.TempDir(), "missing"))
	if code != exitInvalid {
		t.Errorf("migrate <missing>: exit code: want %d, got %d\n%s", exitInvalid, code, errOut)
	}
	code, _, errOut = executeMigrate(t, migrateDeps{}, "a", "b")
	if code != exitInvalid {
		t.Errorf("migrate a b: exit code: want %d, got %d\n%s", exitInvalid, code, errOut)
	}
}
