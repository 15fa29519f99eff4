package pipeline

import (
	"context"
	"testing"

	fnv1 "github.com/crossplane/function-sdk-go/proto/v1"
	"github.com/google/go-cmp/cmp"
	"github.com/pkg/errors"

	"github.com/xpmigrate/xpmigrate/internal/crossplane"
	"github.com/xpmigrate/xpmigrate/internal/jsonobj"
	"github.com/xpmigrate/xpmigrate/render"
)

const (
	modernXR     = `{"apiVersion":"test.crossplane.io/v1","kind":"XR","metadata":{"name":"db","namespace":"team-a","uid":"xr-uid","labels":{"crossplane.io/composite":"db"}},"spec":{"crossplane":{}}}`
	modernXRConn = `{"apiVersion":"test.crossplane.io/v1","kind":"XR","metadata":{"name":"db","uid":"xr-uid","labels":{"crossplane.io/composite":"db"}},"spec":{"crossplane":{}}}`
)

// TestModernComposedMetadata covers Crossplane v2's composer semantics for
// modern XRs (docs/semantics/pipeline.md#crossplane-v2): namespace forced, cluster-scoped kinds
// refused, generateName only when unset, claim labels only when set,
// resource references under spec.crossplane, no XR connection details.
func TestModernComposedMetadata(t *testing.T) {
	type want struct {
		metadata map[string]any
		refs     any
		conn     map[string][]byte
		warnings []string
		err      error
	}
	cases := map[string]struct {
		reason   string
		xr       string
		dialect  crossplane.Target
		cd       string
		observed []map[string]any
		o        Options
		want     want
	}{
		"NamespaceForced": {
			reason:  "A namespaced modern XR's composed resources are put in its namespace; a Warning names the one a function asked to put elsewhere.",
			xr:      modernXR,
			dialect: crossplane.V2,
			cd:      `{"apiVersion":"s3.aws.m.upbound.io/v1beta1","kind":"Bucket","metadata":{"namespace":"elsewhere"}}`,
			want: want{
				metadata: obj(`{"namespace":"team-a","name":"db-435c683ae9da","generateName":"db-","annotations":{"crossplane.io/composition-resource-name":"bucket"},"labels":{"crossplane.io/composite":"db"},
					"ownerReferences":[{"apiVersion":"test.crossplane.io/v1","kind":"XR","name":"db","uid":"xr-uid","controller":true,"blockOwnerDeletion":true}]}`),
				refs:     []any{map[string]any{"apiVersion": "s3.aws.m.upbound.io/v1beta1", "kind": "Bucket", "namespace": "team-a", "name": "db-435c683ae9da"}},
				warnings: []string{`cannot create composed resource "bucket" in namespace "elsewhere", using XR namespace "team-a" instead`},
			},
		},
		"FunctionNameAndGenerateNameKept": {
			reason:  "generateName is set only when the function set neither name nor generateName.",
			xr:      modernXR,
			dialect: crossplane.V2,
			cd:      `{"apiVersion":"s3.aws.m.upbound.io/v1beta1","kind":"Bucket","metadata":{"generateName":"mine-"}}`,
			want: want{
				metadata: obj(`{"namespace":"team-a","name":"mine-435c683ae9da","generateName":"mine-","annotations":{"crossplane.io/composition-resource-name":"bucket"},"labels":{"crossplane.io/composite":"db"},
					"ownerReferences":[{"apiVersion":"test.crossplane.io/v1","kind":"XR","name":"db","uid":"xr-uid","controller":true,"blockOwnerDeletion":true}]}`),
				refs: []any{map[string]any{"apiVersion": "s3.aws.m.upbound.io/v1beta1", "kind": "Bucket", "namespace": "team-a", "name": "mine-435c683ae9da"}},
			},
		},
		"ClusterScopedRefused": {
			reason:  "A cluster-scoped kind (a v1 managed resource) cannot be composed by a namespaced XR.",
			xr:      modernXR,
			dialect: crossplane.V2,
			cd:      `{"apiVersion":"s3.aws.upbound.io/v1beta1","kind":"Bucket"}`,
			want: want{
				err: &ClusterScopedError{Name: "bucket", APIVersion: "s3.aws.upbound.io/v1beta1", Kind: "Bucket", Namespace: "team-a"},
			},
		},
		"ClusterScopedWithNamespaceNotChecked": {
			reason:  "Crossplane v2 checks the scope only of a resource without a namespace: one a function put in a namespace is forced into the XR's, with a warning.",
			xr:      modernXR,
			dialect: crossplane.V2,
			cd:      `{"apiVersion":"s3.aws.upbound.io/v1beta1","kind":"Bucket","metadata":{"name":"b","namespace":"other"}}`,
			want: want{
				metadata: obj(`{"namespace":"team-a","name":"b","annotations":{"crossplane.io/composition-resource-name":"bucket"},"labels":{"crossplane.io/composite":"db"},
					"ownerReferences":[{"apiVersion":"test.crossplane.io/v1","kind":"XR","name":"db","uid":"xr-uid","controller":true,"blockOwnerDeletion":true}]}`),
				refs:     []any{map[string]any{"apiVersion": "s3.aws.upbound.io/v1beta1", "kind": "Bucket", "namespace": "team-a", "name": "b"}},
				warnings: []string{`cannot create composed resource "bucket" in namespace "other", using XR namespace "team-a" instead`},
			},
		},
		"ClusterScopedByOption": {
			reason:  "Options.ClusterScoped, from CRDs, overrides the known-kinds rule.",
			xr:      modernXR,
			dialect: crossplane.V2,
			cd:      `{"apiVersion":"example.org/v1","kind":"Widget"}`,
			o:       Options{ClusterScoped: func(_, kind string) bool { return kind == "Widget" }},
			want: want{
				err: &ClusterScopedError{Name: "bucket", APIVersion: "example.org/v1", Kind: "Widget", Namespace: "team-a"},
			},
		},
		"ClusterXRComposesAnywhere": {
			reason:  "A cluster-scoped modern XR keeps the namespace a function sets, and may compose cluster-scoped kinds; its connection details are dropped.",
			xr:      modernXRConn,
			dialect: crossplane.V2,
			cd:      `{"apiVersion":"rbac.authorization.k8s.io/v1","kind":"ClusterRole","metadata":{"name":"r"}}`,
			want: want{
				metadata: obj(`{"name":"r","annotations":{"crossplane.io/composition-resource-name":"bucket"},"labels":{"crossplane.io/composite":"db"},
					"ownerReferences":[{"apiVersion":"test.crossplane.io/v1","kind":"XR","name":"db","uid":"xr-uid","controller":true,"blockOwnerDeletion":true}]}`),
				refs: []any{map[string]any{"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "ClusterRole", "name": "r"}},
			},
		},
		"LegacyXRUnderV2": {
			reason:  "An XR without spec.crossplane keeps v1.20's rules under dialect V2: claim labels (empty) added, generateName overwritten, refs in spec.resourceRefs, connection details kept.",
			xr:      `{"apiVersion":"test.crossplane.io/v1","kind":"XR","metadata":{"name":"db","uid":"xr-uid","labels":{"crossplane.io/composite":"db"}}}`,
			dialect: crossplane.V2,
			cd:      `{"apiVersion":"s3.aws.upbound.io/v1beta1","kind":"Bucket","metadata":{"generateName":"mine-"}}`,
			want: want{
				metadata: obj(`{"name":"db-435c683ae9da","generateName":"db-","annotations":{"crossplane.io/composition-resource-name":"bucket"},"labels":{"crossplane.io/composite":"db","crossplane.io/claim-name":"","crossplane.io/claim-namespace":""},
					"ownerReferences":[{"apiVersion":"test.crossplane.io/v1","kind":"XR","name":"db","uid":"xr-uid","controller":true,"blockOwnerDeletion":true}]}`),
				conn: map[string][]byte{"password": []byte("s3cr3t")},
			},
		},
		"ModernXRUnderV1": {
			reason:  "Dialect V1 never applies the v2 rules, even to an XR with spec.crossplane.",
			xr:      modernXR,
			dialect: crossplane.V1,
			cd:      `{"apiVersion":"s3.aws.upbound.io/v1beta1","kind":"Bucket"}`,
			want: want{
				metadata: obj(`{"name":"db-435c683ae9da","generateName":"db-","annotations":{"crossplane.io/composition-resource-name":"bucket"},"labels":{"crossplane.io/composite":"db","crossplane.io/claim-name":"","crossplane.io/claim-namespace":""},
					"ownerReferences":[{"apiVersion":"test.crossplane.io/v1","kind":"XR","name":"db","uid":"xr-uid","controller":true,"blockOwnerDeletion":true}]}`),
				conn: map[string][]byte{"password": []byte("s3cr3t")},
			},
		},
		"ObservedWithoutGenerateName": {
			reason:   "An existing resource created without generateName keeps none, even when the function asks for one.",
			xr:       modernXR,
			dialect:  crossplane.V2,
			cd:       `{"apiVersion":"s3.aws.m.upbound.io/v1beta1","kind":"Bucket","metadata":{"generateName":"fn-"}}`,
			observed: []map[string]any{obj(`{"apiVersion":"s3.aws.m.upbound.io/v1beta1","kind":"Bucket","metadata":{"name":"fixed","namespace":"team-a","annotations":{"crossplane.io/composition-resource-name":"bucket"}}}`)},
			want: want{
				metadata: obj(`{"namespace":"team-a","name":"fixed","annotations":{"crossplane.io/composition-resource-name":"bucket"},"labels":{"crossplane.io/composite":"db"},
					"ownerReferences":[{"apiVersion":"test.crossplane.io/v1","kind":"XR","name":"db","uid":"xr-uid","controller":true,"blockOwnerDeletion":true}]}`),
				refs: []any{map[string]any{"apiVersion": "s3.aws.m.upbound.io/v1beta1", "kind": "Bucket", "namespace": "team-a", "name": "fixed"}},
			},
		},
		"ObservedGenerateNameKept": {
			reason:   "An existing composed resource keeps its name and the generateName it was created with.",
			xr:       modernXR,
			dialect:  crossplane.V2,
			cd:       `{"apiVersion":"s3.aws.m.upbound.io/v1beta1","kind":"Bucket"}`,
			observed: []map[string]any{obj(`{"apiVersion":"s3.aws.m.upbound.io/v1beta1","kind":"Bucket","metadata":{"name":"old-x1y2z","generateName":"old-","namespace":"team-a","annotations":{"crossplane.io/composition-resource-name":"bucket"}}}`)},
			want: want{
				metadata: obj(`{"namespace":"team-a","name":"old-x1y2z","generateName":"old-","annotations":{"crossplane.io/composition-resource-name":"bucket"},"labels":{"crossplane.io/composite":"db"},
					"ownerReferences":[{"apiVersion":"test.crossplane.io/v1","kind":"XR","name":"db","uid":"xr-uid","controller":true,"blockOwnerDeletion":true}]}`),
				refs: []any{map[string]any{"apiVersion": "s3.aws.m.upbound.io/v1beta1", "kind": "Bucket", "namespace": "team-a", "name": "old-x1y2z"}},
			},
		},
		"ClaimLabelsWhenBothSet": {
			reason:  "A modern XR that carries both claim labels passes them on.",
			xr:      `{"apiVersion":"test.crossplane.io/v1","kind":"XR","metadata":{"name":"db","namespace":"team-a","uid":"xr-uid","labels":{"crossplane.io/composite":"db","crossplane.io/claim-name":"c","crossplane.io/claim-namespace":"team-a"}},"spec":{"crossplane":{}}}`,
			dialect: crossplane.V2,
			cd:      `{"apiVersion":"s3.aws.m.upbound.io/v1beta1","kind":"Bucket","metadata":{"name":"b"}}`,
			want: want{
				metadata: obj(`{"namespace":"team-a","name":"b","annotations":{"crossplane.io/composition-resource-name":"bucket"},"labels":{"crossplane.io/composite":"db","crossplane.io/claim-name":"c","crossplane.io/claim-namespace":"team-a"},
					"ownerReferences":[{"apiVersion":"test.crossplane.io/v1","kind":"XR","name":"db","uid":"xr-uid","controller":true,"blockOwnerDeletion":true}]}`),
				refs: []any{map[string]any{"apiVersion": "s3.aws.m.upbound.io/v1beta1", "kind": "Bucket", "namespace": "team-a", "name": "b"}},
			},
		},
		"ClaimLabelsOnlyWhenSet": {
			reason:  "A modern XR passes claim labels on only when both are set: here the claim namespace is empty, so neither is added.",
			xr:      `{"apiVersion":"test.crossplane.io/v1","kind":"XR","metadata":{"name":"db","namespace":"team-a","uid":"xr-uid","labels":{"crossplane.io/composite":"db","crossplane.io/claim-name":"c","crossplane.io/claim-namespace":""}},"spec":{"crossplane":{}}}`,
			dialect: crossplane.V2,
			cd:      `{"apiVersion":"s3.aws.m.upbound.io/v1beta1","kind":"Bucket","metadata":{"name":"b"}}`,
			want: want{
				metadata: obj(`{"namespace":"team-a","name":"b","annotations":{"crossplane.io/composition-resource-name":"bucket"},"labels":{"crossplane.io/composite":"db"},
					"ownerReferences":[{"apiVersion":"test.crossplane.io/v1","kind":"XR","name":"db","uid":"xr-uid","controller":true,"blockOwnerDeletion":true}]}`),
				refs: []any{map[string]any{"apiVersion": "s3.aws.m.upbound.io/v1beta1", "kind": "Bucket", "namespace": "team-a", "name": "b"}},
			},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			fn := respond(&fnv1.RunFunctionResponse{Desired: &fnv1.State{
				Composite: &fnv1.Resource{ConnectionDetails: map[string][]byte{"password": []byte("s3cr3t")}},
				Resources: map[string]*fnv1.Resource{"bucket": {Resource: st(tc.cd)}},
			}})
			o := tc.o
			o.Profile, o.Dialect = Reconciler, tc.dialect
			r, err := ComposeReport(context.Background(), obj(tc.xr), pipelineComposition(fnStep("s", "fn")), tc.observed, Functions{"fn": fn}, o)
			if tc.want.err != nil {
				var cs *ClusterScopedError
				if !errors.As(err, &cs) {
					t.Fatalf("\n%s\nComposeReport(...): want a ClusterScopedError, got %v", tc.reason, err)
				}
				if diff := cmp.Diff(tc.want.err, cs); diff != "" {
					t.Errorf("\n%s\nComposeReport(...): -want error, +got:\n%s", tc.reason, diff)
				}
				return
			}
			if err != nil {
				t.Fatalf("\n%s\nComposeReport(...): %v", tc.reason, err)
			}
			if len(r.Composed) != 1 {
				t.Fatalf("\n%s\nComposeReport(...): want 1 composed resource, got %d", tc.reason, len(r.Composed))
			}
			if diff := cmp.Diff(tc.want.metadata, r.Composed[0].Desired["metadata"]); diff != "" {
				t.Errorf("\n%s\nComposeReport(...): -want metadata, +got:\n%s", tc.reason, diff)
			}
			var refs any
			if tc.want.refs != nil {
				refs, _ = jsonobj.Lookup(r.EffectiveXR, "spec", "crossplane", "resourceRefs")
				if _, legacy := jsonobj.Lookup(r.EffectiveXR, "spec", "resourceRefs"); legacy {
					t.Errorf("\n%s\nComposeReport(...): a modern XR has no spec.resourceRefs", tc.reason)
				}
			}
			if diff := cmp.Diff(tc.want.refs, refs); diff != "" {
				t.Errorf("\n%s\nComposeReport(...): -want resource refs, +got:\n%s", tc.reason, diff)
			}
			if diff := cmp.Diff(tc.want.conn, r.ConnectionDetails); diff != "" {
				t.Errorf("\n%s\nComposeReport(...): -want XR connection details, +got:\n%s", tc.reason, diff)
			}
			var warnings []string
			for _, e := range r.TargetedEvents {
				if e.Type == render.EventWarning {
					warnings = append(warnings, e.Message)
				}
			}
			if diff := cmp.Diff(tc.want.warnings, warnings); diff != "" {
				t.Errorf("\n%s\nComposeReport(...): -want warnings, +got:\n%s", tc.reason, diff)
			}
		})
	}
}

func TestKnownClusterScoped(t *testing.T) {
	cases := map[string]struct {
		apiVersion, kind string
		want             bool
	}{
		"ManagedResourceV1":         {"s3.aws.upbound.io/v1beta1", "Bucket", true},
		"ManagedResourceNamespaced": {"s3.aws.m.upbound.io/v1beta1", "Bucket", false},
		"ProviderKubernetesObject":  {"kubernetes.crossplane.io/v1alpha2", "Object", true},
		"ProviderKubernetesModern":  {"kubernetes.m.crossplane.io/v1alpha1", "Object", false},
		"ClusterRole":               {"rbac.authorization.k8s.io/v1", "ClusterRole", true},
		"Namespace":                 {"v1", "Namespace", true},
		"ConfigMap":                 {"v1", "ConfigMap", false},
		"Deployment":                {"apps/v1", "Deployment", false},
		"ClusterProviderConfig":     {"aws.m.upbound.io/v1beta1", "ClusterProviderConfig", true},
		"NamespacedUsage":           {"protection.crossplane.io/v1beta1", "Usage", false},
		"UnknownGroup":              {"example.org/v1", "Widget", false},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if got := KnownClusterScoped(tc.apiVersion, tc.kind); got != tc.want {
				t.Errorf("KnownClusterScoped(%q, %q): want %t, got %t", tc.apiVersion, tc.kind, tc.want, got)
			}
		})
	}
}
