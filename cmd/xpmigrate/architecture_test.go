package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/xpmigrate/xpmigrate/internal/testutil"
)

// The generated layer diagram of docs/architecture.md sits between these
// lines.
const (
	layersBegin = "<!-- layers: generated from cmd/xpmigrate/layers_test.go; go test ./cmd/xpmigrate -run TestArchitecture -update -->"
	layersEnd   = "<!-- end of the generated layers -->"
)

// TestArchitecture keeps docs/architecture.md in step with the code: its
// layer diagram is the one TestLayers checks (rewritten with -update), its
// package table has one row for every package `go list` finds and none for
// a package that does not exist, and every Go file it names exists.
func TestArchitecture(t *testing.T) {
	root := testutil.RepoRoot(t)
	path := filepath.Join(root, "docs", "architecture.md")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)

	t.Run("Layers", func(t *testing.T) {
		if len(layerNames) != len(layers) {
			t.Fatalf("layerNames has %d names for %d layers: name every layer", len(layerNames), len(layers))
		}
		start := strings.Index(doc, layersBegin)
		end := strings.Index(doc, layersEnd)
		if start < 0 || end < start {
			t.Fatalf("docs/architecture.md: no %q ... %q block", layersBegin, layersEnd)
		}
		start += len(layersBegin) + 1
		want := layerDiagram(layerNames, layers)
		if testutil.Update() {
			doc = doc[:start] + want + doc[end:]
			if err := os.WriteFile(path, []byte(doc), 0o600); err != nil {
				t.Fatal(err)
			}
			return
		}
		if diff := cmp.Diff(want, doc[start:end]); diff != "" {
			t.Errorf("docs/architecture.md's layer diagram is not TestLayers' order (run go test ./cmd/xpmigrate -run TestArchitecture -update): -want, +got:\n%s", diff)
		}
	})

	t.Run("Packages", func(t *testing.T) {
		cmd := exec.Command("go", "list", "./...")
		cmd.Dir = root
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("go list: %v", err)
		}
		var want []string
		for _, p := range strings.Fields(string(out)) {
			want = append(want, strings.TrimPrefix(p, "github.com/xpmigrate/xpmigrate/"))
		}
		sort.Strings(want)
		got := tablePackages(doc)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("docs/architecture.md's package table is not go list's packages (a row per package, no row for one that does not exist): -go list, +table:\n%s", diff)
		}
	})

	t.Run("README", func(t *testing.T) {
		b, err := os.ReadFile(filepath.Join(root, "README.md"))
		if err != nil {
			t.Fatal(err)
		}
		_, table, _ := strings.Cut(string(b), "| Part | Package | State |")
		table, _, _ = strings.Cut(table, "\n\n")
		for _, line := range strings.Split(table, "\n") {
			cells := strings.Split(line, "|")
			if len(cells) < 4 {
				continue
			}
			for _, c := range codeSpan.FindAllStringSubmatch(cells[2], -1) {
				if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(c[1]), "doc.go")); err != nil {
					t.Errorf("README.md's status table names package %s, which does not exist", c[1])
				}
			}
		}
	})

	t.Run("Files", func(t *testing.T) {
		for _, f := range goFiles(doc) {
			if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(f))); err != nil {
				t.Errorf("docs/architecture.md names %s, which does not exist", f)
			}
		}
	})
}

// layerDiagram draws the layers top first: the number, the name and the
// packages, wrapped at 100 columns.
func layerDiagram(names []string, layers [][]string) string {
	width := 0
	for _, n := range names {
		width = max(width, len(n))
	}
	var b strings.Builder
	b.WriteString("```text\n")
	for i := len(layers) - 1; i >= 0; i-- {
		head := fmt.Sprintf("%2d %-*s  ", i, width, names[i])
		line := head
		for j, p := range layers[i] {
			sep := ""
			if j > 0 {
				sep = " · "
			}
			if j > 0 && len(line)+len(sep)+len(p) > 100 {
				b.WriteString(strings.TrimRight(line, " ") + "\n")
				line = strings.Repeat(" ", len(head))
				sep = "· "
			}
			line += sep + p
		}
		b.WriteString(line + "\n")
	}
	b.WriteString("```\n")
	return b.String()
}

var (
	tableRow = regexp.MustCompile("^\\| (`[^|]*) \\|")
	codeSpan = regexp.MustCompile("`([^`]+)`")
	goFile   = regexp.MustCompile("`([A-Za-z0-9_./-]+/[A-Za-z0-9_-]+\\.go)`")
)

// tablePackages are the packages the first column of the package table
// names, sorted.
func tablePackages(doc string) []string {
	_, table, _ := strings.Cut(doc, "| Package | Role |")
	table, _, _ = strings.Cut(table, "\n\n")
	var out []string
	for _, line := range strings.Split(table, "\n") {
		m := tableRow.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		for _, c := range codeSpan.FindAllStringSubmatch(m[1], -1) {
			out = append(out, c[1])
		}
	}
	sort.Strings(out)
	return out
}

// goFiles are the Go files (with a folder) the document names in code
// spans.
func goFiles(doc string) []string {
	var out []string
	for _, m := range goFile.FindAllStringSubmatch(doc, -1) {
		out = append(out, m[1])
	}
	return out
}
