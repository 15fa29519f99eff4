//go:build e2e

package v2e2e

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	kerrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/xpmigrate/xpmigrate/internal/kubetest"
	"github.com/xpmigrate/xpmigrate/internal/testutil"
)

var (
	server *kubetest.Server
	// bin is xpmigrate built from this checkout.
	bin string
	// crossplaneGroups are the groups of Crossplane v2's installed CRDs:
	// an object of one of them that the server does not serve (a version
	// v2 dropped, a kind it no longer has) is refused, not skipped.
	crossplaneGroups = map[string]bool{}
)

func TestMain(m *testing.M) {
	os.Exit(run(m))
}

func run(m *testing.M) int {
	ctx := context.Background()
	dir, err := os.MkdirTemp("", "xpmigrate-v2e2e-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	bin = filepath.Join(dir, "xpmigrate")
	build := exec.Command("go", "build", "-o", bin, "github.com/xpmigrate/xpmigrate/cmd/xpmigrate")
	if out, err := build.CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "go build: %v\n%s", err, out)
		return 1
	}
	s, err := kubetest.Start(ctx, kubetest.Options{})
	if err != nil {
		fmt.Fprintln(os.Stderr, "kubetest:", err)
		return 1
	}
	server = s
	defer func() {
		if err := s.Stop(); err != nil {
			fmt.Fprintln(os.Stderr, "kubetest:", err)
		}
	}()
	if err := s.InstallCrossplaneV2CRDs(ctx); err != nil {
		fmt.Fprintln(os.Stderr, "kubetest:", err)
		return 1
	}
	crds, err := kubetest.CrossplaneV2CRDs()
	if err != nil {
		fmt.Fprintln(os.Stderr, "kubetest:", err)
		return 1
	}
	for _, c := range crds {
		g, _, _ := unstructured.NestedString(c.Object, "spec", "group")
		crossplaneGroups[g] = true
	}
	return m.Run()
}

// A rejection is an emitted object the server refused, with its answer.
type rejection struct {
	Object  string
	Message string
}

func (r rejection) String() string { return r.Object + ": " + r.Message }

// A verdict is what the server made of a migration's output.
type verdict struct {
	// Accepted counts the objects the server accepted, by apiVersion and
	// kind; XR twins count under "XR of a v2 XRD".
	Accepted map[string]int
	// Skipped counts the objects of groups the server has no CRD for
	// (managed resources, Crossplane package metadata), by apiVersion and
	// kind: nothing on this server can judge them.
	Skipped map[string]int
	// XRCRDs is the number of XR CRDs installed for the emitted v2 XRDs.
	XRCRDs   int
	Rejected []rejection
}

const xrTwin = "XR of a v2 XRD"

