package crdschema

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"sigs.k8s.io/yaml"

	"github.com/xpmigrate/xpmigrate/internal/manifest"
	"github.com/xpmigrate/xpmigrate/internal/xcrd"
)

func schemas(t *testing.T) *Schemas {
	t.Helper()
	docs, err := manifest.LoadPath("testdata/bucket.m.yaml")
	if err != nil {
		t.Fatal(err)
	}
	s := New()
	for _, crd := range manifest.Objects(docs) {
		if _, err := s.Add(crd); err != nil {
			t.Fatal(err)
		}
	}
	return s
}

func obj(t *testing.T, y string) map[string]any {
	t.Helper()
	var o map[string]any
	if err := yaml.Unmarshal([]byte(y), &o); err != nil {
		t.Fatal(err)
	}
	return o
}

const bucket = `
apiVersion: store.m.example.org/v1beta1
kind: Bucket
metadata: {name: b, namespace: team-a}
spec:
  forProvider: {region: eu-west-1}
`

func TestValidate(t *testing.T) {
	type want struct {
		errs []string
		err  error
	}
	cases := map[string]struct {
		reason string
		obj    string
		old    string
		want   want
	}{
		"Valid": {
			reason: "A complete object is accepted; an absent providerConfigRef is defaulted whole.",
			obj:    bucket,
		},
		"ProviderConfigRefWithoutKind": {
			reason: "A providerConfigRef that is set is not defaulted: its kind is required.",
			obj:    bucket + "  providerConfigRef: {name: default}\n",
			want:   want{errs: []string{"spec.providerConfigRef.kind: Required value"}},
		},
		"BadManagementPolicy": {
			reason: "A management policy outside the enum is refused, naming the item.",
			obj:    bucket + "  managementPolicies: [Observe, Orphan]\n",
			want:   want{errs: []string{`spec.managementPolicies[1]: Unsupported value: "Orphan": supported values: "Observe", "Create", "Update", "Delete", "LateInitialize", "*"`}},
		},
		"WrongType": {
			reason: "A value of the wrong type is refused.",
			obj:    bucket + "  writeConnectionSecretToRef: {name: 3}\n",
			want:   want{errs: []string{`spec.writeConnectionSecretToRef.name: Invalid value: "number": spec.writeConnectionSecretToRef.name in body must be of type string: "number"`}},
		},
		"UnknownField": {
			reason: "A field the schema does not declare is refused (kubectl's strict field validation).",
			obj:    bucket + "  deletionPolicy: Orphan\n",
			want:   want{errs: []string{"spec.deletionPolicy: field not declared in schema"}},
		},
		"CELRule": {
			reason: "The CRD's CEL rule is evaluated: a creating policy needs the region.",
			obj: `
apiVersion: store.m.example.org/v1beta1
kind: Bucket
metadata: {name: b, namespace: team-a}
spec:
  forProvider: {size: small}
`,
			want: want{errs: []string{"spec: Invalid value: spec.forProvider.region is a required parameter"}},
		},
		"CELRuleObserveOnly": {
			reason: "The same object that only observes satisfies the rule.",
			obj: `
apiVersion: store.m.example.org/v1beta1
kind: Bucket
metadata: {name: b, namespace: team-a}
spec:
  forProvider: {size: small}
  managementPolicies: [Observe]
`,
		},
		"NoNamespace": {
			reason: "A namespaced kind needs a namespace.",
			obj:    "apiVersion: store.m.example.org/v1beta1\nkind: Bucket\nmetadata: {name: b}\nspec:\n  forProvider: {region: r}\n",
			want:   want{errs: []string{"metadata.namespace: Required value"}},
		},
		"Ratcheting": {
			reason: "An update keeps what was already invalid and unchanged, as the API server's ratcheting does.",
			old:    bucket + "  managementPolicies: [Orphan]\n",
			obj:    bucket + "  managementPolicies: [Orphan]\nmetadata: {name: b, namespace: team-a, annotations: {crossplane.io/paused: \"true\"}}\n",
		},
		"UnknownKind": {
			reason: "A kind no CRD serves cannot be validated.",
			obj:    "apiVersion: store.m.example.org/v1\nkind: Bucket\nmetadata: {name: b}\n",
			want:   want{err: ErrUnknownKind},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			var old map[string]any
			if tc.old != "" {
				old = obj(t, tc.old)
			}
			got, err := schemas(t).Validate(context.Background(), obj(t, tc.obj), old)
			if diff := cmp.Diff(tc.want.err, err, cmpopts.EquateErrors()); diff != "" && !errors.Is(err, tc.want.err) {
				t.Fatalf("\n%s\nValidate(...): -want error, +got:\n%s", tc.reason, diff)
			}
			if diff := cmp.Diff(tc.want.errs, got, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("\n%s\nValidate(...): -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}

// TestCrossplaneV2CRDs: the built-in Crossplane v2.3.4 CRDs compile, and
// their CEL rules run: a v2 XRD may not offer claims.
func TestCrossplaneV2CRDs(t *testing.T) {
	crds, err := xcrd.CrossplaneV2()
	if err != nil {
		t.Fatal(err)
	}
	s := New()
	for _, crd := range crds {
		if _, err := s.Add(crd); err != nil {
			t.Fatal(err)
		}
	}
	xrd := obj(t, `
apiVersion: apiextensions.crossplane.io/v2
kind: CompositeResourceDefinition
metadata: {name: xdbs.example.org}
spec:
  group: example.org
  names: {kind: XDB, plural: xdbs}
  claimNames: {kind: DB, plural: dbs}
  versions:
  - name: v1
    served: true
    referenceable: true
    schema: {openAPIV3Schema: {type: object}}
`)
	got, err := s.Validate(context.Background(), xrd, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || !strings.Contains(got[0], "Claims aren't supported") {
		t.Errorf("a v2 XRD with claimNames: want the CEL rule's error, got %v", got)
	}
	delete(xrd["spec"].(map[string]any), "claimNames")
	if got, err := s.Validate(context.Background(), xrd, nil); err != nil || len(got) > 0 {
		t.Errorf("a v2 XRD without claimNames: want accepted, got %v, %v", got, err)
	}
}
