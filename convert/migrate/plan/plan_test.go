package plan

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/xpmigrate/xpmigrate/convert"
	"github.com/xpmigrate/xpmigrate/internal/crossplane"
	"github.com/xpmigrate/xpmigrate/internal/errkind"
	"github.com/xpmigrate/xpmigrate/internal/jsonobj"
	"github.com/xpmigrate/xpmigrate/internal/manifest"
)

func convertOptions(t *testing.T) convert.Options { return benchConvertOptions(t) }

func benchConvertOptions(t testing.TB) convert.Options {
	t.Helper()
	docs, err := manifest.LoadPath("testdata/crds.yaml")
	if err != nil {
		t.Fatal(err)
	}
	return convert.Options{Target: crossplane.V2, XRNaming: convert.XRNamingNewGroup, XRGroup: "v2.example.org", ProviderCRDs: manifest.Objects(docs)}
}

// fixture loads the legacy platform and lets edit change the live
// objects (by kind/name) first.
func fixture(t *testing.T, edit func(name string, o map[string]any)) (*Manifests, *Legacy, Definitions) {
	t.Helper()
	m, err := LoadManifests("testdata/platform.yaml", "testdata/live.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if edit != nil {
		for _, o := range m.Objects() {
			edit(jsonobj.String(o, "metadata", "name"), o)
		}
	}
	l, err := m.Legacy(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	d, err := Convert(l, convertOptions(t))
	if err != nil {
		t.Fatal(err)
	}
	return m, l, d
}

func build(t *testing.T, edit func(name string, o map[string]any)) *Plan {
	t.Helper()
	_, l, d := fixture(t, edit)
	p, err := Build(context.Background(), l, d, Options{Convert: convertOptions(t)})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestBuild(t *testing.T) {
	type want struct {
		errors    []string
		resources []Resource
	}
	adopted := []Resource{
		{Name: "db", Old: Ref{APIVersion: "nop.example.org/v1alpha1", Kind: "NopResource", Name: "orders-abcde-db1"},
			Twin:         Ref{APIVersion: "nop.m.example.org/v1alpha1", Kind: "NopResource", Namespace: "team-a", Name: "orders-abcde-db1"},
			ExternalName: "orders-db-ext", InitialPolicies: []string{"Observe", "Create", "Update", "LateInitialize"}, IntendedPolicies: []string{"*"}},
		{Name: "bucket", Old: Ref{APIVersion: "nop.example.org/v1alpha1", Kind: "NopResource", Name: "orders-abcde-bk2"},
			Twin:         Ref{APIVersion: "nop.m.example.org/v1alpha1", Kind: "NopResource", Namespace: "team-a", Name: "orders-abcde-bk2"},
			ExternalName: "orders-bucket-ext", InitialPolicies: []string{"Observe", "Create", "Update", "LateInitialize"}, IntendedPolicies: []string{"*"}},
	}
	cases := map[string]struct {
		reason string
		edit   func(name string, o map[string]any)
		want   want
	}{
		"AdoptsEveryManagedResource": {
			reason: "A claim whose managed resources carry external names and composition resource names moves with no error: each twin keeps its name, in the claim's namespace, without Delete at first.",
			want:   want{resources: adopted},
		},
		"OrphanKeepsNoDelete": {
			reason: "A managed resource that was orphaned stays so: its intended policies are the mapped ones without Delete.",
			edit: func(name string, o map[string]any) {
				if name == "orders-abcde-bk2" {
					o["spec"].(map[string]any)["deletionPolicy"] = "Orphan"
				}
			},
			want: want{resources: []Resource{adopted[0], func() Resource {
				r := adopted[1]
				r.IntendedPolicies = []string{"Observe", "Create", "Update", "LateInitialize"}
				return r
			}()}},
		},
		"MissingExternalName": {
			reason: "A managed resource without an external name would be created anew: an error that names it.",
			edit: func(name string, o map[string]any) {
				if name == "orders-abcde-bk2" {
					delete(o["metadata"].(map[string]any)["annotations"].(map[string]any), "crossplane.io/external-name")
				}
			},
			want: want{resources: adopted[:1], errors: []string{
				"NopResource.nop.example.org orders-abcde-bk2 (bucket) has no crossplane.io/external-name annotation: its twin would create a new external resource",
				`render proof: template "bucket" renders nop.m.example.org/v1alpha1 NopResource, which no managed resource of XNopDB.example.org orders-abcde matches by crossplane.io/composition-resource-name: it would be created, not adopted`,
			}},
		},
		"UnknownTemplate": {
			reason: "A managed resource whose composition resource name no v2 template has would be recreated: an error.",
			edit: func(name string, o map[string]any) {
				if name == "orders-abcde-db1" {
					o["metadata"].(map[string]any)["annotations"].(map[string]any)["crossplane.io/composition-resource-name"] = "database"
				}
			},
			want: want{resources: adopted[1:], errors: []string{
				`NopResource.nop.example.org orders-abcde-db1 (database): the v2 Composition has no template "database": it would be recreated, not adopted`,
				`render proof: template "db" renders nop.m.example.org/v1alpha1 NopResource, which no managed resource of XNopDB.example.org orders-abcde matches by crossplane.io/composition-resource-name: it would be created, not adopted`,
			}},
		},
		"SpecWouldChange": {
			reason: "A live spec the v2 render would change (here the claim asks for another size than the live resource has) is an error naming the field.",
			edit: func(name string, o map[string]any) {
				if name == "orders" {
					o["spec"].(map[string]any)["size"] = "huge"
				}
			},
			want: want{resources: adopted, errors: []string{
				`render proof: resource "db": spec.forProvider.size renders "huge", the live value is "large": the provider would change the external resource`,
			}},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			p := build(t, tc.edit)
			if len(p.XRs) != 1 {
				t.Fatalf("\n%s\nBuild(...): want 1 XR, got %d", tc.reason, len(p.XRs))
			}
			x := p.XRs[0]
			if diff := cmp.Diff(tc.want.errors, x.Errors); diff != "" {
				t.Errorf("\n%s\nBuild(...): -want errors, +got:\n%s", tc.reason, diff)
			}
			if diff := cmp.Diff(tc.want.resources, x.Resources); diff != "" {
				t.Errorf("\n%s\nBuild(...): -want resources, +got:\n%s", tc.reason, diff)
			}
			if p.Failed() != (len(tc.want.errors) > 0) {
				t.Errorf("\n%s\nFailed(): got %v", tc.reason, p.Failed())
			}
		})
	}
}

func TestNewXR(t *testing.T) {
	p := build(t, nil)
	x := p.XRs[0]
	want := map[string]any{
		"apiVersion": "v2.example.org/v1alpha1", "kind": "NopDB",
		"metadata": map[string]any{"name": "orders", "namespace": "team-a", "annotations": map[string]any{"crossplane.io/paused": "true"}},
		"spec": map[string]any{"size": "large", "crossplane": map[string]any{
			"compositionRef": map[string]any{"name": "nopdbs.v2.example.org"},
			"resourceRefs": []any{
				map[string]any{"apiVersion": "nop.m.example.org/v1alpha1", "kind": "NopResource", "name": "orders-abcde-db1"},
				map[string]any{"apiVersion": "nop.m.example.org/v1alpha1", "kind": "NopResource", "name": "orders-abcde-bk2"},
			},
		}},
	}
	if diff := cmp.Diff(want, x.newXR); diff != "" {
		t.Errorf("the new XR is the claim's twin, paused, naming the twins: -want, +got:\n%s", diff)
	}
	if x.Dir != "team-a/orders" || x.V2Composition != "nopdbs.v2.example.org" {
		t.Errorf("Dir, V2Composition: got %q, %q", x.Dir, x.V2Composition)
	}
}

// applyStep plays the operator: merges each manifest of a step's apply
// files into the export (as a forced server-side apply of those fields
// would), deletes what a delete names (marks it deleting), unpauses.
func applyStep(t *testing.T, m *Manifests, x *XR, n int) {
	t.Helper()
	s := x.Steps[n-1]
	for _, a := range s.Actions {
		for _, obj := range s.objects[a.File] {
			r := refOf(obj)
			live, _, _ := m.Get(context.Background(), r.APIVersion, r.Kind, r.Namespace, r.Name)
			switch a.Verb {
			case VerbApply:
				if live == nil {
					m.add(jsonobj.DeepCopy(obj))
					continue
				}
				jsonobj.MergePatch(live, obj)
			case VerbUnpause:
				delete(live["metadata"].(map[string]any)["annotations"].(map[string]any), "crossplane.io/paused")
			case VerbDelete:
				live["metadata"].(map[string]any)["deletionTimestamp"] = "2026-01-01T00:00:00Z"
			}
		}
	}
}

func TestCheck(t *testing.T) {
	m, l, d := fixture(t, nil)
	// The export holds the v2 definitions as the cluster would once
	// definitions.yaml is applied.
	for _, c := range d.Compositions {
		m.add(c)
	}
	p, err := Build(context.Background(), l, d, Options{Convert: convertOptions(t)})
	if err != nil {
		t.Fatal(err)
	}
	x := p.XRs[0]
	check := func(n int) []string {
		t.Helper()
		r, err := Check(context.Background(), m, x, n)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	if r := check(StepProtect); len(r) > 0 {
		t.Errorf("step 1 on the live platform: want allowed, got %v", r)
	}
	want := []string{
		"the claim NopDB.example.org team-a/orders is not paused (step 1)",
		"the legacy XR XNopDB.example.org orders-abcde is not paused (step 1)",
		"NopResource.nop.example.org orders-abcde-db1 is not paused (step 1)",
		`NopResource.nop.example.org orders-abcde-db1 would delete its external resource: deletionPolicy Delete, managementPolicies [*] (step 1)`,
		"NopResource.nop.example.org orders-abcde-bk2 is not paused (step 1)",
		`NopResource.nop.example.org orders-abcde-bk2 would delete its external resource: deletionPolicy Delete, managementPolicies [*] (step 1)`,
	}
	if diff := cmp.Diff(want, check(StepAdopt)); diff != "" {
		t.Errorf("step 2 before step 1: -want reasons, +got:\n%s", diff)
	}
	applyStep(t, m, x, StepProtect)
	if r := check(StepAdopt); len(r) > 0 {
		t.Errorf("step 2 after step 1: want allowed, got %v", r)
	}
	if r := check(StepResume); len(r) == 0 {
		t.Error("step 3 before step 2: want blocked")
	}
	applyStep(t, m, x, StepAdopt)
	if r := check(StepResume); len(r) > 0 {
		t.Errorf("step 3 after step 2: want allowed, got %v", r)
	}
	applyStep(t, m, x, StepResume)
	want = []string{"the new XR NopDB.v2.example.org team-a/orders is not Ready"}
	for _, r := range x.Resources {
		want = append(want, r.Twin.String()+" is not controlled by the new XR NopDB.v2.example.org team-a/orders")
	}
	if diff := cmp.Diff(want, check(StepRetire)); diff != "" {
		t.Errorf("step 4 before Crossplane adopted the twins: -want reasons, +got:\n%s", diff)
	}
}

func TestWriteRefuses(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "plan.json"), 0o755); err != nil {
		t.Fatal(err)
	}
	err := Write(dir, map[string][]byte{"README.md": []byte("x"), "plan.json": []byte("{}")})
	if !errkind.IsInvalidInput(err) {
		t.Fatalf("Write over a directory: want an invalid input error, got %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "README.md")); !os.IsNotExist(err) {
		t.Errorf("Write wrote README.md before it knew every path was writable")
	}
}

func TestREADMESaysNothingIsWritten(t *testing.T) {
	p := build(t, nil)
	r := p.README()
	for _, s := range []string{"xpmigrate never writes to the cluster", "kubectl apply --server-side --force-conflicts --field-manager=xpmigrate-plan-step1 -f team-a/orders/1-protect.yaml", "kubectl wait --for=condition=Ready --timeout=10m nopdb.v2.example.org/orders -n team-a", "xpmigrate plan v2 --check-step 2 --plan . --cluster --xr team-a/orders"} {
		if !strings.Contains(r, s) {
			t.Errorf("README.md does not say %q:\n%s", s, r)
		}
	}
}

func TestBuildClaimTypeCollision(t *testing.T) {
	_, l, _ := fixture(t, nil)
	o := convertOptions(t)
	o.XRNaming, o.XRGroup = "", ""
	d, err := Convert(l, o)
	if err != nil {
		t.Fatal(err)
	}
	p, err := Build(context.Background(), l, d, Options{Convert: o})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"the v2 XR type example.org/v1alpha1 NopDB is the claim's type: both cannot exist at once, and the claim exists until step 4; convert with --xr-naming new-group"}
	if diff := cmp.Diff(want, p.XRs[0].Errors); diff != "" {
		t.Errorf("drop-prefix naming gives the claim's type: -want errors, +got:\n%s", diff)
	}
}

