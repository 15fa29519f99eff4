package main

import (
	"bufio"
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
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

// TestE2EBuildsOnce fails when an e2e tier builds xpmigrate more than
// once: the Makefile's e2e-scripts and e2e-cluster must depend on build
// (so bin/xpmigrate is never stale) and hand bin/xpmigrate to every test
// package as XPMIGRATE_BIN, and no test outside internal/testutil (whose
// BuildXpmigrate honours XPMIGRATE_BIN) may run go build itself.
func TestE2EBuildsOnce(t *testing.T) {
	root := testutil.RepoRoot(t)
	mk, err := os.ReadFile(filepath.Join(root, "Makefile"))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	if m := regexp.MustCompile(`(?m)^build:\n\t\$\(GO\) build -o (\S+) \./cmd/xpmigrate$`).FindSubmatch(mk); m == nil {
		got = append(got, "Makefile: build does not write bin/xpmigrate")
	} else if want := "XPMIGRATE_BIN := $(CURDIR)/" + string(m[1]); !bytes.Contains(mk, []byte("\n"+want+"\n")) {
		got = append(got, "Makefile: no "+want)
	}
	for _, target := range []string{"e2e-scripts", "e2e-cluster"} {
		m := regexp.MustCompile(`(?m)^` + target + `:(.*)\n((?:\t.*\n)+)`).FindSubmatch(mk)
		if m == nil {
			got = append(got, "Makefile: no target "+target)
			continue
		}
		if !slices.Contains(strings.Fields(string(m[1])), "build") {
			got = append(got, "Makefile: "+target+" does not depend on build")
		}
		for _, line := range strings.Split(strings.TrimSpace(string(m[2])), "\n") {
			if strings.Contains(line, "$(GO) test") && !strings.Contains(line, "XPMIGRATE_BIN=$(XPMIGRATE_BIN) ") {
				got = append(got, "Makefile: "+target+" runs go test without XPMIGRATE_BIN")
			}
		}
	}
	// e2e/crossplane is one package in its own tier (make e2e-crossplane):
	// it builds xpmigrate once, beside the test provider it builds too.
	allowed := map[string]bool{"internal/testutil/binary.go": true, "e2e/crossplane/platform_test.go": true}
	goBuild := regexp.MustCompile(`"go",\s*"build"`)
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".") && path != root) {
			return filepath.SkipDir
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		if d.IsDir() || !strings.HasSuffix(path, "_test.go") && !strings.HasPrefix(rel, "internal/testutil/") || allowed[rel] {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if goBuild.Match(b) {
			got = append(got, rel+": runs go build (use testutil.BuildXpmigrate)")
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string(nil), got); diff != "" {
		t.Errorf("TestE2EBuildsOnce: the e2e tiers build xpmigrate more than once: -want, +got:\n%s", diff)
	}
}
