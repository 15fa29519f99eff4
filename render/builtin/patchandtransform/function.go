package patchandtransform

import (
	"context"
	"maps"
	"time"

	fnv1 "github.com/crossplane/function-sdk-go/proto/v1"
	"github.com/pkg/errors"
	"google.golang.org/protobuf/types/known/durationpb"
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/xpmigrate/xpmigrate/internal/protostruct"
	"github.com/xpmigrate/xpmigrate/patchandtransform/function"
)

// TTL is how long the function says its response stays valid: the function
// SDK's default, which function-patch-and-transform uses.
const TTL = time.Minute

// Function is function-patch-and-transform v0.10.8, in process. The zero
// value is ready to use and safe for concurrent use; it reads every input
// afresh.
type Function struct {
	inputs *inputCache

	// native are the mechanisms that behave as the native composer's.
	native function.Native
}

// NewNative returns the function with the mechanisms n switches on
// behaving as Crossplane's native composer's (function.Native): what a
// verifier renders to test whether a known gap explains a difference.
func NewNative(n function.Native) *Function {
	return &Function{inputs: &inputCache{}, native: n}
}

// New returns the function. It remembers the last few inputs it read, so a
// step's input that comes again (the same Struct, as on every reconcile of a
// render) is decoded, validated and converted only once. Callers must not
// change an input Struct they have sent: a new input is a new Struct.
func New() *Function {
	return &Function{inputs: &inputCache{}}
}

// The pipeline engine calls built-in functions through this method alone.
var _ interface {
	RunFunction(context.Context, *fnv1.RunFunctionRequest) (*fnv1.RunFunctionResponse, error)
} = New()

// Builtin marks the function as running in process: the pipeline engine
// sends it no meta.tag, which it would only echo.
func (Function) Builtin() bool { return true }

// RunFunction runs the function once. It leaves req alone: the response
// shares no map with it. It fails only when a value cannot be converted to or
// from the protocol's types.
func (f Function) RunFunction(_ context.Context, req *fnv1.RunFunctionRequest) (*fnv1.RunFunctionResponse, error) {
	input := f.inputs.prepare(req.GetInput())
	in := function.Request{
		Desired: fromState(req.GetDesired()),
		Context: fromStruct(req.GetContext()),
	}
	if o := fromState(req.GetObserved()); o != nil {
		in.Observed = *o
	}
	// The request's objects were just decoded from Structs and the
	// response's are about to become Structs: the function may use them as
	// they are.
	out := input.RunOwnedNative(in, f.native)

	rsp := &fnv1.RunFunctionResponse{
		Meta: &fnv1.ResponseMeta{Tag: req.GetMeta().GetTag(), Ttl: durationpb.New(TTL)},
	}
	var err error
	var b builder
	if rsp.Desired, err = b.toState(out.Desired); err != nil {
		return nil, errors.Wrap(err, "cannot convert desired state")
	}
	if out.Context != nil {
		if rsp.Context, err = b.NewStruct(out.Context); err != nil {
			return nil, errors.Wrap(err, "cannot convert context")
		}
	}
	for _, r := range out.Results {
		rsp.Results = append(rsp.Results, toResult(r))
	}
	return rsp, nil
}

// fromState converts a State; nil for nil.
func fromState(s *fnv1.State) *function.State {
	if s == nil {
		return nil
	}
	out := &function.State{}
	if c := s.GetComposite(); c != nil {
		r := fromResource(c)
		out.Composite = &r
	}
	if len(s.GetResources()) > 0 {
		out.Resources = make(map[string]function.Resource, len(s.GetResources()))
		for name, r := range s.GetResources() {
			out.Resources[name] = fromResource(r)
		}
	}
	return out
}

func fromResource(r *fnv1.Resource) function.Resource {
	return function.Resource{
		Resource:          fromStruct(r.GetResource()),
		ConnectionDetails: maps.Clone(r.GetConnectionDetails()),
		Ready:             fromReady(r.GetReady()),
	}
}

// fromStruct converts a Struct to a map whose numbers are float64; nil for
// nil.
func fromStruct(s *structpb.Struct) map[string]any {
	if s == nil {
		return nil
	}
	return s.AsMap()
}

func fromReady(r fnv1.Ready) function.Ready {
	switch r {
	case fnv1.Ready_READY_TRUE:
		return function.ReadyTrue
	case fnv1.Ready_READY_FALSE:
		return function.ReadyFalse
	default:
		return function.ReadyUnspecified
	}
}

// A builder converts the function's objects to Structs as the function
// SDK does (structpb.NewStruct), taking the Values of all of them from one
// protostruct.Builder.
type builder struct {
	protostruct.Builder
}

// toState converts a State; nil for nil.
func (b *builder) toState(s *function.State) (*fnv1.State, error) {
	if s == nil {
		return nil, nil
	}
	out := &fnv1.State{}
	if s.Composite != nil {
		r, err := b.toResource(*s.Composite)
		if err != nil {
			return nil, errors.Wrap(err, "cannot convert composite resource")
		}
		out.Composite = r
	}
	if len(s.Resources) > 0 {
		out.Resources = make(map[string]*fnv1.Resource, len(s.Resources))
		for name, r := range s.Resources {
			pr, err := b.toResource(r)
			if err != nil {
				return nil, errors.Wrapf(err, "cannot convert composed resource %q", name)
			}
			out.Resources[name] = pr
		}
	}
	return out, nil
}

func (b *builder) toResource(r function.Resource) (*fnv1.Resource, error) {
	out := &fnv1.Resource{ConnectionDetails: r.ConnectionDetails, Ready: toReady(r.Ready)}
	if r.Resource != nil {
		s, err := b.NewStruct(r.Resource)
		if err != nil {
			return nil, err
		}
		out.Resource = s
	}
	return out, nil
}

func toReady(r function.Ready) fnv1.Ready {
	switch r {
	case function.ReadyTrue:
		return fnv1.Ready_READY_TRUE
	case function.ReadyFalse:
		return fnv1.Ready_READY_FALSE
	default:
		return fnv1.Ready_READY_UNSPECIFIED
	}
}

func toResult(r function.Result) *fnv1.Result {
	out := &fnv1.Result{Message: r.Message}
	switch r.Severity {
	case function.SeverityFatal:
		out.Severity = fnv1.Severity_SEVERITY_FATAL
	case function.SeverityWarning:
		out.Severity = fnv1.Severity_SEVERITY_WARNING
	case function.SeverityNormal:
		out.Severity = fnv1.Severity_SEVERITY_NORMAL
	default:
		out.Severity = fnv1.Severity_SEVERITY_UNSPECIFIED
	}
	switch r.Target {
	case function.TargetComposite:
		out.Target = fnv1.Target_TARGET_COMPOSITE.Enum()
	case function.TargetCompositeAndClaim:
		out.Target = fnv1.Target_TARGET_COMPOSITE_AND_CLAIM.Enum()
	}
	return out
}
