package pipeline

import (
	"context"
	"net"
	"strings"

	fnv1 "github.com/crossplane/function-sdk-go/proto/v1"
	fnv1beta1 "github.com/crossplane/function-sdk-go/proto/v1beta1"
	"github.com/pkg/errors"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	"github.com/xpmigrate/xpmigrate/internal/jsonobj"
)

// A Runner runs one function. In-process built-ins and remote gRPC functions
// implement it alike. RunFunction must not modify req: the engine shares the
// observed state between steps.
type Runner interface {
	RunFunction(ctx context.Context, req *fnv1.RunFunctionRequest) (*fnv1.RunFunctionResponse, error)
}

// A RunnerFn is a function that runs like a Runner.
type RunnerFn func(ctx context.Context, req *fnv1.RunFunctionRequest) (*fnv1.RunFunctionResponse, error)

// RunFunction calls fn.
func (fn RunnerFn) RunFunction(ctx context.Context, req *fnv1.RunFunctionRequest) (*fnv1.RunFunctionResponse, error) {
	return fn(ctx, req)
}

// Functions are the Runners a pipeline may call, by Function name (a step's
// functionRef.name).
type Functions map[string]Runner

// Annotations of a Function object that select and configure its runtime,
// as `crossplane render` reads them.
const (
	AnnotationRuntime                  = "render.crossplane.io/runtime"
	AnnotationRuntimeDevelopmentTarget = "render.crossplane.io/runtime-development-target"

	RuntimeDevelopment = "Development"
	RuntimeDocker      = "Docker"

	// DefaultDevelopmentTarget is where a Development runtime function
	// listens when its annotation names no target.
	DefaultDevelopmentTarget = "localhost:9443"
)

// waitForReady makes calls wait until the connection is up, bounded by the
// call's context, rather than fail while the function is still starting.
const waitForReady = `{"methodConfig":[{"name":[{}],"waitForReady":true}]}`

// A GRPCRunner runs a function that serves the RunFunction protocol over
// insecure gRPC on a loopback address: crossplane render's Development
// runtime. It tries the v1 service first and falls back to v1beta1 when the
// function does not implement v1.
type GRPCRunner struct {
	target string
	conn   *grpc.ClientConn
}

var _ Runner = &GRPCRunner{}

// NewGRPCRunner returns a Runner for the function at target, host:port (an
// empty target means DefaultDevelopmentTarget). The connection is made
// lazily, on the first call. The connection is insecure, so the host must be
// localhost or a loopback IP; a unix: socket is accepted too. Close the
// runner when done.
func NewGRPCRunner(target string) (*GRPCRunner, error) {
	if target == "" {
		target = DefaultDevelopmentTarget
	}
	if err := checkLoopback(target); err != nil {
		return nil, err
	}
	conn, err := grpc.NewClient(target,
		grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithDefaultServiceConfig(waitForReady))
	if err != nil {
		return nil, errors.Wrapf(err, "cannot dial function at %q", target)
	}
	return &GRPCRunner{target: target, conn: conn}, nil
}

// NewFunctionRunner returns the Runner for a Function object of a Functions
// file that is not built in. Like `crossplane render`, it reads the runtime
// from the render.crossplane.io/runtime annotation; only the Development
// runtime (a function already listening at
// render.crossplane.io/runtime-development-target) is supported, because
// this renderer never starts containers.
func NewFunctionRunner(fn map[string]any) (*GRPCRunner, error) {
	name := jsonobj.String(fn, "metadata", "name")
	ann := nestedStringMap(fn, "metadata", "annotations")
	switch rt := ann[AnnotationRuntime]; rt {
	case RuntimeDevelopment:
		r, err := NewGRPCRunner(ann[AnnotationRuntimeDevelopmentTarget])
		if err != nil {
			return nil, errors.Wrapf(err, "cannot get runtime for Function %q", name)
		}
		return r, nil
	case "", RuntimeDocker:
		return nil, errors.Errorf("cannot get runtime for Function %q: the %s runtime is not supported; serve the function locally and annotate it %s: %s", name, RuntimeDocker, AnnotationRuntime, RuntimeDevelopment)
	default:
		return nil, errors.Errorf("cannot get runtime for Function %q: unknown %s annotation value %q (want %s)", name, AnnotationRuntime, rt, RuntimeDevelopment)
	}
}

// Target is the address the runner calls.
func (r *GRPCRunner) Target() string { return r.target }

// RunFunction calls the function's v1 service, or its v1beta1 service if v1
// is unimplemented. The two share one wire format.
func (r *GRPCRunner) RunFunction(ctx context.Context, req *fnv1.RunFunctionRequest) (*fnv1.RunFunctionResponse, error) {
	rsp, err := fnv1.NewFunctionRunnerServiceClient(r.conn).RunFunction(ctx, req)
	if status.Code(err) != codes.Unimplemented {
		return rsp, err
	}

	breq := &fnv1beta1.RunFunctionRequest{}
	if err := convert(req, breq); err != nil {
		return nil, errors.Wrap(err, "cannot convert v1 RunFunctionRequest to v1beta1")
	}
	brsp, err := fnv1beta1.NewFunctionRunnerServiceClient(r.conn).RunFunction(ctx, breq)
	if err != nil {
		return nil, err
	}
	out := &fnv1.RunFunctionResponse{}
	if err := convert(brsp, out); err != nil {
		return nil, errors.Wrap(err, "cannot convert v1beta1 RunFunctionResponse to v1")
	}
	return out, nil
}

// Close closes the connection.
func (r *GRPCRunner) Close() error {
	return r.conn.Close()
}

// convert copies one message into another with the same wire format.
func convert(from, to proto.Message) error {
	b, err := proto.Marshal(from)
	if err != nil {
		return err
	}
	return proto.Unmarshal(b, to)
}

// checkLoopback refuses targets that would send insecure traffic off the
// machine.
func checkLoopback(target string) error {
	t := target
	for _, scheme := range []string{"unix:", "unix-abstract:"} {
		if strings.HasPrefix(t, scheme) {
			return nil
		}
	}
	for _, scheme := range []string{"dns:///", "passthrough:///"} {
		t = strings.TrimPrefix(t, scheme)
	}
	host, _, err := net.SplitHostPort(t)
	if err != nil {
		return errors.Wrapf(err, "cannot parse function target %q (want host:port)", target)
	}
	if host == "localhost" {
		return nil
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsLoopback() {
		return nil
	}
	return errors.Errorf("refusing insecure gRPC to function target %q: the host must be localhost or a loopback address", target)
}
