package migrate

import (
	"context"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/xpmigrate/xpmigrate/render/verify"
)

// TestIssue24Item7VerifyFindsMigratesSamples (issue 24 item 7): `verify`
// finds the samples `migrate` finds for a Composition, wherever the tree
// keeps them (examples/<same path> relative to the repository's root, a
// package's examples/), through the one sample finder they share: the
// same XRs and claims, in the same order, and neither takes an XR that
// selects another Composition, nor a test fixture.
func TestIssue24Item7VerifyFindsMigratesSamples(t *testing.T) {
	const comp = `apiVersion: apiextensions.crossplane.io/v1
kind: Composition
metadata:
  name: dbs
  labels: {provider: aws}
spec:
  compositeTypeRef: {apiVersion: example.org/v1, kind: XDB}
  resources:
  - name: db
    base: {apiVersion: sql.example.org/v1, kind: Database}
`
	const xrd = `apiVersion: apiextensions.crossplane.io/v1
kind: CompositeResourceDefinition
metadata: {name: xdbs.example.org}
spec:
  group: example.org
  names: {kind: XDB, plural: xdbs}
  claimNames: {kind: DB, plural: dbs}
  versions:
  - {name: v1, served: true, referenceable: true}
`
	xr := func(name, extra string) string {
		return "apiVersion: example.org/v1\nkind: XDB\nmetadata: {name: " + name + "}\n" + extra
	}
	claim := "apiVersion: example.org/v1\nkind: DB\nmetadata: {name: claim1, namespace: team}\n"
	cases := map[string]struct {
		reason string
		// root is the directory migrate is run on, comp the Composition.
		root, comp string
		files      map[string]string
		want       []string
	}{
		"ExamplesSamePath": {
			reason: "A repository keeps the examples of apis/aws/db/ in examples/aws/db/.",
			comp:   "apis/aws/db/composition.yaml",
			files: map[string]string{
				".git/HEAD":                   "ref: refs/heads/main\n",
				"apis/aws/db/definition.yaml": xrd,
				"examples/aws/db/claim.yaml":  claim,
				"examples/aws/db/xr.yaml":     xr("db1", ""),
			},
			want: []string{"examples/aws/db/claim.yaml#1", "examples/aws/db/xr.yaml#1"},
		},
		"ExamplesUnderTheAPIsPath": {
			reason: "A repository keeps the examples of apis/aws/db/ in examples/apis/aws/db/.",
			comp:   "apis/aws/db/composition.yaml",
			files: map[string]string{
				".git/HEAD":                        "ref: refs/heads/main\n",
				"apis/aws/db/definition.yaml":      xrd,
				"examples/apis/aws/db/claim.yaml":  claim,
				"examples/apis/gcp/db/xr.yaml":     xr("db2", ""),
				"examples/apis/aws/db/xr.json":     `{"apiVersion": "example.org/v1", "kind": "XDB", "metadata": {"name": "db1"}}`,
				"examples/apis/aws/db/ignored.yml": xr("ignored", ""),
				".gitignore":                       "ignored.yml\n",
			},
			want: []string{"examples/apis/aws/db/claim.yaml#1", "examples/apis/aws/db/xr.json#1", "examples/apis/gcp/db/xr.yaml#1"},
		},
		"PackageWithoutRepository": {
			reason: "Without a repository, the tree is the package: the directory of the Configuration's crossplane.yaml.",
			root:   "package",
			comp:   "package/apis/aws/db/composition.yaml",
			files: map[string]string{
				"package/crossplane.yaml":             "apiVersion: meta.pkg.crossplane.io/v1\nkind: Configuration\nmetadata: {name: platform}\n",
				"package/apis/aws/db/definition.yaml": xrd,
				"package/examples/aws/db/xr.yaml":     xr("db1", ""),
			},
			want: []string{"examples/aws/db/xr.yaml#1"},
		},
		"SelectionListsAndFixtures": {
			reason: "Both skip XRs that select another Composition and test fixtures, and take the items of a List.",
			comp:   "apis/aws/db/composition.yaml",
			files: map[string]string{
				".git/HEAD":                  "ref: refs/heads/main\n",
				"examples/aws/db/other.yaml": xr("other", "spec: {compositionRef: {name: other-dbs}}\n"),
				"examples/aws/db/gcp.yaml":   xr("gcp", "spec: {compositionSelector: {matchLabels: {provider: gcp}}}\n"),
				"examples/aws/db/aws.yaml":   xr("aws", "spec: {compositionSelector: {matchLabels: {provider: aws}}}\n"),
				"examples/aws/db/list.yaml":  "apiVersion: v1\nkind: List\nitems:\n- " + strings.ReplaceAll(xr("l1", ""), "\n", "\n  ") + "\n- " + strings.ReplaceAll(xr("l2", ""), "\n", "\n  ") + "\n",
				"test/e2e/00-step.yaml":      "apiVersion: kuttl.dev/v1beta1\nkind: TestStep\n",
				"test/e2e/00-xr.yaml":        xr("fixture", ""),
			},
			want: []string{"examples/aws/db/aws.yaml#1", "examples/aws/db/list.yaml#1.1", "examples/aws/db/list.yaml#1.2"},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			files := map[string]string{tc.comp: comp}
			for p, b := range tc.files {
				files[p] = b
			}
			for p, b := range files {
				full := filepath.Join(dir, filepath.FromSlash(p))
				if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(full, []byte(b), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			root := filepath.Join(dir, filepath.FromSlash(tc.root))

			// migrate, run on the tree's root.
			f := &fakeVerifier{}
			if _, err := Run(context.Background(), Options{Root: root, Converter: &fakeConverter{}, Verifier: f, Verify: true, MaxSamples: -1, Jobs: 1}); err != nil {
				t.Fatalf("Run(...): %v", err)
			}
			var migrated []string
			for _, c := range f.sortedCalls() {
				_, srcs, _ := strings.Cut(c, ": ")
				if srcs != "" {
					migrated = strings.Split(srcs, ",")
				}
			}
			if diff := cmp.Diff(tc.want, migrated); diff != "" {
				t.Errorf("%s\nmigrate's samples: -want, +got:\n%s", tc.reason, diff)
			}

			// verify, given the Composition alone.
			in, err := verify.Load(context.Background(), verify.Sources{Legacy: filepath.Join(dir, filepath.FromSlash(tc.comp))})
			if err != nil {
				t.Fatalf("verify.Load(...): %v", err)
			}
			rel, err := filepath.Rel(root, filepath.Join(dir, filepath.FromSlash(path.Dir(tc.comp))))
			if err != nil {
				t.Fatal(err)
			}
			var verified []string
			for _, s := range in.Samples {
				// Names are relative to the Composition's directory.
				verified = append(verified, path.Join(filepath.ToSlash(rel), s.Name))
			}
			if diff := cmp.Diff(migrated, verified); diff != "" {
				t.Errorf("%s\nverify's samples: -migrate's, +verify's:\n%s", tc.reason, diff)
			}
		})
	}
}
