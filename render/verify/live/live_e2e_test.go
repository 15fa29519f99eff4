//go:build e2e

package live_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/yaml"

	"github.com/xpmigrate/xpmigrate/internal/kubetest"
	"github.com/xpmigrate/xpmigrate/internal/testutil"
	"github.com/xpmigrate/xpmigrate/render/verify"
	"github.com/xpmigrate/xpmigrate/render/verify/live"
)

// noSecrets reads everything verify --cluster needs but Secrets.
const noSecrets = "no-secrets"

// teamAClaims reads everything verify --cluster needs but claims, and the
// claims of the namespace team-a only (a RoleBinding there).
const teamAClaims = "team-a-claims"

var (
	server *kubetest.Server
	// dir holds the built binary and the repository's Composition files.
	dir string
	bin string
)

func TestMain(m *testing.M) {
	os.Exit(run(m))
}

func run(m *testing.M) int {
	ctx := context.Background()
	var err error
	if dir, err = os.MkdirTemp("", "xpmigrate-live-"); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	if bin, err = testutil.BuildXpmigrate(dir); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	s, err := kubetest.Start(ctx, kubetest.Options{Users: []kubetest.User{{Name: noSecrets}, {Name: teamAClaims}}})
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
	if err := seed(ctx, s); err != nil {
		fmt.Fprintln(os.Stderr, "seed:", err)
		return 1
	}
	code := m.Run()
	// The proof of read-only access: every request of the users the
	// binary ran as is a get or a list.
	events, err := s.AuditEvents(ctx)
	if err != nil {
		fmt.Fprintln(os.Stderr, "audit:", err)
		return 1
	}
	for _, u := range []string{kubetest.Reader, noSecrets, teamAClaims} {
		if v := kubetest.ReadOnlyViolations(events, u); len(v) > 0 {
			fmt.Fprintf(os.Stderr, "FAIL: %s sent requests that are not get or list:\n  %s\n", u, strings.Join(v, "\n  "))
			code = 1
		}
		if n := kubetest.Requests(events, u); u == kubetest.Reader && (n["list"] == 0 || n["get"] == 0) {
			fmt.Fprintf(os.Stderr, "FAIL: the audit log holds no list or no get of %s (%v): it does not record the binary's requests\n", u, n)
			code = 1
		}
	}
	return code
}

func u(o map[string]any) *unstructured.Unstructured { return &unstructured.Unstructured{Object: o} }

func fromYAML(s string) *unstructured.Unstructured {
	o := map[string]any{}
	if err := yaml.Unmarshal([]byte(s), &o); err != nil {
		panic(err)
	}
	return u(o)
}

// compositionYAML is a legacy Composition: a Bucket whose size is mapped
// from the XR's, whose connection Secret is named after the XR, whose ARN
// is patched back to the XR, and whose password is a connection detail.
// With env, it reads its tier from that EnvironmentConfig through the
// native environment (Crossplane 1.17's; the v1.20.11 CRDs reject
// FromEnvironmentFieldPath, so such a Composition lives only in a
// repository); else its base sets the tier.
func compositionYAML(name, env, small string) string {
	environment, envPatch := "", ""
	if env != "" {
		environment = fmt.Sprintf(`  environment:
    environmentConfigs:
    - type: Reference
      ref:
        name: %s
`, env)
		envPatch = `    - type: FromEnvironmentFieldPath
      fromFieldPath: tier
      toFieldPath: spec.forProvider.tier
`
	}
	return fmt.Sprintf(`apiVersion: apiextensions.crossplane.io/v1
kind: Composition
metadata:
  name: %s
spec:
  compositeTypeRef:
    apiVersion: example.org/v1alpha1
    kind: XThing
  writeConnectionSecretsToNamespace: crossplane-system
%s  resources:
  - name: bucket
    base:
      apiVersion: example.org/v1
      kind: Bucket
      spec:
        forProvider:
          region: us-east-1
          tier: gold
        writeConnectionSecretToRef:
          namespace: crossplane-system
    patches:
    - type: FromCompositeFieldPath
      fromFieldPath: spec.size
      toFieldPath: spec.forProvider.size
      transforms:
      - type: map
        map:
          small: %s
          large: L
%s    - type: FromCompositeFieldPath
      fromFieldPath: metadata.name
      toFieldPath: spec.writeConnectionSecretToRef.name
      transforms:
      - type: string
        string:
          fmt: "%%s-bucket"
    - type: ToCompositeFieldPath
      fromFieldPath: status.atProvider.arn
      toFieldPath: status.arn
    connectionDetails:
    - name: password
      fromConnectionSecretKey: password
`, name, environment, small, envPatch)
}

func revision(comp *unstructured.Unstructured, name string, rev int64) *unstructured.Unstructured {
	spec := comp.DeepCopy().Object["spec"].(map[string]any)
	spec["revision"] = rev
	return u(map[string]any{
		"apiVersion": "apiextensions.crossplane.io/v1", "kind": "CompositionRevision",
		"metadata": map[string]any{"name": name, "labels": map[string]any{"crossplane.io/composition-name": comp.GetName()}},
		"spec":     spec,
	})
}

func xrd() *unstructured.Unstructured {
	return fromYAML(`apiVersion: apiextensions.crossplane.io/v1
kind: CompositeResourceDefinition
metadata:
  name: xthings.example.org
spec:
  group: example.org
  names: {kind: XThing, plural: xthings}
  claimNames: {kind: Thing, plural: things}
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
              size: {type: string}
          status:
            type: object
            properties:
              arn: {type: string}
`)
}

