//go:build e2e

package cluster_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/pkg/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/tools/clientcmd"

	"github.com/xpmigrate/xpmigrate/internal/cluster"
	"github.com/xpmigrate/xpmigrate/internal/kubetest"
	"github.com/xpmigrate/xpmigrate/internal/xp"
)

// Users besides kubetest's admin and reader.
const (
	noSecrets = "no-secrets" // reads everything but Secrets
	teamA     = "team-a"     // reads XRs and composed resources, and claims in team-a only
	noXRs     = "no-xrs"     // reads Compositions but not XRs
)

var server *kubetest.Server

func TestMain(m *testing.M) {
	ctx := context.Background()
	s, err := kubetest.Start(ctx, kubetest.Options{Users: []kubetest.User{{Name: noSecrets}, {Name: teamA}, {Name: noXRs}}})
	if err != nil {
		fmt.Fprintln(os.Stderr, "kubetest:", err)
		os.Exit(1)
	}
	server = s
	code := 1
	if err := seed(ctx, s); err != nil {
		fmt.Fprintln(os.Stderr, "seed:", err)
	} else {
		code = m.Run()
		// The proof of read-only access: no request of a user the reader
		// acts as has a verb other than get or list.
		events, err := s.AuditEvents(ctx)
		if err != nil {
			fmt.Fprintln(os.Stderr, "audit:", err)
			code = 1
		}
		for _, u := range []string{kubetest.Reader, noSecrets, teamA, noXRs} {
			if v := kubetest.ReadOnlyViolations(events, u); len(v) > 0 {
				fmt.Fprintf(os.Stderr, "FAIL: %s sent requests that are not get or list:\n  %s\n", u, strings.Join(v, "\n  "))
				code = 1
			}
		}
		if n := kubetest.Requests(events, kubetest.Reader); n["list"] == 0 {
			fmt.Fprintf(os.Stderr, "FAIL: the audit log holds no list of %s (%v): it does not record the reader's requests\n", kubetest.Reader, n)
			code = 1
		}
	}
	if err := s.Stop(); err != nil {
		fmt.Fprintln(os.Stderr, "kubetest:", err)
		code = 1
	}
	os.Exit(code)
}

func u(o map[string]any) *unstructured.Unstructured { return &unstructured.Unstructured{Object: o} }

func namespace(name string) *unstructured.Unstructured {
	return u(map[string]any{"apiVersion": "v1", "kind": "Namespace", "metadata": map[string]any{"name": name}})
}

func xrd() *unstructured.Unstructured {
	return u(map[string]any{
		"apiVersion": "apiextensions.crossplane.io/v1",
		"kind":       "CompositeResourceDefinition",
		"metadata":   map[string]any{"name": "xthings.example.org"},
		"spec": map[string]any{
			"group":      "example.org",
			"names":      map[string]any{"kind": "XThing", "plural": "xthings"},
			"claimNames": map[string]any{"kind": "Thing", "plural": "things"},
			"versions": []any{map[string]any{
				"name": "v1alpha1", "served": true, "referenceable": true,
				"schema": map[string]any{"openAPIV3Schema": map[string]any{
					"type": "object",
					"properties": map[string]any{
						"spec": map[string]any{"type": "object", "properties": map[string]any{
							"size": map[string]any{"type": "string", "default": "small"},
						}},
						"status": map[string]any{"type": "object", "properties": map[string]any{
							"arn": map[string]any{"type": "string"},
						}},
					},
				}},
			}},
		},
	})
}

// bucketCRD is the composed resources' kind: cluster-scoped, like a managed
// resource.
func bucketCRD() *unstructured.Unstructured {
	return u(map[string]any{
		"apiVersion": "apiextensions.k8s.io/v1",
		"kind":       "CustomResourceDefinition",
		"metadata":   map[string]any{"name": "buckets.example.org"},
		"spec": map[string]any{
			"group": "example.org", "scope": "Cluster",
			"names": map[string]any{"kind": "Bucket", "plural": "buckets"},
			"versions": []any{map[string]any{
				"name": "v1", "served": true, "storage": true,
				"subresources": map[string]any{"status": map[string]any{}},
				"schema": map[string]any{"openAPIV3Schema": map[string]any{
					"type": "object",
					"properties": map[string]any{
						"spec":   map[string]any{"type": "object", "x-kubernetes-preserve-unknown-fields": true},
						"status": map[string]any{"type": "object", "x-kubernetes-preserve-unknown-fields": true},
					},
				}},
			}},
		},
	})
}

