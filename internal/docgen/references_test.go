package docgen

import (
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"unicode"

	"github.com/google/go-cmp/cmp"

	"github.com/xpmigrate/xpmigrate/internal/testutil"
)

// leaving are texts that, in a Go file, point at a document outside the
// repository: the section sign (U+00A7, escaped here so that this file has
// none) of the old specifications, their folder,
// and their file names.
var leaving = []struct{ text, why string }{
	{"\u00a7", "a section sign cites a document outside the repository; cite docs/<page>.md#<anchor>"},
	{"../shared", "a path outside the repository"},
	{"shared/spec", "the specifications outside the repository"},
	{"legacy-resources-mode.md", "a specification outside the repository; cite docs/semantics/legacy.md"},
	{"pipeline-mode.md", "a specification outside the repository; cite docs/semantics/pipeline.md"},
	{"observed-differences.md", "a specification outside the repository; cite docs/semantics/differences.md"},
	{"render-output.md", "a specification outside the repository; cite docs/semantics/render-format.md"},
}

// allowedLeaving are the files that may name a place outside the
// repository, and what they may name: the corpus of real Compositions is
// data the tests read from beside the repository ($XPMIGRATE_CORPUS), not a
// document the code cites.
var allowedLeaving = map[string]string{
	"internal/testutil/testutil.go":      "../shared/corpus",
	"internal/testutil/testutil_test.go": "../shared/corpus",
	"internal/testutil/doc.go":           "../shared/corpus",
}

// selfFile holds the planted references of TestRefProblems, so
// TestCodeReferences does not read it.
const selfFile = "internal/docgen/references_test.go"

var (
	// docsRef is a reference to a page of docs/, with an optional anchor.
	docsRef = regexp.MustCompile(`\bdocs/[A-Za-z0-9_./-]*\.md(#[A-Za-z0-9_-]+)?`)

	// bareConversion is the name of the old conversion specification,
	// which is also the name of a page of docs/semantics.
	bareConversion = regexp.MustCompile(`(^|[^/A-Za-z0-9_-])conversion\.md`)

	// relativeLink is a relative Markdown link to a page in non-test code,
	// which internal/docgen writes into docs/reference/ (the diagnostics'
	// explanations); tests hold such links as fixtures.
	relativeLink = regexp.MustCompile(`\]\(((?:\.\./)*[A-Za-z0-9_-]+(?:/[A-Za-z0-9_-]+)*\.md)(#[A-Za-z0-9_-]+)?\)`)

	// mdLinkText is a Markdown link, whose text alone makes a heading's slug.
	mdLinkText = regexp.MustCompile(`\[([^\]]*)\]\([^)]*\)`)
)

// refProblems returns what is wrong with the references in the Go files
// srcs (repository path → content), one line per problem, in file and line
// order: a text that leaves the repository, or a reference to a page of
// docs (repository path → content) that does not exist or lacks the heading
// its anchor names.
func refProblems(srcs, docs map[string]string) []string {
	anchors := map[string]map[string]bool{}
	for p, md := range docs {
		anchors[p] = headingAnchors(md)
	}
	resolve := func(page, anchor string) string {
		a, ok := anchors[page]
		switch {
		case !ok:
			return fmt.Sprintf("%s does not exist", page)
		case anchor != "" && !a[anchor]:
			return fmt.Sprintf("%s has no heading with anchor %s", page, anchor)
		}
		return ""
	}
	var out []string
	for _, file := range sortedKeys(srcs) {
		for i, line := range strings.Split(srcs[file], "\n") {
			at := fmt.Sprintf("%s:%d", file, i+1)
			for _, l := range leaving {
				if strings.Contains(line, l.text) && !allowed(file, line, l.text) {
					out = append(out, fmt.Sprintf("%s: %q: %s", at, l.text, l.why))
				}
			}
			if bareConversion.MatchString(line) {
				out = append(out, fmt.Sprintf("%s: %q: a specification outside the repository; cite docs/semantics/conversion.md", at, "conversion.md"))
			}
			for _, m := range docsRef.FindAllStringSubmatch(line, -1) {
				page, anchor := strings.TrimSuffix(m[0], m[1]), strings.TrimPrefix(m[1], "#")
				if p := resolve(page, anchor); p != "" {
					out = append(out, fmt.Sprintf("%s: %s: %s", at, m[0], p))
				}
			}
			if strings.HasSuffix(file, "_test.go") {
				continue
			}
			for _, m := range relativeLink.FindAllStringSubmatch(line, -1) {
				page := path.Join("docs/reference", m[1])
				if p := resolve(page, strings.TrimPrefix(m[2], "#")); p != "" {
					out = append(out, fmt.Sprintf("%s: %s%s (from docs/reference): %s", at, m[1], m[2], p))
				}
			}
		}
	}
	return out
}

