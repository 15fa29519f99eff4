//go:build e2e

package plan

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/xpmigrate/xpmigrate/internal/cluster"
	"github.com/xpmigrate/xpmigrate/internal/kubetest"
	"github.com/xpmigrate/xpmigrate/internal/manifest"
	"github.com/xpmigrate/xpmigrate/internal/testutil"
	"github.com/xpmigrate/xpmigrate/internal/xp"
)

// TestE2EPlanUpgrade runs the upgrade check on a real API server with
// Crossplane v1.20.11's CRDs, read-only: a legacy Composition (U1), then
// the same Composition converted while one XR stays pinned to its legacy
// revision (U2), then nothing once the pin is moved. The CLI's exit codes
// and the audit log's reads-only are checked on the first state. (The
// real-Crossplane tier shows, in TestE2ECrossplaneUpgrade, what v2 then
// does to the Composition U1 names.)
func TestE2EPlanUpgrade(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	bin, err := testutil.BuildXpmigrate(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	s, err := kubetest.Start(ctx, kubetest.Options{})
	if err != nil {
		t.Fatalf("kubetest: %v", err)
	}
	defer func() {
		if err := s.Stop(); err != nil {
			t.Error(err)
		}
	}()
	if err := s.InstallCrossplaneCRDs(ctx); err != nil {
		t.Fatal(err)
	}
	dyn, _, err := s.Client(kubetest.Admin)
	if err != nil {
		t.Fatal(err)
	}
	comp := seedV1(ctx, t, s)

	check := func() *UpgradeReport {
		t.Helper()
		r, err := cluster.NewReader(s.RESTConfig(kubetest.Reader), cluster.Options{})
		if err != nil {
			t.Fatal(err)
		}
		rep, err := CheckUpgrade(ctx, r)
		if err != nil {
			t.Fatal(err)
		}
		return rep
	}
	type finding struct {
		Code, Composition string
		XRs               []string
	}
	summary := func(rep *UpgradeReport) []finding {
		out := []finding{}
		for _, f := range rep.Findings {
			g := finding{Code: f.Code, Composition: f.Composition}
			for _, x := range f.XRs {
				g.XRs = append(g.XRs, fmt.Sprintf("%s claim=%s revision=%s composed=%d delete=%d", x.Name, x.Claim, x.Revision, x.Composed, x.Delete))
			}
			out = append(out, g)
		}
		return out
	}

	// 1. The legacy Composition: U1, both XRs, what each would lose.
	rep := check()
	want := []finding{{Code: CodeLegacyComposition, Composition: comp.GetName(), XRs: []string{
		"db-0-x7k2q claim=team-a/db-0 revision= composed=2 delete=1",
		"db-1-x7k2q claim=team-a/db-1 revision= composed=2 delete=1",
	}}}
	if diff := cmp.Diff(want, summary(rep)); diff != "" {
		t.Errorf("legacy Composition: CheckUpgrade(): -want, +got:\n%s", diff)
	}
	got := runBinary(ctx, t, bin, 3, "plan", "upgrade", "--cluster", "--kubeconfig", s.Kubeconfig(kubetest.Reader))
	for _, w := range []string{"U1 Composition " + comp.GetName(), "2 XRs would lose 4 composed resources", "Not ready"} {
		if !strings.Contains(got, w) {
			t.Errorf("plan upgrade: the report does not say %q:\n%s", w, got)
		}
	}
	events, err := s.AuditEvents(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if v := kubetest.ReadOnlyViolations(events, kubetest.Reader); len(v) != 0 {
		t.Errorf("plan upgrade sent requests that are not reads: %v", v)
	}

	// 2. The Composition converted, one XR pinned to its legacy revision.
	m, err := s.Mapping(comp.GroupVersionKind())
	if err != nil {
		t.Fatal(err)
	}
	live, err := dyn.Resource(m.Resource).Get(ctx, comp.GetName(), metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	legacySpec := live.Object["spec"]
	live.Object["spec"] = map[string]any{
		"compositeTypeRef": jsonobjCopy(live.Object, "spec", "compositeTypeRef"),
		"mode":             "Pipeline",
		"pipeline":         []any{map[string]any{"step": "patch-and-transform", "functionRef": map[string]any{"name": "function-patch-and-transform"}}},
	}
	if _, err := dyn.Resource(m.Resource).Update(ctx, live, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	rev := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "apiextensions.crossplane.io/v1", "kind": "CompositionRevision",
		"metadata": map[string]any{"name": comp.GetName() + "-legacy", "labels": map[string]any{xp.LabelCompositionName: comp.GetName()}},
		"spec":     legacySpec,
	}}
	if err := unstructured.SetNestedField(rev.Object, int64(1), "spec", "revision"); err != nil {
		t.Fatal(err)
	}
	if err := s.Create(ctx, rev); err != nil {
		t.Fatal(err)
	}
	pin := func(name, revision string) {
		t.Helper()
		xm, err := s.Mapping(xrGVK)
		if err != nil {
			t.Fatal(err)
		}
		xr, err := dyn.Resource(xm.Resource).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if revision == "" {
			unstructured.RemoveNestedField(xr.Object, "spec", "compositionRevisionRef")
		} else if err := unstructured.SetNestedField(xr.Object, revision, "spec", "compositionRevisionRef", "name"); err != nil {
			t.Fatal(err)
		}
		if _, err := dyn.Resource(xm.Resource).Update(ctx, xr, metav1.UpdateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	pin("db-0-x7k2q", rev.GetName())
	want = []finding{{Code: CodeLegacyRevision, Composition: comp.GetName(), XRs: []string{
		"db-0-x7k2q claim=team-a/db-0 revision=" + rev.GetName() + " composed=2 delete=1",
	}}}
	if diff := cmp.Diff(want, summary(check())); diff != "" {
		t.Errorf("converted Composition, one XR pinned to the legacy revision: CheckUpgrade(): -want, +got:\n%s", diff)
	}

	// 3. The pin moved: ready.
	pin("db-0-x7k2q", "")
	if rep := check(); !rep.Ready() || rep.XRs != 2 || rep.Compositions != 1 {
		t.Errorf("converted Composition, no pin: CheckUpgrade(): ready %v, %d XRs, %d Compositions, findings %+v; want ready, 2 XRs, 1 Composition", rep.Ready(), rep.XRs, rep.Compositions, rep.Findings)
	}
	got = runBinary(ctx, t, bin, 0, "plan", "upgrade", "--cluster", "--kubeconfig", s.Kubeconfig(kubetest.Reader))
	if !strings.Contains(got, "Ready: every Composition is a Pipeline") {
		t.Errorf("plan upgrade on a ready cluster:\n%s", got)
	}
}

func jsonobjCopy(obj map[string]any, path ...string) any {
	v, _, _ := unstructured.NestedFieldCopy(obj, path...)
	return v
}

var xrGVK = schemaGVK("example.org", "v1alpha1", "XNopDB")

// seedV1 creates, on Crossplane v1.20.11's CRDs, the legacy platform of
// testdata/platform.yaml's XRD as Crossplane v1 left it: a Composition in
// mode Resources and two claimed XRs, each with two composed resources
// (one with deletionPolicy Delete, one Orphan).
func seedV1(ctx context.Context, t *testing.T, s *kubetest.Server) *unstructured.Unstructured {
	t.Helper()
	load := func(f string) []*unstructured.Unstructured {
		docs, err := manifest.LoadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var out []*unstructured.Unstructured
		for _, o := range manifest.Objects(docs) {
			out = append(out, &unstructured.Unstructured{Object: o})
		}
		return out
	}
	if err := s.InstallCRDs(ctx, load("testdata/crds.yaml")...); err != nil {
		t.Fatal(err)
	}
	xrd := load("testdata/platform.yaml")[0]
	if err := s.Create(ctx, xrd); err != nil {
		t.Fatal(err)
	}
	xrCRD, claimCRD, err := kubetest.CompositeCRDs(xrd)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.InstallCRDs(ctx, xrCRD, claimCRD); err != nil {
		t.Fatal(err)
	}
	comp := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "apiextensions.crossplane.io/v1", "kind": "Composition",
		"metadata": map[string]any{"name": "xnopdbs.example.org"},
		"spec": map[string]any{
			"compositeTypeRef": map[string]any{"apiVersion": "example.org/v1alpha1", "kind": "XNopDB"},
			"resources": []any{
				map[string]any{"name": "db", "base": map[string]any{"apiVersion": "nop.example.org/v1alpha1", "kind": "NopResource", "spec": map[string]any{"forProvider": map[string]any{"size": "small"}}}},
				map[string]any{"name": "bucket", "base": map[string]any{"apiVersion": "nop.example.org/v1alpha1", "kind": "NopResource", "spec": map[string]any{"deletionPolicy": "Orphan", "forProvider": map[string]any{"size": "bucket"}}}},
			},
		},
	}}
	if err := s.Create(ctx, comp); err != nil {
		t.Fatal(err)
	}
	if err := s.Create(ctx, &unstructured.Unstructured{Object: map[string]any{"apiVersion": "v1", "kind": "Namespace", "metadata": map[string]any{"name": "team-a"}}}); err != nil {
		t.Fatal(err)
	}
	dyn, _, err := s.Client(kubetest.Admin)
	if err != nil {
		t.Fatal(err)
	}
	xm, err := s.Mapping(xrGVK)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 2 {
		name := fmt.Sprintf("db-%d", i)
		xrName := name + "-x7k2q"
		var refs []any
		var mrs []map[string]any
		for _, r := range []struct{ name, policy string }{{"db", "Delete"}, {"bucket", "Orphan"}} {
			mr := map[string]any{"apiVersion": "nop.example.org/v1alpha1", "kind": "NopResource",
				"metadata": map[string]any{"name": xrName + "-" + r.name, "annotations": map[string]any{xp.AnnotationCompositionResourceName: r.name}},
				"spec":     map[string]any{"deletionPolicy": r.policy, "forProvider": map[string]any{"size": "small"}}}
			mrs = append(mrs, mr)
			refs = append(refs, map[string]any{"apiVersion": "nop.example.org/v1alpha1", "kind": "NopResource", "name": xrName + "-" + r.name})
		}
		xr := map[string]any{"apiVersion": "example.org/v1alpha1", "kind": "XNopDB",
			"metadata": map[string]any{"name": xrName},
			"spec": map[string]any{"compositionRef": map[string]any{"name": comp.GetName()},
				"claimRef":     map[string]any{"apiVersion": "example.org/v1alpha1", "kind": "NopDB", "namespace": "team-a", "name": name},
				"resourceRefs": refs}}
		created, err := dyn.Resource(xm.Resource).Create(ctx, &unstructured.Unstructured{Object: xr}, metav1.CreateOptions{})
		if err != nil {
			t.Fatal(err)
		}
		for _, mr := range mrs {
			mr["metadata"].(map[string]any)["ownerReferences"] = []any{map[string]any{"apiVersion": "example.org/v1alpha1", "kind": "XNopDB", "name": xrName,
				"uid": string(created.GetUID()), "controller": true, "blockOwnerDeletion": true}}
			if err := s.Create(ctx, &unstructured.Unstructured{Object: mr}); err != nil {
				t.Fatal(err)
			}
		}
	}
	return comp
}

func schemaGVK(group, version, kind string) schema.GroupVersionKind {
	return schema.GroupVersionKind{Group: group, Version: version, Kind: kind}
}
