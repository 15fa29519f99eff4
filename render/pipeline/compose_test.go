package pipeline

import (
	"context"
	"testing"
	"time"

	fnv1 "github.com/crossplane/function-sdk-go/proto/v1"
	"github.com/google/go-cmp/cmp"

	"github.com/xpmigrate/xpmigrate/internal/jsonobj"
	"github.com/xpmigrate/xpmigrate/render"
)

const (
	testXR = `{"apiVersion":"test.crossplane.io/v1","kind":"XR","metadata":{"name":"parent-xr","uid":"xr-uid","labels":{"crossplane.io/composite":"parent-xr"}}}`
	testCD = `{"apiVersion":"test.crossplane.io/v1","kind":"CD"}`
)

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// TestComposer covers the function composer vectors E-01, E-02 and E-04
// (docs/semantics/pipeline.md#test-vectors).
func TestComposer(t *testing.T) {
	type want struct {
		composed   []composedSummary
		deleted    []string
		conn       map[string][]byte
		ttl        time.Duration
		events     []TargetedEvent
		conditions []Condition
		creds      map[string][]byte
		err        string
	}
	stepDetail := `Pipeline step "run-cool-function"`

	cases := map[string]struct {
		reason   string
		observed []map[string]any
		step     map[string]any
		rsp      *fnv1.RunFunctionResponse
		o        Options
		want     want
	}{
		"E01Successful": {
			reason: "Desired resources, XR connection details, TTL, every result severity and conditions come back from a successful pipeline.",
			observed: []map[string]any{
				obj(`{"apiVersion":"test.crossplane.io/v1","kind":"CD","metadata":{"name":"observed-resource-a","annotations":{"crossplane.io/composition-resource-name":"observed-resource-a"}}}`),
			},
			step: map[string]any{
				"step":        "run-cool-function",
				"functionRef": map[string]any{"name": "cool-function"},
				"credentials": []any{map[string]any{"name": "cool-secret", "source": "Secret", "secretRef": map[string]any{"namespace": "default", "name": "cool-secret"}}},
			},
			rsp: &fnv1.RunFunctionResponse{
				Meta: ttl(5 * time.Minute),
				Desired: &fnv1.State{
					Composite: &fnv1.Resource{
						Resource:          st(`{"status":{"widgets":42}}`),
						ConnectionDetails: map[string][]byte{"from": []byte("function-pipeline")},
					},
					Resources: map[string]*fnv1.Resource{
						"observed-resource-a": {Resource: st(testCD), Ready: fnv1.Ready_READY_TRUE},
						"desired-resource-a":  {Resource: st(testCD)},
					},
				},
				Results: []*fnv1.Result{
					{Severity: fnv1.Severity_SEVERITY_NORMAL, Message: "A normal result"},
					{Severity: fnv1.Severity_SEVERITY_WARNING, Message: "A warning result"},
					{Severity: fnv1.Severity_SEVERITY_UNSPECIFIED, Message: "A result of unspecified severity"},
					{Severity: fnv1.Severity_SEVERITY_NORMAL, Message: "A result with all values explicitly set.", Reason: ptr("SomeReason"), Target: fnv1.Target_TARGET_COMPOSITE_AND_CLAIM.Enum()},
				},
				Conditions: []*fnv1.Condition{
					{Type: "DatabaseReady", Status: fnv1.Status_STATUS_CONDITION_FALSE, Reason: "Creating"},
					{Type: "DeploymentReady", Status: fnv1.Status_STATUS_CONDITION_TRUE, Reason: "Available", Message: ptr("The deployment is ready."), Target: fnv1.Target_TARGET_COMPOSITE_AND_CLAIM.Enum()},
				},
			},
			o: Options{Credentials: Secrets{{Namespace: "default", Name: "cool-secret", Data: map[string][]byte{"password": []byte("hunter2")}}}},
			want: want{
				composed: []composedSummary{
					{Name: "desired-resource-a", Synced: true},
					{Name: "observed-resource-a", ClusterName: "observed-resource-a", Ready: true, Synced: true},
				},
				conn: map[string][]byte{"from": []byte("function-pipeline")},
				ttl:  5 * time.Minute,
				events: []TargetedEvent{
					{Type: render.EventNormal, Reason: ReasonComposeResources, Message: "A normal result", Detail: stepDetail, Target: TargetComposite},
					{Type: render.EventWarning, Reason: ReasonComposeResources, Message: "A warning result", Detail: stepDetail, Target: TargetComposite},
					{Type: render.EventWarning, Reason: ReasonComposeResources, Message: `Pipeline step "run-cool-function" returned a result of unknown severity (assuming warning): A result of unspecified severity`, Target: TargetComposite},
					{Type: render.EventNormal, Reason: "SomeReason", Message: "A result with all values explicitly set.", Detail: stepDetail, Target: TargetCompositeAndClaim},
				},
				conditions: []Condition{
					{Type: "DatabaseReady", Status: "False", Reason: "Creating", Target: TargetComposite},
					{Type: "DeploymentReady", Status: "True", Reason: "Available", Message: "The deployment is ready.", Target: TargetCompositeAndClaim},
				},
				creds: map[string][]byte{"password": []byte("hunter2")},
			},
		},
		"E02FatalFunctionResultError": {
			reason: "A FATAL result stops the pipeline; results before it are events, the one after it is dropped, conditions are kept, nothing is composed.",
			step:   fnStep("run-cool-function", "cool-function"),
			rsp: &fnv1.RunFunctionResponse{
				Results: []*fnv1.Result{
					{Severity: fnv1.Severity_SEVERITY_NORMAL, Message: "before, default reason"},
					{Severity: fnv1.Severity_SEVERITY_NORMAL, Message: "before, specific reason", Reason: ptr("SomeReason"), Target: fnv1.Target_TARGET_COMPOSITE_AND_CLAIM.Enum()},
					{Severity: fnv1.Severity_SEVERITY_FATAL, Message: "oh no"},
					{Severity: fnv1.Severity_SEVERITY_NORMAL, Message: "a result after the fatal result"},
				},
				Conditions: []*fnv1.Condition{
					{Type: "DatabaseReady", Status: fnv1.Status_STATUS_CONDITION_FALSE, Reason: "Creating"},
					{Type: "DeploymentReady", Status: fnv1.Status_STATUS_CONDITION_TRUE, Reason: "Available", Message: ptr("The deployment is ready."), Target: fnv1.Target_TARGET_COMPOSITE_AND_CLAIM.Enum()},
				},
			},
			want: want{
				events: []TargetedEvent{
					{Type: render.EventNormal, Reason: ReasonComposeResources, Message: "before, default reason", Detail: stepDetail, Target: TargetComposite},
					{Type: render.EventNormal, Reason: "SomeReason", Message: "before, specific reason", Detail: stepDetail, Target: TargetCompositeAndClaim},
				},
				conditions: []Condition{
					{Type: "DatabaseReady", Status: "False", Reason: "Creating", Target: TargetComposite},
					{Type: "DeploymentReady", Status: "True", Reason: "Available", Message: "The deployment is ready.", Target: TargetCompositeAndClaim},
				},
				err: `pipeline step "run-cool-function" returned a fatal result: oh no`,
			},
		},
		"E04GarbageCollect": {
			reason: "An observed resource that is no longer desired is deleted; a desired one keeps its observed name.",
			observed: []map[string]any{
				obj(`{"apiVersion":"test.crossplane.io/v1","kind":"CD","metadata":{"name":"cd-a","annotations":{"crossplane.io/composition-resource-name":"a"}}}`),
				obj(`{"apiVersion":"test.crossplane.io/v1","kind":"CD","metadata":{"name":"cd-b","annotations":{"crossplane.io/composition-resource-name":"b"}}}`),
			},
			step: fnStep("run-cool-function", "cool-function"),
			rsp: &fnv1.RunFunctionResponse{Desired: &fnv1.State{Resources: map[string]*fnv1.Resource{
				"a": {Resource: st(testCD), Ready: fnv1.Ready_READY_TRUE},
			}}},
			o: Options{Profile: Reconciler},
			want: want{
				composed: []composedSummary{{Name: "a", ClusterName: "cd-a", Ready: true, Synced: true}},
				deleted:  []string{"b"},
			},
		},
	}

	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			fn := respond(tc.rsp)
			rep, err := ComposeReport(context.Background(), obj(testXR), pipelineComposition(tc.step), tc.observed, Functions{"cool-function": fn}, tc.o)
			if diff := cmp.Diff(tc.want.err, errText(err)); diff != "" {
				t.Errorf("\n%s\nComposeReport(...): -want error, +got error:\n%s", tc.reason, diff)
			}
			if rep == nil {
				t.Fatalf("\n%s\nComposeReport(...): no report", tc.reason)
			}
			if diff := cmp.Diff(tc.want.composed, summarise(rep.Composed)); diff != "" {
				t.Errorf("\n%s\nComposeReport(...): -want composed, +got composed:\n%s", tc.reason, diff)
			}
			if diff := cmp.Diff(tc.want.deleted, rep.Deleted); diff != "" {
				t.Errorf("\n%s\nComposeReport(...): -want deleted, +got deleted:\n%s", tc.reason, diff)
			}
			if diff := cmp.Diff(tc.want.conn, rep.ConnectionDetails); diff != "" {
				t.Errorf("\n%s\nComposeReport(...): -want connection details, +got connection details:\n%s", tc.reason, diff)
			}
			if diff := cmp.Diff(tc.want.ttl, rep.TTL); diff != "" {
				t.Errorf("\n%s\nComposeReport(...): -want TTL, +got TTL:\n%s", tc.reason, diff)
			}
			if diff := cmp.Diff(tc.want.events, rep.TargetedEvents); diff != "" {
				t.Errorf("\n%s\nComposeReport(...): -want events, +got events:\n%s", tc.reason, diff)
			}
			if diff := cmp.Diff(tc.want.conditions, rep.Conditions); diff != "" {
				t.Errorf("\n%s\nComposeReport(...): -want conditions, +got conditions:\n%s", tc.reason, diff)
			}
			if diff := cmp.Diff(tc.want.creds, fn.requests[0].GetCredentials()["cool-secret"].GetCredentialData().GetData()); diff != "" {
				t.Errorf("\n%s\nComposeReport(...): -want credentials, +got credentials:\n%s", tc.reason, diff)
			}
		})
	}
}

