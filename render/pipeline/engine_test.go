package pipeline

import (
	"context"
	"strings"
	"testing"

	fnv1 "github.com/crossplane/function-sdk-go/proto/v1"
	"github.com/google/go-cmp/cmp"
	"google.golang.org/protobuf/testing/protocmp"
	"google.golang.org/protobuf/types/known/structpb"
)

// TestParseComposition covers the checks crossplane render makes before it
// runs a pipeline (docs/semantics/pipeline.md#crossplane-render, docs/semantics/render-format.md#input-checks-and-their-order).
func TestParseComposition(t *testing.T) {
	withSpec := func(path []string, v any) map[string]any {
		c := pipelineComposition(fnStep("s", "fn"))
		setNested(c, v, path...)
		return c
	}
	cases := map[string]struct {
		reason string
		xr     string
		comp   map[string]any
		want   string
	}{
		"NotAComposition": {
			reason: "Only apiextensions.crossplane.io/v1 Compositions are read.",
			xr:     testXR,
			comp:   withSpec([]string{"kind"}, "Function"),
			want:   "not a composition: Function/test-composition",
		},
		"KindMismatch": {
			reason: "The XR's kind must be the compositeTypeRef's.",
			xr:     `{"apiVersion":"test.crossplane.io/v1","kind":"Other"}`,
			comp:   pipelineComposition(),
			want:   "composition's compositeTypeRef.kind (XR) does not match XR's kind (Other)",
		},
		"APIVersionMismatch": {
			reason: "The XR's apiVersion must be the compositeTypeRef's; a claim fails here.",
			xr:     `{"apiVersion":"test.crossplane.io/v2","kind":"XR"}`,
			comp:   pipelineComposition(),
			want:   "composition's compositeTypeRef.apiVersion (test.crossplane.io/v1) does not match XR's apiVersion (test.crossplane.io/v2)",
		},
		"MissingLabel": {
			reason: "The Composition must carry every label the XR selects on.",
			xr:     `{"apiVersion":"test.crossplane.io/v1","kind":"XR","spec":{"compositionSelector":{"matchLabels":{"env":"prod"}}}}`,
			comp:   pipelineComposition(),
			want:   `composition "test-composition" is missing required label "env"`,
		},
		"WrongLabel": {
			reason: "Selected labels must have the same value.",
			xr:     `{"apiVersion":"test.crossplane.io/v1","kind":"XR","spec":{"compositionSelector":{"matchLabels":{"env":"prod"}}}}`,
			comp:   withSpec([]string{"metadata", "labels"}, map[string]any{"env": "dev"}),
			want:   `composition "test-composition" has incorrect value for label "env": want "prod", got "dev"`,
		},
		"ResourcesMode": {
			reason: "Only pipelines render.",
			xr:     testXR,
			comp:   withSpec([]string{"spec", "mode"}, "Resources"),
			want:   `render only supports Composition Function pipelines: Composition "test-composition" must use spec.mode: Pipeline`,
		},
		"NoMode": {
			reason: "A missing mode means Resources.",
			xr:     testXR,
			comp:   withSpec([]string{"spec", "mode"}, nil),
			want:   `render only supports Composition Function pipelines: Composition "test-composition" must use spec.mode: Pipeline`,
		},
		"Valid": {
			reason: "A matching Pipeline Composition passes.",
			xr:     testXR,
			comp:   pipelineComposition(fnStep("s", "fn")),
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := parseComposition(tc.comp, obj(tc.xr))
			if diff := cmp.Diff(tc.want, errText(err)); diff != "" {
				t.Errorf("\n%s\nparseComposition(...): -want error, +got error:\n%s", tc.reason, diff)
			}
		})
	}
}

