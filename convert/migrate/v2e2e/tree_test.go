package v2e2e

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	kerrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"sigs.k8s.io/yaml"
)

func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o750); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
	}
}

const (
	legacyComp = `apiVersion: apiextensions.crossplane.io/v1
kind: Composition
metadata: {name: c}
spec:
  compositeTypeRef: {apiVersion: example.org/v1, kind: XThing}
  resources: []
`
	pipelineComp = `apiVersion: apiextensions.crossplane.io/v1
kind: Composition
metadata: {name: c}
spec:
  compositeTypeRef: {apiVersion: example.org/v1, kind: XThing}
  mode: Pipeline
  pipeline: []
`
	xrdV1 = `apiVersion: apiextensions.crossplane.io/v1
kind: CompositeResourceDefinition
metadata: {name: xthings.example.org}
spec:
  group: example.org
  names: {kind: XThing, plural: xthings}
`
	helm = "apiVersion: v1\nkind: {{ .Values.kind }}\n  bad: [\n"
)

func TestReadTree(t *testing.T) {
	in, out := t.TempDir(), t.TempDir()
	writeFiles(t, in, map[string]string{
		"a.yaml":        legacyComp + "---\n" + xrdV1,
		"same.yaml":     legacyComp,
		"chart/t.yaml":  helm,
		"reorder.yaml":  "kind: ConfigMap\napiVersion: v1\nmetadata: {name: x}\n",
		"dropped.yaml":  legacyComp,
		"notes/doc.txt": "text",
	})
	writeFiles(t, out, map[string]string{
		// The Composition is converted, the XRD kept.
		"a.yaml":       pipelineComp + "---\n" + xrdV1,
		"same.yaml":    legacyComp,
		"chart/t.yaml": helm,
		// Equal as the API server reads it: not emitted.
		"reorder.yaml": "# a comment\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n",
		// A new file: every object in it is emitted, a non-object is not.
		"new/functions.yaml": "apiVersion: pkg.crossplane.io/v1\nkind: Function\nmetadata: {name: f}\n---\n---\njust: data\n---\n" +
			"apiVersion: apiextensions.crossplane.io/v2\nkind: CompositeResourceDefinition\nmetadata: {name: things.other.org}\nspec: {group: other.org}\n",
		"notes/doc.txt": "changed text",
	})
	got, err := readTree(in, out)
	if err != nil {
		t.Fatalf("readTree(): %v", err)
	}
	var emitted []string
	for _, o := range got.Emitted {
		emitted = append(emitted, o.String())
	}
	want := []string{
		"a.yaml document 1 (line 1) Composition c",
		"new/functions.yaml document 1 (line 1) Function f",
		"new/functions.yaml document 4 (line 8) CompositeResourceDefinition things.other.org",
	}
	if diff := cmp.Diff(want, emitted); diff != "" {
		t.Errorf("readTree(): Emitted are the documents the migration wrote that the input does not hold: -want, +got:\n%s", diff)
	}
	if diff := cmp.Diff(map[string]bool{"example.org": true, "other.org": true}, got.XRDGroups); diff != "" {
		t.Errorf("readTree(): XRDGroups are the groups of every XRD in the output, emitted or not: -want, +got:\n%s", diff)
	}

	// A changed file that does not parse is an error, not a silent skip.
	writeFiles(t, out, map[string]string{"same.yaml": helm})
	if _, err := readTree(in, out); err == nil {
		t.Errorf("readTree() with a changed file that does not parse: want an error, got none")
	}
}

func xrdObject(t *testing.T, file, group, kind string, versions ...string) object {
	t.Helper()
	vs := make([]any, 0, len(versions))
	for _, v := range versions {
		vs = append(vs, map[string]any{"name": v, "served": true, "referenceable": v == versions[0], "schema": map[string]any{
			"openAPIV3Schema": map[string]any{"type": "object", "properties": map[string]any{"spec": map[string]any{"type": "object"}}},
		}})
	}
	return object{File: file, Obj: &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "apiextensions.crossplane.io/v2", "kind": "CompositeResourceDefinition",
		"metadata": map[string]any{"name": "things." + group},
		"spec": map[string]any{
			"group": group, "names": map[string]any{"kind": kind, "plural": "things"}, "versions": vs,
		},
	}}}
}

