package report

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/xpmigrate/xpmigrate/convert/migrate"
	"github.com/xpmigrate/xpmigrate/internal/junit"
	"github.com/xpmigrate/xpmigrate/internal/sarif"
)

// formatsResult has one problem of each kind a CI system must see.
func formatsResult() *migrate.Result {
	return &migrate.Result{
		Files: []migrate.FileResult{
			{Path: "bad/helm.yaml", Status: migrate.FileFailed, Reason: migrate.ReasonReadOnly, Detail: "the file is read-only"},
			{Path: "apis/a.yaml", Status: migrate.FileConverted, Diagnostics: []migrate.Diagnostic{{Code: "C204", Severity: migrate.SeverityWarning, Line: 9, Message: "named the unnamed templates"}}},
		},
		Compositions: []migrate.CompositionResult{
			{File: "apis/a.yaml", Line: 3, Name: "a", Status: migrate.CompositionConverted, Verification: &migrate.Verification{Status: migrate.VerifyDifferences, Samples: []migrate.SampleResult{{
				Source:      "examples/a.yaml#0",
				Status:      migrate.VerifyDifferences,
				Differences: []migrate.Difference{{Path: "composed[b].spec.size", Legacy: "small", Pipeline: "large"}},
			}}}},
			{File: "apis/b.yaml", Line: 1, Name: "b", Status: migrate.CompositionConverted, Verification: &migrate.Verification{Status: migrate.VerifyUnverified, Reason: "no samples", Hint: "add one"}},
		},
	}
}

// TestWriteFormats: JUnit and SARIF carry the same problems as the GitHub
// annotations: errors fail, unverified Compositions are skipped.
func TestWriteFormats(t *testing.T) {
	res := formatsResult()

	var ju bytes.Buffer
	if err := WriteFormat(&ju, FormatJUnit, res, "repo"); err != nil {
		t.Fatal(err)
	}
	var suites junit.Suites
	if err := xml.Unmarshal(ju.Bytes(), &suites); err != nil {
		t.Fatalf("JUnit output does not parse: %v\n%s", err, ju.String())
	}
	type caseView struct{ Name, Failure, Skipped string }
	var got []caseView
	for _, c := range suites.Suites[0].Cases {
		v := caseView{Name: c.Name}
		if c.Failure != nil {
			v.Failure = c.Failure.Message
		}
		if c.Skipped != nil {
			v.Skipped = c.Skipped.Message
		}
		got = append(got, v)
	}
	want := []caseView{
		{Name: "a (apis/a.yaml#0)", Failure: `error: Composition a, sample examples/a.yaml#0: composed[b].spec.size differs after conversion (legacy "small", pipeline "large")`},
		{Name: "b (apis/b.yaml#0)", Skipped: "unverified: no samples"},
		{Name: "apis/a.yaml"},
		{Name: "bad/helm.yaml", Failure: "error: xpmigrate cannot migrate this file (read-only): the file is read-only"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("JUnit test cases: -want, +got:\n%s", diff)
	}
	if suites.Failures != 2 || suites.Skipped != 1 || suites.Tests != 4 {
		t.Errorf("JUnit counts: %d tests, %d failures, %d skipped; want 4, 2, 1", suites.Tests, suites.Failures, suites.Skipped)
	}

	var sa bytes.Buffer
	if err := WriteFormat(&sa, FormatSARIF, res, "repo"); err != nil {
		t.Fatal(err)
	}
	var log sarif.Log
	if err := json.Unmarshal(sa.Bytes(), &log); err != nil {
		t.Fatalf("SARIF output does not parse: %v", err)
	}
	var results []string
	for _, r := range log.Runs[0].Results {
		if log.Runs[0].Tool.Driver.Rules[r.RuleIndex].ID != r.RuleID {
			t.Errorf("result %s points at rule %d, which is %s", r.RuleID, r.RuleIndex, log.Runs[0].Tool.Driver.Rules[r.RuleIndex].ID)
		}
		line := 0
		if r.Locations[0].PhysicalLocation.Region != nil {
			line = r.Locations[0].PhysicalLocation.Region.StartLine
		}
		results = append(results, strings.Join([]string{r.Level, r.RuleID, r.Locations[0].PhysicalLocation.ArtifactLocation.URI, itoa(line)}, " "))
	}
	wantResults := []string{
		"error file-failed repo/bad/helm.yaml 0",
		"error unexplained repo/apis/a.yaml 3",
		"warning unverified repo/apis/b.yaml 1",
		"warning C204 repo/apis/a.yaml 9",
	}
	if diff := cmp.Diff(wantResults, results); diff != "" {
		t.Errorf("SARIF results: -want, +got:\n%s", diff)
	}

	var js bytes.Buffer
	if err := WriteFormat(&js, FormatJSON, res, "repo"); err != nil {
		t.Fatal(err)
	}
	if !json.Valid(js.Bytes()) || !strings.Contains(js.String(), `"compositions"`) {
		t.Errorf("JSON output is not the JSON report:\n%s", js.String())
	}
	if err := WriteFormat(&js, "yaml", res, "repo"); err == nil {
		t.Errorf("WriteFormat(yaml): no error")
	}
}

func itoa(i int) string { return strconv.Itoa(i) }
