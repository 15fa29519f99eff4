package verify

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/xpmigrate/xpmigrate/convert"
	"github.com/xpmigrate/xpmigrate/convert/v2native"
	"github.com/xpmigrate/xpmigrate/internal/crossplane"
	"github.com/xpmigrate/xpmigrate/internal/jsonobj"
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

// item6Legacy reads the claim's name and namespace with Required patches.
const item6Legacy = `apiVersion: apiextensions.crossplane.io/v1
kind: Composition
metadata:
  name: xbuckets
spec:
  compositeTypeRef:
    apiVersion: example.org/v1
    kind: XBucket
  resources:
  - name: bucket
    base:
      apiVersion: s3.aws.upbound.io/v1beta1
      kind: Bucket
      spec:
        forProvider:
          region: eu-west-1
    patches:
    - fromFieldPath: spec.claimRef.namespace
      toFieldPath: spec.forProvider.tags.team
      policy:
        fromFieldPath: Required
    - fromFieldPath: spec.claimRef.name
      toFieldPath: metadata.annotations[crossplane.io/external-name]
      policy:
        fromFieldPath: Required
    - fromFieldPath: spec.size
      toFieldPath: spec.forProvider.tags.size
`

const item6XRD = `apiVersion: apiextensions.crossplane.io/v1
kind: CompositeResourceDefinition
metadata:
  name: xbuckets.example.org
spec:
  group: example.org
  names:
    kind: XBucket
    plural: xbuckets
  claimNames:
    kind: Bucket
    plural: buckets
  versions:
  - name: v1
    served: true
    referenceable: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              size:
                type: string
`

// TestIssue24Item6SynthesizedClaimRef: the XRs synthesized for an XRD
// that offers claims are bound to a claim, as the claim controller binds
// the XR it creates, so Required patches of spec.claimRef fire on both
// sides instead of failing every template with D23.
func TestIssue24Item6SynthesizedClaimRef(t *testing.T) {
	cases := map[string]struct {
		reason  string
		xrd     string
		wantRef map[string]any
	}{
		"OffersClaims": {
			reason: "spec.claimRef names the claim kind in the XRD's group and version, the sample's name and namespace default.",
			xrd:    item6XRD,
			wantRef: map[string]any{
				"apiVersion": "example.org/v1", "kind": "Bucket", "name": "synthesized-0", "namespace": "default",
			},
		},
		"NoClaims": {
			reason: "An XRD without claimNames gives XRs without a claim.",
			xrd:    strings.Replace(item6XRD, "  claimNames:\n    kind: Bucket\n    plural: buckets\n", "", 1),
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			xrd := objects(t, tc.xrd)[0]
			legacy := Document{Path: "legacy.yaml", Data: []byte(item6Legacy)}
			samples, err := Synthesize(xrd, legacy, 2)
			if err != nil {
				t.Fatalf("Synthesize(...): %v", err)
			}
			ref, _ := jsonobj.Value(samples[0].XR, "spec", "claimRef").(map[string]any)
			if diff := cmp.Diff(tc.wantRef, ref, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("\n%s\nSynthesize(...): spec.claimRef: -want, +got:\n%s", tc.reason, diff)
			}
			if tc.wantRef == nil {
				return
			}
			r, err := Verify(context.Background(), legacy, Document{}, samples, Options{Convert: Convert, XRD: xrd})
			if err != nil {
				t.Fatalf("Verify(...): %v", err)
			}
			if diff := cmp.Diff([]string(nil), summary(r)); diff != "" {
				dump(t, r)
				t.Errorf("\n%s\nVerify(...) on the synthesized XRs: differences: -want, +got:\n%s", tc.reason, diff)
			}
			for _, s := range r.Samples {
				if s.Verdict != Equivalent {
					t.Errorf("\n%s\nVerify(...): sample %s: verdict %q, want %q", tc.reason, s.Sample, s.Verdict, Equivalent)
				}
			}
		})
	}
}

