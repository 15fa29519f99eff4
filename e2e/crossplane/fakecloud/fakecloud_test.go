package fakecloud

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestRefType(t *testing.T) {
	cases := map[string]struct {
		reason string
		ref    Ref
		want   string
	}{
		"ClusterScoped": {
			reason: "A v1-style group is the type's group as it is.",
			ref:    Ref{APIVersion: "ec2.aws.upbound.io/v1beta1", Kind: "VPC"},
			want:   "ec2.aws.upbound.io/VPC",
		},
		"NamespacedTwin": {
			reason: "A v2 .m. group folds onto the cluster-scoped group, so a twin observes the same external resource.",
			ref:    Ref{APIVersion: "ec2.aws.m.upbound.io/v1beta1", Kind: "VPC"},
			want:   "ec2.aws.upbound.io/VPC",
		},
		"CoreGroup": {
			reason: "A kind of the core group has an empty group.",
			ref:    Ref{APIVersion: "v1", Kind: "ConfigMap"},
			want:   "/ConfigMap",
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, tc.ref.Type()); diff != "" {
				t.Errorf("%s\nType(): -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}

// TestCloud runs one external resource's life through a cloud directory,
// reopened between the calls as a restarted provider would, and reads the
// record back.
func TestCloud(t *testing.T) {
	dir := t.TempDir()
	cluster := Ref{APIVersion: "storage.fake.xpmigrate.io/v1alpha1", Kind: "Bucket", Name: "b", UID: "1"}
	twin := Ref{APIVersion: "storage.fake.m.xpmigrate.io/v1alpha1", Kind: "Bucket", Namespace: "ns", Name: "b", UID: "2"}

	c, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	id, err := c.Create(cluster, "", map[string]any{"region": "eu"})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}

	c, err = Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	e, found, err := c.Observe(twin, id)
	if err != nil {
		t.Fatal(err)
	}
	if !found {
		t.Fatalf("Observe(twin, %q): the namespaced twin does not find the external resource its cluster-scoped original created", id)
	}
	if !UpToDate(e, map[string]any{"region": "eu"}) || UpToDate(e, map[string]any{"region": "us"}) {
		t.Errorf("UpToDate(%v): want true for the same parameters only", e.Params)
	}
	if err := c.Update(twin, id, map[string]any{"region": "us"}); err != nil {
		t.Fatal(err)
	}
	if err := c.Update(twin, "missing", nil); err == nil {
		t.Errorf("Update(missing): want an error")
	}
	if err := c.Delete(twin, id); err != nil {
		t.Fatal(err)
	}
	if _, found, _ := c.Observe(cluster, id); found {
		t.Errorf("Observe() after Delete(): found")
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}

	calls, err := ReadCalls(dir)
	if err != nil {
		t.Fatal(err)
	}
	var ops []string
	for _, call := range calls {
		ops = append(ops, call.Op)
	}
	want := []string{OpCreate, OpObserve, OpUpdate, OpDelete, OpObserve}
	if diff := cmp.Diff(want, ops); diff != "" {
		t.Errorf("ReadCalls(): -want, +got:\n%s", diff)
	}
	for op, n := range map[string]int{OpCreate: 1, OpDelete: 1, OpUpdate: 1, OpObserve: 2} {
		if got := Count(calls, op); got != n {
			t.Errorf("Count(%s): want %d, got %d", op, n, got)
		}
	}
	rs, err := ReadResources(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(rs) != 0 {
		t.Errorf("ReadResources() after Delete(): want none, got %v", rs)
	}
}

// TestCreateNamed: a managed resource whose Composition sets its external
// name creates the external resource under that name, once; a second
// create of the name fails as in a cloud. (Before, the cloud ignored the
// name and created anew on every reconcile where the Composition set it
// back: found by the real-Crossplane corpus run.)
func TestCreateNamed(t *testing.T) {
	c, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = c.Close() }()
	ref := Ref{APIVersion: "iam.fake.xpmigrate.io/v1alpha1", Kind: "Role", Name: "r", UID: "1"}
	id, err := c.Create(ref, "my-role", nil)
	if err != nil {
		t.Fatal(err)
	}
	if id != "my-role" {
		t.Errorf("Create(ref, %q): ID %q, want the name", "my-role", id)
	}
	if _, found, _ := c.Observe(ref, "my-role"); !found {
		t.Errorf("Observe(ref, %q): not found after its create", "my-role")
	}
	if _, err := c.Create(ref, "my-role", nil); err == nil {
		t.Errorf("a second Create of %q: want an error", "my-role")
	}
}
