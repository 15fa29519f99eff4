package liveformat

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"strings"
	"testing"

	"github.com/xpmigrate/xpmigrate/internal/junit"
	"github.com/xpmigrate/xpmigrate/internal/logsafe"
	"github.com/xpmigrate/xpmigrate/internal/testutil"
	"github.com/xpmigrate/xpmigrate/render/verify"
	"github.com/xpmigrate/xpmigrate/render/verify/format"
	"github.com/xpmigrate/xpmigrate/render/verify/live"
)

const hostile = "<img src=x onerror=alert(1)>|[click](javascript:alert(1))`x`\n::error::y\r%0A<script>"

// hostileReports name everything from the cluster with markup.
func hostileReports() []*live.Report {
	f := live.Finding{Object: hostile, Path: "spec." + hostile, Live: hostile, Rendered: map[string]any{hostile: hostile}}
	m := live.Finding{Object: hostile, Path: hostile, Message: hostile}
	conv := &verify.Report{Composition: hostile, Legacy: hostile, Converted: hostile, Verdict: verify.Unverified, Reason: hostile, Hint: hostile}
	r := &live.Report{Composition: hostile, Legacy: hostile, Converted: hostile, Verdict: live.EmulationDifferences, XRs: 1, EmulationXRs: 1, Emulation: 2, Drift: 1,
		Conversion: conv, Missing: []string{hostile},
		Composites: []live.XR{{Name: hostile, Claim: hostile, Revision: hostile, Pinned: true, EmulationError: hostile,
			Emulation: []live.Finding{f, m}, Drift: []live.Finding{f}, Notes: []string{hostile}}}}
	return []*live.Report{r}
}

// unescapedPipes counts the | of a table row not escaped by a backslash.
func unescapedPipes(row string) int {
	n := 0
	for i := 0; i < len(row); i++ {
		switch row[i] {
		case '\\':
			i++
		case '|':
			n++
		}
	}
	return n
}

func TestMarkdownEscapes(t *testing.T) {
	for _, verbose := range []bool{false, true} {
		var b bytes.Buffer
		if err := Write(&b, hostileReports(), Options{Options: format.Options{Format: Markdown, Verbose: verbose}}); err != nil {
			t.Fatal(err)
		}
		md := b.String()
		out, closed := testutil.StripCodeSpans(md)
		if !closed {
			t.Fatalf("Write(markdown): a code span is not closed:\n%s", md)
		}
		for _, raw := range []string{"<", "]("} {
			if strings.Contains(out, raw) {
				t.Errorf("Write(markdown): %q outside code spans:\n%s", raw, md)
			}
		}
		for _, line := range strings.Split(md, "\n") {
			if strings.HasPrefix(line, "| ") && unescapedPipes(line) != 8 {
				t.Errorf("Write(markdown): row with %d cell separators, want 8: %s", unescapedPipes(line), line)
			}
		}
	}
}

func TestHTMLEscapes(t *testing.T) {
	for _, verbose := range []bool{false, true} {
		var b bytes.Buffer
		if err := Write(&b, hostileReports(), Options{Options: format.Options{Format: HTML, Verbose: verbose}}); err != nil {
			t.Fatal(err)
		}
		page := b.String()
		for _, raw := range []string{"<img", "<script", `href="javascript`} {
			if strings.Contains(strings.ToLower(page), raw) {
				t.Errorf("Write(html): %q written raw", raw)
			}
		}
		if !strings.Contains(page, "&lt;script&gt;") {
			t.Errorf("Write(html): the hostile name is not shown escaped")
		}
	}
}

// TestCIEscapes: a name cannot start a workflow command of its own, and
// JUnit and SARIF stay well-formed.
func TestCIEscapes(t *testing.T) {
	var gh bytes.Buffer
	if err := Write(&gh, hostileReports(), Options{Options: format.Options{Format: format.GitHub, Verbose: true}}); err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(strings.TrimSuffix(gh.String(), "\n"), "\n") {
		if !strings.HasPrefix(line, "::notice ") && !strings.HasPrefix(line, "::warning ") && !strings.HasPrefix(line, "::error ") {
			t.Errorf("Write(github): a line that is not a workflow command: %q", line)
		}
		// The properties end at the first "::": a name must not end
		// them early, nor add a property.
		_, rest, _ := strings.Cut(line[2:], " ")
		props, _, ok := strings.Cut(rest, "::")
		if !ok || strings.Contains(props, ":") || strings.Count(props, ",") > 2 {
			t.Errorf("Write(github): a name leaked into the properties: %q", line)
		}
	}
	var ju bytes.Buffer
	if err := Write(&ju, hostileReports(), Options{Options: format.Options{Format: format.JUnit}}); err != nil {
		t.Fatal(err)
	}
	var suites junit.Suites
	if err := xml.Unmarshal(ju.Bytes(), &suites); err != nil {
		t.Errorf("Write(junit) does not parse: %v", err)
	}
	var sa bytes.Buffer
	if err := Write(&sa, hostileReports(), Options{Options: format.Options{Format: format.SARIF}}); err != nil {
		t.Fatal(err)
	}
	if !json.Valid(sa.Bytes()) {
		t.Errorf("Write(sarif) is not JSON")
	}
}

// controls is a name with every kind of character a terminal or a CI log
// interprets.
const controls = "n\n::set-output name=x::y\x1b[31m\r\u2028\u009b\x9b\x7f"

// controlReports name everything from the cluster with controls.
func controlReports() []*live.Report {
	rs := hostileReports()
	r := rs[0]
	r.Composition, r.Legacy, r.Missing = controls, controls, []string{controls}
	x := &r.Composites[0]
	x.Name, x.Claim, x.Revision, x.EmulationError, x.Notes = controls, controls, controls, controls, []string{controls}
	x.Emulation = []live.Finding{{Object: controls, Path: controls, Live: controls, Rendered: controls}, {Object: controls, Message: controls}}
	x.Drift = []live.Finding{{Object: controls, Path: "spec." + controls, Live: controls}}
	r.Unlisted = 1
	r.EmulationFindings = []live.Tally{{Object: controls, Path: controls, Message: controls, XRs: 2, Examples: []string{controls}}}
	r.Conversion.Composition, r.Conversion.Legacy, r.Conversion.Reason, r.Conversion.Hint = controls, controls, controls, controls
	return rs
}

// TestTextEscapes (issue 23 item 8b): the text report, which goes to a
// terminal or a CI log, shows the controls in names and messages escaped:
// no raw control character, no line a name starts, no line that starts
// with "::"; the GitHub format escapes them within its workflow commands.
func TestTextEscapes(t *testing.T) {
	for _, f := range []format.Format{format.Text, format.GitHub} {
		for _, verbose := range []bool{false, true} {
			var b bytes.Buffer
			if err := Write(&b, controlReports(), Options{Options: format.Options{Format: f, Verbose: verbose}}); err != nil {
				t.Fatal(err)
			}
			out := b.String()
			for i, line := range strings.Split(out, "\n") {
				if f == format.GitHub {
					line = strings.TrimPrefix(line, "::")
				}
				if logsafe.Unsafe(line) {
					t.Errorf("Write(%s, verbose %t): line %d is not escaped: %q", f, verbose, i+1, line)
				}
			}
			if want := `n\n::set-output name=x::y\x1b[31m\r\u2028\u009b\x9b\x7f`; f == format.Text && !strings.Contains(out, want) {
				t.Errorf("Write(text, verbose %t): the name is not shown escaped (%s):\n%s", verbose, want, out)
			}
		}
	}
}