// TestIssue24Item4aLongClaimNames: with --target v2, a claim whose name is
// long enough that the legacy XR's generated names are cut before their
// suffix (the API server keeps 58 characters of a generateName prefix)
// maps onto the v2 twin's names, cut the same way: nothing is
// unexplained.
func TestIssue24Item4aLongClaimNames(t *testing.T) {
	cases := map[string]struct {
		reason string
		name   string
	}{
		"Short": {
			reason: "A short claim name: nothing is cut.",
			name:   "orders-db",
		},
		"Length51": {
			reason: "51 characters: the legacy composed resources' prefix (claim, dash, suffix, dash) is 58 characters, not cut.",
			name:   strings.Repeat("a", 44) + "-orders",
		},
		"Length52": {
			reason: "52 characters: the legacy composed resources' generateName is 59 characters, cut to 58 before its suffix.",
			name:   strings.Repeat("a", 45) + "-orders",
		},
		"Length57": {
			reason: "57 characters: the legacy XR's own generateName is 58 characters, the composed resources' cut inside the XR's suffix.",
			name:   strings.Repeat("b", 50) + "-orders",
		},
		"Length60": {
			reason: "60 characters: the legacy XR's generateName is cut too, inside the claim's name.",
			name:   strings.Repeat("c", 53) + "-orders",
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			c := v2Case(t, nil)
			for i := range c.samples {
				c.samples[i].XR = deepCopyMap(c.samples[i].XR)
				setAt(c.samples[i].XR, tc.name, "metadata", "name")
			}
			r := c.verify(t)
			if diff := cmp.Diff([]string(nil), unexplainedLines(r)); diff != "" {
				dump(t, r)
				t.Errorf("\n%s\nVerify(...) unexplained: -want, +got:\n%s", tc.reason, diff)
			}
			if r.Verdict != EquivalentUpToMapping {
				t.Errorf("\n%s\nVerify(...).Verdict: want %s, got %s", tc.reason, EquivalentUpToMapping, r.Verdict)
			}
		})
	}
}

// TestIssue24Item4bDeletionPolicyPatch: with --target v2, the converter's
// rewrite of a deletionPolicy patch into a managementPolicies patch
// through a map (C450) is declared in the v2 mapping, so a sample whose
// patch writes Delete (mapped to ["*"]) or Orphan is explained, and the
// Composition is not held back.
func TestIssue24Item4bDeletionPolicyPatch(t *testing.T) {
	c := loadCase(t, "testdata/v2")
	legacy := strings.Replace(string(c.legacy.Data), `        - fromFieldPath: spec.claimRef.namespace
          toFieldPath: metadata.labels[example.org/team]
`, `        - fromFieldPath: spec.claimRef.namespace
          toFieldPath: metadata.labels[example.org/team]
        - fromFieldPath: spec.parameters.deletionPolicy
          toFieldPath: spec.deletionPolicy
`, 1)
	xrd := string(readFile(t, "testdata/v2/xrd.yaml"))
	res, err := v2native.Convert([]byte(legacy+"---\n"+xrd), convert.Options{Target: crossplane.V2})
	if err != nil {
		t.Fatal(err)
	}
	cases := map[string]struct {
		reason string
		policy string
	}{
		"Delete": {reason: "A patch that writes Delete: the v2 patch writes [\"*\"], as C450 declares.", policy: "Delete"},
		"Orphan": {reason: "A patch that writes Orphan: every policy but Delete.", policy: "Orphan"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			samples := make([]Sample, len(c.samples))
			for i, s := range c.samples {
				s.XR = deepCopyMap(s.XR)
				setAt(s.XR, tc.policy, "spec", "parameters", "deletionPolicy")
				samples[i] = s
			}
			o := c.opts
			o.Target = crossplane.V2
			r, err := Verify(context.Background(), Document{Path: "legacy.yaml", Data: []byte(legacy)}, Document{Path: "converted.yaml", Data: res.Output}, samples, o)
			if err != nil {
				t.Fatalf("Verify(...): %v", err)
			}
			if diff := cmp.Diff([]string(nil), unexplainedLines(r)); diff != "" {
				dump(t, r)
				t.Errorf("\n%s\nVerify(...) unexplained: -want, +got:\n%s", tc.reason, diff)
			}
			if r.Verdict != EquivalentUpToMapping || r.Fails(false) {
				t.Errorf("\n%s\nVerify(...): verdict %s (fails %t), want %s", tc.reason, r.Verdict, r.Fails(false), EquivalentUpToMapping)
			}
		})
	}
}
