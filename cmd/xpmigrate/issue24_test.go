package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/xpmigrate/xpmigrate/convert/migrate"
	"github.com/xpmigrate/xpmigrate/internal/crossplane"
	"github.com/xpmigrate/xpmigrate/internal/manifest"
	"github.com/xpmigrate/xpmigrate/render/verify"
)

// execute runs `xpmigrate args...` and returns the exit code run() would
// give, stdout and stderr.
func execute(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	s := streams{In: strings.NewReader(""), Out: &out, ErrOut: &errOut}
	root := newRootCmd(s)
	root.SetArgs(args)
	err := root.Execute()
	if err != nil {
		errOut.WriteString("xpmigrate: " + err.Error() + "\n")
	}
	return exitCode(err), out.String(), errOut.String()
}

// TestIssue24Item3OneConversion: verify's on-the-fly conversion reads the
// XRD (given with --xrd, or found beside the Composition) and is the one
// `convert --xrd` prints and `migrate` writes, byte for byte: a
// Composition that formats an integer XR field with %d verifies.
func TestIssue24Item3OneConversion(t *testing.T) {
	src := filepath.Join("testdata", "issue24", "item3")
	read := func(n string) string {
		b, err := os.ReadFile(filepath.Join(src, n))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	comp, xrd, xr := read("composition.yaml"), read("definition.yaml"), read("xr.yaml")

	// verify, with the XRD given, and with it found beside the Composition.
	dir := writeFiles(t, map[string]string{"composition.yaml": comp, "definition.yaml": xrd, "examples/xr.yaml": xr})
	p := func(n string) string { return filepath.Join(dir, n) }
	for name, args := range map[string][]string{
		"--xrd":  {"verify", p("composition.yaml"), "--xrd", p("definition.yaml"), "--xr", p("examples/xr.yaml")},
		"beside": {"verify", p("composition.yaml")},
		"--xr":   {"verify", p("composition.yaml"), "--xr", p("examples/xr.yaml")},
	} {
		if code, out, errOut := execute(t, args...); code != exitOK || !strings.Contains(out, ": equivalent") {
			t.Errorf("verify (XRD %s): exit %d, want %d (equivalent):\n%s%s", name, code, exitOK, out, errOut)
		}
	}

	// convert --xrd prints it.
	code, converted, errOut := execute(t, "convert", "--xrd", p("definition.yaml"), p("composition.yaml"))
	if code != exitOK {
		t.Fatalf("convert: exit %d:\n%s", code, errOut)
	}
	if !strings.Contains(converted, "toType: int64") {
		t.Errorf("convert --xrd: no int64 convert before the %%d format:\n%s", converted)
	}

	// migrate writes it (the XRD is in the tree).
	repo := migrateTree(t, map[string]string{"composition.yaml": comp, "definition.yaml": xrd})
	if code, _, errOut := executeMigrate(t, migrateDeps{}, repo); code != exitOK {
		t.Fatalf("migrate: exit %d:\n%s", code, errOut)
	}
	migrated, err := os.ReadFile(filepath.Join(repo, "composition.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(converted, string(migrated)); diff != "" {
		t.Errorf("migrate wrote another conversion than convert --xrd prints: -convert, +migrate:\n%s", diff)
	}

	// verify converts it: the converter verify runs, given the XRD.
	obj, err := manifest.DecodeObject([]byte(xrd))
	if err != nil {
		t.Fatal(err)
	}
	checked, err := migrate.VerifyConverter(verify.ConvertRequest{Composition: []byte(comp), Target: crossplane.V1, XRD: obj})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(converted, string(checked)); diff != "" {
		t.Errorf("verify checks another conversion than convert --xrd prints: -convert, +verify:\n%s", diff)
	}
}

// TestIssue24Item7Render: render takes the file.yaml#N that verify prints,
// refuses a file of several documents without it (naming them), and with
// -x on a claim prints the XR the claim controller creates, not the
// claim's name and namespace.
func TestIssue24Item7Render(t *testing.T) {
	other := strings.Replace(testXR, "name: demo", "name: other", 1)
	dir := writeFiles(t, map[string]string{
		"legacy.yaml": testLegacy,
		"xrs.yaml":    testXR + "---\n" + other,
		"xrd.yaml":    verifyXRD,
		"claim.yaml":  verifyClaim,
	})
	p := func(n string) string { return filepath.Join(dir, n) }
	cases := map[string]struct {
		reason   string
		args     []string
		wantCode int
		wantOut  []string
		notOut   []string
		wantErr  []string
	}{
		"SecondDocument": {
			reason:   "xrs.yaml#2 renders the second document.",
			args:     []string{"render", p("xrs.yaml") + "#2", p("legacy.yaml")},
			wantCode: exitOK,
			wantOut:  []string{"name: other"},
			notOut:   []string{"name: demo"},
		},
		"SeveralDocumentsWithoutNumber": {
			reason:   "A file of two documents without #N is invalid input naming both.",
			args:     []string{"render", p("xrs.yaml"), p("legacy.yaml")},
			wantCode: exitInvalid,
			wantErr:  []string{"holds 2 documents", "xrs.yaml#1 (XThing demo)", "xrs.yaml#2 (XThing other)"},
		},
		"NoSuchDocument": {
			reason:   "A document number past the end is invalid input naming the documents there are.",
			args:     []string{"render", p("xrs.yaml") + "#3", p("legacy.yaml")},
			wantCode: exitInvalid,
			wantErr:  []string{"has no document 3"},
		},
		"ClaimFullXR": {
			reason:   "-x on a claim prints the XR created from it: a generated name, no namespace, spec.claimRef.",
			args:     []string{"render", p("claim.yaml"), p("legacy.yaml"), "--xrd", p("xrd.yaml"), "-x"},
			wantCode: exitOK,
			wantOut:  []string{"kind: XThing", "  name: mine-", "claimRef:", "    namespace: team"},
			notOut:   []string{"  namespace: team\nspec", "\nkind: Thing\n", "\n  name: mine\n"},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			code, out, errOut := execute(t, tc.args...)
			if code != tc.wantCode {
				t.Errorf("\n%s\nexit %d, want %d:\n%s%s", tc.reason, code, tc.wantCode, out, errOut)
			}
			xr, _, _ := strings.Cut(strings.TrimPrefix(out, "---\n"), "\n---")
			for _, w := range tc.wantOut {
				if !strings.Contains(xr, w) {
					t.Errorf("\n%s\nthe XR document: want %q in:\n%s", tc.reason, w, xr)
				}
			}
			for _, w := range tc.notOut {
				if strings.Contains(xr, w) {
					t.Errorf("\n%s\nthe XR document: want no %q in:\n%s", tc.reason, w, xr)
				}
			}
			for _, w := range tc.wantErr {
				if !strings.Contains(errOut, w) {
					t.Errorf("\n%s\nstderr: want %q in:\n%s", tc.reason, w, errOut)
				}
			}
		})
	}
}

// TestIssue24Item7GateSummaryNamesTheField: migrate's text summary of a
// Composition whose verification found an unexplained difference names
// the sample and field, with both values, not only the file.
func TestIssue24Item7GateSummaryNamesTheField(t *testing.T) {
	repo := migrateTree(t, map[string]string{"apis/composition.yaml": migrateLegacy, "examples/xr.yaml": migrateXR})
	deps := migrateDeps{verifier: func(bool) migrate.Verifier { return differingVerifier{} }}
	code, _, errOut := executeMigrate(t, deps, repo)
	if code != exitDifferences {
		t.Errorf("migrate: exit %d, want %d:\n%s", code, exitDifferences, errOut)
	}
	want := `different   apis/composition.yaml#0 things: examples/xr.yaml#1: xr.status.size differs (legacy "small", pipeline absent)`
	if !strings.Contains(errOut, want) {
		t.Errorf("migrate: want %q in:\n%s", want, errOut)
	}
}
