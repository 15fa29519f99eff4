package plan

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"sigs.k8s.io/yaml"

	"github.com/xpmigrate/xpmigrate/internal/errkind"
	"github.com/xpmigrate/xpmigrate/internal/jsonobj"
)

// export loads the fixture's platform and live objects, with edit applied
// to each object first, and with the objects of more appended.
func export(t *testing.T, edit func(o map[string]any), more ...map[string]any) *Manifests {
	t.Helper()
	m, err := LoadManifests("testdata/platform.yaml", "testdata/live.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var objs []map[string]any
	for _, o := range m.Objects() {
		if edit != nil {
			edit(o)
		}
		objs = append(objs, o)
	}
	return NewManifests(append(objs, more...)...)
}

// secondType is the fixture's platform and live objects again, as another
// XR type (NopQueue, XNopQueue) whose claim has the same namespace and
// name as the fixture's (team-a/orders) and whose XR is orders-fghij.
func secondType(t *testing.T) []map[string]any {
	t.Helper()
	var objs []map[string]any
	for _, f := range []string{"testdata/platform.yaml", "testdata/live.yaml"} {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		s := strings.NewReplacer("NopDB", "NopQueue", "nopdbs", "nopqueues", "orders-abcde", "orders-fghij").Replace(string(b))
		tmp := filepath.Join(t.TempDir(), filepath.Base(f))
		if err := os.WriteFile(tmp, []byte(s), 0o600); err != nil {
			t.Fatal(err)
		}
		m, err := LoadManifests(tmp)
		if err != nil {
			t.Fatal(err)
		}
		objs = append(objs, m.Objects()...)
	}
	return objs
}

// setClaim renames the fixture's claim (and the XR's claimRef to it).
func setClaim(namespace, name string) func(o map[string]any) {
	return func(o map[string]any) {
		switch o["kind"] {
		case "NopDB":
			md := o["metadata"].(map[string]any)
			md["namespace"], md["name"] = namespace, name
		case "XNopDB":
			ref := jsonobj.Value(o, "spec", "claimRef").(map[string]any)
			ref["namespace"], ref["name"] = namespace, name
		}
	}
}

func request(t *testing.T, m *Manifests, out string) Request {
	t.Helper()
	return Request{Manifests: m, Convert: convertOptions(t), ProviderCRDs: []string{"testdata/crds.yaml"}, Out: out}
}

// tree lists every path under root (relative, "/"-separated), symlinks
// not followed, sorted.
func tree(t *testing.T, root string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(root, func(p string, _ fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		out = append(out, filepath.ToSlash(rel))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(out)
	return out
}

// TestPlanWritesNothingOutsideOut is issue 23 item 1: names and namespaces
// from the export never put a file outside --out.
func TestPlanWritesNothingOutsideOut(t *testing.T) {
	cases := map[string]struct {
		reason string
		edit   func(o map[string]any)
	}{
		"NamespaceClimbsOut": {
			reason: "A claim namespace ../../../x is not a namespace: the run is refused and writes nothing.",
			edit:   setClaim("../../../x", "orders"),
		},
		"NameClimbsOut": {
			reason: "A claim name ../../x is not a name: the run is refused and writes nothing.",
			edit:   setClaim("team-a", "../../x"),
		},
		"NameWithSlash": {
			reason: "A claim name a/b is not a name.",
			edit:   setClaim("team-a", "a/b"),
		},
		"LegacyNameClimbsOut": {
			reason: "A legacy XR without a claim is placed by its own name: ../../y is not one.",
			edit: func(o map[string]any) {
				if o["kind"] == "XNopDB" {
					o["metadata"].(map[string]any)["name"] = "../../y"
					delete(o["spec"].(map[string]any), "claimRef")
				}
			},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			root := t.TempDir()
			out := filepath.Join(root, "a", "b", "c", "move")
			if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
				t.Fatal(err)
			}
			before := tree(t, root)
			_, err := Run(context.Background(), request(t, export(t, tc.edit), out))
			if !errkind.IsInvalidInput(err) {
				t.Errorf("\n%s\nRun(...): want an invalid input error, got %v", tc.reason, err)
			}
			if diff := cmp.Diff(before, tree(t, root)); diff != "" {
				t.Errorf("\n%s\nRun(...) wrote: -before, +after:\n%s", tc.reason, diff)
			}
		})
	}
}

// TestPlanFollowsNoSymlinkOutOfOut is issue 23 item 1: a directory symlink
// already inside --out is never followed.
func TestPlanFollowsNoSymlinkOutOfOut(t *testing.T) {
	root := t.TempDir()
	outside := filepath.Join(root, "outside")
	out := filepath.Join(root, "move")
	for _, d := range []string{outside, out} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(outside, filepath.Join(out, "team-a")); err != nil {
		t.Fatal(err)
	}
	_, err := Run(context.Background(), request(t, export(t, nil), out))
	if got := tree(t, outside); len(got) != 1 {
		t.Errorf("Run(...) wrote through the symlink team-a (error %v): %v", err, got)
	}
	if fi, lerr := os.Lstat(filepath.Join(out, "team-a")); err != nil && (lerr != nil || fi.Mode()&fs.ModeSymlink == 0) {
		t.Errorf("Run(...) refused (%v) but removed the symlink", err)
	}
}

// TestPlanDoesNotHangOnAbsoluteNamespace is issue 23 item 2: a namespace
// /abs once sent the writer into an endless loop.
func TestPlanDoesNotHangOnAbsoluteNamespace(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	out := filepath.Join(t.TempDir(), "move")
	done := make(chan error, 1)
	go func() {
		_, err := Run(ctx, request(t, export(t, setClaim("/abs", "orders")), out))
		done <- err
	}()
	select {
	case err := <-done:
		if !errkind.IsInvalidInput(err) {
			t.Errorf("Run(...) with namespace /abs: want an invalid input error, got %v", err)
		}
	case <-ctx.Done():
		t.Fatal("Run(...) with namespace /abs: still running after 60s")
	}
	werr := make(chan error, 1)
	go func() {
		werr <- Write(filepath.Join(t.TempDir(), "w"), map[string][]byte{"/abs/orders/1-protect.yaml": nil})
	}()
	select {
	case err := <-werr:
		if err == nil {
			t.Error("Write(/abs/...): want an error")
		}
	case <-time.After(30 * time.Second):
		t.Fatal("Write(/abs/...): still running after 30s")
	}
}

// TestDistinctXRsGetDistinctDirectories is issue 23 item 4: two claims of
// different kinds with the same namespace and name are two plans.
func TestDistinctXRsGetDistinctDirectories(t *testing.T) {
	out := filepath.Join(t.TempDir(), "move")
	p, err := Run(context.Background(), request(t, export(t, nil, secondType(t)...), out))
	if err != nil {
		t.Fatal(err)
	}
	var dirs []string
	for _, x := range p.XRs {
		if len(x.Errors) > 0 {
			t.Errorf("%s: %v", x.Dir, x.Errors)
		}
		dirs = append(dirs, x.Dir)
	}
	want := []string{"team-a/orders_nopdb.v2.example.org", "team-a/orders_nopqueue.v2.example.org"}
	if diff := cmp.Diff(want, dirs); diff != "" {
		t.Errorf("the plan directories of claims NopDB team-a/orders and NopQueue team-a/orders: -want, +got:\n%s", diff)
	}
	for _, d := range want {
		b, err := os.ReadFile(filepath.Join(out, d, "2-adopt.yaml"))
		if err != nil {
			t.Fatal(err)
		}
		kind := map[string]string{want[0]: "NopDB", want[1]: "NopQueue"}[d]
		if !strings.Contains(string(b), "kind: "+kind+"\n") {
			t.Errorf("%s/2-adopt.yaml does not create the new %s:\n%s", d, kind, b)
		}
	}
}

// TestRerunLeavesNoStaleDirectories is issue 23 item 4: a second plan into
// the same --out replaces the first whole.
func TestRerunLeavesNoStaleDirectories(t *testing.T) {
	out := filepath.Join(t.TempDir(), "move")
	if _, err := Run(context.Background(), request(t, export(t, nil), out)); err != nil {
		t.Fatal(err)
	}
	if _, err := Run(context.Background(), request(t, export(t, setClaim("team-a", "payments")), out)); err != nil {
		t.Fatal(err)
	}
	want := []string{".", "README.md", "definitions.yaml", "plan.json", "team-a", "team-a/payments",
		"team-a/payments/1-protect.yaml", "team-a/payments/2-adopt.yaml", "team-a/payments/3-resume.yaml", "team-a/payments/4-delete.yaml",
		"team-a/payments/4-restore.yaml", "team-a/payments/5-release.yaml", "team-a/payments/proof.yaml"}
	if diff := cmp.Diff(want, tree(t, out)); diff != "" {
		t.Errorf("the second plan's directory: -want, +got:\n%s", diff)
	}
	if got := tree(t, filepath.Dir(out)); len(got) != len(want)+1 {
		t.Errorf("left beside --out: %v", got)
	}
}

// TestWriteRefusesForeignDirectory: --out that holds files no plan writes
// is not replaced.
func TestWriteRefusesForeignDirectory(t *testing.T) {
	out := t.TempDir()
	if err := os.WriteFile(filepath.Join(out, "notes.txt"), []byte("mine"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := Write(out, map[string][]byte{"README.md": []byte("x"), "plan.json": []byte("{}")}); !errkind.IsInvalidInput(err) {
		t.Errorf("Write into a directory that is not a plan: want an invalid input error, got %v", err)
	}
	if diff := cmp.Diff([]string{".", "notes.txt"}, tree(t, out)); diff != "" {
		t.Errorf("Write changed a directory that is not a plan: -want, +got:\n%s", diff)
	}
}

// TestV2ReadsSubdirectories is issue 25 item 4: --v2 DIR reads migrate's
// --out tree, subdirectories included.
func TestV2ReadsSubdirectories(t *testing.T) {
	_, _, d := fixture(t, nil)
	v2 := t.TempDir()
	for i, objs := range [][]map[string]any{d.XRDs, d.Compositions} {
		b, err := stream(objs)
		if err != nil {
			t.Fatal(err)
		}
		dir := filepath.Join(v2, "apis", []string{"xrd", "composition"}[i])
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "definition.yaml"), b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	// Not of interest, and not YAML: skipped.
	if err := os.WriteFile(filepath.Join(v2, "apis", "chart.yaml"), []byte("{{ .Values }}: [\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	r := request(t, export(t, nil), filepath.Join(t.TempDir(), "move"))
	r.V2, r.ProviderCRDs = []string{v2}, nil
	p, err := Run(context.Background(), r)
	if err != nil {
		t.Fatalf("Run(--v2 %s with subdirectories): %v", v2, err)
	}
	if len(p.XRs) != 1 || p.Failed() || p.XRs[0].V2Composition != "nopdbs.v2.example.org" {
		t.Errorf("Run(--v2 with subdirectories): want team-a/orders planned onto nopdbs.v2.example.org, got %+v", p.XRs)
	}
}

// TestFailedXRHasNoSteps is issue 25 item 5: an XR whose plan has errors
// gets no step and no step file.
func TestFailedXRHasNoSteps(t *testing.T) {
	p := build(t, func(name string, o map[string]any) {
		if name == "orders-abcde-bk2" {
			delete(o["metadata"].(map[string]any)["annotations"].(map[string]any), "crossplane.io/external-name")
		}
	})
	x := p.XRs[0]
	if len(x.Errors) == 0 {
		t.Fatal("want a plan with errors")
	}
	if len(x.Steps) > 0 {
		t.Errorf("an XR with errors has %d steps, want none", len(x.Steps))
	}
	files, err := p.Files(Definitions{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for f := range files {
		got = append(got, f)
	}
	sort.Strings(got)
	want := []string{"README.md", "definitions.yaml", "plan.json", x.Dir + "/proof.yaml"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("the files of a plan whose only XR has errors: -want, +got:\n%s", diff)
	}
	var pj struct {
		XRs []struct {
			Steps []any `json:"steps"`
		} `json:"xrs"`
	}
	if err := yaml.Unmarshal(files["plan.json"], &pj); err != nil {
		t.Fatal(err)
	}
	if len(pj.XRs) != 1 || len(pj.XRs[0].Steps) != 0 {
		t.Errorf("plan.json: want one XR without steps, got %+v", pj.XRs)
	}
}