func TestLegacyLeavesV2Alone(t *testing.T) {
	_, l, d := fixture(t, nil)
	objs := slices.Concat(l.XRDs, l.Compositions, d.XRDs, d.Compositions)
	// A v2 API server lists a v2 XRD at v1 too.
	v1view := jsonobj.DeepCopy(d.XRDs[0])
	v1view["apiVersion"] = "apiextensions.crossplane.io/v1"
	objs = append(objs, v1view, map[string]any{"apiVersion": "v2.example.org/v1alpha1", "kind": "NopDB", "metadata": map[string]any{"name": "moved", "namespace": "team-a"}})
	got, err := NewManifests(objs...).Legacy(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(got.XRDs) != 1 || len(got.Composites) != 0 {
		t.Errorf("a v2 XRD (at either version) and a v2 XR are not legacy: got %d XRDs, %d composites", len(got.XRDs), len(got.Composites))
	}
}

func TestTwinHasNoClusterOnlyFields(t *testing.T) {
	p := build(t, func(name string, o map[string]any) {
		if name == "orders-abcde-db1" {
			spec := o["spec"].(map[string]any)
			spec["writeConnectionSecretToRef"] = map[string]any{"name": "orders-db", "namespace": "crossplane-system"}
			spec["publishConnectionDetailsTo"] = map[string]any{"name": "orders-db"}
		}
	})
	x := p.XRs[0]
	if len(x.Errors) > 0 {
		t.Fatalf("Build(...): %v", x.Errors)
	}
	spec := x.twins[0]["spec"].(map[string]any)
	want := map[string]any{"name": "orders-db"}
	if diff := cmp.Diff(want, spec["writeConnectionSecretToRef"]); diff != "" {
		t.Errorf("a twin writes its connection Secret in its own namespace: -want, +got:\n%s", diff)
	}
	for _, f := range []string{"publishConnectionDetailsTo", "deletionPolicy"} {
		if _, ok := spec[f]; ok {
			t.Errorf("a twin has spec.%s, which namespaced managed resources do not", f)
		}
	}
}

// TestNoCompositionMapsSaysWhy (issue 25 item 2): when the conversion
// refuses the Composition of an XR's type, the XR's plan error carries
// the converter's reason, not only "no v2 Composition maps".
func TestNoCompositionMapsSaysWhy(t *testing.T) {
	_, l, d := fixture(t, func(name string, o map[string]any) {
		if name != "xnopdbs.example.org" || o["kind"] != "Composition" {
			return
		}
		steps := o["spec"].(map[string]any)["pipeline"].([]any)
		res := steps[0].(map[string]any)["input"].(map[string]any)["resources"].([]any)
		res = append(res, map[string]any{"name": "classic", "base": map[string]any{"apiVersion": "s3.aws.crossplane.io/v1beta1", "kind": "Bucket"}})
		steps[0].(map[string]any)["input"].(map[string]any)["resources"] = res
	})
	p, err := Build(context.Background(), l, d, Options{Convert: convertOptions(t)})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.XRs) != 1 || len(p.XRs[0].Errors) != 1 {
		t.Fatalf("Build(...): want 1 XR with 1 error, got %+v", p.XRs)
	}
	got := p.XRs[0].Errors[0]
	for _, want := range []string{"no v2 Composition maps", "Composition xnopdbs.example.org: C448", "classic provider-aws"} {
		if !strings.Contains(got, want) {
			t.Errorf("Build(...): the XR's error does not say %q:\n%s", want, got)
		}
	}
}
