package verify_test

import (
	"context"
	"fmt"
	"os"

	"github.com/xpmigrate/xpmigrate/render/verify"
	"github.com/xpmigrate/xpmigrate/render/verify/format"
)

const legacy = `apiVersion: apiextensions.crossplane.io/v1
kind: Composition
metadata:
  name: buckets
spec:
  compositeTypeRef:
    apiVersion: example.org/v1
    kind: XBucket
  resources:
  - name: bucket
    base:
      apiVersion: s3.example.org/v1
      kind: Bucket
    patches:
    - fromFieldPath: spec.region
      toFieldPath: spec.forProvider.region
    - type: ToCompositeFieldPath
      fromFieldPath: spec.forProvider.region
      toFieldPath: spec.region2
`

// The conversion, with the ToComposite patch kept as is: Pipeline mode
// persists only the XR's status (D5).
const converted = `apiVersion: apiextensions.crossplane.io/v1
kind: Composition
metadata:
  name: buckets
spec:
  compositeTypeRef:
    apiVersion: example.org/v1
    kind: XBucket
  mode: Pipeline
  pipeline:
  - step: patch-and-transform
    functionRef:
      name: function-patch-and-transform
    input:
      apiVersion: pt.fn.crossplane.io/v1beta1
      kind: Resources
      resources:
      - name: bucket
        base:
          apiVersion: s3.example.org/v1
          kind: Bucket
        patches:
        - type: FromCompositeFieldPath
          fromFieldPath: spec.region
          toFieldPath: spec.forProvider.region
        - type: ToCompositeFieldPath
          fromFieldPath: spec.forProvider.region
          toFieldPath: spec.region2
`

func Example() {
	xr := map[string]any{
		"apiVersion": "example.org/v1",
		"kind":       "XBucket",
		"metadata":   map[string]any{"name": "b1"},
		"spec":       map[string]any{"region": "eu-west-1"},
	}
	rep, err := verify.Verify(context.Background(),
		verify.Document{Path: "composition.yaml", Data: []byte(legacy)},
		verify.Document{Path: "pipeline.yaml", Data: []byte(converted)},
		[]verify.Sample{{Name: "b1", XR: xr}},
		// D5 is a breaking gap: it fails unless accepted. A person who has
		// decided the lost spec write does not matter accepts it.
		verify.Options{Accept: []string{"D5"}})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, d := range rep.Samples[0].Differences {
		fmt.Printf("%s: %s %s\n", d.Title(), d.Gap.Code, d.Gap.Diagnostics)
	}
	fmt.Println("verdict:", rep.Verdict, "fails:", rep.Fails(false))

	// As a GitHub workflow command: a warning, which an unaccepted
	// breaking gap (or --strict) makes an error.
	_ = format.Write(os.Stdout, rep, format.Options{Format: format.GitHub})
	// Output:
	// XR spec.region2: D5 [C209]
	// verdict: known-gaps fails: false
	// ::warning file=composition.yaml,line=17,title=b1%3A XR spec.region2::breaking known gap, accepted (--accept), D5 (C209): a ToComposite patch writes outside the XR's status, which Pipeline mode does not persist. patch 1 (ToCompositeFieldPath spec.forProvider.region -> spec.region2) of resource "bucket" writes spec.region2; only status reaches the cluster in Pipeline mode. Fix: Write the value under status (and read it from there), or compute it where it is needed.
}
