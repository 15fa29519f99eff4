package pipeline

import (
	"context"
	"net"
	"testing"
	"time"

	fnv1 "github.com/crossplane/function-sdk-go/proto/v1"
	fnv1beta1 "github.com/crossplane/function-sdk-go/proto/v1beta1"
	"github.com/google/go-cmp/cmp"
	"google.golang.org/grpc"
	"google.golang.org/protobuf/types/known/durationpb"
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/xpmigrate/xpmigrate/internal/jsonobj"
	"github.com/xpmigrate/xpmigrate/render"
)

// helloFunction is a tiny composition function: it passes desired state and
// context through, adds a ConfigMap named after the XR under the key
// "hello", and says so in a NORMAL result.
type helloFunction struct {
	fnv1.UnimplementedFunctionRunnerServiceServer
}

func (helloFunction) RunFunction(_ context.Context, req *fnv1.RunFunctionRequest) (*fnv1.RunFunctionResponse, error) {
	xr := req.GetObserved().GetComposite().GetResource().AsMap()
	name := jsonobj.String(xr, "metadata", "name")
	cm, err := structpb.NewStruct(map[string]any{
		"apiVersion": "v1",
		"kind":       "ConfigMap",
		"data":       map[string]any{"greeting": "hello, " + name},
	})
	if err != nil {
		return nil, err
	}

	d := req.GetDesired()
	if d == nil {
		d = &fnv1.State{}
	}
	if d.Resources == nil {
		d.Resources = map[string]*fnv1.Resource{}
	}
	d.Resources["hello"] = &fnv1.Resource{Resource: cm, Ready: fnv1.Ready_READY_TRUE}
	return &fnv1.RunFunctionResponse{
		Meta:    &fnv1.ResponseMeta{Tag: req.GetMeta().GetTag(), Ttl: durationpb.New(time.Minute)},
		Desired: d,
		Context: req.GetContext(),
		Results: []*fnv1.Result{{Severity: fnv1.Severity_SEVERITY_NORMAL, Message: "said hello to " + name, Target: fnv1.Target_TARGET_COMPOSITE.Enum()}},
	}, nil
}

// helloBetaFunction serves helloFunction over the v1beta1 service only.
type helloBetaFunction struct {
	fnv1beta1.UnimplementedFunctionRunnerServiceServer
}

func (helloBetaFunction) RunFunction(ctx context.Context, breq *fnv1beta1.RunFunctionRequest) (*fnv1beta1.RunFunctionResponse, error) {
	req := &fnv1.RunFunctionRequest{}
	if err := convert(breq, req); err != nil {
		return nil, err
	}
	rsp, err := helloFunction{}.RunFunction(ctx, req)
	if err != nil {
		return nil, err
	}
	brsp := &fnv1beta1.RunFunctionResponse{}
	return brsp, convert(rsp, brsp)
}

// serve starts a gRPC server on a free loopback port and stops it when the
// test ends.
func serve(t *testing.T, register func(*grpc.Server)) string {
	t.Helper()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("cannot listen: %v", err)
	}
	srv := grpc.NewServer()
	register(srv)
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = srv.Serve(lis)
	}()
	t.Cleanup(func() {
		srv.Stop()
		<-done
	})
	return lis.Addr().String()
}

