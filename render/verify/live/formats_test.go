package live

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/xpmigrate/xpmigrate/internal/junit"
	"github.com/xpmigrate/xpmigrate/internal/sarif"
	"github.com/xpmigrate/xpmigrate/internal/testutil"
	"github.com/xpmigrate/xpmigrate/render/verify"
	"github.com/xpmigrate/xpmigrate/render/verify/format"
	"github.com/xpmigrate/xpmigrate/render/verify/verifytest"
)

// fixture is two Compositions checked against a cluster: xdisks, whose
// two XRs have conversion differences (render/verify's report fixture,
// a changed transform and known gaps), emulation differences (more than
// the listing bound on one XR), a failed legacy render, drift, objects not
// read and a pinned revision; and xempty, which no XR runs. The reader
// lacked one permission.
func fixture(t *testing.T) []*Report {
	t.Helper()
	c := verifytest.Load(t, "testdata/report")
	names := []string{"disk-a", "disk-b"}
	for i := range c.Samples {
		c.Samples[i].Name = names[i]
	}
	conv := c.Verify(t)
	conv.Legacy, conv.Converted = "apis/xdisks/legacy.yaml", "apis/xdisks/converted.yaml"
	missing := []string{"get secrets in namespace team-a"}
	a := XR{Name: "disk-a", Claim: "team-a/disk", ClaimState: "Found", Conversion: conv.Samples[0].Verdict,
		Drift: []Finding{{Object: "disk (Disk disk-a-x1)", Path: "spec.forProvider.zone", Live: "eu-1a"}}}
	for i, p := range []string{"spec.size", "spec.tier", "spec.iops", "metadata.labels[team]", "spec.region", "spec.class"} {
		a.Emulation = append(a.Emulation, Finding{Object: "disk (Disk disk-a-x1)", Path: p, Live: i, Rendered: i + 1})
	}
	b := XR{Name: "disk-b", Revision: "xdisks-1a2b3c", Pinned: true, Conversion: conv.Samples[1].Verdict,
		EmulationError: "cannot render resource \"disk\": no such field",
		Emulation:      []Finding{{Object: "XR connection Secret", Path: "password", Message: "the value differs (values are compared as digests, never shown)"}},
		Drift:          []Finding{{Object: "XR connection Secret", Path: "extra", Message: "in the live Secret, not rendered"}},
		Notes:          []string{"connection Secret team-a/disk-b of disk: Forbidden"}}
	disks := &Report{Composition: "xdisks", Legacy: conv.Legacy, Converted: conv.Converted, Verdict: ConversionDifferences,
		XRs: 2, Pinned: 1, EmulationXRs: 2, Emulation: 7, Drift: 2, Conversion: conv, Composites: []XR{a, b}, Missing: missing}

	empty := verify.Combine(nil, "no XR in the cluster runs this Composition (or none could be listed)")
	empty.Legacy, empty.Converted, empty.Composition = "apis/xempty/legacy.yaml", "(converted on the fly)", "xempty"
	empty.Hint = "check the --namespace filter and that the kubeconfig's user may list the XR kind"
	xempty := &Report{Composition: "xempty", Legacy: empty.Legacy, Converted: empty.Converted, Verdict: Unverified,
		Conversion: empty, Missing: missing}
	return []*Report{disks, xempty}
}

func TestWriteGolden(t *testing.T) {
	cases := map[string]struct {
		reason string
		opts   FormatOptions
	}{
		"markdown":         {reason: "Markdown: a summary table, missing permissions, then per Composition its conversion differences, emulation differences (bounded), objects not read and a drift count.", opts: FormatOptions{Options: format.Options{Format: Markdown}}},
		"markdown-verbose": {reason: "Markdown with --verbose lists every emulation difference and the drift.", opts: FormatOptions{Options: format.Options{Format: Markdown, Verbose: true}}},
		"html":             {reason: "HTML: one self-contained page in the look of migrate's report.", opts: FormatOptions{Options: format.Options{Format: HTML}}},
		"junit":            {reason: "JUnit: a suite per Composition, a case per XR (the conversion check's verdict) with its emulation differences as output, a skipped case for missing permissions and a summary case.", opts: FormatOptions{Options: format.Options{Format: format.JUnit}}},
		"junit-require-verified": {reason: "JUnit with --require-verified fails the cases of XRs with emulation differences.",
			opts: FormatOptions{Options: format.Options{Format: format.JUnit}, RequireVerified: true}},
		"sarif":  {reason: "SARIF: the conversion check's rules and results, then emulation warnings, drift notes, missing permissions and a summary note.", opts: FormatOptions{Options: format.Options{Format: format.SARIF}}},
		"github": {reason: "GitHub: a summary notice, the conversion check's annotations, emulation warnings (bounded), a drift notice, missing permissions once.", opts: FormatOptions{Options: format.Options{Format: format.GitHub}}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			var outs []string
			for range 2 {
				var b bytes.Buffer
				if err := WriteFormat(&b, fixture(t), tc.opts); err != nil {
					t.Fatalf("%s\nWrite(...): %v", tc.reason, err)
				}
				outs = append(outs, b.String())
			}
			if diff := cmp.Diff(outs[0], outs[1]); diff != "" {
				t.Errorf("%s\nWrite(...) is not deterministic: -first, +second:\n%s", tc.reason, diff)
			}
			testutil.Golden(t, filepath.Join("testdata", name+".golden"), []byte(outs[0]))
		})
	}
}

