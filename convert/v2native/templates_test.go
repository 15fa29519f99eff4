package v2native

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	yaml "go.yaml.in/yaml/v3"

	"github.com/xpmigrate/xpmigrate/convert"
	"github.com/xpmigrate/xpmigrate/convert/yamledit"
	"github.com/xpmigrate/xpmigrate/internal/crossplane"
	"github.com/xpmigrate/xpmigrate/internal/manifest"
	"github.com/xpmigrate/xpmigrate/internal/testutil"
	"github.com/xpmigrate/xpmigrate/internal/v2map"
)

// baseData returns the data of a template's base, as kubectl reads it.
func baseData(t testing.TB, res *yaml.Node) map[string]any {
	t.Helper()
	b, err := yamledit.JSON(yamledit.Get(res, "base"))
	if err != nil {
		t.Fatalf("yamledit.JSON(base): %v", err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("json.Unmarshal(base): %v", err)
	}
	return m
}

// checkOpsMatchEdit checks that the ops, applied to the base as it was,
// give the base as v2Template left it: the two are one rule.
func checkOpsMatchEdit(t testing.TB, what string, before map[string]any, ops []v2map.Op, after map[string]any) {
	t.Helper()
	if _, err := v2map.Apply(before, ops); err != nil {
		t.Errorf("%s: v2map.Apply(old base, ops): %v", what, err)
		return
	}
	if diff := cmp.Diff(after, before, cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("%s: the ops do not state the edit of the base: -edited base, +old base with the ops applied:\n%s", what, diff)
	}
}

// crd returns a CustomResourceDefinition for convert.Options.ProviderCRDs.
func crd(group, kind, scope string, versions ...string) map[string]any {
	var vs []any
	for i, v := range versions {
		vs = append(vs, map[string]any{"name": v, "served": true, "storage": i == len(versions)-1})
	}
	return map[string]any{
		"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
		"spec": map[string]any{"group": group, "scope": scope, "names": map[string]any{"kind": kind}, "versions": vs},
	}
}

// innerXRD defines the XR type acme.io/v1 XInner that TestV2Template's
// nested template composes: a v2 XRD, so that the template composes an XR
// whose XRD --target v2 does not convert (C453).
const innerXRD = "apiVersion: apiextensions.crossplane.io/v2\nkind: CompositeResourceDefinition\nmetadata: {name: xinners.acme.io}\n" +
	"spec:\n  group: acme.io\n  scope: Namespaced\n  names: {kind: XInner, plural: xinners}\n  versions:\n  - {name: v1, served: true, referenceable: true, schema: {openAPIV3Schema: {type: object}}}\n"

func TestV2Template(t *testing.T) {
	type want struct {
		findings []string
		template string // the template after the conversion (the first, named a)
		ops      []v2map.Op
	}
	const tpl = "  resources:\n  - name: a\n"
	cases := map[string]struct {
		reason string
		in     string // the template, under "  - name: a\n"
		opts   convert.Options
		scope  string
		want   want
	}{
		"UpboundTwinByRule": {
			reason: "Without CRDs the group rule names the twin, the version is kept and C445 asks to confirm it; the twin's default providerConfigRef is v1's.",
			in:     "    base:\n      apiVersion: s3.aws.upbound.io/v1beta2\n      kind: Bucket\n      spec:\n        forProvider: {region: eu-west-1}\n",
			want: want{
				findings: []string{"C445 spec.resources[0].base.apiVersion"},
				template: "    base:\n      apiVersion: s3.aws.m.upbound.io/v1beta2\n      kind: Bucket\n      spec:\n        forProvider: {region: eu-west-1}\n",
				ops:      []v2map.Op{{Code: "C440", Op: v2map.OpSet, Path: "apiVersion", Value: "s3.aws.m.upbound.io/v1beta2"}},
			},
		},
		"TwinVersionFromCRDs": {
			reason: "With the twin's CRD the version is one it serves: the storage version when the old one is not served.",
			in:     "    base:\n      apiVersion: rds.aws.upbound.io/v1beta2\n      kind: Instance\n      spec:\n        forProvider: {region: eu-west-1}\n",
			opts:   convert.Options{ProviderCRDs: []map[string]any{crd("rds.aws.m.upbound.io", "Instance", "Namespaced", "v1beta1")}},
			want: want{
				findings: []string{"C440 spec.resources[0].base.apiVersion"},
				template: "    base:\n      apiVersion: rds.aws.m.upbound.io/v1beta1\n      kind: Instance\n      spec:\n        forProvider: {region: eu-west-1}\n",
				ops:      []v2map.Op{{Code: "C440", Op: v2map.OpSet, Path: "apiVersion", Value: "rds.aws.m.upbound.io/v1beta1"}},
			},
		},
		"OtherProviderTwinFromCRDs": {
			reason: "A provider the rule does not know has a twin when its CRDs hold a namespaced kind in the m group.",
			in:     "    base:\n      apiVersion: widget.acme.example.com/v1\n      kind: Widget\n      spec:\n        forProvider: {}\n",
			opts:   convert.Options{ProviderCRDs: []map[string]any{crd("widget.acme.m.example.com", "Widget", "Namespaced", "v1")}},
			want: want{
				findings: []string{"C440 spec.resources[0].base.apiVersion"},
				template: "    base:\n      apiVersion: widget.acme.m.example.com/v1\n      kind: Widget\n      spec:\n        forProvider: {}\n",
				ops:      []v2map.Op{{Code: "C440", Op: v2map.OpSet, Path: "apiVersion", Value: "widget.acme.m.example.com/v1"}},
			},
		},
		"ProviderConfigRefKind": {
			reason: "A providerConfigRef gains the kind --provider-config-kind chooses (C441), comments kept.",
			in:     "    base:\n      apiVersion: iam.aws.upbound.io/v1beta1\n      kind: Role\n      spec:\n        forProvider: {}\n        providerConfigRef:\n          name: aws # the account\n",
			want: want{
				findings: []string{"C445 spec.resources[0].base.apiVersion", "C441 spec.resources[0].base.spec.providerConfigRef.kind"},
				template: "    base:\n      apiVersion: iam.aws.m.upbound.io/v1beta1\n      kind: Role\n      spec:\n        forProvider: {}\n        providerConfigRef:\n          name: aws # the account\n          kind: ClusterProviderConfig\n",
				ops: []v2map.Op{
					{Code: "C440", Op: v2map.OpSet, Path: "apiVersion", Value: "iam.aws.m.upbound.io/v1beta1"},
					{Code: "C441", Op: v2map.OpSet, Path: "spec.providerConfigRef.kind", Value: "ClusterProviderConfig"},
				},
			},
		},
		"NamespacedProviderConfig": {
			reason: "With --provider-config-kind ProviderConfig a template without a reference gets one: v1's default name, the namespaced kind.",
			in:     "    base:\n      apiVersion: iam.aws.upbound.io/v1beta1\n      kind: Role\n      spec:\n        forProvider: {}\n",
			opts:   convert.Options{ProviderConfigKind: convert.KindProviderConfig},
			want: want{
				findings: []string{"C445 spec.resources[0].base.apiVersion", "C441 spec.resources[0].base.spec.providerConfigRef.kind"},
				template: "    base:\n      apiVersion: iam.aws.m.upbound.io/v1beta1\n      kind: Role\n      spec:\n        forProvider: {}\n        providerConfigRef:\n          name: default\n          kind: ProviderConfig\n",
				ops: []v2map.Op{
					{Code: "C440", Op: v2map.OpSet, Path: "apiVersion", Value: "iam.aws.m.upbound.io/v1beta1"},
					{Code: "C441", Op: v2map.OpSet, Path: "spec.providerConfigRef.name", Value: "default"},
					{Code: "C441", Op: v2map.OpSet, Path: "spec.providerConfigRef.kind", Value: "ProviderConfig"},
				},
			},
		},
		"DeletionPolicyOrphan": {
			reason: "deletionPolicy Orphan becomes every management policy but Delete, in its place (C442).",
			in:     "    base:\n      apiVersion: s3.aws.upbound.io/v1beta1\n      kind: Bucket\n      spec:\n        deletionPolicy: Orphan\n        forProvider: {}\n",
			want: want{
				findings: []string{"C445 spec.resources[0].base.apiVersion", "C442 spec.resources[0].base.spec.deletionPolicy"},
				template: "    base:\n      apiVersion: s3.aws.m.upbound.io/v1beta1\n      kind: Bucket\n      spec:\n        managementPolicies: [Observe, Create, Update, LateInitialize]\n        forProvider: {}\n",
				ops: []v2map.Op{
					{Code: "C440", Op: v2map.OpSet, Path: "apiVersion", Value: "s3.aws.m.upbound.io/v1beta1"},
					{Code: "C442", Op: v2map.OpManagementPolicies, Path: "spec.deletionPolicy"},
				},
			},
		},
		"DeletionPolicyDelete": {
			reason: "deletionPolicy Delete is the default of namespaced managed resources: removed.",
			in:     "    base:\n      apiVersion: s3.aws.upbound.io/v1beta1\n      kind: Bucket\n      spec:\n        deletionPolicy: Delete\n        forProvider: {}\n",
			want: want{
				findings: []string{"C445 spec.resources[0].base.apiVersion", "C442 spec.resources[0].base.spec.deletionPolicy"},
				template: "    base:\n      apiVersion: s3.aws.m.upbound.io/v1beta1\n      kind: Bucket\n      spec:\n        forProvider: {}\n",
				ops: []v2map.Op{
					{Code: "C440", Op: v2map.OpSet, Path: "apiVersion", Value: "s3.aws.m.upbound.io/v1beta1"},
					{Code: "C442", Op: v2map.OpManagementPolicies, Path: "spec.deletionPolicy"},
				},
			},
		},
		"ExplicitManagementPolicies": {
			reason: "Management policies other than * decided alone in v1: they stay, the deletionPolicy goes.",
			in:     "    base:\n      apiVersion: s3.aws.upbound.io/v1beta1\n      kind: Bucket\n      spec:\n        deletionPolicy: Orphan\n        managementPolicies: [Observe]\n        forProvider: {}\n",
			want: want{
				findings: []string{"C445 spec.resources[0].base.apiVersion", "C442 spec.resources[0].base.spec.deletionPolicy"},
				template: "    base:\n      apiVersion: s3.aws.m.upbound.io/v1beta1\n      kind: Bucket\n      spec:\n        managementPolicies: [Observe]\n        forProvider: {}\n",
				ops: []v2map.Op{
					{Code: "C440", Op: v2map.OpSet, Path: "apiVersion", Value: "s3.aws.m.upbound.io/v1beta1"},
					{Code: "C442", Op: v2map.OpDelete, Path: "spec.deletionPolicy"},
				},
			},
		},
		"OrphanWithDeletePolicy": {
			reason: "Orphan with management policies that include Delete: the policies decide in v2, and the user is warned (C455).",
			in:     "    base:\n      apiVersion: s3.aws.upbound.io/v1beta1\n      kind: Bucket\n      spec:\n        deletionPolicy: Orphan\n        managementPolicies: [Observe, Delete]\n        forProvider: {}\n",
			want: want{
				findings: []string{"C445 spec.resources[0].base.apiVersion", "C455 spec.resources[0].base.spec.deletionPolicy"},
				template: "    base:\n      apiVersion: s3.aws.m.upbound.io/v1beta1\n      kind: Bucket\n      spec:\n        managementPolicies: [Observe, Delete]\n        forProvider: {}\n",
				ops: []v2map.Op{
					{Code: "C440", Op: v2map.OpSet, Path: "apiVersion", Value: "s3.aws.m.upbound.io/v1beta1"},
					{Code: "C442", Op: v2map.OpDelete, Path: "spec.deletionPolicy"},
				},
			},
		},
		"ConnectionSecretAndStore": {
			reason: "publishConnectionDetailsTo goes (C444); the connection Secret and the Secret references lose their namespace (C443), in lists too.",
			in: "    base:\n      apiVersion: rds.aws.upbound.io/v1beta1\n      kind: Instance\n      spec:\n        forProvider:\n          passwordSecretRef: {name: pw, namespace: crossplane-system, key: p}\n          users:\n          - tokenSecretRef: {name: t, namespace: ns, key: k}\n" +
				"        writeConnectionSecretToRef:\n          name: conn\n          namespace: crossplane-system\n        publishConnectionDetailsTo:\n          name: conn\n",
			want: want{
				findings: []string{
					"C445 spec.resources[0].base.apiVersion", "C444 spec.resources[0].base.spec.publishConnectionDetailsTo",
					"C443 spec.resources[0].base.spec.writeConnectionSecretToRef.namespace",
					"C443 spec.resources[0].base.spec.forProvider.passwordSecretRef.namespace",
					"C443 spec.resources[0].base.spec.forProvider.users[0].tokenSecretRef.namespace",
				},
				template: "    base:\n      apiVersion: rds.aws.m.upbound.io/v1beta1\n      kind: Instance\n      spec:\n        forProvider:\n          passwordSecretRef: {name: pw, key: p}\n          users:\n          - tokenSecretRef: {name: t, key: k}\n" +
					"        writeConnectionSecretToRef:\n          name: conn\n",
				ops: []v2map.Op{
					{Code: "C440", Op: v2map.OpSet, Path: "apiVersion", Value: "rds.aws.m.upbound.io/v1beta1"},
					{Code: "C444", Op: v2map.OpDelete, Path: "spec.publishConnectionDetailsTo"},
					{Code: "C443", Op: v2map.OpDelete, Path: "spec.writeConnectionSecretToRef.namespace"},
					{Code: "C443", Op: v2map.OpDelete, Path: "spec.forProvider.passwordSecretRef.namespace"},
					{Code: "C443", Op: v2map.OpDelete, Path: "spec.forProvider.users[0].tokenSecretRef.namespace"},
				},
			},
		},
		"SecretRefNamespaceInTwinSchema": {
			reason: "A Secret reference whose schema in the twin's CRD has a namespace keeps it.",
			in:     "    base:\n      apiVersion: widget.acme.example.com/v1\n      kind: Widget\n      spec:\n        forProvider:\n          keySecretRef: {name: k, namespace: other}\n",
			opts: convert.Options{ProviderCRDs: []map[string]any{func() map[string]any {
				c := crd("widget.acme.m.example.com", "Widget", "Namespaced", "v1")
				ref := map[string]any{"properties": map[string]any{"name": map[string]any{}, "namespace": map[string]any{}}}
				fp := map[string]any{"properties": map[string]any{"keySecretRef": ref}}
				sch := map[string]any{"properties": map[string]any{"spec": map[string]any{"properties": map[string]any{"forProvider": fp}}}}
				c["spec"].(map[string]any)["versions"].([]any)[0].(map[string]any)["schema"] = map[string]any{"openAPIV3Schema": sch}
				return c
			}()}},
			want: want{
				findings: []string{"C440 spec.resources[0].base.apiVersion"},
				template: "    base:\n      apiVersion: widget.acme.m.example.com/v1\n      kind: Widget\n      spec:\n        forProvider:\n          keySecretRef: {name: k, namespace: other}\n",
				ops:      []v2map.Op{{Code: "C440", Op: v2map.OpSet, Path: "apiVersion", Value: "widget.acme.m.example.com/v1"}},
			},
		},
		"TemplateNamespace": {
			reason: "v2 puts composed resources in the XR's namespace: the template's namespace goes (C446).",
			in:     "    base:\n      apiVersion: v1\n      kind: ConfigMap\n      metadata:\n        namespace: apps\n      data: {a: b}\n",
			want: want{
				findings: []string{"C446 spec.resources[0].base.metadata.namespace"},
				template: "    base:\n      apiVersion: v1\n      kind: ConfigMap\n      metadata: {}\n      data: {a: b}\n",
				ops:      []v2map.Op{{Code: "C446", Op: v2map.OpDelete, Path: "metadata.namespace"}},
			},
		},
		"PatchWritesNamespace": {
			reason: "A patch of metadata.namespace is flagged: v2 overwrites the value (C447).",
			in:     "    base: {apiVersion: v1, kind: ConfigMap}\n    patches:\n    - {fromFieldPath: spec.ns, toFieldPath: metadata.namespace}\n",
			want: want{
				findings: []string{"C447 spec.resources[0].patches[0].toFieldPath"},
				template: "    base: {apiVersion: v1, kind: ConfigMap}\n    patches:\n    - {fromFieldPath: spec.ns, toFieldPath: metadata.namespace}\n",
			},
		},
		"ClusterScopedKind": {
			reason: "A namespaced XR cannot compose a cluster-scoped kind: C448, an error.",
			in:     "    base: {apiVersion: v1, kind: Namespace}\n",
			want: want{
				findings: []string{"C448 spec.resources[0].base.kind"},
				template: "    base: {apiVersion: v1, kind: Namespace}\n",
			},
		},
		"ClusterScopedPerCRD": {
			reason: "The provider CRDs say a kind is cluster-scoped.",
			in:     "    base: {apiVersion: widget.acme.example.com/v1, kind: Gadget}\n",
			opts:   convert.Options{ProviderCRDs: []map[string]any{crd("widget.acme.example.com", "Gadget", "Cluster", "v1")}},
			want: want{
				findings: []string{"C448 spec.resources[0].base.kind"},
				template: "    base: {apiVersion: widget.acme.example.com/v1, kind: Gadget}\n",
			},
		},
		"ManagedWithoutTwin": {
			reason: "A v1 managed resource of a provider without namespaced twins (the community provider-aws) is cluster-scoped: C448.",
			in:     "    base:\n      apiVersion: ec2.aws.crossplane.io/v1beta1\n      kind: VPC\n      spec:\n        forProvider: {region: eu-west-1}\n",
			want: want{
				findings: []string{"C448 spec.resources[0].base.kind"},
				template: "    base:\n      apiVersion: ec2.aws.crossplane.io/v1beta1\n      kind: VPC\n      spec:\n        forProvider: {region: eu-west-1}\n",
			},
		},
		"ProviderConfigTemplate": {
			reason: "A composed v1 ProviderConfig is cluster-scoped: C448.",
			in:     "    base:\n      apiVersion: kubernetes.crossplane.io/v1alpha1\n      kind: ProviderConfig\n      spec:\n        credentials: {source: Secret}\n",
			want: want{
				findings: []string{"C448 spec.resources[0].base.kind"},
				template: "    base:\n      apiVersion: kubernetes.crossplane.io/v1alpha1\n      kind: ProviderConfig\n      spec:\n        credentials: {source: Secret}\n",
			},
		},
		"KubernetesObject": {
			reason: "provider-kubernetes' Object stays a wrapper, now the namespaced v1alpha1 Object; a v1alpha1 managementPolicy becomes managementPolicies; the wrapped manifest is not touched.",
			in:     "    base:\n      apiVersion: kubernetes.crossplane.io/v1alpha1\n      kind: Object\n      spec:\n        managementPolicy: ObserveCreateUpdate\n        forProvider:\n          manifest:\n            apiVersion: v1\n            kind: Secret\n            metadata: {namespace: team}\n            spec:\n              fooSecretRef: {name: a, namespace: b}\n",
			want: want{
				findings: []string{"C440 spec.resources[0].base.apiVersion", "C442 spec.resources[0].base.spec.managementPolicy"},
				template: "    base:\n      apiVersion: kubernetes.m.crossplane.io/v1alpha1\n      kind: Object\n      spec:\n        managementPolicies: [Observe, Create, Update]\n        forProvider:\n          manifest:\n            apiVersion: v1\n            kind: Secret\n            metadata: {namespace: team}\n            spec:\n              fooSecretRef: {name: a, namespace: b}\n",
				ops: []v2map.Op{
					{Code: "C440", Op: v2map.OpSet, Path: "apiVersion", Value: "kubernetes.m.crossplane.io/v1alpha1"},
					{Code: "C442", Op: v2map.OpDelete, Path: "spec.managementPolicy"},
					{Code: "C442", Op: v2map.OpSet, Path: "spec.managementPolicies", Value: []any{"Observe", "Create", "Update"}},
				},
			},
		},
		"ObjectReferences": {
			reason: "An Object's references to v1 Objects name their namespaced twins (C440); other references stay.",
			in:     "    base:\n      apiVersion: kubernetes.crossplane.io/v1alpha2\n      kind: Object\n      spec:\n        references:\n        - dependsOn: {apiVersion: kubernetes.crossplane.io/v1alpha2, kind: Object, name: a}\n        - patchesFrom: {apiVersion: v1, kind: Secret, name: s, fieldPath: data}\n        forProvider:\n          manifest: {apiVersion: v1, kind: ConfigMap}\n",
			want: want{
				findings: []string{"C440 spec.resources[0].base.apiVersion", "C440 spec.resources[0].base.spec.references[0].dependsOn.apiVersion"},
				template: "    base:\n      apiVersion: kubernetes.m.crossplane.io/v1alpha1\n      kind: Object\n      spec:\n        references:\n        - dependsOn: {apiVersion: kubernetes.m.crossplane.io/v1alpha1, kind: Object, name: a}\n        - patchesFrom: {apiVersion: v1, kind: Secret, name: s, fieldPath: data}\n        forProvider:\n          manifest: {apiVersion: v1, kind: ConfigMap}\n",
				ops: []v2map.Op{
					{Code: "C440", Op: v2map.OpSet, Path: "apiVersion", Value: "kubernetes.m.crossplane.io/v1alpha1"},
					{Code: "C440", Op: v2map.OpSet, Path: "spec.references[0].dependsOn.apiVersion", Value: "kubernetes.m.crossplane.io/v1alpha1"},
				},
			},
		},
		"PatchOfRemovedField": {
			reason: "A patch of a field the twin lacks is removed (C449); the patch of a patch set is only flagged.",
			in: "    base:\n      apiVersion: s3.aws.upbound.io/v1beta1\n      kind: Bucket\n      spec:\n        forProvider: {}\n    patches:\n" +
				"    - {fromFieldPath: spec.ns, toFieldPath: spec.writeConnectionSecretToRef.namespace}\n    - {fromFieldPath: spec.region, toFieldPath: spec.forProvider.region}\n    - {type: PatchSet, patchSetName: s}\n" +
				"  patchSets:\n  - name: s\n    patches:\n    - {fromFieldPath: spec.ns, toFieldPath: spec.forProvider.keySecretRef.namespace}\n",
			want: want{
				findings: []string{"C445 spec.resources[0].base.apiVersion", "C449 spec.resources[0].patches[0]", "C449 spec.patchSets[0].patches[0].toFieldPath"},
				template: "    base:\n      apiVersion: s3.aws.m.upbound.io/v1beta1\n      kind: Bucket\n      spec:\n        forProvider: {}\n    patches:\n" +
					"    - {fromFieldPath: spec.region, toFieldPath: spec.forProvider.region}\n    - {type: PatchSet, patchSetName: s}\n" +
					"  patchSets:\n  - name: s\n    patches:\n    - {fromFieldPath: spec.ns, toFieldPath: spec.forProvider.keySecretRef.namespace}\n",
				ops: []v2map.Op{{Code: "C440", Op: v2map.OpSet, Path: "apiVersion", Value: "s3.aws.m.upbound.io/v1beta1"}, {Code: "C449", Op: v2map.OpDelete, Path: "spec.writeConnectionSecretToRef.namespace"}},
			},
		},
		"PatchOfDeletionPolicy": {
			reason: "A patch of deletionPolicy writes managementPolicies through a map transform (C450), declared before the base's op so that the rendered deletionPolicy maps through the same map (Delete to [*]).",
			in: "    base:\n      apiVersion: s3.aws.upbound.io/v1beta1\n      kind: Bucket\n      spec:\n        forProvider: {}\n    patches:\n" +
				"    - fromFieldPath: spec.policy\n      toFieldPath: spec.deletionPolicy\n",
			want: want{
				findings: []string{"C445 spec.resources[0].base.apiVersion", "C450 spec.resources[0].patches[0]"},
				template: "    base:\n      apiVersion: s3.aws.m.upbound.io/v1beta1\n      kind: Bucket\n      spec:\n        forProvider: {}\n    patches:\n" +
					"    - fromFieldPath: spec.policy\n      toFieldPath: spec.managementPolicies\n      transforms:\n      - type: map\n        map:\n          Orphan: [Observe, Create, Update, LateInitialize]\n          Delete: [\"*\"]\n",
				ops: []v2map.Op{
					{Code: "C440", Op: v2map.OpSet, Path: "apiVersion", Value: "s3.aws.m.upbound.io/v1beta1"},
					{Code: "C450", Op: v2map.OpManagementPolicies, Path: "spec.deletionPolicy", Value: map[string]any{
						"Orphan": []any{"Observe", "Create", "Update", "LateInitialize"}, "Delete": []any{"*"},
					}},
					{Code: "C442", Op: v2map.OpManagementPolicies, Path: "spec.deletionPolicy"},
				},
			},
		},
		"PatchOfWholeProviderConfigRef": {
			reason: "A patch that replaces the whole providerConfigRef would drop the kind: flagged (C454); the base still gets its reference.",
			in: "    base:\n      apiVersion: s3.aws.upbound.io/v1beta1\n      kind: Bucket\n      spec:\n        forProvider: {}\n    patches:\n" +
				"    - {fromFieldPath: spec.pc, toFieldPath: spec.providerConfigRef}\n",
			want: want{
				findings: []string{"C445 spec.resources[0].base.apiVersion", "C441 spec.resources[0].base.spec.providerConfigRef.kind", "C454 spec.resources[0].patches[0].toFieldPath"},
				template: "    base:\n      apiVersion: s3.aws.m.upbound.io/v1beta1\n      kind: Bucket\n      spec:\n        forProvider: {}\n        providerConfigRef:\n          kind: ClusterProviderConfig\n    patches:\n" +
					"    - {fromFieldPath: spec.pc, toFieldPath: spec.providerConfigRef}\n",
				ops: []v2map.Op{
					{Code: "C440", Op: v2map.OpSet, Path: "apiVersion", Value: "s3.aws.m.upbound.io/v1beta1"},
					{Code: "C441", Op: v2map.OpSet, Path: "spec.providerConfigRef.kind", Value: "ClusterProviderConfig"},
				},
			},
		},
		"NestedXR": {
			reason: "A template of an XR type whose XRD is known is flagged: its type changes with its XRD (C453).",
			in:     "    base: {apiVersion: acme.io/v1, kind: XInner}\n",
			want: want{
				findings: []string{"C453 spec.resources[0].base.apiVersion"},
				template: "    base: {apiVersion: acme.io/v1, kind: XInner}\n",
			},
		},
		"AlreadyNamespaced": {
			reason: "A template of a namespaced twin already is left alone.",
			in:     "    base:\n      apiVersion: s3.aws.m.upbound.io/v1beta1\n      kind: Bucket\n      spec:\n        forProvider: {}\n",
			want: want{
				template: "    base:\n      apiVersion: s3.aws.m.upbound.io/v1beta1\n      kind: Bucket\n      spec:\n        forProvider: {}\n",
			},
		},
		"UnwrapObject": {
			reason: "--unwrap-objects composes the wrapped object: patches address it, the wrapper's labels stay where the manifest sets none, its namespace goes (C446), readiness becomes None (C456).",
			in: "    base:\n      apiVersion: kubernetes.crossplane.io/v1alpha2\n      kind: Object\n      metadata:\n        labels: {team: a, tier: wrapper}\n      spec:\n        providerConfigRef: {name: in-cluster}\n        forProvider:\n          manifest:\n            apiVersion: v1\n            kind: ConfigMap\n            metadata:\n              namespace: apps\n              labels: {tier: payload}\n            data: {a: b}\n" +
				"    patches:\n    - {fromFieldPath: spec.size, toFieldPath: spec.forProvider.manifest.data.size}\n    - {type: ToCompositeFieldPath, fromFieldPath: status.atProvider.manifest.metadata.uid, toFieldPath: status.uid}\n",
			opts: convert.Options{UnwrapObjects: true},
			want: want{
				findings: []string{"C456 spec.resources[0].base", "C446 spec.resources[0].base.metadata.namespace"},
				template: "    base:\n      apiVersion: v1\n      kind: ConfigMap\n      metadata:\n        labels: {tier: payload, team: a}\n      data: {a: b}\n" +
					"    patches:\n    - {fromFieldPath: spec.size, toFieldPath: data.size}\n    - {type: ToCompositeFieldPath, fromFieldPath: metadata.uid, toFieldPath: status.uid}\n    readinessChecks:\n    - type: None\n",
				ops: []v2map.Op{
					{Code: "C456", Op: v2map.OpUnwrap, Path: "spec.forProvider.manifest"},
					{Code: "C446", Op: v2map.OpDelete, Path: "metadata.namespace"},
				},
			},
		},
		"UnwrapClusterScoped": {
			reason: "An unwrapped Namespace is a cluster-scoped kind: refused in a namespaced XR (C448).",
			in:     "    base:\n      apiVersion: kubernetes.crossplane.io/v1alpha2\n      kind: Object\n      spec:\n        forProvider:\n          manifest: {apiVersion: v1, kind: Namespace}\n",
			opts:   convert.Options{UnwrapObjects: true},
			want: want{
				findings: []string{"C456 spec.resources[0].base", "C448 spec.resources[0].base.kind"},
				template: "    base: {apiVersion: v1, kind: Namespace}\n    readinessChecks:\n    - type: None\n",
				ops:      []v2map.Op{{Code: "C456", Op: v2map.OpUnwrap, Path: "spec.forProvider.manifest"}},
			},
		},
		"UnwrapBlocked": {
			reason: "An Object whose references need the wrapper stays one (C457), as the namespaced Object.",
			in:     "    base:\n      apiVersion: kubernetes.crossplane.io/v1alpha2\n      kind: Object\n      spec:\n        references:\n        - dependsOn: {name: other}\n        forProvider:\n          manifest: {apiVersion: v1, kind: ConfigMap}\n",
			opts:   convert.Options{UnwrapObjects: true},
			want: want{
				findings: []string{"C457 spec.resources[0].base.kind", "C440 spec.resources[0].base.apiVersion"},
				template: "    base:\n      apiVersion: kubernetes.m.crossplane.io/v1alpha1\n      kind: Object\n      spec:\n        references:\n        - dependsOn: {name: other}\n        forProvider:\n          manifest: {apiVersion: v1, kind: ConfigMap}\n",
				ops:      []v2map.Op{{Code: "C440", Op: v2map.OpSet, Path: "apiVersion", Value: "kubernetes.m.crossplane.io/v1alpha1"}},
			},
		},
		"UnwrapBlockedByPatch": {
			reason: "A patch outside the manifest (here the ProviderConfig: maybe another cluster) keeps the wrapper.",
			in:     "    base:\n      apiVersion: kubernetes.crossplane.io/v1alpha2\n      kind: Object\n      spec:\n        forProvider:\n          manifest: {apiVersion: v1, kind: ConfigMap}\n    patches:\n    - {fromFieldPath: spec.cluster, toFieldPath: spec.providerConfigRef.name}\n",
			opts:   convert.Options{UnwrapObjects: true},
			want: want{
				findings: []string{"C457 spec.resources[0].base.kind", "C440 spec.resources[0].base.apiVersion", "C441 spec.resources[0].base.spec.providerConfigRef.kind"},
				template: "    base:\n      apiVersion: kubernetes.m.crossplane.io/v1alpha1\n      kind: Object\n      spec:\n        forProvider:\n          manifest: {apiVersion: v1, kind: ConfigMap}\n        providerConfigRef:\n          kind: ClusterProviderConfig\n    patches:\n    - {fromFieldPath: spec.cluster, toFieldPath: spec.providerConfigRef.name}\n",
				ops: []v2map.Op{
					{Code: "C440", Op: v2map.OpSet, Path: "apiVersion", Value: "kubernetes.m.crossplane.io/v1alpha1"},
					{Code: "C441", Op: v2map.OpSet, Path: "spec.providerConfigRef.kind", Value: "ClusterProviderConfig"},
				},
			},
		},
		"ClusterScopedXR": {
			reason: "A Cluster-scoped XR keeps its templates: cluster-scoped managed resources are still served.",
			in:     "    base:\n      apiVersion: s3.aws.upbound.io/v1beta1\n      kind: Bucket\n      metadata: {namespace: x}\n      spec:\n        deletionPolicy: Orphan\n        forProvider: {}\n",
			scope:  scopeCluster,
			want: want{
				template: "    base:\n      apiVersion: s3.aws.upbound.io/v1beta1\n      kind: Bucket\n      metadata: {namespace: x}\n      spec:\n        deletionPolicy: Orphan\n        forProvider: {}\n",
			},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			tc.opts.Target = crossplane.V2
			c := passComposition(t, passHead+tpl+tc.in+"---\n"+innerXRD, tc.opts)
			c.scope = tc.scope
			res := yamledit.Resolve(yamledit.Get(specOf(c), "resources")).Content[0]
			before := baseData(t, res)
			ops := c.v2Template(res, "a")
			got := want{findings: findings(c), ops: ops}
			got.template, _ = strings.CutPrefix(output(t, c), passHead+tpl)
			if diff := cmp.Diff(tc.want, got, cmp.AllowUnexported(want{}), cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("\n%s\nv2Template(...): -want, +got:\n%s", tc.reason, diff)
			}
			checkOpsMatchEdit(t, name, before, ops, baseData(t, res))
		})
	}
}

