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
	"k8s.io/apimachinery/pkg/runtime/schema"

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
	if bin, err = testutil.BuildXpmigrate(dir); err != nil {
		fmt.Fprintln(os.Stderr, err)
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
	// Inherited are the objects refused only for what the input they were
	// made from is refused for on v1 terms: an XR twin whose example is
	// refused by its own v1 claim or XR CRD for the same fields, a v2 XRD
	// (or its XR CRD) refused as the v1 XRD it replaced is. The corpus was
	// already wrong there; the migration copied it.
	Inherited []rejection
}

const xrTwin = "XR of a v2 XRD"

// validate installs the XR CRDs of the emitted v2 XRDs and asks the server
// to create every emitted object as a dry run with strict field validation
// (kubetest.Server.DryRunCreate), in the order of the output.
func validate(ctx context.Context, t *testing.T, tr *tree) *verdict {
	t.Helper()
	v := &verdict{Accepted: map[string]int{}, Skipped: map[string]int{}}
	types, failed := xrTypes(tr.Emitted)
	for i := range types {
		if o, ok := tr.originalOf(types[i].XRD); ok {
			types[i].Replaced = &o
		}
	}
	for xrd, err := range failed {
		v.Rejected = append(v.Rejected, rejection{xrd, "cannot derive its XR CRD: " + err.Error()})
	}

	// The XR CRDs, once per content; an XRD whose CRD the server refuses
	// is refused (Crossplane could not establish it).
	refused, inheritedGroups := map[string]string{}, map[string]bool{}
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
			r := rejection{ty.XRD.String(), "its XR CRD is refused: " + err.Error()}
			if orig, why := inheritedCRD(ctx, tr, ty, err); orig != "" {
				inheritedGroups[ty.Group] = true
				r.Message += "\n  as the XR CRD of the v1 XRD it replaced, " + orig + ", is: " + why
				v.Inherited = append(v.Inherited, r)
				continue
			}
			v.Rejected = append(v.Rejected, r)
		default:
			created = append(created, ty.CRD)
		}
	}
	if err := server.WaitForCRDs(ctx, created...); err != nil {
		t.Fatalf("WaitForCRDs(): %v", err)
	}
	v.XRCRDs = len(created)

	namespaces := map[string]bool{metav1.NamespaceDefault: true}
	unserved := map[schema.GroupVersionKind]bool{}
	for _, o := range tr.Emitted {
		obj, key := o.Obj, o.Obj.GetAPIVersion()+" "+o.Obj.GetKind()
		gvk := obj.GroupVersionKind()
		ty, twin := tr.typeFor(types, o)
		switch {
		case twin && refused[ty.Group] != "":
			r := rejection{o.String(), "the XR CRD of " + ty.XRD.String() + " is refused"}
			if inheritedGroups[ty.Group] {
				v.Inherited = append(v.Inherited, r)
			} else {
				v.Rejected = append(v.Rejected, r)
			}
			continue
		case twin:
			obj, key = asType(o, ty), xrTwin
		case tr.XRDGroups[gvk.Group]:
			v.Rejected = append(v.Rejected, rejection{o.String(), fmt.Sprintf("no emitted apiextensions.crossplane.io/v2 XRD defines %s %s", gvk.GroupVersion(), gvk.Kind)})
			continue
		}
		if unserved[obj.GroupVersionKind()] {
			v.Skipped[key]++
			continue
		}
		m, err := server.Mapping(obj.GroupVersionKind())
		if meta.IsNoMatchError(err) && !crossplaneGroups[gvk.Group] && !twin {
			// Rediscovering the server for each would cost seconds.
			unserved[obj.GroupVersionKind()] = true
			v.Skipped[key]++
			continue
		}
		if err != nil {
			v.Rejected = append(v.Rejected, rejection{o.String(), "Crossplane " + kubetest.CrossplaneV2Version + " does not serve it: " + err.Error()})
			continue
		}
		if m.Scope.Name() == meta.RESTScopeNameNamespace {
			if err := ensureNamespace(ctx, namespaces, obj.GetNamespace()); err != nil {
				r := rejection{o.String(), err.Error()}
				if src, _, ok := tr.sourceOf(o, nil); twin && ok && src.Obj.GetNamespace() == obj.GetNamespace() {
					r.Message += "\n  as its example " + src.String() + " is in the same namespace"
					v.Inherited = append(v.Inherited, r)
					continue
				}
				v.Rejected = append(v.Rejected, r)
				continue
			}
		}
		if err := server.DryRunCreate(ctx, obj); err != nil {
			r := rejection{o.String(), err.Error()}
			if orig, ok := tr.originalOf(o); ok && isXRDv2(o.Obj) {
				if oerr := server.DryRunCreate(ctx, orig.Obj); oerr != nil && inheritedProblems(problems(err, ""), problems(oerr, "")) {
					r.Message += "\n  as the v1 XRD it replaced, " + orig.String() + ", is: " + oerr.Error()
					v.Inherited = append(v.Inherited, r)
					continue
				}
			}
			if twin {
				if src, why := inherited(ctx, t, tr, types, namespaces, o, problems(err, ty.Group)); src != "" {
					r.Message += "\n  as its example " + src + " is: " + why
					v.Inherited = append(v.Inherited, r)
					continue
				}
			}
			v.Rejected = append(v.Rejected, r)
			continue
		}
		v.Accepted[key]++
	}
	return v
}

