//go:build e2e_crossplane

package crossplanee2e

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/yaml"

	"github.com/xpmigrate/xpmigrate/e2e/crossplane/fakecloud"
	"github.com/xpmigrate/xpmigrate/internal/kubetest"
)

func TestMain(m *testing.M) {
	b, err := findBinaries()
	if err != nil {
		fmt.Fprintln(os.Stderr, "e2e/crossplane: "+err.Error())
		os.Exit(1)
	}
	dir, err := os.MkdirTemp("", "xpmigrate-e2e-crossplane-bin-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "e2e/crossplane: "+err.Error())
		os.Exit(1)
	}
	b.XPMigrate, b.Provider, err = buildFromCheckout(dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, "e2e/crossplane: "+err.Error())
		os.Exit(1)
	}
	bins = b
	code := m.Run()
	_ = os.RemoveAll(dir)
	os.Exit(code)
}

// composedKinds are the kinds a legacy Composition's resources compose.
func composedKinds(comp *unstructured.Unstructured) []schema.GroupVersionKind {
	seen := map[schema.GroupVersionKind]bool{}
	var out []schema.GroupVersionKind
	rs, _, _ := unstructured.NestedSlice(comp.Object, "spec", "resources")
	for _, r := range rs {
		base, _, _ := unstructured.NestedMap(r.(map[string]any), "base")
		gvk := (&unstructured.Unstructured{Object: base}).GroupVersionKind()
		if !seen[gvk] {
			seen[gvk] = true
			out = append(out, gvk)
		}
	}
	return out
}

// A composition is what core composed for one XR: the XR and its composed
// resources by composition resource name.
type composition struct {
	XR       *unstructured.Unstructured
	Composed map[string]*unstructured.Unstructured
}

const resourceNameAnnotation = "crossplane.io/composition-resource-name"

// composed reads the XR and the resources it controls.
func (p *platform) composed(xrGVK schema.GroupVersionKind, name string, kinds []schema.GroupVersionKind) (composition, error) {
	xr, err := p.get(xrGVK, "", name)
	if err != nil || xr == nil {
		return composition{}, err
	}
	c := composition{XR: xr, Composed: map[string]*unstructured.Unstructured{}}
	// An anonymous template's resource has no composition resource name:
	// it is known by its place in spec.resourceRefs (template order).
	refs, _, _ := unstructured.NestedSlice(xr.Object, "spec", "resourceRefs")
	position, ofKind := map[string]int{}, map[string]int{}
	for _, r := range refs {
		m, _ := r.(map[string]any)
		n, _ := m["name"].(string)
		k, _ := m["kind"].(string)
		av, _ := m["apiVersion"].(string)
		position[k+"/"+n] = ofKind[av+"/"+k]
		ofKind[av+"/"+k]++
	}
	for _, gvk := range kinds {
		items, err := p.list(gvk)
		if err != nil {
			return composition{}, err
		}
		for i := range items {
			for _, o := range items[i].GetOwnerReferences() {
				if o.UID == xr.GetUID() && o.Controller != nil && *o.Controller {
					c.Composed[resourceKey(&items[i], position[items[i].GetKind()+"/"+items[i].GetName()])] = &items[i]
				}
			}
		}
	}
	return c, nil
}

// version lists the resource versions of everything in c.
func (c composition) version() string {
	v := []string{c.XR.GetResourceVersion()}
	for n, o := range c.Composed {
		v = append(v, n+"="+o.GetResourceVersion())
	}
	sort.Strings(v)
	return strings.Join(v, ",")
}

// waitSteady waits until the XR is Ready with want composed resources and
// nothing it composed has changed for three polls in a row.
func (p *platform) waitSteady(xrGVK schema.GroupVersionKind, name string, kinds []schema.GroupVersionKind, want int, timeout time.Duration) composition {
	p.t.Helper()
	var c composition
	last, same := "", 0
	p.waitFor(fmt.Sprintf("%s %q to be Ready and steady with %d composed resources", xrGVK.Kind, name, want), timeout, func() (bool, error) {
		var err error
		c, err = p.composed(xrGVK, name, kinds)
		if err != nil || c.XR == nil {
			return false, err
		}
		if len(c.Composed) != want || condition(c.XR, "Ready") != "True" {
			last, same = "", 0
			return false, fmt.Errorf("%d of %d composed, Ready=%q, Synced=%q", len(c.Composed), want, condition(c.XR, "Ready"), condition(c.XR, "Synced"))
		}
		if v := c.version(); v != last {
			last, same = v, 0
			return false, nil
		}
		same++
		return same >= 3, nil
	})
	return c
}

