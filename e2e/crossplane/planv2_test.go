//go:build e2e_crossplane

package crossplanee2e

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	kerrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/yaml"

	"github.com/xpmigrate/xpmigrate/convert/migrate/plan"
	"github.com/xpmigrate/xpmigrate/e2e/crossplane/fakecloud"
	"github.com/xpmigrate/xpmigrate/internal/kubetest"
)

const planV2Data = "testdata/planv2"

// The kinds testdata/planv2's Composition composes (cluster-scoped, as a
// Crossplane v1 provider serves them) and their namespaced twins.
var (
	planV2Kinds = []schema.GroupVersionKind{
		{Group: "storage.fake.xpmigrate.io", Version: "v1alpha1", Kind: "Bucket"},
		{Group: "db.fake.xpmigrate.io", Version: "v1alpha1", Kind: "Database"},
	}
	planV2Twins = []schema.GroupVersionKind{
		{Group: "storage.fake.m.xpmigrate.io", Version: "v1alpha1", Kind: "Bucket"},
		{Group: "db.fake.m.xpmigrate.io", Version: "v1alpha1", Kind: "Database"},
	}
	planV2XR    = schema.GroupVersionKind{Group: "platform.fake.xpmigrate.io", Version: "v1alpha1", Kind: "XAppStore"}
	planV2Claim = schema.GroupVersionKind{Group: "platform.fake.xpmigrate.io", Version: "v1alpha1", Kind: "AppStore"}
	xrdV2GVK    = schema.GroupVersionKind{Group: "apiextensions.crossplane.io", Version: "v2", Kind: "CompositeResourceDefinition"}
)

// The group --xr-naming new-group gives the v2 XR type: with drop-prefix
// the new kind would be the claim's (AppStore), and the claim lives until
// step 4.
const planV2Group = "v2.fake.xpmigrate.io"

// xpmigrate runs the binary and returns its exit code, stdout and stderr.
func xpmigrate(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	cmd := exec.Command(bins.XPMigrate, args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		return ee.ExitCode(), stdout.String(), stderr.String()
	case err != nil:
		t.Fatalf("xpmigrate %s: %v", strings.Join(args, " "), err)
	}
	return 0, stdout.String(), stderr.String()
}

