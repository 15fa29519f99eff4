package function

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/xpmigrate/xpmigrate/internal/jsonobj"
)

// The vectors of docs/semantics/pipeline.md#test-vectors give result messages exactly, so these
// tests compare the text of results: it is the function's output, not an
// error of ours.

func fatal(msg string) Result {
	return Result{Severity: SeverityFatal, Message: msg, Target: TargetComposite}
}
func warning(msg string) Result {
	return Result{Severity: SeverityWarning, Message: msg, Target: TargetComposite}
}

// envContext returns a context holding an environment with the internal
// Environment GVK and the fields of y.
func envContext(t *testing.T, y string) map[string]any {
	t.Helper()
	e := wire(t, y)
	if e == nil {
		e = map[string]any{}
	}
	e["apiVersion"] = "internal.crossplane.io/v1alpha1"
	e["kind"] = "Environment"
	return map[string]any{ContextKeyEnvironment: e}
}

// checkRun runs req twice, which also shows that Run leaves its request
// alone, and compares both responses with want. Then it runs a copy of req
// with RunOwned, checks that the copy is left alone too, and compares the
// response, as wire values, with want.
func checkRun(t *testing.T, reason string, req Request, want Response) {
	t.Helper()
	for i := range 2 {
		got := Run(req)
		if diff := cmp.Diff(want, got, cmpopts.EquateEmpty()); diff != "" {
			t.Errorf("\n%s\nRun(...) call %d: -want, +got:\n%s", reason, i+1, diff)
		}
	}
	owned := copyRequest(req)
	got := wireResponse(Prepare(owned.Input).RunOwned(owned))
	if diff := cmp.Diff(req, owned, cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("\n%s\nRunOwned(...): modified its request: -before, +after:\n%s", reason, diff)
	}
	if diff := cmp.Diff(want, got, cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("\n%s\nRunOwned(...): -want, +got (as wire values):\n%s", reason, diff)
	}
}

func copyRequest(req Request) Request {
	obj := func(o map[string]any) map[string]any {
		c, _ := jsonobj.CopyTree(o).(map[string]any)
		if o == nil {
			return nil
		}
		return c
	}
	state := func(s *State) *State {
		if s == nil {
			return nil
		}
		out := &State{}
		if s.Composite != nil {
			c := *s.Composite
			c.Resource = obj(c.Resource)
			out.Composite = &c
		}
		if s.Resources != nil {
			out.Resources = map[string]Resource{}
			for n, r := range s.Resources {
				r.Resource = obj(r.Resource)
				out.Resources[n] = r
			}
		}
		return out
	}
	return Request{Observed: *state(&req.Observed), Desired: state(req.Desired), Input: obj(req.Input), Context: obj(req.Context)}
}

func wireResponse(rsp Response) Response {
	if rsp.Desired != nil {
		d := &State{}
		if c := rsp.Desired.Composite; c != nil {
			cc := *c
			cc.Resource = wireCopy(c.Resource)
			d.Composite = &cc
		}
		if rsp.Desired.Resources != nil {
			d.Resources = map[string]Resource{}
			for n, r := range rsp.Desired.Resources {
				r.Resource = wireCopy(r.Resource)
				d.Resources[n] = r
			}
		}
		rsp.Desired = d
	}
	if rsp.Context != nil {
		rsp.Context = wireCopy(rsp.Context)
	}
	return rsp
}