// ensureNamespace creates namespace ns ("default" when empty) unless
// namespaces says it exists. A namespace that cannot exist ("${NAMESPACE}"
// of a template) is an error.
func ensureNamespace(ctx context.Context, namespaces map[string]bool, ns string) error {
	if ns == "" {
		ns = metav1.NamespaceDefault
	}
	if namespaces[ns] {
		return nil
	}
	o := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "v1", "kind": "Namespace", "metadata": map[string]any{"name": ns}}}
	if err := server.Create(ctx, o); err != nil && !kerrors.IsAlreadyExists(err) {
		return fmt.Errorf("its namespace %q cannot be created: %w", ns, err)
	}
	namespaces[ns] = true
	return nil
}

// inheritedCRD derives the XR CRD of the v1 XRD that ty's XRD replaced
// and returns that XRD and the server's refusal of its CRD when every
// problem of the refusal of ty's CRD (err) is one of it; "" otherwise.
func inheritedCRD(ctx context.Context, tr *tree, ty xrType, err error) (orig, why string) {
	o, ok := tr.originalOf(ty.XRD)
	if !ok {
		return "", ""
	}
	xr, _, derr := kubetest.CompositeCRDs(o.Obj)
	if derr != nil {
		return "", ""
	}
	xr = renamed(xr)
	oerr := server.Create(ctx, xr)
	if oerr == nil || kerrors.IsAlreadyExists(oerr) || !inheritedProblems(problems(err, ty.CRD.GetName()), problems(oerr, xr.GetName())) {
		return "", ""
	}
	return o.String(), oerr.Error()
}

// inherited validates the example twin was made from (tree.sourceOf)
// against its v1 CRD and returns the example and its refusal when every
// one of the twin's problems is one of the example's; "" otherwise.
func inherited(ctx context.Context, t *testing.T, tr *tree, types []xrType, namespaces map[string]bool, twin object, twinProblems []string) (source, why string) {
	t.Helper()
	var replaced *object
	if ty, ok := tr.typeFor(types, twin); ok {
		replaced = ty.Replaced
	}
	src, crd, ok := tr.sourceOf(twin, replaced)
	if !ok {
		return "", ""
	}
	switch err := server.Create(ctx, crd); {
	case kerrors.IsAlreadyExists(err):
	case err != nil:
		return "", ""
	default:
		if err := server.WaitForCRDs(ctx, crd); err != nil {
			t.Fatalf("WaitForCRDs(): %v", err)
		}
	}
	if scope, _, _ := unstructured.NestedString(crd.Object, "spec", "scope"); scope == "Namespaced" {
		if err := ensureNamespace(ctx, namespaces, src.Obj.GetNamespace()); err != nil {
			return "", ""
		}
	}
	err := server.DryRunCreate(ctx, src.Obj)
	if err == nil || !inheritedProblems(twinProblems, problems(err, src.Obj.GroupVersionKind().Group)) {
		return "", ""
	}
	return src.String(), err.Error()
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
	t.Logf("%d objects emitted; %d accepted by Crossplane %s's API (%d XR CRDs derived from emitted v2 XRDs), %d refused, %d refused as their example is, by kind:\n  %s",
		len(tr.Emitted), total, kubetest.CrossplaneV2Version, v.XRCRDs, len(v.Rejected), len(v.Inherited), strings.Join(sortedCounts(v.Accepted), "\n  "))
	if len(v.Inherited) > 0 {
		var b strings.Builder
		for _, r := range v.Inherited {
			b.WriteString("\n  " + r.String())
		}
		t.Logf("%d objects refused only for what the input they were made from is refused for on v1 terms (an XR example by its own v1 CRD, a v1 XRD or its XR CRD), not counted as refusals:%s", len(v.Inherited), b.String())
	}
	if len(v.Skipped) > 0 {
		t.Logf("not validated (no CRD on this server for their group), by kind:\n  %s", strings.Join(sortedCounts(v.Skipped), "\n  "))
	}
	if v.Accepted["apiextensions.crossplane.io/v1 Composition"] == 0 {
		t.Errorf("no converted Composition was validated: the migration emitted none, or the comparison of its output with the corpus found none")
	}
}