func allowed(file, line, text string) bool {
	ok, found := allowedLeaving[file]
	return found && strings.Contains(ok, text) && strings.Contains(line, ok)
}

// headingAnchors returns the anchors GitHub gives the headings of md:
// the slug of each heading outside code fences, with -1, -2, … appended
// to repeats.
func headingAnchors(md string) map[string]bool {
	anchors := map[string]bool{}
	seen := map[string]int{}
	fence := ""
	for _, line := range strings.Split(md, "\n") {
		trimmed := strings.TrimSpace(line)
		switch {
		case fence != "":
			if strings.HasPrefix(trimmed, fence) {
				fence = ""
			}
			continue
		case strings.HasPrefix(trimmed, "```"), strings.HasPrefix(trimmed, "~~~"):
			fence = trimmed[:3]
			continue
		}
		text, ok := heading(line)
		if !ok {
			continue
		}
		s := slug(text)
		if n := seen[s]; n > 0 {
			anchors[fmt.Sprintf("%s-%d", s, n)] = true
		} else {
			anchors[s] = true
		}
		seen[s]++
	}
	return anchors
}

// heading returns the text of an ATX heading line.
func heading(line string) (string, bool) {
	level := len(line) - len(strings.TrimLeft(line, "#"))
	if level == 0 || level > 6 || (len(line) > level && line[level] != ' ') {
		return "", false
	}
	return strings.TrimSpace(strings.TrimRight(strings.TrimSpace(line[level:]), "#")), true
}