// validate installs the XR CRDs of the emitted v2 XRDs and asks the server
// to create every emitted object as a dry run with strict field validation
// (kubetest.Server.DryRunCreate), in the order of the output.
func validate(ctx context.Context, t *testing.T, tr *tree) *verdict {
	t.Helper()
	v := &verdict{Accepted: map[string]int{}, Skipped: map[string]int{}}
	types, failed := xrTypes(tr.Emitted)
	for xrd, err := range failed {
		v.Rejected = append(v.Rejected, rejection{xrd, "cannot derive its XR CRD: " + err.Error()})
	}

	// The XR CRDs, once per content; an XRD whose CRD the server refuses
	// is refused (Crossplane could not establish it).
	refused := map[string]string{}
	var created []*unstructured.Unstructured
	for _, ty := range types {
		if _, done := refused[ty.Group]; done {
			continue
		}
		refused[ty.Group] = ""
		err := server.Create(ctx, ty.CRD)
		switch {
		case kerrors.IsAlreadyExists(err):
			// An earlier test installed it.
		case err != nil:
			refused[ty.Group] = err.Error()
			v.Rejected = append(v.Rejected, rejection{ty.XRD.String(), "its XR CRD is refused: " + err.Error()})
		default:
			created = append(created, ty.CRD)
		}
	}
	if err := server.WaitForCRDs(ctx, created...); err != nil {
		t.Fatalf("WaitForCRDs(): %v", err)
	}
	v.XRCRDs = len(created)

	namespaces := map[string]bool{metav1.NamespaceDefault: true}
	for _, o := range tr.Emitted {
		obj, key := o.Obj, o.Obj.GetAPIVersion()+" "+o.Obj.GetKind()
		gvk := obj.GroupVersionKind()
		ty, twin := xrdFor(types, o)
		switch {
		case twin && refused[ty.Group] != "":
			v.Rejected = append(v.Rejected, rejection{o.String(), "the XR CRD of " + ty.XRD.String() + " is refused"})
			continue
		case twin:
			obj, key = asType(o, ty), xrTwin
		case tr.XRDGroups[gvk.Group]:
			v.Rejected = append(v.Rejected, rejection{o.String(), fmt.Sprintf("no emitted apiextensions.crossplane.io/v2 XRD defines %s %s", gvk.GroupVersion(), gvk.Kind)})
			continue
		}
		m, err := server.Mapping(obj.GroupVersionKind())
		if meta.IsNoMatchError(err) && !crossplaneGroups[gvk.Group] && !twin {
			v.Skipped[key]++
			continue
		}
		if err != nil {
			v.Rejected = append(v.Rejected, rejection{o.String(), "Crossplane " + kubetest.CrossplaneV2Version + " does not serve it: " + err.Error()})
			continue
		}
		if ns := obj.GetNamespace(); m.Scope.Name() == meta.RESTScopeNameNamespace && !namespaces[ns] {
			nsObj := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "v1", "kind": "Namespace", "metadata": map[string]any{"name": ns}}}
			if err := server.Create(ctx, nsObj); err != nil && !kerrors.IsAlreadyExists(err) {
				t.Fatalf("cannot create namespace %q: %v", ns, err)
			}
			namespaces[ns] = true
		}
		if err := server.DryRunCreate(ctx, obj); err != nil {
			v.Rejected = append(v.Rejected, rejection{o.String(), err.Error()})
			continue
		}
		v.Accepted[key]++
	}
	return v
}

// TestV2PlatformAcceptedByAPIServer migrates the corpus with --target v2
// and has Crossplane v2's API validate every object the migration emitted.
func TestV2PlatformAcceptedByAPIServer(t *testing.T) {
	ctx := context.Background()
	corpus := testutil.Corpus(t)
	out := filepath.Join(t.TempDir(), "out")
	// --force writes the files whose conversion fails verification too:
	// they are part of what a user could apply.
	cmd := exec.Command(bin, "migrate", corpus, "--target", "v2", "--out", out, "--force")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit) && (exit.ExitCode() == 1 || exit.ExitCode() == 3):
		// Findings or verifications failed; the tree is written.
	case err != nil:
		t.Fatalf("xpmigrate migrate --target v2: %v\n%s", err, stderr.String())
	}
	lines := strings.Split(strings.TrimSpace(stderr.String()), "\n")
	t.Logf("xpmigrate migrate --target v2 --out (exit %d): %s", cmd.ProcessState.ExitCode(), lines[len(lines)-1])

	tr, err := readTree(corpus, out)
	if err != nil {
		t.Fatalf("readTree(): %v", err)
	}
	v := validate(ctx, t, tr)
	for _, r := range v.Rejected {
		t.Errorf("refused by Crossplane %s's API: %s", kubetest.CrossplaneV2Version, r)
	}
	total := 0
	for _, n := range v.Accepted {
		total += n
	}
	t.Logf("%d objects emitted; %d accepted by Crossplane %s's API (%d XR CRDs derived from emitted v2 XRDs), %d refused, by kind:\n  %s",
		len(tr.Emitted), total, kubetest.CrossplaneV2Version, v.XRCRDs, len(v.Rejected), strings.Join(sortedCounts(v.Accepted), "\n  "))
	if len(v.Skipped) > 0 {
		t.Logf("not validated (no CRD on this server for their group), by kind:\n  %s", strings.Join(sortedCounts(v.Skipped), "\n  "))
	}
	if v.Accepted["apiextensions.crossplane.io/v1 Composition"] == 0 {
		t.Errorf("no converted Composition was validated: the migration emitted none, or the comparison of its output with the corpus found none")
	}
}