// The hand-made objects of TestV2ValidationIsReal.
const (
	thingXRDv2 = `apiVersion: apiextensions.crossplane.io/v2
kind: CompositeResourceDefinition
metadata:
  name: things.example.org
spec:
  group: example.org
  names: {kind: Thing, plural: things}
  versions:
  - name: v1alpha1
    served: true
    referenceable: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              size: {type: string, enum: [small, large]}
`
	// A v1 XRD with claims, its apiVersion rewritten to v2 and nothing
	// else changed.
	claimXRDv2 = `apiVersion: apiextensions.crossplane.io/v2
kind: CompositeResourceDefinition
metadata:
  name: xclaimed.example.org
spec:
  group: example.org
  names: {kind: XClaimed, plural: xclaimed}
  claimNames: {kind: Claimed, plural: claimed}
  versions:
  - name: v1alpha1
    served: true
    referenceable: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
`
	secretKeysXRDv2 = `apiVersion: apiextensions.crossplane.io/v2
kind: CompositeResourceDefinition
metadata:
  name: xsecrets.example.org
spec:
  group: example.org
  names: {kind: XSecret, plural: xsecrets}
  connectionSecretKeys: [password]
  versions:
  - name: v1alpha1
    served: true
    referenceable: true
    schema:
      openAPIV3Schema:
        type: object
`
	pipelineComposition = `apiVersion: apiextensions.crossplane.io/v1
kind: Composition
metadata:
  name: things
spec:
  compositeTypeRef: {apiVersion: example.org/v1alpha1, kind: Thing}
  mode: Pipeline
  pipeline:
  - step: patch-and-transform
    functionRef: {name: function-patch-and-transform}
    input:
      apiVersion: pt.fn.crossplane.io/v1beta1
      kind: Resources
      resources: []
`
	resourcesComposition = `apiVersion: apiextensions.crossplane.io/v1
kind: Composition
metadata:
  name: legacy
spec:
  compositeTypeRef: {apiVersion: example.org/v1alpha1, kind: XThing}
  mode: Resources
  resources:
  - name: bucket
    base: {apiVersion: s3.aws.upbound.io/v1beta1, kind: Bucket}
`
	// A Pipeline Composition that still holds its legacy templates.
	leftoverResources = `apiVersion: apiextensions.crossplane.io/v1
kind: Composition
metadata:
  name: leftover
spec:
  compositeTypeRef: {apiVersion: example.org/v1alpha1, kind: Thing}
  mode: Pipeline
  pipeline:
  - step: patch-and-transform
    functionRef: {name: function-patch-and-transform}
  resources: []
`
	twin = `apiVersion: example.org/v1alpha1
kind: Thing
metadata: {name: small, namespace: team-a}
spec:
  size: small
  crossplane:
    compositionRef: {name: things}
`
	// An XR twin that kept the legacy XR's machinery fields.
	legacyTwin = `apiVersion: example.org/v1alpha1
kind: Thing
metadata: {name: legacy, namespace: team-a}
spec:
  size: small
  compositionRef: {name: things}
`
	orphanTwin = `apiVersion: example.org/v1alpha1
kind: Gadget
metadata: {name: orphan, namespace: team-a}
spec: {}
`
	function = `apiVersion: pkg.crossplane.io/v1
kind: Function
metadata: {name: function-patch-and-transform}
spec:
  package: xpkg.crossplane.io/crossplane-contrib/function-patch-and-transform:v0.10.8
`
	shortFunction = `apiVersion: pkg.crossplane.io/v1
kind: Function
metadata: {name: function-short}
spec:
  package: crossplane-contrib/function-patch-and-transform:v0.10.8
`
	envConfigV1beta1 = `apiVersion: apiextensions.crossplane.io/v1beta1
kind: EnvironmentConfig
metadata: {name: env}
data: {tier: gold}
`
	envConfigV1alpha1 = `apiVersion: apiextensions.crossplane.io/v1alpha1
kind: EnvironmentConfig
metadata: {name: env}
data: {tier: gold}
`
	usage = `apiVersion: protection.crossplane.io/v1beta1
kind: Usage
metadata: {name: db-uses-net, namespace: team-a}
spec:
  of:
    apiVersion: ec2.aws.m.upbound.io/v1beta1
    kind: VPC
    resourceRef: {name: net}
  by:
    apiVersion: rds.aws.m.upbound.io/v1beta1
    kind: Instance
    resourceRef: {name: db}
`
	legacyUsage = `apiVersion: apiextensions.crossplane.io/v1beta1
kind: Usage
metadata: {name: db-uses-net}
spec:
  of: {apiVersion: ec2.aws.upbound.io/v1beta1, kind: VPC, resourceRef: {name: net}}
  by: {apiVersion: rds.aws.upbound.io/v1beta1, kind: Instance, resourceRef: {name: db}}
`
	runtimeConfig = `apiVersion: pkg.crossplane.io/v1beta1
kind: DeploymentRuntimeConfig
metadata: {name: debug}
spec:
  deploymentTemplate:
    spec:
      selector: {}
      template:
        spec:
          containers:
          - name: package-runtime
            args: [--debug]
`
	// The legacy XRD of the group of orphanTwin, kept as v1.
	gadgetXRDv1 = `apiVersion: apiextensions.crossplane.io/v1
kind: CompositeResourceDefinition
metadata:
  name: xgadgets.example.org
spec:
  group: example.org
  names: {kind: XGadget, plural: xgadgets}
  versions:
  - name: v1alpha1
    served: true
    referenceable: true
    schema:
      openAPIV3Schema:
        type: object
`
	// The input's legacy XRD of thingXRDv2 and two claims whose size its
	// schema refuses.
	thingXRDv1 = `apiVersion: apiextensions.crossplane.io/v1
kind: CompositeResourceDefinition
metadata:
  name: xthings.example.org
spec:
  group: example.org
  names: {kind: XThing, plural: xthings}
  claimNames: {kind: ThingClaim, plural: thingclaims}
  versions:
  - name: v1alpha1
    served: true
    referenceable: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              size: {type: string, enum: [small, large]}
`
	hugeClaims = `apiVersion: example.org/v1alpha1
kind: ThingClaim
metadata: {name: huge, namespace: team-a}
spec:
  size: huge
---
apiVersion: example.org/v1alpha1
kind: ThingClaim
metadata: {name: huger, namespace: team-a}
spec:
  size: huge
`
	// The twin of the claim huge: refused for its size, as the claim is.
	hugeTwin = `apiVersion: example.org/v1alpha1
kind: Thing
metadata: {name: huge, namespace: team-a}
spec:
  size: huge
`
	// The twin of the claim huger, which also kept a legacy field.
	hugerTwin = `apiVersion: example.org/v1alpha1
kind: Thing
metadata: {name: huger, namespace: team-a}
spec:
  size: huge
  compositionRef: {name: things}
`
	managed = `apiVersion: s3.aws.m.upbound.io/v1beta1
kind: Bucket
metadata: {name: b, namespace: team-a}
spec: {forProvider: {region: us-east-1}}
`
)

