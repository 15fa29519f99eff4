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
	var listed []string
	for _, v := range []string{"E2E_PKGS", "E2E_CLUSTER_PKGS"} {
		m := regexp.MustCompile(`(?m)^` + v + ` :=(.*)$`).FindSubmatch(mk)
		if m == nil {
			t.Fatalf("Makefile: no %s", v)
		}
		listed = append(listed, strings.Fields(string(m[1]))...)
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
		if !packageListed(listed, filepath.ToSlash(rel)) {
			unlisted = append(unlisted, rel)
		}
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

// packageListed reports whether go test, given the package patterns
// listed (./a/b/ or ./a/...), runs the package in directory rel (a/b/c,
// slash-separated): a pattern names its own directory, and with /... every
// directory below it too.
func packageListed(listed []string, rel string) bool {
	for _, p := range listed {
		dir, all := strings.CutSuffix(strings.TrimPrefix(p, "./"), "...")
		dir = strings.TrimSuffix(dir, "/")
		if dir == "" {
			dir = "."
		}
		if rel == dir || all && (dir == "." || strings.HasPrefix(rel, dir+"/")) {
			return true
		}
	}
	return false
}

func TestPackageListed(t *testing.T) {
	listed := []string{"./e2e/...", "./convert/migrate/", "./internal/kubetest"}
	cases := map[string]struct {
		reason string
		rel    string
		want   bool
	}{
		"ExactDirectory":          {"A pattern names its own directory.", "convert/migrate", true},
		"WithoutTrailingSlash":    {"./a/b names a/b as ./a/b/ does.", "internal/kubetest", true},
		"WildcardRoot":            {"./e2e/... names e2e itself.", "e2e", true},
		"WildcardBelow":           {"./e2e/... names every directory below e2e.", "e2e/deep/pkg", true},
		"SubdirectoryNotWildcard": {"./convert/migrate/ does not run convert/migrate/v2e2e: go test needs /... for that.", "convert/migrate/v2e2e", false},
		"PrefixIsNotParent":       {"./e2e/... does not name e2efoo.", "e2efoo", false},
		"Unlisted":                {"A directory no pattern names is not listed.", "internal/cluster", false},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if got := packageListed(listed, tc.rel); got != tc.want {
				t.Errorf("%s\npackageListed(%q): want %v, got %v", tc.reason, tc.rel, tc.want, got)
			}
		})
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
