package plan

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
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
		"NameRunsACommand": {
			reason: "A claim named x$(touch${IFS}PWNED) is not a name: refused before any README holds it.",
			edit:   setClaim("team-a", "x$(touch${IFS}PWNED)"),
		},
		"NameWithNewline": {
			reason: "A claim name with a newline is not a name.",
			edit:   setClaim("team-a", "orders\n```\n<b>x</b>"),
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

// TestExportedTwiceIsOneXR: an XR that the export lists twice (two kubectl
// get commands that overlap) is planned once, not refused as two XRs in
// one directory.
func TestExportedTwiceIsOneXR(t *testing.T) {
	m := export(t, nil)
	var again []map[string]any
	for _, o := range m.Objects() {
		again = append(again, jsonobj.DeepCopy(o))
	}
	m = export(t, nil, again...)
	p, err := Run(context.Background(), request(t, m, filepath.Join(t.TempDir(), "move")))
	if err != nil {
		t.Fatal(err)
	}
	if len(p.XRs) != 1 || p.Failed() {
		t.Errorf("an export that lists every object twice: want one XR planned, got %d (failed %v)", len(p.XRs), p.Failed())
	}
}

// TestPlaceRefusesOrSeparates is the placement property on chosen
// hostile names (FuzzPlace explores more): every name either is refused
// or maps to a directory inside --out, and distinct objects never share
// one.
func TestPlaceRefusesOrSeparates(t *testing.T) {
	cases := map[string]struct {
		reason  string
		a, b    Ref
		refused bool
	}{
		"SameNameOtherKind": {
			reason: "Claims of two kinds with one namespace and name: two directories.",
			a:      Ref{APIVersion: "v2.example.org/v1", Kind: "NopDB", Namespace: "team-a", Name: "orders"},
			b:      Ref{APIVersion: "v2.example.org/v1", Kind: "NopQueue", Namespace: "team-a", Name: "orders"},
		},
		"SameKindOtherGroup": {
			reason: "One kind in two groups: two directories.",
			a:      Ref{APIVersion: "a.example.org/v1", Kind: "DB", Namespace: "team-a", Name: "orders"},
			b:      Ref{APIVersion: "b.example.org/v1", Kind: "DB", Namespace: "team-a", Name: "orders"},
		},
		"NameLooksQualified": {
			reason: "A name that spells another's qualified directory cannot take it: qualified names hold _, names cannot.",
			a:      Ref{APIVersion: "v2.example.org/v1", Kind: "NopDB", Namespace: "team-a", Name: "orders"},
			b:      Ref{APIVersion: "v2.example.org/v1", Kind: "NopQueue", Namespace: "team-a", Name: "orders.nopdb.v2.example.org"},
		},
		"Twice": {
			reason: "Two legacy XRs onto one new XR: refused, not one lost.",
			a:      Ref{APIVersion: "v2.example.org/v1", Kind: "NopDB", Namespace: "team-a", Name: "orders"},
			b:      Ref{APIVersion: "v2.example.org/v1", Kind: "NopDB", Namespace: "team-a", Name: "orders"}, refused: true,
		},
		"KindsDifferInCase": {
			reason: "Kinds that differ only in case would share a directory on a case-insensitive file system: refused.",
			a:      Ref{APIVersion: "v2.example.org/v1", Kind: "NopDB", Namespace: "team-a", Name: "orders"},
			b:      Ref{APIVersion: "v2.example.org/v1", Kind: "NOPDB", Namespace: "team-a", Name: "orders"}, refused: true,
		},
		"NamespaceClimbs":  {reason: "../../../x is no namespace.", a: Ref{APIVersion: "v2.example.org/v1", Kind: "NopDB", Namespace: "../../../x", Name: "orders"}, refused: true},
		"NamespaceAbs":     {reason: "/abs is no namespace.", a: Ref{APIVersion: "v2.example.org/v1", Kind: "NopDB", Namespace: "/abs", Name: "orders"}, refused: true},
		"NameDot":          {reason: ". is no name.", a: Ref{APIVersion: "v2.example.org/v1", Kind: "NopDB", Namespace: "team-a", Name: "."}, refused: true},
		"NameDotDot":       {reason: ".. is no name.", a: Ref{APIVersion: "v2.example.org/v1", Kind: "NopDB", Namespace: "team-a", Name: ".."}, refused: true},
		"NameShell":        {reason: "A name with shell syntax is no name.", a: Ref{APIVersion: "v2.example.org/v1", Kind: "NopDB", Namespace: "team-a", Name: "x$(touch${IFS}PWNED)"}, refused: true},
		"NameNewline":      {reason: "A name with a newline is no name.", a: Ref{APIVersion: "v2.example.org/v1", Kind: "NopDB", Namespace: "team-a", Name: "a\nb"}, refused: true},
		"KindSlash":        {reason: "A kind with a slash is no kind.", a: Ref{APIVersion: "v2.example.org/v1", Kind: "a/../../b", Namespace: "team-a", Name: "orders"}, refused: true},
		"GroupClimbs":      {reason: "A group .. is no group.", a: Ref{APIVersion: "../v1", Kind: "NopDB", Namespace: "team-a", Name: "orders"}, refused: true},
		"NamespaceUnder":   {reason: "_cluster is no namespace: it cannot take the cluster-scoped XRs' directory.", a: Ref{APIVersion: "v2.example.org/v1", Kind: "NopDB", Namespace: "_cluster", Name: "orders"}, refused: true},
		"ClusterAndNsSame": {reason: "A cluster-scoped XR and a namespaced one of one name: two directories.", a: Ref{APIVersion: "v2.example.org/v1", Kind: "NopDB", Name: "orders"}, b: Ref{APIVersion: "v2.example.org/v1", Kind: "NopDB", Namespace: "default", Name: "orders"}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			err := checkPlacement(t, []Ref{tc.a, tc.b}, false)
			if got := err != nil; got != tc.refused {
				t.Errorf("\n%s\nplace(%v, %v): refused %v (%v), want %v", tc.reason, tc.a, tc.b, got, err, tc.refused)
			}
		})
	}
}

