package migrate

import (
	"bytes"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestWriteGitHub(t *testing.T) {
	res := &Result{
		Check: true,
		Files: []FileResult{{Path: "bad/helm.yaml", Status: FileFailed, Reason: ReasonReadOnly, Detail: "the file is read-only"}},
		Compositions: []CompositionResult{
			{File: "apis/a.yaml", Line: 3, Name: "a", Status: CompositionConverted, Verification: &Verification{Samples: []SampleResult{{
				Source: "examples/a.yaml#0",
				Differences: []Difference{
					{Path: "composed[b].spec.size", Legacy: "small", Pipeline: "large"},
					{Path: "connection-detail.port", Code: "D26", Class: "benign", Message: "one reconcile later"},
					{Path: "readiness[b]", Code: "D21", Class: "breaking", Message: "MatchInteger"},
					{Path: "composed[b].spec.name", Code: "D30", Class: "breaking", Accepted: "--accept", Message: "float64"},
				},
			}}}},
			{File: "apis/c.yaml", Line: 1, Name: "c", Status: CompositionFailed, Diagnostics: []Diagnostic{{Code: "C105", Severity: SeverityError, Message: "alpha functions, 100% manual"}}},
		},
		Findings: []Finding{{File: "kustomize/patch.yaml", Line: 7, Code: "M401", Severity: SeverityWarning, Message: "patches spec.resources"}},
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
