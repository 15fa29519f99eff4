package migrate

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/xpmigrate/xpmigrate/convert"
	"github.com/xpmigrate/xpmigrate/internal/crossplane"
)

// TestDefinitions: with Options.Definitions (--target v2, a scope other
// than legacy) a file of XRDs is converted even without a Composition, and
// --xr-scope auto reads the Compositions of the XRD's type in other files.
func TestDefinitions(t *testing.T) {
	const xrd = `apiVersion: apiextensions.crossplane.io/v1
kind: CompositeResourceDefinition
metadata:
  name: xbuckets.example.org
spec:
  group: example.org
  names:
    kind: XBucket
    plural: xbuckets
  versions:
  - name: v1
    served: true
    referenceable: true
    schema:
      openAPIV3Schema:
        type: object
`
	const comp = `apiVersion: apiextensions.crossplane.io/v1
kind: Composition
metadata:
  name: xbuckets.example.org
spec:
  compositeTypeRef:
    apiVersion: example.org/v1
    kind: XBucket
  resources:
  - name: ns
    base:
      apiVersion: v1
      kind: Namespace
`
	type want struct {
		status FileStatus
		codes  []string
		v2     bool // the XRD file holds a v2 XRD afterwards
	}
	cases := map[string]struct {
		reason      string
		files       map[string]string
		definitions bool
		scope       string
		want        want
	}{
		"XRDFileConverted": {
			reason:      "An XRD file without Compositions is converted to v2.",
			files:       map[string]string{"apis/definition.yaml": xrd},
			definitions: true,
			want:        want{status: FileConverted, codes: []string{"C401", "C416"}, v2: true},
		},
		"NotWithoutDefinitions": {
			reason: "Without Definitions (target v1, or --xr-scope legacy) the XRD file is left alone.",
			files:  map[string]string{"apis/definition.yaml": xrd},
			want:   want{status: FileUnchanged},
		},
		"AutoReadsOtherFiles": {
			reason:      "A Composition of the type in another file composing a Namespace makes auto ask for a choice (C402).",
			files:       map[string]string{"apis/definition.yaml": xrd, "apis/composition.yaml": comp},
			definitions: true,
			want:        want{status: FileFailed, codes: []string{"C402"}},
		},
		"ChosenScope": {
			reason:      "--xr-scope cluster decides.",
			files:       map[string]string{"apis/definition.yaml": xrd, "apis/composition.yaml": comp},
			definitions: true,
			scope:       convert.XRScopeCluster,
			want:        want{status: FileConverted, codes: []string{"C401", "C416"}, v2: true},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			root := filepath.Join(t.TempDir(), "repo")
			writeTree(t, root, tc.files)
			target := crossplane.V2
			co := convert.Options{XRScope: tc.scope}
			if !tc.definitions {
				co.XRScope = convert.XRScopeLegacy
			}
			res, err := Run(context.Background(), Options{Root: root, Target: target, Definitions: tc.definitions,
				Converter: NewConverter(co), Jobs: 1})
			if err != nil && tc.want.status != FileFailed {
				t.Fatalf("%s\nRun(...): %v", tc.reason, err)
			}
			var got want
			for _, f := range res.Files {
				if f.Path != "apis/definition.yaml" {
					continue
				}
				got.status = f.Status
				for _, d := range f.Diagnostics {
					if strings.HasPrefix(d.Code, "C4") {
						got.codes = append(got.codes, d.Code)
					}
				}
			}
			got.v2 = strings.Contains(readTree(t, root)["apis/definition.yaml"], "apiextensions.crossplane.io/v2")
			if diff := cmp.Diff(tc.want, got, cmp.AllowUnexported(want{})); diff != "" {
				t.Errorf("%s\nRun(...): -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}