// clean drops what the API server adds to an object read back.
func clean(u *unstructured.Unstructured) map[string]any {
	o := u.DeepCopy()
	unstructured.RemoveNestedField(o.Object, "metadata", "managedFields")
	return o.Object
}

func writeYAML(t *testing.T, path string, objs ...map[string]any) {
	t.Helper()
	var b strings.Builder
	for _, o := range objs {
		y, err := yaml.Marshal(o)
		if err != nil {
			t.Fatal(err)
		}
		b.WriteString("---\n")
		b.Write(y)
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
}

// resourceKey names a composed resource: its composition resource name,
// or "<kind>#<n>" for an anonymous template's, the n-th (from 0) of its kind
// in template order (a template that fails to render leaves no resource,
// so a position among all would shift).
func resourceKey(u *unstructured.Unstructured, nthOfKind int) string {
	if n := u.GetAnnotations()[resourceNameAnnotation]; n != "" {
		return n
	}
	return fmt.Sprintf("%s/%s#%d", u.GetAPIVersion(), u.GetKind(), nthOfKind)
}

// renderedComposition reads render's output: the XR, then the composed
// resources in template order.
func renderedComposition(docs []*unstructured.Unstructured) composition {
	r := composition{Composed: map[string]*unstructured.Unstructured{}}
	ofKind := map[string]int{}
	for i, d := range docs {
		if i == 0 {
			r.XR = d
			continue
		}
		if d.GetKind() == "Result" || d.GetKind() == "Context" {
			continue
		}
		k := d.GetAPIVersion() + "/" + d.GetKind()
		r.Composed[resourceKey(d, ofKind[k])] = d
		ofKind[k]++
	}
	return r
}

func readObjectsFrom(b []byte) ([]*unstructured.Unstructured, error) {
	f, err := os.CreateTemp("", "xpmigrate-e2e-render-*.yaml")
	if err != nil {
		return nil, err
	}
	defer func() { _ = os.Remove(f.Name()) }()
	if _, err := f.Write(b); err != nil {
		return nil, err
	}
	_ = f.Close()
	return readObjects(f.Name())
}

// The XR fields core owns (composition selection and references, its
// conditions); every other XR field is compared.
var coreXRFields = [][]string{
	{"spec", "compositionRef"}, {"spec", "compositionRevisionRef"}, {"spec", "compositionUpdatePolicy"},
	{"spec", "resourceRefs"}, {"status", "conditions"}, {"status", "connectionDetails"},
}

func xrFields(u *unstructured.Unstructured) map[string]any {
	o := u.DeepCopy().Object
	for _, f := range coreXRFields {
		unstructured.RemoveNestedField(o, f...)
	}
	return jsonValue(map[string]any{"spec": o["spec"], "status": o["status"]})
}

// dropNulls removes the null values of maps: the composer applies a
// composed resource, and the API server keeps no null field of it.
func dropNulls(m map[string]any) map[string]any {
	for k, v := range m {
		switch t := v.(type) {
		case nil:
			delete(m, k)
		case map[string]any:
			dropNulls(t)
		}
	}
	return m
}

// jsonValue is v as encoding/json reads it back: the API server's objects
// hold int64 where YAML read from a file holds float64, a difference of
// representation only.
func jsonValue(v map[string]any) map[string]any {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	var out map[string]any
	if err := json.Unmarshal(b, &out); err != nil {
		panic(err)
	}
	return out
}

// composedFields are the fields of a composed resource that the
// composition writes: its spec and labels.
func composedFields(u *unstructured.Unstructured) map[string]any {
	return dropNulls(jsonValue(map[string]any{"spec": u.Object["spec"], "labels": u.GetLabels()}))
}

// compare reports every difference between what core composed and what
// xpmigrate rendered.
func compare(t *testing.T, got, rendered composition) {
	t.Helper()
	if diff := cmp.Diff(xrFields(got.XR), xrFields(rendered.XR)); diff != "" {
		t.Errorf("XR: real core (-) and xpmigrate render (+) differ:\n%s", diff)
	}
	names := map[string]bool{}
	for n := range got.Composed {
		names[n] = true
	}
	for n := range rendered.Composed {
		names[n] = true
	}
	for n := range names {
		g, r := got.Composed[n], rendered.Composed[n]
		switch {
		case g == nil:
			t.Errorf("composed resource %q: rendered by xpmigrate, not composed by core", n)
		case r == nil:
			t.Errorf("composed resource %q: composed by core, not rendered by xpmigrate", n)
		default:
			if diff := cmp.Diff(composedFields(g), composedFields(r)); diff != "" {
				t.Errorf("composed resource %q: real core (-) and xpmigrate render (+) differ:\n%s", n, diff)
			}
		}
	}
}

// A liveReport is what the tests read of verify --cluster's JSON report.
type liveReport struct {
	Verdict string `json:"verdict"`
	XRs     int    `json:"xrs"`
	// EmulationXRs counts the XRs with emulation differences.
	EmulationXRs int `json:"emulationXRs"`
	Emulation    int `json:"emulationDifferences"`
	Drift        int `json:"driftFields"`
}

// verifyCluster runs xpmigrate verify --cluster on the legacy Composition
// against the platform's API server, read-only, and returns its report.
func (p *platform) verifyCluster(legacy string) liveReport {
	p.t.Helper()
	out := mustXPMigrate(p.t, 0, "verify", legacy, "--cluster", "--kubeconfig", p.server.Kubeconfig(kubetest.Reader), "--format", "json")
	p.readOnly("xpmigrate verify --cluster")
	var rep liveReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		p.t.Fatalf("xpmigrate verify --cluster: %v\n%s", err, out)
	}
	return rep
}