// checkPlacement places an XR per ref (empty refs are left out; with
// unplanned the second has no new XR and is placed by its legacy XR) and
// fails t unless place refuses with an invalid input error, or every
// directory is inside --out, distinct objects get distinct directories,
// and Write puts every file of theirs inside --out. It returns place's
// error.
func checkPlacement(t *testing.T, refs []Ref, unplanned bool) error {
	t.Helper()
	var xrs []*XR
	for i, r := range refs {
		if r == (Ref{}) {
			continue
		}
		x := &XR{Legacy: Ref{APIVersion: "example.org/v1", Kind: "XNopDB", Name: fmt.Sprintf("legacy-%d", i)}, New: r}
		if unplanned && i == 1 {
			x.Legacy, x.New = r, Ref{}
		}
		xrs = append(xrs, x)
	}
	err := place(xrs)
	if err != nil {
		if !errkind.IsInvalidInput(err) {
			t.Errorf("place(...): want an invalid input error, got %v", err)
		}
		return err
	}
	root := t.TempDir()
	out := filepath.Join(root, "move")
	files := map[string][]byte{"plan.json": []byte("{}")}
	seen := map[string]Ref{}
	for _, x := range xrs {
		if !filepath.IsLocal(x.Dir) || strings.Contains(x.Dir, `\`) {
			t.Errorf("place(...): %q is not a local path", x.Dir)
		}
		for _, e := range strings.Split(x.Dir, "/") {
			if e == "" || e == "." || e == ".." {
				t.Errorf("place(...): %q has the element %q", x.Dir, e)
			}
		}
		id := x.New
		if id.Name == "" {
			id = x.Legacy
		}
		if other, ok := seen[strings.ToLower(x.Dir)]; ok {
			t.Errorf("place(...): %v and %v share %q", other, id, x.Dir)
		}
		seen[strings.ToLower(x.Dir)] = id
		files[x.Dir+"/1-protect.yaml"] = []byte(id.String())
	}
	if err := Write(out, files); err != nil {
		t.Fatalf("Write(...): %v", err)
	}
	for _, p := range tree(t, root) {
		if p != "." && p != "move" && !strings.HasPrefix(p, "move/") {
			t.Errorf("Write(...) wrote %q outside --out", p)
		}
	}
	return nil
}

// FuzzPlace: any kind, group, namespace and name is refused or placed
// inside --out, and two distinct objects never share a directory.
func FuzzPlace(f *testing.F) {
	f.Add("team-a", "orders", "NopDB", "v2.example.org", "team-a", "orders", "NopQueue", "v2.example.org", false)
	f.Add("../../../x", "orders", "NopDB", "v2.example.org", "/abs", "orders", "NopDB", "v2.example.org", false)
	f.Add("team-a", "x$(touch${IFS}PWNED)", "NopDB", "v2.example.org", "team-a", "..", "NopDB", "v2.example.org", true)
	f.Add("team-a", "orders", "NopDB", "", "", "orders", "NopDB", "", true)
	f.Fuzz(func(t *testing.T, ns1, n1, k1, g1, ns2, n2, k2, g2 string, unplanned bool) {
		a := Ref{APIVersion: g1 + "/v1", Kind: k1, Namespace: ns1, Name: n1}
		b := Ref{APIVersion: g2 + "/v1", Kind: k2, Namespace: ns2, Name: n2}
		if g1 == "" {
			a.APIVersion = "v1"
		}
		if g2 == "" {
			b.APIVersion = "v1"
		}
		if unplanned {
			b.Namespace = ""
		}
		err := checkPlacement(t, []Ref{a, b}, unplanned)
		if err == nil && !unplanned && strings.EqualFold(a.String(), b.String()) {
			t.Errorf("place(%v, %v): one object twice, want refused", a, b)
		}
	})
}

// TestREADMEEscapesNames is issue 23 item 3: names and messages in the
// README's text are escaped: a newline adds no line, HTML stays text.
func TestREADMEEscapesNames(t *testing.T) {
	readme := func(name string) string {
		p := build(t, func(_ string, o map[string]any) {
			if o["kind"] == "XNopDB" {
				o["spec"].(map[string]any)["compositionRef"].(map[string]any)["name"] = name
			}
		})
		p.XRs[0].Errors = append(p.XRs[0].Errors, "cannot adopt "+name)
		return p.README()
	}
	plain := readme("plain")
	r := readme("x\n```\n<img src=x onerror=alert(1)>\n## injected\x1b[31m")
	if got, want := strings.Count(r, "\n"), strings.Count(plain, "\n"); got != want {
		t.Errorf("README.md has %d lines, %d with a plain name: a name added lines\n%s", got, want, r)
	}
	for _, raw := range []string{"<img", "\n## injected", "\x1b", "\n```\n"} {
		if strings.Contains(r, raw) {
			t.Errorf("README.md holds %q raw:\n%s", raw, r)
		}
	}
}

// TestREADMEShellBlockRunsNothing is issue 23 item 3: whatever data the
// commands of the README's shell block carry, the shell passes it to the
// command as one argument and runs nothing. The names here are not valid
// Kubernetes names (dirOf refuses them): the quoting stands on its own.
func TestREADMEShellBlockRunsNothing(t *testing.T) {
	x := &XR{
		Dir:    "team-a/x$(touch${IFS}PWNED)",
		Legacy: Ref{APIVersion: "example.org/v1", Kind: "XNopDB", Name: "a`touch PWNED`"},
		New:    Ref{APIVersion: "v2.example.org/v1", Kind: "NopDB", Namespace: "te;touch PWNED", Name: "it's\ntouch PWNED"},
	}
	x.steps(Composite{XR: map[string]any{"apiVersion": "example.org/v1", "kind": "XNopDB", "metadata": map[string]any{"name": x.Legacy.Name}}}, "fm'$(touch PWNED)")
	r := (&Plan{XRs: []*XR{x}}).README()
	_, block, ok := strings.Cut(r, "```sh\n")
	if !ok {
		t.Fatalf("README.md has no shell block:\n%s", r)
	}
	block, _, _ = strings.Cut(block, "```\n")
	if out, err := exec.Command("sh", "-n", "-c", block).CombinedOutput(); err != nil {
		t.Fatalf("sh -n: %v\n%s\n%s", err, out, block)
	}
	dir := t.TempDir()
	stubs := "xpmigrate() { printf '%s\\0' xpmigrate \"$@\"; printf '\\n'; }\nkubectl() { printf '%s\\0' kubectl \"$@\"; printf '\\n'; }\n"
	cmd := exec.Command("sh", "-c", stubs+block)
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("sh: %v\n%s", err, block)
	}
	var got [][]string
	for _, line := range strings.Split(strings.TrimSuffix(string(out), "\x00\n"), "\x00\n") {
		got = append(got, strings.Split(line, "\x00"))
	}
	var want [][]string
	for _, s := range x.Steps {
		want = append(want, []string{"xpmigrate", "plan", "v2", "--check-step", fmt.Sprint(s.Number), "--plan", ".", "--cluster", "--xr", x.Dir})
		for _, a := range s.Actions {
			switch a.Verb {
			case VerbApply:
				want = append(want, []string{"kubectl", "apply", "--server-side", "--force-conflicts", fmt.Sprintf("--field-manager=fm'$(touch PWNED)-step%d", s.Number), "-f", a.File})
			case VerbUnpause:
				want = append(want, []string{"kubectl", "annotate", "-f", a.File, "crossplane.io/paused-"})
			case VerbDelete:
				want = append(want, []string{"kubectl", "delete", "--wait=false", "-f", a.File})
			case VerbWait:
				want = append(want, []string{"kubectl", "wait", "--for=condition=Ready", "--timeout=10m", "nopdb.v2.example.org/" + x.New.Name, "-n", x.New.Namespace})
			}
		}
	}
	want = append(want, []string{"xpmigrate", "plan", "v2", "--check-step", "6", "--plan", ".", "--cluster", "--xr", x.Dir})
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("the arguments the commands of the shell block received: -want, +got:\n%s", diff)
	}
	if created := tree(t, dir); len(created) > 1 {
		t.Errorf("the shell block ran something: it created %v", created)
	}
}