// mustXPMigrate runs the binary and wants exit code want.
func mustXPMigrate(t *testing.T, want int, args ...string) string {
	t.Helper()
	code, out, errOut := xpmigrate(t, args...)
	if code != want {
		t.Fatalf("xpmigrate %s: exit %d, want %d\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), code, want, out, errOut)
	}
	return out + errOut
}

// readOnly fails the test when the reader sent anything but get and list.
func (p *platform) readOnly(what string) {
	p.t.Helper()
	events, err := p.server.AuditEvents(p.ctx)
	if err != nil {
		p.t.Fatal(err)
	}
	if v := kubetest.ReadOnlyViolations(events, kubetest.Reader); len(v) != 0 {
		p.t.Errorf("%s sent requests that are not reads: %v", what, v)
	}
}

// mover applies a plan's steps as README.md's kubectl commands do, with
// the admin client (there is no kubectl binary here), and checks each step
// first with xpmigrate plan v2 --check-step.
type mover struct {
	p   *platform
	dir string
	fm  string
}

// check runs --check-step n for x and returns its exit code and output.
func (m *mover) check(dir string, x *plan.XR, n int) (int, string) {
	m.p.t.Helper()
	code, out, errOut := xpmigrate(m.p.t, "plan", "v2", "--check-step", fmt.Sprint(n), "--plan", dir, "--xr", x.Dir,
		"--cluster", "--kubeconfig", m.p.server.Kubeconfig(kubetest.Reader))
	return code, out + errOut
}

// mustCheck wants --check-step n to exit want.
func (m *mover) mustCheck(x *plan.XR, n, want int) {
	m.p.t.Helper()
	if code, out := m.check(m.dir, x, n); code != want {
		m.p.t.Fatalf("%s: --check-step %d exited %d, want %d:\n%s", x.Dir, n, code, want, out)
	}
}

func (m *mover) objects(file string) []*unstructured.Unstructured {
	m.p.t.Helper()
	objs, err := readObjects(filepath.Join(m.dir, filepath.FromSlash(file)))
	if err != nil {
		m.p.t.Fatal(err)
	}
	return objs
}

// run applies step s, action by action, as its kubectl command does. A
// missing object the command names fails the test unless tolerateGone.
func (m *mover) run(x *plan.XR, s plan.Step, tolerateGone bool) {
	p := m.p
	p.t.Helper()
	for _, a := range s.Actions {
		if a.Verb == plan.VerbWait {
			// kubectl wait --for=condition=Ready --timeout=10m <kind>.<group>/<name> -n <namespace>
			gvk := gvkOf(x.New)
			p.waitFor(fmt.Sprintf("the new XR %s to be Ready (%s)", x.New.Name, a.Command), 10*time.Minute, func() (bool, error) {
				u, err := p.get(gvk, x.New.Namespace, x.New.Name)
				if err != nil || u == nil {
					return false, err
				}
				return condition(u, "Ready") == "True", nil
			})
			continue
		}
		for _, o := range m.objects(a.File) {
			mp, err := p.server.Mapping(o.GroupVersionKind())
			if err != nil {
				p.t.Fatalf("step %d (%s): %v", s.Number, a.Command, err)
			}
			ri := p.resource(mp, o.GetNamespace())
			switch a.Verb {
			case plan.VerbApply:
				// kubectl apply --server-side --force-conflicts --field-manager=<plan>-stepN -f FILE
				_, err = ri.Apply(p.ctx, o.GetName(), o, metav1.ApplyOptions{FieldManager: fmt.Sprintf("%s-step%d", m.fm, s.Number), Force: true})
			case plan.VerbUnpause:
				// kubectl annotate -f FILE crossplane.io/paused-
				_, err = ri.Patch(p.ctx, o.GetName(), types.MergePatchType, []byte(`{"metadata":{"annotations":{"crossplane.io/paused":null}}}`), metav1.PatchOptions{})
			case plan.VerbDelete:
				// kubectl delete --wait=false -f FILE (background propagation)
				bg := metav1.DeletePropagationBackground
				err = ri.Delete(p.ctx, o.GetName(), metav1.DeleteOptions{PropagationPolicy: &bg})
			default:
				p.t.Fatalf("step %d: unknown verb %q", s.Number, a.Verb)
			}
			if kerrors.IsNotFound(err) && tolerateGone {
				continue
			}
			if err != nil {
				p.t.Fatalf("step %d of %s (%s) on %s %q: %v", s.Number, x.Dir, a.Command, o.GetKind(), o.GetName(), err)
			}
		}
	}
}

// cloudFor counts the fake cloud's calls, after the first skip, by
// operation, for the managed resources named (old ones and their twins
// share their names).
func cloudFor(t *testing.T, dir string, skip int, names map[string]bool) map[string]int {
	t.Helper()
	calls, err := fakecloud.ReadCalls(dir)
	if err != nil {
		t.Fatal(err)
	}
	n := map[string]int{}
	for _, c := range calls[skip:] {
		if names == nil || names[c.Resource.Name] {
			n[c.Op]++
		}
	}
	return n
}

func resourceNames(x *plan.XR) map[string]bool {
	m := map[string]bool{}
	for _, r := range x.Resources {
		m[r.Old.Name] = true
		m[r.Twin.Name] = true
	}
	return m
}

// copyDir copies the plan directory from to to.
func copyDir(t *testing.T, from, to string) {
	t.Helper()
	err := filepath.WalkDir(from, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, path)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(to, rel), 0o700)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(to, rel), b, 0o600)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestE2ECrossplanePlanV2 is scenario 3: `plan v2` executed on real core
