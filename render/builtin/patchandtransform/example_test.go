package patchandtransform_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"

	fnv1 "github.com/crossplane/function-sdk-go/proto/v1"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/xpmigrate/xpmigrate/render/builtin/patchandtransform"
)

// The function renders a bucket from its template, patching the region from
// the XR. protojson's whitespace is unstable on purpose, so the example
// compacts it.
func Example() {
	input, _ := structpb.NewStruct(map[string]any{
		"apiVersion": "pt.fn.crossplane.io/v1beta1",
		"kind":       "Resources",
		"resources": []any{map[string]any{
			"name": "bucket",
			"base": map[string]any{"apiVersion": "s3.aws.upbound.io/v1beta1", "kind": "Bucket"},
			"patches": []any{map[string]any{
				"fromFieldPath": "spec.region",
				"toFieldPath":   "spec.forProvider.region",
			}},
		}},
	})
	xr, _ := structpb.NewStruct(map[string]any{
		"apiVersion": "example.org/v1",
		"kind":       "XBucket",
		"spec":       map[string]any{"region": "eu-west-1"},
	})

	rsp, err := patchandtransform.Function{}.RunFunction(context.Background(), &fnv1.RunFunctionRequest{
		Meta:     &fnv1.RequestMeta{Tag: "t1"},
		Observed: &fnv1.State{Composite: &fnv1.Resource{Resource: xr}},
		Input:    input,
	})
	if err != nil {
		fmt.Println(err)
		return
	}

	b, _ := protojson.Marshal(rsp)
	var out bytes.Buffer
	_ = json.Compact(&out, b)
	fmt.Println(out.String())

	// Output:
	// {"meta":{"tag":"t1","ttl":"60s"},"desired":{"composite":{"resource":{"apiVersion":"example.org/v1","kind":"XBucket"}},"resources":{"bucket":{"resource":{"apiVersion":"s3.aws.upbound.io/v1beta1","kind":"Bucket","spec":{"forProvider":{"region":"eu-west-1"}}}}}},"context":{"apiextensions.crossplane.io/environment":{"apiVersion":"internal.crossplane.io/v1alpha1","kind":"Environment"}}}
}