// TestObserve covers vector E-03: how observed composed resources are
// keyed, skipped and refused.
func TestObserve(t *testing.T) {
	type want struct {
		observed []string // keys of the observed resources the function saw
		err      string
	}
	unnamed := obj(`{"apiVersion":"test.crossplane.io/v1","kind":"CD","metadata":{"annotations":{"crossplane.io/composition-resource-name":"unnamed"}}}`)
	other := obj(`{"apiVersion":"test.crossplane.io/v1","kind":"CD","metadata":{"name":"other","annotations":{"crossplane.io/composition-resource-name":"other"},"ownerReferences":[{"apiVersion":"test.crossplane.io/v1","kind":"XR","name":"someone","uid":"someone-else","controller":true}]}}`)
	anon := obj(`{"apiVersion":"test.crossplane.io/v1","kind":"CD","metadata":{"name":"anon","ownerReferences":[{"apiVersion":"test.crossplane.io/v1","kind":"XR","name":"parent-xr","uid":"xr-uid","controller":true}]}}`)

	cases := map[string]struct {
		reason   string
		observed []map[string]any
		profile  Profile
		want     want
	}{
		"AnonymousComposedResourceError": {
			reason:   "The reconciler refuses a controlled composed resource without the composition-resource-name annotation.",
			observed: []map[string]any{unnamed, other, anon},
			profile:  Reconciler,
			want:     want{err: `cannot get existing composed resources: encountered composed resource without required "crossplane.io/composition-resource-name" annotation`},
		},
		"SkipUnnamedAndUncontrolled": {
			reason:   "The reconciler skips resources it cannot read by name and resources another XR controls.",
			observed: []map[string]any{unnamed, other},
			profile:  Reconciler,
			want:     want{observed: []string{}},
		},
		"CrankKeysAnonymousByEmptyName": {
			reason:   "crossplane render keys a resource without the annotation by the empty name and skips nothing.",
			observed: []map[string]any{unnamed, other, anon},
			profile:  CrankV120,
			want:     want{observed: []string{"", "other", "unnamed"}},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			fn := respond(&fnv1.RunFunctionResponse{})
			_, err := Compose(context.Background(), obj(testXR), pipelineComposition(fnStep("s", "fn")), tc.observed, Functions{"fn": fn}, Options{Profile: tc.profile})
			if diff := cmp.Diff(tc.want.err, errText(err)); diff != "" {
				t.Errorf("\n%s\nCompose(...): -want error, +got error:\n%s", tc.reason, diff)
			}
			if err != nil {
				return
			}
			got := jsonobj.SortedKeys(fn.requests[0].GetObserved().GetResources())
			if diff := cmp.Diff(tc.want.observed, got); diff != "" {
				t.Errorf("\n%s\nCompose(...): -want observed, +got observed:\n%s", tc.reason, diff)
			}
		})
	}
}

