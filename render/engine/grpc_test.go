package engine

import (
	"context"
	"net"
	"testing"
	"time"

	fnv1 "github.com/crossplane/function-sdk-go/proto/v1"
	"google.golang.org/grpc"
	"google.golang.org/protobuf/types/known/durationpb"
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/xpmigrate/xpmigrate/internal/jsonobj"
	"github.com/xpmigrate/xpmigrate/render"
)

// labeller is a tiny external function: it labels every composed resource
// the earlier steps desired, so the test sees that it received
// function-patch-and-transform's desired state, and returns it.
type labeller struct {
	fnv1.UnimplementedFunctionRunnerServiceServer
}

func (labeller) RunFunction(_ context.Context, req *fnv1.RunFunctionRequest) (*fnv1.RunFunctionResponse, error) {
	d := req.GetDesired()
	for _, r := range d.GetResources() {
		md := r.GetResource().GetFields()["metadata"].GetStructValue()
		if md == nil {
			md = &structpb.Struct{Fields: map[string]*structpb.Value{}}
			r.Resource.Fields["metadata"] = structpb.NewStructValue(md)
		}
		labels := md.GetFields()["labels"].GetStructValue()
		if labels == nil {
			labels = &structpb.Struct{Fields: map[string]*structpb.Value{}}
			md.Fields["labels"] = structpb.NewStructValue(labels)
		}
		labels.Fields["labelled-by"] = structpb.NewStringValue("external")
	}
	return &fnv1.RunFunctionResponse{
		Meta:    &fnv1.ResponseMeta{Tag: req.GetMeta().GetTag(), Ttl: durationpb.New(time.Minute)},
		Desired: d,
		Context: req.GetContext(),
	}, nil
}

// TestExternalFunctionWithBuiltins runs a pipeline of the built-in
// function-patch-and-transform and a real function served over gRPC on
// 127.0.0.1, declared in a Functions file with the Development runtime.
func TestExternalFunctionWithBuiltins(t *testing.T) {
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := grpc.NewServer()
	fnv1.RegisterFunctionRunnerServiceServer(srv, labeller{})
	done := make(chan struct{})
	go func() { defer close(done); _ = srv.Serve(lis) }()
	defer func() { srv.Stop(); <-done }()

	comp := obj(t, `
apiVersion: apiextensions.crossplane.io/v1
kind: Composition
metadata: {name: things}
spec:
  compositeTypeRef: {apiVersion: example.org/v1, kind: XThing}
  mode: Pipeline
  pipeline:
  - step: patch-and-transform
    functionRef: {name: function-patch-and-transform}
    input:
      apiVersion: pt.fn.crossplane.io/v1beta1
      kind: Resources
      resources:
      - name: bucket
        base: {apiVersion: s3.example.org/v1, kind: Bucket, spec: {forProvider: {}}}
        patches:
        - {type: FromCompositeFieldPath, fromFieldPath: spec.size, toFieldPath: spec.forProvider.size}
  - step: label
    functionRef: {name: function-labeller}
`)
	fns := []map[string]any{
		obj(t, `
apiVersion: pkg.crossplane.io/v1
kind: Function
metadata: {name: function-patch-and-transform}
spec: {package: xpkg.upbound.io/crossplane-contrib/function-patch-and-transform:v0.10.8}
`),
		obj(t, `
apiVersion: pkg.crossplane.io/v1
kind: Function
metadata:
  name: function-labeller
  annotations:
    render.crossplane.io/runtime: Development
    render.crossplane.io/runtime-development-target: `+lis.Addr().String()+`
spec: {package: example.org/function-labeller:v0.1.0}
`),
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	res, err := Render(ctx, Request{XR: obj(t, loopXR), Composition: comp, Functions: fns}, Options{})
	if err != nil {
		t.Fatalf("Render(...): %v", err)
	}
	var bucket *render.ComposedResource
	for i := range res.Outcome.Composed {
		if res.Outcome.Composed[i].Name == "bucket" {
			bucket = &res.Outcome.Composed[i]
		}
	}
	if bucket == nil {
		t.Fatalf("Render(...): no bucket in %+v", res.Outcome.Composed)
	}
	if got, _ := jsonobj.LookupString(bucket.Desired, "spec", "forProvider", "size"); got != "small" {
		t.Errorf("the built-in's patch: want spec.forProvider.size small, got %q", got)
	}
	if got, _ := jsonobj.LookupString(bucket.Desired, "metadata", "labels", "labelled-by"); got != "external" {
		t.Errorf("the external function's label: want external, got %q", got)
	}
}