func TestRun(t *testing.T) {
	w := func(y string) map[string]any { return wire(t, y) }
	xr := func() *Resource { return &Resource{Resource: w(`{apiVersion: example.org/v1, kind: XR}`)} }
	cd := func() Resource { return Resource{Resource: w(`{apiVersion: example.org/v1, kind: CD}`)} }
	xrWidgets := func() *Resource {
		return &Resource{Resource: w(`{apiVersion: example.org/v1, kind: XR, spec: {widgets: "10"}}`)}
	}
	// timesThree is PT-04's patch: "10" becomes 30.
	timesThree := `transforms: [{type: convert, convert: {toType: int64}}, {type: math, math: {type: Multiply, multiply: 3}}]`
	// toThirty is PT-16's patch: 10 becomes "30".
	toThirty := `transforms: [{type: math, math: {type: Multiply, multiply: 3}}, {type: convert, convert: {toType: string}}]`

	unknownInput := w(`{resources: [{name: a, base: {kind: CD}, patches: [{fromFieldPath: spec.x, policy: {mergeOptions: {}}}]}]}`)
	_, decodeErr := Decode(unknownInput)

	cases := map[string]struct {
		reason string
		req    Request
		want   Response
	}{
		"PT01NoInput": {
			reason: "An absent input fails validation; desired and context stay absent.",
			req:    Request{},
			want: Response{Results: []Result{
				fatal("invalid Function input: resources: Required value: resources or environment patches are required"),
			}},
		},
		"PT02RenderBaseTemplateWithoutPatches": {
			reason: "A base without patches is rendered as is, and the environment is written to the context.",
			req: Request{
				Input:    w(`{resources: [{name: cool-resource, base: {apiVersion: example.org/v1, kind: CD}}]}`),
				Observed: State{Composite: xr()},
				Desired:  &State{Composite: xr()},
			},
			want: Response{
				Desired: &State{Composite: xr(), Resources: map[string]Resource{"cool-resource": cd()}},
				Context: envContext(t, ``),
			},
		},
		"PT03DesiredResourcesArePassedThrough": {
			reason: "Desired resources of earlier steps without a template pass through.",
			req: Request{
				Input:    w(`{resources: [{name: cool-resource, base: {apiVersion: example.org/v1, kind: CD}}]}`),
				Observed: State{Composite: xr()},
				Desired: &State{Composite: xr(), Resources: map[string]Resource{
					"existing-resource": {Resource: w(`{apiVersion: example.org/v1, kind: ExistingCD}`)},
				}},
				Context: envContext(t, ``),
			},
			want: Response{
				Desired: &State{Composite: xr(), Resources: map[string]Resource{
					"existing-resource": {Resource: w(`{apiVersion: example.org/v1, kind: ExistingCD}`)},
					"cool-resource":     cd(),
				}},
				Context: envContext(t, ``),
			},
		},
		"PT04PatchBaseTemplate": {
			reason: "A FromCompositeFieldPath patch with transforms writes the base; the desired XR passes through.",
			req: Request{
				Input: w(`{resources: [{name: cool-resource, base: {apiVersion: example.org/v1, kind: CD},
					patches: [{type: FromCompositeFieldPath, fromFieldPath: spec.widgets, toFieldPath: spec.watchers, ` + timesThree + `}]}]}`),
				Observed: State{Composite: xrWidgets()},
				Desired:  &State{Composite: xrWidgets()},
			},
			want: Response{
				Desired: &State{Composite: xrWidgets(), Resources: map[string]Resource{
					"cool-resource": {Resource: w(`{apiVersion: example.org/v1, kind: CD, spec: {watchers: 30}}`)},
				}},
				Context: envContext(t, ``),
			},
		},
		"PT05PatchDesiredResource": {
			reason: "A template without a base patches the resource an earlier step produced.",
			req: Request{
				Input: w(`{resources: [{name: cool-resource,
					patches: [{type: FromCompositeFieldPath, fromFieldPath: spec.widgets, toFieldPath: spec.watchers, ` + timesThree + `}]}]}`),
				Observed: State{Composite: xrWidgets()},
				Desired:  &State{Composite: xrWidgets(), Resources: map[string]Resource{"cool-resource": cd()}},
			},
			want: Response{
				Desired: &State{Composite: xrWidgets(), Resources: map[string]Resource{
					"cool-resource": {Resource: w(`{apiVersion: example.org/v1, kind: CD, spec: {watchers: 30}}`)},
				}},
				Context: envContext(t, ``),
			},
		},
		"PT06NothingToPatch": {
			reason: "A template without a base and without an earlier desired resource is fatal; the request's desired state comes back.",
			req: Request{
				Input:    w(`{resources: [{name: cool-resource, patches: [{type: FromCompositeFieldPath, fromFieldPath: spec.widgets, toFieldPath: spec.watchers}]}]}`),
				Observed: State{Composite: xrWidgets()},
				Desired:  &State{Composite: xrWidgets()},
			},
			want: Response{
				Desired: &State{Composite: xrWidgets()},
				Results: []Result{fatal(`composed resource "cool-resource" has no base template, and was not produced by a previous Function in the pipeline`)},
			},
		},
		"PT07ReplaceDesiredResource": {
			reason: "A base replaces an earlier desired resource of the same name wholesale, its ready included.",
			req: Request{
				Input:    w(`{resources: [{name: cool-resource, base: {apiVersion: example.org/v1, kind: CD, spec: {widgets: 9001}}}]}`),
				Observed: State{Composite: xr()},
				Desired: &State{Composite: xr(), Resources: map[string]Resource{
					"cool-resource": {Resource: w(`{apiVersion: example.org/v1, kind: CD, spec: {watchers: 42}}`), Ready: ReadyTrue},
				}},
			},
			want: Response{
				Desired: &State{Composite: xr(), Resources: map[string]Resource{
					"cool-resource": {Resource: w(`{apiVersion: example.org/v1, kind: CD, spec: {widgets: 9001}}`)},
				}},
				Context: envContext(t, ``),
			},
		},
		"PT08OptionalFieldPathNotFound": {
			reason: "An Optional patch whose source is missing is skipped silently; the desired XR gets the observed GVK.",
			req: Request{
				Input: w(`{resources: [{name: cool-resource, base: {apiVersion: example.org/v1, kind: CD, spec: {}},
					patches: [{type: FromCompositeFieldPath, fromFieldPath: spec.widgets, toFieldPath: spec.watchers},
					          {type: FromCompositeFieldPath, fromFieldPath: spec.doesNotExist}]}]}`),
				Observed: State{Composite: xrWidgets()},
			},
			want: Response{
				Desired: &State{Composite: xr(), Resources: map[string]Resource{
					"cool-resource": {Resource: w(`{apiVersion: example.org/v1, kind: CD, spec: {watchers: "10"}}`)},
				}},
				Context: envContext(t, ``),
			},
		},
		"PT09RequiredFieldPathNotFound": {
			reason: "A Required miss drops a new resource and marks the XR not ready, but only warns for an existing one.",
			req: Request{
				Input: w(`{resources: [
					{name: new-resource, base: {apiVersion: example.org/v1, kind: CD, spec: {}},
					 patches: [{type: FromCompositeFieldPath, fromFieldPath: spec.doesNotExist, policy: {fromFieldPath: Required}}]},
					{name: existing-resource, base: {apiVersion: example.org/v1, kind: CD, spec: {targetObject: {keep: me}}},
					 patches: [{type: FromCompositeFieldPath, fromFieldPath: spec.widgets, toFieldPath: spec.watchers},
					           {type: FromCompositeFieldPath, fromFieldPath: spec.sourceObject, toFieldPath: spec.targetObject, policy: {toFieldPath: MergeObjects}},
					           {type: FromCompositeFieldPath, fromFieldPath: spec.doesNotExist, policy: {fromFieldPath: Required}}]}]}`),
				Observed: State{
					Composite: &Resource{Resource: w(`{apiVersion: example.org/v1, kind: XR, spec: {widgets: "10", sourceObject: {me: too}}}`)},
					Resources: map[string]Resource{"existing-resource": {}},
				},
				Desired: &State{Composite: xrWidgets()},
			},
			want: Response{
				Desired: &State{
					Composite: &Resource{Resource: w(`{apiVersion: example.org/v1, kind: XR, spec: {widgets: "10"}}`), Ready: ReadyFalse},
					Resources: map[string]Resource{
						"existing-resource": {Resource: w(`{apiVersion: example.org/v1, kind: CD, spec: {watchers: "10", targetObject: {me: too, keep: me}}}`)},
					},
				},
				Results: []Result{
					warning(`not adding new composed resource "new-resource" to desired state because "FromCompositeFieldPath" patch at index 0 has 'policy.fromFieldPath: Required': spec.doesNotExist: no such field`),
					warning(`cannot render composed resource "existing-resource" "FromCompositeFieldPath" patch at index 2: ignoring 'policy.fromFieldPath: Required' because 'to' resource already exists: spec.doesNotExist: no such field`),
				},
				Context: envContext(t, ``),
			},
		},
		"PT10PatchErrorIsFatal": {
			reason: "A patch error other than not-found is fatal; none of the partial work is returned.",
			req: Request{
				Input: w(`{resources: [{name: cool-resource, base: {apiVersion: example.org/v1, kind: CD, spec: {}},
					patches: [{type: FromCompositeFieldPath, fromFieldPath: spec.widgets, toFieldPath: spec.watchers},
					          {type: FromCompositeFieldPath, fromFieldPath: "spec.widgets[0]"}]}]}`),
				Observed: State{Composite: xrWidgets()},
				Desired:  &State{Composite: xrWidgets()},
			},
			want: Response{
				Desired: &State{Composite: xrWidgets()},
				Results: []Result{fatal(`cannot render composed resource "cool-resource" "FromCompositeFieldPath" patch at index 1: spec.widgets: not an array`)},
			},
		},
		"PT11ObservedResourceKeepsItsName": {
			reason: "An observed resource's name and namespace are copied into the desired one.",
			req: Request{
				Input: w(`{resources: [{name: cool-resource, base: {apiVersion: example.org/v1, kind: CD}}]}`),
				Observed: State{Composite: xr(), Resources: map[string]Resource{
					"cool-resource": {Resource: w(`{apiVersion: example.org/v1, kind: CD, metadata: {namespace: default, name: cool-42}}`)},
				}},
				Desired: &State{Composite: xr()},
			},
			want: Response{
				Desired: &State{Composite: xr(), Resources: map[string]Resource{
					"cool-resource": {Resource: w(`{apiVersion: example.org/v1, kind: CD, metadata: {namespace: default, name: cool-42}}`)},
				}},
				Context: envContext(t, ``),
			},
		},
		"PT12ExtractCompositeConnectionDetails": {
			reason: "Connection details come from the observed resource and merge over the desired XR's.",
			req: Request{
				Input: w(`{resources: [{name: cool-resource, base: {apiVersion: example.org/v1, kind: CD},
					connectionDetails: [{type: FromConnectionSecretKey, name: very, fromConnectionSecretKey: very}]}]}`),
				Observed: State{Composite: xr(), Resources: map[string]Resource{
					"cool-resource": {
						Resource:          w(`{apiVersion: example.org/v1, kind: CD, metadata: {namespace: default, name: cool-42}}`),
						ConnectionDetails: map[string][]byte{"very": []byte("secret")},
					},
				}},
				Desired: &State{Composite: &Resource{
					Resource:          w(`{apiVersion: example.org/v1, kind: XR}`),
					ConnectionDetails: map[string][]byte{"existing": []byte("supersecretvalue")},
				}},
			},
			want: Response{
				Desired: &State{
					Composite: &Resource{
						Resource:          w(`{apiVersion: example.org/v1, kind: XR}`),
						ConnectionDetails: map[string][]byte{"existing": []byte("supersecretvalue"), "very": []byte("secret")},
					},
					Resources: map[string]Resource{
						"cool-resource": {Resource: w(`{apiVersion: example.org/v1, kind: CD, metadata: {namespace: default, name: cool-42}}`)},
					},
				},
				Context: envContext(t, ``),
			},
		},
		"PT13ExtractCompositeConnectionDetailsV2XR": {
			reason: "A v2 XR's connection details also go to a composed, ready Secret named by the input.",
			req: Request{
				Input: w(`{writeConnectionSecretToRef: {name: cool-conn-secret},
					resources: [{name: cool-resource, base: {apiVersion: example.org/v1, kind: CD},
					connectionDetails: [{type: FromConnectionSecretKey, name: very, fromConnectionSecretKey: very}]}]}`),
				Observed: State{
					Composite: &Resource{Resource: w(`{apiVersion: example.org/v1, kind: XR, metadata: {namespace: default, name: cool-xr-42}, spec: {foo: bar, crossplane: {}}}`)},
					Resources: map[string]Resource{"cool-resource": {
						Resource:          w(`{apiVersion: example.org/v1, kind: CD, metadata: {namespace: default, name: cool-42}}`),
						ConnectionDetails: map[string][]byte{"very": []byte("secret")},
					}},
				},
				Desired: &State{Composite: &Resource{
					Resource:          w(`{apiVersion: example.org/v1, kind: XR, metadata: {namespace: default, name: cool-xr-42}, spec: {foo: bar, crossplane: {}}}`),
					ConnectionDetails: map[string][]byte{"existing": []byte("supersecretvalue")},
				}},
			},
			want: Response{
				Desired: &State{
					Composite: &Resource{
						Resource:          w(`{apiVersion: example.org/v1, kind: XR, metadata: {namespace: default, name: cool-xr-42}, spec: {foo: bar, crossplane: {}}}`),
						ConnectionDetails: map[string][]byte{"existing": []byte("supersecretvalue"), "very": []byte("secret")},
					},
					Resources: map[string]Resource{
						"cool-resource": {Resource: w(`{apiVersion: example.org/v1, kind: CD, metadata: {namespace: default, name: cool-42}}`)},
						"cool-xr-42-connection-secret": {
							Resource: w(`{apiVersion: v1, kind: Secret, metadata: {name: cool-conn-secret}, type: connection.crossplane.io/v1alpha1,
								data: {existing: c3VwZXJzZWNyZXR2YWx1ZQ==, very: c2VjcmV0}}`),
							Ready: ReadyTrue,
						},
					},
				},
				Context: envContext(t, ``),
			},
		},
		"PT14PatchToComposite": {
			reason: "A ToCompositeFieldPath patch reads the observed resource and writes the desired XR.",
			req: Request{
				Input: w(`{resources: [{name: cool-resource, base: {apiVersion: example.org/v1, kind: CD},
					patches: [{type: ToCompositeFieldPath, fromFieldPath: spec.widgets, toFieldPath: spec.watchers, ` + timesThree + `}]}]}`),
				Observed: State{Composite: xr(), Resources: map[string]Resource{
					"cool-resource": {Resource: w(`{apiVersion: example.org/v1, kind: CD, metadata: {namespace: default, name: cool-42}, spec: {widgets: "10"}}`)},
				}},
				Desired: &State{Composite: xr()},
			},
			want: Response{
				Desired: &State{
					Composite: &Resource{Resource: w(`{apiVersion: example.org/v1, kind: XR, spec: {watchers: 30}}`)},
					Resources: map[string]Resource{
						"cool-resource": {Resource: w(`{apiVersion: example.org/v1, kind: CD, metadata: {namespace: default, name: cool-42}}`)},
					},
				},
				Context: envContext(t, ``),
			},
		},
		"PT15PatchToCompositeWithEnvironmentPatches": {
			reason: "An environment ToCompositeFieldPath patch reads the environment and writes the desired XR.",
			req: Request{
				Input: w(`{resources: [{name: cool-resource, base: {apiVersion: example.org/v1, kind: CD}}],
					environment: {patches: [{type: ToCompositeFieldPath, fromFieldPath: widgets, toFieldPath: spec.watchers, ` + timesThree + `}]}}`),
				Observed: State{Composite: &Resource{Resource: w(`{apiVersion: example.org/v1, kind: CD, spec: {}}`)}},
				Context:  envContext(t, `{widgets: "10"}`),
			},
			want: Response{
				Desired: &State{
					Composite: &Resource{Resource: w(`{apiVersion: example.org/v1, kind: CD, spec: {watchers: 30}}`)},
					Resources: map[string]Resource{"cool-resource": cd()},
				},
				Context: envContext(t, `{widgets: "10"}`),
			},
		},
		"PT16EnvironmentPatchToEnvironment": {
			reason: "An environment FromCompositeFieldPath patch reads the observed XR and writes the environment.",
			req: Request{
				Input: w(`{resources: [{name: cool-resource, base: {apiVersion: example.org/v1, kind: CD}}],
					environment: {patches: [{type: FromCompositeFieldPath, fromFieldPath: spec.watchers, toFieldPath: widgets, ` + toThirty + `}]}}`),
				Observed: State{Composite: &Resource{Resource: w(`{apiVersion: example.org/v1, kind: CD, spec: {watchers: 10}}`)}},
				Context:  envContext(t, ``),
			},
			want: Response{
				Desired: &State{
					Composite: &Resource{Resource: w(`{apiVersion: example.org/v1, kind: CD}`)},
					Resources: map[string]Resource{"cool-resource": cd()},
				},
				Context: envContext(t, `{widgets: "30"}`),
			},
		},
		"PT17PatchToCompositeSupportsFromEnvironmentFieldPath": {
			reason: "An environment FromEnvironmentFieldPath patch is routed like ToCompositeFieldPath.",
			req: Request{
				Input: w(`{resources: [{name: cool-resource, base: {apiVersion: example.org/v1, kind: CD}}],
					environment: {patches: [{type: FromEnvironmentFieldPath, fromFieldPath: widgets, toFieldPath: spec.watchers, ` + timesThree + `}]}}`),
				Observed: State{Composite: &Resource{Resource: w(`{apiVersion: example.org/v1, kind: CD, spec: {}}`)}},
				Context:  envContext(t, `{widgets: "10"}`),
			},
			want: Response{
				Desired: &State{
					Composite: &Resource{Resource: w(`{apiVersion: example.org/v1, kind: CD, spec: {watchers: 30}}`)},
					Resources: map[string]Resource{"cool-resource": cd()},
				},
				Context: envContext(t, `{widgets: "10"}`),
			},
		},
		"PT18EnvironmentPatchSupportsToEnvironmentFieldPath": {
			reason: "An environment ToEnvironmentFieldPath patch is routed like FromCompositeFieldPath; an absent environment starts empty.",
			req: Request{
				Input: w(`{resources: [{name: cool-resource, base: {apiVersion: example.org/v1, kind: CD}}],
					environment: {patches: [{type: ToEnvironmentFieldPath, fromFieldPath: spec.watchers, toFieldPath: widgets, ` + toThirty + `}]}}`),
				Observed: State{Composite: &Resource{Resource: w(`{apiVersion: example.org/v1, kind: CD, spec: {watchers: 10}}`)}},
			},
			want: Response{
				Desired: &State{
					Composite: &Resource{Resource: w(`{apiVersion: example.org/v1, kind: CD}`)},
					Resources: map[string]Resource{"cool-resource": cd()},
				},
				Context: envContext(t, `{widgets: "30"}`),
			},
		},
		"PT19EnvironmentPatchOptionalNotFoundSkipped": {
			reason: "Environment patches with an absent or Optional policy skip a missing source silently.",
			req: Request{
				Input: w(`{resources: [{name: cool-resource, base: {apiVersion: example.org/v1, kind: CD}}],
					environment: {patches: [
						{type: FromCompositeFieldPath, fromFieldPath: spec.watchers, toFieldPath: widgets, ` + toThirty + `},
						{type: FromCompositeFieldPath, fromFieldPath: spec.doesNotExist},
						{type: FromCompositeFieldPath, fromFieldPath: spec.doesNotExist, policy: {fromFieldPath: Optional}}]}}`),
				Observed: State{Composite: &Resource{Resource: w(`{apiVersion: example.org/v1, kind: CD, spec: {watchers: 10}}`)}},
				Context:  envContext(t, ``),
			},
			want: Response{
				Desired: &State{
					Composite: &Resource{Resource: w(`{apiVersion: example.org/v1, kind: CD}`)},
					Resources: map[string]Resource{"cool-resource": cd()},
				},
				Context: envContext(t, `{widgets: "30"}`),
			},
		},
		"PT20EnvironmentPatchRequiredNotFoundError": {
			reason: "A Required environment patch with a missing source is fatal; the request's context comes back unchanged.",
			req: Request{
				Input: w(`{resources: [{name: cool-resource, base: {apiVersion: example.org/v1, kind: CD}}],
					environment: {patches: [
						{type: FromCompositeFieldPath, fromFieldPath: spec.watchers, toFieldPath: widgets, ` + toThirty + `},
						{type: FromCompositeFieldPath, fromFieldPath: spec.doesNotExist, policy: {fromFieldPath: Required}}]}}`),
				Observed: State{Composite: &Resource{Resource: w(`{apiVersion: example.org/v1, kind: CD, spec: {watchers: 10}}`)}},
				Context:  envContext(t, ``),
			},
			want: Response{
				Results: []Result{fatal(`cannot apply the "FromCompositeFieldPath" environment patch at index 1: spec.doesNotExist: no such field`)},
				Context: envContext(t, ``),
			},
		},
		"PT21PatchComposedResourceFromEnvironment": {
			reason: "A template FromEnvironmentFieldPath patch reads the environment.",
			req: Request{
				Input: w(`{resources: [{name: cool-resource, base: {apiVersion: example.org/v1, kind: CD},
					patches: [{type: FromEnvironmentFieldPath, fromFieldPath: widgets, toFieldPath: spec.watchers, ` + timesThree + `}]}]}`),
				Observed: State{Composite: &Resource{Resource: w(`{apiVersion: example.org/v1, kind: CD, spec: {}}`)}},
				Context:  envContext(t, `{widgets: "10"}`),
			},
			want: Response{
				Desired: &State{
					Composite: &Resource{Resource: w(`{apiVersion: example.org/v1, kind: CD}`)},
					Resources: map[string]Resource{
						"cool-resource": {Resource: w(`{apiVersion: example.org/v1, kind: CD, spec: {watchers: 30}}`)},
					},
				},
				Context: envContext(t, `{widgets: "10"}`),
			},
		},
		"PT22PatchComposedResourceFromEnvironmentShadowedNotSet": {
			reason: "A later patch whose source is missing leaves an earlier patch's value alone.",
			req: Request{
				Input: w(`{resources: [{name: cool-resource, base: {apiVersion: example.org/v1, kind: CD},
					patches: [{type: FromEnvironmentFieldPath, fromFieldPath: widgets, toFieldPath: spec.watchers, ` + timesThree + `},
					          {type: FromCompositeFieldPath, fromFieldPath: spec.watchers, toFieldPath: spec.watchers}]}]}`),
				Observed: State{Composite: &Resource{Resource: w(`{apiVersion: example.org/v1, kind: CD, spec: {}}`)}},
				Context:  envContext(t, `{widgets: "10"}`),
			},
			want: Response{
				Desired: &State{
					Composite: &Resource{Resource: w(`{apiVersion: example.org/v1, kind: CD}`)},
					Resources: map[string]Resource{
						"cool-resource": {Resource: w(`{apiVersion: example.org/v1, kind: CD, spec: {watchers: 30}}`)},
					},
				},
				Context: envContext(t, `{widgets: "10"}`),
			},
		},
		"PT23PatchComposedResourceFromEnvironmentShadowedSet": {
			reason: "Patches run in declared order, so a later patch overwrites an earlier one.",
			req: Request{
				Input: w(`{resources: [{name: cool-resource, base: {apiVersion: example.org/v1, kind: CD},
					patches: [{type: FromEnvironmentFieldPath, fromFieldPath: widgets, toFieldPath: spec.watchers, ` + timesThree + `},
					          {type: FromCompositeFieldPath, fromFieldPath: spec.watchers, toFieldPath: spec.watchers}]}]}`),
				Observed: State{Composite: &Resource{Resource: w(`{apiVersion: example.org/v1, kind: CD, spec: {watchers: 42}}`)}},
				Context:  envContext(t, `{widgets: "10"}`),
			},
			want: Response{
				Desired: &State{
					Composite: &Resource{Resource: w(`{apiVersion: example.org/v1, kind: CD}`)},
					Resources: map[string]Resource{
						"cool-resource": {Resource: w(`{apiVersion: example.org/v1, kind: CD, spec: {watchers: 42}}`)},
					},
				},
				Context: envContext(t, `{widgets: "10"}`),
			},
		},
		"PT24OnlyEnvironmentPatchesIsAllowed": {
			reason: "An input with environment patches only is valid; no composed resources are produced.",
			req: Request{
				Input:    w(`{environment: {patches: [{fromFieldPath: spec.widgets, toFieldPath: envKey}]}}`),
				Observed: State{Composite: xrWidgets()},
			},
			want: Response{
				Desired: &State{Composite: xr()},
				Context: envContext(t, `{envKey: "10"}`),
			},
		},
		"PT44BaseKeepsItsNameAndNamespace": {
			reason: "The name and namespace of a base are kept when the resource is not observed.",
			req: Request{
				Input:    w(`{resources: [{name: cool-resource, base: {apiVersion: example.org/v1, kind: CD, metadata: {name: fixed-name, namespace: ns1}}}]}`),
				Observed: State{Composite: xr()},
			},
			want: Response{
				Desired: &State{Composite: xr(), Resources: map[string]Resource{
					"cool-resource": {Resource: w(`{apiVersion: example.org/v1, kind: CD, metadata: {name: fixed-name, namespace: ns1}}`)},
				}},
				Context: envContext(t, ``),
			},
		},
		"ObservedEmptyNameRemovesBaseName": {
			reason: "An observed resource without a name or namespace removes the base's, since the function copies them even when empty.",
			req: Request{
				Input:    w(`{resources: [{name: cool-resource, base: {apiVersion: example.org/v1, kind: CD, metadata: {name: fixed-name, namespace: ns1, labels: {a: b}}}}]}`),
				Observed: State{Composite: xr(), Resources: map[string]Resource{"cool-resource": cd()}},
			},
			want: Response{
				Desired: &State{Composite: xr(), Resources: map[string]Resource{
					"cool-resource": {Resource: w(`{apiVersion: example.org/v1, kind: CD, metadata: {labels: {a: b}}}`)},
				}},
				Context: envContext(t, ``),
			},
		},
		"SameNameTemplateKeepsIntegers": {
			reason: "A template without a base copies an earlier template's resource with its int64 numbers, so an appending merge drops duplicates.",
			req: Request{
				Input: w(`{resources: [
					{name: a, base: {kind: CD, spec: {list: [1]}}},
					{name: a, patches: [{fromFieldPath: spec.list, toFieldPath: spec.list, policy: {toFieldPath: ForceMergeObjectsAppendArrays}}]}]}`),
				Observed: State{Composite: &Resource{Resource: w(`{apiVersion: example.org/v1, kind: XR, spec: {list: [1, 2]}}`)}},
			},
			want: Response{
				Desired: &State{Composite: xr(), Resources: map[string]Resource{"a": {Resource: w(`{kind: CD, spec: {list: [1, 2]}}`)}}},
				Context: envContext(t, ``),
			},
		},
		"UnknownInputMember": {
			reason: "Strict decoding rejects a leftover native mergeOptions.",
			req:    Request{Input: unknownInput, Observed: State{Composite: xr()}},
			want: Response{Results: []Result{fatal("cannot get Function input: cannot get function input *v1beta1.Resources from *v1.RunFunctionRequest: " +
				"cannot unmarshal JSON from *structpb.Struct into *v1beta1.Resources: " + fmt.Sprint(decodeErr))}},
		},
		"UndefinedPatchSet": {
			reason: "A PatchSet patch naming no set is fatal.",
			req: Request{
				Input:    w(`{resources: [{name: a, base: {kind: CD}, patches: [{type: PatchSet, patchSetName: missing}]}]}`),
				Observed: State{Composite: xr()},
			},
			want: Response{Results: []Result{fatal("cannot resolve PatchSets: cannot find PatchSet by name missing")}},
		},
		"PatchSetsResolvedInPlace": {
			reason: "A PatchSet patch is replaced by the set's patches, in order, where it stands.",
			req: Request{
				Input: w(`{patchSets: [{name: s, patches: [{fromFieldPath: spec.a, toFieldPath: spec.x}, {fromFieldPath: spec.b, toFieldPath: spec.x}]}],
					resources: [{name: a, base: {kind: CD}, patches: [
						{fromFieldPath: spec.c, toFieldPath: spec.x}, {type: PatchSet, patchSetName: s}, {fromFieldPath: spec.c, toFieldPath: spec.z}]}]}`),
				Observed: State{Composite: &Resource{Resource: w(`{apiVersion: example.org/v1, kind: XR, spec: {a: A, b: B, c: C}}`)}},
			},
			want: Response{
				Desired: &State{Composite: xr(), Resources: map[string]Resource{
					"a": {Resource: w(`{kind: CD, spec: {x: B, z: C}}`)},
				}},
				Context: envContext(t, ``),
			},
		},
		"UnparsableBase": {
			reason: "A base without a kind cannot be parsed, which is fatal.",
			req: Request{
				Input:    w(`{resources: [{name: a, base: {apiVersion: example.org/v1}}]}`),
				Observed: State{Composite: xr()},
			},
			want: Response{Results: []Result{fatal(`cannot parse base template of composed resource "a": Object 'Kind' is missing in '{"apiVersion":"example.org/v1"}'`)}},
		},
		"PatchFromUnobservedResourceSkipped": {
			reason: "Patches that read a composed resource that does not exist yet are skipped without a result, even when Required.",
			req: Request{
				Input: w(`{resources: [{name: a, base: {kind: CD}, patches: [
					{type: ToCompositeFieldPath, fromFieldPath: status.x, toFieldPath: status.x, policy: {fromFieldPath: Required}},
					{type: ToEnvironmentFieldPath, fromFieldPath: status.x, toFieldPath: x, policy: {fromFieldPath: Required}},
					{type: CombineToComposite, toFieldPath: status.y, combine: {strategy: string, string: {fmt: "%s"}, variables: [{fromFieldPath: status.x}]}}]}]}`),
				Observed: State{Composite: xr()},
			},
			want: Response{
				Desired: &State{Composite: xr(), Resources: map[string]Resource{"a": {Resource: w(`{kind: CD}`)}}},
				Context: envContext(t, ``),
			},
		},
		"PatchFromObservedResource": {
			reason: "ToEnvironment patches change the environment that later templates read; Combine patches read the observed resource.",
			req: Request{
				Input: w(`{resources: [
					{name: a, base: {kind: CD}, patches: [
						{type: ToEnvironmentFieldPath, fromFieldPath: status.x, toFieldPath: x},
						{type: CombineToComposite, toFieldPath: status.z, combine: {strategy: string, string: {fmt: "%s-%v"}, variables: [{fromFieldPath: status.x}, {fromFieldPath: status.num}]}}]},
					{name: b, base: {kind: CD}, patches: [{type: FromEnvironmentFieldPath, fromFieldPath: x, toFieldPath: spec.x}]}]}`),
				Observed: State{Composite: xr(), Resources: map[string]Resource{"a": {Resource: w(`{kind: CD, status: {x: hello, num: 3}}`)}}},
			},
			want: Response{
				Desired: &State{
					Composite: &Resource{Resource: w(`{apiVersion: example.org/v1, kind: XR, status: {z: hello-3}}`)},
					Resources: map[string]Resource{
						"a": {Resource: w(`{kind: CD}`)},
						"b": {Resource: w(`{kind: CD, spec: {x: hello}}`)},
					},
				},
				Context: envContext(t, `{x: hello}`),
			},
		},
		"ReadyFromObservedCondition": {
			reason: "Without readiness checks an observed resource with condition Ready True is ready.",
			req: Request{
				Input: w(`{resources: [{name: a, base: {kind: CD}}]}`),
				Observed: State{Composite: xr(), Resources: map[string]Resource{
					"a": {Resource: w(`{kind: CD, status: {conditions: [{type: Ready, status: "True", reason: Available, lastTransitionTime: "2024-01-01T00:00:00Z"}]}}`)},
				}},
			},
			want: Response{
				Desired: &State{Composite: xr(), Resources: map[string]Resource{"a": {Resource: w(`{kind: CD}`), Ready: ReadyTrue}}},
				Context: envContext(t, ``),
			},
		},
		"PT40MatchIntegerOnWireNumber": {
			reason: "A MatchInteger check errors on a wire float64, which is a warning and not ready.",
			req: Request{
				Input: w(`{resources: [{name: x, base: {kind: CD}, readinessChecks: [{type: MatchInteger, fieldPath: status.replicas, matchInteger: 3}]}]}`),
				Observed: State{Composite: xr(), Resources: map[string]Resource{
					"x": {Resource: w(`{kind: CD, status: {replicas: 3}}`)},
				}},
			},
			want: Response{
				Desired: &State{Composite: xr(), Resources: map[string]Resource{"x": {Resource: w(`{kind: CD}`)}}},
				Results: []Result{warning(`cannot check readiness of composed resource "x": cannot run readiness check at index 0: status.replicas: not a (int64) number`)},
				Context: envContext(t, ``),
			},
		},
		"DesiredReadinessAndConnectionDetails": {
			reason: "Rewriting the desired XR resets its ready; desired composed resources keep theirs and lose their connection details.",
			req: Request{
				Input:    w(`{resources: [{name: a, base: {kind: CD}}]}`),
				Observed: State{Composite: xr()},
				Desired: &State{
					Composite: &Resource{Resource: w(`{apiVersion: example.org/v1, kind: XR}`), Ready: ReadyTrue},
					Resources: map[string]Resource{"b": {
						Resource:          w(`{kind: CD}`),
						ConnectionDetails: map[string][]byte{"k": []byte("v")},
						Ready:             ReadyTrue,
					}},
				},
			},
			want: Response{
				Desired: &State{Composite: xr(), Resources: map[string]Resource{
					"a": {Resource: w(`{kind: CD}`)},
					"b": {Resource: w(`{kind: CD}`), Ready: ReadyTrue},
				}},
				Context: envContext(t, ``),
			},
		},
		"FatalKeepsEarlierWarnings": {
			reason: "A fatal result follows the warnings reported before it.",
			req: Request{
				Input: w(`{resources: [
					{name: a, base: {kind: CD}, patches: [{fromFieldPath: spec.missing, policy: {fromFieldPath: Required}}]},
					{name: b}]}`),
				Observed: State{Composite: xrWidgets()},
				Context:  map[string]any{"other": "value"},
			},
			want: Response{
				Results: []Result{
					warning(`not adding new composed resource "a" to desired state because "FromCompositeFieldPath" patch at index 0 has 'policy.fromFieldPath: Required': spec.missing: no such field`),
					fatal(`composed resource "b" has no base template, and was not produced by a previous Function in the pipeline`),
				},
				Context: map[string]any{"other": "value"},
			},
		},
		"EnvironmentKeepsItsGVK": {
			reason: "An environment with a GVK keeps it, and other context keys pass through.",
			req: Request{
				Input:    w(`{environment: {patches: [{type: FromEnvironmentFieldPath, fromFieldPath: data.x, toFieldPath: status.x}]}}`),
				Observed: State{Composite: xr()},
				Context: map[string]any{
					"other":               "value",
					ContextKeyEnvironment: w(`{apiVersion: example.org/v1, kind: Env, data: {x: 1}}`),
				},
			},
			want: Response{
				Desired: &State{Composite: &Resource{Resource: w(`{apiVersion: example.org/v1, kind: XR, status: {x: 1}}`)}},
				Context: map[string]any{
					"other":               "value",
					ContextKeyEnvironment: w(`{apiVersion: example.org/v1, kind: Env, data: {x: 1}}`),
				},
			},
		},
		"EnvironmentWithAPIVersionOnly": {
			reason: "An environment with an apiVersion but no kind has a GVK, so it is not stamped.",
			req: Request{
				Input:    w(`{environment: {patches: [{fromFieldPath: spec.widgets, toFieldPath: w}]}}`),
				Observed: State{Composite: xrWidgets()},
				Context:  map[string]any{ContextKeyEnvironment: w(`{apiVersion: v1}`)},
			},
			want: Response{
				Desired: &State{Composite: xr()},
				Context: map[string]any{ContextKeyEnvironment: w(`{apiVersion: v1, w: "10"}`)},
			},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			checkRun(t, tc.reason, tc.req, tc.want)
		})
	}
}

