package convert_test

import (
	"fmt"

	"github.com/xpmigrate/xpmigrate/convert"
)

// A legacy Composition becomes a pipeline; the comment and the template's
// layout stay, the defaults the function needs are written out.
func ExampleConvert() {
	in := []byte(`apiVersion: apiextensions.crossplane.io/v1
kind: Composition
metadata:
  name: xbuckets.acme.io
spec:
  compositeTypeRef: {apiVersion: acme.io/v1, kind: XBucket}
  resources:
  - name: bucket
    base: {apiVersion: s3.aws.upbound.io/v1beta1, kind: Bucket}
    patches:
    - fromFieldPath: spec.region   # where the bucket lives
      toFieldPath: spec.forProvider.region
`)
	res, err := convert.Convert(in, convert.Options{Source: "bucket.yaml"})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(string(res.Output))
	for _, d := range res.Diagnostics {
		fmt.Println(d.Code, d.Severity)
	}
	// Output:
	// apiVersion: apiextensions.crossplane.io/v1
	// kind: Composition
	// metadata:
	//   name: xbuckets.acme.io
	// spec:
	//   compositeTypeRef: {apiVersion: acme.io/v1, kind: XBucket}
	//   mode: Pipeline
	//   pipeline:
	//   - step: patch-and-transform
	//     functionRef:
	//       name: function-patch-and-transform
	//     input:
	//       apiVersion: pt.fn.crossplane.io/v1beta1
	//       kind: Resources
	//       resources:
	//       - name: bucket
	//         base: {apiVersion: s3.aws.upbound.io/v1beta1, kind: Bucket}
	//         patches:
	//         - type: FromCompositeFieldPath
	//           fromFieldPath: spec.region   # where the bucket lives
	//           toFieldPath: spec.forProvider.region
	// C318 info
	// C319 info
}
