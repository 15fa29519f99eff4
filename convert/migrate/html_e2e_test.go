//go:build e2e && unix

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

	"github.com/xpmigrate/xpmigrate/convert/migrate"
)

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

// TestE2EHTMLReportInChromium opens the report in headless Chromium and
// checks the DOM it builds: the expected elements are there, and every
// in-page link resolves to an element of that DOM. It is part of the e2e
// tier (`make e2e`), beside the scripts of e2e/.
func TestE2EHTMLReportInChromium(t *testing.T) {
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