func composition(name string, labels map[string]any) *unstructured.Unstructured {
	return u(map[string]any{
		"apiVersion": "apiextensions.crossplane.io/v1",
		"kind":       "Composition",
		"metadata":   map[string]any{"name": name, "labels": labels},
		"spec": map[string]any{
			"compositeTypeRef": map[string]any{"apiVersion": "example.org/v1alpha1", "kind": "XThing"},
			"resources": []any{map[string]any{
				"name": "bucket",
				"base": map[string]any{"apiVersion": "example.org/v1", "kind": "Bucket"},
				"connectionDetails": []any{map[string]any{
					"name": "password", "fromConnectionSecretKey": "password",
				}},
			}},
		},
	})
}

func revision(name, comp string, rev int64) *unstructured.Unstructured {
	c := composition(comp, nil)
	return u(map[string]any{
		"apiVersion": "apiextensions.crossplane.io/v1",
		"kind":       "CompositionRevision",
		"metadata":   map[string]any{"name": name, "labels": map[string]any{xp.LabelCompositionName: comp}},
		"spec":       map[string]any{"revision": rev, "compositeTypeRef": c.Object["spec"].(map[string]any)["compositeTypeRef"], "resources": c.Object["spec"].(map[string]any)["resources"]},
	})
}

// xr is an XR as Crossplane leaves it: the Composition and revision it
// runs, its claim, and the composed resources it refers to.
func xr(name, comp, rev, claimNS string, buckets ...string) *unstructured.Unstructured {
	refs := make([]any, 0, len(buckets))
	for _, b := range buckets {
		refs = append(refs, map[string]any{"apiVersion": "example.org/v1", "kind": "Bucket", "name": b})
	}
	spec := map[string]any{
		"compositionRef": map[string]any{"name": comp},
		"resourceRefs":   refs,
	}
	if rev != "" {
		spec["compositionRevisionRef"] = map[string]any{"name": rev}
	}
	if claimNS != "" {
		spec["claimRef"] = map[string]any{"apiVersion": "example.org/v1alpha1", "kind": "Thing", "namespace": claimNS, "name": name}
		spec["writeConnectionSecretToRef"] = map[string]any{"namespace": "crossplane-system", "name": name + "-conn"}
	}
	return u(map[string]any{
		"apiVersion": "example.org/v1alpha1", "kind": "XThing",
		"metadata": map[string]any{"name": name},
		"spec":     spec,
		"status":   map[string]any{"arn": "arn:" + name},
	})
}

func claim(ns, name string) *unstructured.Unstructured {
	return u(map[string]any{
		"apiVersion": "example.org/v1alpha1", "kind": "Thing",
		"metadata": map[string]any{"namespace": ns, "name": name},
		"spec":     map[string]any{"resourceRef": map[string]any{"apiVersion": "example.org/v1alpha1", "kind": "XThing", "name": name}},
	})
}

func bucket(name, owner string) *unstructured.Unstructured {
	return u(map[string]any{
		"apiVersion": "example.org/v1", "kind": "Bucket",
		"metadata": map[string]any{
			"name":        name,
			"annotations": map[string]any{xp.AnnotationCompositionResourceName: "bucket"},
			"labels":      map[string]any{"crossplane.io/composite": owner},
		},
		"spec": map[string]any{
			"forProvider":                map[string]any{"region": "eu-west-1"},
			"writeConnectionSecretToRef": map[string]any{"namespace": "crossplane-system", "name": name + "-conn"},
		},
	})
}

func secret(ns, name string, data map[string]any) *unstructured.Unstructured {
	return u(map[string]any{
		"apiVersion": "v1", "kind": "Secret",
		"metadata":   map[string]any{"namespace": ns, "name": name},
		"stringData": data,
	})
}

func envConfig(name string) *unstructured.Unstructured {
	return u(map[string]any{
		"apiVersion": "apiextensions.crossplane.io/v1beta1", "kind": "EnvironmentConfig",
		"metadata": map[string]any{"name": name},
		"data":     map[string]any{"region": "eu-west-1"},
	})
}

func clusterRole(name string, rules ...any) *unstructured.Unstructured {
	return u(map[string]any{
		"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "ClusterRole",
		"metadata": map[string]any{"name": name}, "rules": rules,
	})
}

