package pipeline

import (
	"context"
	"testing"

	fnv1 "github.com/crossplane/function-sdk-go/proto/v1"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"google.golang.org/protobuf/testing/protocmp"

	"github.com/xpmigrate/xpmigrate/internal/crossplane"
)

func byName(apiVersion, kind, name string) *fnv1.ResourceSelector {
	return &fnv1.ResourceSelector{ApiVersion: apiVersion, Kind: kind, Match: &fnv1.ResourceSelector_MatchName{MatchName: name}}
}

func byLabels(apiVersion, kind string, labels map[string]string) *fnv1.ResourceSelector {
	return &fnv1.ResourceSelector{ApiVersion: apiVersion, Kind: kind, Match: &fnv1.ResourceSelector_MatchLabels{MatchLabels: &fnv1.MatchLabels{Labels: labels}}}
}

func requires(sels map[string]*fnv1.ResourceSelector) *fnv1.RunFunctionResponse {
	return &fnv1.RunFunctionResponse{Requirements: &fnv1.Requirements{ExtraResources: sels}}
}

// TestRequirementsLoop covers vectors E-06 to E-10 and R-08
// (docs/semantics/pipeline.md#test-vectors): how often a function is called and what it gets back.
func TestRequirementsLoop(t *testing.T) {
	cool := obj(`{"apiVersion":"test.crossplane.io/v1","kind":"CoolResource","metadata":{"name":"cool"}}`)
	extra := obj(`{"apiVersion":"test.crossplane.io/v1","kind":"Foo","metadata":{"name":"extra-resource"},"spec":{"bar":"baz"}}`)

	type want struct {
		calls int
		extra map[string]*fnv1.Resources // extra_resources of the last request
		err   string
	}
	cases := map[string]struct {
		reason string
		rsps   []*fnv1.RunFunctionResponse
		o      Options
		want   want
	}{
		"E06NoRequirements": {
			reason: "A function that returns no requirements is called once.",
			rsps:   []*fnv1.RunFunctionResponse{{}},
			want:   want{calls: 1},
		},
		"E06EmptyRequirements": {
			reason: "Empty requirements are not nil requirements: the function is called twice.",
			rsps:   []*fnv1.RunFunctionResponse{{Requirements: &fnv1.Requirements{}}},
			want:   want{calls: 2, extra: map[string]*fnv1.Resources{}},
		},
		"E07FatalResult": {
			reason: "A FATAL result ends the loop before anything is fetched.",
			rsps: []*fnv1.RunFunctionResponse{{
				Results:      []*fnv1.Result{{Severity: fnv1.Severity_SEVERITY_FATAL, Message: "no"}},
				Requirements: &fnv1.Requirements{ExtraResources: map[string]*fnv1.ResourceSelector{"x": byName("test.crossplane.io/v1", "CoolResource", "cool")}},
			}},
			o:    Options{ExtraResources: []map[string]any{cool}},
			want: want{calls: 1, err: `pipeline step "s" returned a fatal result: no`},
		},
		"E08Success": {
			reason: "Stable requirements are fetched once and the function is called again with them.",
			rsps:   []*fnv1.RunFunctionResponse{requires(map[string]*fnv1.ResourceSelector{"gimme": byLabels("test.crossplane.io/v1", "CoolResource", nil)})},
			o:      Options{Profile: Reconciler, ExtraResources: []map[string]any{cool}},
			want: want{calls: 2, extra: map[string]*fnv1.Resources{
				"gimme": {Items: []*fnv1.Resource{{Resource: st(`{"apiVersion":"test.crossplane.io/v1","kind":"CoolResource","metadata":{"name":"cool"}}`)}}},
			}},
		},
		"E09RequirementsDidntStabilize": {
			reason: "Requirements that keep changing fail after six calls.",
			rsps: []*fnv1.RunFunctionResponse{
				requires(map[string]*fnv1.ResourceSelector{"x": byName("v1", "K0", "n")}),
				requires(map[string]*fnv1.ResourceSelector{"x": byName("v1", "K1", "n")}),
				requires(map[string]*fnv1.ResourceSelector{"x": byName("v1", "K2", "n")}),
				requires(map[string]*fnv1.ResourceSelector{"x": byName("v1", "K3", "n")}),
				requires(map[string]*fnv1.ResourceSelector{"x": byName("v1", "K4", "n")}),
				requires(map[string]*fnv1.ResourceSelector{"x": byName("v1", "K5", "n")}),
				requires(map[string]*fnv1.ResourceSelector{"x": byName("v1", "K6", "n")}),
			},
			want: want{calls: 6, extra: map[string]*fnv1.Resources{"x": {}}, err: `cannot run pipeline step "s": requirements didn't stabilize after the maximum number of iterations (5)`},
		},
		"E10FetchResourcesError": {
			reason: "A fetch error names the requirement.",
			rsps:   []*fnv1.RunFunctionResponse{requires(map[string]*fnv1.ResourceSelector{"broken": {ApiVersion: "v1", Kind: "K"}})},
			o:      Options{Profile: Reconciler},
			want:   want{calls: 1, err: `cannot run Composition pipeline step "s": fetching resources for broken: cannot get extra resource by name: unknown resource selector type`},
		},
		"R08SuccessWithExtraResources": {
			reason: "crossplane render answers a by-name requirement from --extra-resources.",
			rsps:   []*fnv1.RunFunctionResponse{requires(map[string]*fnv1.ResourceSelector{"extra-resource-by-name": byName("test.crossplane.io/v1", "Foo", "extra-resource")})},
			o:      Options{ExtraResources: []map[string]any{cool, extra}},
			want: want{calls: 2, extra: map[string]*fnv1.Resources{
				"extra-resource-by-name": {Items: []*fnv1.Resource{{Resource: st(`{"apiVersion":"test.crossplane.io/v1","kind":"Foo","metadata":{"name":"extra-resource"},"spec":{"bar":"baz"}}`)}}},
			}},
		},
		"NotFoundIsPresentButEmpty": {
			reason: "A requirement nothing matches is answered with an empty Resources under its key.",
			rsps:   []*fnv1.RunFunctionResponse{requires(map[string]*fnv1.ResourceSelector{"missing": byName("test.crossplane.io/v1", "Foo", "nope")})},
			want:   want{calls: 2, extra: map[string]*fnv1.Resources{"missing": {}}},
		},
		"V1IgnoresRequiredResources": {
			reason: "Crossplane v1 does not answer requirements.resources (docs/semantics/pipeline.md#protocol-dialects): the function is called twice and gets nothing.",
			rsps:   []*fnv1.RunFunctionResponse{{Requirements: &fnv1.Requirements{Resources: map[string]*fnv1.ResourceSelector{"env": byName("test.crossplane.io/v1", "Foo", "extra-resource")}}}},
			o:      Options{ExtraResources: []map[string]any{extra}},
			want:   want{calls: 2, extra: map[string]*fnv1.Resources{}},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			fn := respond(tc.rsps...)
			_, err := Compose(context.Background(), obj(testXR), pipelineComposition(fnStep("s", "fn")), nil, Functions{"fn": fn}, tc.o)
			if diff := cmp.Diff(tc.want.err, errText(err)); diff != "" {
				t.Errorf("\n%s\nCompose(...): -want error, +got error:\n%s", tc.reason, diff)
			}
			if diff := cmp.Diff(tc.want.calls, fn.calls()); diff != "" {
				t.Errorf("\n%s\nCompose(...): -want calls, +got calls:\n%s", tc.reason, diff)
			}
			// Requests are recorded through proto.Clone, which cannot tell an
			// empty map from none; neither can the wire.
			last := fn.requests[len(fn.requests)-1]
			if diff := cmp.Diff(tc.want.extra, last.GetExtraResources(), protocmp.Transform(), cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("\n%s\nCompose(...): -want extra_resources, +got extra_resources:\n%s", tc.reason, diff)
			}
		})
	}
}

