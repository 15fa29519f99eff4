package pipeline

import (
	"context"
	"testing"

	fnv1 "github.com/crossplane/function-sdk-go/proto/v1"
	"github.com/google/go-cmp/cmp"

	"github.com/xpmigrate/xpmigrate/internal/jsonobj"
	"github.com/xpmigrate/xpmigrate/render"
)

const nopXR = `{"apiVersion":"nop.example.org/v1alpha1","kind":"XNopResource","metadata":{"name":"test-render"}}`

func nopComposition() map[string]any {
	c := pipelineComposition(fnStep("test", "function-test"))
	setNested(c, map[string]any{"apiVersion": "nop.example.org/v1alpha1", "kind": "XNopResource"}, "spec", "compositeTypeRef")
	return c
}

// TestRender covers the `crossplane render` vectors
// (docs/semantics/pipeline.md#test-vectors) and the printed objects of docs/semantics/render-format.md#the-xr-document and the two sections after it.
func TestRender(t *testing.T) {
	type want struct {
		xr       map[string]any
		composed []map[string]any
		results  []render.Result
		context  map[string]any
		err      string
	}
	composedMeta := func(name string) string {
		return `"metadata":{"generateName":"test-render-","labels":{"crossplane.io/composite":"test-render"},"annotations":{"crossplane.io/composition-resource-name":"` + name + `"},"ownerReferences":[{"apiVersion":"nop.example.org/v1alpha1","kind":"XNopResource","name":"test-render","uid":"","controller":true,"blockOwnerDeletion":true}]}`
	}
	twoResources := func(ready fnv1.Ready) map[string]*fnv1.Resource {
		return map[string]*fnv1.Resource{
			"b-cool-resource": {Resource: st(`{"apiVersion":"atest.crossplane.io/v1","kind":"AComposed","spec":{"widgets":9003}}`), Ready: ready},
			"a-cool-resource": {Resource: st(`{"apiVersion":"btest.crossplane.io/v1","kind":"BComposed","spec":{"widgets":9002}}`), Ready: ready},
		}
	}
	bothComposed := []map[string]any{
		obj(`{"apiVersion":"btest.crossplane.io/v1","kind":"BComposed","spec":{"widgets":9002},` + composedMeta("a-cool-resource") + `}`),
		obj(`{"apiVersion":"atest.crossplane.io/v1","kind":"AComposed","spec":{"widgets":9003},` + composedMeta("b-cool-resource") + `}`),
	}

	cases := map[string]struct {
		reason   string
		xr       string
		observed []map[string]any
		fns      Functions
		o        Options
		want     want
	}{
		"R01Success": {
			reason: "The XR is the desired XR with a Ready condition from the composed resources and the function's conditions; composed resources are sorted and carry crank's metadata.",
			xr:     nopXR,
			fns: Functions{"function-test": respond(&fnv1.RunFunctionResponse{
				Desired: &fnv1.State{
					Composite: &fnv1.Resource{Resource: st(`{"status":{"widgets":9001,"conditions":[{"lastTransitionTime":"2024-01-01T00:00:00Z","type":"Ready","status":"False","reason":"Creating","message":"Unready resources: a-cool-resource, b-cool-resource"}]}}`)},
					Resources: twoResources(fnv1.Ready_READY_UNSPECIFIED),
				},
				Conditions: []*fnv1.Condition{{Type: "ProvisioningSuccess", Status: fnv1.Status_STATUS_CONDITION_TRUE, Reason: "Provisioned", Message: ptr("Provisioned successfully"), Target: fnv1.Target_TARGET_COMPOSITE_AND_CLAIM.Enum()}},
			})},
			o: Options{Context: map[string]any{"crossplane.io/context-key": map[string]any{}}},
			want: want{
				xr: obj(`{"apiVersion":"nop.example.org/v1alpha1","kind":"XNopResource","metadata":{"name":"test-render"},"status":{"widgets":9001,"conditions":[
					{"type":"Ready","status":"False","reason":"Creating","message":"Unready resources: a-cool-resource, b-cool-resource","lastTransitionTime":"2024-01-01T00:00:00Z"},
					{"type":"ProvisioningSuccess","status":"True","reason":"Provisioned","message":"Provisioned successfully","lastTransitionTime":"2024-01-01T00:00:00Z"}]}}`),
				composed: bothComposed,
			},
		},
		"R02SuccessReady": {
			reason: "When every composed resource is ready the XR is Available, replacing the function's Ready condition.",
			xr:     nopXR,
			fns: Functions{"function-test": respond(&fnv1.RunFunctionResponse{
				Desired: &fnv1.State{
					Composite: &fnv1.Resource{Resource: st(`{"status":{"widgets":9001,"conditions":[{"lastTransitionTime":"2024-01-01T00:00:00Z","type":"Ready","status":"False","reason":"Creating","message":"Unready resources: a-cool-resource, b-cool-resource"}]}}`)},
					Resources: twoResources(fnv1.Ready_READY_TRUE),
				},
				Context: st(`{"crossplane.io/context-key":{}}`),
			})},
			want: want{
				xr:       obj(`{"apiVersion":"nop.example.org/v1alpha1","kind":"XNopResource","metadata":{"name":"test-render"},"status":{"widgets":9001,"conditions":[{"type":"Ready","status":"True","reason":"Available","lastTransitionTime":"2024-01-01T00:00:00Z"}]}}`),
				composed: bothComposed,
				context:  map[string]any{"crossplane.io/context-key": map[string]any{}},
			},
		},
		"R03FatalResult": {
			reason: "A FATAL result fails the render and prints nothing.",
			xr:     nopXR,
			fns:    Functions{"function-test": respond(&fnv1.RunFunctionResponse{Results: []*fnv1.Result{{Severity: fnv1.Severity_SEVERITY_FATAL}}})},
			want:   want{err: `pipeline step "test" returned a fatal result: `},
		},
		"R04UnknownFunction": {
			reason: "A step whose function is not in the Functions file fails.",
			xr:     nopXR,
			fns:    Functions{},
			want:   want{err: `cannot run pipeline step "test": unknown Function "function-test" - does it exist in your Functions file?`},
		},
		"R09DesiredXRReadyIgnored": {
			reason: "crossplane render v1.20 ignores desired.composite.ready.",
			xr:     nopXR,
			fns: Functions{"function-test": respond(&fnv1.RunFunctionResponse{
				Desired: &fnv1.State{Composite: &fnv1.Resource{Ready: fnv1.Ready_READY_FALSE}, Resources: twoResources(fnv1.Ready_READY_TRUE)},
			})},
			want: want{
				xr:       obj(`{"apiVersion":"nop.example.org/v1alpha1","kind":"XNopResource","metadata":{"name":"test-render"},"status":{"conditions":[{"type":"Ready","status":"True","reason":"Available","lastTransitionTime":"2024-01-01T00:00:00Z"}]}}`),
				composed: bothComposed,
			},
		},
		"Results": {
			reason: "Non-fatal results are kept with their step and severity name, in order, across steps.",
			xr:     nopXR,
			fns: Functions{"function-test": respond(&fnv1.RunFunctionResponse{Results: []*fnv1.Result{
				{Severity: fnv1.Severity_SEVERITY_WARNING, Message: "careful", Reason: ptr("Careful")},
				{Severity: fnv1.Severity_SEVERITY_NORMAL, Message: "fine"},
				{Severity: fnv1.Severity_SEVERITY_UNSPECIFIED, Message: "what"},
			}})},
			want: want{
				xr: obj(`{"apiVersion":"nop.example.org/v1alpha1","kind":"XNopResource","metadata":{"name":"test-render"},"status":{"conditions":[{"type":"Ready","status":"True","reason":"Available","lastTransitionTime":"2024-01-01T00:00:00Z"}]}}`),
				results: []render.Result{
					{Step: "test", Severity: "SEVERITY_WARNING", Message: "careful"},
					{Step: "test", Severity: "SEVERITY_NORMAL", Message: "fine"},
					{Step: "test", Severity: "SEVERITY_UNSPECIFIED", Message: "what"},
				},
			},
		},
		"SpecAndMetadataPrinted": {
			reason: "crank prints whatever the function wrote into the desired XR, spec and labels included, but forces apiVersion, kind and name from the input.",
			xr:     `{"apiVersion":"nop.example.org/v1alpha1","kind":"XNopResource","metadata":{"name":"test-render","uid":"u-1"},"spec":{"claimRef":{"namespace":"ns","name":"claim"}}}`,
			fns: Functions{"function-test": respond(&fnv1.RunFunctionResponse{
				Desired: &fnv1.State{
					Composite: &fnv1.Resource{Resource: st(`{"apiVersion":"wrong/v1","kind":"Wrong","metadata":{"name":"wrong","labels":{"x":"y"}},"spec":{"arn":"a"}}`)},
					Resources: map[string]*fnv1.Resource{"r": {Resource: st(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"fixed","namespace":"ns1"}}`), Ready: fnv1.Ready_READY_TRUE}},
				},
			})},
			want: want{
				xr: obj(`{"apiVersion":"nop.example.org/v1alpha1","kind":"XNopResource","metadata":{"name":"test-render","labels":{"x":"y"}},"spec":{"arn":"a"},"status":{"conditions":[{"type":"Ready","status":"True","reason":"Available","lastTransitionTime":"2024-01-01T00:00:00Z"}]}}`),
				composed: []map[string]any{obj(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"fixed","namespace":"ns1","generateName":"test-render-",
					"labels":{"crossplane.io/composite":"test-render","crossplane.io/claim-name":"claim","crossplane.io/claim-namespace":"ns"},
					"annotations":{"crossplane.io/composition-resource-name":"r"},
					"ownerReferences":[{"apiVersion":"nop.example.org/v1alpha1","kind":"XNopResource","name":"test-render","uid":"u-1","controller":true,"blockOwnerDeletion":true}]}}`)},
			},
		},
		"ObservedNameAndNamespace": {
			reason: "A desired resource that is observed takes the observed name and namespace; an observed resource without a namespace removes the desired one.",
			xr:     nopXR,
			observed: []map[string]any{
				obj(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"test-render-x7k2p","generateName":"test-render-","annotations":{"crossplane.io/composition-resource-name":"r"}}}`),
			},
			fns: Functions{"function-test": respond(&fnv1.RunFunctionResponse{
				Desired: &fnv1.State{Resources: map[string]*fnv1.Resource{"r": {Resource: st(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"mine","namespace":"ns1"}}`)}}},
			})},
			want: want{
				xr: obj(`{"apiVersion":"nop.example.org/v1alpha1","kind":"XNopResource","metadata":{"name":"test-render"},"status":{"conditions":[{"type":"Ready","status":"False","reason":"Creating","message":"Unready resources: r","lastTransitionTime":"2024-01-01T00:00:00Z"}]}}`),
				composed: []map[string]any{obj(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"test-render-x7k2p","generateName":"test-render-",
					"labels":{"crossplane.io/composite":"test-render"},"annotations":{"crossplane.io/composition-resource-name":"r"},
					"ownerReferences":[{"apiVersion":"nop.example.org/v1alpha1","kind":"XNopResource","name":"test-render","uid":"","controller":true,"blockOwnerDeletion":true}]}}`)},
			},
		},
		"FunctionReadyConditionKept": {
			reason: "A function's condition equal to the derived one but for its time is kept as it was, here with a null lastTransitionTime (crossplane-runtime SetConditions); system types from functions are dropped.",
			xr:     nopXR,
			fns: Functions{"function-test": respond(&fnv1.RunFunctionResponse{
				Desired:    &fnv1.State{Composite: &fnv1.Resource{Resource: st(`{"status":{"conditions":[{"type":"Ready","status":"True","reason":"Available","extra":"dropped"}]}}`)}},
				Conditions: []*fnv1.Condition{{Type: "Synced", Status: fnv1.Status_STATUS_CONDITION_FALSE, Reason: "Nope"}, {Type: "Custom", Status: fnv1.Status_STATUS_CONDITION_UNSPECIFIED, Reason: "Why"}},
			})},
			want: want{
				xr: obj(`{"apiVersion":"nop.example.org/v1alpha1","kind":"XNopResource","metadata":{"name":"test-render"},"status":{"conditions":[
					{"type":"Ready","status":"True","reason":"Available","lastTransitionTime":null},
					{"type":"Custom","status":"Unknown","reason":"Why","lastTransitionTime":"2024-01-01T00:00:00Z"}]}}`),
			},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			out, err := Compose(context.Background(), obj(tc.xr), nopComposition(), tc.observed, tc.fns, tc.o)
			if diff := cmp.Diff(tc.want.err, errText(err)); diff != "" {
				t.Errorf("\n%s\nCompose(...): -want error, +got error:\n%s", tc.reason, diff)
			}
			if err != nil {
				if out != nil && out.XR != nil {
					t.Errorf("\n%s\nCompose(...): a failed render printed an XR: %v", tc.reason, out.XR)
				}
				return
			}
			if diff := cmp.Diff(tc.want.xr, out.XR); diff != "" {
				t.Errorf("\n%s\nCompose(...): -want XR, +got XR:\n%s", tc.reason, diff)
			}
			var composed []map[string]any
			for _, cd := range out.Composed {
				composed = append(composed, cd.Desired)
			}
			if diff := cmp.Diff(tc.want.composed, composed); diff != "" {
				t.Errorf("\n%s\nCompose(...): -want composed, +got composed:\n%s", tc.reason, diff)
			}
			if diff := cmp.Diff(tc.want.results, out.Results); diff != "" {
				t.Errorf("\n%s\nCompose(...): -want results, +got results:\n%s", tc.reason, diff)
			}
			if diff := cmp.Diff(tc.want.context, out.Context); diff != "" {
				t.Errorf("\n%s\nCompose(...): -want context, +got context:\n%s", tc.reason, diff)
			}
		})
	}
}

// TestReconcilerXR covers the reconciler profile's XR (docs/semantics/pipeline.md#from-desired-state-to-cluster-writes
// to docs/semantics/pipeline.md#the-effective-xr, and R-09 for Crossplane's own readiness): only status persists,
// desired.composite.ready overrides, Synced is set, and a failure leaves
// Synced False with unseen custom conditions Unknown.
func TestReconcilerXR(t *testing.T) {
	const xr = `{"apiVersion":"test.crossplane.io/v1","kind":"XR","metadata":{"name":"parent-xr","uid":"xr-uid","generation":3,"labels":{"crossplane.io/composite":"parent-xr"}},
		"spec":{"region":"eu"},
		"status":{"kept":"yes","nested":{"a":1,"b":2},"list":[1,2],"conditions":[{"type":"Old","status":"True","reason":"Fine","lastTransitionTime":"2023-01-01T00:00:00Z"}]}}`
	ok := &fnv1.RunFunctionResponse{
		Desired: &fnv1.State{
			Composite: &fnv1.Resource{Resource: st(`{"apiVersion":"test.crossplane.io/v1","kind":"XR","spec":{"arn":"dropped"},"status":{"nested":{"b":3},"list":[9],"arn":"a"}}`), Ready: fnv1.Ready_READY_FALSE},
			Resources: map[string]*fnv1.Resource{"r": {Resource: st(`{"apiVersion":"v1","kind":"ConfigMap"}`), Ready: fnv1.Ready_READY_TRUE}},
		},
		Conditions: []*fnv1.Condition{{Type: "Custom", Status: fnv1.Status_STATUS_CONDITION_TRUE, Reason: "Done", Target: fnv1.Target_TARGET_COMPOSITE_AND_CLAIM.Enum()}},
	}
	fatal := &fnv1.RunFunctionResponse{
		Results:    []*fnv1.Result{{Severity: fnv1.Severity_SEVERITY_NORMAL, Message: "first"}, {Severity: fnv1.Severity_SEVERITY_FATAL, Message: "boom"}},
		Conditions: []*fnv1.Condition{{Type: "Custom", Status: fnv1.Status_STATUS_CONDITION_FALSE, Reason: "Broken"}},
	}
	cmName := generatedName("parent-xr-", "xr-uid", "r")

	type want struct {
		xr     map[string]any
		events []render.Event
		name   string
		err    string
	}
	cases := map[string]struct {
		reason string
		rsp    *fnv1.RunFunctionResponse
		want   want
	}{
		"Success": {
			reason: "Status merges over the observed status, spec writes are dropped, READY_FALSE gives Creating without a message.",
			rsp:    ok,
			want: want{
				xr: obj(`{"apiVersion":"test.crossplane.io/v1","kind":"XR","metadata":{"name":"parent-xr","uid":"xr-uid","generation":3,"labels":{"crossplane.io/composite":"parent-xr"}},
					"spec":{"region":"eu","resourceRefs":[{"apiVersion":"v1","kind":"ConfigMap","name":"` + cmName + `"}]},
					"status":{"kept":"yes","nested":{"a":1,"b":3},"list":[9],"arn":"a","claimConditionTypes":["Custom"],"conditions":[
						{"type":"Old","status":"True","reason":"Fine","lastTransitionTime":"2023-01-01T00:00:00Z"},
						{"type":"Custom","status":"True","reason":"Done","lastTransitionTime":"2024-01-01T00:00:00Z"},
						{"type":"Synced","status":"True","reason":"ReconcileSuccess","observedGeneration":3,"lastTransitionTime":"2024-01-01T00:00:00Z"},
						{"type":"Ready","status":"False","reason":"Creating","observedGeneration":3,"lastTransitionTime":"2024-01-01T00:00:00Z"}]}}`),
				name: cmName,
			},
		},
		"Fatal": {
			reason: "A fatal result leaves Synced False with the error, sets the custom conditions seen and marks the others Unknown.",
			rsp:    fatal,
			want: want{
				xr: obj(`{"apiVersion":"test.crossplane.io/v1","kind":"XR","metadata":{"name":"parent-xr","uid":"xr-uid","generation":3,"labels":{"crossplane.io/composite":"parent-xr"}},
					"spec":{"region":"eu"},
					"status":{"kept":"yes","nested":{"a":1,"b":2},"list":[1,2],"conditions":[
						{"type":"Old","status":"Unknown","reason":"FatalError","message":"A fatal error occurred before the status of this condition could be determined.","observedGeneration":3,"lastTransitionTime":"2023-01-01T00:00:00Z"},
						{"type":"Synced","status":"False","reason":"ReconcileError","message":"cannot compose resources: pipeline step \"s\" returned a fatal result: boom","observedGeneration":3,"lastTransitionTime":"2024-01-01T00:00:00Z"},
						{"type":"Custom","status":"False","reason":"Broken","lastTransitionTime":"2024-01-01T00:00:00Z"}]}}`),
				events: []render.Event{
					{Type: render.EventWarning, Reason: ReasonComposeResources, Message: `cannot compose resources: pipeline step "s" returned a fatal result: boom`},
					{Type: render.EventNormal, Reason: ReasonComposeResources, Message: `Pipeline step "s": first`},
				},
				err: `pipeline step "s" returned a fatal result: boom`,
			},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			out, err := Compose(context.Background(), obj(xr), pipelineComposition(fnStep("s", "fn")), nil, Functions{"fn": respond(tc.rsp)}, Options{Profile: Reconciler})
			if diff := cmp.Diff(tc.want.err, errText(err)); diff != "" {
				t.Errorf("\n%s\nCompose(...): -want error, +got error:\n%s", tc.reason, diff)
			}
			if diff := cmp.Diff(tc.want.xr, out.XR); diff != "" {
				t.Errorf("\n%s\nCompose(...): -want XR, +got XR:\n%s", tc.reason, diff)
			}
			if diff := cmp.Diff(tc.want.xr, out.EffectiveXR); diff != "" {
				t.Errorf("\n%s\nCompose(...): -want EffectiveXR, +got EffectiveXR:\n%s", tc.reason, diff)
			}
			if diff := cmp.Diff(tc.want.events, out.Events); diff != "" {
				t.Errorf("\n%s\nCompose(...): -want events, +got events:\n%s", tc.reason, diff)
			}
			var name string
			if len(out.Composed) > 0 {
				name = jsonobj.String(out.Composed[0].Desired, "metadata", "name")
			}
			if diff := cmp.Diff(tc.want.name, name); diff != "" {
				t.Errorf("\n%s\nCompose(...): -want composed name, +got composed name:\n%s", tc.reason, diff)
			}
		})
	}
}

// TestReconcilerReadiness covers R-09 in the reconciler profile and the
// reconciler's composed resource metadata.
func TestReconcilerReadiness(t *testing.T) {
	type want struct {
		ready map[string]any
		meta  map[string]any
	}
	cases := map[string]struct {
		reason string
		xr     string
		ready  fnv1.Ready
		cd     fnv1.Ready
		want   want
	}{
		"R09DesiredXRReadyFalse": {
			reason: "desired.composite.ready FALSE overrides ready composed resources: Creating, no message.",
			xr:     testXR,
			ready:  fnv1.Ready_READY_FALSE,
			cd:     fnv1.Ready_READY_TRUE,
			want: want{
				ready: obj(`{"type":"Ready","status":"False","reason":"Creating","lastTransitionTime":"2024-01-01T00:00:00Z"}`),
				meta: obj(`{"name":"` + generatedName("parent-xr-", "xr-uid", "r") + `","generateName":"parent-xr-",
					"labels":{"crossplane.io/composite":"parent-xr","crossplane.io/claim-name":"","crossplane.io/claim-namespace":""},
					"annotations":{"crossplane.io/composition-resource-name":"r"},
					"ownerReferences":[{"apiVersion":"test.crossplane.io/v1","kind":"XR","name":"parent-xr","uid":"xr-uid","controller":true,"blockOwnerDeletion":true}]}`),
			},
		},
		"DesiredXRReadyTrue": {
			reason: "desired.composite.ready TRUE overrides unready composed resources: Available. Claim labels come from the XR's labels.",
			xr:     `{"apiVersion":"test.crossplane.io/v1","kind":"XR","metadata":{"name":"x-abc","uid":"u","labels":{"crossplane.io/composite":"claim-abc","crossplane.io/claim-name":"claim","crossplane.io/claim-namespace":"ns"}}}`,
			ready:  fnv1.Ready_READY_TRUE,
			cd:     fnv1.Ready_READY_UNSPECIFIED,
			want: want{
				ready: obj(`{"type":"Ready","status":"True","reason":"Available","lastTransitionTime":"2024-01-01T00:00:00Z"}`),
				meta: obj(`{"name":"` + generatedName("claim-abc-", "u", "r") + `","generateName":"claim-abc-",
					"labels":{"crossplane.io/composite":"claim-abc","crossplane.io/claim-name":"claim","crossplane.io/claim-namespace":"ns"},
					"annotations":{"crossplane.io/composition-resource-name":"r"},
					"ownerReferences":[{"apiVersion":"test.crossplane.io/v1","kind":"XR","name":"x-abc","uid":"u","controller":true,"blockOwnerDeletion":true}]}`),
			},
		},
		"Unspecified": {
			reason: "With no override, unready composed resources give Creating with their names.",
			xr:     testXR,
			cd:     fnv1.Ready_READY_UNSPECIFIED,
			want: want{
				ready: obj(`{"type":"Ready","status":"False","reason":"Creating","message":"Unready resources: r","lastTransitionTime":"2024-01-01T00:00:00Z"}`),
				meta: obj(`{"name":"` + generatedName("parent-xr-", "xr-uid", "r") + `","generateName":"parent-xr-",
					"labels":{"crossplane.io/composite":"parent-xr","crossplane.io/claim-name":"","crossplane.io/claim-namespace":""},
					"annotations":{"crossplane.io/composition-resource-name":"r"},
					"ownerReferences":[{"apiVersion":"test.crossplane.io/v1","kind":"XR","name":"parent-xr","uid":"xr-uid","controller":true,"blockOwnerDeletion":true}]}`),
			},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			rsp := &fnv1.RunFunctionResponse{Desired: &fnv1.State{
				Composite: &fnv1.Resource{Ready: tc.ready},
				Resources: map[string]*fnv1.Resource{"r": {Resource: st(`{"apiVersion":"v1","kind":"ConfigMap"}`), Ready: tc.cd}},
			}}
			out, err := Compose(context.Background(), obj(tc.xr), pipelineComposition(fnStep("s", "fn")), nil, Functions{"fn": respond(rsp)}, Options{Profile: Reconciler})
			if err != nil {
				t.Fatalf("\n%s\nCompose(...): %v", tc.reason, err)
			}
			var ready any
			for _, c := range getConditions(out.XR) {
				if c.Type == render.ConditionTypeReady {
					ready = c.object()
				}
			}
			if diff := cmp.Diff(any(tc.want.ready), ready); diff != "" {
				t.Errorf("\n%s\nCompose(...): -want Ready, +got Ready:\n%s", tc.reason, diff)
			}
			if diff := cmp.Diff(tc.want.meta, out.Composed[0].Desired["metadata"]); diff != "" {
				t.Errorf("\n%s\nCompose(...): -want metadata, +got metadata:\n%s", tc.reason, diff)
			}
		})
	}
}
