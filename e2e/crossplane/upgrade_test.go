//go:build e2e_crossplane

package crossplanee2e

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/xpmigrate/xpmigrate/e2e/crossplane/fakecloud"
	"github.com/xpmigrate/xpmigrate/internal/kubetest"
)

// uids maps each composed resource (by composition resource name) and the
// XR ("") to its UID and external name.
func uids(c composition) map[string]string {
	m := map[string]string{"": string(c.XR.GetUID())}
	for n, o := range c.Composed {
		m[n] = string(o.GetUID()) + " " + o.GetAnnotations()["crossplane.io/external-name"]
	}
	return m
}

// externalFor counts the Creates and Deletes the fake cloud recorded for
// the managed resources whose UIDs are given, for every one when uids is
// nil.
func externalFor(t *testing.T, dir string, uids map[string]bool) (creates, deletes int) {
	t.Helper()
	calls, err := fakecloud.ReadCalls(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range calls {
		if uids != nil && !uids[c.Resource.UID] {
			continue
		}
		switch c.Op {
		case fakecloud.OpCreate:
			creates++
		case fakecloud.OpDelete:
			deletes++
		}
	}
	return creates, deletes
}

func composedUIDs(c composition) map[string]bool {
	m := map[string]bool{}
	for _, o := range c.Composed {
		m[string(o.GetUID())] = true
	}
	return m
}

// upgradeCheck runs xpmigrate plan upgrade --cluster, read-only, and
// returns its exit code and JSON report.
func (p *platform) upgradeCheck() (int, upgradeReport) {
	p.t.Helper()
	code, out, errOut := xpmigrate(p.t, "plan", "upgrade", "--cluster", "--kubeconfig", p.server.Kubeconfig(kubetest.Reader), "--format", "json")
	p.readOnly("xpmigrate plan upgrade")
	var rep upgradeReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		p.t.Fatalf("xpmigrate plan upgrade (exit %d): %v\n%s%s", code, err, out, errOut)
	}
	return code, rep
}

// upgradeReport is what the tests read of plan upgrade's JSON report.
type upgradeReport struct {
	Findings []struct {
		Code        string `json:"code"`
		Composition string `json:"composition"`
		XRs         []struct {
			Name     string `json:"name"`
			Composed int    `json:"composed"`
			Delete   int    `json:"deletionPolicyDelete"`
		} `json:"xrs"`
	} `json:"findings"`
}

