package legacy_test

import (
	"fmt"

	"sigs.k8s.io/yaml"

	"github.com/xpmigrate/xpmigrate/patchandtransform/native"
	"github.com/xpmigrate/xpmigrate/render/legacy"
)

// A first reconcile: the bucket is created under a generated name and the XR
// reports it as not yet ready.
func Example() {
	c, err := native.Decode([]byte(`
apiVersion: apiextensions.crossplane.io/v1
kind: Composition
metadata: {name: buckets}
spec:
  compositeTypeRef: {apiVersion: example.org/v1alpha1, kind: XBucket}
  resources:
  - name: bucket
    base:
      apiVersion: s3.aws.upbound.io/v1beta1
      kind: Bucket
      spec: {forProvider: {region: us-east-2}}
    patches:
    - {fromFieldPath: spec.region, toFieldPath: spec.forProvider.region}
    - {type: ToCompositeFieldPath, fromFieldPath: spec.forProvider.region, toFieldPath: status.region}
`))
	if err != nil {
		fmt.Println(err)
		return
	}
	c.Default()

	xr := map[string]any{
		"apiVersion": "example.org/v1alpha1",
		"kind":       "XBucket",
		"metadata":   map[string]any{"name": "demo", "uid": "5a4c1e0b"},
		"spec":       map[string]any{"region": "eu-west-1"},
	}
	out, err := legacy.Compose(xr, c, nil, legacy.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, o := range []map[string]any{out.XR, out.Composed[0].Desired} {
		b, _ := yaml.Marshal(o)
		fmt.Printf("---\n%s", b)
	}

	// Output:
	// ---
	// apiVersion: example.org/v1alpha1
	// kind: XBucket
	// metadata:
	//   name: demo
	// status:
	//   conditions:
	//   - lastTransitionTime: "2024-01-01T00:00:00Z"
	//     reason: ReconcileSuccess
	//     status: "True"
	//     type: Synced
	//   - lastTransitionTime: "2024-01-01T00:00:00Z"
	//     message: 'Unready resources: bucket'
	//     reason: Creating
	//     status: "False"
	//     type: Ready
	//   region: eu-west-1
	// ---
	// apiVersion: s3.aws.upbound.io/v1beta1
	// kind: Bucket
	// metadata:
	//   annotations:
	//     crossplane.io/composition-resource-name: bucket
	//   generateName: demo-
	//   labels:
	//     crossplane.io/claim-name: ""
	//     crossplane.io/claim-namespace: ""
	//     crossplane.io/composite: demo
	//   name: demo-8475c
	//   ownerReferences:
	//   - apiVersion: example.org/v1alpha1
	//     blockOwnerDeletion: true
	//     controller: true
	//     kind: XBucket
	//     name: demo
	//     uid: 5a4c1e0b
	// spec:
	//   forProvider:
	//     region: eu-west-1
}
