package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/xpmigrate/xpmigrate/internal/testutil"
)

var (
	citationRe = regexp.MustCompile(`\(test:([^)]*)\)`)
	citedRe    = regexp.MustCompile(`\bTest[A-Za-z0-9_]+(?:/[A-Za-z0-9_-]+)?`)
	testFuncRe = regexp.MustCompile(`(?m)^func (Test[A-Za-z0-9_]+)\(`)
	caseKeyRe  = regexp.MustCompile(`"([A-Za-z0-9_-]+)":\s*{`)
)

// TestSafetyDocCitesTests: every promise of docs/safety.md (each bullet,
// and the exit codes) names the test that backs it, "(test: TestName)",
// and every test it names exists in the tree: a function TestName in a
// _test.go file, and for TestName/Case a case of that name in a test table
// or an e2e script Case.txtar.
func TestSafetyDocCitesTests(t *testing.T) {
	root := testutil.RepoRoot(t)
	doc, err := os.ReadFile(filepath.Join(root, "docs", "safety.md"))
	if err != nil {
		t.Fatal(err)
	}
	funcs, cases := map[string]bool{}, map[string]bool{}
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		switch {
		case strings.HasSuffix(p, "_test.go"):
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			for _, m := range testFuncRe.FindAllSubmatch(b, -1) {
				funcs[string(m[1])] = true
			}
			for _, m := range caseKeyRe.FindAllSubmatch(b, -1) {
				cases[string(m[1])] = true
			}
		case strings.HasSuffix(p, ".txtar") && strings.Contains(filepath.ToSlash(p), "testdata/script/"):
			cases[strings.TrimSuffix(d.Name(), ".txtar")] = true
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}

	cited := 0
	for _, c := range citationRe.FindAllStringSubmatch(string(doc), -1) {
		for _, name := range citedRe.FindAllString(c[1], -1) {
			cited++
			fn, sub, _ := strings.Cut(name, "/")
			if !funcs[fn] {
				t.Errorf("docs/safety.md cites %s: no func %s in a _test.go file", name, fn)
			}
			if sub != "" && !cases[sub] {
				t.Errorf("docs/safety.md cites %s: no test case or e2e script %q", name, sub)
			}
		}
	}
	if cited == 0 {
		t.Fatalf("docs/safety.md cites no test")
	}

	// Every bullet (with its continuation lines and sub-bullets) and the
	// exit codes paragraph cite a test.
	for _, b := range promises(string(doc)) {
		if !strings.Contains(b, "(test:") {
			t.Errorf("docs/safety.md: a promise names no test:\n%s", b)
		}
	}
}

// promises splits doc into its bullets (a bullet holds its sub-bullets and
// continuation lines) and the paragraph of its "Exit codes" section.
func promises(doc string) []string {
	var out []string
	var cur []string
	flush := func() {
		if len(cur) > 0 {
			out = append(out, strings.Join(cur, "\n"))
			cur = nil
		}
	}
	exit := false
	for _, line := range strings.Split(doc, "\n") {
		switch {
		case strings.HasPrefix(line, "## "):
			flush()
			exit = line == "## Exit codes"
		case strings.HasPrefix(line, "* "):
			flush()
			cur = append(cur, line)
		case exit && strings.TrimSpace(line) != "":
			cur = append(cur, line)
		case len(cur) > 0 && (strings.HasPrefix(line, "  ") || strings.HasPrefix(line, "|") || strings.TrimSpace(line) == ""):
			if strings.TrimSpace(line) == "" && !exit {
				// A blank line inside a bullet keeps it (a table
				// follows); the next unindented text ends it.
				cur = append(cur, line)
				continue
			}
			cur = append(cur, line)
		default:
			flush()
		}
	}
	flush()
	return out
}
