// Package environmentconfigs runs function-environment-configs in process:
// it adapts package environment's plain-Go reproduction of the function to
// the function protocol, so the pipeline engine calls it exactly as it would
// call the real function over gRPC.
package environmentconfigs

import (
	"context"
	"encoding/json"
	"sort"
	"time"

	fnv1 "github.com/crossplane/function-sdk-go/proto/v1"
	"github.com/pkg/errors"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/durationpb"
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/xpmigrate/xpmigrate/environment"
	"github.com/xpmigrate/xpmigrate/internal/protostruct"
)

// responseTTL is the TTL the function SDK puts on every response.
const responseTTL = 60 * time.Second

// Function is function-environment-configs at one release line.
type Function struct {
	fn environment.Function
}

// New returns the function at the given release line: v0.6 for Crossplane
// v1.x (extra_resources), v0.7 for Crossplane v2 (required_resources).
func New(v environment.FunctionVersion) *Function {
	return &Function{fn: environment.Function{Version: v}}
}

// Builtin marks the function as running in process: the pipeline engine
// sends it no meta.tag, which it would only echo.
func (f *Function) Builtin() bool { return true }

// RunFunction runs the function once.
func (f *Function) RunFunction(_ context.Context, req *fnv1.RunFunctionRequest) (*fnv1.RunFunctionResponse, error) {
	rsp := &fnv1.RunFunctionResponse{
		Meta:    &fnv1.ResponseMeta{Tag: req.GetMeta().GetTag(), Ttl: durationpb.New(responseTTL)},
		Desired: req.GetDesired(),
		Context: req.GetContext(),
	}

	in, err := f.input(req.GetInput())
	if err != nil {
		return fatal(rsp, errors.Wrap(err, "cannot get Function input from *v1beta1.Input").Error()), nil
	}

	fr := environment.FunctionRequest{
		Observed:  req.GetObserved().GetComposite().GetResource().AsMap(),
		Resources: f.received(req),
	}
	if c := req.GetContext(); c != nil {
		if v, ok := c.GetFields()[environment.ContextKeyEnvironment]; ok {
			if m, ok := v.AsInterface().(map[string]any); ok {
				fr.Environment = m
			}
		}
	}

	out, runErr := f.fn.Run(in, fr)
	if out != nil && out.Requirements != nil {
		rsp.Requirements = f.requirements(out.Requirements)
	}
	if runErr != nil {
		return fatal(rsp, runErr.Error()), nil
	}
	if out != nil && out.Environment != nil {
		var b protostruct.Builder
		env, err := b.NewValue(out.Environment)
		if err != nil {
			return fatal(rsp, errors.Wrap(err, "cannot encode the environment").Error()), nil
		}
		ctx := &structpb.Struct{}
		if c := req.GetContext(); c != nil {
			ctx = proto.Clone(c).(*structpb.Struct) //nolint:forcetypeassert // Clone returns the type it is given.
		}
		if ctx.Fields == nil {
			// A cloned empty Struct has no map to write to.
			ctx.Fields = map[string]*structpb.Value{}
		}
		ctx.Fields[environment.ContextKeyEnvironment] = env
		rsp.Context = ctx
	}
	return rsp, nil
}

func (f *Function) input(s *structpb.Struct) (*environment.Input, error) {
	b := []byte("{}")
	if s != nil {
		var err error
		if b, err = json.Marshal(s.AsMap()); err != nil {
			return nil, err
		}
	}
	return f.fn.DecodeInput(b)
}

// received returns the resources this release line reads.
func (f *Function) received(req *fnv1.RunFunctionRequest) environment.Resources {
	src := req.GetRequiredResources()
	if f.fn.Version == environment.FunctionV06 {
		src = req.GetExtraResources()
	}
	if len(src) == 0 {
		return nil
	}
	out := make(environment.Resources, len(src))
	for k, rs := range src {
		items := make([]map[string]any, 0, len(rs.GetItems()))
		for _, it := range rs.GetItems() {
			items = append(items, it.GetResource().AsMap())
		}
		out[k] = items
	}
	return out
}

func (f *Function) requirements(r environment.Requirements) *fnv1.Requirements {
	sel := make(map[string]*fnv1.ResourceSelector, len(r))
	keys := make([]string, 0, len(r))
	for k := range r {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		s := r[k]
		rs := &fnv1.ResourceSelector{ApiVersion: s.APIVersion, Kind: s.Kind}
		if s.MatchLabels != nil {
			rs.Match = &fnv1.ResourceSelector_MatchLabels{MatchLabels: &fnv1.MatchLabels{Labels: s.MatchLabels}}
		} else {
			rs.Match = &fnv1.ResourceSelector_MatchName{MatchName: s.MatchName}
		}
		sel[k] = rs
	}
	if f.fn.Version == environment.FunctionV06 {
		return &fnv1.Requirements{ExtraResources: sel}
	}
	return &fnv1.Requirements{Resources: sel}
}

func fatal(rsp *fnv1.RunFunctionResponse, msg string) *fnv1.RunFunctionResponse {
	rsp.Results = append(rsp.Results, &fnv1.Result{
		Severity: fnv1.Severity_SEVERITY_FATAL,
		Message:  msg,
		Target:   fnv1.Target_TARGET_COMPOSITE.Enum(),
	})
	return rsp
}