// TestRunConnectionSecret pins how the function names the connection Secret
// of a Crossplane v2 XR (vector PT-33) and when it composes one.
func TestRunConnectionSecret(t *testing.T) {
	w := func(y string) map[string]any { return wire(t, y) }

	// request renders one template whose observed resource contributes the
	// connection detail very=secret, for the XR xr and the input's
	// writeConnectionSecretToRef ref.
	request := func(xr, ref string) Request {
		in := w(`{resources: [{name: cool-resource, base: {apiVersion: example.org/v1, kind: CD},
			connectionDetails: [{type: FromValue, name: very, value: secret}]}]}`)
		if ref != "" {
			in["writeConnectionSecretToRef"] = w(ref)
		}
		return Request{
			Input: in,
			Observed: State{
				Composite: &Resource{Resource: w(xr)},
				Resources: map[string]Resource{"cool-resource": {Resource: w(`{apiVersion: example.org/v1, kind: CD}`)}},
			},
		}
	}
	// response is the success for XR my-xr: with the Secret when meta is
	// not "", with metadata when meta has fields.
	response := func(meta string) Response {
		rs := map[string]Resource{"cool-resource": {Resource: w(`{apiVersion: example.org/v1, kind: CD}`)}}
		if meta != "" {
			s := w(`{apiVersion: v1, kind: Secret, type: connection.crossplane.io/v1alpha1, data: {very: c2VjcmV0}}`)
			if m := w(meta); len(m) > 0 {
				s["metadata"] = m
			}
			rs["my-xr-connection-secret"] = Resource{Resource: s, Ready: ReadyTrue}
		}
		return Response{
			Desired: &State{
				Composite: &Resource{
					Resource:          w(`{apiVersion: example.org/v1, kind: XR}`),
					ConnectionDetails: map[string][]byte{"very": []byte("secret")},
				},
				Resources: rs,
			},
			Context: envContext(t, ``),
		}
	}
	const (
		v2XR        = `{apiVersion: example.org/v1, kind: XR, metadata: {name: my-xr, namespace: xr-ns, uid: uid-1}, spec: {crossplane: {}, env: prod, app: myapp}}`
		v2XRWithRef = `{apiVersion: example.org/v1, kind: XR, metadata: {name: my-xr, namespace: xr-ns}, spec: {crossplane: {}, writeConnectionSecretToRef: {name: xr-secret, namespace: xr-namespace}}}`
	)

	cases := map[string]struct {
		reason string
		req    Request
		want   Response
	}{
		"V1XRHasNoSecret": {
			reason: "An XR without spec.crossplane keeps classic connection details and gets no Secret.",
			req:    request(`{apiVersion: example.org/v1, kind: XR, metadata: {name: my-xr}}`, `{name: ignored}`),
			want:   response(""),
		},
		"NullCrossplaneIsV2": {
			reason: "spec.crossplane counts when present, even when null.",
			req:    request(`{apiVersion: example.org/v1, kind: XR, metadata: {name: my-xr, namespace: xr-ns}, spec: {crossplane: null}}`, ""),
			want:   response(`{name: my-xr-connection, namespace: xr-ns}`),
		},
		"NullXRRef": {
			reason: "A null spec.writeConnectionSecretToRef reads as an empty ref, which is used: the Secret has no name.",
			req:    request(`{apiVersion: example.org/v1, kind: XR, metadata: {name: my-xr, namespace: xr-ns}, spec: {crossplane: {}, writeConnectionSecretToRef: null}}`, `{name: ignored}`),
			want:   response(`{}`),
		},
		"MalformedXRRef": {
			reason: "A spec.writeConnectionSecretToRef that cannot be decoded is ignored.",
			req:    request(`{apiVersion: example.org/v1, kind: XR, metadata: {name: my-xr, namespace: xr-ns}, spec: {crossplane: {}, writeConnectionSecretToRef: {name: 42}}}`, ""),
			want:   response(`{name: my-xr-connection, namespace: xr-ns}`),
		},
		"XRRefProvidedNoInput": {
			reason: "The XR's own spec.writeConnectionSecretToRef names the Secret.",
			req:    request(v2XRWithRef, ""),
			want:   response(`{name: xr-secret, namespace: xr-namespace}`),
		},
		"XRRefAndInputProvided": {
			reason: "The XR's own ref wins over the input's.",
			req:    request(v2XRWithRef, `{name: my-custom-secret, namespace: custom-namespace}`),
			want:   response(`{name: xr-secret, namespace: xr-namespace}`),
		},
		"InputProvidedNoXRRef": {
			reason: "The input's name and namespace are used when the XR has no ref.",
			req:    request(v2XR, `{name: my-custom-secret, namespace: custom-namespace}`),
			want:   response(`{name: my-custom-secret, namespace: custom-namespace}`),
		},
		"InputNameOnly": {
			reason: "An input name alone is used whole: the namespace stays empty and is left out.",
			req:    request(v2XR, `{name: my-custom-secret}`),
			want:   response(`{name: my-custom-secret}`),
		},
		"GenerateDefault": {
			reason: "Without any ref the Secret is <xr>-connection in the XR's namespace.",
			req:    request(v2XR, ""),
			want:   response(`{name: my-xr-connection, namespace: xr-ns}`),
		},
		"PatchFromCompositeFieldPath": {
			reason: "Patches from the observed XR write the name and namespace.",
			req: request(v2XR, `{patches: [
				{type: FromCompositeFieldPath, fromFieldPath: metadata.uid, toFieldPath: name, transforms: [{type: string, string: {type: Format, fmt: "%s-cool-creds"}}]},
				{fromFieldPath: spec.env, toFieldPath: namespace}]}`),
			want: response(`{name: uid-1-cool-creds, namespace: prod}`),
		},
		"CombineFromComposite": {
			reason: "A Combine patch builds the name; the namespace stays the default.",
			req: request(v2XR, `{patches: [{type: CombineFromComposite, toFieldPath: name,
				combine: {strategy: string, string: {fmt: "%s-%s-cool-creds"}, variables: [{fromFieldPath: spec.app}, {fromFieldPath: spec.env}]}}]}`),
			want: response(`{name: myapp-prod-cool-creds, namespace: xr-ns}`),
		},
		"PatchesWithStaticBase": {
			reason: "Patches apply on top of the input's static name and namespace.",
			req:    request(v2XR, `{name: base-secret-name, namespace: base-secret-namespace, patches: [{fromFieldPath: spec.env, toFieldPath: namespace}]}`),
			want:   response(`{name: base-secret-name, namespace: prod}`),
		},
		"OptionalPatchErrorForgiven": {
			reason: "Any error of an Optional FieldPath patch is forgiven here, not only a missing source.",
			req:    request(v2XR, `{patches: [{fromFieldPath: "spec.env[0]", toFieldPath: name}, {fromFieldPath: spec.missing, toFieldPath: name}]}`),
			want:   response(`{name: my-xr-connection, namespace: xr-ns}`),
		},
		"RequiredPatchMissing": {
			reason: "A Required FieldPath patch with a missing source is fatal.",
			req:    request(v2XR, `{patches: [{fromFieldPath: spec.missing, toFieldPath: name, policy: {fromFieldPath: Required}}]}`),
			want: Response{Results: []Result{fatal("cannot compose connection secret: cannot generate connection secret reference: " +
				"cannot apply connection secret patches: cannot apply patch type FromCompositeFieldPath at index 0: spec.missing: no such field")}},
		},
		"CombineMissingVariable": {
			reason: "A Combine patch fails on a missing variable whatever its policy.",
			req: request(v2XR, `{patches: [{type: CombineFromComposite, toFieldPath: name,
				combine: {strategy: string, string: {fmt: "%s"}, variables: [{fromFieldPath: spec.missing}]}}]}`),
			want: Response{Results: []Result{fatal("cannot compose connection secret: cannot generate connection secret reference: " +
				"cannot apply connection secret patches: cannot apply patch type CombineFromComposite at index 0: spec.missing: no such field")}},
		},
		"UnknownToFieldPathPolicy": {
			reason: "An unknown policy.toFieldPath, never validated here, fails after the value is read.",
			req:    request(v2XR, `{patches: [{fromFieldPath: spec.env, toFieldPath: name, policy: {fromFieldPath: Required, toFieldPath: Bogus}}]}`),
			want: Response{Results: []Result{fatal("cannot compose connection secret: cannot generate connection secret reference: " +
				"cannot apply connection secret patches: cannot apply patch type FromCompositeFieldPath at index 0: invalid patch policy Bogus")}},
		},
		"UnsupportedPatchType": {
			reason: "Only FromCompositeFieldPath and CombineFromComposite patch the Secret's name.",
			req:    request(v2XR, `{patches: [{type: CombineToEnvironment}]}`),
			want: Response{Results: []Result{fatal("cannot compose connection secret: cannot generate connection secret reference: " +
				"cannot apply connection secret patches: unsupported patch type CombineToEnvironment at index 0")}},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			checkRun(t, tc.reason, tc.req, tc.want)
		})
	}
}