// TestCheckDeletable covers the E-04 variant: the composer refuses to
// delete a composed resource another XR controls.
func TestCheckDeletable(t *testing.T) {
	cases := map[string]struct {
		reason string
		cd     map[string]any
		want   string
	}{
		"ControlledByAnother": {
			reason: "A resource another XR controls cannot be garbage collected.",
			cd:     obj(`{"metadata":{"name":"cd-b","ownerReferences":[{"apiVersion":"v1","kind":"XR","name":"other-xr","uid":"other-uid","controller":true}]}}`),
			want:   `cannot garbage collect composed resources that are no longer desired: refusing to delete composed resource "b" that is controlled by XR "other-xr"`,
		},
		"ControlledByUs": {
			reason: "A resource this XR controls can be garbage collected.",
			cd:     obj(`{"metadata":{"name":"cd-b","ownerReferences":[{"apiVersion":"v1","kind":"XR","name":"parent-xr","uid":"xr-uid","controller":true}]}}`),
		},
		"Uncontrolled": {
			reason: "A resource nobody controls can be garbage collected.",
			cd:     obj(`{"metadata":{"name":"cd-b"}}`),
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			e := &engine{info: xrInfo{uid: "xr-uid"}, observed: map[string]map[string]any{"b": tc.cd}}
			if diff := cmp.Diff(tc.want, errText(e.checkDeletable("b"))); diff != "" {
				t.Errorf("\n%s\ncheckDeletable(...): -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}

// TestResourceRefs covers vector E-05: the XR's spec.resourceRefs list one
// reference per desired resource, sorted by apiVersion, kind and name.
func TestResourceRefs(t *testing.T) {
	cases := map[string]struct {
		reason string
		rsp    *fnv1.RunFunctionResponse
		want   any
	}{
		"Success": {
			reason: "References are sorted by apiVersion+kind+name; unnamed resources get generated names.",
			rsp: &fnv1.RunFunctionResponse{Desired: &fnv1.State{Resources: map[string]*fnv1.Resource{
				"z": {Resource: st(`{"apiVersion":"b.example.org/v1","kind":"B","metadata":{"name":"n1"}}`)},
				"y": {Resource: st(`{"apiVersion":"a.example.org/v1","kind":"A","metadata":{"name":"n2","namespace":"ns"}}`)},
				"x": {Resource: st(`{"apiVersion":"a.example.org/v1","kind":"A","metadata":{"name":"n1"}}`)},
				"w": {Resource: st(`{"apiVersion":"c.example.org/v1","kind":"C"}`)},
			}}},
			want: []any{
				map[string]any{"apiVersion": "a.example.org/v1", "kind": "A", "name": "n1"},
				map[string]any{"apiVersion": "a.example.org/v1", "kind": "A", "name": "n2", "namespace": "ns"},
				map[string]any{"apiVersion": "b.example.org/v1", "kind": "B", "name": "n1"},
				map[string]any{"apiVersion": "c.example.org/v1", "kind": "C", "name": generatedName("parent-xr-", "xr-uid", "w")},
			},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			out, err := Compose(context.Background(), obj(testXR), pipelineComposition(fnStep("s", "fn")), nil, Functions{"fn": respond(tc.rsp)}, Options{Profile: Reconciler})
			if err != nil {
				t.Fatalf("\n%s\nCompose(...): %v", tc.reason, err)
			}
			got, _ := jsonobj.Lookup(out.EffectiveXR, "spec", "resourceRefs")
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("\n%s\nCompose(...): -want spec.resourceRefs, +got spec.resourceRefs:\n%s", tc.reason, diff)
			}
		})
	}
}
