package pipeline_test

import (
	"context"
	"encoding/json"
	"fmt"

	fnv1 "github.com/crossplane/function-sdk-go/proto/v1"
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/xpmigrate/xpmigrate/render/pipeline"
)

func exampleInputs() (xr, comp map[string]any) {
	xr = map[string]any{
		"apiVersion": "example.org/v1alpha1",
		"kind":       "XBucket",
		"metadata":   map[string]any{"name": "demo"},
		"spec":       map[string]any{"region": "us-east-2"},
	}
	comp = map[string]any{
		"apiVersion": "apiextensions.crossplane.io/v1",
		"kind":       "Composition",
		"metadata":   map[string]any{"name": "xbuckets"},
		"spec": map[string]any{
			"compositeTypeRef": map[string]any{"apiVersion": "example.org/v1alpha1", "kind": "XBucket"},
			"mode":             "Pipeline",
			"pipeline": []any{
				map[string]any{"step": "compose-bucket", "functionRef": map[string]any{"name": "function-bucket"}},
			},
		},
	}
	return xr, comp
}

// bucket is an in-process function that composes one bucket in the XR's
// region.
func bucket(_ context.Context, req *fnv1.RunFunctionRequest) (*fnv1.RunFunctionResponse, error) {
	spec, _ := req.GetObserved().GetComposite().GetResource().AsMap()["spec"].(map[string]any)
	b, err := structpb.NewStruct(map[string]any{
		"apiVersion": "s3.aws.upbound.io/v1beta1",
		"kind":       "Bucket",
		"spec":       map[string]any{"forProvider": map[string]any{"region": spec["region"]}},
	})
	if err != nil {
		return nil, err
	}
	return &fnv1.RunFunctionResponse{
		Desired: &fnv1.State{Resources: map[string]*fnv1.Resource{"bucket": {Resource: b}}},
		Results: []*fnv1.Result{{Severity: fnv1.Severity_SEVERITY_NORMAL, Message: "composed a bucket"}},
	}, nil
}

func Example() {
	xr, comp := exampleInputs()
	fns := pipeline.Functions{"function-bucket": pipeline.RunnerFn(bucket)}

	out, err := pipeline.Compose(context.Background(), xr, comp, nil, fns, pipeline.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	// encoding/json sorts keys, so the output is stable.
	for _, o := range []any{out.XR, out.Composed[0].Desired, out.Results} {
		b, _ := json.Marshal(o)
		fmt.Println(string(b))
	}

	// Output:
	// {"apiVersion":"example.org/v1alpha1","kind":"XBucket","metadata":{"name":"demo"},"status":{"conditions":[{"lastTransitionTime":"2024-01-01T00:00:00Z","message":"Unready resources: bucket","reason":"Creating","status":"False","type":"Ready"}]}}
	// {"apiVersion":"s3.aws.upbound.io/v1beta1","kind":"Bucket","metadata":{"annotations":{"crossplane.io/composition-resource-name":"bucket"},"generateName":"demo-","labels":{"crossplane.io/composite":"demo"},"ownerReferences":[{"apiVersion":"example.org/v1alpha1","blockOwnerDeletion":true,"controller":true,"kind":"XBucket","name":"demo","uid":""}]},"spec":{"forProvider":{"region":"us-east-2"}}}
	// [{"Step":"compose-bucket","Severity":"SEVERITY_NORMAL","Message":"composed a bucket"}]
}

// In the Reconciler profile the XR is what the cluster keeps: the observed
// XR with Synced and Ready, and references to composed resources, which get
// names.
func Example_reconciler() {
	xr, comp := exampleInputs()
	fns := pipeline.Functions{"function-bucket": pipeline.RunnerFn(bucket)}

	out, err := pipeline.Compose(context.Background(), xr, comp, nil, fns, pipeline.Options{Profile: pipeline.Reconciler})
	if err != nil {
		fmt.Println(err)
		return
	}
	b, _ := json.Marshal(out.XR)
	fmt.Println(string(b))
	for _, e := range out.Events {
		fmt.Printf("%s %s: %s\n", e.Type, e.Reason, e.Message)
	}

	// Output:
	// {"apiVersion":"example.org/v1alpha1","kind":"XBucket","metadata":{"name":"demo"},"spec":{"region":"us-east-2","resourceRefs":[{"apiVersion":"s3.aws.upbound.io/v1beta1","kind":"Bucket","name":"demo-c5879b8d250c"}]},"status":{"conditions":[{"lastTransitionTime":"2024-01-01T00:00:00Z","reason":"ReconcileSuccess","status":"True","type":"Synced"},{"lastTransitionTime":"2024-01-01T00:00:00Z","message":"Unready resources: bucket","reason":"Creating","status":"False","type":"Ready"}]}}
	// Normal ComposeResources: Pipeline step "compose-bucket": composed a bucket
	// Normal ComposeResources: Composed resource "bucket" is not yet ready
}

// A FATAL result fails the render; the error names the step.
func Example_fatal() {
	xr, comp := exampleInputs()
	fatal := pipeline.RunnerFn(func(context.Context, *fnv1.RunFunctionRequest) (*fnv1.RunFunctionResponse, error) {
		return &fnv1.RunFunctionResponse{Results: []*fnv1.Result{{Severity: fnv1.Severity_SEVERITY_FATAL, Message: "no region"}}}, nil
	})

	_, err := pipeline.Compose(context.Background(), xr, comp, nil, pipeline.Functions{"function-bucket": fatal}, pipeline.Options{})
	fmt.Println(err)

	// Output:
	// pipeline step "compose-bucket" returned a fatal result: no region
}
