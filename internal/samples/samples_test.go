package samples

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestReason(t *testing.T) {
	named := map[string]any{"apiVersion": "example.org/v1", "kind": "XDB", "metadata": map[string]any{"name": "db1"}}
	unnamed := map[string]any{"apiVersion": "example.org/v1", "kind": "XDB", "metadata": map[string]any{"generateName": "db-"}}
	observed := map[string]map[string]any{
		"kuttl/00-step.yaml":    {"apiVersion": "kuttl.dev/v1beta1", "kind": "TestStep"},
		"chainsaw/test.yaml":    {"apiVersion": "chainsaw.kyverno.io/v1alpha1", "kind": "Test"},
		"suite/kuttl-test.yaml": {"apiVersion": "kuttl.dev/v1beta1", "kind": "TestSuite"},
		"other/chainsaw-x.yaml": {"apiVersion": "example.org/v1", "kind": "Test"},
	}
	cases := map[string]struct {
		reason string
		file   string
		obj    map[string]any
		want   string
	}{
		"Sample":          {reason: "A named object in an ordinary file is a sample.", file: "examples/xr.yaml", obj: named},
		"Unnamed":         {reason: "An object without a name is never a sample.", file: "examples/xr.yaml", obj: unnamed, want: "no metadata.name: cannot be an XR or a claim"},
		"AssertFile":      {reason: "kuttl assert files are expectations.", file: "e2e/00-assert.yaml", obj: named, want: "a kuttl assert file (*-assert.yaml): a test's expected state, not a sample"},
		"ErrorsFile":      {reason: "kuttl errors files are expectations.", file: "e2e/errors.yml", obj: named, want: "a kuttl errors file (*-errors.yaml): a test's forbidden state, not a sample"},
		"BesideTestStep":  {reason: "Files beside a kuttl TestStep are fixtures.", file: "kuttl/00-install.yaml", obj: named, want: "beside a kuttl TestStep (kuttl/00-step.yaml): a test fixture, not a sample"},
		"ChainsawTest":    {reason: "Files beside a chainsaw Test are fixtures.", file: "chainsaw/xr.yaml", obj: named, want: "in a chainsaw Test directory (chainsaw/test.yaml): a test fixture, not a sample"},
		"SubdirectoryOK":  {reason: "A subdirectory of a test directory is not marked.", file: "chainsaw/sub/xr.yaml", obj: named},
		"TestSuiteOnly":   {reason: "A kuttl TestSuite alone marks nothing.", file: "suite/xr.yaml", obj: named},
		"OtherGroupsTest": {reason: "A kind Test of another group marks nothing.", file: "other/xr.yaml", obj: named},
	}
	f := NewFilter(nil)
	for file, o := range observed {
		f.Observe(file, o)
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, f.Reason(tc.file, tc.obj)); diff != "" {
				t.Errorf("%s\nReason(%q): -want, +got:\n%s", tc.reason, tc.file, diff)
			}
		})
	}
}
