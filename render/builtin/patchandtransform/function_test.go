package patchandtransform

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"

	fnv1 "github.com/crossplane/function-sdk-go/proto/v1"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/durationpb"
	"google.golang.org/protobuf/types/known/structpb"
)

// object parses a JSON object into a Struct.
func object(t *testing.T, j string) *structpb.Struct {
	t.Helper()
	s := &structpb.Struct{}
	if err := protojson.Unmarshal([]byte(j), s); err != nil {
		t.Fatalf("cannot parse fixture %s: %v", j, err)
	}
	return s
}

// compact renders a message as compact protojson, whose whitespace is
// otherwise unstable on purpose. Map keys come out sorted.
func compact(t *testing.T, m proto.Message) string {
	t.Helper()
	b, err := protojson.Marshal(m)
	if err != nil {
		t.Fatalf("cannot marshal %T: %v", m, err)
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, b); err != nil {
		t.Fatalf("cannot compact %T: %v", m, err)
	}
	return buf.String()
}

func TestRunFunction(t *testing.T) {
	meta := func(tag string) *fnv1.ResponseMeta {
		return &fnv1.ResponseMeta{Tag: tag, Ttl: durationpb.New(TTL)}
	}
	env := func(fields string) *structpb.Struct {
		return object(t, `{"apiextensions.crossplane.io/environment": {"apiVersion": "internal.crossplane.io/v1alpha1", "kind": "Environment"`+fields+`}}`)
	}
	xrWidgets := `{"apiVersion": "example.org/v1", "kind": "XR", "spec": {"widgets": "10"}}`

	type want struct {
		rsp *fnv1.RunFunctionResponse
		err error
	}
	cases := map[string]struct {
		reason string
		req    *fnv1.RunFunctionRequest
		want   want
	}{
		"PT01NoInput": {
			reason: "An empty request gives a FATAL result and no desired state or context.",
			req:    &fnv1.RunFunctionRequest{},
			want: want{rsp: &fnv1.RunFunctionResponse{
				Meta: meta(""),
				Results: []*fnv1.Result{{
					Severity: fnv1.Severity_SEVERITY_FATAL,
					Message:  "invalid Function input: resources: Required value: resources or environment patches are required",
					Target:   fnv1.Target_TARGET_COMPOSITE.Enum(),
				}},
			}},
		},
		"PT04PatchBaseTemplate": {
			reason: "A patched base comes back as a desired resource; the tag is echoed; other context keys pass through.",
			req: &fnv1.RunFunctionRequest{
				Meta: &fnv1.RequestMeta{Tag: "cool-tag"},
				Input: object(t, `{"resources": [{"name": "cool-resource", "base": {"apiVersion": "example.org/v1", "kind": "CD"},
					"patches": [{"type": "FromCompositeFieldPath", "fromFieldPath": "spec.widgets", "toFieldPath": "spec.watchers",
					"transforms": [{"type": "convert", "convert": {"toType": "int64"}}, {"type": "math", "math": {"type": "Multiply", "multiply": 3}}]}]}]}`),
				Observed: &fnv1.State{Composite: &fnv1.Resource{Resource: object(t, xrWidgets)}},
				Desired:  &fnv1.State{Composite: &fnv1.Resource{Resource: object(t, xrWidgets)}},
				Context:  object(t, `{"other": {"a": 1}}`),
			},
			want: want{rsp: &fnv1.RunFunctionResponse{
				Meta: meta("cool-tag"),
				Desired: &fnv1.State{
					Composite: &fnv1.Resource{Resource: object(t, xrWidgets)},
					Resources: map[string]*fnv1.Resource{
						"cool-resource": {Resource: object(t, `{"apiVersion": "example.org/v1", "kind": "CD", "spec": {"watchers": 30}}`)},
					},
				},
				Context: object(t, `{"other": {"a": 1}, "apiextensions.crossplane.io/environment": {"apiVersion": "internal.crossplane.io/v1alpha1", "kind": "Environment"}}`),
			}},
		},
		"PT09RequiredFieldPathNotFound": {
			reason: "Required misses give warnings targeting the XR and mark the XR not ready.",
			req: &fnv1.RunFunctionRequest{
				Input: object(t, `{"resources": [
					{"name": "new-resource", "base": {"apiVersion": "example.org/v1", "kind": "CD", "spec": {}},
					 "patches": [{"type": "FromCompositeFieldPath", "fromFieldPath": "spec.doesNotExist", "policy": {"fromFieldPath": "Required"}}]},
					{"name": "existing-resource", "base": {"apiVersion": "example.org/v1", "kind": "CD", "spec": {"targetObject": {"keep": "me"}}},
					 "patches": [
						{"type": "FromCompositeFieldPath", "fromFieldPath": "spec.widgets", "toFieldPath": "spec.watchers"},
						{"type": "FromCompositeFieldPath", "fromFieldPath": "spec.sourceObject", "toFieldPath": "spec.targetObject", "policy": {"toFieldPath": "MergeObjects"}},
						{"type": "FromCompositeFieldPath", "fromFieldPath": "spec.doesNotExist", "policy": {"fromFieldPath": "Required"}}]}]}`),
				Observed: &fnv1.State{
					Composite: &fnv1.Resource{Resource: object(t, `{"apiVersion": "example.org/v1", "kind": "XR", "spec": {"widgets": "10", "sourceObject": {"me": "too"}}}`)},
					Resources: map[string]*fnv1.Resource{"existing-resource": {}},
				},
				Desired: &fnv1.State{Composite: &fnv1.Resource{Resource: object(t, xrWidgets)}},
			},
			want: want{rsp: &fnv1.RunFunctionResponse{
				Meta: meta(""),
				Desired: &fnv1.State{
					Composite: &fnv1.Resource{Resource: object(t, xrWidgets), Ready: fnv1.Ready_READY_FALSE},
					Resources: map[string]*fnv1.Resource{
						"existing-resource": {Resource: object(t, `{"apiVersion": "example.org/v1", "kind": "CD", "spec": {"watchers": "10", "targetObject": {"me": "too", "keep": "me"}}}`)},
					},
				},
				Results: []*fnv1.Result{
					{
						Severity: fnv1.Severity_SEVERITY_WARNING,
						Message:  `not adding new composed resource "new-resource" to desired state because "FromCompositeFieldPath" patch at index 0 has 'policy.fromFieldPath: Required': spec.doesNotExist: no such field`,
						Target:   fnv1.Target_TARGET_COMPOSITE.Enum(),
					},
					{
						Severity: fnv1.Severity_SEVERITY_WARNING,
						Message:  `cannot render composed resource "existing-resource" "FromCompositeFieldPath" patch at index 2: ignoring 'policy.fromFieldPath: Required' because 'to' resource already exists: spec.doesNotExist: no such field`,
						Target:   fnv1.Target_TARGET_COMPOSITE.Enum(),
					},
				},
				Context: env(``),
			}},
		},
		"PT12ConnectionDetailsAndReady": {
			reason: "Connection details travel as bytes both ways; ready is carried on desired composed resources.",
			req: &fnv1.RunFunctionRequest{
				Input: object(t, `{"resources": [{"name": "cool-resource", "base": {"apiVersion": "example.org/v1", "kind": "CD"},
					"connectionDetails": [{"type": "FromConnectionSecretKey", "name": "very", "fromConnectionSecretKey": "very"}],
					"readinessChecks": [{"type": "None"}]}]}`),
				Observed: &fnv1.State{
					Composite: &fnv1.Resource{Resource: object(t, `{"apiVersion": "example.org/v1", "kind": "XR"}`)},
					Resources: map[string]*fnv1.Resource{"cool-resource": {
						Resource:          object(t, `{"apiVersion": "example.org/v1", "kind": "CD", "metadata": {"name": "cool-42"}}`),
						ConnectionDetails: map[string][]byte{"very": []byte("secret")},
					}},
				},
				Desired: &fnv1.State{Composite: &fnv1.Resource{
					Resource:          object(t, `{"apiVersion": "example.org/v1", "kind": "XR"}`),
					ConnectionDetails: map[string][]byte{"existing": []byte("supersecretvalue")},
					Ready:             fnv1.Ready_READY_TRUE,
				}},
			},
			want: want{rsp: &fnv1.RunFunctionResponse{
				Meta: meta(""),
				Desired: &fnv1.State{
					Composite: &fnv1.Resource{
						Resource:          object(t, `{"apiVersion": "example.org/v1", "kind": "XR"}`),
						ConnectionDetails: map[string][]byte{"existing": []byte("supersecretvalue"), "very": []byte("secret")},
					},
					Resources: map[string]*fnv1.Resource{"cool-resource": {
						Resource: object(t, `{"apiVersion": "example.org/v1", "kind": "CD", "metadata": {"name": "cool-42"}}`),
						Ready:    fnv1.Ready_READY_TRUE,
					}},
				},
				Context: env(``),
			}},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			before := proto.Clone(tc.req)
			rsp, err := New().RunFunction(context.Background(), tc.req)
			if !proto.Equal(before, tc.req) {
				t.Errorf("\n%s\nRunFunction(...): modified its request", tc.reason)
			}
			if diff := cmp.Diff(tc.want.err, err, cmpopts.EquateErrors()); diff != "" {
				t.Errorf("\n%s\nRunFunction(...): -want error, +got error:\n%s", tc.reason, diff)
			}
			if diff := cmp.Diff(compact(t, tc.want.rsp), compact(t, rsp)); diff != "" {
				t.Errorf("\n%s\nRunFunction(...): -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}