func bucketCRD() *unstructured.Unstructured {
	return fromYAML(`apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: buckets.example.org
spec:
  group: example.org
  scope: Cluster
  names: {kind: Bucket, plural: buckets}
  versions:
  - name: v1
    served: true
    storage: true
    subresources: {status: {}}
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec: {type: object, x-kubernetes-preserve-unknown-fields: true}
          status: {type: object, x-kubernetes-preserve-unknown-fields: true}
`)
}

var conditions = []any{
	map[string]any{"type": "Synced", "status": "True", "reason": "ReconcileSuccess", "lastTransitionTime": "2026-01-01T00:00:00Z"},
	map[string]any{"type": "Ready", "status": "True", "reason": "Available", "lastTransitionTime": "2026-01-01T00:00:00Z"},
}

// composite is an XR as Crossplane v1.20 leaves it once reconciled, its
// claim, its Bucket as the legacy composer wrote it and the provider
// filled its status, and the connection Secrets of both.
type composite struct {
	name, comp, rev, claimNS, size, bucketSize string
	manual                                     bool
	// revisionSelector is the matchLabels of spec.compositionRevisionSelector.
	revisionSelector map[string]any
	// claimARN and claimSize, when set, are the claim's status.arn and
	// spec.size where they differ from the XR's (as the claim syncer would
	// not have left them).
	claimARN, claimSize string
}

func (c composite) objects() []*unstructured.Unstructured {
	bucket := c.name + "-bucket"
	labels := map[string]any{"crossplane.io/composite": c.name}
	// The legacy composer copies the XR's claim labels to what it
	// composes: empty when there is no claim.
	composedLabels := map[string]any{"crossplane.io/composite": c.name, "crossplane.io/claim-name": "", "crossplane.io/claim-namespace": ""}
	spec := map[string]any{
		"size":                       c.size,
		"compositionRef":             map[string]any{"name": c.comp},
		"compositionRevisionRef":     map[string]any{"name": c.rev},
		"resourceRefs":               []any{map[string]any{"apiVersion": "example.org/v1", "kind": "Bucket", "name": bucket}},
		"writeConnectionSecretToRef": map[string]any{"namespace": "crossplane-system", "name": c.name + "-conn"},
	}
	spec["compositionUpdatePolicy"] = "Automatic"
	if c.manual {
		spec["compositionUpdatePolicy"] = "Manual"
	}
	if c.revisionSelector != nil {
		spec["compositionRevisionSelector"] = map[string]any{"matchLabels": c.revisionSelector}
	}
	var out []*unstructured.Unstructured
	arn := "arn:aws:s3:::" + c.name
	if c.claimNS != "" {
		// As the claim syncer keeps it: the XR's status without its
		// conditions, and the claim's own conditions.
		claimARN, claimSize := arn, c.size
		if c.claimARN != "" {
			claimARN = c.claimARN
		}
		if c.claimSize != "" {
			claimSize = c.claimSize
		}
		labels["crossplane.io/claim-name"] = c.name
		labels["crossplane.io/claim-namespace"] = c.claimNS
		composedLabels = labels
		spec["claimRef"] = map[string]any{"apiVersion": "example.org/v1alpha1", "kind": "Thing", "namespace": c.claimNS, "name": c.name}
		out = append(out, u(map[string]any{
			"apiVersion": "example.org/v1alpha1", "kind": "Thing",
			"metadata": map[string]any{"namespace": c.claimNS, "name": c.name},
			"spec": map[string]any{
				"size":        claimSize,
				"resourceRef": map[string]any{"apiVersion": "example.org/v1alpha1", "kind": "XThing", "name": c.name},
			},
			"status": map[string]any{"arn": claimARN, "conditions": conditions},
		}))
	}
	out = append(out,
		u(map[string]any{
			"apiVersion": "example.org/v1alpha1", "kind": "XThing",
			"metadata": map[string]any{"name": c.name, "labels": labels},
			"spec":     spec,
			"status":   map[string]any{"arn": arn, "conditions": conditions},
		}),
		u(map[string]any{
			"apiVersion": "example.org/v1", "kind": "Bucket",
			"metadata": map[string]any{
				"name":        bucket,
				"labels":      composedLabels,
				"annotations": map[string]any{"crossplane.io/composition-resource-name": "bucket"},
				"ownerReferences": []any{map[string]any{
					"apiVersion": "example.org/v1alpha1", "kind": "XThing", "name": c.name,
					"uid": "set-by-seed", "controller": true, "blockOwnerDeletion": true,
				}},
			},
			"spec": map[string]any{
				"forProvider":                map[string]any{"region": "us-east-1", "size": c.bucketSize, "tier": "gold"},
				"writeConnectionSecretToRef": map[string]any{"namespace": "crossplane-system", "name": bucket},
			},
			"status": map[string]any{"atProvider": map[string]any{"arn": arn}, "conditions": conditions},
		}),
		secret(bucket, "pw-"+c.name),
		secret(c.name+"-conn", "pw-"+c.name),
	)
	return out
}

func secret(name, password string) *unstructured.Unstructured {
	return u(map[string]any{
		"apiVersion": "v1", "kind": "Secret",
		"metadata":   map[string]any{"namespace": "crossplane-system", "name": name},
		"stringData": map[string]any{"password": password},
	})
}

// equivSize is the size of XR e-<i> of the Composition equiv: every fifth
// is large.
func equivSize(i int) string {
	if i%5 == 0 {
		return "large"
	}
	return "small"
}