func rule(group string, resources ...string) map[string]any {
	rs := make([]any, 0, len(resources))
	for _, r := range resources {
		rs = append(rs, r)
	}
	return map[string]any{"apiGroups": []any{group}, "resources": rs, "verbs": []any{"get", "list"}}
}

func binding(kind, ns, role, user string) *unstructured.Unstructured {
	md := map[string]any{"name": role + "-" + user}
	if ns != "" {
		md["namespace"] = ns
	}
	return u(map[string]any{
		"apiVersion": "rbac.authorization.k8s.io/v1", "kind": kind, "metadata": md,
		"roleRef":  map[string]any{"apiGroup": "rbac.authorization.k8s.io", "kind": "ClusterRole", "name": role},
		"subjects": []any{map[string]any{"apiGroup": "rbac.authorization.k8s.io", "kind": "User", "name": user}},
	})
}

// The cluster the tests read:
//   - Composition legacy: XRs x-0 … x-6 (x-0 pinned to the old revision
//     legacy-1, the others to legacy-2); claims of x-0 … x-3 in team-a and of
//     x-4, x-5 in team-b; x-6 has no claim; x-5's second bucket is gone.
//   - Composition other: XR y-0. Composition empty: no XR.
//   - Composition unserved: composes a kind no CRD serves.
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
		namespace("team-a"), namespace("team-b"), namespace("crossplane-system"),
		xrd(),
		composition("legacy", map[string]any{"provider": "aws"}),
		composition("other", nil),
		composition("empty", nil),
		revision("legacy-1", "legacy", 1), revision("legacy-2", "legacy", 2), revision("other-1", "other", 1),
		envConfig("env-a"), envConfig("env-b"), envConfig("env-c"),
	}
	unserved := composition("unserved", nil)
	unserved.Object["spec"].(map[string]any)["compositeTypeRef"] = map[string]any{"apiVersion": "nothing.example.org/v1", "kind": "XNothing"}
	objs = append(objs, unserved)
	for i := range 7 {
		name := fmt.Sprintf("x-%d", i)
		rev := "legacy-2"
		if i == 0 {
			rev = "legacy-1"
		}
		ns := ""
		switch {
		case i < 4:
			ns = "team-a"
		case i < 6:
			ns = "team-b"
		}
		objs = append(objs, xr(name, "legacy", rev, ns, name+"-a", name+"-b"), bucket(name+"-a", name))
		if i != 5 {
			objs = append(objs, bucket(name+"-b", name))
		}
		objs = append(objs, secret("crossplane-system", name+"-a-conn", map[string]any{"password": "pw-" + name}))
		if ns != "" {
			objs = append(objs, claim(ns, name), secret("crossplane-system", name+"-conn", map[string]any{"password": "pw-" + name}))
		}
	}
	objs = append(objs, xr("y-0", "other", "other-1", "", "y-0-a"), bucket("y-0-a", "y-0"))

	// RBAC of the restricted users.
	objs = append(objs,
		clusterRole("read-but-secrets",
			rule("apiextensions.crossplane.io", "compositions", "compositionrevisions", "environmentconfigs"),
			rule("example.org", "xthings", "things", "buckets")),
		binding("ClusterRoleBinding", "", "read-but-secrets", noSecrets),
		clusterRole("read-xrs",
			rule("apiextensions.crossplane.io", "compositions", "compositionrevisions"),
			rule("example.org", "xthings", "buckets")),
		binding("ClusterRoleBinding", "", "read-xrs", teamA),
		clusterRole("read-claims", rule("example.org", "things"), rule("", "secrets")),
		binding("RoleBinding", "team-a", "read-claims", teamA),
		clusterRole("read-compositions", rule("apiextensions.crossplane.io", "compositions", "compositionrevisions")),
		binding("ClusterRoleBinding", "", "read-compositions", noXRs),
	)
	return s.Create(ctx, objs...)
}

func reader(t *testing.T, user string, o cluster.Options) *cluster.Reader {
	t.Helper()
	cfg, _, err := cluster.LoadConfig(cluster.Kubeconfig{Path: server.Kubeconfig(user)})
	if err != nil {
		t.Fatalf("LoadConfig(): %v", err)
	}
	r, err := cluster.NewReader(cfg, o)
	if err != nil {
		t.Fatalf("NewReader(): %v", err)
	}
	return r
}

