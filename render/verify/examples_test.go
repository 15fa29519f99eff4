package verify

import (
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
)

// TestFindExamplesSkipsFixtures checks that test-framework fixtures and
// objects that cannot be an XR are not taken as samples, and that each is
// reported with the reason.
func TestFindExamplesSkipsFixtures(t *testing.T) {
	comp := `
apiVersion: apiextensions.crossplane.io/v1
kind: Composition
metadata: {name: dbs}
spec:
  compositeTypeRef: {apiVersion: example.org/v1, kind: XDB}
  resources:
  - name: db
    base: {apiVersion: sql.example.org/v1, kind: Database}
`
	xr := "apiVersion: example.org/v1\nkind: XDB\nmetadata: {name: db1}\n"
	unnamed := "apiVersion: example.org/v1\nkind: XDB\nspec: {size: small}\n"
	cases := map[string]struct {
		reason      string
		files       map[string]string
		wantSamples []string
		wantSkipped []SkippedSample
	}{
		"KuttlAssertAndErrorsFiles": {
			reason: "kuttl's NN-assert.yaml and NN-errors.yaml state what a test expects, not what it applies.",
			files: map[string]string{
				"apis/examples/xr.yaml":              xr,
				"apis/examples/e2e/01-assert.yaml":   xr,
				"apis/examples/e2e/01-errors.yml":    xr,
				"apis/examples/e2e/notes-assert.txt": xr,
			},
			wantSamples: []string{"examples/xr.yaml#1"},
			wantSkipped: []SkippedSample{
				{Path: "examples/e2e/01-assert.yaml", Reason: "a kuttl assert file (*-assert.yaml): a test's expected state, not a sample"},
				{Path: "examples/e2e/01-errors.yml", Reason: "a kuttl errors file (*-errors.yaml): a test's forbidden state, not a sample"},
			},
		},
		"BesideKuttlTestStep": {
			reason: "Files in a directory with a kuttl TestStep or TestAssert are a test's fixtures.",
			files: map[string]string{
				"apis/examples/xr.yaml":            xr,
				"apis/examples/kuttl/00-xr.yaml":   xr,
				"apis/examples/kuttl/00-step.yaml": "apiVersion: kuttl.dev/v1beta1\nkind: TestStep\ncommands: []\n",
				"apis/examples/other/00-xr.yaml":   xr,
				"apis/examples/other/assert.yaml":  "apiVersion: kuttl.dev/v1beta1\nkind: TestAssert\ntimeout: 30\n",
			},
			wantSamples: []string{"examples/xr.yaml#1"},
			wantSkipped: []SkippedSample{
				{Path: "examples/kuttl/00-xr.yaml", Reason: "beside a kuttl TestStep (examples/kuttl/00-step.yaml): a test fixture, not a sample"},
				{Path: "examples/other/00-xr.yaml", Reason: "beside a kuttl TestAssert (examples/other/assert.yaml): a test fixture, not a sample"},
			},
		},
		"ChainsawTestDirectory": {
			reason: "Files in a directory with a chainsaw Test are a test's fixtures.",
			files: map[string]string{
				"apis/examples/chainsaw/chainsaw-test.yaml": "apiVersion: chainsaw.kyverno.io/v1alpha1\nkind: Test\nmetadata: {name: t}\n",
				"apis/examples/chainsaw/xr.yaml":            xr,
				"apis/examples/chainsaw/sub/xr.yaml":        xr,
			},
			wantSamples: []string{"examples/chainsaw/sub/xr.yaml#1"},
			wantSkipped: []SkippedSample{
				{Path: "examples/chainsaw/xr.yaml", Reason: "in a chainsaw Test directory (examples/chainsaw/chainsaw-test.yaml): a test fixture, not a sample"},
			},
		},
		"NoName": {
			reason: "An object without metadata.name cannot be an XR, whatever file it is in.",
			files: map[string]string{
				"apis/xr.yaml": xr + "---\n" + unnamed,
			},
			wantSamples: []string{"xr.yaml#1"},
			wantSkipped: []SkippedSample{
				{Path: "xr.yaml#2", Reason: "no metadata.name: cannot be an XR or a claim"},
			},
		},
		"OtherKindsAreNotReported": {
			reason: "Only documents of a sample's kind are reported as skipped.",
			files: map[string]string{
				"apis/examples/xr.yaml":            xr,
				"apis/examples/e2e/01-assert.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n",
			},
			wantSamples: []string{"examples/xr.yaml#1"},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			fsys := fstest.MapFS{"apis/composition.yaml": {Data: []byte(comp)}}
			for p, b := range tc.files {
				fsys[p] = &fstest.MapFile{Data: []byte(b)}
			}
			ex, err := FindExamples(fsys, "apis", Document{Path: "composition.yaml", Data: []byte(comp)}, nil)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, s := range ex.Samples {
				got = append(got, s.Name)
			}
			if diff := cmp.Diff(tc.wantSamples, got); diff != "" {
				t.Errorf("%s\nFindExamples(...).Samples: -want, +got:\n%s", tc.reason, diff)
			}
			if diff := cmp.Diff(tc.wantSkipped, ex.Skipped); diff != "" {
				t.Errorf("%s\nFindExamples(...).Skipped: -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}