// v2.3.4. A legacy platform (a v1 XRD with claims, its Composition
// converted to Pipeline mode by xpmigrate migrate, composing the test
// provider's cluster-scoped kinds) runs two claims until steady. Then
// migrate --target v2 writes the v2-native definitions, `plan v2 --cluster`
// plans the move read-only, and claim "orders" is moved step by step as
// the plan's README says, each step after its check: at the end the new
// namespaced XR is Ready and owns the twins, the old objects are gone, and
// the fake cloud recorded no external create or delete.
//
// The planted faults: every step run out of order (before step 1, and
// after each step any but the next) is refused by its check; a twin edited so that it would change
// a field is refused by step 2's check, and claim "edited" shows what that
// check protects: its edited twin applied without the check makes the
// provider update the external resource; and claim "unprotected" is moved
// without step 1 (pause and orphan), its checks skipped, to show what that
// step protects: the fake cloud records the external deletes.
func TestE2ECrossplanePlanV2(t *testing.T) {
	began := time.Now()
	work := t.TempDir()
	lp := startLegacyPlatform(t, work)
	p := lp.p
	t.Logf("legacy platform steady after %s", time.Since(began).Round(time.Second))

	// The v2-native definitions, and the plan, read-only.
	v2out := filepath.Join(work, "platform-v2")
	mustXPMigrate(t, 0, "migrate", "--target", "v2", "--xr-naming", "new-group", "--xr-group", planV2Group,
		"--provider-crds", lp.providerCRDs, "--out", v2out, lp.repo)
	dir := filepath.Join(work, "move")
	mustXPMigrate(t, 0, "plan", "v2", "--cluster", "--kubeconfig", p.server.Kubeconfig(kubetest.Reader),
		"--v2", v2out, "--xr-naming", "new-group", "--xr-group", planV2Group, "--out", dir)
	p.readOnly("xpmigrate plan v2 --cluster")
	byClaim, fm := loadPlan(t, dir)
	mv := &mover{p: p, dir: dir, fm: fm}
	mv.definitions()

	x := byClaim["orders"]
	t.Run("OutOfOrderRefusedBeforeAnythingIsApplied", func(t *testing.T) {
		for n := plan.StepAdopt; n <= plan.StepDone; n++ {
			if code, out := mv.check(dir, x, n); code != 3 {
				t.Errorf("before step 1: --check-step %d exited %d, want 3:\n%s", n, code, out)
			}
		}
	})
	for _, s := range x.Steps {
		mv.mustCheck(x, s.Number, 0)
		if s.Number == plan.StepAdopt {
			t.Run("EditedTwinRefusedByTheCheck", func(t *testing.T) {
				mv.editedTwin(t, filepath.Join(work, "move-edited"), x, s)
			})
		}
		mv.run(x, s, false)
		// A step that skips the next one is refused (after step 2, for
		// one, the new XR is still paused: retiring the old side is not
		// allowed).
		for n := s.Number + 2; n <= plan.StepDone; n++ {
			mv.mustCheck(x, n, 3)
		}
		if c := cloudFor(t, p.Cloud, lp.baseline, nil); c[fakecloud.OpCreate] != 0 || c[fakecloud.OpDelete] != 0 {
			t.Fatalf("after step %d: the fake cloud recorded %d external creates and %d deletes since the platform was steady, want 0", s.Number, c[fakecloud.OpCreate], c[fakecloud.OpDelete])
		}
	}
	// Step 5 unpaused the deleted old objects: their controllers let them go.
	p.waitFor("the old claim, XR and managed resources of orders to be gone", 5*time.Minute, func() (bool, error) {
		code, _ := mv.check(dir, x, plan.StepDone)
		return code == 0, nil
	})
	mv.mustCheck(x, plan.StepDone, 0)
	mv.moved(x, lp.steady["orders"])
	p.readOnly("xpmigrate plan v2 --check-step")
	c := cloudFor(t, p.Cloud, lp.baseline, nil)
	if c[fakecloud.OpCreate] != 0 || c[fakecloud.OpDelete] != 0 {
		t.Errorf("the move of orders: the fake cloud recorded %d external creates and %d deletes since the platform was steady, want 0", c[fakecloud.OpCreate], c[fakecloud.OpDelete])
	}
	t.Logf("the move of orders: since the platform was steady the fake cloud recorded %d creates, %d updates, %d deletes, %d observes; %s since the start",
		c[fakecloud.OpCreate], c[fakecloud.OpUpdate], c[fakecloud.OpDelete], c[fakecloud.OpObserve], time.Since(began).Round(time.Second))

	t.Run("EditedTwinWithoutTheCheckReachesTheCloud", func(t *testing.T) {
		mv.editedWithoutCheck(t, filepath.Join(work, "move-edited-applied"), byClaim["edited"])
	})
	t.Run("WithoutStep1TheCloudRecordsDeletes", func(t *testing.T) {
		mv.withoutStep1(t, byClaim["unprotected"])
	})
	t.Logf("TestE2ECrossplanePlanV2 took %s", time.Since(began).Round(time.Second))
	if os.Getenv("XPMIGRATE_E2E_KEEP") != "" {
		t.Logf("platform directory: %s", p.dir)
	}
}