// The cluster the tests read (every XR's claim in team-a or team-b, unless
// said otherwise):
//   - equiv: XRs e-00 … e-49 (e-00 … e-24 in team-a), every fifth large.
//   - edited: XRs d-0 … d-2; d-1's Bucket was edited by hand (a size
//     Crossplane owns, and tags no template sets).
//   - pinned: revisions pinned-1 (small maps to S-old; labelled channel:
//     stable) and pinned-2 (the Composition); p-0 is pinned to pinned-1
//     (Manual), p-1 runs pinned-2, p-2 runs pinned-1 (Automatic, with a
//     revision selector channel: stable the Composition does not match).
//     No claims.
//   - claims: XRs c-0 … c-2 claimed in team-a; c-1's claim has a stale
//     status.arn, c-2's claim asks for size large (its XR has small).
//   - needs-env: reads the EnvironmentConfig absent, which does not exist;
//     its XR n-0 never composed anything.
//   - empty: no XR.
//   - converted: a mode: Pipeline Composition (in the cluster only), no XR.
func seed(ctx context.Context, s *kubetest.Server) error {
	if err := s.InstallCrossplaneCRDs(ctx); err != nil {
		return err
	}
	xrCRD, claimCRD, err := kubetest.CompositeCRDs(xrd())
	if err != nil {
		return err
	}
	if err := s.InstallCRDs(ctx, xrCRD, claimCRD, bucketCRD()); err != nil {
		return err
	}
	objs := []*unstructured.Unstructured{
		u(map[string]any{"apiVersion": "v1", "kind": "Namespace", "metadata": map[string]any{"name": "team-a"}}),
		u(map[string]any{"apiVersion": "v1", "kind": "Namespace", "metadata": map[string]any{"name": "team-b"}}),
		u(map[string]any{"apiVersion": "v1", "kind": "Namespace", "metadata": map[string]any{"name": "crossplane-system"}}),
		xrd(),
		u(map[string]any{
			"apiVersion": "apiextensions.crossplane.io/v1beta1", "kind": "EnvironmentConfig",
			"metadata": map[string]any{"name": "env-main"},
			"data":     map[string]any{"tier": "gold"},
		}),
	}
	// The repository's files; the cluster holds them without the native
	// environment, as a v1.20 cluster must.
	files := map[string]string{
		"equiv":     compositionYAML("equiv", "", "S"),
		"edited":    compositionYAML("edited", "", "S"),
		"pinned":    compositionYAML("pinned", "", "S"),
		"claims":    compositionYAML("claims", "", "S"),
		"needs-env": compositionYAML("needs-env", "absent", "S"),
		"empty":     compositionYAML("empty", "", "S"),
	}
	for name, y := range files {
		if err := os.WriteFile(filepath.Join(dir, name+".yaml"), []byte(y), 0o600); err != nil {
			return err
		}
		comp := fromYAML(compositionYAML(name, "", "S"))
		objs = append(objs, comp)
		if name == "pinned" {
			old := fromYAML(compositionYAML("pinned", "", "S-old"))
			stable := revision(old, "pinned-1", 1)
			stable.SetLabels(map[string]string{"crossplane.io/composition-name": "pinned", "channel": "stable"})
			objs = append(objs, stable, revision(comp, "pinned-2", 2))
			continue
		}
		objs = append(objs, revision(comp, name+"-1", 1))
	}
	// Cannot be converted (a PatchSet patch names no PatchSet): --from-cluster
	// reports it as not checked and goes on.
	objs = append(objs, fromYAML(`apiVersion: apiextensions.crossplane.io/v1
kind: Composition
metadata:
  name: broken
spec:
  compositeTypeRef:
    apiVersion: example.org/v1alpha1
    kind: XThing
  resources:
  - name: bucket
    base:
      apiVersion: example.org/v1
      kind: Bucket
    patches:
    - type: PatchSet
      patchSetName: missing
`))
	// Already converted: --from-cluster skips it.
	objs = append(objs, fromYAML(`apiVersion: apiextensions.crossplane.io/v1
kind: Composition
metadata:
  name: converted
spec:
  compositeTypeRef:
    apiVersion: example.org/v1alpha1
    kind: XThing
  mode: Pipeline
  pipeline:
  - step: patch-and-transform
    functionRef:
      name: function-patch-and-transform
    input:
      apiVersion: pt.fn.crossplane.io/v1beta1
      kind: Resources
      resources: []
`))
	// The mutated conversion: large maps to XL.
	conv, err := exec.Command(bin, "convert", filepath.Join(dir, "equiv.yaml")).Output()
	if err != nil {
		return fmt.Errorf("xpmigrate convert: %w", err)
	}
	if !bytes.Contains(conv, []byte("large: L\n")) {
		return fmt.Errorf("the converted Composition has no map entry large: L:\n%s", conv)
	}
	if err := os.WriteFile(filepath.Join(dir, "mutated.yaml"), bytes.Replace(conv, []byte("large: L\n"), []byte("large: XL\n"), 1), 0o600); err != nil {
		return err
	}

	sizes := map[string]string{"small": "S", "large": "L"}
	for i := range 50 {
		ns := "team-a"
		if i >= 25 {
			ns = "team-b"
		}
		c := composite{name: fmt.Sprintf("e-%02d", i), comp: "equiv", rev: "equiv-1", claimNS: ns, size: equivSize(i)}
		c.bucketSize = sizes[c.size]
		objs = append(objs, c.objects()...)
	}
	for i := range 3 {
		c := composite{name: fmt.Sprintf("d-%d", i), comp: "edited", rev: "edited-1", claimNS: "team-a", size: "small", bucketSize: "S"}
		o := c.objects()
		if i == 1 {
			for _, obj := range o {
				if obj.GetKind() == "Bucket" {
					fp := obj.Object["spec"].(map[string]any)["forProvider"].(map[string]any)
					fp["size"] = "XXL"
					fp["tags"] = map[string]any{"owner": "alice"}
				}
			}
		}
		objs = append(objs, o...)
	}
	objs = append(objs,
		composite{name: "c-0", comp: "claims", rev: "claims-1", claimNS: "team-a", size: "small", bucketSize: "S"}.objects()...)
	objs = append(objs,
		composite{name: "c-1", comp: "claims", rev: "claims-1", claimNS: "team-a", size: "small", bucketSize: "S", claimARN: "arn:stale"}.objects()...)
	objs = append(objs,
		composite{name: "c-2", comp: "claims", rev: "claims-1", claimNS: "team-a", size: "small", bucketSize: "S", claimSize: "large"}.objects()...)
	objs = append(objs,
		composite{name: "p-0", comp: "pinned", rev: "pinned-1", size: "small", bucketSize: "S-old", manual: true}.objects()...)
	objs = append(objs,
		composite{name: "p-1", comp: "pinned", rev: "pinned-2", size: "small", bucketSize: "S"}.objects()...)
	objs = append(objs,
		composite{name: "p-2", comp: "pinned", rev: "pinned-1", size: "small", bucketSize: "S-old", revisionSelector: map[string]any{"channel": "stable"}}.objects()...)
	objs = append(objs, u(map[string]any{
		"apiVersion": "example.org/v1alpha1", "kind": "XThing",
		"metadata": map[string]any{"name": "n-0", "labels": map[string]any{"crossplane.io/composite": "n-0"}},
		"spec": map[string]any{
			"size": "small", "compositionRef": map[string]any{"name": "needs-env"},
			"compositionRevisionRef": map[string]any{"name": "needs-env-1"}, "compositionUpdatePolicy": "Automatic",
		},
		"status": map[string]any{"conditions": []any{map[string]any{
			"type": "Synced", "status": "False", "reason": "ReconcileError", "lastTransitionTime": "2026-01-01T00:00:00Z",
			"message": "cannot fetch EnvironmentConfig absent",
		}}},
	}))

	// noSecrets: the runbook's role without Secrets.
	rule := func(group string, resources ...any) map[string]any {
		return map[string]any{"apiGroups": []any{group}, "resources": resources, "verbs": []any{"get", "list"}}
	}
	objs = append(objs,
		u(map[string]any{
			"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "ClusterRole",
			"metadata": map[string]any{"name": "xpmigrate-verify"},
			"rules": []any{
				rule("apiextensions.crossplane.io", "compositions", "compositionrevisions", "environmentconfigs"),
				rule("example.org", "xthings", "things", "buckets"),
			},
		}),
		u(map[string]any{
			"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "ClusterRoleBinding",
			"metadata": map[string]any{"name": "xpmigrate-verify-" + noSecrets},
			"roleRef":  map[string]any{"apiGroup": "rbac.authorization.k8s.io", "kind": "ClusterRole", "name": "xpmigrate-verify"},
			"subjects": []any{map[string]any{"apiGroup": "rbac.authorization.k8s.io", "kind": "User", "name": noSecrets}},
		}),
		// teamAClaims: the runbook's role without claims, and the claims
		// of team-a through a RoleBinding in that namespace.
		u(map[string]any{
			"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "ClusterRole",
			"metadata": map[string]any{"name": "xpmigrate-verify-no-claims"},
			"rules": []any{
				rule("apiextensions.crossplane.io", "compositions", "compositionrevisions", "environmentconfigs"),
				rule("example.org", "xthings", "buckets"),
				rule("", "secrets"),
			},
		}),
		u(map[string]any{
			"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "ClusterRoleBinding",
			"metadata": map[string]any{"name": "xpmigrate-verify-" + teamAClaims},
			"roleRef":  map[string]any{"apiGroup": "rbac.authorization.k8s.io", "kind": "ClusterRole", "name": "xpmigrate-verify-no-claims"},
			"subjects": []any{map[string]any{"apiGroup": "rbac.authorization.k8s.io", "kind": "User", "name": teamAClaims}},
		}),
		u(map[string]any{
			"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "Role",
			"metadata": map[string]any{"namespace": "team-a", "name": "xpmigrate-verify-claims"},
			"rules":    []any{rule("example.org", "things")},
		}),
		u(map[string]any{
			"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "RoleBinding",
			"metadata": map[string]any{"namespace": "team-a", "name": "xpmigrate-verify-claims"},
			"roleRef":  map[string]any{"apiGroup": "rbac.authorization.k8s.io", "kind": "Role", "name": "xpmigrate-verify-claims"},
			"subjects": []any{map[string]any{"apiGroup": "rbac.authorization.k8s.io", "kind": "User", "name": teamAClaims}},
		}),
	)
	// Composed resources are controlled by their XR, by UID: created once
	// the XRs have theirs.
	var composed []*unstructured.Unstructured
	rest := objs[:0]
	for _, o := range objs {
		if o.GetKind() == "Bucket" {
			composed = append(composed, o)
			continue
		}
		rest = append(rest, o)
	}
	if err := s.Create(ctx, rest...); err != nil {
		return err
	}
	dyn, _, err := s.Client(kubetest.Admin)
	if err != nil {
		return err
	}
	xrs, err := dyn.Resource(schema.GroupVersionResource{Group: "example.org", Version: "v1alpha1", Resource: "xthings"}).List(ctx, metav1.ListOptions{})
	if err != nil {
		return err
	}
	uids := map[string]any{}
	for _, x := range xrs.Items {
		uids[x.GetName()] = string(x.GetUID())
	}
	for _, b := range composed {
		ref := b.Object["metadata"].(map[string]any)["ownerReferences"].([]any)[0].(map[string]any)
		ref["uid"] = uids[ref["name"].(string)]
	}
	return s.Create(ctx, composed...)
}

