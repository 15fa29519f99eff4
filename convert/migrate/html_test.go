package migrate_test

import (
	"bytes"
	"context"
	"html"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"

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

// chromium returns the path of a Chromium binary, or skips.
func chromium(t *testing.T) string {
	t.Helper()
	for _, c := range []string{"/usr/bin/chromium", "chromium", "chromium-browser"} {
		if p, err := exec.LookPath(c); err == nil {
			return p
		}
	}
	t.Skip("chromium is not installed (Debian package chromium)")
	return ""
}

// TestHTMLReportInChromium opens the report in headless Chromium and checks
// the DOM it builds: the expected elements are there, and every in-page
// link resolves to an element of that DOM.
func TestHTMLReportInChromium(t *testing.T) {
	bin := chromium(t)
	dir := t.TempDir()
	page := filepath.Join(dir, "report.html")
	// The test's copy opens every details element (the widest state of
	// the page) and records whether the page overflows horizontally.
	probe := `<script>
for (const d of document.querySelectorAll("details")) d.open = true;
const e = document.documentElement;
let over = e.scrollWidth > e.clientWidth ? "page " + e.scrollWidth + ">" + e.clientWidth : "";
for (const c of document.querySelectorAll("td, pre")) {
  if (!over && c.scrollWidth > c.clientWidth + 1) over = c.tagName + " " + (c.className || "") + " " + c.scrollWidth + ">" + c.clientWidth;
}
document.body.setAttribute("data-overflow", over ? "yes: " + over : "no");
</script></body>`
	report := strings.Replace(string(htmlReport(t)), "</body>", probe, 1)
	if err := os.WriteFile(page, []byte(report), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "--headless", "--no-sandbox", "--disable-gpu", "--window-size=1400,1000",
		"--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run",
		"--user-data-dir="+filepath.Join(dir, "profile"), "--dump-dom", "file://"+page)
	// Chromium starts helper processes: kill the whole group on timeout.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 10 * time.Second
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("chromium --dump-dom: %v\n%s", err, stderr.String())
	}
	dom := stdout.String()

	for _, want := range []string{
		"<title>xpmigrate migrate report</title>",
		`<section id="summary">`, `<section id="compositions">`, `<section id="files">`, `<section id="findings">`,
		`<table id="composition-table" class="fixed">`, `<table id="file-table" class="fixed">`,
		`<details class="before-after"`, `<details class="sample"`, `<pre class="diff render-diff">`,
	} {
		if !strings.Contains(dom, want) {
			t.Errorf("the DOM Chromium built lacks %q", want)
		}
	}
	if m := regexp.MustCompile(`<p id="headline" class="(ok|bad)">([^<]*safe to merge\? (yes|no|not proven))</p>`).FindStringSubmatch(dom); m == nil {
		t.Errorf("the DOM Chromium built lacks the headline verdict")
	} else if want := migrate.Headline(htmlResult(t)); m[2] != html.EscapeString(want) {
		t.Errorf("headline: want %q, got %q", want, m[2])
	}
	if !strings.Contains(dom, `data-overflow="no"`) {
		t.Errorf("the page or a cell overflows horizontally at 1,400 px with every section open: %s", regexp.MustCompile(`data-overflow="[^"]*"`).FindString(dom))
	}
	// One row per Composition, as the result has them.
	rows := regexp.MustCompile(`<tr id="c-\d+" class="composition">`).FindAllString(dom, -1)
	if got, want := len(rows), 5; got != want {
		t.Errorf("composition rows in the DOM: want %d, got %d", want, got)
	}
	checkLinks(t, dom)

	hrefs, _ := anchors(dom)
	sort.Strings(hrefs)
	if len(hrefs) < 8 {
		t.Errorf("links in the DOM: want at least 8, got %v", hrefs)
	}
}
