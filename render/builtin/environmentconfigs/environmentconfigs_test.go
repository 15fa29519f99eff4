package environmentconfigs

import (
	"context"
	"testing"

	fnv1 "github.com/crossplane/function-sdk-go/proto/v1"
	"github.com/google/go-cmp/cmp"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/testing/protocmp"
	"google.golang.org/protobuf/types/known/durationpb"
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/xpmigrate/xpmigrate/environment"
)

func mustStruct(t *testing.T, j string) *structpb.Struct {
	t.Helper()
	s := &structpb.Struct{}
	if err := protojson.Unmarshal([]byte(j), s); err != nil {
		t.Fatalf("cannot parse %s: %v", j, err)
	}
	return s
}

func resource(t *testing.T, j string) *fnv1.Resource {
	return &fnv1.Resource{Resource: mustStruct(t, j)}
}

// TestRunFunction runs vectors EC-03 and a two-call reconcile through the
// function protocol, in both release lines.
func TestRunFunction(t *testing.T) {
	input := `{"apiVersion":"environmentconfigs.fn.crossplane.io/v1beta1","kind":"Input","spec":{
		"environmentConfigs":[{"type":"Reference","ref":{"name":"my-env-config"}}]}}`
	xr := `{"apiVersion":"example.org/v1","kind":"XR","metadata":{"name":"x"},"spec":{}}`
	config := `{"apiVersion":"apiextensions.crossplane.io/v1beta1","kind":"EnvironmentConfig","metadata":{"name":"my-env-config"},"data":{"k":"v","n":1}}`
	sel := map[string]*fnv1.ResourceSelector{
		"environment-config-0": {ApiVersion: "apiextensions.crossplane.io/v1beta1", Kind: "EnvironmentConfig",
			Match: &fnv1.ResourceSelector_MatchName{MatchName: "my-env-config"}},
	}
	env := `{"apiextensions.crossplane.io/environment":{"apiVersion":"internal.crossplane.io/v1alpha1","kind":"Environment","k":"v","n":1}}`

	type want struct {
		rsp *fnv1.RunFunctionResponse
	}
	cases := map[string]struct {
		reason  string
		version environment.FunctionVersion
		req     *fnv1.RunFunctionRequest
		want    want
	}{
		"V06FirstCall": {
			reason:  "v0.6 asks for extra resources and writes no environment yet",
			version: environment.FunctionV06,
			req: &fnv1.RunFunctionRequest{
				Input:    mustStruct(t, input),
				Observed: &fnv1.State{Composite: resource(t, xr)},
			},
			want: want{rsp: &fnv1.RunFunctionResponse{
				Meta:         &fnv1.ResponseMeta{Ttl: durationpb.New(responseTTL)},
				Requirements: &fnv1.Requirements{ExtraResources: sel},
			}},
		},
		"V06SecondCall": {
			reason:  "v0.6 reads extra_resources and writes the environment to the context",
			version: environment.FunctionV06,
			req: &fnv1.RunFunctionRequest{
				Input:          mustStruct(t, input),
				Observed:       &fnv1.State{Composite: resource(t, xr)},
				ExtraResources: map[string]*fnv1.Resources{"environment-config-0": {Items: []*fnv1.Resource{resource(t, config)}}},
			},
			want: want{rsp: &fnv1.RunFunctionResponse{
				Meta:         &fnv1.ResponseMeta{Ttl: durationpb.New(responseTTL)},
				Requirements: &fnv1.Requirements{ExtraResources: sel},
				Context:      mustStruct(t, env),
			}},
		},
		"V06EmptyContext": {
			reason:  "an empty context in the request still gets the environment",
			version: environment.FunctionV06,
			req: &fnv1.RunFunctionRequest{
				Input:          mustStruct(t, input),
				Observed:       &fnv1.State{Composite: resource(t, xr)},
				Context:        &structpb.Struct{},
				ExtraResources: map[string]*fnv1.Resources{"environment-config-0": {Items: []*fnv1.Resource{resource(t, config)}}},
			},
			want: want{rsp: &fnv1.RunFunctionResponse{
				Meta:         &fnv1.ResponseMeta{Ttl: durationpb.New(responseTTL)},
				Requirements: &fnv1.Requirements{ExtraResources: sel},
				Context:      mustStruct(t, env),
			}},
		},
		"V07IgnoresExtraResources": {
			reason:  "v0.7 reads only required_resources, so on Crossplane v1 it never gets its configs (docs/semantics/pipeline.md#protocol-dialects)",
			version: environment.FunctionV07,
			req: &fnv1.RunFunctionRequest{
				Input:          mustStruct(t, input),
				Observed:       &fnv1.State{Composite: resource(t, xr)},
				ExtraResources: map[string]*fnv1.Resources{"environment-config-0": {Items: []*fnv1.Resource{resource(t, config)}}},
			},
			want: want{rsp: &fnv1.RunFunctionResponse{
				Meta:         &fnv1.ResponseMeta{Ttl: durationpb.New(responseTTL)},
				Requirements: &fnv1.Requirements{Resources: sel},
			}},
		},
		"EC03NotFoundRequired": {
			reason:  "a required reference that was not found is fatal",
			version: environment.FunctionV07,
			req: &fnv1.RunFunctionRequest{
				Input:             mustStruct(t, input),
				Observed:          &fnv1.State{Composite: resource(t, xr)},
				RequiredResources: map[string]*fnv1.Resources{"environment-config-0": {}},
			},
			want: want{rsp: &fnv1.RunFunctionResponse{
				Meta:         &fnv1.ResponseMeta{Ttl: durationpb.New(responseTTL)},
				Requirements: &fnv1.Requirements{Resources: sel},
			}},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, err := New(tc.version).RunFunction(context.Background(), tc.req)
			if err != nil {
				t.Fatalf("RunFunction(...): %v", err)
			}
			if name == "EC03NotFoundRequired" {
				if len(got.GetResults()) != 1 || got.GetResults()[0].GetSeverity() != fnv1.Severity_SEVERITY_FATAL {
					t.Fatalf("\n%s\nRunFunction(...): want one FATAL result, got %v", tc.reason, got.GetResults())
				}
				got.Results = nil
			}
			if diff := cmp.Diff(tc.want.rsp, got, protocmp.Transform()); diff != "" {
				t.Errorf("\n%s\nRunFunction(...): -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}
