//go:build e2e

package plan

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pkg/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/dynamic"

	"github.com/xpmigrate/xpmigrate/internal/jsonobj"
	"github.com/xpmigrate/xpmigrate/internal/kubetest"
	"github.com/xpmigrate/xpmigrate/internal/manifest"
	"github.com/xpmigrate/xpmigrate/internal/testutil"
	"github.com/xpmigrate/xpmigrate/internal/xp"
)

// e2eXRs is how many claims the legacy platform runs: the plan for all
// of them is made read-only; e2eMoved of them are moved step by step.
const (
	e2eXRs   = 200
	e2eMoved = 3
)

// TestE2EPlanV2 stands up a Crossplane v2 API (CRDs only: no Crossplane or
// provider controller runs) with a legacy platform as Crossplane v1 left
// it, plans its move read-only with the binary, and applies the plan as
// the operator would, checking each step's precondition with the binary
// and, after each step, that no managed resource was deleted or lost its
// external name. Where a controller would act between steps (Crossplane
// composing the new XR, a provider releasing a deleted orphaned resource)
// the test plays it, from the plan's render proof and only when the state
// allows it.
func TestE2EPlanV2(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
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
	if err := s.InstallCrossplaneV2CRDs(ctx); err != nil {
		t.Fatal(err)
	}
	seedLegacy(ctx, t, s, e2eXRs)

	// Plan, read-only.
	out := filepath.Join(t.TempDir(), "move")
	run := func(t *testing.T, want int, args ...string) string {
		t.Helper()
		return runBinary(ctx, t, bin, want, args...)
	}
	ro := []string{"--cluster", "--kubeconfig", s.Kubeconfig(kubetest.Reader)}
	got := run(t, 0, append([]string{"plan", "v2", "--out", out, "--xr-naming", "new-group", "--xr-group", "v2.example.org", "--provider-crds", "testdata/crds.yaml"}, ro...)...)
	if !strings.Contains(got, fmt.Sprintf("%d XRs planned", e2eXRs)) || !strings.Contains(got, "xpmigrate wrote nothing to the cluster") {
		t.Fatalf("plan v2: want %d XRs planned and the promise, got:\n%s", e2eXRs, got)
	}
	events, err := s.AuditEvents(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if v := kubetest.ReadOnlyViolations(events, kubetest.Reader); len(v) > 0 {
		t.Fatalf("plan v2 sent requests that are not get or list:\n  %s", strings.Join(v, "\n  "))
	}
	if n := kubetest.Requests(events, kubetest.Reader); n["list"] == 0 || n["get"] == 0 {
		t.Fatalf("the audit log holds no get or list of the reader (%v)", n)
	}
	p, err := Load(out)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.XRs) != e2eXRs || p.Failed() {
		t.Fatalf("plan: want %d XRs without errors, got %d (failed %v)", e2eXRs, len(p.XRs), p.Failed())
	}

	// The operator applies the v2 definitions; Crossplane would create the
	// v2 XR's CRD from its XRD.
	defs, err := manifest.LoadFile(filepath.Join(out, "definitions.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range manifest.Objects(defs) {
		if err := s.Create(ctx, &unstructured.Unstructured{Object: o}); err != nil {
			t.Fatalf("apply definitions.yaml: %v", err)
		}
		if o["kind"] == "CompositeResourceDefinition" {
			crd, err := kubetest.CompositeCRDV2(&unstructured.Unstructured{Object: o})
			if err != nil {
				t.Fatal(err)
			}
			if err := s.InstallCRDs(ctx, crd); err != nil {
				t.Fatal(err)
			}
		}
	}

	dyn, mapper, err := s.Client(kubetest.Admin)
	if err != nil {
		t.Fatal(err)
	}
	op := &operator{t: t, ctx: ctx, dyn: dyn, mapper: mapper, dir: out, fm: p.FieldManager}
	for _, x := range p.XRs[:e2eMoved] {
		t.Run(strings.ReplaceAll(x.Dir, "/", "_"), func(t *testing.T) {
			op.t = t
			check := func(n, want int) {
				t.Helper()
				run(t, want, append([]string{"plan", "v2", "--check-step", fmt.Sprint(n), "--plan", out, "--xr", x.Dir}, ro...)...)
			}
			check(StepProtect, 0)
			check(StepAdopt, 3)
			for n := StepProtect; n <= StepRelease; n++ {
				check(n, 0)
				op.step(x, x.Steps[n-1])
				op.safe(x, n)
				switch n {
				case StepResume:
					// Before Crossplane composes, step 4 is not allowed.
					check(StepRetire, 3)
					op.compose(x)
				case StepRelease:
					op.release(x)
				}
			}
			check(StepDone, 0)
			op.matchesRender(x)
		})
	}
	// Planning again sees the claims still to move, and neither the moved
	// ones nor the v2 XRs that replaced them (the v2 XRD and Composition
	// are in the cluster now).
	got = run(t, 0, append([]string{"plan", "v2", "--out", filepath.Join(t.TempDir(), "again"), "--xr-naming", "new-group", "--xr-group", "v2.example.org", "--provider-crds", "testdata/crds.yaml"}, ro...)...)
	if !strings.Contains(got, fmt.Sprintf("%d XRs planned", e2eXRs-e2eMoved)) {
		t.Errorf("plan v2 after %d moves: want %d XRs planned, got:\n%s", e2eMoved, e2eXRs-e2eMoved, got)
	}
	// The checks too only read.
	events, err = s.AuditEvents(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if v := kubetest.ReadOnlyViolations(events, kubetest.Reader); len(v) > 0 {
		t.Fatalf("plan v2 --check-step sent requests that are not get or list:\n  %s", strings.Join(v, "\n  "))
	}
}

// runBinary runs the built xpmigrate with args, wants exit code want and
// returns its stdout.
func runBinary(ctx context.Context, t *testing.T, bin string, want int, args ...string) string {
	t.Helper()
	cmd := exec.CommandContext(ctx, bin, args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("xpmigrate %s: %v", strings.Join(args, " "), err)
	}
	if code != want {
		t.Fatalf("xpmigrate %s: exit %d, want %d\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), code, want, stdout.String(), stderr.String())
	}
	return stdout.String()
}

// seedLegacy creates what Crossplane v1 and a provider left behind: the v1
// XRD with claims (on Crossplane v2's CRDs, which still serve it as
// LegacyCluster), its Pipeline Composition, the managed resource CRDs in
// both forms (typed as Upbound's providers type theirs: the API server
// gives a managed resource without providerConfigRef {name: default}, and
// the namespaced twin requires its kind), and n claims with their XRs and
// managed resources as the composer writes them.
func seedLegacy(ctx context.Context, t *testing.T, s *kubetest.Server, n int) {
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
	platform := load("testdata/platform.yaml")
	xrd, comp := platform[0], platform[1]
	if err := s.Create(ctx, xrd); err != nil {
		t.Fatalf("Crossplane v2's XRD CRD refuses a v1 XRD with claims: %v", err)
	}
	dyn, _, err := s.Client(kubetest.Admin)
	if err != nil {
		t.Fatal(err)
	}
	m, err := s.Mapping(xrd.GroupVersionKind())
	if err != nil {
		t.Fatal(err)
	}
	stored, err := dyn.Resource(m.Resource).Get(ctx, xrd.GetName(), metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if scope, _, _ := unstructured.NestedString(stored.Object, "spec", "scope"); scope != "LegacyCluster" {
		t.Fatalf("a v1 XRD on Crossplane v2: spec.scope %q, want LegacyCluster", scope)
	}
	xrCRD, claimCRD, err := kubetest.CompositeCRDs(xrd)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.InstallCRDs(ctx, xrCRD, claimCRD); err != nil {
		t.Fatal(err)
	}
	if err := s.Create(ctx, comp); err != nil {
		t.Fatal(err)
	}
	for _, ns := range []string{"team-a", "team-b"} {
		if err := s.Create(ctx, &unstructured.Unstructured{Object: map[string]any{"apiVersion": "v1", "kind": "Namespace", "metadata": map[string]any{"name": ns}}}); err != nil {
			t.Fatal(err)
		}
	}
	xrMap, err := s.Mapping(xrCRDKind(xrCRD))
	if err != nil {
		t.Fatal(err)
	}
	for i := range n {
		ns := []string{"team-a", "team-b"}[i%2]
		name := fmt.Sprintf("db-%03d", i)
		xrName := name + "-x7k2q"
		mrs := []map[string]any{
			{"apiVersion": "nop.example.org/v1alpha1", "kind": "NopResource", "metadata": map[string]any{"name": xrName + "-db",
				"annotations": map[string]any{xp.AnnotationCompositionResourceName: "db", xp.AnnotationExternalName: "ext-" + name + "-db"}},
				"spec": map[string]any{"deletionPolicy": "Delete", "managementPolicies": []any{"*"}, "providerConfigRef": map[string]any{"name": "default"},
					"forProvider": map[string]any{"size": "small", "tags": map[string]any{"ns": ns}}}},
			{"apiVersion": "nop.example.org/v1alpha1", "kind": "NopResource", "metadata": map[string]any{"name": xrName + "-bucket",
				"annotations": map[string]any{xp.AnnotationCompositionResourceName: "bucket", xp.AnnotationExternalName: "ext-" + name + "-bucket"}},
				"spec": map[string]any{"deletionPolicy": "Orphan", "managementPolicies": []any{"*"}, "forProvider": map[string]any{"size": "bucket"}}},
		}
		var refs []any
		for _, mr := range mrs {
			refs = append(refs, map[string]any{"apiVersion": mr["apiVersion"], "kind": mr["kind"], "name": jsonobj.Value(mr, "metadata", "name")})
		}
		claim := map[string]any{"apiVersion": "example.org/v1alpha1", "kind": "NopDB",
			"metadata": map[string]any{"name": name, "namespace": ns, "finalizers": []any{"finalizer.apiextensions.crossplane.io"}},
			"spec": map[string]any{"size": "small", "compositionRef": map[string]any{"name": comp.GetName()}, "compositeDeletePolicy": "Background",
				"resourceRef": map[string]any{"apiVersion": "example.org/v1alpha1", "kind": "XNopDB", "name": xrName}}}
		xr := map[string]any{"apiVersion": "example.org/v1alpha1", "kind": "XNopDB",
			"metadata": map[string]any{"name": xrName, "finalizers": []any{"composite.apiextensions.crossplane.io"},
				"labels": map[string]any{xp.LabelComposite: xrName, xp.LabelClaimName: name, xp.LabelClaimNamespace: ns}},
			"spec": map[string]any{"size": "small", "compositionRef": map[string]any{"name": comp.GetName()},
				"claimRef":     map[string]any{"apiVersion": "example.org/v1alpha1", "kind": "NopDB", "namespace": ns, "name": name},
				"resourceRefs": refs}}
		if err := s.Create(ctx, &unstructured.Unstructured{Object: claim}); err != nil {
			t.Fatal(err)
		}
		created, err := dyn.Resource(xrMap.Resource).Create(ctx, &unstructured.Unstructured{Object: xr}, metav1.CreateOptions{})
		if err != nil {
			t.Fatal(err)
		}
		for _, mr := range mrs {
			md := mr["metadata"].(map[string]any)
			md["finalizers"] = []any{"finalizer.managedresource.crossplane.io"}
			md["labels"] = map[string]any{xp.LabelComposite: xrName, xp.LabelClaimName: name, xp.LabelClaimNamespace: ns}
			md["ownerReferences"] = []any{map[string]any{"apiVersion": "example.org/v1alpha1", "kind": "XNopDB", "name": xrName,
				"uid": string(created.GetUID()), "controller": true, "blockOwnerDeletion": true}}
			if err := s.Create(ctx, &unstructured.Unstructured{Object: mr}); err != nil {
				t.Fatal(err)
			}
		}
	}
}

func xrCRDKind(crd *unstructured.Unstructured) schema.GroupVersionKind {
	group, _, _ := unstructured.NestedString(crd.Object, "spec", "group")
	kind, _, _ := unstructured.NestedString(crd.Object, "spec", "names", "kind")
	return schema.GroupVersionKind{Group: group, Version: "v1alpha1", Kind: kind}
}

// operator applies the plan's manifests with the admin client, as kubectl
// would, and plays the controllers where the test says so.
type operator struct {
	t      *testing.T
	ctx    context.Context
	dyn    dynamic.Interface
	mapper meta.ResettableRESTMapper
	dir    string
	fm     string
}

func (op *operator) client(o map[string]any) dynamic.ResourceInterface {
	op.t.Helper()
	r := refOf(o)
	g, v := xp.SplitAPIVersion(r.APIVersion)
	m, err := op.mapper.RESTMapping(schema.GroupKind{Group: g, Kind: r.Kind}, v)
	if meta.IsNoMatchError(err) {
		op.mapper.Reset()
		m, err = op.mapper.RESTMapping(schema.GroupKind{Group: g, Kind: r.Kind}, v)
	}
	if err != nil {
		op.t.Fatal(err)
	}
	if m.Scope.Name() == meta.RESTScopeNameNamespace {
		return op.dyn.Resource(m.Resource).Namespace(r.Namespace)
	}
	return op.dyn.Resource(m.Resource)
}

func (op *operator) get(r Ref) map[string]any {
	op.t.Helper()
	u, err := op.client(refObject(r)).Get(op.ctx, r.Name, metav1.GetOptions{})
	if err != nil {
		return nil
	}
	return u.Object
}

func (op *operator) file(f string) []map[string]any {
	op.t.Helper()
	docs, err := manifest.LoadFile(filepath.Join(op.dir, f))
	if err != nil {
		op.t.Fatal(err)
	}
	return manifest.Objects(docs)
}

// step runs a step's actions as its kubectl commands do.
func (op *operator) step(x *XR, s Step) {
	op.t.Helper()
	for _, a := range s.Actions {
		if a.Verb == VerbWait {
			continue // no Crossplane runs: compose plays it after the step
		}
		for _, o := range op.file(a.File) {
			c, name := op.client(o), refOf(o).Name
			var err error
			switch a.Verb {
			case VerbApply:
				_, err = c.Apply(op.ctx, name, &unstructured.Unstructured{Object: o}, metav1.ApplyOptions{FieldManager: fmt.Sprintf("%s-step%d", op.fm, s.Number), Force: true})
			case VerbUnpause:
				_, err = c.Patch(op.ctx, name, types.MergePatchType, []byte(`{"metadata":{"annotations":{"`+xp.AnnotationPaused+`":null}}}`), metav1.PatchOptions{})
			case VerbDelete:
				bg := metav1.DeletePropagationBackground
				err = c.Delete(op.ctx, name, metav1.DeleteOptions{PropagationPolicy: &bg})
			default:
				op.t.Fatalf("unknown verb %q", a.Verb)
			}
			if err != nil {
				op.t.Fatalf("step %d %s %s: %v", s.Number, a.Verb, refOf(o), err)
			}
		}
	}
}

// safe checks that no managed resource is gone (the old ones may be
// released once step 5 ran) or lost its external name, and that every
// old one being deleted is orphaned.
func (op *operator) safe(x *XR, after int) {
	op.t.Helper()
	for _, r := range x.Resources {
		old := op.get(r.Old)
		switch {
		case old == nil && after < StepRelease:
			op.t.Errorf("after step %d: %s is gone", after, r.Old)
		case old != nil:
			if jsonobj.Annotation(old, xp.AnnotationExternalName) != r.ExternalName {
				op.t.Errorf("after step %d: %s lost its external name", after, r.Old)
			}
			if jsonobj.Value(old, "metadata", "deletionTimestamp") != nil && !orphaned(old) {
				op.t.Errorf("after step %d: %s is being deleted and would delete %q", after, r.Old, r.ExternalName)
			}
		}
		if after < StepAdopt {
			continue
		}
		twin := op.get(r.Twin)
		if twin == nil {
			op.t.Errorf("after step %d: the twin %s is missing", after, r.Twin)
			continue
		}
		if jsonobj.Annotation(twin, xp.AnnotationExternalName) != r.ExternalName {
			op.t.Errorf("after step %d: the twin %s has the external name %q, want %q", after, r.Twin, jsonobj.Annotation(twin, xp.AnnotationExternalName), r.ExternalName)
		}
		if jsonobj.Value(twin, "metadata", "deletionTimestamp") != nil {
			op.t.Errorf("after step %d: the twin %s is being deleted", after, r.Twin)
		}
	}
}

// compose plays Crossplane v2's composer once the new XR is unpaused: it
// applies the render proof's desired resources (server-side apply, forced,
// a controller reference to the XR) and marks the XR Ready.
func (op *operator) compose(x *XR) {
	op.t.Helper()
	xr := op.get(x.New)
	if xr == nil || paused(xr) {
		op.t.Fatalf("compose: the new XR %s is missing or paused", x.New)
	}
	owner := []any{map[string]any{"apiVersion": x.New.APIVersion, "kind": x.New.Kind, "name": x.New.Name, "uid": jsonobj.Value(xr, "metadata", "uid"), "controller": true, "blockOwnerDeletion": true}}
	for _, d := range op.file(x.Dir + "/proof.yaml") {
		d["metadata"].(map[string]any)["ownerReferences"] = owner
		if _, err := op.client(d).Apply(op.ctx, refOf(d).Name, &unstructured.Unstructured{Object: d}, metav1.ApplyOptions{FieldManager: "apiextensions.crossplane.io/composed", Force: true}); err != nil {
			op.t.Fatalf("compose %s: %v", refOf(d), err)
		}
	}
	u := &unstructured.Unstructured{Object: xr}
	_ = unstructured.SetNestedSlice(u.Object, []any{map[string]any{"type": "Ready", "status": "True", "reason": "Available", "lastTransitionTime": time.Now().UTC().Format(time.RFC3339)}}, "status", "conditions")
	if _, err := op.client(xr).UpdateStatus(op.ctx, u, metav1.UpdateOptions{}); err != nil {
		op.t.Fatalf("compose: status of %s: %v", x.New, err)
	}
}

// release plays the controllers of the deleted, unpaused old objects:
// crossplane-runtime removes an orphaned managed resource's finalizer
// without observing it; Crossplane removes the XR's and the claim's.
func (op *operator) release(x *XR) {
	op.t.Helper()
	for _, r := range x.oldRefs() {
		o := op.get(r)
		if o == nil {
			continue
		}
		if paused(o) || jsonobj.Value(o, "metadata", "deletionTimestamp") == nil {
			op.t.Fatalf("release: %s is paused or not being deleted", r)
		}
		if r.Kind == "NopResource" && !orphaned(o) {
			op.t.Fatalf("release: %s would delete its external resource", r)
		}
		if _, err := op.client(o).Patch(op.ctx, r.Name, types.MergePatchType, []byte(`{"metadata":{"finalizers":null}}`), metav1.PatchOptions{}); err != nil {
			op.t.Fatal(err)
		}
	}
}

// matchesRender checks the final twins against the v2 render of the new
// XR: name, namespace, kind, every rendered spec field, the external name,
// and the new XR as controller.
func (op *operator) matchesRender(x *XR) {
	op.t.Helper()
	xr := op.get(x.New)
	for _, d := range op.file(x.Dir + "/proof.yaml") {
		r := refOf(d)
		live := op.get(r)
		if live == nil {
			op.t.Errorf("the rendered %s does not exist", r)
			continue
		}
		var diffs []string
		subset("spec", d["spec"], live["spec"], &diffs)
		for _, df := range diffs {
			op.t.Errorf("%s: %s", r, df)
		}
		if controller(live) != jsonobj.String(xr, "metadata", "uid") {
			op.t.Errorf("%s is not controlled by the new XR", r)
		}
		i := slices.IndexFunc(x.Resources, func(res Resource) bool { return res.Twin == r })
		if i < 0 {
			op.t.Errorf("the render has %s, which the plan does not adopt", r)
			continue
		}
		if jsonobj.Annotation(live, xp.AnnotationExternalName) != x.Resources[i].ExternalName {
			op.t.Errorf("%s: external name %q, want %q", r, jsonobj.Annotation(live, xp.AnnotationExternalName), x.Resources[i].ExternalName)
		}
		pol, _ := json.Marshal(jsonobj.Value(live, "spec", "managementPolicies"))
		want, _ := json.Marshal(x.Resources[i].IntendedPolicies)
		if !bytes.Equal(pol, want) {
			op.t.Errorf("%s: management policies %s, want %s", r, pol, want)
		}
	}
}