// verifyCluster runs `xpmigrate verify --cluster --format json` as user and
// returns its report and exit code.
func verifyCluster(t *testing.T, user string, args ...string) (*report, int) {
	t.Helper()
	args = append([]string{"verify"}, args...)
	args = append(args, "--cluster", "--kubeconfig", server.Kubeconfig(user), "--format", "json")
	cmd := exec.Command(bin, args...)
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
	if os.Getenv("XPMIGRATE_LIVE_DEBUG") != "" {
		t.Logf("xpmigrate %s: exit %d\n%s\n%s", strings.Join(args, " "), code, stdout.String(), stderr.String())
	}
	rep := &report{}
	if err := json.Unmarshal(stdout.Bytes(), rep); err != nil {
		t.Fatalf("xpmigrate %s: exit %d, cannot decode the report: %v\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), code, err, stdout.String(), stderr.String())
	}
	return rep, code
}

// report is what the tests read of the JSON report.
type report struct {
	Verdict    string `json:"verdict"`
	Error      string `json:"error"`
	XRs        int    `json:"xrs"`
	Pinned     int    `json:"pinnedToOtherRevisions"`
	Conversion struct {
		Verdict verify.Verdict `json:"verdict"`
		Hint    string         `json:"hint"`
	} `json:"conversion"`
	Composites []live.XR `json:"composites"`
	Missing    []string  `json:"missingPermissions"`
}

// outline is what a test compares of a Report.
type outline struct {
	Verdict    string
	XRs        int
	Pinned     int
	Conversion verify.Verdict
	// NotEquivalent are the XRs whose conversion check is not equivalent.
	NotEquivalent []string
	// Emulation and Drift are "XR: finding" lines.
	Emulation []string
	Drift     []string
	Missing   []string
	Exit      int
	// Hint is the conversion check's hint for an unverified Composition.
	Hint string
	// Error says why a Composition could not be checked.
	Error string
}

func outlineOf(r *report, exit int) outline {
	o := outline{Verdict: r.Verdict, XRs: r.XRs, Pinned: r.Pinned, Conversion: r.Conversion.Verdict, Missing: r.Missing, Exit: exit, Error: r.Error}
	if r.Conversion.Verdict == verify.Unverified && r.Error == "" {
		o.Hint = r.Conversion.Hint
	}
	for _, x := range r.Composites {
		if x.Conversion != verify.Equivalent {
			o.NotEquivalent = append(o.NotEquivalent, x.Name+" "+string(x.Conversion))
		}
		for _, f := range x.Emulation {
			o.Emulation = append(o.Emulation, x.Name+": "+f.String())
		}
		if x.EmulationError != "" {
			o.Emulation = append(o.Emulation, x.Name+": the legacy render failed")
		}
		for _, f := range x.Drift {
			o.Drift = append(o.Drift, x.Name+": "+f.String())
		}
	}
	return o
}

func TestVerifyCluster(t *testing.T) {
	t.Parallel()
	var large []string
	for i := range 50 {
		if equivSize(i) == "large" {
			large = append(large, fmt.Sprintf("e-%02d different", i))
		}
	}
	cases := map[string]struct {
		reason string
		user   string
		args   []string
		want   outline
	}{
		"EquivalentFiftyXRs": {
			reason: "Every one of the 50 live XRs is reproduced by the legacy render and its conversion renders the same: equivalent, exit 0.",
			args:   []string{filepath.Join("DIR", "equiv.yaml")},
			want:   outline{Verdict: live.Equivalent, XRs: 50, Conversion: verify.Equivalent},
		},
		"MutatedTransformCaughtOnTheRightXRs": {
			reason: "A converted Composition whose map transform differs (large: XL) is different on the large XRs only: exit 3.",
			args:   []string{filepath.Join("DIR", "equiv.yaml"), "--converted", filepath.Join("DIR", "mutated.yaml")},
			want:   outline{Verdict: live.ConversionDifferences, XRs: 50, Conversion: verify.Different, NotEquivalent: large, Exit: 3},
		},
		"HandEditIsEmulationAndDriftNotConversion": {
			reason: "A Bucket edited by hand differs from the legacy render in a field Crossplane owns (emulation) and has a field no render produces (drift); the conversion is still equivalent.",
			args:   []string{filepath.Join("DIR", "edited.yaml")},
			want: outline{
				Verdict: live.EmulationDifferences, XRs: 3, Conversion: verify.Equivalent,
				Emulation: []string{`d-1: bucket (Bucket d-1-bucket) spec.forProvider.size: live "XXL", rendered "S"`},
				Drift:     []string{`d-1: bucket (Bucket d-1-bucket) spec.forProvider.tags.owner: live "alice", rendered (none)`},
			},
		},
		"PinnedToAnOldRevision": {
			reason: "XRs pinned to an old CompositionRevision (Manual, or Automatic with a revision selector the Composition does not match) are rendered with that revision (S-old), so the live Bucket is reproduced, and their conversion is checked.",
			args:   []string{filepath.Join("DIR", "pinned.yaml")},
			want:   outline{Verdict: live.Equivalent, XRs: 3, Pinned: 2, Conversion: verify.Equivalent},
		},
		"MissingEnvironmentConfig": {
			reason: "An EnvironmentConfig the Composition references does not exist: both sides fail, the XR is inconclusive and the Composition unverified (exit 0 without --require-verified).",
			args:   []string{filepath.Join("DIR", "needs-env.yaml")},
			want: outline{
				Verdict: live.Unverified, XRs: 1, Conversion: verify.Unverified,
				NotEquivalent: []string{"n-0 inconclusive"}, Emulation: []string{"n-0: the legacy render failed"},
				Hint: "EnvironmentConfig absent is not in the cluster (or the kubeconfig's user may not read it): create it, or fix the reference",
			},
		},
		"MissingEnvironmentConfigRequireVerified": {
			reason: "With --require-verified an unverified Composition fails.",
			args:   []string{filepath.Join("DIR", "needs-env.yaml"), "--require-verified"},
			want: outline{
				Verdict: live.Unverified, XRs: 1, Conversion: verify.Unverified,
				NotEquivalent: []string{"n-0 inconclusive"}, Emulation: []string{"n-0: the legacy render failed"}, Exit: 3,
				Hint: "EnvironmentConfig absent is not in the cluster (or the kubeconfig's user may not read it): create it, or fix the reference",
			},
		},
		"ForbiddenSecretsReportedRunContinues": {
			reason: "A user who may not read Secrets gets the missing permission reported; every XR is still checked, without connection details. (This user may not list XRDs either: the on-the-fly conversion reads the XR's XRD, issue 24 item 3, and says it could not.)",
			user:   noSecrets,
			args:   []string{filepath.Join("DIR", "equiv.yaml"), "-n", "team-a"},
			want: outline{
				Verdict: live.Equivalent, XRs: 25, Conversion: verify.Equivalent,
				Missing: []string{"get secrets in namespace crossplane-system", "list compositeresourcedefinitions.apiextensions.crossplane.io (cluster-wide)"},
			},
		},
		"NoXRs": {
			reason: "A Composition no XR runs is unverified, with exit 0.",
			args:   []string{filepath.Join("DIR", "empty.yaml")},
			want: outline{
				Verdict: live.Unverified, Conversion: verify.Unverified,
				Hint: "check the --namespace filter and that the kubeconfig's user may list the XR kind",
			},
		},
		"NoXRsRequireVerified": {
			reason: "With --require-verified a Composition no XR runs fails.",
			args:   []string{filepath.Join("DIR", "empty.yaml"), "--require-verified"},
			want: outline{
				Verdict: live.Unverified, Conversion: verify.Unverified, Exit: 3,
				Hint: "check the --namespace filter and that the kubeconfig's user may list the XR kind",
			},
		},
		"HandEditRequireVerified": {
			reason: "With --require-verified an emulation difference fails too: the proof is incomplete for that XR.",
			args:   []string{filepath.Join("DIR", "edited.yaml"), "--require-verified"},
			want: outline{
				Verdict: live.EmulationDifferences, XRs: 3, Conversion: verify.Equivalent, Exit: 3,
				Emulation: []string{`d-1: bucket (Bucket d-1-bucket) spec.forProvider.size: live "XXL", rendered "S"`},
				Drift:     []string{`d-1: bucket (Bucket d-1-bucket) spec.forProvider.tags.owner: live "alice", rendered (none)`},
			},
		},
		"ClaimsCompared": {
			reason: "A claim whose status lacks what the render wrote to its XR's status, or whose spec its XR does not carry, is an emulation difference on the claim, not a conversion difference.",
			args:   []string{filepath.Join("DIR", "claims.yaml")},
			want: outline{
				Verdict: live.EmulationDifferences, XRs: 3, Conversion: verify.Equivalent,
				Emulation: []string{
					`c-1: claim team-a/c-1 status.arn: live "arn:stale", rendered "arn:aws:s3:::c-1"`,
					`c-2: claim team-a/c-2 spec.size: the claim has "large", the XR "small": the claim syncer copies the claim's spec to the XR`,
				},
			},
		},
		"ClaimsReadWithNamespaceRights": {
			reason: "Claims are read with namespaced gets: a RoleBinding in the claims' namespace is enough for them. The XRD the on-the-fly conversion reads (issue 24 item 3) needs a cluster-wide list, which this user lacks: a missing permission, the run goes on.",
			user:   teamAClaims,
			args:   []string{filepath.Join("DIR", "equiv.yaml"), "-n", "team-a"},
			want: outline{
				Verdict: live.Equivalent, XRs: 25, Conversion: verify.Equivalent,
				Missing: []string{"list compositeresourcedefinitions.apiextensions.crossplane.io (cluster-wide)"},
			},
		},
		"ForbiddenClaimIsANote": {
			reason: "A claim the user may not read is a missing permission and a note; the XRs are still checked.",
			user:   teamAClaims,
			args:   []string{filepath.Join("DIR", "equiv.yaml"), "-n", "team-b"},
			want: outline{
				Verdict: live.Equivalent, XRs: 25, Conversion: verify.Equivalent,
				Missing: []string{"list compositeresourcedefinitions.apiextensions.crossplane.io (cluster-wide)", "get things.example.org in namespace team-b"},
			},
		},
		"NamespaceFilter": {
			reason: "-n keeps the XRs whose claim is in the namespace.",
			args:   []string{filepath.Join("DIR", "equiv.yaml"), "-n", "team-b"},
			want:   outline{Verdict: live.Equivalent, XRs: 25, Conversion: verify.Equivalent},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			user := tc.user
			if user == "" {
				user = kubetest.Reader
			}
			args := make([]string, len(tc.args))
			for i, a := range tc.args {
				args[i] = strings.Replace(a, "DIR", dir, 1)
			}
			rep, code := verifyCluster(t, user, args...)
			got := outlineOf(rep, code)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("\n%s\nxpmigrate verify %s --cluster: -want, +got:\n%s", tc.reason, strings.Join(tc.args, " "), diff)
			}
		})
	}
}