var xrdGVK = schema.GroupVersionKind{Group: "apiextensions.crossplane.io", Version: "v1", Kind: "CompositeResourceDefinition"}

// installXRD creates the XRD and waits until core serves its XR.
func (p *platform) installXRD(path string) {
	p.t.Helper()
	xrds, err := readObjects(path)
	if err != nil {
		p.t.Fatal(err)
	}
	if err := p.server.Create(p.ctx, xrds...); err != nil {
		p.t.Fatal(err)
	}
	for _, x := range xrds {
		p.waitFor("XRD "+x.GetName()+" to be established", 5*time.Minute, func() (bool, error) {
			u, err := p.get(xrdGVK, "", x.GetName())
			if err != nil || u == nil {
				return false, err
			}
			return condition(u, "Established") == "True", nil
		})
	}
}

// TestE2ECrossplaneDemo is scenario 1 for the bundled example (make demo's
// testdata/demo): real core v1.20.11 composes the legacy Composition until
// steady, with the test provider making every composed resource Ready; then
// xpmigrate render, given the same XR and observed resources, must give
// the same composed resources and XR fields.
func TestE2ECrossplaneDemo(t *testing.T) {
	const demo = "../../testdata/demo"
	comps, err := readObjects(filepath.Join(demo, "composition.yaml"))
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
	if err := p.createNamespaces(append(comps, xrs...)...); err != nil {
		t.Fatal(err)
	}
	if err := p.server.Create(p.ctx, append(comps, xrs...)...); err != nil {
		t.Fatal(err)
	}
	resources, _, _ := unstructured.NestedSlice(comps[0].Object, "spec", "resources")
	got := p.waitSteady(xrs[0].GroupVersionKind(), xrs[0].GetName(), kinds, len(resources), 10*time.Minute)

	rendered, err := p.render(comps[0], got, nil)
	if err != nil {
		t.Fatal(err)
	}
	compare(t, got, rendered)

	// Scenario 4: verify --cluster reads the state real core wrote (no
	// hand-seeded object) and finds the emulation, the drift check and the
	// conversion in agreement with it.
	rep := p.verifyCluster(filepath.Join(demo, "composition.yaml"))
	if rep.XRs != 1 || rep.EmulationXRs != 0 || rep.Emulation != 0 || rep.Drift != 0 || rep.Verdict != "equivalent" {
		out, _ := exec.Command(bins.XPMigrate, "verify", filepath.Join(demo, "composition.yaml"), "--cluster", "--kubeconfig", p.server.Kubeconfig(kubetest.Reader), "--verbose").CombinedOutput()
		t.Errorf("verify --cluster on the state real core wrote: %d XRs, %d with emulation differences (%d in all), %d drifting fields, verdict %q; want 1, 0, 0, 0, equivalent:\n%s",
			rep.XRs, rep.EmulationXRs, rep.Emulation, rep.Drift, rep.Verdict, out)
	}

	calls, err := fakecloud.ReadCalls(p.Cloud)
	if err != nil {
		t.Fatal(err)
	}
	if n := fakecloud.Count(calls, fakecloud.OpCreate); n != len(resources) {
		t.Errorf("the fake cloud recorded %d external creates, want one per composed resource (%d)", n, len(resources))
	}
	if n := fakecloud.Count(calls, fakecloud.OpDelete); n != 0 {
		t.Errorf("the fake cloud recorded %d external deletes, want 0", n)
	}
}