func xrObject(t *testing.T, file, doc string) object {
	t.Helper()
	u := &unstructured.Unstructured{}
	if err := yaml.Unmarshal([]byte(doc), &u.Object); err != nil {
		t.Fatal(err)
	}
	return object{File: file, Obj: u}
}

func TestXRTypes(t *testing.T) {
	a := xrdObject(t, "repo-a/apis/definition.yaml", "example.org", "Thing", "v1alpha1")
	b := xrdObject(t, "repo-b/definition.yaml", "example.org", "Thing", "v1alpha1", "v1beta1")
	same := xrdObject(t, "repo-c/definition.yaml", "example.org", "Thing", "v1alpha1")
	legacy := xrdObject(t, "repo-d/definition.yaml", "example.org", "Legacy", "v1")
	_ = unstructured.SetNestedField(legacy.Obj.Object, "LegacyCluster", "spec", "scope")
	types, failed := xrTypes([]object{a, b, same, legacy, xrObject(t, "x.yaml", "apiVersion: v1\nkind: ConfigMap\n")})
	if len(types) != 3 || len(failed) != 1 {
		t.Fatalf("xrTypes(): want 3 types and 1 failure (the LegacyCluster XRD), got %d and %v", len(types), failed)
	}
	if types[0].Group == types[1].Group {
		t.Errorf("xrTypes(): XRDs of the same group with different schemas share the validation group %q", types[0].Group)
	}
	if types[0].Group != types[2].Group {
		t.Errorf("xrTypes(): equal XRDs get different validation groups %q and %q", types[0].Group, types[2].Group)
	}

	cases := map[string]struct {
		reason string
		xr     object
		want   string // the XRD's file, empty for none
	}{
		"Nearest": {"The XRD nearest to the twin defines it.",
			xrObject(t, "repo-b/examples/thing.v2.yaml", "apiVersion: example.org/v1alpha1\nkind: Thing\n"), "repo-b/definition.yaml"},
		"NearestDeep": {"Nearness counts shared directories.",
			xrObject(t, "repo-a/apis/x/thing.yaml", "apiVersion: example.org/v1alpha1\nkind: Thing\n"), "repo-a/apis/definition.yaml"},
		"ServedVersion": {"Only an XRD that serves the twin's version defines it.",
			xrObject(t, "repo-a/apis/thing.yaml", "apiVersion: example.org/v1beta1\nkind: Thing\n"), "repo-b/definition.yaml"},
		"FirstInPathOrder": {"Without a nearer one, the first XRD in path order.",
			xrObject(t, "elsewhere/thing.yaml", "apiVersion: example.org/v1alpha1\nkind: Thing\n"), "repo-a/apis/definition.yaml"},
		"OtherKind": {"No XRD defines another kind.",
			xrObject(t, "repo-a/apis/thing.yaml", "apiVersion: example.org/v1alpha1\nkind: Other\n"), ""},
		"OtherGroup": {"No XRD defines another group.",
			xrObject(t, "repo-a/apis/thing.yaml", "apiVersion: example.com/v1alpha1\nkind: Thing\n"), ""},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got := ""
			if ty, ok := xrdFor(types, tc.xr); ok {
				got = ty.XRD.File
				if g := asType(tc.xr, ty).GroupVersionKind(); g.Group != ty.Group || g.Version != tc.xr.Obj.GroupVersionKind().Version {
					t.Errorf("asType(): want group %q and the twin's version, got %v", ty.Group, g)
				}
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s\nxrdFor(): -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}

func TestSourceOf(t *testing.T) {
	in, out := t.TempDir(), t.TempDir()
	xrd := `apiVersion: apiextensions.crossplane.io/v1
kind: CompositeResourceDefinition
metadata: {name: xthings.example.org}
spec:
  group: example.org
  names: {kind: XThing, plural: xthings}
  claimNames: {kind: ThingClaim, plural: thingclaims}
  versions:
  - name: v1alpha1
    served: true
    referenceable: true
    schema: {openAPIV3Schema: {type: object}}
`
	examples := `apiVersion: example.org/v1alpha1
kind: Other
metadata: {name: a, namespace: team-a}
---
apiVersion: example.org/v1alpha1
kind: ThingClaim
metadata: {name: a, namespace: team-a}
---
apiVersion: example.org/v1alpha1
kind: XThing
metadata: {name: legacy}
`
	writeFiles(t, in, map[string]string{"apis/xrd.yaml": xrd, "apis/examples/claims.yaml": examples})
	writeFiles(t, out, map[string]string{"apis/xrd.yaml": xrd, "apis/examples/claims.yaml": examples})
	tr, err := readTree(in, out)
	if err != nil {
		t.Fatal(err)
	}
	cases := map[string]struct {
		reason   string
		twin     string
		want     string // the source, empty for none
		wantKind string // the kind of the source's CRD
	}{
		"Claim": {"A twin's source is the claim of the same name and namespace whose XRD defines the twin's kind.",
			"apiVersion: example.org/v1alpha1\nkind: Thing\nmetadata: {name: a, namespace: team-a}\n", "apis/examples/claims.yaml document 2 (line 5) ThingClaim team-a/a", "ThingClaim"},
		"LegacyXR": {"A legacy XR, which has no namespace, is the source of a namespaced twin of the same name.",
			"apiVersion: example.org/v1alpha1\nkind: Thing\nmetadata: {name: legacy, namespace: default}\n", "apis/examples/claims.yaml document 3 (line 9) XThing legacy", "XThing"},
		"OtherNamespace": {"A claim in another namespace is not the source.",
			"apiVersion: example.org/v1alpha1\nkind: Thing\nmetadata: {name: a, namespace: team-b}\n", "", ""},
		"OtherKind": {"A twin of a kind the XRD does not define has no source.",
			"apiVersion: example.org/v1alpha1\nkind: Gadget\nmetadata: {name: a, namespace: team-a}\n", "", ""},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			src, crd, ok := tr.sourceOf(xrObject(t, "apis/examples/claims.v2.yaml", tc.twin), nil)
			got, gotKind := "", ""
			if ok {
				got = src.String()
				gotKind, _, _ = unstructured.NestedString(crd.Object, "spec", "names", "kind")
				g, _, _ := unstructured.NestedString(crd.Object, "spec", "group")
				if src.Obj.GroupVersionKind().Group != g {
					t.Errorf("sourceOf(): the source's group %q is not its CRD's %q", src.Obj.GroupVersionKind().Group, g)
				}
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s\nsourceOf(): -want, +got:\n%s", tc.reason, diff)
			}
			if diff := cmp.Diff(tc.wantKind, gotKind); diff != "" {
				t.Errorf("%s\nsourceOf(): the kind of the source's CRD: -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}

func TestSourceOfReplaced(t *testing.T) {
	in, out := t.TempDir(), t.TempDir()
	xrd := func(size string) string {
		return `apiVersion: apiextensions.crossplane.io/v1
kind: CompositeResourceDefinition
metadata: {name: xthings.example.org}
spec:
  group: example.org
  names: {kind: XThing, plural: xthings}
  claimNames: {kind: ThingClaim, plural: thingclaims}
  versions:
  - name: v1alpha1
    served: true
    referenceable: true
    schema: {openAPIV3Schema: {type: object, properties: {spec: {type: object, properties: {size: {type: ` + size + `}}}}}}
`
	}
	claim := "apiVersion: example.org/v1alpha1\nkind: ThingClaim\nmetadata: {name: a, namespace: team-a}\n"
	files := map[string]string{"a/xrd.yaml": xrd("string"), "b/xrd.yaml": xrd("integer"), "examples/claim.yaml": claim}
	writeFiles(t, in, files)
	writeFiles(t, out, files)
	tr, err := readTree(in, out)
	if err != nil {
		t.Fatal(err)
	}
	twin := xrObject(t, "examples/claim.v2.yaml", "apiVersion: example.org/v1alpha1\nkind: Thing\nmetadata: {name: a, namespace: team-a}\n")
	sizeType := func(crd *unstructured.Unstructured) string {
		vs, _, _ := unstructured.NestedSlice(crd.Object, "spec", "versions")
		s, _, _ := unstructured.NestedString(vs[0].(map[string]any), "schema", "openAPIV3Schema", "properties", "spec", "properties", "size", "type")
		return s
	}
	_, crd, ok := tr.sourceOf(twin, nil)
	if !ok || sizeType(crd) != "string" {
		t.Errorf("sourceOf(): two XRDs as near define the claim: want the first in path order's CRD (size string), got %v", ok)
	}
	replaced := tr.V1XRDs[1]
	_, crd, ok = tr.sourceOf(twin, &replaced)
	if !ok || sizeType(crd) != "integer" {
		t.Errorf("sourceOf(): want the CRD of the XRD the twin's v2 XRD replaced (size integer), got %v", ok)
	}
}

func TestProblems(t *testing.T) {
	invalid := kerrors.NewInvalid(schema.GroupKind{Group: "v1.example.org", Kind: "Thing"}, "a", field.ErrorList{
		field.Required(field.NewPath("spec", "size"), ""),
		field.NotSupported(field.NewPath("spec", "tier"), "x", []string{"gold"}),
	})
	strict := kerrors.NewBadRequest(`Thing in version "v1alpha1" cannot be handled as a Thing: strict decoding error: unknown field "spec.a", unknown field "spec.b"`)
	other := kerrors.NewBadRequest(`the CRD "things.v1.example.org" is bad`)
	cases := map[string]struct {
		reason string
		err    error
		want   []string
	}{
		"Causes": {"An invalid object's problems are its causes.", invalid,
			[]string{"spec.size: Required value", `spec.tier: Unsupported value: "x": supported values: "gold"`}},
		"UnknownFields": {"Strict decoding's problems are its unknown fields.", strict, []string{"unknown field spec.a", "unknown field spec.b"}},
		"Message":       {"Else the message, without the group.", other, []string{`the CRD "things.GROUP" is bad`}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, problems(tc.err, "v1.example.org")); diff != "" {
				t.Errorf("%s\nproblems(): -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
	if !inheritedProblems([]string{"a"}, []string{"a", "b"}) {
		t.Errorf("inheritedProblems(): a twin whose problems are all its source's inherits them")
	}
	if inheritedProblems([]string{"a", "c"}, []string{"a", "b"}) {
		t.Errorf("inheritedProblems(): a twin with a problem its source does not have does not inherit it")
	}
	if inheritedProblems(nil, []string{"a"}) {
		t.Errorf("inheritedProblems(): a twin without problems inherits nothing")
	}
}

func TestTypeFor(t *testing.T) {
	in, out := t.TempDir(), t.TempDir()
	v1 := func(kind, plural string) string {
		return `apiVersion: apiextensions.crossplane.io/v1
kind: CompositeResourceDefinition
metadata: {name: ` + plural + `.example.org}
spec:
  group: example.org
  names: {kind: ` + kind + `, plural: ` + plural + `}
  versions:
  - {name: v1alpha1, served: true, referenceable: true, schema: {openAPIV3Schema: {type: object}}}
`
	}
	files := map[string]string{
		"a/xrd.yaml":       v1("XPolicy", "xpolicies"),
		"b/xrd.yaml":       v1("Policy", "policies"),
		"ex/examples.yaml": "apiVersion: example.org/v1alpha1\nkind: XPolicy\nmetadata: {name: prefixed}\n---\napiVersion: example.org/v1alpha1\nkind: Policy\nmetadata: {name: plain}\n",
	}
	writeFiles(t, in, files)
	writeFiles(t, out, files)
	tr, err := readTree(in, out)
	if err != nil {
		t.Fatal(err)
	}
	// Both v1 XRDs became v2 XRDs of kind Policy (in the output they
	// would replace them; here they are given).
	a, b := tr.V1XRDs[0], tr.V1XRDs[1]
	types, _ := xrTypes([]object{xrdObject(t, "a/xrd.yaml", "example.org", "Policy", "v1alpha1"), xrdObject(t, "b/xrd.yaml", "example.org", "Policy", "v1alpha1")})
	types[0].Replaced, types[1].Replaced = &a, &b
	cases := map[string]struct {
		reason string
		twin   string
		want   string
	}{
		"XPrefixed":  {"The twin of the XPolicy example is of the v2 XRD that replaced XPolicy's.", "prefixed", "a/xrd.yaml"},
		"Unprefixed": {"The twin of the Policy example is of the v2 XRD that replaced Policy's.", "plain", "b/xrd.yaml"},
		"NoExample":  {"A twin without an example is of the nearest, then first XRD.", "none", "a/xrd.yaml"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			ty, ok := tr.typeFor(types, xrObject(t, "ex/examples.v2.yaml", "apiVersion: example.org/v1alpha1\nkind: Policy\nmetadata: {name: "+tc.twin+"}\n"))
			got := ""
			if ok {
				got = ty.XRD.File
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s\ntypeFor(): -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}