// TestE2ECrossplaneUpgrade is scenario 2 on the bundled example. A
// platform on real core v1.20.11 runs two XRs of the demo's type: "kept"
// through the demo's legacy Composition, which `xpmigrate migrate` converts
// and the test applies, and "forgotten" through a copy of it that nobody
// converted (a Composition applied by hand, outside the repository). Core
// v1.20.11 runs the Pipeline through the real function-patch-and-transform
// over mTLS; then `xpmigrate plan upgrade` must flag the forgotten
// Composition, and only it; then core is stopped, v2.3.4's CRDs are
// applied on the same etcd and core v2.3.4 is started.
//
// The converted XR keeps every composed resource (UIDs and external names)
// and the fake cloud records no external create or delete for it, at
// every step. The forgotten one is what happens without the step that
// protects it (the conversion): v2 runs its Composition as an empty
// pipeline and its composed resources are deleted, each with an external
// delete, as plan upgrade said they would be.
func TestE2ECrossplaneUpgrade(t *testing.T) {
	const demo = "../../testdata/demo"
	legacy := filepath.Join(demo, "composition.yaml")
	comps, err := readObjects(legacy)
	if err != nil {
		t.Fatal(err)
	}
	kinds := composedKinds(comps[0])
	crds := make([]*unstructured.Unstructured, 0, len(kinds))
	for _, k := range kinds {
		crds = append(crds, managedCRD(k, false))
	}
	p := newPlatform(t, crds)
	p.startCore("core-v1.20.11", bins.CoreV1)
	p.installXRD(filepath.Join(demo, "definition.yaml"))
	xrs, err := readObjects(filepath.Join(demo, "xr.yaml"))
	if err != nil {
		t.Fatal(err)
	}

	forgottenComp := comps[0].DeepCopy()
	forgottenComp.SetName(comps[0].GetName() + "-forgotten")
	kept, forgotten := xrs[0].DeepCopy(), xrs[0].DeepCopy()
	kept.SetName("kept")
	forgotten.SetName("forgotten")
	for _, x := range []struct {
		xr   *unstructured.Unstructured
		comp string
	}{{kept, comps[0].GetName()}, {forgotten, forgottenComp.GetName()}} {
		if err := unstructured.SetNestedField(x.xr.Object, x.comp, "spec", "compositionRef", "name"); err != nil {
			t.Fatal(err)
		}
		if err := unstructured.SetNestedField(x.xr.Object, "platform-ref-aws-"+x.xr.GetName(), "spec", "parameters", "id"); err != nil {
			t.Fatal(err)
		}
	}
	objs := []*unstructured.Unstructured{comps[0], forgottenComp, kept, forgotten}
	if err := p.createNamespaces(objs...); err != nil {
		t.Fatal(err)
	}
	if err := p.server.Create(p.ctx, objs...); err != nil {
		t.Fatal(err)
	}
	resources, _, _ := unstructured.NestedSlice(comps[0].Object, "spec", "resources")
	xrGVK := xrs[0].GroupVersionKind()
	before := p.waitSteady(xrGVK, kept.GetName(), kinds, len(resources), 10*time.Minute)
	doomed := p.waitSteady(xrGVK, forgotten.GetName(), kinds, len(resources), 10*time.Minute)
	want, keptUIDs, doomedUIDs := uids(before), composedUIDs(before), composedUIDs(doomed)
	if c, d := externalFor(t, p.Cloud, keptUIDs); c != len(resources) || d != 0 {
		t.Fatalf("legacy on v1.20.11: the fake cloud recorded %d creates and %d deletes for XR kept, want %d and 0", c, d, len(resources))
	}

	// The migration: migrate converts the repository (the demo's XRD and
	// Composition; the forgotten Composition is not in it), and the
	// converted Composition replaces the legacy one.
	repo, out := t.TempDir(), filepath.Join(t.TempDir(), "out")
	for _, f := range []string{"definition.yaml", "composition.yaml"} {
		b, err := os.ReadFile(filepath.Join(demo, f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(repo, f), b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if b, err := exec.Command(bins.XPMigrate, "migrate", repo, "--out", out).CombinedOutput(); err != nil {
		t.Fatalf("xpmigrate migrate: %v\n%s", err, b)
	}
	pipeline, err := readObjects(filepath.Join(out, "composition.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range pipeline {
		if mode, _, _ := unstructured.NestedString(c.Object, "spec", "mode"); c.GetKind() == "Composition" && mode != "Pipeline" {
			t.Fatalf("xpmigrate migrate wrote Composition %q in mode %q, want Pipeline", c.GetName(), mode)
		}
		if err := p.replace(c); err != nil {
			t.Fatal(err)
		}
	}

	for _, step := range []struct {
		name    string
		upgrade bool
	}{
		{name: "pipeline on v1.20.11"},
		{name: "pipeline on v2.3.4", upgrade: true},
	} {
		if step.upgrade {
			// Before the upgrade, the readiness check names the forgotten
			// Composition, its XR and what it would lose, and nothing else.
			code, rep := p.upgradeCheck()
			if code != 3 || len(rep.Findings) != 1 || rep.Findings[0].Code != "U1" || rep.Findings[0].Composition != forgottenComp.GetName() ||
				len(rep.Findings[0].XRs) != 1 || rep.Findings[0].XRs[0].Name != forgotten.GetName() || rep.Findings[0].XRs[0].Composed != len(resources) {
				t.Errorf("plan upgrade before the upgrade: exit %d, findings %+v; want exit 3 and one U1 for %q with XR %q and %d composed resources",
					code, rep.Findings, forgottenComp.GetName(), forgotten.GetName(), len(resources))
			}
			p.stopCore()
			if err := p.applyDir(bins.CRDsV2); err != nil {
				t.Fatalf("%s: %v", step.name, err)
			}
			if err := p.setFunctionStatus(); err != nil {
				t.Fatalf("%s: %v", step.name, err)
			}
			p.startCore("core-v2.3.4", bins.CoreV2)
		}
		// Let core pick the new revision up before judging steadiness.
		time.Sleep(20 * time.Second)
		after := p.waitSteady(xrGVK, kept.GetName(), kinds, len(resources), 10*time.Minute)
		if diff := cmp.Diff(want, uids(after)); diff != "" {
			t.Errorf("%s: composed resources were recreated or renamed (-before +after):\n%s", step.name, diff)
		}
		if c, d := externalFor(t, p.Cloud, keptUIDs); c != len(resources) || d != 0 {
			t.Errorf("%s: the fake cloud recorded %d external creates and %d deletes for XR kept, want %d (the first composition) and 0", step.name, c, d, len(resources))
		}
		if c, d := externalFor(t, p.Cloud, nil); c != 2*len(resources) {
			t.Errorf("%s: the fake cloud recorded %d external creates in all (and %d deletes), want %d", step.name, c, d, 2*len(resources))
		}
	}

	// Without its conversion, v2 composes nothing for the forgotten XR: its
	// composed resources are garbage collected, each with an external
	// delete.
	p.waitFor("the forgotten XR's composed resources to be deleted", 10*time.Minute, func() (bool, error) {
		c, err := p.composed(xrGVK, forgotten.GetName(), kinds)
		if err != nil {
			return false, err
		}
		_, d := externalFor(t, p.Cloud, doomedUIDs)
		return len(c.Composed) == 0 && d >= len(resources), nil
	})
	if os.Getenv("XPMIGRATE_E2E_KEEP") != "" {
		t.Logf("platform directory: %s", p.dir)
	}
}