// TestV2ValidationIsReal runs hand-made objects through validate, the
// path the corpus takes: the v2 XRDs, Compositions, Functions, Usages and
// XR twins a correct conversion writes are accepted; what a conversion
// that is not done would leave (claims in a v2 XRD, mode Resources, legacy
// templates, the legacy XR's machinery fields, a v1alpha1
// EnvironmentConfig, an apiextensions Usage) is refused, with the CRDs'
// own messages. Without the v2 CRDs' CEL rules and strict field
// validation, the refusals would not be. An XR twin refused only for what
// its claim is refused for by the claim's own CRD is inherited, not
// refused; one with a problem of its own is refused.
func TestV2ValidationIsReal(t *testing.T) {
	ctx := context.Background()
	files := map[string]struct {
		doc string
		// want is a part of the refusal; empty when the object must be
		// accepted, "skipped" when it is not validated.
		want string
	}{
		"xrd.yaml":                {doc: thingXRDv2},
		"xrd-claims.yaml":         {doc: claimXRDv2, want: "Claims aren't supported in apiextensions.crossplane.io/v2"},
		"xrd-secret-keys.yaml":    {doc: secretKeysXRDv2, want: "XR connection secrets aren't supported in apiextensions.crossplane.io/v2"},
		"composition.yaml":        {doc: pipelineComposition},
		"composition-legacy.yaml": {doc: resourcesComposition, want: `unknown field "spec.resources"`},
		"composition-mode.yaml":   {doc: strings.Replace(pipelineComposition, "mode: Pipeline", "mode: Resources", 1), want: `spec.mode: Unsupported value: "Resources"`},
		"composition-left.yaml":   {doc: leftoverResources, want: `unknown field "spec.resources"`},
		"xr.yaml":                 {doc: twin},
		"xr-legacy.yaml":          {doc: legacyTwin, want: `unknown field "spec.compositionRef"`},
		"xr-orphan.yaml":          {doc: orphanTwin + "---\n" + gadgetXRDv1, want: "no emitted apiextensions.crossplane.io/v2 XRD defines example.org/v1alpha1 Gadget"},
		"function.yaml":           {doc: function},
		"function-short.yaml":     {doc: shortFunction, want: "must be a fully qualified image name"},
		"env.yaml":                {doc: envConfigV1beta1},
		"env-v1alpha1.yaml":       {doc: envConfigV1alpha1, want: "does not serve it"},
		"usage.yaml":              {doc: usage},
		"usage-legacy.yaml":       {doc: legacyUsage, want: "does not serve it"},
		"runtime.yaml":            {doc: runtimeConfig},
		"managed.yaml":            {doc: managed, want: "skipped"},
		"huge.v2.yaml":            {doc: hugeTwin, want: "inherited"},
		"huger.v2.yaml":           {doc: hugerTwin, want: `unknown field "spec.compositionRef"`},
	}
	in, out := t.TempDir(), t.TempDir()
	for name, f := range files {
		if err := os.WriteFile(filepath.Join(out, name), []byte(f.doc), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	// The input's examples and their XRD, which the output keeps.
	for name, doc := range map[string]string{"legacy-xrd.yaml": thingXRDv1, "claims.yaml": hugeClaims} {
		for _, dir := range []string{in, out} {
			if err := os.WriteFile(filepath.Join(dir, name), []byte(doc), 0o600); err != nil {
				t.Fatal(err)
			}
		}
	}
	tr, err := readTree(in, out)
	if err != nil {
		t.Fatalf("readTree(): %v", err)
	}
	v := validate(ctx, t, tr)
	got := map[string]string{}
	for _, r := range v.Rejected {
		file, _, _ := strings.Cut(r.Object, " ")
		got[file] += r.Message
	}
	inherited := map[string]bool{}
	for _, r := range v.Inherited {
		file, _, _ := strings.Cut(r.Object, " ")
		inherited[file] = true
	}
	for name, f := range files {
		t.Run(strings.TrimSuffix(name, ".yaml"), func(t *testing.T) {
			switch msg := got[name]; {
			case f.want == "" && msg != "":
				t.Errorf("%s: want accepted, got refused: %s", name, msg)
			case f.want == "inherited":
				if !inherited[name] {
					t.Errorf("%s: want refused as the claim it twins is (inherited), got refused with %q (inherited: %v)", name, msg, inherited)
				}
			case f.want == "skipped" || f.want == "":
			case msg == "":
				t.Errorf("%s: want refused with %q, got accepted", name, f.want)
			case !strings.Contains(msg, f.want):
				t.Errorf("%s: want refused with %q, got refused with: %s", name, f.want, msg)
			}
		})
	}
	if v.Skipped["s3.aws.m.upbound.io/v1beta1 Bucket"] != 1 {
		t.Errorf("validate(): a managed resource, whose CRD the server does not have, is not validated: want it skipped, got skipped %v", v.Skipped)
	}
	if v.Accepted[xrTwin] != 1 {
		t.Errorf("validate(): want the one correct XR twin accepted, got accepted %v", v.Accepted)
	}
}