// Run renders a template and writes the environment to the context. The
// input and objects are wire values, as they arrive in a RunFunctionRequest.
func ExampleRun() {
	var input, xr map[string]any
	_ = json.Unmarshal([]byte(`{
		"apiVersion": "pt.fn.crossplane.io/v1beta1",
		"kind": "Resources",
		"resources": [{
			"name": "bucket",
			"base": {"apiVersion": "s3.aws.upbound.io/v1beta1", "kind": "Bucket"},
			"patches": [{"fromFieldPath": "spec.region", "toFieldPath": "spec.forProvider.region"}]
		}]
	}`), &input)
	_ = json.Unmarshal([]byte(`{"apiVersion": "example.org/v1", "kind": "XBucket", "spec": {"region": "eu-west-1"}}`), &xr)

	rsp := Run(Request{Input: input, Observed: State{Composite: &Resource{Resource: xr}}})

	bucket, _ := json.Marshal(rsp.Desired.Resources["bucket"].Resource)
	env, _ := json.Marshal(rsp.Context[ContextKeyEnvironment])
	fmt.Println(string(bucket))
	fmt.Println(string(env))
	fmt.Println(len(rsp.Results))

	// Output:
	// {"apiVersion":"s3.aws.upbound.io/v1beta1","kind":"Bucket","spec":{"forProvider":{"region":"eu-west-1"}}}
	// {"apiVersion":"internal.crossplane.io/v1alpha1","kind":"Environment"}
	// 0
}
