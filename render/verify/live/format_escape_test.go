package live

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
)

const hostile = "<img src=x onerror=alert(1)>|[click](javascript:alert(1))`x`\n::error::y\r%0A<script>"

// hostileReports name everything from the cluster with markup.
func hostileReports() []*Report {
	f := Finding{Object: hostile, Path: "spec." + hostile, Live: hostile, Rendered: map[string]any{hostile: hostile}}
	m := Finding{Object: hostile, Path: hostile, Message: hostile}
	conv := &verify.Report{Composition: hostile, Legacy: hostile, Converted: hostile, Verdict: verify.Unverified, Reason: hostile, Hint: hostile}
	r := &Report{Composition: hostile, Legacy: hostile, Converted: hostile, Verdict: EmulationDifferences, XRs: 1, EmulationXRs: 1, Emulation: 2, Drift: 1,
		Conversion: conv, Missing: []string{hostile},
		Composites: []XR{{Name: hostile, Claim: hostile, Revision: hostile, Pinned: true, EmulationError: hostile,
			Emulation: []Finding{f, m}, Drift: []Finding{f}, Notes: []string{hostile}}}}
	return []*Report{r}
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
		if err := WriteFormat(&b, hostileReports(), FormatOptions{Options: format.Options{Format: Markdown, Verbose: verbose}}); err != nil {
			t.Fatal(err)
		}
		md := b.String()
		out, closed := testutil.StripCodeSpans(md)
		if !closed {
			t.Fatalf("WriteFormat(markdown): a code span is not closed:\n%s", md)
		}
		for _, raw := range []string{"<", "]("} {
			if strings.Contains(out, raw) {
				t.Errorf("WriteFormat(markdown): %q outside code spans:\n%s", raw, md)
			}
		}
		for _, line := range strings.Split(md, "\n") {
			if strings.HasPrefix(line, "| ") && unescapedPipes(line) != 8 {
				t.Errorf("WriteFormat(markdown): row with %d cell separators, want 8: %s", unescapedPipes(line), line)
			}
		}
	}
}

func TestHTMLEscapes(t *testing.T) {
	for _, verbose := range []bool{false, true} {
		var b bytes.Buffer
		if err := WriteFormat(&b, hostileReports(), FormatOptions{Options: format.Options{Format: HTML, Verbose: verbose}}); err != nil {
			t.Fatal(err)
		}
		page := b.String()
		for _, raw := range []string{"<img", "<script", `href="javascript`} {
			if strings.Contains(strings.ToLower(page), raw) {
				t.Errorf("WriteFormat(html): %q written raw", raw)
			}
		}
		if !strings.Contains(page, "&lt;script&gt;") {
			t.Errorf("WriteFormat(html): the hostile name is not shown escaped")
		}
	}
}

// TestCIEscapes: a name cannot start a workflow command of its own, and
// JUnit and SARIF stay well-formed.
func TestCIEscapes(t *testing.T) {
	var gh bytes.Buffer
	if err := WriteFormat(&gh, hostileReports(), FormatOptions{Options: format.Options{Format: format.GitHub, Verbose: true}}); err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(strings.TrimSuffix(gh.String(), "\n"), "\n") {
		if !strings.HasPrefix(line, "::notice ") && !strings.HasPrefix(line, "::warning ") && !strings.HasPrefix(line, "::error ") {
			t.Errorf("WriteFormat(github): a line that is not a workflow command: %q", line)
		}
		// The properties end at the first "::": a name must not end
		// them early, nor add a property.
		_, rest, _ := strings.Cut(line[2:], " ")
		props, _, ok := strings.Cut(rest, "::")
		if !ok || strings.Contains(props, ":") || strings.Count(props, ",") > 2 {
			t.Errorf("WriteFormat(github): a name leaked into the properties: %q", line)
		}
	}
	var ju bytes.Buffer
	if err := WriteFormat(&ju, hostileReports(), FormatOptions{Options: format.Options{Format: format.JUnit}}); err != nil {
		t.Fatal(err)
	}
	var suites junit.Suites
	if err := xml.Unmarshal(ju.Bytes(), &suites); err != nil {
		t.Errorf("WriteFormat(junit) does not parse: %v", err)
	}
	var sa bytes.Buffer
	if err := WriteFormat(&sa, hostileReports(), FormatOptions{Options: format.Options{Format: format.SARIF}}); err != nil {
		t.Fatal(err)
	}
	if !json.Valid(sa.Bytes()) {
		t.Errorf("WriteFormat(sarif) is not JSON")
	}
}

// controls is a name with every kind of character a terminal or a CI log
// interprets.
const controls = "n\n::set-output name=x::y\x1b[31m\r\u2028\u009b\x9b\x7f"

// controlReports name everything from the cluster with controls.
func controlReports() []*Report {
	rs := hostileReports()
	r := rs[0]
	r.Composition, r.Legacy, r.Missing = controls, controls, []string{controls}
	x := &r.Composites[0]
	x.Name, x.Claim, x.Revision, x.EmulationError, x.Notes = controls, controls, controls, controls, []string{controls}
	x.Emulation = []Finding{{Object: controls, Path: controls, Live: controls, Rendered: controls}, {Object: controls, Message: controls}}
	x.Drift = []Finding{{Object: controls, Path: "spec." + controls, Live: controls}}
	r.Unlisted = 1
	r.EmulationFindings = []Tally{{Object: controls, Path: controls, Message: controls, XRs: 2, Examples: []string{controls}}}
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
			if err := WriteFormat(&b, controlReports(), FormatOptions{Options: format.Options{Format: f, Verbose: verbose}}); err != nil {
				t.Fatal(err)
			}
			out := b.String()
			for i, line := range strings.Split(out, "\n") {
				if f == format.GitHub {
					line = strings.TrimPrefix(line, "::")
				}
				if logsafe.Unsafe(line) {
					t.Errorf("WriteFormat(%s, verbose %t): line %d is not escaped: %q", f, verbose, i+1, line)
				}
			}
			if want := `n\n::set-output name=x::y\x1b[31m\r\u2028\u009b\x9b\x7f`; f == format.Text && !strings.Contains(out, want) {
				t.Errorf("WriteFormat(text, verbose %t): the name is not shown escaped (%s):\n%s", verbose, want, out)
			}
		}
	}
}
