package crdschema

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestStored(t *testing.T) {
	type want struct {
		obj map[string]any
		err error
	}
	cases := map[string]struct {
		reason string
		obj    string
		want   want
	}{
		"DefaultsPruningNulls": {
			reason: "The API server applies the schema's defaults, prunes undeclared fields and drops the nulls of fields that are not nullable.",
			obj: `
apiVersion: store.m.example.org/v1beta1
kind: Bucket
metadata: {name: b, namespace: team-a}
spec:
  forProvider: {region: eu-west-1, size: null, undeclared: x}
  writeConnectionSecretToRef: null
status: {kept: x}
`,
			want: want{obj: obj(t, `
apiVersion: store.m.example.org/v1beta1
kind: Bucket
metadata: {name: b, namespace: team-a}
spec:
  forProvider: {region: eu-west-1}
  managementPolicies: ['*']
  providerConfigRef: {kind: ClusterProviderConfig, name: default}
status: {kept: x}
`)},
		},
		"UnknownKind": {
			reason: "A kind without a CRD is an error.",
			obj:    "{apiVersion: example.org/v1, kind: Other, metadata: {name: o}}",
			want:   want{err: ErrUnknownKind},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			in := obj(t, tc.obj)
			before := obj(t, tc.obj)
			got, err := schemas(t).Stored(in)
			if !errors.Is(err, tc.want.err) {
				t.Fatalf("%s\nStored(): error %v, want %v", tc.reason, err, tc.want.err)
			}
			if diff := cmp.Diff(tc.want.obj, got); diff != "" {
				t.Errorf("%s\nStored(): -want, +got:\n%s", tc.reason, diff)
			}
			if diff := cmp.Diff(before, in); diff != "" {
				t.Errorf("Stored() changed its input: -before, +after:\n%s", diff)
			}
		})
	}
}