// TestGRPCRunner runs a pipeline of an in-process function followed by a
// real function served over gRPC on 127.0.0.1.
func TestGRPCRunner(t *testing.T) {
	type want struct {
		composed []composedSummary
		results  []render.Result
		status   any
		context  map[string]any
	}
	hello := want{
		composed: []composedSummary{{Name: "hello", Ready: true, Synced: true}},
		results:  []render.Result{{Step: "say-hello", Severity: "SEVERITY_NORMAL", Message: "said hello to parent-xr"}},
		status:   map[string]any{"phase": "greeting", "conditions": []any{map[string]any{"type": "Ready", "status": "True", "reason": "Available", "lastTransitionTime": FixedConditionTime}}},
		context:  map[string]any{"builtin": "ran"},
	}

	cases := map[string]struct {
		reason   string
		register func(*grpc.Server)
		want     want
	}{
		"V1": {
			reason:   "A function serving the v1 service is called over v1.",
			register: func(s *grpc.Server) { fnv1.RegisterFunctionRunnerServiceServer(s, helloFunction{}) },
			want:     hello,
		},
		"V1Beta1Fallback": {
			reason:   "A function serving only v1beta1 is called over v1beta1.",
			register: func(s *grpc.Server) { fnv1beta1.RegisterFunctionRunnerServiceServer(s, helloBetaFunction{}) },
			want:     hello,
		},
	}
	// builtin stands for an in-process function such as
	// function-patch-and-transform: it writes the desired XR's status and a
	// context key.
	builtin := RunnerFn(func(_ context.Context, req *fnv1.RunFunctionRequest) (*fnv1.RunFunctionResponse, error) {
		ctx := req.GetContext()
		ctx.Fields["builtin"] = structpb.NewStringValue("ran")
		return &fnv1.RunFunctionResponse{
			Desired: &fnv1.State{Composite: &fnv1.Resource{Resource: st(`{"status":{"phase":"greeting"}}`)}},
			Context: ctx,
		}, nil
	})

	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			remote, err := NewGRPCRunner(serve(t, tc.register))
			if err != nil {
				t.Fatalf("\n%s\nNewGRPCRunner(...): %v", tc.reason, err)
			}
			defer func() { _ = remote.Close() }()

			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()

			comp := pipelineComposition(fnStep("prepare", "function-builtin"), fnStep("say-hello", "function-hello"))
			out, err := Compose(ctx, obj(testXR), comp, nil, Functions{"function-builtin": builtin, "function-hello": remote}, Options{})
			if err != nil {
				t.Fatalf("\n%s\nCompose(...): %v", tc.reason, err)
			}
			if diff := cmp.Diff(tc.want.composed, summarise(out.Composed)); diff != "" {
				t.Errorf("\n%s\nCompose(...): -want composed, +got composed:\n%s", tc.reason, diff)
			}
			if diff := cmp.Diff(tc.want.results, out.Results); diff != "" {
				t.Errorf("\n%s\nCompose(...): -want results, +got results:\n%s", tc.reason, diff)
			}
			if diff := cmp.Diff(tc.want.status, out.XR["status"]); diff != "" {
				t.Errorf("\n%s\nCompose(...): -want XR status, +got XR status:\n%s", tc.reason, diff)
			}
			if diff := cmp.Diff(tc.want.context, out.Context); diff != "" {
				t.Errorf("\n%s\nCompose(...): -want context, +got context:\n%s", tc.reason, diff)
			}
		})
	}
}

// TestGRPCRunnerUnreachable checks that a function nobody serves fails
// within the context's deadline rather than hanging.
func TestGRPCRunnerUnreachable(t *testing.T) {
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("cannot listen: %v", err)
	}
	addr := lis.Addr().String()
	_ = lis.Close()

	remote, err := NewGRPCRunner(addr)
	if err != nil {
		t.Fatalf("NewGRPCRunner(...): %v", err)
	}
	defer func() { _ = remote.Close() }()

	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	_, err = Compose(ctx, obj(testXR), pipelineComposition(fnStep("s", "fn")), nil, Functions{"fn": remote}, Options{})
	if err == nil {
		t.Fatal("Compose(...): want an error calling an unreachable function, got none")
	}
}

// TestNewFunctionRunner covers R-04's unknown runtime: only the Development
// runtime can run a function that is not built in.
func TestNewFunctionRunner(t *testing.T) {
	type want struct {
		target string
		err    string
	}
	cases := map[string]struct {
		reason string
		fn     string
		want   want
	}{
		"Development": {
			reason: "The Development runtime calls the annotated target.",
			fn:     `{"apiVersion":"pkg.crossplane.io/v1","kind":"Function","metadata":{"name":"fn","annotations":{"render.crossplane.io/runtime":"Development","render.crossplane.io/runtime-development-target":"127.0.0.1:9444"}}}`,
			want:   want{target: "127.0.0.1:9444"},
		},
		"DevelopmentDefaultTarget": {
			reason: "Without a target the Development runtime calls localhost:9443.",
			fn:     `{"apiVersion":"pkg.crossplane.io/v1","kind":"Function","metadata":{"name":"fn","annotations":{"render.crossplane.io/runtime":"Development"}}}`,
			want:   want{target: DefaultDevelopmentTarget},
		},
		"Docker": {
			reason: "Docker, the default runtime, is not supported.",
			fn:     `{"apiVersion":"pkg.crossplane.io/v1","kind":"Function","metadata":{"name":"fn"}}`,
			want:   want{err: `cannot get runtime for Function "fn": the Docker runtime is not supported; serve the function locally and annotate it render.crossplane.io/runtime: Development`},
		},
		"UnknownRuntime": {
			reason: "An unknown runtime is an error.",
			fn:     `{"apiVersion":"pkg.crossplane.io/v1","kind":"Function","metadata":{"name":"fn","annotations":{"render.crossplane.io/runtime":"wat"}}}`,
			want:   want{err: `cannot get runtime for Function "fn": unknown render.crossplane.io/runtime annotation value "wat" (want Development)`},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			r, err := NewFunctionRunner(obj(tc.fn))
			if diff := cmp.Diff(tc.want.err, errText(err)); diff != "" {
				t.Errorf("\n%s\nNewFunctionRunner(...): -want error, +got error:\n%s", tc.reason, diff)
			}
			var target string
			if r != nil {
				target = r.Target()
				_ = r.Close()
			}
			if diff := cmp.Diff(tc.want.target, target); diff != "" {
				t.Errorf("\n%s\nNewFunctionRunner(...): -want target, +got target:\n%s", tc.reason, diff)
			}
		})
	}
}