// A legacyPlatform is scenario 3's starting point.
type legacyPlatform struct {
	p *platform
	// repo holds the legacy XRD and Composition; providerCRDs the test
	// provider's CRDs, both forms.
	repo, providerCRDs string
	// steady is what core composed for each claim, by claim name.
	steady map[string]composition
	// baseline is the number of the fake cloud's calls once steady.
	baseline int
}

// startLegacyPlatform starts core v2.3.4 with the legacy platform of
// testdata/planv2 and claims orders (team-a), edited (team-b) and
// unprotected (team-c), and waits until they are Ready and their XRs
// steady.
func startLegacyPlatform(t *testing.T, work string) legacyPlatform {
	t.Helper()
	crds := make([]*unstructured.Unstructured, 0, 2*len(planV2Kinds))
	for _, k := range planV2Kinds {
		crds = append(crds, managedCRD(k, false))
	}
	for _, k := range planV2Twins {
		crds = append(crds, managedCRD(k, true))
	}
	lp := legacyPlatform{repo: filepath.Join(work, "platform"), providerCRDs: filepath.Join(work, "provider-crds.yaml"), steady: map[string]composition{}}
	objs := make([]map[string]any, 0, len(crds))
	for _, c := range crds {
		objs = append(objs, c.Object)
	}
	writeYAML(t, lp.providerCRDs, objs...)

	p := newPlatform(t, crds)
	lp.p = p
	// Core v2.3.4 from the start (it serves v1 XRDs with claims as
	// LegacyCluster): its CRDs over v1.20.11's, which newPlatform applied,
	// and the function's capabilities written again.
	if err := p.applyDir(bins.CRDsV2); err != nil {
		t.Fatal(err)
	}
	if err := p.setFunctionStatus(); err != nil {
		t.Fatal(err)
	}
	p.startCore("core-v2.3.4", bins.CoreV2)

	// The XRD, and the Composition migrate converts to Pipeline mode (v2
	// runs no mode Resources).
	if err := os.MkdirAll(lp.repo, 0o700); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"definition.yaml", "composition.yaml"} {
		b, err := os.ReadFile(filepath.Join(planV2Data, f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(lp.repo, f), b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	v1out := filepath.Join(work, "platform-pipeline")
	mustXPMigrate(t, 0, "migrate", lp.repo, "--out", v1out)
	p.installXRD(filepath.Join(lp.repo, "definition.yaml"))
	comps, err := readObjects(filepath.Join(v1out, "composition.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	claims, err := readObjects(filepath.Join(planV2Data, "claim.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	orders := claims[0]
	edited, unprotected := orders.DeepCopy(), orders.DeepCopy()
	edited.SetName("edited")
	edited.SetNamespace("team-b")
	unprotected.SetName("unprotected")
	unprotected.SetNamespace("team-c")
	all := []*unstructured.Unstructured{orders, edited, unprotected}
	if err := p.createNamespaces(all...); err != nil {
		t.Fatal(err)
	}
	if err := p.server.Create(p.ctx, append(comps, all...)...); err != nil {
		t.Fatal(err)
	}
	for _, c := range all {
		var xrName string
		p.waitFor("claim "+c.GetNamespace()+"/"+c.GetName()+" to be Ready", 10*time.Minute, func() (bool, error) {
			u, err := p.get(planV2Claim, c.GetNamespace(), c.GetName())
			if err != nil || u == nil {
				return false, err
			}
			xrName, _, _ = unstructured.NestedString(u.Object, "spec", "resourceRef", "name")
			return condition(u, "Ready") == "True" && xrName != "", nil
		})
		lp.steady[c.GetName()] = p.waitSteady(planV2XR, xrName, planV2Kinds, len(planV2Kinds), 10*time.Minute)
	}
	calls, err := fakecloud.ReadCalls(p.Cloud)
	if err != nil {
		t.Fatal(err)
	}
	lp.baseline = len(calls)
	if n := fakecloud.Count(calls, fakecloud.OpCreate); n != len(all)*len(planV2Kinds) {
		t.Fatalf("the legacy platform: the fake cloud recorded %d external creates, want %d", n, len(all)*len(planV2Kinds))
	}
	return lp
}

// loadPlan reads plan.json, wants one XR per claim without errors, each
// step's commands in README.md, and returns the XRs by claim name and the
// plan's field manager.
func loadPlan(t *testing.T, dir string) (map[string]*plan.XR, string) {
	t.Helper()
	pl, err := plan.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	readme, err := os.ReadFile(filepath.Join(dir, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	byClaim := map[string]*plan.XR{}
	for _, x := range pl.XRs {
		if len(x.Errors) > 0 || x.Claim == nil {
			t.Fatalf("plan v2: %s has errors %v (claim %v)", x.Dir, x.Errors, x.Claim)
		}
		byClaim[x.Claim.Name] = x
		for _, s := range x.Steps {
			for _, a := range s.Actions {
				if !strings.Contains(string(readme), a.Command+"\n") {
					t.Errorf("plan.json's command %q of step %d of %s is not in README.md", a.Command, s.Number, x.Dir)
				}
			}
		}
	}
	if len(byClaim) != 3 || byClaim["orders"] == nil || byClaim["edited"] == nil || byClaim["unprotected"] == nil {
		t.Fatalf("plan v2 planned %d XRs, want the claims orders, edited and unprotected", len(pl.XRs))
	}
	return byClaim, pl.FieldManager
}

// definitions applies definitions.yaml as README.md says before the first
// step (kubectl apply -f definitions.yaml) and waits until core serves the
// v2 XRs.
func (m *mover) definitions() {
	p := m.p
	p.t.Helper()
	defs := m.objects("definitions.yaml")
	if err := p.apply(defs...); err != nil {
		p.t.Fatal(err)
	}
	for _, d := range defs {
		if d.GetKind() != "CompositeResourceDefinition" {
			continue
		}
		p.waitFor("the v2 XRD "+d.GetName()+" to be established", 5*time.Minute, func() (bool, error) {
			u, err := p.get(xrdV2GVK, "", d.GetName())
			if err != nil || u == nil {
				return false, err
			}
			return condition(u, "Established") == "True", nil
		})
	}
}

// editedTwin copies the plan to edited, changes spec.forProvider.size of
// the Database twin step s (2) applies, and wants step 2's check to refuse
// it, naming the field.
func (m *mover) editedTwin(t *testing.T, edited string, x *plan.XR, s plan.Step) {
	t.Helper()
	if _, err := os.Stat(edited); err == nil {
		t.Fatalf("%s exists", edited)
	}
	copyDir(t, m.dir, edited)
	file := filepath.Join(edited, filepath.FromSlash(s.Actions[0].File))
	twins, err := readObjects(file)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for i, o := range twins {
		if o.GetKind() == "Database" {
			if err := unstructured.SetNestedField(o.Object, "large", "spec", "forProvider", "size"); err != nil {
				t.Fatal(err)
			}
		}
		y, err := yaml.Marshal(o.Object)
		if err != nil {
			t.Fatal(err)
		}
		if i > 0 {
			b.WriteString("---\n")
		}
		b.Write(y)
	}
	if err := os.WriteFile(file, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	if code, out := m.check(edited, x, plan.StepAdopt); code != 3 || !strings.Contains(out, "spec.forProvider.size") {
		t.Errorf("a twin edited to change spec.forProvider.size: --check-step 2 exited %d, want 3 naming the field:\n%s", code, out)
	}
}

// moved wants x's move complete: the new XR Ready, naming and controlling
// the twins, which carry the external names core's composition gave the
// old managed resources (steady), and the old claim, XR and managed
// resources gone.
func (m *mover) moved(x *plan.XR, steady composition) {
	p := m.p
	t := p.t
	t.Helper()
	newXR, err := p.get(gvkOf(x.New), x.New.Namespace, x.New.Name)
	if err != nil || newXR == nil {
		t.Fatalf("the new XR %s: %v", x.New, err)
	}
	if condition(newXR, "Ready") != "True" {
		t.Errorf("the new XR %s is not Ready", x.New)
	}
	refs, _, _ := unstructured.NestedSlice(newXR.Object, "spec", "crossplane", "resourceRefs")
	for _, r := range x.Resources {
		if !slices.ContainsFunc(refs, func(v any) bool {
			m, _ := v.(map[string]any)
			return m["kind"] == r.Twin.Kind && m["name"] == r.Twin.Name && m["apiVersion"] == r.Twin.APIVersion
		}) {
			t.Errorf("the new XR's spec.crossplane.resourceRefs %v does not name the twin %s", refs, r.Twin)
		}
		twin, err := p.get(gvkOf(r.Twin), r.Twin.Namespace, r.Twin.Name)
		if err != nil || twin == nil {
			t.Errorf("the twin %s: %v", r.Twin, err)
			continue
		}
		if was := steady.Composed[r.Name]; was == nil || was.GetAnnotations()["crossplane.io/external-name"] != r.ExternalName {
			t.Errorf("the plan copies the external name %q of %s, which core's composition did not give it", r.ExternalName, r.Old)
		}
		if got := twin.GetAnnotations()["crossplane.io/external-name"]; got != r.ExternalName {
			t.Errorf("the twin %s has the external name %q, want %q", r.Twin, got, r.ExternalName)
		}
		if !slices.ContainsFunc(twin.GetOwnerReferences(), func(o metav1.OwnerReference) bool {
			return o.UID == newXR.GetUID() && o.Controller != nil && *o.Controller
		}) {
			t.Errorf("the twin %s is not controlled by the new XR", r.Twin)
		}
		if old, err := p.get(gvkOf(r.Old), "", r.Old.Name); err != nil || old != nil {
			t.Errorf("the old managed resource %s still exists (%v)", r.Old, err)
		}
	}
	if o, err := p.get(planV2XR, "", x.Legacy.Name); err != nil || o != nil {
		t.Errorf("the legacy XR %s still exists (%v)", x.Legacy, err)
	}
	if o, err := p.get(planV2Claim, x.Claim.Namespace, x.Claim.Name); err != nil || o != nil {
		t.Errorf("the claim %s still exists (%v)", x.Claim, err)
	}
}

// editedWithoutCheck runs step 1 of x after its check, then applies the
// twins of a copy of the plan whose Database twin sets another
// spec.forProvider.size: step 2's check refuses it, and applied anyway the
// provider updates the external resource to the edited value.
func (m *mover) editedWithoutCheck(t *testing.T, edited string, x *plan.XR) {
	t.Helper()
	p := m.p
	m.mustCheck(x, plan.StepProtect, 0)
	m.run(x, x.Steps[plan.StepProtect-1], false)
	m.editedTwin(t, edited, x, x.Steps[plan.StepAdopt-1])
	before, err := fakecloud.ReadCalls(p.Cloud)
	if err != nil {
		t.Fatal(err)
	}
	(&mover{p: p, dir: edited, fm: m.fm}).run(x, x.Steps[plan.StepAdopt-1], false)
	p.waitFor("the fake cloud to record the edited twin's update", 5*time.Minute, func() (bool, error) {
		calls, err := fakecloud.ReadCalls(p.Cloud)
		if err != nil {
			return false, err
		}
		return slices.ContainsFunc(calls[len(before):], func(c fakecloud.Call) bool {
			return c.Op == fakecloud.OpUpdate && c.Resource.Kind == "Database" && c.Resource.Namespace == x.New.Namespace && c.Params["size"] == "large"
		}), nil
	})
}

// withoutStep1 moves u without its step 1 (pause and orphan): step 2's
// check refuses, and run anyway, every check skipped, the move makes the
// provider delete every external resource (the old managed resources
// still have deletionPolicy Delete when step 4 deletes them).
func (m *mover) withoutStep1(t *testing.T, u *plan.XR) {
	t.Helper()
	p := m.p
	names := resourceNames(u)
	before, err := fakecloud.ReadCalls(p.Cloud)
	if err != nil {
		t.Fatal(err)
	}
	if code, out := m.check(m.dir, u, plan.StepAdopt); code != 3 {
		t.Errorf("without step 1: --check-step 2 exited %d, want 3:\n%s", code, out)
	}
	for _, s := range u.Steps[plan.StepAdopt-1:] {
		// The old objects may be gone by step 5: nothing paused them.
		m.run(u, s, s.Number == plan.StepRelease)
	}
	p.waitFor("the fake cloud to record the external deletes of unprotected's managed resources", 5*time.Minute, func() (bool, error) {
		return cloudFor(t, p.Cloud, len(before), names)[fakecloud.OpDelete] >= len(u.Resources), nil
	})
	// Let the twins observe the loss.
	time.Sleep(20 * time.Second)
	c := cloudFor(t, p.Cloud, len(before), names)
	t.Logf("the move of unprotected without step 1: the fake cloud recorded %d creates, %d updates, %d deletes", c[fakecloud.OpCreate], c[fakecloud.OpUpdate], c[fakecloud.OpDelete])
}

func gvkOf(r plan.Ref) schema.GroupVersionKind {
	g, v, _ := strings.Cut(r.APIVersion, "/")
	return schema.GroupVersionKind{Group: g, Version: v, Kind: r.Kind}
}
