//go:build e2e_crossplane

package crossplanee2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/xpmigrate/xpmigrate/e2e/crossplane/fakecloud"
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

// externalChanges counts the Creates and Deletes the fake cloud recorded.
func externalChanges(t *testing.T, dir string) (creates, deletes int) {
	t.Helper()
	calls, err := fakecloud.ReadCalls(dir)
	if err != nil {
		t.Fatal(err)
	}
	return fakecloud.Count(calls, fakecloud.OpCreate), fakecloud.Count(calls, fakecloud.OpDelete)
}

// TestE2ECrossplaneUpgrade is scenario 2 on the bundled example: a platform
// on real core v1.20.11 composes the legacy Composition; `xpmigrate
// convert` turns it into its Pipeline twin, which core v1.20.11 runs through
// the real function-patch-and-transform over mTLS; then core is stopped,
// v2.3.4's CRDs are applied on the same etcd and core v2.3.4 started. At
// every step no composed resource is recreated (UIDs and external names
// kept), the fake cloud records no external create beyond the first
// composition and no delete, and the XR is Ready.
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
	if err := p.server.Create(p.ctx, append(comps, xrs...)...); err != nil {
		t.Fatal(err)
	}
	resources, _, _ := unstructured.NestedSlice(comps[0].Object, "spec", "resources")
	xrGVK, name := xrs[0].GroupVersionKind(), xrs[0].GetName()
	before := p.waitSteady(xrGVK, name, kinds, len(resources), 10*time.Minute)
	want := uids(before)
	creates, _ := externalChanges(t, p.Cloud)

	// The migration: the converted Composition replaces the legacy one.
	converted := filepath.Join(t.TempDir(), "composition-pipeline.yaml")
	if out, err := exec.Command(bins.XPMigrate, "convert", legacy, "-o", converted).CombinedOutput(); err != nil {
		t.Fatalf("xpmigrate convert: %v\n%s", err, out)
	}
	pipeline, err := readObjects(converted)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range pipeline {
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
		after := p.waitSteady(xrGVK, name, kinds, len(resources), 10*time.Minute)
		if diff := cmp.Diff(want, uids(after)); diff != "" {
			t.Errorf("%s: composed resources were recreated or renamed (-before +after):\n%s", step.name, diff)
		}
		c, d := externalChanges(t, p.Cloud)
		if c != creates || d != 0 {
			t.Errorf("%s: the fake cloud recorded %d external creates and %d deletes, want %d and 0", step.name, c, d, creates)
		}
	}
	if os.Getenv("XPMIGRATE_E2E_KEEP") != "" {
		t.Logf("platform directory: %s", p.dir)
	}
}
