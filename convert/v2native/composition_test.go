package v2native

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/crossplane/crossplane-runtime/v2/pkg/fieldpath"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	sigsyaml "sigs.k8s.io/yaml"

	"github.com/xpmigrate/xpmigrate/convert"
	"github.com/xpmigrate/xpmigrate/internal/crossplane"
	"github.com/xpmigrate/xpmigrate/internal/manifest"
	"github.com/xpmigrate/xpmigrate/internal/testutil"
	"github.com/xpmigrate/xpmigrate/internal/v2map"
	"github.com/xpmigrate/xpmigrate/render/engine"
)

func TestV2Naming(t *testing.T) {
	type want struct{ apiVersion, kind, name string }
	cases := map[string]struct {
		reason                   string
		apiVersion, kind, plural string
		oldName                  string
		opts                     convert.Options
		want                     want
	}{
		"DropPrefix": {
			reason:     "drop-prefix keeps the group and drops the X; the plural segment of the name follows.",
			apiVersion: "aws.platform.upbound.io/v1alpha1", kind: "XSQLInstance", plural: "xsqlinstances",
			oldName: "xsqlinstances.aws.platform.upbound.io",
			want:    want{"aws.platform.upbound.io/v1alpha1", "SQLInstance", "sqlinstances.aws.platform.upbound.io"},
		},
		"NoPrefix": {
			reason:     "Without an X the kind is kept, and a name the rule leaves unchanged gets -v2.",
			apiVersion: "platform.example.org/v1alpha1", kind: "Database", plural: "databases",
			oldName: "databases.platform.example.org",
			want:    want{"platform.example.org/v1alpha1", "Database", "databases.platform.example.org-v2"},
		},
		"NotAPrefix": {
			reason:     "An X followed by a lower-case letter is part of the word.",
			apiVersion: "a.io/v1", kind: "Xray", plural: "xrays", oldName: "xrays.a.io",
			want: want{"a.io/v1", "Xray", "xrays.a.io-v2"},
		},
		"NewGroup": {
			reason:     "new-group drops the X and replaces the group where its segments appear in the name.",
			apiVersion: "aws.platform.upbound.io/v1alpha1", kind: "XSQLInstance", plural: "xsqlinstances",
			oldName: "xsqlinstances.aws.platform.upbound.io",
			opts:    convert.Options{XRNaming: convert.XRNamingNewGroup, XRGroup: "platform.example.com"},
			want:    want{"platform.example.com/v1alpha1", "SQLInstance", "sqlinstances.platform.example.com"},
		},
		"PluralNotASegment": {
			reason:     "The plural is replaced only as a whole segment: a name without it gets -v2.",
			apiVersion: "a.io/v1", kind: "XDB", plural: "xdbs", oldName: "my-xdbs-prod",
			want: want{"a.io/v1", "DB", "my-xdbs-prod-v2"},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			av, kind := XRType(tc.apiVersion, tc.kind, newGroup(tc.opts))
			g, _, _ := strings.Cut(tc.apiVersion, "/")
			ng, _, _ := strings.Cut(av, "/")
			got := want{av, kind, CompositionName(tc.oldName, tc.plural, Plural(tc.plural, tc.kind), g, ng)}
			if diff := cmp.Diff(tc.want, got, cmp.AllowUnexported(want{})); diff != "" {
				t.Errorf("\n%s\n-want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}

// v2Output returns the converted Composition (the last document) of out,
// decoded.
func v2Output(t *testing.T, out []byte) map[string]any {
	t.Helper()
	docs := manifest.Split(out)
	j, err := manifest.JSON(docs[len(docs)-1].Text)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(j, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func TestV2Composition(t *testing.T) {
	const details = "    connectionDetails: [{name: password, fromConnectionSecretKey: password}]\n"
	withNS := func(s string) string {
		return strings.Replace(s, "  compositeTypeRef:", "  writeConnectionSecretsToNamespace: crossplane-system\n  compositeTypeRef:", 1)
	}
	type want struct {
		codes     []convert.Code
		failed    bool
		name      string
		typeRef   map[string]any
		secretRef any // the PT input's writeConnectionSecretToRef
		specKeys  []string
	}
	// <XR name>-connection, unless the XR's own reference (which the v2
	// XRD declares, C416) names it: copied back last, it wins.
	combine := map[string]any{
		"type": "CombineFromComposite", "toFieldPath": "name",
		"combine": map[string]any{"strategy": "string", "string": map[string]any{"fmt": "%s-connection"}, "variables": []any{map[string]any{"fromFieldPath": "metadata.name"}}},
	}
	own := func(f string) map[string]any {
		return map[string]any{"type": "FromCompositeFieldPath", "fromFieldPath": "spec.writeConnectionSecretToRef." + f, "toFieldPath": f}
	}
	namedPatch := []any{combine, own("name")}
	clusterPatch := []any{combine, own("name"), own("namespace")}
	cases := map[string]struct {
		reason string
		in     string
		opts   convert.Options
		want   want
	}{
		"Namespaced": {
			reason: "A namespaced XR's Composition: new name and type, no writeConnectionSecretsToNamespace, the connection Secret named <XR>-connection in the XR's namespace.",
			in:     withNS(v2Composition("    - {fromFieldPath: spec.a, toFieldPath: spec.b}\n" + details)),
			opts:   convert.Options{Target: crossplane.V2, XRScope: convert.XRScopeNamespaced},
			want: want{
				codes: []convert.Code{"C423", "C420", "C424"}, name: "things.acme.io",
				typeRef:   map[string]any{"apiVersion": "acme.io/v1", "kind": "Thing"},
				secretRef: map[string]any{"patches": namedPatch},
				specKeys:  []string{"compositeTypeRef", "mode", "pipeline"},
			},
		},
		"ClusterNamespace": {
			reason: "A cluster XR's connection Secret goes to the namespace the Composition wrote Secrets to.",
			in:     withNS(v2Composition("    - {fromFieldPath: spec.a, toFieldPath: spec.b}\n" + details)),
			opts:   convert.Options{Target: crossplane.V2, XRScope: convert.XRScopeCluster},
			want: want{
				codes: []convert.Code{"C423", "C420", "C424"}, name: "things.acme.io",
				typeRef:   map[string]any{"apiVersion": "acme.io/v1", "kind": "Thing"},
				secretRef: map[string]any{"namespace": "crossplane-system", "patches": clusterPatch},
				specKeys:  []string{"compositeTypeRef", "mode", "pipeline"},
			},
		},
		"ClusterNoNamespace": {
			reason: "A cluster XR's connection Secret without a namespace cannot be applied (C425).",
			in:     v2Composition("    - {fromFieldPath: spec.a, toFieldPath: spec.b}\n" + details),
			opts:   convert.Options{Target: crossplane.V2, XRScope: convert.XRScopeCluster},
			want: want{
				codes: []convert.Code{"C420", "C425", "C424"}, name: "things.acme.io",
				typeRef:   map[string]any{"apiVersion": "acme.io/v1", "kind": "Thing"},
				secretRef: map[string]any{"patches": clusterPatch},
				specKeys:  []string{"compositeTypeRef", "mode", "pipeline"},
			},
		},
		"NoConnectionDetails": {
			reason: "Without connection details the input names no Secret.",
			in:     withNS(v2Composition("    - {fromFieldPath: spec.a, toFieldPath: spec.b}\n")),
			opts:   convert.Options{Target: crossplane.V2, XRScope: convert.XRScopeNamespaced},
			want: want{
				codes: []convert.Code{"C423", "C420"}, name: "things.acme.io",
				typeRef:  map[string]any{"apiVersion": "acme.io/v1", "kind": "Thing"},
				specKeys: []string{"compositeTypeRef", "mode", "pipeline"},
			},
		},
		"StoreConfigRef": {
			reason: "publishConnectionDetailsWithStoreConfigRef goes as for target v2 (C303).",
			in:     strings.Replace(v2Composition("    - {fromFieldPath: spec.a, toFieldPath: spec.b}\n"), "  compositeTypeRef:", "  publishConnectionDetailsWithStoreConfigRef: {name: default}\n  compositeTypeRef:", 1),
			opts:   convert.Options{Target: crossplane.V2, XRScope: convert.XRScopeNamespaced},
			want: want{
				codes: []convert.Code{"C303", "C420"}, name: "things.acme.io",
				typeRef:  map[string]any{"apiVersion": "acme.io/v1", "kind": "Thing"},
				specKeys: []string{"compositeTypeRef", "mode", "pipeline"},
			},
		},
		"NoXRD": {
			reason: "Without the XRD the type comes from the kind alone and the name gets -v2 (C422).",
			in:     compositionYAML(oneResource("    - {fromFieldPath: spec.a, toFieldPath: spec.b}\n")),
			opts:   convert.Options{Target: crossplane.V2, XRScope: convert.XRScopeNamespaced},
			want: want{
				codes: []convert.Code{"C422", "C420"}, name: "c-v2",
				typeRef:  map[string]any{"apiVersion": "acme.io/v1", "kind": "X"},
				specKeys: []string{"compositeTypeRef", "mode", "pipeline"},
			},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			res, err := Convert([]byte(tc.in), tc.opts)
			if err != nil {
				t.Fatalf("\n%s\nConvert(...): %v", tc.reason, err)
			}
			// The XRD in the stream converts too; its codes are tested in v2xrd_test.go.
			got := slices.DeleteFunc(codes(res.Diagnostics), func(c convert.Code) bool { return c >= "C401" && c <= "C419" })
			if diff := cmp.Diff(tc.want.codes, got, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("\n%s\nConvert(...): -want codes, +got:\n%s\n%s", tc.reason, diff, render(res.Diagnostics))
			}
			if res.Failed() != tc.want.failed {
				t.Fatalf("\n%s\nConvert(...): failed %v, want %v", tc.reason, res.Failed(), tc.want.failed)
			}
			if tc.want.failed {
				return
			}
			m := v2Output(t, res.Output)
			md, _ := m["metadata"].(map[string]any)
			spec, _ := m["spec"].(map[string]any)
			if diff := cmp.Diff(tc.want.name, md["name"]); diff != "" {
				t.Errorf("\n%s\nname: -want, +got:\n%s", tc.reason, diff)
			}
			if diff := cmp.Diff(tc.want.typeRef, spec["compositeTypeRef"]); diff != "" {
				t.Errorf("\n%s\ncompositeTypeRef: -want, +got:\n%s", tc.reason, diff)
			}
			var keys []string
			for k := range spec {
				keys = append(keys, k)
			}
			if diff := cmp.Diff(tc.want.specKeys, keys, cmpopts.SortSlices(func(a, b string) bool { return a < b })); diff != "" {
				t.Errorf("\n%s\nspec keys: -want, +got:\n%s", tc.reason, diff)
			}
			steps, _ := spec["pipeline"].([]any)
			in, _ := steps[len(steps)-1].(map[string]any)["input"].(map[string]any)
			if diff := cmp.Diff(tc.want.secretRef, in["writeConnectionSecretToRef"]); diff != "" {
				t.Errorf("\n%s\nwriteConnectionSecretToRef: -want, +got:\n%s", tc.reason, diff)
			}
			an, _ := md["annotations"].(map[string]any)
			mp, err := v2map.Decode(an[v2map.Annotation].(string))
			if err != nil {
				t.Fatalf("\n%s\n%v", tc.reason, err)
			}
			if diff := cmp.Diff(tc.want.typeRef["kind"], mp.To.Kind); diff != "" {
				t.Errorf("\n%s\nmapping To: -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}

// TestV2MappingXR applies the declared XR ops to a claim's legacy XR: the
// result is the v2 twin the patches were rewritten for.
func TestV2MappingXR(t *testing.T) {
	res, err := Convert([]byte(v2Composition("    - {fromFieldPath: spec.a, toFieldPath: spec.b}\n")), convert.Options{Target: crossplane.V2, XRScope: convert.XRScopeNamespaced})
	if err != nil {
		t.Fatal(err)
	}
	md := v2Output(t, res.Output)["metadata"].(map[string]any)
	mp, err := v2map.Decode(md["annotations"].(map[string]any)[v2map.Annotation].(string))
	if err != nil {
		t.Fatal(err)
	}
	xr := map[string]any{
		"apiVersion": "acme.io/v1", "kind": "XThing",
		"metadata": map[string]any{"name": "db-x7k2p", "labels": map[string]any{"crossplane.io/claim-name": "db", "crossplane.io/claim-namespace": "team-a", "app": "a"}},
		"spec": map[string]any{
			"a":                          "v",
			"claimRef":                   map[string]any{"apiVersion": "acme.io/v1", "kind": "Thing", "name": "db", "namespace": "team-a"},
			"compositionRef":             map[string]any{"name": "xthings.acme.io"},
			"resourceRefs":               []any{},
			"writeConnectionSecretToRef": map[string]any{"name": "uid", "namespace": "crossplane-system"},
		},
	}
	want := map[string]any{
		"apiVersion": "acme.io/v1", "kind": "Thing",
		"metadata": map[string]any{"name": "db", "namespace": "team-a", "labels": map[string]any{"app": "a"}},
		"spec": map[string]any{
			"a":          "v",
			"crossplane": map[string]any{"compositionRef": map[string]any{"name": "xthings.acme.io"}, "resourceRefs": []any{}},
			// The v2 XRD declares it (C416), without a namespace.
			"writeConnectionSecretToRef": map[string]any{"name": "uid"},
		},
	}
	if _, err := v2map.Apply(xr, mp.XR); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, xr); diff != "" {
		t.Errorf("v2map.Apply(legacy XR, mapping.XR): -want, +got:\n%s", diff)
	}
}

// TestV2CompositionRenders renders the new Composition for a namespaced v2
// XR with the built-in functions (target v2): the claim patches read the
// XR's own name and namespace, and function-patch-and-transform composes
// the connection Secret the input names, in the XR's namespace.
func TestV2CompositionRenders(t *testing.T) {
	in := v2Composition("    - type: CombineFromComposite\n      toFieldPath: spec.forProvider.id\n      combine: {strategy: string, string: {fmt: '%s/%s'}, variables: [{fromFieldPath: spec.claimRef.namespace}, {fromFieldPath: spec.claimRef.name}]}\n" +
		"    connectionDetails: [{name: endpoint, fromFieldPath: status.atProvider.endpoint}]\n")
	res, err := Convert([]byte(in), convert.Options{Target: crossplane.V2, XRScope: convert.XRScopeNamespaced})
	if err != nil || res.Failed() {
		t.Fatalf("Convert(...): %v\n%s", err, render(res.Diagnostics))
	}
	comp := lastComposition(t, res.Output)
	xr := map[string]any{
		"apiVersion": "acme.io/v1", "kind": "Thing",
		"metadata": map[string]any{"name": "db", "namespace": "team-a", "uid": "u-1"},
		"spec":     map[string]any{"crossplane": map[string]any{}},
	}
	observed := map[string]any{
		"apiVersion": "nop.crossplane.io/v1alpha1", "kind": "NopResource",
		"metadata": map[string]any{"name": "db-r", "namespace": "team-a", "annotations": map[string]any{"crossplane.io/composition-resource-name": "r"}},
		"status":   map[string]any{"atProvider": map[string]any{"endpoint": "db.example"}},
	}
	out, err := engine.Render(context.Background(), engine.Request{XR: xr, Composition: comp, Observed: []map[string]any{observed}}, engine.Options{Target: crossplane.V2})
	if err != nil {
		t.Fatalf("engine.Render(...): %v", err)
	}
	type composed struct{ kind, name, namespace, id string }
	var got []composed
	for _, c := range out.Outcome.Composed {
		if c.Desired == nil {
			continue
		}
		md, _ := c.Desired["metadata"].(map[string]any)
		name, _ := md["name"].(string)
		ns, _ := md["namespace"].(string)
		spec, _ := c.Desired["spec"].(map[string]any)
		fp, _ := spec["forProvider"].(map[string]any)
		id, _ := fp["id"].(string)
		got = append(got, composed{kind: c.Desired["kind"].(string), name: name, namespace: ns, id: id})
	}
	want := []composed{
		{kind: "NopResource", name: "db-r", namespace: "team-a", id: "team-a/db"},
		{kind: "Secret", name: "db-connection", namespace: "team-a"},
	}
	if diff := cmp.Diff(want, got, cmp.AllowUnexported(composed{}), cmpopts.SortSlices(func(a, b composed) bool { return a.kind < b.kind })); diff != "" {
		t.Errorf("composed resources of the v2 Composition: -want, +got:\n%s\n%s", diff, res.Output)
	}
}

// TestV2CorpusGolden converts realistic Compositions of the corpus, with
// their XRDs, for namespaced v2 XRs: the output and the findings are
// golden files.
func TestV2CorpusGolden(t *testing.T) {
	dir := testutil.Corpus(t)
	cases := map[string]struct {
		reason string
		xrd    string
		comp   string
		failed bool
	}{
		"projectx-database": {
			reason: "Claim name and namespace in patch sets and combine variables, metadata.uid, a Secret namespace patch, connection details; a kind without X (-v2 name). Its community GCP managed resources have no namespaced twins, so a namespaced XR cannot compose them (C448): the document is refused and kept as it was.",
			failed: true,
			xrd:    "MavenWave-DevOps__projectx-crossplane-platform/platform/database/definition.yaml",
			comp:   "MavenWave-DevOps__projectx-crossplane-platform/platform/database/gcp-standard-composition.yaml",
		},
		"upbound-aws-database": {
			reason: "An X-prefixed kind (new name from the plural), writeConnectionSecretsToNamespace, connection details.",
			xrd:    "upbound__configuration-aws-database/apis/definition.yaml",
			comp:   "upbound__configuration-aws-database/apis/composition.yaml",
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			x, err := os.ReadFile(filepath.Join(dir, tc.xrd))
			if err != nil {
				t.Fatal(err)
			}
			c, err := os.ReadFile(filepath.Join(dir, tc.comp))
			if err != nil {
				t.Fatal(err)
			}
			var xrd map[string]any
			if err := sigsyaml.Unmarshal(x, &xrd); err != nil {
				t.Fatal(err)
			}
			res, err := Convert(c, convert.Options{Source: filepath.Base(tc.comp), Target: crossplane.V2, XRScope: convert.XRScopeNamespaced, XRDs: []map[string]any{xrd}})
			if err != nil || res.Failed() != tc.failed {
				t.Fatalf("\n%s\nConvert(...): %v, failed %t\n%s", tc.reason, err, res.Failed(), render(res.Diagnostics))
			}
			testutil.Golden(t, filepath.Join("testdata", "compositions", name+".yaml"), res.Output)
			testutil.Golden(t, filepath.Join("testdata", "compositions", name+".findings"), []byte(render(res.Diagnostics)))
		})
	}
}

func TestV2PipelineMode(t *testing.T) {
	const pipelineComp = `apiVersion: apiextensions.crossplane.io/v1
kind: Composition
metadata:
  name: xthings.acme.io
spec:
  compositeTypeRef: {apiVersion: acme.io/v1, kind: XThing}
  mode: Pipeline
  pipeline:
  - step: environment-configs
    functionRef: {name: function-environment-configs}
    input:
      apiVersion: environmentconfigs.fn.crossplane.io/v1beta1
      kind: Input
      spec:
        environmentConfigs:
        - type: Selector
          selector:
            matchLabels:
            - {key: team, type: FromCompositeFieldPath, valueFromFieldPath: spec.claimRef.namespace}
  - step: patch-and-transform
    functionRef: {name: function-patch-and-transform}
    input:
      apiVersion: pt.fn.crossplane.io/v1beta1
      kind: Resources
      patchSets:
      - name: ns
        patches:
        - {type: FromCompositeFieldPath, fromFieldPath: spec.writeConnectionSecretToRef.namespace, toFieldPath: spec.writeConnectionSecretToRef.namespace}
      resources:
      - name: r
        base: {apiVersion: nop.crossplane.io/v1alpha1, kind: NopResource}
        patches:
        - {fromFieldPath: spec.claimRef.name, toFieldPath: metadata.name}
        - {type: PatchSet, patchSetName: ns}
        connectionDetails:
        - {name: p, type: FromConnectionSecretKey, fromConnectionSecretKey: p}
  - step: templates
    functionRef: {name: function-go-templating}
    input:
      apiVersion: gotemplating.fn.crossplane.io/v1beta1
      kind: GoTemplate
      source: Inline
      inline: {template: '{{ index .observed.composite.resource.metadata.labels "crossplane.io/claim-name" }}'}
`
	res, err := Convert([]byte(thingXRD+pipelineComp), convert.Options{Target: crossplane.V2, XRScope: convert.XRScopeNamespaced})
	if err != nil || res.Failed() {
		t.Fatalf("Convert(...): %v\n%s", err, render(res.Diagnostics))
	}
	want := []convert.Code{"C401", "C416", "C420", "C426", "C429", "C427", "C424", "C432"} // C401, C416: the XRD in the stream
	if diff := cmp.Diff(want, codes(res.Diagnostics)); diff != "" {
		t.Errorf("Convert(...): -want codes, +got:\n%s\n%s", diff, render(res.Diagnostics))
	}
	m := v2Output(t, res.Output)
	md := m["metadata"].(map[string]any)
	if md["name"] != "things.acme.io" {
		t.Errorf("name: want things.acme.io, got %v", md["name"])
	}
	steps := m["spec"].(map[string]any)["pipeline"].([]any)
	ec := steps[0].(map[string]any)["input"].(map[string]any)["spec"].(map[string]any)["environmentConfigs"].([]any)
	ml := ec[0].(map[string]any)["selector"].(map[string]any)["matchLabels"].([]any)[0].(map[string]any)
	if diff := cmp.Diff("metadata.namespace", ml["valueFromFieldPath"]); diff != "" {
		t.Errorf("selector valueFromFieldPath: -want, +got:\n%s", diff)
	}
	pt := steps[1].(map[string]any)["input"].(map[string]any)
	wantPT := map[string]any{
		"patchSets": []any{map[string]any{"name": "ns", "patches": []any{}}},
		"patches": []any{
			map[string]any{"fromFieldPath": "metadata.name", "toFieldPath": "metadata.name"},
			map[string]any{"type": "PatchSet", "patchSetName": "ns"},
		},
	}
	gotPT := map[string]any{"patchSets": pt["patchSets"], "patches": pt["resources"].([]any)[0].(map[string]any)["patches"]}
	if diff := cmp.Diff(wantPT, gotPT, cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("patch-and-transform input: -want, +got:\n%s", diff)
	}
	if pt["writeConnectionSecretToRef"] == nil {
		t.Errorf("patch-and-transform input: no writeConnectionSecretToRef for the connection details")
	}
	mp, err := v2map.Decode(md["annotations"].(map[string]any)[v2map.Annotation].(string))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]v2map.Resource{{Name: "r", Ops: []v2map.Op{
		{Code: "C429", Op: v2map.OpDelete, Path: "spec.writeConnectionSecretToRef.namespace"},
		// The base has no reference: only patches make it (C429's prune).
		{Code: "C429", Op: v2map.OpPrune, Path: "spec.writeConnectionSecretToRef"},
	}}}, mp.Resources); diff != "" {
		t.Errorf("mapping resources: -want, +got:\n%s", diff)
	}
}

// TestV2NestedXR: a template composing a legacy XR whose XRD --target v2
// converts (given with the input or --xrd) composes its v2 type, with its
// base's machinery under spec.crossplane, declared in the mapping (C458);
// one whose XRD is modern already is only flagged (C453).
func TestV2NestedXR(t *testing.T) {
	nested := `apiVersion: apiextensions.crossplane.io/v1
kind: CompositeResourceDefinition
metadata: {name: xnetworks.acme.io}
spec:
  group: acme.io
  names: {kind: XNetwork, plural: xnetworks}
  versions:
  - {name: v1, served: true, referenceable: true, schema: {openAPIV3Schema: {type: object}}}
`
	comp := v2Composition("    - {fromFieldPath: spec.a, toFieldPath: spec.b}\n")
	comp = strings.Replace(comp, "base: {apiVersion: nop.crossplane.io/v1alpha1, kind: NopResource}", "base: {apiVersion: acme.io/v1, kind: XNetwork, spec: {compositionSelector: {matchLabels: {net: v1}}}}", 1)
	if !strings.Contains(comp, "kind: XNetwork") {
		t.Fatalf("the test Composition has no template to edit:\n%s", comp)
	}
	cases := map[string]struct {
		reason    string
		xrd       string
		wantCode  convert.Code
		wantKind  string
		wantOps   []v2map.Op
		wantMoved bool
	}{
		"LegacyXRD": {
			reason:   "A legacy XRD converts with the same options: the template composes its v2 type.",
			xrd:      nested,
			wantCode: "C458", wantKind: "Network", wantMoved: true,
			wantOps: []v2map.Op{
				{Code: "C458", Op: v2map.OpSet, Path: "apiVersion", Value: "acme.io/v1"},
				{Code: "C458", Op: v2map.OpSet, Path: "kind", Value: "Network"},
				{Code: "C458", Op: v2map.OpMove, Path: "spec.compositionSelector", To: "spec.crossplane.compositionSelector"},
			},
		},
		"ModernXRD": {
			reason:   "A modern XRD is not converted to another type: the template is only flagged.",
			xrd:      strings.Replace(nested, "  group: acme.io\n", "  group: acme.io\n  scope: Namespaced\n", 1),
			wantCode: "C453", wantKind: "XNetwork",
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			res, err := Convert([]byte(comp), convert.Options{Target: crossplane.V2, XRScope: convert.XRScopeNamespaced, XRDs: []map[string]any{decode(tc.xrd)}})
			if err != nil || res.Failed() {
				t.Fatalf("\n%s\nConvert(...): %v\n%s", tc.reason, err, render(res.Diagnostics))
			}
			if !slices.Contains(codes(res.Diagnostics), tc.wantCode) {
				t.Errorf("\n%s\nConvert(...): want %s among %v", tc.reason, tc.wantCode, codes(res.Diagnostics))
			}
			m := v2Output(t, res.Output)
			p := fieldpath.Pave(m)
			if k, _ := p.GetString("spec.pipeline[0].input.resources[0].base.kind"); k != tc.wantKind {
				t.Errorf("\n%s\nConvert(...): template kind: want %s, got %s", tc.reason, tc.wantKind, k)
			}
			_, err = p.GetValue("spec.pipeline[0].input.resources[0].base.spec.crossplane.compositionSelector")
			if moved := err == nil; moved != tc.wantMoved {
				t.Errorf("\n%s\nConvert(...): compositionSelector under spec.crossplane: want %t, got %t", tc.reason, tc.wantMoved, moved)
			}
			mp, err := v2map.Decode(m["metadata"].(map[string]any)["annotations"].(map[string]any)[v2map.Annotation].(string))
			if err != nil {
				t.Fatal(err)
			}
			var got []v2map.Op
			for _, r := range mp.Resources {
				for _, o := range r.Ops {
					if o.Code == "C458" {
						got = append(got, o)
					}
				}
			}
			if diff := cmp.Diff(tc.wantOps, got); diff != "" {
				t.Errorf("\n%s\nmapping C458 ops: -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}

// TestV2SecretNamespacePatchOfABaseWithNamespace: a removed patch of the
// Secret reference's namespace (C429) of a template whose base sets that
// namespace itself (a composed XR, which C443 does not edit) removes it
// from the base too: the mapping's op and the converted template agree,
// and the round-trip check (C192) passes.
func TestV2SecretNamespacePatchOfABaseWithNamespace(t *testing.T) {
	comp := v2Composition("    - {fromFieldPath: metadata.name, toFieldPath: spec.writeConnectionSecretToRef.namespace}\n")
	comp = strings.Replace(comp, "base: {apiVersion: nop.crossplane.io/v1alpha1, kind: NopResource}", "base: {apiVersion: other.io/v1, kind: XBucket, spec: {writeConnectionSecretToRef: {name: '', namespace: ''}}}", 1)
	res, err := Convert([]byte(comp), convert.Options{Target: crossplane.V2, XRScope: convert.XRScopeNamespaced})
	if err != nil || res.Failed() {
		t.Fatalf("Convert(...): %v\n%s", err, render(res.Diagnostics))
	}
	if !slices.Contains(codes(res.Diagnostics), "C429") {
		t.Errorf("Convert(...): want C429 among %v", codes(res.Diagnostics))
	}
	p := fieldpath.Pave(v2Output(t, res.Output))
	got, err := p.GetValue("spec.pipeline[0].input.resources[0].base.spec.writeConnectionSecretToRef")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(map[string]any{"name": ""}, got); diff != "" {
		t.Errorf("Convert(...): the base's writeConnectionSecretToRef: -want, +got:\n%s", diff)
	}
}