// TestWriteTextJSON: text and JSON are render/verify/live's own writers.
func TestWriteTextJSON(t *testing.T) {
	cases := map[string]struct {
		reason string
		opts   FormatOptions
		write  func(*bytes.Buffer, []*Report) error
	}{
		"Text": {reason: "Text is Write's.", opts: FormatOptions{Options: format.Options{Format: format.Text}},
			write: func(b *bytes.Buffer, r []*Report) error {
				return Write(b, r, format.Options{Format: format.Text})
			}},
		"JSON": {reason: "JSON is Write's.", opts: FormatOptions{Options: format.Options{Format: format.JSON}},
			write: func(b *bytes.Buffer, r []*Report) error {
				return Write(b, r, format.Options{Format: format.JSON})
			}},
		"JSONList": {reason: "JSON with List is WriteList's: a list even of one.", opts: FormatOptions{Options: format.Options{Format: format.JSON}, List: true},
			write: func(b *bytes.Buffer, r []*Report) error {
				return WriteList(b, r[:1], format.Options{Format: format.JSON})
			}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			reports := fixture(t)
			if tc.opts.List {
				reports = reports[:1]
			}
			var got, want bytes.Buffer
			if err := WriteFormat(&got, reports, tc.opts); err != nil {
				t.Fatal(err)
			}
			if err := tc.write(&want, fixture(t)); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want.String(), got.String()); diff != "" {
				t.Errorf("%s\nWrite(...): -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
	if err := WriteFormat(&bytes.Buffer{}, fixture(t), FormatOptions{Options: format.Options{Format: "yaml"}}); err == nil {
		t.Errorf("WriteFormat(yaml): no error")
	}
}

// TestCIFormatsParse: JUnit and SARIF parse; their counts and rule indices
// agree with what they hold; conversion failures fail, emulation
// differences only warn.
func TestCIFormatsParse(t *testing.T) {
	var ju bytes.Buffer
	if err := WriteFormat(&ju, fixture(t), FormatOptions{Options: format.Options{Format: format.JUnit}}); err != nil {
		t.Fatal(err)
	}
	var suites junit.Suites
	if err := xml.Unmarshal(ju.Bytes(), &suites); err != nil {
		t.Fatalf("JUnit output does not parse: %v", err)
	}
	type caseView struct {
		Suite, Name    string
		Failed, Skip   bool
		EmulationShown bool
	}
	var got []caseView
	tests, failures, skipped := 0, 0, 0
	for _, s := range suites.Suites {
		for _, c := range s.Cases {
			got = append(got, caseView{Suite: s.Name, Name: c.Name, Failed: c.Failure != nil, Skip: c.Skipped != nil,
				EmulationShown: strings.Contains(c.SystemOut, "emulation: ")})
			tests++
			if c.Failure != nil {
				failures++
			}
			if c.Skipped != nil {
				skipped++
			}
		}
	}
	want := []caseView{
		{Suite: "cluster: xdisks", Name: "disk-a", Failed: true, EmulationShown: true},
		{Suite: "cluster: xdisks", Name: "disk-b", Failed: true, EmulationShown: true},
		{Suite: "cluster: xdisks", Name: "missing permissions", Skip: true},
		{Suite: "cluster: xdisks", Name: "summary"},
		{Suite: "cluster: xempty", Name: "unverified", Skip: true},
		{Suite: "cluster: xempty", Name: "missing permissions", Skip: true},
		{Suite: "cluster: xempty", Name: "summary"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("JUnit cases: -want, +got:\n%s", diff)
	}
	if suites.Tests != tests || suites.Failures != failures || suites.Skipped != skipped {
		t.Errorf("JUnit totals %d/%d/%d, cases %d/%d/%d", suites.Tests, suites.Failures, suites.Skipped, tests, failures, skipped)
	}

	var sa bytes.Buffer
	if err := WriteFormat(&sa, fixture(t), FormatOptions{Options: format.Options{Format: format.SARIF}}); err != nil {
		t.Fatal(err)
	}
	var log sarif.Log
	if err := json.Unmarshal(sa.Bytes(), &log); err != nil {
		t.Fatalf("SARIF output does not parse: %v", err)
	}
	levels := map[string]map[string]int{}
	run := log.Runs[0]
	for _, r := range run.Results {
		if id := run.Tool.Driver.Rules[r.RuleIndex].ID; id != r.RuleID {
			t.Errorf("result %s points at rule %d, which is %s", r.RuleID, r.RuleIndex, id)
		}
		if levels[r.RuleID] == nil {
			levels[r.RuleID] = map[string]int{}
		}
		levels[r.RuleID][r.Level]++
	}
	wantLevels := map[string]map[string]int{
		ruleEmulation: {"warning": 7}, ruleEmuError: {"warning": 1}, ruleDrift: {"note": 2}, ruleNotRead: {"warning": 1},
		ruleMissing: {"warning": 2}, ruleSummary: {"note": 2}, "unexplained": {"error": levels["unexplained"]["error"]}, "unverified": {"warning": 1},
	}
	for id, want := range wantLevels {
		if diff := cmp.Diff(want, levels[id]); diff != "" {
			t.Errorf("SARIF levels of %s: -want, +got:\n%s", id, diff)
		}
	}
	if levels["unexplained"]["error"] == 0 {
		t.Errorf("SARIF: the conversion check's unexplained differences are not errors: %v", levels)
	}
}

// TestSectionLocates: the cluster section of migrate's report points its
// annotations at the file Locate gives.
func TestSectionLocates(t *testing.T) {
	o := FormatOptions{Locate: func(r *Report) (string, int) { return "repo/apis/" + r.Composition + ".yaml", 7 }}
	cl, err := RenderSection(fixture(t), o)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range cl.SARIFResults {
		if uri := r.Locations[0].PhysicalLocation.ArtifactLocation.URI; !strings.HasPrefix(uri, "repo/apis/") {
			t.Errorf("SARIF result %s at %q, not at the located file", r.RuleID, uri)
		}
	}
	for _, l := range strings.Split(strings.TrimSpace(cl.GitHub), "\n") {
		if strings.Contains(l, "file=") && !strings.Contains(l, "file=repo/apis/") {
			t.Errorf("GitHub annotation not at the located file: %s", l)
		}
	}
	for _, s := range cl.JUnit {
		for _, c := range s.Cases {
			if !strings.HasPrefix(c.File, "repo/apis/") {
				t.Errorf("JUnit case %s at %q, not at the located file", c.Name, c.File)
			}
		}
	}
	if !strings.HasPrefix(cl.Markdown, "## Cluster check\n") {
		t.Errorf("Markdown section does not start with its level-2 heading:\n%s", cl.Markdown)
	}
	if !strings.HasPrefix(string(cl.HTML), `<section id="cluster">`) {
		t.Errorf("HTML section is not a section:\n%s", cl.HTML)
	}
	if rs, ok := cl.JSON.([]*Report); !ok || len(rs) != 2 {
		t.Errorf("JSON part is %T, not the reports", cl.JSON)
	}
}

// TestUnlistedAndNotChecked: a report whose XRs with findings are not all
// listed shows every finding by object and path, and a Composition that
// could not be checked fails with its reason, in Markdown and HTML.
func TestUnlistedAndNotChecked(t *testing.T) {
	big := &Report{Composition: "xbig", Legacy: "big.yaml", Verdict: EmulationDifferences, XRs: 40, EmulationXRs: 40, Emulation: 40, Unlisted: 20,
		Conversion:        &verify.Report{Verdict: verify.Equivalent, Samples: []verify.SampleReport{}},
		EmulationFindings: []Tally{{Object: "disk (Disk)", Path: "spec.size", XRs: 40, Examples: []string{"a", "b", "c"}}},
		Composites:        []XR{}}
	broken := Unchecked(verify.Document{Path: "broken.yaml"}, fmt.Errorf("%s", "cannot convert broken.yaml: C117 unknown patchSetName"))
	for _, f := range []format.Format{"markdown", "html"} {
		var b bytes.Buffer
		if err := WriteFormat(&b, []*Report{big, broken}, FormatOptions{Options: format.Options{Format: f}}); err != nil {
			t.Fatal(err)
		}
		for _, want := range []string{"spec.size", "a, b, c", "20 more XRs", "not checked against the cluster: cannot convert broken.yaml: C117 unknown patchSetName"} {
			if !strings.Contains(b.String(), want) {
				t.Errorf("WriteFormat(%s): no %q in:\n%s", f, want, b.String())
			}
		}
		if f == "markdown" && !strings.Contains(b.String(), "**FAIL** not checked") {
			t.Errorf("WriteFormat(markdown): a Composition that was not checked is not a FAIL:\n%s", b.String())
		}
	}
}
