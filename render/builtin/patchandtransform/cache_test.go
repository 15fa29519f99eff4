package patchandtransform

import (
	"context"
	"math"
	"sync"
	"testing"

	fnv1 "github.com/crossplane/function-sdk-go/proto/v1"
	"github.com/google/go-cmp/cmp"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/structpb"
)

// TestInputCache checks that a Function that remembers inputs answers every
// call as one that reads each input afresh: when an input comes again, when
// it was changed in place between calls, and from several goroutines.
func TestInputCache(t *testing.T) {
	input := object(t, `{"apiVersion": "pt.fn.crossplane.io/v1beta1", "kind": "Resources", "resources": [
		{"name": "a", "base": {"apiVersion": "example.org/v1", "kind": "CD", "spec": {"n": 1}}, "patches": [
			{"fromFieldPath": "spec.region", "toFieldPath": "spec.forProvider.region", "transforms": [{"type": "map", "map": {"eu": "europe"}}]}
		]}
	]}`)
	req := func() *fnv1.RunFunctionRequest {
		return &fnv1.RunFunctionRequest{
			Observed: &fnv1.State{Composite: &fnv1.Resource{Resource: object(t, `{"apiVersion": "example.org/v1", "kind": "XR", "spec": {"region": "eu"}}`)}},
			Input:    input,
		}
	}
	run := func(f *Function) string {
		t.Helper()
		rsp, err := f.RunFunction(context.Background(), req())
		if err != nil {
			t.Fatalf("RunFunction(...): %v", err)
		}
		return compact(t, rsp)
	}

	f := New()
	for i := range 3 {
		if diff := cmp.Diff(run(&Function{}), run(f)); diff != "" {
			t.Errorf("call %d: RunFunction(...) with the input remembered: -want (read afresh), +got:\n%s", i, diff)
		}
	}

	// Changed in place: the same Struct, another input.
	input.Fields["resources"].GetListValue().Values[0].GetStructValue().Fields["name"] = structpb.NewStringValue("b")
	if diff := cmp.Diff(run(&Function{}), run(f)); diff != "" {
		t.Errorf("after a change in place: RunFunction(...): -want (read afresh), +got:\n%s", diff)
	}
	// Changed to an invalid input.
	input.Fields["resources"] = structpb.NewStringValue("none")
	if diff := cmp.Diff(run(&Function{}), run(f)); diff != "" {
		t.Errorf("after an invalid change: RunFunction(...): -want (read afresh), +got:\n%s", diff)
	}

	want := run(&Function{})
	var wg sync.WaitGroup
	got := make([]string, 8)
	for i := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rsp, err := f.RunFunction(context.Background(), req())
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

// TestEqualStruct checks the comparison the cache trusts: a copy is equal,
// and any change, down to a number's sign bit or a value's kind, is not.
func TestEqualStruct(t *testing.T) {
	base := func() *structpb.Struct {
		return object(t, `{"s": "x", "n": 0, "b": true, "z": null, "l": [1, {"k": "v"}], "o": {"p": []}}`)
	}
	cases := map[string]struct {
		reason string
		change func(s *structpb.Struct)
		want   bool
	}{
		"Copy":        {reason: "A copy is equal.", change: func(*structpb.Struct) {}, want: true},
		"String":      {reason: "A changed string.", change: func(s *structpb.Struct) { s.Fields["s"] = structpb.NewStringValue("y") }},
		"NegZero":     {reason: "-0 prints differently from 0.", change: func(s *structpb.Struct) { s.Fields["n"] = structpb.NewNumberValue(math.Copysign(0, -1)) }},
		"Kind":        {reason: "A null is not false.", change: func(s *structpb.Struct) { s.Fields["z"] = structpb.NewBoolValue(false) }},
		"Added":       {reason: "An added member.", change: func(s *structpb.Struct) { s.Fields["new"] = structpb.NewNullValue() }},
		"Removed":     {reason: "A removed member.", change: func(s *structpb.Struct) { delete(s.Fields, "b") }},
		"ListLength":  {reason: "A longer list.", change: func(s *structpb.Struct) { l := s.Fields["l"].GetListValue(); l.Values = append(l.Values, structpb.NewNullValue()) }},
		"DeepInList":  {reason: "A change inside a list.", change: func(s *structpb.Struct) { s.Fields["l"].GetListValue().Values[1].GetStructValue().Fields["k"] = structpb.NewStringValue("w") }},
		"DeepInEmpty": {reason: "An empty list that is no longer.", change: func(s *structpb.Struct) { l := s.Fields["o"].GetStructValue().Fields["p"].GetListValue(); l.Values = append(l.Values, structpb.NewNumberValue(1)) }},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			s := base()
			c := cloneStruct(s)
			if !proto.Equal(s, c) {
				t.Fatalf("\n%s\ncloneStruct(...): not proto.Equal to the original", tc.reason)
			}
			tc.change(s)
			if got := equalStruct(c, s); got != tc.want {
				t.Errorf("\n%s\nequalStruct(...): got %t, want %t", tc.reason, got, tc.want)
			}
		})
	}
}
