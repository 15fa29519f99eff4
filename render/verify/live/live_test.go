package live

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/yaml"

	"github.com/xpmigrate/xpmigrate/convert"
	"github.com/xpmigrate/xpmigrate/internal/crossplane"
	"github.com/xpmigrate/xpmigrate/render/cluster"
	"github.com/xpmigrate/xpmigrate/render/verify"
)

const legacyYAML = `apiVersion: apiextensions.crossplane.io/v1
kind: Composition
metadata:
  name: buckets
spec:
  compositeTypeRef:
    apiVersion: example.org/v1alpha1
    kind: XThing
  resources:
  - name: bucket
    base:
      apiVersion: example.org/v1
      kind: Bucket
      spec:
        forProvider:
          region: us-east-1
    patches:
    - type: FromCompositeFieldPath
      fromFieldPath: spec.size
      toFieldPath: spec.forProvider.size
    - type: ToCompositeFieldPath
      fromFieldPath: status.atProvider.arn
      toFieldPath: status.arn
`

func obj(t *testing.T, s string) *unstructured.Unstructured {
	t.Helper()
	o := map[string]any{}
	if err := yaml.Unmarshal([]byte(s), &o); err != nil {
		t.Fatal(err)
	}
	return &unstructured.Unstructured{Object: o}
}

// composite is XR x (size small) and its Bucket as the legacy composer
// wrote it, with forProvider as given.
func composite(t *testing.T, arn, forProvider string) *cluster.Composite {
	xr := obj(t, `apiVersion: example.org/v1alpha1
kind: XThing
metadata:
  name: x
  uid: u-1
  labels: {crossplane.io/composite: x}
spec:
  size: small
  compositionRef: {name: buckets}
  resourceRefs: [{apiVersion: example.org/v1, kind: Bucket, name: x-bucket}]
status:
  arn: `+arn+`
  conditions:
  - {type: Synced, status: "True", reason: ReconcileSuccess}
  - {type: Ready, status: "True", reason: Available}
`)
	bucket := obj(t, `apiVersion: example.org/v1
kind: Bucket
metadata:
  name: x-bucket
  labels: {crossplane.io/composite: x, crossplane.io/claim-name: "", crossplane.io/claim-namespace: ""}
  annotations: {crossplane.io/composition-resource-name: bucket}
  ownerReferences: [{apiVersion: example.org/v1alpha1, kind: XThing, name: x, uid: u-1, controller: true, blockOwnerDeletion: true}]
spec:
  forProvider: `+forProvider+`
status:
  atProvider: {arn: "arn:x"}
  conditions:
  - {type: Ready, status: "True", reason: Available}
`)
	return &cluster.Composite{XR: xr, Composed: []cluster.Composed{{
		Ref: cluster.Ref{APIVersion: "example.org/v1", Kind: "Bucket", Name: "x-bucket"}, State: cluster.Found, Object: bucket, ResourceName: "bucket",
	}}}
}

// TestCheck checks one live XR (the per-XR step of Verify, over values:
// reading the cluster is tested against a real API server in the e2e tier).
func TestCheck(t *testing.T) {
	type want struct {
		Conversion verify.Verdict
		Emulation  []string
		Drift      []string
	}
	cases := map[string]struct {
		reason string
		live   *cluster.Composite
		want   want
	}{
		"Reproduced": {
			reason: "A live XR the legacy render reproduces, whose conversion is equivalent, has no finding.",
			live:   composite(t, "arn:x", "{region: us-east-1, size: small}"),
			want:   want{Conversion: verify.Equivalent},
		},
		"HandEdit": {
			reason: "A field the template owns edited by hand is an emulation difference, a field no template sets is drift; neither touches the conversion.",
			live:   composite(t, "arn:x", "{region: eu-west-1, size: small, tags: {a: b}}"),
			want: want{
				Conversion: verify.Equivalent,
				Emulation:  []string{`bucket (Bucket x-bucket) spec.forProvider.region: live "eu-west-1", rendered "us-east-1"`},
				Drift:      []string{`bucket (Bucket x-bucket) spec.forProvider.tags.a: live "b", rendered (none)`},
			},
		},
		"XRStatusNotWrittenByPatch": {
			reason: "An XR status field that differs from what its ToComposite patch writes is an emulation difference.",
			live:   composite(t, "arn:stale", "{region: us-east-1, size: small}"),
			want: want{
				Conversion: verify.Equivalent,
				Emulation:  []string{`XR status.arn: live "arn:stale", rendered "arn:x"`},
			},
		},
	}
	legacy := verify.Document{Path: "legacy.yaml", Data: []byte(legacyYAML)}
	converted, err := testConvert(t)(legacy.Data, crossplane.V1)
	if err != nil {
		t.Fatal(err)
	}
	comp, err := composition(legacy)
	if err != nil {
		t.Fatal(err)
	}
	p := &pair{legacy: legacy, converted: verify.Document{Path: "converted.yaml", Data: converted}, obj: comp.Object}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			x, vr, err := check(context.Background(), p, tc.live, nil, Options{})
			if err != nil {
				t.Fatalf("check(...): %v", err)
			}
			got := want{Conversion: vr.Verdict}
			for _, f := range x.Emulation {
				got.Emulation = append(got.Emulation, f.String())
			}
			if x.EmulationError != "" {
				got.Emulation = append(got.Emulation, "error: "+x.EmulationError)
			}
			for _, f := range x.Drift {
				got.Drift = append(got.Drift, f.String())
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("\n%s\ncheck(...): -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}

// testConvert converts with xpmigrate's converter, as the command does.
func testConvert(t *testing.T) verify.Converter {
	return func(b []byte, target crossplane.Target) ([]byte, error) {
		res, err := convert.Convert(b, convert.Options{Target: target, AckUnnamed: true})
		if err != nil {
			return nil, err
		}
		if res.Failed() {
			t.Fatalf("convert: %v", res.Diagnostics)
		}
		return res.Output, nil
	}
}
