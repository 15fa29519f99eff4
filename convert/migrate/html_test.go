package migrate

import (
	"bytes"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var (
	hrefRe     = regexp.MustCompile(`\bhref="([^"]*)"`)
	idRe       = regexp.MustCompile(`\bid="([^"]*)"`)
	externalRe = regexp.MustCompile(`(?i)<(script|link|img|iframe)\b|\bsrc=|url\(|@import|https?://`)
)

// htmlReport runs the verify archive with sources and diffs kept, and
// returns its HTML report.
func htmlReport(t *testing.T) []byte {
	t.Helper()
	res := htmlResult(t)
	var b bytes.Buffer
	if err := WriteHTML(&b, res); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// htmlResult is the run the HTML report tests show.
func htmlResult(t *testing.T) *Result {
	t.Helper()
	res, _ := runTxtarCase(t, txtarCase{
		archive:  "verify.txtar",
		opts:     func(o *Options, _, _ string) { o.Synthesize, o.KeepSources, o.Diff = 1, true, true },
		noGolden: true,
	})
	// A long line in every before/after view: it must wrap in its column.
	long := "# " + strings.Repeat("a-very-long-comment-line ", 40) + "\n"
	for i := range res.Compositions {
		if c := &res.Compositions[i]; c.Before != "" {
			c.Before, c.After = long+c.Before, long+c.After
		}
	}
	return res
}

// anchors returns the in-page link targets and the ids of a page.
func anchors(page string) (hrefs, ids []string) {
	for _, m := range hrefRe.FindAllStringSubmatch(page, -1) {
		hrefs = append(hrefs, m[1])
	}
	for _, m := range idRe.FindAllStringSubmatch(page, -1) {
		ids = append(ids, m[1])
	}
	return hrefs, ids
}

// checkLinks reports links that leave the page or point to no element,
// and ids used twice.
func checkLinks(t *testing.T, page string) {
	t.Helper()
	hrefs, ids := anchors(page)
	have := map[string]int{}
	for _, id := range ids {
		have[id]++
		if have[id] == 2 {
			t.Errorf("id %q used more than once", id)
		}
	}
	if len(hrefs) == 0 {
		t.Errorf("the page has no links")
	}
	for _, h := range hrefs {
		target, ok := strings.CutPrefix(h, "#")
		if !ok {
			t.Errorf("link %q leaves the page", h)
			continue
		}
		if have[target] == 0 {
			t.Errorf("link %q points to no element", h)
		}
	}
}

func TestWriteHTMLSelfContained(t *testing.T) {
	page := string(htmlReport(t))
	if m := externalRe.FindString(page); m != "" {
		t.Errorf("WriteHTML(...): the page loads or links an external asset: %q", m)
	}
	checkLinks(t, page)
	for _, want := range []string{
		`<section id="summary">`, `<table id="composition-table" class="fixed">`, `id="c-0"`, `class="before-after"`,
		`class="sample"`, `class="diff render-diff"`, `<span class="del">-  size: 1</span>`, `<span class="add">&#43;  size: 2</span>`,
		`<td class="mov">  resources:</td>`, `unexplained`, `<b>C208</b>`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("WriteHTML(...): the page lacks %q", want)
		}
	}
	// Deterministic: a second run gives the same bytes.
	if diff := cmp.Diff(page, string(htmlReport(t))); diff != "" {
		t.Errorf("WriteHTML(...): two runs differ: -first, +second:\n%s", diff)
	}
}

// TestSideBySideMoved: the blocks a conversion moves under the pipeline
// step (the same lines, more deeply indented) show as moved, and only what
// the conversion adds or removes as added or removed.
func TestSideBySideMoved(t *testing.T) {
	before := "spec:\n  resources:\n  - name: a\n    base: {}\n"
	after := "spec:\n  mode: Pipeline\n  pipeline:\n  - step: pt\n    input:\n      resources:\n      - name: a\n        base: {}\n"
	var got []string
	for _, r := range sideBySide(before, after) {
		got = append(got, r.LClass+"|"+r.RClass)
	}
	want := []string{"|", "|add", "|add", "|add", "|add", "mov|mov", "mov|mov", "mov|mov"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("sideBySide(...) classes: -want, +got:\n%s", diff)
	}
}
