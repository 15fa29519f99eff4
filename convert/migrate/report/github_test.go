package report

import (
	"bytes"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/xpmigrate/xpmigrate/convert/migrate"
)

func TestWriteGitHub(t *testing.T) {
	res := &migrate.Result{
		Check: true,
		Files: []migrate.FileResult{{Path: "bad/helm.yaml", Status: migrate.FileFailed, Reason: migrate.ReasonReadOnly, Detail: "the file is read-only"}},
		Compositions: []migrate.CompositionResult{
			{File: "apis/a.yaml", Line: 3, Name: "a", Status: migrate.CompositionConverted, Verification: &migrate.Verification{Samples: []migrate.SampleResult{{
				Source: "examples/a.yaml#0",
				Differences: []migrate.Difference{
					{Path: "composed[b].spec.size", Legacy: "small", Pipeline: "large"},
					{Path: "connection-detail.port", Code: "D26", Class: "benign", Message: "one reconcile later"},
					{Path: "readiness[b]", Code: "D21", Class: "breaking", Message: "MatchInteger"},
					{Path: "composed[b].spec.name", Code: "D30", Class: "breaking", Accepted: "--accept", Message: "float64"},
				},
			}}}},
			{File: "apis/c.yaml", Line: 1, Name: "c", Status: migrate.CompositionFailed, Diagnostics: []migrate.Diagnostic{{Code: "C105", Severity: migrate.SeverityError, Message: "alpha functions, 100% manual"}}},
		},
		Findings: []migrate.Finding{{File: "kustomize/patch.yaml", Line: 7, Code: "M401", Severity: migrate.SeverityWarning, Message: "patches spec.resources"}},
	}
	var b bytes.Buffer
	if err := WriteGitHub(&b, res, "repo"); err != nil {
		t.Fatal(err)
	}
	want := `::error file=repo/bad/helm.yaml::xpmigrate cannot migrate this file (read-only): the file is read-only
::error file=repo/apis/a.yaml,line=3::Composition a still needs migrating (run xpmigrate migrate)
::error file=repo/apis/a.yaml,line=3::Composition a, sample examples/a.yaml#0: composed[b].spec.size differs after conversion (legacy "small", pipeline "large")
::notice file=repo/apis/a.yaml,line=3::Composition a, sample examples/a.yaml#0: connection-detail.port differs, benign known gap D26: one reconcile later
::error file=repo/apis/a.yaml,line=3::Composition a, sample examples/a.yaml#0: readiness[b] differs, breaking known gap D21 (accept it with --accept D21 or the annotation xpmigrate.io/accept-gaps): MatchInteger
::warning file=repo/apis/a.yaml,line=3::Composition a, sample examples/a.yaml#0: composed[b].spec.name differs, breaking known gap D30, accepted (--accept): float64
::error file=repo/apis/c.yaml,line=1::Composition c cannot be converted: C105 alpha functions, 100%25 manual
::warning file=repo/kustomize/patch.yaml,line=7::M401 patches spec.resources
`
	if diff := cmp.Diff(want, b.String()); diff != "" {
		t.Errorf("WriteGitHub(...): -want, +got:\n%s", diff)
	}
}

// TestConverterWarnings: the converter's warnings reach the summary on
// stderr (file:line: code: message) and the GitHub annotations (at their
// own line), once each.
func TestConverterWarnings(t *testing.T) {
	w := migrate.Diagnostic{Code: "C204", Severity: migrate.SeverityWarning, Document: 0, Line: 15, Message: "named the unnamed templates"}
	res := &migrate.Result{Files: []migrate.FileResult{{Path: "a.yaml", Status: migrate.FileConverted, Diagnostics: []migrate.Diagnostic{
		w, w, // the same warning twice
		{Code: "C313", Severity: migrate.SeverityInfo, Line: 20, Message: "transform type inferred"},
		{Code: "C209", Severity: migrate.SeverityWarning, Line: 30, Message: "XR write outside status"},
	}}}}
	var sum, gh bytes.Buffer
	if err := migrate.WriteSummary(&sum, res); err != nil {
		t.Fatal(err)
	}
	if err := WriteGitHub(&gh, res, "."); err != nil {
		t.Fatal(err)
	}
	wantSum := "converter warnings: 2\n  a.yaml:15: C204: named the unnamed templates\n  a.yaml:30: C209: XR write outside status\n"
	if !bytes.Contains(sum.Bytes(), []byte(wantSum)) {
		t.Errorf("migrate.WriteSummary(...): want\n%s\nin:\n%s", wantSum, sum.String())
	}
	wantGH := "::warning file=a.yaml,line=15::C204 named the unnamed templates\n::warning file=a.yaml,line=30::C209 XR write outside status\n"
	if diff := cmp.Diff(wantGH, gh.String()); diff != "" {
		t.Errorf("WriteGitHub(...): -want, +got:\n%s", diff)
	}
}
