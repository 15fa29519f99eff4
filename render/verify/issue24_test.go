package verify

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// item2Legacy composes a database whose connection Secret is named by a
// patch, and publishes a key of that Secret as the XR's connection
// detail.
const item2Legacy = `apiVersion: apiextensions.crossplane.io/v1
kind: Composition
metadata:
  name: xdatabases
spec:
  compositeTypeRef:
    apiVersion: example.org/v1
    kind: XDatabase
  writeConnectionSecretsToNamespace: crossplane-system
  resources:
  - name: db
    base:
      apiVersion: rds.aws.upbound.io/v1beta1
      kind: Instance
      spec:
        forProvider:
          region: eu-west-1
        writeConnectionSecretToRef:
          namespace: crossplane-system
    patches:
    - fromFieldPath: metadata.uid
      toFieldPath: spec.writeConnectionSecretToRef.name
      transforms:
      - type: string
        string:
          fmt: "%s-db"
    connectionDetails:
    - name: password
      fromConnectionSecretKey: attribute.password
    - name: username
      fromConnectionSecretKey: username
`

const item2XR = `apiVersion: example.org/v1
kind: XDatabase
metadata:
  name: db1
  uid: 0a1b2c3d
spec: {}
`

// item2Observed is the database as it exists, and item2Secret the Secret
// its provider wrote.
const item2Observed = `apiVersion: rds.aws.upbound.io/v1beta1
kind: Instance
metadata:
  name: db1-abcde
  annotations:
    crossplane.io/composition-resource-name: db
  labels:
    crossplane.io/composite: db1
  ownerReferences:
  - apiVersion: example.org/v1
    kind: XDatabase
    name: db1
    uid: 0a1b2c3d
    controller: true
    blockOwnerDeletion: true
spec:
  forProvider:
    region: eu-west-1
  writeConnectionSecretToRef:
    name: 0a1b2c3d-db
    namespace: crossplane-system
`

const item2Secret = `apiVersion: v1
kind: Secret
metadata:
  name: 0a1b2c3d-db
  namespace: crossplane-system
data:
  attribute.password: czNjcjN0
  username: YWRtaW4=
`

// TestIssue24Item2ConnectionSecretsReachThePipeline: the connection
// Secrets of observed composed resources (-o, -e) reach both composers, as
// Crossplane v1.20's function composer reads them for the function
// pipeline, so a faithful conversion of fromConnectionSecretKey details
// is equivalent.
func TestIssue24Item2ConnectionSecretsReachThePipeline(t *testing.T) {
	cases := map[string]struct {
		reason string
		extra  string
		want   []string
	}{
		"SecretGiven": {
			reason: "With the Secret among the extra resources both sides publish its keys.",
			extra:  item2Secret,
			want:   nil,
		},
		"NoSecret": {
			reason: "Without it neither side has a value to publish.",
			want:   nil,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			o := Options{Convert: Convert, Observed: objects(t, item2Observed)}
			if tc.extra != "" {
				o.Extra = objects(t, tc.extra)
			}
			r := verifyYAML(t, item2Legacy, "", item2XR, o)
			if diff := cmp.Diff(tc.want, summary(r)); diff != "" {
				dump(t, r)
				t.Errorf("\n%s\nVerify(...): differences: -want, +got:\n%s", tc.reason, diff)
			}
			if got := string(r.Samples[0].Verdict); got != string(Equivalent) {
				t.Errorf("\n%s\nVerify(...): verdict %q, want %q", tc.reason, got, Equivalent)
			}
		})
	}
}
