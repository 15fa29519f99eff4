package v2map

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestApply(t *testing.T) {
	cases := map[string]struct {
		reason string
		obj    map[string]any
		ops    []Op
		want   map[string]any
		codes  []string
	}{
		"ManagedResourceTwin": {
			reason: "A cluster-scoped managed resource becomes its namespaced twin: group, namespace, providerConfigRef kind, Orphan as management policies, no namespace in its Secret ref.",
			obj: map[string]any{
				"apiVersion": "s3.aws.upbound.io/v1beta1", "kind": "Bucket",
				"spec": map[string]any{
					"deletionPolicy":             "Orphan",
					"providerConfigRef":          map[string]any{"name": "default"},
					"writeConnectionSecretToRef": map[string]any{"name": "s", "namespace": "crossplane-system"},
				},
			},
			ops: []Op{
				{Code: "C440", Op: OpSet, Path: "apiVersion", Value: "s3.aws.m.upbound.io/v1beta1"},
				{Code: "C441", Op: OpSet, Path: "spec.providerConfigRef.kind", Value: "ClusterProviderConfig"},
				{Code: "C442", Op: OpManagementPolicies, Path: "spec.deletionPolicy"},
				{Code: "C443", Op: OpDelete, Path: "spec.writeConnectionSecretToRef.namespace"},
				{Code: "C444", Op: OpDelete, Path: "spec.publishConnectionDetailsTo"},
			},
			want: map[string]any{
				"apiVersion": "s3.aws.m.upbound.io/v1beta1", "kind": "Bucket",
				"spec": map[string]any{
					"managementPolicies":         []any{"Observe", "Create", "Update", "LateInitialize"},
					"providerConfigRef":          map[string]any{"name": "default", "kind": "ClusterProviderConfig"},
					"writeConnectionSecretToRef": map[string]any{"name": "s"},
				},
			},
			codes: []string{"C440", "C441", "C442", "C443"},
		},
		"MoveMachinery": {
			reason: "A move takes the value to its new path; an absent one moves nothing.",
			obj:    map[string]any{"spec": map[string]any{"compositionRef": map[string]any{"name": "c"}}},
			ops: []Op{
				{Code: "C421", Op: OpMove, Path: "spec.compositionRef", To: "spec.crossplane.compositionRef"},
				{Code: "C421", Op: OpMove, Path: "spec.resourceRefs", To: "spec.crossplane.resourceRefs"},
			},
			want:  map[string]any{"spec": map[string]any{"crossplane": map[string]any{"compositionRef": map[string]any{"name": "c"}}}},
			codes: []string{"C421"},
		},
		"PruneEmptyOnly": {
			reason: "A prune deletes an object left empty (a removed patch made it) and keeps a filled one.",
			obj: map[string]any{"spec": map[string]any{
				"writeConnectionSecretToRef": map[string]any{"namespace": "crossplane-system"},
				"kept":                       map[string]any{"name": "n"},
			}},
			ops: []Op{
				{Code: "C429", Op: OpDelete, Path: "spec.writeConnectionSecretToRef.namespace"},
				{Code: "C429", Op: OpPrune, Path: "spec.writeConnectionSecretToRef"},
				{Code: "C499", Op: OpPrune, Path: "spec.kept"},
				{Code: "C498", Op: OpPrune, Path: "spec.absent"},
			},
			want:  map[string]any{"spec": map[string]any{"kept": map[string]any{"name": "n"}}},
			codes: []string{"C429"},
		},
		"DeleteDeletePolicy": {
			reason: "deletionPolicy Delete is the namespaced default: it is dropped, not turned into policies.",
			obj:    map[string]any{"spec": map[string]any{"deletionPolicy": "Delete"}},
			ops:    []Op{{Code: "C442", Op: OpManagementPolicies, Path: "spec.deletionPolicy"}},
			want:   map[string]any{"spec": map[string]any{}},
			codes:  []string{"C442"},
		},
		"UnwrapObject": {
			reason: "Unwrapping makes the payload the object; of the wrapper's metadata, what the payload does not set stays.",
			obj: map[string]any{
				"apiVersion": "kubernetes.crossplane.io/v1alpha2", "kind": "Object",
				"metadata": map[string]any{"name": "xr-abc", "labels": map[string]any{"a": "wrapper", "b": "wrapper"}},
				"spec": map[string]any{"forProvider": map[string]any{"manifest": map[string]any{
					"apiVersion": "v1", "kind": "ConfigMap",
					"metadata": map[string]any{"name": "settings", "labels": map[string]any{"a": "payload"}},
				}}},
			},
			ops: []Op{{Code: "C456", Op: OpUnwrap, Path: "spec.forProvider.manifest"}},
			want: map[string]any{
				"apiVersion": "v1", "kind": "ConfigMap",
				"metadata": map[string]any{"name": "settings", "labels": map[string]any{"a": "payload", "b": "wrapper"}},
			},
			codes: []string{"C456"},
		},
		"SetSameValue": {
			reason: "Setting the value a field already has changes nothing and names no code.",
			obj:    map[string]any{"apiVersion": "a/v1"},
			ops:    []Op{{Code: "C440", Op: OpSet, Path: "apiVersion", Value: "a/v1"}},
			want:   map[string]any{"apiVersion": "a/v1"},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			codes, err := Apply(tc.obj, tc.ops)
			if err != nil {
				t.Fatalf("\n%s\nApply(...): %v", tc.reason, err)
			}
			if diff := cmp.Diff(tc.want, tc.obj); diff != "" {
				t.Errorf("\n%s\nApply(...): -want object, +got:\n%s", tc.reason, diff)
			}
			if diff := cmp.Diff(tc.codes, codes); diff != "" {
				t.Errorf("\n%s\nApply(...): -want codes, +got:\n%s", tc.reason, diff)
			}
		})
	}
}

func TestEncodeDecode(t *testing.T) {
	m := &Mapping{
		From: Type{APIVersion: "example.org/v1", Kind: "XDatabase"}, To: Type{APIVersion: "example.org/v1", Kind: "Database"}, Scope: "Namespaced",
		XR:        []Op{{Code: "C421", Op: OpMove, Path: "spec.compositionRef", To: "spec.crossplane.compositionRef"}},
		Resources: []Resource{{Name: "db", Ops: []Op{{Code: "C440", Op: OpSet, Path: "apiVersion", Value: "rds.aws.m.upbound.io/v1beta1"}}}},
	}
	s, err := m.Encode()
	if err != nil {
		t.Fatal(err)
	}
	got, err := FromAnnotations(map[string]string{Annotation: s})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(m, got); diff != "" {
		t.Errorf("Decode(Encode(m)): -want, +got:\n%s", diff)
	}
	if diff := cmp.Diff([]string{"C421", "C440"}, got.Codes()); diff != "" {
		t.Errorf("Codes(): -want, +got:\n%s", diff)
	}
	if _, err := Decode(`{"from":{},"bogus":1}`); err == nil {
		t.Error("Decode of an unknown field: want an error")
	}
}
