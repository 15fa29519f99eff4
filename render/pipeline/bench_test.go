package pipeline

import (
	"context"
	"fmt"
	"testing"

	fnv1 "github.com/crossplane/function-sdk-go/proto/v1"
)

// BenchmarkCompose measures the engine alone: one in-process step that
// returns n desired resources, all observed, in both profiles.
func BenchmarkCompose(b *testing.B) {
	for _, n := range []int{1, 10, 100, 1000} {
		desired := map[string]*fnv1.Resource{}
		observed := make([]map[string]any, 0, n)
		for i := range n {
			name := fmt.Sprintf("r%04d", i)
			desired[name] = &fnv1.Resource{Resource: st(`{"apiVersion":"s3.aws.upbound.io/v1beta1","kind":"Bucket","spec":{"forProvider":{"region":"us-east-2","tags":{"a":"b","n":"1"}}}}`), Ready: fnv1.Ready_READY_TRUE}
			observed = append(observed, obj(`{"apiVersion":"s3.aws.upbound.io/v1beta1","kind":"Bucket","metadata":{"name":"parent-xr-`+name+`","annotations":{"crossplane.io/composition-resource-name":"`+name+`"}},"status":{"atProvider":{"arn":"x"}}}`))
		}
		rsp := &fnv1.RunFunctionResponse{Desired: &fnv1.State{Resources: desired}}
		fn := RunnerFn(func(context.Context, *fnv1.RunFunctionRequest) (*fnv1.RunFunctionResponse, error) { return rsp, nil })
		for _, p := range []Profile{CrankV120, Reconciler} {
			b.Run(fmt.Sprintf("%s/%d", p, n), func(b *testing.B) {
				for b.Loop() {
					if _, err := Compose(context.Background(), obj(testXR), pipelineComposition(fnStep("s", "fn")), observed, Functions{"fn": fn}, Options{Profile: p}); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
