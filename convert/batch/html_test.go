package batch

import (
	"bytes"
	"context"
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
	res, _ := runTxtarCase(t, txtarCase{
		archive:  "verify.txtar",
		opts:     func(o *Options, _, _ string) { o.Synthesize, o.KeepSources, o.Diff = 1, true, true },
		noGolden: true,
	})
	var b bytes.Buffer
	if err := WriteHTML(&b, res); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
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
		`<td class="del">  resources:</td>`, `unexplained`, `<b>C208</b>`,
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
	if err := os.WriteFile(page, htmlReport(t), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "--headless", "--no-sandbox", "--disable-gpu",
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