func composition1(t *testing.T, r *cluster.Reader, name string) *unstructured.Unstructured {
	t.Helper()
	comps, err := r.Compositions(context.Background())
	if err != nil {
		t.Fatalf("Compositions(): %v", err)
	}
	for _, c := range comps {
		if c.GetName() == name {
			return c
		}
	}
	t.Fatalf("Compositions(): no composition %q", name)
	return nil
}

// summary is what a test compares of a Composite.
type summary struct {
	XR       string
	Claim    string
	Revision string
	Composed []string
	Secret   string
}

func summarise(c *cluster.Composite) summary {
	s := summary{XR: c.XR.GetName(), Claim: string(c.ClaimState), Revision: c.RevisionName}
	if c.Claim != nil {
		s.Claim += " " + c.Claim.GetNamespace() + "/" + c.Claim.GetName()
	}
	if c.Revision != nil {
		rev, _, _ := unstructured.NestedInt64(c.Revision.Object, "spec", "revision")
		s.Revision += fmt.Sprintf(" (revision %d)", rev)
	}
	for _, cd := range c.Composed {
		e := cd.Ref.Name + " " + string(cd.State)
		if cd.Object != nil {
			e += " " + cd.ResourceName
		}
		if cd.ConnectionSecret != nil {
			e += " secret " + string(cd.ConnectionSecret.State)
		}
		s.Composed = append(s.Composed, e)
	}
	if c.ConnectionSecret != nil {
		s.Secret = string(c.ConnectionSecret.State)
	}
	return s
}

func collect(t *testing.T, r *cluster.Reader, comp *unstructured.Unstructured) []summary {
	t.Helper()
	var got []summary
	if err := r.Composites(context.Background(), comp, func(c *cluster.Composite) error {
		got = append(got, summarise(c))
		return nil
	}); err != nil {
		t.Fatalf("Composites(): %v", err)
	}
	return got
}

func legacyXR(i int, claim, secretState string) summary {
	name := fmt.Sprintf("x-%d", i)
	rev := "legacy-2 (revision 2)"
	if i == 0 {
		rev = "legacy-1 (revision 1)"
	}
	s := summary{XR: name, Claim: claim, Revision: rev, Secret: secretState}
	sec := ""
	if secretState != "" {
		sec = " secret " + secretState
	}
	s.Composed = []string{name + "-a Found bucket" + sec, name + "-b Found bucket" + sec}
	if i == 5 {
		s.Composed[1] = name + "-b NotFound"
	}
	return s
}

