package report

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"html/template"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/xpmigrate/xpmigrate/internal/junit"
	"github.com/xpmigrate/xpmigrate/internal/sarif"
)

// testCluster is a cluster section with one part of each kind; its SARIF
// rule "unexplained" is one the run uses too.
func testCluster() *Cluster {
	return &Cluster{
		JSON:     []map[string]any{{"composition": "a", "verdict": "emulation-differences"}},
		Markdown: "## Cluster check\n\n**cluster headline**\n",
		HTML:     template.HTML(`<section id="cluster"><h2>Cluster check</h2></section>`),
		GitHub:   "::warning file=repo/apis/a.yaml,title=cluster::emulation difference\n",
		JUnit: []junit.Suite{{Name: "cluster: a", Tests: 2, Failures: 1, Skipped: 1, Cases: []junit.Case{
			{Name: "xr-1", Failure: &junit.Failure{Message: "different"}}, {Name: "missing permissions", Skipped: &junit.Skipped{Message: "x"}}}}},
		SARIFRules: []sarif.Rule{{ID: "emulation-difference", ShortDescription: sarif.Message{Text: "emulation"}}, {ID: "unexplained", ShortDescription: sarif.Message{Text: "the cluster's text"}}},
		SARIFResults: []sarif.Result{
			{RuleID: "emulation-difference", Level: "warning", Message: sarif.Message{Text: "emulation"}, Locations: sarif.At("repo/apis/a.yaml", 3)},
			{RuleID: "unexplained", Level: "error", Message: sarif.Message{Text: "conversion"}, Locations: sarif.At("repo/apis/a.yaml", 3)},
		},
	}
}

// TestClusterJoinsOutputs: the cluster check of migrate --cluster joins
// every output of the run: the JSON report's "cluster" field, a section
// of the Markdown and HTML reports, GitHub lines, JUnit suites and SARIF
// results (re-indexed; a rule the run has keeps the run's text).
func TestClusterJoinsOutputs(t *testing.T) {
	res, cl := formatsResult(), testCluster()

	var js bytes.Buffer
	if err := write(&js, JSON, res, cl); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Cluster []map[string]any `json:"cluster"`
	}
	if err := json.Unmarshal(js.Bytes(), &doc); err != nil || len(doc.Cluster) != 1 {
		t.Errorf("JSON report: cluster %v (%v)", doc.Cluster, err)
	}
	var plain bytes.Buffer
	if err := write(&plain, JSON, res, nil); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(plain.String(), `"cluster"`) {
		t.Errorf("JSON report without a cluster check has a cluster field")
	}

	var md bytes.Buffer
	if err := write(&md, Markdown, res, cl); err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(md.String(), "\n## Cluster check\n\n**cluster headline**\n") {
		t.Errorf("Markdown report does not end with the cluster section:\n%s", md.String())
	}

	var page bytes.Buffer
	if err := write(&page, HTML, res, cl); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`<a href="#cluster">Cluster</a>`, `<section id="cluster"><h2>Cluster check</h2></section>`} {
		if !strings.Contains(page.String(), want) {
			t.Errorf("HTML report lacks %q", want)
		}
	}

	var gh bytes.Buffer
	if err := writeFormat(&gh, FormatGitHub, res, "repo", cl); err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(gh.String(), cl.GitHub) {
		t.Errorf("GitHub output does not end with the cluster's lines:\n%s", gh.String())
	}

	var ju bytes.Buffer
	if err := writeFormat(&ju, FormatJUnit, res, "repo", cl); err != nil {
		t.Fatal(err)
	}
	var suites junit.Suites
	if err := xml.Unmarshal(ju.Bytes(), &suites); err != nil {
		t.Fatal(err)
	}
	got := []int{len(suites.Suites), suites.Tests, suites.Failures, suites.Skipped}
	if diff := cmp.Diff([]int{2, 6, 3, 2}, got); diff != "" {
		t.Errorf("JUnit suites, tests, failures, skipped: -want, +got:\n%s", diff)
	}

	var sa bytes.Buffer
	if err := writeFormat(&sa, FormatSARIF, res, "repo", cl); err != nil {
		t.Fatal(err)
	}
	var log sarif.Log
	if err := json.Unmarshal(sa.Bytes(), &log); err != nil {
		t.Fatal(err)
	}
	run := log.Runs[0]
	var ids []string
	for _, r := range run.Results {
		rule := run.Tool.Driver.Rules[r.RuleIndex]
		if rule.ID != r.RuleID {
			t.Errorf("result %s points at rule %s", r.RuleID, rule.ID)
		}
		if rule.ID == "unexplained" && rule.ShortDescription.Text != ruleTexts["unexplained"] {
			t.Errorf("rule unexplained has the cluster's text %q, not the run's", rule.ShortDescription.Text)
		}
		ids = append(ids, r.RuleID)
	}
	want := []string{"file-failed", "unexplained", "unverified", "C204", "emulation-difference", "unexplained"}
	if diff := cmp.Diff(want, ids); diff != "" {
		t.Errorf("SARIF results: -want, +got:\n%s", diff)
	}
}
