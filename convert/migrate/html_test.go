package migrate_test

import (
	"bytes"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/xpmigrate/xpmigrate/convert/migrate"
	"github.com/xpmigrate/xpmigrate/convert/migrate/report"
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
	if err := report.WriteHTML(&b, res); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// htmlResult is the run the HTML report tests show.
func htmlResult(t *testing.T) *migrate.Result {
	t.Helper()
	res := migrate.RunArchive(t, "verify.txtar", func(o *migrate.Options) { o.Synthesize, o.KeepSources, o.Diff = 1, true, true })
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
		t.Errorf("report.WriteHTML(...): the page loads or links an external asset: %q", m)
	}
	checkLinks(t, page)
	for _, want := range []string{
		`<section id="summary">`, `<table id="composition-table" class="fixed">`, `id="c-0"`, `class="before-after"`,
		`class="sample"`, `class="diff render-diff"`, `<span class="del">-  size: 1</span>`, `<span class="add">&#43;  size: 2</span>`,
		`<td class="mov">  resources:</td>`, `unexplained`, `<b>C208</b>`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("report.WriteHTML(...): the page lacks %q", want)
		}
	}
	// Deterministic: a second run gives the same bytes.
	if diff := cmp.Diff(page, string(htmlReport(t))); diff != "" {
		t.Errorf("report.WriteHTML(...): two runs differ: -first, +second:\n%s", diff)
	}
}