// slug is GitHub's anchor for a heading's text: lower case, link targets
// dropped, spaces turned into hyphens, and every character but letters,
// digits, hyphens and underscores removed.
func slug(text string) string {
	text = mdLinkText.ReplaceAllString(strings.ToLower(text), "$1")
	var b strings.Builder
	for _, r := range text {
		switch {
		case unicode.IsLetter(r), unicode.IsDigit(r), r == '-', r == '_':
			b.WriteRune(r)
		case r == ' ':
			b.WriteByte('-')
		}
	}
	return b.String()
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func TestRefProblems(t *testing.T) {
	docs := map[string]string{
		"docs/semantics/legacy.md":  "# Native\n\n## Apply-time merge\n\n### `mode: Resources` and the XR\n\n## Quirks\n\n## Quirks\n\n```\n## Not a heading\n```\n",
		"docs/migration-runbook.md": "## Reading a verify report\n",
		"docs/reference/gaps.md":    "## Known gaps\n",
	}
	cases := map[string]struct {
		reason string
		file   string
		src    string
		want   []string
	}{
		"Resolves": {
			reason: "references to existing pages and headings, GitHub-style slugs and repeated headings included, are fine",
			file:   "render/legacy/a.go",
			src:    "// (docs/semantics/legacy.md#apply-time-merge)\n// docs/semantics/legacy.md#mode-resources-and-the-xr\n// docs/semantics/legacy.md#quirks-1, docs/reference/gaps.md\n",
		},
		"SectionSign": {
			reason: "a section sign cites the old specifications",
			file:   "render/legacy/a.go",
			src:    "// base (legacy spec \u00a79.5)\n",
			want:   []string{"render/legacy/a.go:1: \"\u00a7\": a section sign cites a document outside the repository; cite docs/<page>.md#<anchor>"},
		},
		"SharedSpec": {
			reason: "a path into ../shared/spec leaves the repository, and names a specification",
			file:   "convert/a.go",
			src:    "x\n// ../shared/spec/pipeline-mode.md\n",
			want: []string{
				`convert/a.go:2: "../shared": a path outside the repository`,
				`convert/a.go:2: "shared/spec": the specifications outside the repository`,
				`convert/a.go:2: "pipeline-mode.md": a specification outside the repository; cite docs/semantics/pipeline.md`,
			},
		},
		"BareConversion": {
			reason: "conversion.md alone is the old specification; docs/semantics/conversion.md is ours (and must exist)",
			file:   "convert/a.go",
			src:    "// as conversion.md says\n// docs/semantics/conversion.md\n",
			want: []string{
				`convert/a.go:1: "conversion.md": a specification outside the repository; cite docs/semantics/conversion.md`,
				`convert/a.go:2: docs/semantics/conversion.md: docs/semantics/conversion.md does not exist`,
			},
		},
		"MissingAnchor": {
			reason: "an anchor must name a heading of the page, not one inside a code fence",
			file:   "a.go",
			src:    "\"see docs/semantics/legacy.md#apply-merge\"\n// docs/semantics/legacy.md#not-a-heading\n",
			want: []string{
				`a.go:1: docs/semantics/legacy.md#apply-merge: docs/semantics/legacy.md has no heading with anchor apply-merge`,
				`a.go:2: docs/semantics/legacy.md#not-a-heading: docs/semantics/legacy.md has no heading with anchor not-a-heading`,
			},
		},
		"MissingPage": {
			reason: "the page must exist",
			file:   "a.go",
			src:    "// docs/semantics/nowhere.md#x\n",
			want:   []string{`a.go:1: docs/semantics/nowhere.md#x: docs/semantics/nowhere.md does not exist`},
		},
		"RelativeLink": {
			reason: "a relative Markdown link resolves from docs/reference, where docgen writes it",
			file:   "convert/explanations.go",
			src:    "\"[runbook](../migration-runbook.md#reading-a-verify-report) and [gone](../migration-runbook.md#gone)\"\n",
			want:   []string{`convert/explanations.go:1: ../migration-runbook.md#gone (from docs/reference): docs/migration-runbook.md has no heading with anchor gone`},
		},
		"CorpusAllowed": {
			reason: "the corpus locator may name the corpus beside the repository, and nothing else may",
			file:   "internal/testutil/testutil.go",
			src:    "const DefaultCorpus = \"../shared/corpus\"\n// ../shared/spec\n",
			want: []string{
				`internal/testutil/testutil.go:2: "../shared": a path outside the repository`,
				`internal/testutil/testutil.go:2: "shared/spec": the specifications outside the repository`,
			},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got := refProblems(map[string]string{tc.file: tc.src}, docs)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s\nrefProblems(...): -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}

// TestCodeReferences: every reference in the repository's Go files (in
// comments, test reasons and strings) points inside the repository, and
// every docs/… reference names an existing page and heading.
func TestCodeReferences(t *testing.T) {
	root := testutil.RepoRoot(t)
	srcs, docs := map[string]string{}, map[string]string{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel := filepath.ToSlash(strings.TrimPrefix(p, root+string(filepath.Separator)))
		switch {
		case d.IsDir() && d.Name() == ".git":
			return filepath.SkipDir
		case d.IsDir():
			return nil
		case rel == selfFile:
			return nil
		case strings.HasSuffix(rel, ".go"):
			b, err := os.ReadFile(p)
			srcs[rel] = string(b)
			return err
		case strings.HasPrefix(rel, "docs/") && strings.HasSuffix(rel, ".md"):
			b, err := os.ReadFile(p)
			docs[rel] = string(b)
			return err
		}
		return nil
	})
	if err != nil {
		t.Fatalf("cannot read the repository: %v", err)
	}
	if len(srcs) == 0 || len(docs) == 0 {
		t.Fatalf("found %d Go files and %d docs pages under %s", len(srcs), len(docs), root)
	}
	for _, p := range refProblems(srcs, docs) {
		t.Error(p)
	}
}
