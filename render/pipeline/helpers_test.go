package pipeline

import (
	"context"
	"encoding/json"
	"sync"
	"time"

	fnv1 "github.com/crossplane/function-sdk-go/proto/v1"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/durationpb"
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/xpmigrate/xpmigrate/internal/jsonobj"
	"github.com/xpmigrate/xpmigrate/render"
)

// obj decodes JSON into an object whose numbers are float64, as values
// coming out of a protobuf Struct are. It panics on bad JSON: test fixtures
// are literals.
func obj(s string) map[string]any {
	m := map[string]any{}
	if err := json.Unmarshal([]byte(s), &m); err != nil {
		panic(err)
	}
	return m
}

// st decodes JSON into a protobuf Struct.
func st(s string) *structpb.Struct {
	out := &structpb.Struct{}
	if err := out.UnmarshalJSON([]byte(s)); err != nil {
		panic(err)
	}
	return out
}

func ptr[T any](v T) *T { return &v }

func ttl(d time.Duration) *fnv1.ResponseMeta {
	return &fnv1.ResponseMeta{Ttl: durationpb.New(d)}
}

// pipelineComposition returns a Pipeline Composition for the XR type
// test.crossplane.io/v1 XR with the given steps.
func pipelineComposition(steps ...map[string]any) map[string]any {
	list := make([]any, len(steps))
	for i := range steps {
		list[i] = steps[i]
	}
	return map[string]any{
		"apiVersion": CompositionAPIVersion,
		"kind":       CompositionKind,
		"metadata":   map[string]any{"name": "test-composition"},
		"spec": map[string]any{
			"compositeTypeRef": map[string]any{"apiVersion": "test.crossplane.io/v1", "kind": "XR"},
			"mode":             ModePipeline,
			"pipeline":         list,
		},
	}
}

// fnStep is a pipeline step calling the function named fn.
func fnStep(name, fn string) map[string]any {
	return map[string]any{"step": name, "functionRef": map[string]any{"name": fn}}
}

// A script is a fake function: it answers the i-th call with responses[i]
// (the last response repeats) and records a copy of every request.
type script struct {
	mu        sync.Mutex
	responses []*fnv1.RunFunctionResponse
	requests  []*fnv1.RunFunctionRequest
}

func respond(rsps ...*fnv1.RunFunctionResponse) *script {
	return &script{responses: rsps}
}

func (s *script) RunFunction(_ context.Context, req *fnv1.RunFunctionRequest) (*fnv1.RunFunctionResponse, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	i := len(s.requests)
	s.requests = append(s.requests, proto.Clone(req).(*fnv1.RunFunctionRequest))
	if i >= len(s.responses) {
		i = len(s.responses) - 1
	}
	return proto.Clone(s.responses[i]).(*fnv1.RunFunctionResponse), nil
}

func (s *script) calls() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.requests)
}

// A composedSummary is what the composer vectors say about a composed
// resource.
type composedSummary struct {
	Name        string
	ClusterName string // metadata.name of the desired object
	Ready       bool
	Synced      bool
}

func summarise(cds []render.ComposedResource) []composedSummary {
	if cds == nil {
		return nil
	}
	out := make([]composedSummary, 0, len(cds))
	for _, c := range cds {
		out = append(out, composedSummary{Name: c.Name, ClusterName: jsonobj.String(c.Desired, "metadata", "name"), Ready: c.Ready, Synced: c.Synced})
	}
	return out
}