// TestVerifyClusterText: the text report names the Composition's verdict,
// the hand-edited field, the drift and the conversion check's verdict.
func TestVerifyClusterText(t *testing.T) {
	t.Parallel()
	cmd := exec.Command(bin, "verify", filepath.Join(dir, "edited.yaml"), "--cluster", "--kubeconfig", server.Kubeconfig(kubetest.Reader), "--verbose")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("xpmigrate verify --cluster (text): %v\n%s", err, out)
	}
	for _, want := range []string{
		"WARN edited: emulation-differences against the cluster: 3 XRs; conversion equivalent; 1 emulation differences on 1 XRs; 1 drifted fields (info)\n",
		"XR d-1 (claim team-a/d-1): conversion equivalent\n",
		`  emulation: bucket (Bucket d-1-bucket) spec.forProvider.size: live "XXL", rendered "S"` + "\n",
		`  drift (info): bucket (Bucket d-1-bucket) spec.forProvider.tags.owner: live "alice", rendered (none)` + "\n",
		"conversion check:\n",
	} {
		if !strings.Contains(string(out), want) {
			t.Errorf("xpmigrate verify --cluster (text): no line %q in:\n%s", want, out)
		}
	}
}

// TestVerifyClusterJUnit: the CI formats carry the conversion check, one
// test case per live XR (and a summary case).
func TestVerifyClusterJUnit(t *testing.T) {
	t.Parallel()
	cmd := exec.Command(bin, "verify", filepath.Join(dir, "equiv.yaml"), "--cluster", "--kubeconfig", server.Kubeconfig(kubetest.Reader), "-n", "team-a", "--format", "junit")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("xpmigrate verify --cluster --format junit: %v\n%s", err, out)
	}
	if got := strings.Count(string(out), `<testcase name="e-`); got != 25 {
		t.Errorf("xpmigrate verify --cluster -n team-a --format junit: %d test cases of XRs, want 25 (one per XR):\n%s", got, out)
	}
	if got := strings.Count(string(out), `<testcase name="summary"`); got != 1 {
		t.Errorf("xpmigrate verify --cluster -n team-a --format junit: %d summary cases, want 1:\n%s", got, out)
	}
}

