package main

import (
	"bufio"
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/xpmigrate/xpmigrate/internal/testutil"
)

// TestE2EPackagesListed fails when a package has tests behind the build
// tag e2e that `make e2e` does not run: every such package is in the
// Makefile's E2E_PKGS (the script tier) or E2E_CLUSTER_PKGS (the cluster
// tier).
func TestE2EPackagesListed(t *testing.T) {
	root := testutil.RepoRoot(t)
	mk, err := os.ReadFile(filepath.Join(root, "Makefile"))
	if err != nil {
		t.Fatal(err)
	}
	listed := map[string]bool{}
	for _, v := range []string{"E2E_PKGS", "E2E_CLUSTER_PKGS"} {
		m := regexp.MustCompile(`(?m)^` + v + ` :=(.*)$`).FindSubmatch(mk)
		if m == nil {
			t.Fatalf("Makefile: no %s", v)
		}
		for _, p := range strings.Fields(string(m[1])) {
			listed[strings.TrimSuffix(strings.TrimSuffix(strings.TrimPrefix(p, "./"), "..."), "/")] = true
		}
	}
	var unlisted []string
	tag := regexp.MustCompile(`^//go:build .*\be2e\b`)
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".") && path != root) {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, "_test.go") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		_, first, _ := bufio.ScanLines(b, true)
		if !tag.Match(bytes.TrimSpace(first)) {
			return nil
		}
		rel, _ := filepath.Rel(root, filepath.Dir(path))
		for p := rel; ; p = filepath.Dir(p) {
			if listed[p] {
				return nil
			}
			if p == "." || p == "/" {
				break
			}
		}
		unlisted = append(unlisted, rel)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(unlisted)
	unlisted = compactStrings(unlisted)
	if diff := cmp.Diff([]string(nil), unlisted); diff != "" {
		t.Errorf("packages with e2e tests that make e2e does not run (add them to E2E_PKGS or E2E_CLUSTER_PKGS): -want, +got:\n%s", diff)
	}
}

func compactStrings(s []string) []string {
	var out []string
	for i, v := range s {
		if i == 0 || v != s[i-1] {
			out = append(out, v)
		}
	}
	return out
}