// TestRequest covers what a step's request carries: observed state, input,
// context and credentials as protobuf values whose numbers are float64
// (rule N1), the tag in the reconciler profile, and the errors on the way.
func TestRequest(t *testing.T) {
	xr := `{"apiVersion":"test.crossplane.io/v1","kind":"XR","metadata":{"name":"parent-xr"},"spec":{"replicas":3}}`
	type want struct {
		req *fnv1.RunFunctionRequest
		err string
	}
	cases := map[string]struct {
		reason string
		step   map[string]any
		o      Options
		want   want
	}{
		"InputAndContext": {
			reason: "Input and seeded context reach the function as Structs; integers are float64 on the wire.",
			step:   map[string]any{"step": "s", "functionRef": map[string]any{"name": "fn"}, "input": map[string]any{"apiVersion": "x/v1", "kind": "Input", "count": int64(2)}},
			o:      Options{Context: map[string]any{"example.org/k": map[string]any{"n": 1, "f": 1.5}}},
			want: want{req: &fnv1.RunFunctionRequest{
				Observed: &fnv1.State{Composite: &fnv1.Resource{Resource: st(xr)}},
				Desired:  &fnv1.State{},
				Input:    st(`{"apiVersion":"x/v1","kind":"Input","count":2}`),
				Context:  st(`{"example.org/k":{"n":1,"f":1.5}}`),
			}},
		},
		"ReconcilerTag": {
			reason: "The reconciler tags each request with the SHA-256 of its deterministic encoding.",
			step:   fnStep("s", "fn"),
			o:      Options{Profile: Reconciler},
			want: want{req: &fnv1.RunFunctionRequest{
				Meta:     &fnv1.RequestMeta{Tag: tagOf(t, &fnv1.RunFunctionRequest{Observed: &fnv1.State{Composite: &fnv1.Resource{Resource: st(xr)}}, Desired: &fnv1.State{}, Context: &structpb.Struct{}})},
				Observed: &fnv1.State{Composite: &fnv1.Resource{Resource: st(xr)}},
				Desired:  &fnv1.State{},
				Context:  &structpb.Struct{},
			}},
		},
		"MissingSecret": {
			reason: "Credentials naming a Secret that was not supplied fail the step.",
			step: map[string]any{"step": "s", "functionRef": map[string]any{"name": "fn"},
				"credentials": []any{map[string]any{"name": "c", "source": "Secret", "secretRef": map[string]any{"namespace": "ns", "name": "gone"}}}},
			want: want{err: `cannot get credentials from secret "gone": secret "gone" not found`},
		},
		"BadInput": {
			reason: "An input that is not an object cannot become a Struct.",
			step:   map[string]any{"step": "s", "functionRef": map[string]any{"name": "fn"}, "input": "text"},
			// protobuf-go varies its error text on purpose; compare the prefix.
			want: want{err: `cannot unmarshal input for Composition pipeline step "s": `},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			fn := respond(&fnv1.RunFunctionResponse{})
			_, err := Compose(context.Background(), obj(xr), pipelineComposition(tc.step), nil, Functions{"fn": fn}, tc.o)
			got := errText(err)
			if tc.want.err != "" && strings.HasPrefix(got, tc.want.err) {
				got = tc.want.err
			}
			if diff := cmp.Diff(tc.want.err, got); diff != "" {
				t.Errorf("\n%s\nCompose(...): -want error, +got error:\n%s", tc.reason, diff)
			}
			var req *fnv1.RunFunctionRequest
			if len(fn.requests) > 0 {
				req = fn.requests[0]
			}
			if diff := cmp.Diff(tc.want.req, req, protocmp.Transform()); diff != "" {
				t.Errorf("\n%s\nCompose(...): -want request, +got request:\n%s", tc.reason, diff)
			}
		})
	}
}

func tagOf(t *testing.T, req *fnv1.RunFunctionRequest) string {
	t.Helper()
	e := &engine{o: Options{Profile: Reconciler}, state: req.GetObserved()}
	r, err := e.request(step{Step: "s"}, req.GetDesired(), req.GetContext(), true)
	if err != nil {
		t.Fatal(err)
	}
	return r.GetMeta().GetTag()
}

// TestPipeline covers how state flows between steps (docs/semantics/pipeline.md#the-pipeline-loop):
// each step gets the previous step's desired state and context, a nil
// context stays nil, the smallest TTL wins, and a later FATAL stops the run.
func TestPipeline(t *testing.T) {
	first := respond(&fnv1.RunFunctionResponse{
		Meta:    ttl(60e9),
		Desired: &fnv1.State{Resources: map[string]*fnv1.Resource{"a": {Resource: st(testCD)}}},
		Context: st(`{"k":"v"}`),
	})
	second := RunnerFn(func(_ context.Context, req *fnv1.RunFunctionRequest) (*fnv1.RunFunctionResponse, error) {
		return &fnv1.RunFunctionResponse{Meta: ttl(30e9), Desired: req.GetDesired()}, nil
	})
	third := respond(&fnv1.RunFunctionResponse{})

	rep, err := ComposeReport(context.Background(), obj(testXR),
		pipelineComposition(fnStep("one", "first"), fnStep("two", "second"), fnStep("three", "third")),
		nil, Functions{"first": first, "second": second, "third": third}, Options{})
	if err != nil {
		t.Fatalf("ComposeReport(...): %v", err)
	}
	if diff := cmp.Diff(int64(30e9), int64(rep.TTL)); diff != "" {
		t.Errorf("ComposeReport(...): -want TTL, +got TTL:\n%s", diff)
	}
	want := &fnv1.RunFunctionRequest{
		Observed: &fnv1.State{Composite: &fnv1.Resource{Resource: st(testXR)}},
		Desired:  &fnv1.State{Resources: map[string]*fnv1.Resource{"a": {Resource: st(testCD)}}},
	}
	if diff := cmp.Diff(want, third.requests[0], protocmp.Transform()); diff != "" {
		t.Errorf("ComposeReport(...): -want third request, +got third request:\n%s", diff)
	}
	if diff := cmp.Diff(map[string]any(nil), rep.Context); diff != "" {
		t.Errorf("ComposeReport(...): -want context, +got context:\n%s", diff)
	}
}