// TestMigrateCluster: migrate --cluster checks every legacy Composition it
// converts against the cluster, after its own run.
func TestMigrateCluster(t *testing.T) {
	t.Parallel()
	repo := t.TempDir()
	for _, f := range []string{"equiv.yaml", "edited.yaml"} {
		b, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(repo, f), b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(bin, "migrate", "--dry-run", "--cluster", "--kubeconfig", server.Kubeconfig(kubetest.Reader), repo)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("xpmigrate migrate --dry-run --cluster: %v\nstdout:\n%s\nstderr:\n%s", err, stdout.String(), stderr.String())
	}
	for _, want := range []string{
		"PASS equiv: equivalent against the cluster: 50 XRs; conversion equivalent; 0 emulation differences on 0 XRs; 0 drifted fields (info)\n",
		"WARN edited: emulation-differences against the cluster: 3 XRs; conversion equivalent; 1 emulation differences on 1 XRs; 1 drifted fields (info)\n",
	} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("xpmigrate migrate --dry-run --cluster: no line %q in stdout:\n%s", want, stdout.String())
		}
	}
}

// TestVerifyClusterNamespaceNames: the namespace filter keeps exactly the
// XRs claimed in the namespace, by name.
func TestVerifyClusterNamespaceNames(t *testing.T) {
	t.Parallel()
	rep, _ := verifyCluster(t, kubetest.Reader, filepath.Join(dir, "equiv.yaml"), "-n", "team-a")
	var got, want []string
	for _, x := range rep.Composites {
		got = append(got, x.Name+" "+x.Claim)
	}
	for i := range 25 {
		want = append(want, fmt.Sprintf("e-%02d team-a/e-%02d", i, i))
	}
	sort.Strings(got)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("verify --cluster -n team-a: XRs and claims: -want, +got:\n%s", diff)
	}
}

