package patchandtransform

import (
	"context"
	"sync"
	"testing"

	fnv1 "github.com/crossplane/function-sdk-go/proto/v1"
	"github.com/google/go-cmp/cmp"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/structpb"
)

// TestInputCache checks that a Function that remembers inputs answers every
// call as one that reads each input afresh: when an input comes again, when
// another input comes, when more inputs come than it remembers, and from
// several goroutines.
func TestInputCache(t *testing.T) {
	input := func(name string) *structpb.Struct {
		return object(t, `{"apiVersion": "pt.fn.crossplane.io/v1beta1", "kind": "Resources", "resources": [
			{"name": "`+name+`", "base": {"apiVersion": "example.org/v1", "kind": "CD", "spec": {"n": 1}}, "patches": [
				{"fromFieldPath": "spec.region", "toFieldPath": "spec.forProvider.region", "transforms": [{"type": "map", "map": {"eu": "europe"}}]}
			]}
		]}`)
	}
	invalid := object(t, `{"apiVersion": "pt.fn.crossplane.io/v1beta1", "kind": "Resources", "resources": "none"}`)
	req := func(in *structpb.Struct) *fnv1.RunFunctionRequest {
		return &fnv1.RunFunctionRequest{
			Observed: &fnv1.State{Composite: &fnv1.Resource{Resource: object(t, `{"apiVersion": "example.org/v1", "kind": "XR", "spec": {"region": "eu"}}`)}},
			Input:    in,
		}
	}
	run := func(f *Function, in *structpb.Struct) string {
		t.Helper()
		r := req(in)
		before := proto.Clone(r)
		rsp, err := f.RunFunction(context.Background(), r)
		if err != nil {
			t.Fatalf("RunFunction(...): %v", err)
		}
		if !proto.Equal(before, r) {
			t.Fatalf("RunFunction(...): modified its request")
		}
		return compact(t, rsp)
	}

	f := New()
	inputs := []*structpb.Struct{input("a"), input("b"), invalid}
	for i := range cacheSize + 2 {
		inputs = append(inputs, input(string(rune('c'+i))))
	}
	for round := range 2 {
		for i, in := range inputs {
			if diff := cmp.Diff(run(&Function{}, in), run(f, in)); diff != "" {
				t.Errorf("round %d, input %d: RunFunction(...) remembering inputs: -want (read afresh), +got:\n%s", round, i, diff)
			}
		}
	}

	want := run(&Function{}, inputs[0])
	var wg sync.WaitGroup
	got := make([]string, 8)
	for i := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rsp, err := f.RunFunction(context.Background(), req(inputs[0]))
			if err == nil {
				got[i] = compact(t, rsp)
			}
		}()
	}
	wg.Wait()
	for i := range got {
		if diff := cmp.Diff(want, got[i]); diff != "" {
			t.Errorf("concurrent call %d: RunFunction(...): -want, +got:\n%s", i, diff)
		}
	}
}