func TestStableNAndSomeMore(t *testing.T) {
	cases := map[string]struct {
		reason string
		names  []string
		want   string
	}{
		"One":   {reason: "One name is itself.", names: []string{"a"}, want: "a"},
		"Two":   {reason: "Two names are joined by a comma.", names: []string{"b", "a"}, want: "a, b"},
		"Three": {reason: "Three names end with 'and'.", names: []string{"c", "a", "b"}, want: "a, b, and c"},
		"Five":  {reason: "More than three names count the rest.", names: []string{"e", "d", "c", "b", "a"}, want: "a, b, c, and 2 more"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, stableNAndSomeMore(tc.names)); diff != "" {
				t.Errorf("\n%s\nstableNAndSomeMore(...): -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}

// TestSetConditions covers crossplane-runtime's decode and set of
// status.conditions, which crank render applies to the printed XR.
func TestSetConditions(t *testing.T) {
	ready := newCondition("Ready", "True", "Available", "", fixedTime())
	cases := map[string]struct {
		reason string
		xr     string
		want   map[string]any
	}{
		"NoStatus": {
			reason: "A missing status is created.",
			xr:     `{}`,
			want:   obj(`{"status":{"conditions":[{"type":"Ready","status":"True","reason":"Available","lastTransitionTime":"2024-01-01T00:00:00Z"}]}}`),
		},
		"StatusNotAnObject": {
			reason: "A status that is not an object cannot take conditions.",
			xr:     `{"status":"weird"}`,
			want:   obj(`{"status":"weird"}`),
		},
		"WrongTypesZeroed": {
			reason: "Fields of the wrong type decode as empty; unknown fields are dropped.",
			xr:     `{"status":{"conditions":[{"type":"A","status":"True","reason":1,"message":"m","observedGeneration":2,"x":"y"}]}}`,
			want: obj(`{"status":{"conditions":[
				{"type":"A","status":"True","reason":"","message":"m","observedGeneration":2,"lastTransitionTime":null},
				{"type":"Ready","status":"True","reason":"Available","lastTransitionTime":"2024-01-01T00:00:00Z"}]}}`),
		},
		"BadTimeStopsDecoding": {
			reason: "A bad lastTransitionTime stops decoding: a zero condition stands in for it and later ones are lost.",
			xr:     `{"status":{"conditions":[{"type":"A","status":"True","reason":"R"},{"type":"B","lastTransitionTime":"yesterday"},{"type":"C"}]}}`,
			want: obj(`{"status":{"conditions":[
				{"type":"A","status":"True","reason":"R","lastTransitionTime":null},
				{"type":"","status":"","reason":"","lastTransitionTime":null},
				{"type":"Ready","status":"True","reason":"Available","lastTransitionTime":"2024-01-01T00:00:00Z"}]}}`),
		},
		"ReplaceInPlace": {
			reason: "A different condition of the same type replaces the old one where it stands.",
			xr:     `{"status":{"conditions":[{"type":"Ready","status":"False","reason":"Creating","lastTransitionTime":"2020-01-01T00:00:00Z"},{"type":"B","status":"True","reason":"R","lastTransitionTime":"2020-01-01T00:00:00Z"}]}}`,
			want: obj(`{"status":{"conditions":[
				{"type":"Ready","status":"True","reason":"Available","lastTransitionTime":"2024-01-01T00:00:00Z"},
				{"type":"B","status":"True","reason":"R","lastTransitionTime":"2020-01-01T00:00:00Z"}]}}`),
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got := obj(tc.xr)
			setConditions(got, ready)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("\n%s\nsetConditions(...): -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}

// TestContextFromJSON covers R-04's bad context value.
func TestContextFromJSON(t *testing.T) {
	type want struct {
		ctx map[string]any
		err string
	}
	cases := map[string]struct {
		reason string
		values map[string][]byte
		want   want
	}{
		"Valid": {
			reason: "JSON values are parsed by key.",
			values: map[string][]byte{"a": []byte(`{"n":1}`), "b": []byte(`"s"`)},
			want:   want{ctx: map[string]any{"a": map[string]any{"n": float64(1)}, "b": "s"}},
		},
		"InvalidContextValue": {
			reason: "A value that is not JSON is an error naming its key.",
			values: map[string][]byte{"not-valid-json": []byte(`{`)},
			want:   want{err: `cannot unmarshal JSON value for context key "not-valid-json": unexpected end of JSON input`},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, err := ContextFromJSON(tc.values)
			if diff := cmp.Diff(tc.want.err, errText(err)); diff != "" {
				t.Errorf("\n%s\nContextFromJSON(...): -want error, +got error:\n%s", tc.reason, diff)
			}
			if diff := cmp.Diff(tc.want.ctx, got); diff != "" {
				t.Errorf("\n%s\nContextFromJSON(...): -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}

func TestSecretFromObject(t *testing.T) {
	type want struct {
		s   Secret
		err string
	}
	cases := map[string]struct {
		reason string
		obj    string
		want   want
	}{
		"Valid": {
			reason: "Data is base64-decoded.",
			obj:    `{"apiVersion":"v1","kind":"Secret","metadata":{"namespace":"ns","name":"s"},"data":{"k":"aHVudGVyMg=="},"stringData":{"ignored":"x"}}`,
			want:   want{s: Secret{Namespace: "ns", Name: "s", Data: map[string][]byte{"k": []byte("hunter2")}}},
		},
		"NotASecret": {
			reason: "Only Secrets hold credentials.",
			obj:    `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"s"}}`,
			want:   want{err: `cannot read credentials "s": kind is "ConfigMap", not Secret`},
		},
		"BadBase64": {
			reason: "Data must be base64.",
			obj:    `{"apiVersion":"v1","kind":"Secret","metadata":{"name":"s"},"data":{"k":"!"}}`,
			want:   want{err: `cannot decode Secret "s" data key "k": illegal base64 data at input byte 0`},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, err := SecretFromObject(obj(tc.obj))
			if diff := cmp.Diff(tc.want.err, errText(err)); diff != "" {
				t.Errorf("\n%s\nSecretFromObject(...): -want error, +got error:\n%s", tc.reason, diff)
			}
			if diff := cmp.Diff(tc.want.s, got); diff != "" {
				t.Errorf("\n%s\nSecretFromObject(...): -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}

func TestCheckLoopback(t *testing.T) {
	cases := map[string]struct {
		reason string
		target string
		ok     bool
	}{
		"Localhost":    {reason: "localhost is loopback.", target: "localhost:9443", ok: true},
		"IPv4":         {reason: "127.0.0.0/8 is loopback.", target: "127.0.0.1:1234", ok: true},
		"IPv6":         {reason: "::1 is loopback.", target: "[::1]:1234", ok: true},
		"Scheme":       {reason: "A dns scheme is stripped.", target: "dns:///localhost:9443", ok: true},
		"Unix":         {reason: "A unix socket is local.", target: "unix:///tmp/fn.sock", ok: true},
		"Remote":       {reason: "Insecure traffic may not leave the machine.", target: "example.org:9443"},
		"AllAddresses": {reason: "0.0.0.0 is not loopback.", target: "0.0.0.0:9443"},
		"NoPort":       {reason: "A target needs a port.", target: "localhost"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			err := checkLoopback(tc.target)
			if diff := cmp.Diff(tc.ok, err == nil); diff != "" {
				t.Errorf("\n%s\ncheckLoopback(%q): -want ok, +got ok (err %v):\n%s", tc.reason, tc.target, err, diff)
			}
		})
	}
}

// TestBuiltinsGetNoTag pins that in-process built-ins are sent no meta.tag
// (they would only echo it) while other functions get one.
func TestBuiltinsGetNoTag(t *testing.T) {
	if tagged(builtinRunner{}) {
		t.Error("tagged(built-in): want false")
	}
	if !tagged(RunnerFn(nil)) {
		t.Error("tagged(RunnerFn): want true")
	}
}

type builtinRunner struct{ RunnerFn }

func (builtinRunner) Builtin() bool { return true }