// TestRequirementsV2 covers dialect V2: both requirement fields are
// answered, each in its own request field, and selectors carry a namespace.
func TestRequirementsV2(t *testing.T) {
	a := obj(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"cm","namespace":"a","labels":{"k":"v"}}}`)
	b := obj(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"cm","namespace":"b","labels":{"k":"v"}}}`)
	nsB := byName("v1", "ConfigMap", "cm")
	nsB.Namespace = ptr("b")

	rsp := &fnv1.RunFunctionResponse{Requirements: &fnv1.Requirements{
		ExtraResources: map[string]*fnv1.ResourceSelector{"all": byLabels("v1", "ConfigMap", map[string]string{"k": "v"})},
		Resources:      map[string]*fnv1.ResourceSelector{"in-b": nsB},
	}}
	type want struct {
		extra    map[string]*fnv1.Resources
		required map[string]*fnv1.Resources
	}
	cases := map[string]struct {
		reason string
		o      Options
		want   want
	}{
		"Reconciler": {
			reason: "The cluster fetcher sorts label matches by namespace/name and gets by namespace and name.",
			o:      Options{Profile: Reconciler, Dialect: crossplane.V2, ExtraResources: []map[string]any{b, a}},
			want: want{
				extra:    map[string]*fnv1.Resources{"all": {Items: []*fnv1.Resource{{Resource: st(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"cm","namespace":"a","labels":{"k":"v"}}}`)}, {Resource: st(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"cm","namespace":"b","labels":{"k":"v"}}}`)}}}},
				required: map[string]*fnv1.Resources{"in-b": {Items: []*fnv1.Resource{{Resource: st(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"cm","namespace":"b","labels":{"k":"v"}}}`)}}}},
			},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			fn := respond(rsp)
			if _, err := Compose(context.Background(), obj(testXR), pipelineComposition(fnStep("s", "fn")), nil, Functions{"fn": fn}, tc.o); err != nil {
				t.Fatalf("\n%s\nCompose(...): %v", tc.reason, err)
			}
			last := fn.requests[len(fn.requests)-1]
			if diff := cmp.Diff(tc.want.extra, last.GetExtraResources(), protocmp.Transform()); diff != "" {
				t.Errorf("\n%s\nCompose(...): -want extra_resources, +got extra_resources:\n%s", tc.reason, diff)
			}
			if diff := cmp.Diff(tc.want.required, last.GetRequiredResources(), protocmp.Transform()); diff != "" {
				t.Errorf("\n%s\nCompose(...): -want required_resources, +got required_resources:\n%s", tc.reason, diff)
			}
		})
	}
}

// TestClusterFetcher covers vector E-11: the real composer's fetch by name
// and by labels.
func TestClusterFetcher(t *testing.T) {
	pool := []map[string]any{
		obj(`{"apiVersion":"test.crossplane.io/v1","kind":"Foo","metadata":{"name":"one","labels":{"a":"b"}}}`),
		obj(`{"apiVersion":"test.crossplane.io/v1","kind":"Foo","metadata":{"name":"two","labels":{"a":"b","c":"d"}}}`),
		obj(`{"apiVersion":"test.crossplane.io/v1","kind":"Bar","metadata":{"name":"one","labels":{"a":"b"}}}`),
	}
	type want struct {
		rs  *fnv1.Resources
		err string
	}
	cases := map[string]struct {
		reason string
		sel    *fnv1.ResourceSelector
		want   want
	}{
		"SuccessMatchName": {
			reason: "A name match is the one item.",
			sel:    byName("test.crossplane.io/v1", "Foo", "two"),
			want:   want{rs: &fnv1.Resources{Items: []*fnv1.Resource{{Resource: st(`{"apiVersion":"test.crossplane.io/v1","kind":"Foo","metadata":{"name":"two","labels":{"a":"b","c":"d"}}}`)}}}},
		},
		"NotFoundMatchName": {
			reason: "No name match is nil.",
			sel:    byName("test.crossplane.io/v1", "Foo", "three"),
		},
		"SuccessMatchLabels": {
			reason: "Every object of the kind with the labels is listed, in pool order.",
			sel:    byLabels("test.crossplane.io/v1", "Foo", map[string]string{"a": "b"}),
			want: want{rs: &fnv1.Resources{Items: []*fnv1.Resource{
				{Resource: st(`{"apiVersion":"test.crossplane.io/v1","kind":"Foo","metadata":{"name":"one","labels":{"a":"b"}}}`)},
				{Resource: st(`{"apiVersion":"test.crossplane.io/v1","kind":"Foo","metadata":{"name":"two","labels":{"a":"b","c":"d"}}}`)},
			}}},
		},
		"NilSelector": {
			reason: "A nil selector is an error.",
			want:   want{err: "resource selector should not be nil"},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			f := &clusterFetcher{pool: newCandidates(pool)}
			got, err := f.Fetch(tc.sel)
			if diff := cmp.Diff(tc.want.err, errText(err)); diff != "" {
				t.Errorf("\n%s\nFetch(...): -want error, +got error:\n%s", tc.reason, diff)
			}
			if diff := cmp.Diff(tc.want.rs, got, protocmp.Transform()); diff != "" {
				t.Errorf("\n%s\nFetch(...): -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}

// TestFilteringFetcher covers vectors: crossplane render's
// fetch over --extra-resources.
func TestFilteringFetcher(t *testing.T) {
	item := func(s string) *fnv1.Resource { return &fnv1.Resource{Resource: st(s)} }
	const (
		wrongKind       = `{"apiVersion":"test.crossplane.io/v1","kind":"Foo","metadata":{"name":"extra-resource-wrong-kind","labels":{"right":"true"}}}`
		wrongAPIVersion = `{"apiVersion":"test.crossplane.io/v1beta1","kind":"Bar","metadata":{"name":"extra-resource-wrong-apiVersion","labels":{"right":"true"}}}`
		right           = `{"apiVersion":"test.crossplane.io/v1","kind":"Bar","metadata":{"name":"extra-resource-right"}}`
		right1          = `{"apiVersion":"test.crossplane.io/v1","kind":"Bar","metadata":{"name":"extra-resource-right-1","labels":{"right":"true"}}}`
		right2          = `{"apiVersion":"test.crossplane.io/v1","kind":"Bar","metadata":{"name":"extra-resource-right-2","labels":{"right":"true","more":"x"}}}`
		wrongLabel      = `{"apiVersion":"test.crossplane.io/v1","kind":"Bar","metadata":{"name":"extra-resource-wrong-label","labels":{"right":"false"}}}`
	)
	cases := map[string]struct {
		reason string
		pool   []string
		sel    *fnv1.ResourceSelector
		want   *fnv1.Resources
	}{
		"R05NilResources": {
			reason: "No candidates finds nothing.",
			sel:    byName("test.crossplane.io/v1", "Bar", "extra-resource-right"),
		},
		"R05NilSelector": {
			reason: "A nil selector finds nothing.",
			pool:   []string{right},
		},
		"R06MatchName": {
			reason: "Only the candidate with the exact apiVersion, kind and name matches.",
			pool:   []string{wrongKind, wrongAPIVersion, right},
			sel:    byName("test.crossplane.io/v1", "Bar", "extra-resource-right"),
			want:   &fnv1.Resources{Items: []*fnv1.Resource{item(right)}},
		},
		"R06NoMatchName": {
			reason: "No match is an empty Resources.",
			pool:   []string{wrongKind, wrongAPIVersion},
			sel:    byName("test.crossplane.io/v1", "Bar", "extra-resource-right"),
			want:   &fnv1.Resources{},
		},
		"R07MatchLabels": {
			reason: "Every candidate of the exact apiVersion and kind holding the labels matches, in input order.",
			pool:   []string{right1, wrongLabel, right2, wrongKind, wrongAPIVersion},
			sel:    byLabels("test.crossplane.io/v1", "Bar", map[string]string{"right": "true"}),
			want:   &fnv1.Resources{Items: []*fnv1.Resource{item(right1), item(right2)}},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			pool := make([]map[string]any, len(tc.pool))
			for i := range tc.pool {
				pool[i] = obj(tc.pool[i])
			}
			f := &filteringFetcher{pool: newCandidates(pool)}
			got, err := f.Fetch(tc.sel)
			if err != nil {
				t.Fatalf("\n%s\nFetch(...): %v", tc.reason, err)
			}
			if diff := cmp.Diff(tc.want, got, protocmp.Transform()); diff != "" {
				t.Errorf("\n%s\nFetch(...): -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}

// TestFetchVersions pins which versions each fetcher serves: crossplane
// render compares apiVersion strings, the API server serves every version
// of a kind, and EnvironmentConfigs match across v1alpha1 and v1beta1 in
// both (D41).
func TestFetchVersions(t *testing.T) {
	pool := newCandidates([]map[string]any{
		{"apiVersion": "apiextensions.crossplane.io/v1alpha1", "kind": "EnvironmentConfig", "metadata": map[string]any{"name": "env"}},
		{"apiVersion": "example.org/v1alpha1", "kind": "Thing", "metadata": map[string]any{"name": "thing"}},
	})
	byName := func(av, kind, name string) *fnv1.ResourceSelector {
		return &fnv1.ResourceSelector{ApiVersion: av, Kind: kind, Match: &fnv1.ResourceSelector_MatchName{MatchName: name}}
	}
	cases := map[string]struct {
		reason  string
		fetcher interface {
			Fetch(*fnv1.ResourceSelector) (*fnv1.Resources, error)
		}
		sel       *fnv1.ResourceSelector
		wantItems int
	}{
		"CrankEnvironmentConfigAlias": {
			reason:    "crank profile: a v1beta1 selector finds a v1alpha1 EnvironmentConfig",
			fetcher:   &filteringFetcher{pool: pool},
			sel:       byName("apiextensions.crossplane.io/v1beta1", "EnvironmentConfig", "env"),
			wantItems: 1,
		},
		"CrankOtherKindsExact": {
			reason:    "crank profile: other kinds need the exact apiVersion",
			fetcher:   &filteringFetcher{pool: pool},
			sel:       byName("example.org/v1", "Thing", "thing"),
			wantItems: 0,
		},
		"ClusterAnyVersion": {
			reason:    "reconciler profile: the API server serves any version of the kind",
			fetcher:   &clusterFetcher{pool: pool},
			sel:       byName("example.org/v1", "Thing", "thing"),
			wantItems: 1,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, err := tc.fetcher.Fetch(tc.sel)
			if err != nil {
				t.Fatal(err)
			}
			if n := len(got.GetItems()); n != tc.wantItems {
				t.Fatalf("\n%s\nFetch(...): want %d items, got %d", tc.reason, tc.wantItems, n)
			}
			if n := len(got.GetItems()); n == 1 {
				if av := got.GetItems()[0].GetResource().GetFields()["apiVersion"].GetStringValue(); av != tc.sel.GetApiVersion() {
					t.Errorf("\n%s\nFetch(...): want the object served at %s, got %s", tc.reason, tc.sel.GetApiVersion(), av)
				}
			}
		})
	}
}