// brokenError is why the Composition broken cannot be checked.
const brokenError = `cannot convert Composition broken (cluster): cannot convert: C117 error: spec.resources[0].patches[0].patchSetName: no patch set is named "missing"`

// TestVerifyFromCluster: --from-cluster checks the Compositions the
// cluster stores (as the API server returns them, with its fields and the
// CRD's defaults), converted on the fly, one report each in a JSON list,
// and lists the Pipeline ones as skipped.
func TestVerifyFromCluster(t *testing.T) {
	t.Parallel()
	// The premise: the cluster's Composition carries what the repository's
	// file has not, the API server's fields and the CRD's defaults.
	dyn, _, err := server.Client(kubetest.Admin)
	if err != nil {
		t.Fatal(err)
	}
	stored, err := dyn.Resource(schema.GroupVersionResource{Group: "apiextensions.crossplane.io", Version: "v1", Resource: "compositions"}).Get(context.Background(), "equiv", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	mode, _, _ := unstructured.NestedString(stored.Object, "spec", "mode")
	res, _, _ := unstructured.NestedSlice(stored.Object, "spec", "resources")
	_, checks := res[0].(map[string]any)["readinessChecks"]
	if diff := cmp.Diff([]any{true, true, "Resources", true}, []any{stored.GetUID() != "", stored.GetResourceVersion() != "", mode, checks}); diff != "" {
		t.Fatalf("Composition equiv in the cluster: has a uid, a resourceVersion, the defaulted mode and readinessChecks: -want, +got:\n%s", diff)
	}
	cases := map[string]struct {
		reason      string
		args        []string
		want        map[string]outline
		wantSkipped string
		wantExit    int
	}{
		"NamedEquivalent": {
			reason: "The Composition equiv, read from the cluster, is equivalent on its 50 XRs.",
			args:   []string{"equiv"},
			want:   map[string]outline{"equiv": {Verdict: live.Equivalent, XRs: 50, Conversion: verify.Equivalent}},
		},
		"NamedPinned": {
			reason: "An XR pinned to an old CompositionRevision is checked against that revision.",
			args:   []string{"pinned", "equiv"},
			want: map[string]outline{
				"equiv":  {Verdict: live.Equivalent, XRs: 50, Conversion: verify.Equivalent},
				"pinned": {Verdict: live.Equivalent, XRs: 3, Pinned: 2, Conversion: verify.Equivalent},
			},
		},
		"NamedPipelineSkipped": {
			reason:      "A Pipeline Composition is listed as skipped, and nothing is checked.",
			args:        []string{"converted"},
			want:        map[string]outline{},
			wantSkipped: "skipped Composition converted: mode: Pipeline, not a legacy Composition\nno legacy Composition in the cluster to check\n",
		},
		"NamedUnconvertibleCarriesOn": {
			reason: "A Composition that cannot be converted is reported as not checked, with why; the next one is still checked, and the run exits 1.",
			args:   []string{"broken", "equiv"},
			want: map[string]outline{
				"broken": {Verdict: live.NotChecked, Conversion: verify.Unverified, Error: brokenError},
				"equiv":  {Verdict: live.Equivalent, XRs: 50, Conversion: verify.Equivalent},
			},
			wantSkipped: "xpmigrate: cannot verify 1 of 2 Compositions against the cluster: broken (see their reports)\n",
			wantExit:    1,
		},
		"EveryCompositionRequireVerified": {
			reason: "Without names every legacy Composition is checked; the exit status is the worst (the hand-edited and empty ones fail with --require-verified, the unconvertible one is an error: exit 1).",
			args:   []string{"--require-verified"},
			want: map[string]outline{
				"broken": {Verdict: live.NotChecked, Conversion: verify.Unverified, Error: brokenError},
				"claims": {
					Verdict: live.EmulationDifferences, XRs: 3, Conversion: verify.Equivalent,
					Emulation: []string{
						`c-1: claim team-a/c-1 status.arn: live "arn:stale", rendered "arn:aws:s3:::c-1"`,
						`c-2: claim team-a/c-2 spec.size: the claim has "large", the XR "small": the claim syncer copies the claim's spec to the XR`,
					},
				},
				"edited": {
					Verdict: live.EmulationDifferences, XRs: 3, Conversion: verify.Equivalent,
					Emulation: []string{`d-1: bucket (Bucket d-1-bucket) spec.forProvider.size: live "XXL", rendered "S"`},
					Drift:     []string{`d-1: bucket (Bucket d-1-bucket) spec.forProvider.tags.owner: live "alice", rendered (none)`},
				},
				"empty": {Verdict: live.Unverified, Conversion: verify.Unverified, Hint: "check the --namespace filter and that the kubeconfig's user may list the XR kind"},
				"equiv": {Verdict: live.Equivalent, XRs: 50, Conversion: verify.Equivalent},
				// The cluster's needs-env has no environment (v1.20's CRD
				// has none): its XR n-0 never composed the Bucket it renders.
				"needs-env": {
					Verdict: live.EmulationDifferences, XRs: 1, Conversion: verify.Equivalent,
					Emulation: []string{
						"n-0: bucket: the legacy composer renders it, but the XR's spec.resourceRefs has no such live resource",
						`n-0: XR status.conditions[Ready].status: live (none), rendered "False"`,
					},
				},
				"pinned": {Verdict: live.Equivalent, XRs: 3, Pinned: 2, Conversion: verify.Equivalent},
			},
			wantSkipped: "skipped Composition converted: mode: Pipeline, not a legacy Composition\n" +
				"xpmigrate: cannot verify 1 of 7 Compositions against the cluster: broken (see their reports)\n",
			wantExit: 1,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			args := append([]string{"verify", "--cluster", "--from-cluster", "--kubeconfig", server.Kubeconfig(kubetest.Reader), "--format", "json"}, tc.args...)
			cmd := exec.Command(bin, args...)
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
			var reps []struct {
				Composition string `json:"composition"`
				report
			}
			if err := json.Unmarshal(stdout.Bytes(), &reps); err != nil {
				t.Fatalf("xpmigrate %s: exit %d, cannot decode the list of reports: %v\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), code, err, stdout.String(), stderr.String())
			}
			got := map[string]outline{}
			for _, r := range reps {
				o := outlineOf(&r.report, 0)
				got[r.Composition] = o
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("\n%s\nxpmigrate %s: reports by Composition: -want, +got:\n%s\nstderr:\n%s", tc.reason, strings.Join(args, " "), diff, stderr.String())
			}
			if diff := cmp.Diff([]any{tc.wantExit, tc.wantSkipped}, []any{code, stderr.String()}); diff != "" {
				t.Errorf("\n%s\nxpmigrate %s: exit code and stderr: -want, +got:\n%s", tc.reason, strings.Join(args, " "), diff)
			}
		})
	}
}
