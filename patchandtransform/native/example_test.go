package native_test

import (
	"fmt"

	"github.com/xpmigrate/xpmigrate/patchandtransform/native"
)

func Example() {
	c, err := native.Decode([]byte(`
apiVersion: apiextensions.crossplane.io/v1
kind: Composition
metadata:
  name: buckets
spec:
  compositeTypeRef: {apiVersion: example.org/v1, kind: XBucket}
  resources:
  - name: bucket
    base: {apiVersion: s3.aws.upbound.io/v1beta1, kind: Bucket, spec: {forProvider: {size: 1}}}
    patches:
    - fromFieldPath: spec.region
      toFieldPaht: spec.forProvider.region   # misspelled: pruned, as the API server prunes it
      policy: {mergeOptions: {}}
    connectionDetails:
    - fromConnectionSecretKey: password
`))
	if err != nil {
		fmt.Println(err)
		return
	}
	c.Default()
	if errs := c.Validate(); len(errs) > 0 {
		fmt.Println(errs.ToAggregate())
		return
	}
	t := c.Templates()[0]
	p := t.Patches[0]
	fmt.Printf("patch: type %s from %s to %v, merge options set: %t\n", p.Type, *p.FromFieldPath, p.ToFieldPath, p.Policy.MergeOptions != nil)
	d := t.ConnectionDetails[0]
	fmt.Printf("connection detail: %s named %q\n", d.Type, d.Name)
	r := t.ReadinessChecks[0]
	fmt.Printf("readiness: %s %s=%s\n", r.Type, r.MatchCondition.Type, r.MatchCondition.Status)
	o, _ := t.Object()
	size := o["spec"].(map[string]any)["forProvider"].(map[string]any)["size"]
	fmt.Printf("base: %s, size is %T\n", t.Base, size)

	// Output:
	// patch: type FromCompositeFieldPath from spec.region to <nil>, merge options set: true
	// connection detail: FromConnectionSecretKey named "password"
	// readiness: MatchCondition Ready=True
	// base: {"apiVersion":"s3.aws.upbound.io/v1beta1","kind":"Bucket","spec":{"forProvider":{"size":1}}}, size is int64
}