func TestComposites(t *testing.T) {
	cases := map[string]struct {
		reason      string
		user        string
		opts        cluster.Options
		composition string
		want        []summary
		wantMissing []string
	}{
		"EveryXROfTheComposition": {
			reason:      "The XRs whose compositionRef names the Composition, in list order over several pages, with their claims, pinned revisions and composed resources; a composed resource that is gone is NotFound.",
			user:        kubetest.Reader,
			opts:        cluster.Options{PageSize: 2, Concurrency: 3},
			composition: "legacy",
			want: []summary{
				legacyXR(0, "Found team-a/x-0", ""), legacyXR(1, "Found team-a/x-1", ""), legacyXR(2, "Found team-a/x-2", ""),
				legacyXR(3, "Found team-a/x-3", ""), legacyXR(4, "Found team-b/x-4", ""), legacyXR(5, "Found team-b/x-5", ""),
				legacyXR(6, "", ""),
			},
		},
		"ConnectionSecrets": {
			reason:      "With ConnectionSecrets the Secrets of the XR and of each composed resource are read.",
			user:        kubetest.Reader,
			opts:        cluster.Options{ConnectionSecrets: true, Concurrency: 1},
			composition: "other",
			want:        []summary{{XR: "y-0", Revision: "other-1 (revision 1)", Composed: []string{"y-0-a Found bucket secret NotFound"}}},
		},
		"CompositionWithoutXRs": {
			reason:      "A Composition no XR runs yields nothing.",
			user:        kubetest.Reader,
			composition: "empty",
		},
		"UnservedXRKind": {
			reason:      "A Composition of a kind the API server does not serve yields nothing and no error.",
			user:        kubetest.Reader,
			composition: "unserved",
		},
		"NamespaceFilter": {
			reason:      "A namespace keeps the XRs whose claim is in it; reading those claims needs only namespace-scoped rights.",
			user:        teamA,
			opts:        cluster.Options{Namespace: "team-a", ConnectionSecrets: true, PageSize: 3},
			composition: "legacy",
			want: []summary{
				legacyXR(0, "Found team-a/x-0", "Forbidden"), legacyXR(1, "Found team-a/x-1", "Forbidden"),
				legacyXR(2, "Found team-a/x-2", "Forbidden"), legacyXR(3, "Found team-a/x-3", "Forbidden"),
			},
			// The connection secrets live in crossplane-system, which team-a cannot read.
			wantMissing: []string{"get secrets in namespace crossplane-system"},
		},
		"ForbiddenSecretsAreNamedAndReadingGoesOn": {
			reason:      "A forbidden Secret read is recorded as a missing permission and every XR is still read.",
			user:        noSecrets,
			opts:        cluster.Options{ConnectionSecrets: true, Namespace: "team-b"},
			composition: "legacy",
			want: []summary{
				legacyXR(4, "Found team-b/x-4", "Forbidden"),
				{XR: "x-5", Claim: "Found team-b/x-5", Revision: "legacy-2 (revision 2)", Secret: "Forbidden", Composed: []string{"x-5-a Found bucket secret Forbidden", "x-5-b NotFound"}},
			},
			wantMissing: []string{"get secrets in namespace crossplane-system"},
		},
		"ForbiddenXRList": {
			reason:      "A forbidden list of the XRs is recorded and yields nothing, without an error.",
			user:        noXRs,
			composition: "legacy",
			wantMissing: []string{"list xthings.example.org (cluster-wide)"},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			r := reader(t, tc.user, tc.opts)
			got := collect(t, r, composition1(t, r, tc.composition))
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s\nComposites(): -want, +got:\n%s", tc.reason, diff)
			}
			var missing []string
			for _, p := range r.Missing() {
				missing = append(missing, p.String())
			}
			if diff := cmp.Diff(tc.wantMissing, missing); diff != "" {
				t.Errorf("%s\nMissing(): -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}

// bucketRequests counts the reader's requests of Buckets by verb in the
// audit log.
func bucketRequests(t *testing.T) map[string]int {
	t.Helper()
	events, err := server.AuditEvents(context.Background())
	if err != nil {
		t.Fatalf("AuditEvents(): %v", err)
	}
	n := map[string]int{}
	for _, e := range events {
		if e.User.Username == kubetest.Reader && e.ObjectRef != nil && e.ObjectRef.Resource == "buckets" {
			n[e.Verb]++
		}
	}
	return n
}

func TestCompositesGetComposedResources(t *testing.T) {
	r := reader(t, kubetest.Reader, cluster.Options{})
	comp := composition1(t, r, "legacy")
	before := bucketRequests(t)
	collect(t, r, comp)
	after := bucketRequests(t)
	// Seven XRs of two Buckets each: one get per reference (x-5-b's is a
	// 404), and no list, whose cost grows with every Bucket in the cluster.
	want := map[string]int{"get": 14, "list": 0}
	delta := map[string]int{"get": after["get"] - before["get"], "list": after["list"] - before["list"]}
	if diff := cmp.Diff(want, delta); diff != "" {
		t.Errorf("Composites() reads each composed resource with a get: -want, +got requests:\n%s", diff)
	}
}

func TestCompositesStopsOnCallbackError(t *testing.T) {
	r := reader(t, kubetest.Reader, cluster.Options{PageSize: 1, Concurrency: 2})
	stop := errors.New("stop")
	var seen []string
	err := r.Composites(context.Background(), composition1(t, r, "legacy"), func(c *cluster.Composite) error {
		seen = append(seen, c.XR.GetName())
		if len(seen) == 2 {
			return stop
		}
		return nil
	})
	if !errors.Is(err, stop) {
		t.Errorf("Composites(): want the callback's error, got %v", err)
	}
	if diff := cmp.Diff([]string{"x-0", "x-1"}, seen); diff != "" {
		t.Errorf("Composites() calls the callback no more after it fails: -want, +got:\n%s", diff)
	}
}

func names(us []*unstructured.Unstructured) []string {
	out := make([]string, 0, len(us))
	for _, u := range us {
		out = append(out, u.GetName())
	}
	return out
}

// compositionPages counts the reader's list requests of Compositions with
// limit=1 in the audit log.
func compositionPages(t *testing.T) int {
	t.Helper()
	events, err := server.AuditEvents(context.Background())
	if err != nil {
		t.Fatalf("AuditEvents(): %v", err)
	}
	n := 0
	for _, e := range events {
		if e.User.Username == kubetest.Reader && e.Verb == "list" &&
			strings.Contains(e.RequestURI, "/compositions?") && strings.Contains(e.RequestURI, "limit=1") {
			n++
		}
	}
	return n
}

func TestLists(t *testing.T) {
	ctx := context.Background()
	r := reader(t, kubetest.Reader, cluster.Options{PageSize: 1})
	before := compositionPages(t)
	comps, err := r.Compositions(ctx)
	if err != nil {
		t.Fatalf("Compositions(): %v", err)
	}
	if diff := cmp.Diff([]string{"empty", "legacy", "other", "unserved"}, names(comps)); diff != "" {
		t.Errorf("Compositions() pages through every Composition: -want, +got:\n%s", diff)
	}
	if got := compositionPages(t) - before; got != 4 {
		t.Errorf("Compositions() with PageSize 1 sent %d list requests for 4 Compositions, want 4 (limit/continue)", got)
	}
	revs, err := r.CompositionRevisions(ctx, "legacy")
	if err != nil {
		t.Fatalf("CompositionRevisions(): %v", err)
	}
	if diff := cmp.Diff([]string{"legacy-1", "legacy-2"}, names(revs)); diff != "" {
		t.Errorf("CompositionRevisions(legacy) lists the revisions labelled with the Composition: -want, +got:\n%s", diff)
	}
	envs, err := r.EnvironmentConfigs(ctx)
	if err != nil {
		t.Fatalf("EnvironmentConfigs(): %v", err)
	}
	if diff := cmp.Diff([]string{"env-a", "env-b", "env-c"}, names(envs)); diff != "" {
		t.Errorf("EnvironmentConfigs(): -want, +got:\n%s", diff)
	}
	if len(envs) > 0 && envs[0].GetAPIVersion() != "apiextensions.crossplane.io/v1beta1" {
		t.Errorf("EnvironmentConfigs() reads the preferred version v1beta1, got %s", envs[0].GetAPIVersion())
	}
	if len(r.Missing()) != 0 {
		t.Errorf("Missing(): want none, got %v", r.Missing())
	}

	// A user without the right to list EnvironmentConfigs gets none, and the
	// missing permission.
	nr := reader(t, noXRs, cluster.Options{})
	envs, err = nr.EnvironmentConfigs(ctx)
	if err != nil || len(envs) != 0 {
		t.Errorf("EnvironmentConfigs() as %s: want no objects and no error, got %v, %v", noXRs, names(envs), err)
	}
	if diff := cmp.Diff([]cluster.Permission{{Verb: "list", Group: "apiextensions.crossplane.io", Resource: "environmentconfigs"}}, nr.Missing()); diff != "" {
		t.Errorf("Missing(): -want, +got:\n%s", diff)
	}
}

func TestSecretDigests(t *testing.T) {
	ctx := context.Background()
	r := reader(t, kubetest.Reader, cluster.Options{})
	got, err := r.SecretDigests(ctx, "crossplane-system", "x-1-conn")
	if err != nil {
		t.Fatalf("SecretDigests(): %v", err)
	}
	want := &cluster.Secret{Namespace: "crossplane-system", Name: "x-1-conn", State: cluster.Found, Digests: map[string]string{"password": r.Digest([]byte("pw-x-1"))}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("SecretDigests(): -want, +got:\n%s", diff)
	}
	if strings.Contains(fmt.Sprint(got), "pw-x-1") {
		t.Errorf("SecretDigests() keeps the value: %v", got)
	}
	other := reader(t, kubetest.Reader, cluster.Options{})
	if r.Digest([]byte("pw-x-1")) == other.Digest([]byte("pw-x-1")) {
		t.Errorf("Digest(): two Readers share a key; a digest must be meaningless outside its Reader")
	}
	missing, err := r.SecretDigests(ctx, "crossplane-system", "nope")
	if err != nil || missing.State != cluster.NotFound {
		t.Errorf("SecretDigests(nope): want NotFound, got %v, %v", missing, err)
	}
}

func TestLoadConfig(t *testing.T) {
	// One kubeconfig with two contexts: the context flag picks the user, and
	// the context's namespace comes back.
	admin, err := clientcmd.LoadFromFile(server.Kubeconfig(kubetest.Reader))
	if err != nil {
		t.Fatalf("LoadFromFile(): %v", err)
	}
	nx, err := clientcmd.LoadFromFile(server.Kubeconfig(noXRs))
	if err != nil {
		t.Fatalf("LoadFromFile(): %v", err)
	}
	admin.AuthInfos[noXRs] = nx.AuthInfos[noXRs]
	admin.Contexts[noXRs] = nx.Contexts[noXRs]
	admin.Contexts[noXRs].Namespace = "team-b"
	path := filepath.Join(t.TempDir(), "config")
	if err := clientcmd.WriteToFile(*admin, path); err != nil {
		t.Fatalf("WriteToFile(): %v", err)
	}

	cfg, ns, err := cluster.LoadConfig(cluster.Kubeconfig{Path: path, Context: noXRs})
	if err != nil {
		t.Fatalf("LoadConfig(): %v", err)
	}
	if ns != "team-b" {
		t.Errorf("LoadConfig(): namespace %q, want the context's team-b", ns)
	}
	r, err := cluster.NewReader(cfg, cluster.Options{})
	if err != nil {
		t.Fatalf("NewReader(): %v", err)
	}
	if _, err := r.EnvironmentConfigs(context.Background()); err != nil {
		t.Fatalf("EnvironmentConfigs(): %v", err)
	}
	if len(r.Missing()) != 1 {
		t.Errorf("the --context user (%s) is used: want one missing permission, got %v", noXRs, r.Missing())
	}

	t.Setenv("KUBECONFIG", path)
	_, ns, err = cluster.LoadConfig(cluster.Kubeconfig{})
	if err != nil {
		t.Fatalf("LoadConfig() from $KUBECONFIG: %v", err)
	}
	if ns != "default" {
		t.Errorf("LoadConfig() from $KUBECONFIG: namespace %q, want default (the reader context names none)", ns)
	}
	if _, _, err := cluster.LoadConfig(cluster.Kubeconfig{Path: path, Context: "nope"}); err == nil {
		t.Errorf("LoadConfig() with an unknown context: want an error")
	}
}

// TestCompositesListed: Listed reports the listing page by page: the total
// of the kind from the first page (the API server's remainingItemCount),
// the XRs skipped, and completion, which leaves the XRs that run the
// Composition.
func TestCompositesListed(t *testing.T) {
	cases := map[string]struct {
		reason   string
		opts     cluster.Options
		wantRuns int
	}{
		"Paged": {
			reason:   "Over pages of 2 the first page tells the total, which the listing reaches.",
			opts:     cluster.Options{PageSize: 2},
			wantRuns: 7,
		},
		"OnePage": {
			reason:   "One page is complete: the total is its items.",
			opts:     cluster.Options{},
			wantRuns: 7,
		},
		"Namespace": {
			reason:   "The XRs outside the namespace are skipped.",
			opts:     cluster.Options{PageSize: 3, Namespace: "team-a"},
			wantRuns: 4,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			var got []cluster.Listing
			o := tc.opts
			o.Listed = func(l cluster.Listing) { got = append(got, l) }
			r := reader(t, kubetest.Reader, o)
			collect(t, r, composition1(t, r, "legacy"))
			if len(got) == 0 {
				t.Fatalf("%s\nListed was never called", tc.reason)
			}
			first, last := got[0], got[len(got)-1]
			if first.Total < 0 || first.Total != last.Listed {
				t.Errorf("%s\nListed: first page's total %d, listed in all %d", tc.reason, first.Total, last.Listed)
			}
			if !last.Complete || last.Total != last.Listed || last.Listed-last.Skipped != tc.wantRuns || last.Composition != "legacy" {
				t.Errorf("%s\nListed: last %+v, want complete with %d XRs that run the Composition", tc.reason, last, tc.wantRuns)
			}
			for i := 1; i < len(got); i++ {
				if got[i].Listed < got[i-1].Listed || got[i].Skipped < got[i-1].Skipped || got[i-1].Complete {
					t.Errorf("%s\nListed: %+v after %+v", tc.reason, got[i], got[i-1])
				}
			}
		})
	}
}
