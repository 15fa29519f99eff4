package migrate

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/xpmigrate/xpmigrate/convert"
	"github.com/xpmigrate/xpmigrate/internal/crossplane"
)

// TestHeldBackWhileACompositionIsRefused (issue 25 item 6): in a v2-native
// run, the v2 XRD of a type and the XR twins of its examples are held back
// while a Composition of the type is refused (here C448, a classic
// provider-aws Bucket), and the run says why; another type converts.
func TestHeldBackWhileACompositionIsRefused(t *testing.T) {
	xrd := func(kind, plural string) string {
		return "apiVersion: apiextensions.crossplane.io/v1\nkind: CompositeResourceDefinition\nmetadata: {name: " + plural + ".example.org}\n" +
			"spec:\n  group: example.org\n  names: {kind: " + kind + ", plural: " + plural + "}\n  claimNames: {kind: " + strings.TrimPrefix(kind, "X") + ", plural: " + strings.TrimPrefix(plural, "x") + "}\n" +
			"  defaultCompositionRef: {name: " + plural + ".example.org}\n" +
			"  versions: [{name: v1, served: true, referenceable: true, schema: {openAPIV3Schema: {type: object}}}]\n"
	}
	comp := func(kind, plural, base string) string {
		return "apiVersion: apiextensions.crossplane.io/v1\nkind: Composition\nmetadata: {name: " + plural + ".example.org}\nspec:\n" +
			"  compositeTypeRef: {apiVersion: example.org/v1, kind: " + kind + "}\n  resources:\n  - name: a\n    base: " + base + "\n"
	}
	tmp := t.TempDir()
	root, out := filepath.Join(tmp, "repo"), filepath.Join(tmp, "out")
	writeTree(t, root, map[string]string{
		"bucket/xrd.yaml":         xrd("XBucket", "xbuckets"),
		"bucket/composition.yaml": comp("XBucket", "xbuckets", "{apiVersion: s3.aws.crossplane.io/v1beta1, kind: Bucket}"),
		"bucket/claim.yaml":       "apiVersion: example.org/v1\nkind: Bucket\nmetadata: {name: b, namespace: team}\nspec: {}\n",
		"map/xrd.yaml":            xrd("XMap", "xmaps"),
		"map/composition.yaml":    comp("XMap", "xmaps", "{apiVersion: v1, kind: ConfigMap}"),
		"map/claim.yaml":          "apiVersion: example.org/v1\nkind: Map\nmetadata: {name: m, namespace: team}\nspec: {}\n",
	})
	o := Options{Root: root, Converter: NewConverter(convert.Options{XRScope: convert.XRScopeNamespaced}), Target: crossplane.V2, Definitions: true, Write: WriteOut, Out: out, Jobs: 1}
	res, err := Run(t.Context(), o)
	if err != nil {
		t.Fatalf("Run(...): %v", err)
	}
	status := map[string]FileStatus{}
	for _, f := range res.Files {
		status[f.Path] = f.Status
		if f.Path == "bucket/xrd.yaml" && !strings.Contains(f.Detail, "the v2 XRD of example.org XBucket is held back: the Composition xbuckets.example.org in bucket/composition.yaml is refused (C448") {
			t.Errorf("Run(...): bucket/xrd.yaml does not say why it is held back: %q", f.Detail)
		}
	}
	want := map[string]FileStatus{
		"bucket/xrd.yaml": FileFailed, "bucket/composition.yaml": FileFailed, "bucket/claim.yaml": FileUnchanged,
		"map/xrd.yaml": FileConverted, "map/composition.yaml": FileConverted, "map/claim.yaml": FileUnchanged, "map/claim.v2.yaml": FileConverted,
	}
	if diff := cmp.Diff(want, status); diff != "" {
		t.Errorf("Run(...): file statuses: -want, +got:\n%s", diff)
	}
	got := readTree(t, out)
	if !strings.Contains(got["bucket/xrd.yaml"], "apiextensions.crossplane.io/v1\n") {
		t.Errorf("out/bucket/xrd.yaml: want the legacy XRD unchanged, got:\n%s", got["bucket/xrd.yaml"])
	}
	if _, ok := got["bucket/claim.v2.yaml"]; ok {
		t.Errorf("out/bucket/claim.v2.yaml: written for a held-back type")
	}
}