func TestV2ClusterOnly(t *testing.T) {
	type want struct {
		why string
		ok  bool
	}
	cases := map[string]struct {
		reason string
		base   string
		opts   convert.Options
		want   want
	}{
		"Twin": {
			reason: "A managed resource with a namespaced twin fits a namespaced XR.",
			base:   "{apiVersion: s3.aws.upbound.io/v1beta1, kind: Bucket, spec: {forProvider: {}}}",
		},
		"NamespacedKind": {
			reason: "A ConfigMap fits a namespaced XR.",
			base:   "{apiVersion: v1, kind: ConfigMap}",
		},
		"ForeignNamespace": {
			reason: "A template that sets a namespace needs a Cluster XR to keep it.",
			base:   "{apiVersion: v1, kind: ConfigMap, metadata: {namespace: apps}}",
			want:   want{why: `it sets metadata.namespace "apps"`, ok: true},
		},
		"ClusterScopedKind": {
			reason: "A ClusterRole needs a Cluster XR.",
			base:   "{apiVersion: rbac.authorization.k8s.io/v1, kind: ClusterRole}",
			want:   want{why: "it composes rbac.authorization.k8s.io/v1 ClusterRole, which is cluster-scoped (it is a cluster-scoped kind)", ok: true},
		},
		"ManagedWithoutTwin": {
			reason: "A managed resource of the community provider-aws has no namespaced twin.",
			base:   "{apiVersion: ec2.aws.crossplane.io/v1beta1, kind: VPC, spec: {forProvider: {}}}",
			want:   want{why: "it composes ec2.aws.crossplane.io/v1beta1 VPC, which is cluster-scoped (the built-in table of provider families: the classic provider-aws has no namespaced managed resources in any release)", ok: true},
		},
		"TwinInCRDs": {
			reason: "The provider CRDs give a twin the rule does not know.",
			base:   "{apiVersion: widget.acme.example.com/v1, kind: Widget, spec: {forProvider: {}}}",
			opts:   convert.Options{ProviderCRDs: []map[string]any{crd("widget.acme.m.example.com", "Widget", "Namespaced", "v1")}},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			c := passComposition(t, passHead+"  resources:\n  - name: a\n    base: "+tc.base+"\n", tc.opts)
			res := yamledit.Resolve(yamledit.Get(specOf(c), "resources")).Content[0]
			var got want
			got.why, got.ok = c.v2ClusterOnly(res)
			if diff := cmp.Diff(tc.want, got, cmp.AllowUnexported(want{})); diff != "" {
				t.Errorf("\n%s\nv2ClusterOnly(...): -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}

// TestV2TemplateShared converts two templates that share their base
// through an anchor: each gets its own ops, the ops of both state the
// edit, and the aliases become copies.
func TestV2TemplateShared(t *testing.T) {
	in := passHead + "  resources:\n  - name: a\n    base: &b\n      apiVersion: s3.aws.upbound.io/v1beta1\n      kind: Bucket\n      spec:\n        deletionPolicy: Orphan\n        forProvider: &fp {region: eu-west-1}\n" +
		"  - name: b\n    base: *b\n  - name: c\n    base:\n      apiVersion: s3.aws.upbound.io/v1beta1\n      kind: BucketPolicy\n      spec:\n        forProvider: *fp\n"
	c := passComposition(t, in, convert.Options{Target: crossplane.V2})
	res := yamledit.Resolve(yamledit.Get(specOf(c), "resources")).Content
	var got [][]v2map.Op
	for _, r := range res {
		before := baseData(t, r)
		name, _ := yamledit.Str(yamledit.Get(r, "name"))
		ops := c.v2Template(r, name)
		checkOpsMatchEdit(t, name, before, ops, baseData(t, r))
		got = append(got, ops)
	}
	if diff := cmp.Diff(got[0], got[1]); diff != "" {
		t.Errorf("the templates sharing a base: -ops of a, +ops of b:\n%s", diff)
	}
	if len(got[2]) == 0 {
		t.Errorf("template c, sharing forProvider: no ops")
	}
	if out := output(t, c); strings.Contains(out, "*b") || strings.Contains(out, "*fp") {
		t.Errorf("the aliases stay in the output:\n%s", out)
	}
}

// TestV2TemplateCorpus converts every template of every Composition of
// the shared corpus for a namespaced XR, and checks for each that its ops,
// applied to the base as it was, give the base as it is now: the edit of
// the template and the mapping verify applies are the same rule.
func TestV2TemplateCorpus(t *testing.T) {
	files := corpusFiles(t)
	for _, tc := range []struct {
		name string
		opts convert.Options
	}{
		{"Defaults", convert.Options{Target: crossplane.V2}},
		{"UnwrapProviderConfig", convert.Options{Target: crossplane.V2, UnwrapObjects: true, ProviderConfigKind: convert.KindProviderConfig}},
	} {
		name, opts := tc.name, tc.opts
		t.Run(name, func(t *testing.T) { v2TemplateCorpus(t, files, opts) })
	}
}

func v2TemplateCorpus(t *testing.T, files []corpusFile, opts convert.Options) {
	templates, edited := 0, 0
	var diags []convert.Diagnostic
	for _, f := range files {
		cs := compositions(t, f.data, opts)
		for _, c := range cs {
			res := yamledit.Resolve(yamledit.Get(specOf(c), "resources"))
			if !yamledit.IsSeq(res) {
				continue
			}
			for j, tn := range res.Content {
				tn = yamledit.Resolve(tn)
				if !yamledit.IsMap(yamledit.Get(tn, "base")) || yamledit.HasMerge(yamledit.Get(tn, "base")) {
					continue
				}
				name, _ := yamledit.Str(yamledit.Get(tn, "name"))
				before := baseData(t, tn)
				ops := c.v2Template(tn, name)
				templates++
				if len(ops) > 0 {
					edited++
				}
				checkOpsMatchEdit(t, f.rel+": "+c.Name()+": "+idx("spec.resources", j), before, ops, baseData(t, tn))
			}
		}
		if len(cs) > 0 {
			diags = append(diags, cs[0].Diagnostics()...)
		}
	}
	t.Logf("findings: %s", codeCounts(diags))
	if templates == 0 || edited == 0 {
		t.Errorf("the corpus gave %d templates, %d of them edited: want some of each", templates, edited)
	}
	t.Logf("%d templates, %d edited", templates, edited)
}

// codeCounts returns "CODE:N" for each code of diags, in code order.
func codeCounts(diags []convert.Diagnostic) string {
	n := map[convert.Code]int{}
	for _, d := range diags {
		n[d.Code]++
	}
	var out []string
	for _, c := range convert.Registry {
		if n[c.Code] > 0 {
			out = append(out, fmt.Sprintf("%s:%d", c.Code, n[c.Code]))
		}
	}
	return strings.Join(out, " ")
}

// TestV2TemplateGolden converts the templates of a platform Composition for
// a namespaced XR, with the CRDs of the file as --provider-crds, and
// compares the document, the findings and the ops of each template with
// the golden file.
func TestV2TemplateGolden(t *testing.T) {
	const dir = "testdata/templates"
	in, err := os.ReadFile(filepath.Join(dir, "input.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var crds []map[string]any
	for _, d := range manifest.Split(in)[1:] {
		obj, err := d.Decode()
		if err != nil {
			t.Fatal(err)
		}
		crds = append(crds, obj)
	}
	for range 2 { // Twice: the output must not change between runs.
		c := passComposition(t, string(in), convert.Options{Target: crossplane.V2, ProviderCRDs: crds})
		var b strings.Builder
		for _, tn := range yamledit.Resolve(yamledit.Get(specOf(c), "resources")).Content {
			name, _ := yamledit.Str(yamledit.Get(tn, "name"))
			ops := c.v2Template(tn, name)
			j, err := json.Marshal(v2map.Resource{Name: name, Ops: ops})
			if err != nil {
				t.Fatal(err)
			}
			fmt.Fprintf(&b, "# ops: %s\n", j)
		}
		for _, d := range c.Diagnostics() {
			d.File = "input.yaml"
			fmt.Fprintf(&b, "# %s\n", d)
		}
		b.WriteString(output(t, c))
		testutil.Golden(t, filepath.Join(dir, "golden.yaml"), []byte(b.String()))
	}
}
