package legacy

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/xpmigrate/xpmigrate/render"
)

// A step is one reconcile of a flow. Between reconciles the XR is the
// previous one as persisted and the cluster what the previous one left,
// after the step's edits.
type step struct {
	// comp is the Composition (spec fields); empty keeps the previous one.
	comp string

	editXR      func(xr map[string]any)
	editCluster func(cluster []map[string]any) []map[string]any
}

// TestComposeFlows covers the reconcile-level vectors FL-001…FL-016
// and EV-035…EV-037 (docs/semantics/legacy.md#test-vectors). The view compared is that of the last
// reconcile.
func TestComposeFlows(t *testing.T) {
	const two = `
resources:
- name: A
  base: {apiVersion: ex.org/v1, kind: CD}
- name: B
  base: {apiVersion: ex.org/v1, kind: CD}
`
	const anonymous3 = `
resources:
- base: {apiVersion: ex.org/v1, kind: CD}
- base: {apiVersion: ex.org/v1, kind: CD}
- base: {apiVersion: ex.org/v1, kind: CD}
`
	const anonymous2 = `
resources:
- base: {apiVersion: ex.org/v1, kind: CD}
- base: {apiVersion: ex.org/v1, kind: CD}
`
	const named3 = `
resources:
- {name: a, base: {apiVersion: ex.org/v1, kind: CD}}
- {name: b, base: {apiVersion: ex.org/v1, kind: CD}}
- {name: c, base: {apiVersion: ex.org/v1, kind: CD}}
`
	const named2 = `
resources:
- {name: a, base: {apiVersion: ex.org/v1, kind: CD}}
- {name: b, base: {apiVersion: ex.org/v1, kind: CD}}
`
	// xrLive references one existing object, live, of template A.
	const xrLive = `
apiVersion: ex.org/v1
kind: XR
metadata: {name: xr1, uid: u-1, labels: {crossplane.io/composite: xr1}}
spec: {str: hello, resourceRefs: [{apiVersion: ex.org/v1, kind: CD, name: live}]}
`
	const live = `
apiVersion: ex.org/v1
kind: CD
metadata:
  name: live
  annotations: {crossplane.io/composition-resource-name: A}
  ownerReferences: [{apiVersion: ex.org/v1, kind: XR, name: xr1, uid: u-1, controller: true, blockOwnerDeletion: true}]
spec: {old: 1, x: old}
status: {atProvider: {id: abc}}
`
	liveDesired := func(spec map[string]any) map[string]any { return cd(owned("live", "A", nil), spec) }
	liveApplied := func(spec map[string]any) map[string]any {
		return withStatus(cd(owned("live", "A", nil), spec), map[string]any{"atProvider": map[string]any{"id": "abc"}})
	}

	objA := cd(owned("xr1-bcdfg", "A", nil), nil)
	objB := cd(owned("xr1-hjklm", "B", nil), nil)
	anon := func(name string) map[string]any { return cd(owned(name, "", nil), nil) }
	namedObj := func(name, template string) map[string]any { return cd(owned(name, template, nil), nil) }

	cases := map[string]struct {
		reason   string
		xr       string
		observed string
		opts     Options
		steps    []step
		want     view
	}{
		"FL001FirstReconcile": {
			reason: "A first reconcile creates every object under a generated name, records the references and is not ready (default readiness).",
			xr:     xr1,
			steps:  []step{{comp: two}},
			want: view{
				Events: []render.Event{normal(`Composed resource "A" is not yet ready`), normal(`Composed resource "B" is not yet ready`)},
				Conditions: []any{
					cond("Synced", "True", "ReconcileSuccess", ""),
					cond("Ready", "False", "Creating", "Unready resources: A, B"),
				},
				Composed: []render.ComposedResource{created(0, "A", objA), created(1, "B", objB)},
				Refs:     []any{ref("ex.org/v1", "CD", "xr1-bcdfg"), ref("ex.org/v1", "CD", "xr1-hjklm")},
			},
		},
		"FL002FromPatchFails": {
			reason: "A failing From patch skips its template only; its reference is still recorded.",
			xr:     xr1,
			steps: []step{{comp: `
resources:
- {name: A, base: {apiVersion: ex.org/v1, kind: CD}}
- name: B
  base: {apiVersion: ex.org/v1, kind: CD}
  patches:
  - {fromFieldPath: spec.str, toFieldPath: spec.s}
  - {fromFieldPath: spec.nope, toFieldPath: spec.x, policy: {fromFieldPath: Required}}
- {name: C, base: {apiVersion: ex.org/v1, kind: CD}}
`}},
			want: view{
				Events: []render.Event{
					warning(`cannot render FromComposite patches for composed resource "B": cannot apply the "FromCompositeFieldPath" patch at index 1: spec.nope: no such field`),
					normal(`Composed resource "A" is not yet ready`),
					normal(`Composed resource "B" is not yet valid`),
					normal(`Composed resource "B" is not yet ready`),
					normal(`Composed resource "C" is not yet ready`),
				},
				Conditions: []any{
					cond("Synced", "False", "ReconcileError", "Unsynced resources: B"),
					cond("Ready", "False", "Creating", "Unready resources: A, B, and C"),
				},
				Composed: []render.ComposedResource{
					created(0, "A", objA),
					failed(1, "B"),
					created(2, "C", cd(owned("xr1-npqrs", "C", nil), nil)),
				},
				Refs: []any{ref("ex.org/v1", "CD", "xr1-bcdfg"), ref("ex.org/v1", "CD", "xr1-hjklm"), ref("ex.org/v1", "CD", "xr1-npqrs")},
			},
		},
		"FL003ToCompositePatchFails": {
			reason: "A failing ToComposite patch is fatal: later templates are applied but not observed, Ready is untouched.",
			xr:     xr1,
			steps: []step{{comp: `
resources:
- name: A
  base: {apiVersion: ex.org/v1, kind: CD}
  patches: [{type: ToCompositeFieldPath, fromFieldPath: status.nope, toFieldPath: status.x, policy: {fromFieldPath: Required}}]
- {name: B, base: {apiVersion: ex.org/v1, kind: CD}}
`}},
			want: view{
				Err:    `cannot compose resources: cannot render ToComposite patches for composed resource "A": cannot apply the "ToCompositeFieldPath" patch at index 0: status: no such field`,
				Events: []render.Event{warning(`cannot compose resources: cannot render ToComposite patches for composed resource "A": cannot apply the "ToCompositeFieldPath" patch at index 0: status: no such field`)},
				Conditions: []any{
					cond("Synced", "False", "ReconcileError", `cannot compose resources: cannot render ToComposite patches for composed resource "A": cannot apply the "ToCompositeFieldPath" patch at index 0: status: no such field`),
				},
				Composed: []render.ComposedResource{unobserved(0, "A", objA, objA), unobserved(1, "B", objB, objB)},
				Refs:     []any{ref("ex.org/v1", "CD", "xr1-bcdfg"), ref("ex.org/v1", "CD", "xr1-hjklm")},
			},
		},
		"FL004FirstReconcile": {
			reason: "A value flowing A → XR → B does not reach B in the reconcile that copies it to the XR.",
			xr: `
apiVersion: ex.org/v1
kind: XR
metadata: {name: xr1, uid: u-1, labels: {crossplane.io/composite: xr1}}
spec: {resourceRefs: [{apiVersion: ex.org/v1, kind: CD, name: xr1-a}, {apiVersion: ex.org/v1, kind: CD, name: xr1-b}]}
`,
			observed: `
apiVersion: ex.org/v1
kind: CD
metadata: {name: xr1-a, annotations: {crossplane.io/composition-resource-name: a}}
status: {id: abc}
---
apiVersion: ex.org/v1
kind: CD
metadata: {name: xr1-b, annotations: {crossplane.io/composition-resource-name: b}}
`,
			steps: []step{{comp: `
resources:
- name: a
  base: {apiVersion: ex.org/v1, kind: CD}
  patches: [{type: ToCompositeFieldPath, fromFieldPath: status.id, toFieldPath: status.aId}]
- name: b
  base: {apiVersion: ex.org/v1, kind: CD}
  patches: [{fromFieldPath: status.aId, toFieldPath: spec.peer}]
`}},
			want: view{
				Events: []render.Event{normal(`Composed resource "a" is not yet ready`), normal(`Composed resource "b" is not yet ready`)},
				Conditions: []any{
					cond("Synced", "True", "ReconcileSuccess", ""),
					cond("Ready", "False", "Creating", "Unready resources: a, b"),
				},
				Composed: []render.ComposedResource{
					patched(0, "a", namedObj("xr1-a", "a"), withStatus(namedObj("xr1-a", "a"), map[string]any{"id": "abc"})),
					patched(1, "b", namedObj("xr1-b", "b"), namedObj("xr1-b", "b")),
				},
				Refs: []any{ref("ex.org/v1", "CD", "xr1-a"), ref("ex.org/v1", "CD", "xr1-b")},
			},
		},
		"FL004SecondReconcile": {
			reason: "The next reconcile renders B from the XR status the previous one wrote.",
			xr: `
apiVersion: ex.org/v1
kind: XR
metadata: {name: xr1, uid: u-1, labels: {crossplane.io/composite: xr1}}
spec: {resourceRefs: [{apiVersion: ex.org/v1, kind: CD, name: xr1-a}, {apiVersion: ex.org/v1, kind: CD, name: xr1-b}]}
`,
			observed: `
apiVersion: ex.org/v1
kind: CD
metadata: {name: xr1-a, annotations: {crossplane.io/composition-resource-name: a}}
status: {id: abc}
---
apiVersion: ex.org/v1
kind: CD
metadata: {name: xr1-b, annotations: {crossplane.io/composition-resource-name: b}}
`,
			steps: []step{{comp: `
resources:
- name: a
  base: {apiVersion: ex.org/v1, kind: CD}
  patches: [{type: ToCompositeFieldPath, fromFieldPath: status.id, toFieldPath: status.aId}]
- name: b
  base: {apiVersion: ex.org/v1, kind: CD}
  patches: [{fromFieldPath: status.aId, toFieldPath: spec.peer}]
`}, {}},
			want: view{
				Events: []render.Event{normal(`Composed resource "a" is not yet ready`), normal(`Composed resource "b" is not yet ready`)},
				Conditions: []any{
					cond("Synced", "True", "ReconcileSuccess", ""),
					cond("Ready", "False", "Creating", "Unready resources: a, b"),
				},
				Composed: []render.ComposedResource{
					patched(0, "a", namedObj("xr1-a", "a"), withStatus(namedObj("xr1-a", "a"), map[string]any{"id": "abc"})),
					patched(1, "b", cd(owned("xr1-b", "b", nil), map[string]any{"peer": "abc"}), cd(owned("xr1-b", "b", nil), map[string]any{"peer": "abc"})),
				},
				Refs: []any{ref("ex.org/v1", "CD", "xr1-a"), ref("ex.org/v1", "CD", "xr1-b")},
			},
		},
		"FL005AnonymousTemplateRemoved": {
			reason: "Removing an anonymous template drops its reference but leaves its object in place.",
			xr:     xr1,
			steps:  []step{{comp: anonymous3}, {comp: anonymous2}},
			want: view{
				Events: []render.Event{normal(`Composed resource "resource 1" is not yet ready`), normal(`Composed resource "resource 2" is not yet ready`)},
				Conditions: []any{
					cond("Synced", "True", "ReconcileSuccess", ""),
					cond("Ready", "False", "Creating", "Unready resources: resource 1, resource 2"),
				},
				Composed: []render.ComposedResource{
					patched(0, "", anon("xr1-bcdfg"), anon("xr1-bcdfg")),
					patched(1, "", anon("xr1-hjklm"), anon("xr1-hjklm")),
				},
				Refs: []any{ref("ex.org/v1", "CD", "xr1-bcdfg"), ref("ex.org/v1", "CD", "xr1-hjklm")},
			},
		},
		"FL006NamedTemplateRemoved": {
			reason: "Removing a named template garbage-collects its object.",
			xr:     xr1,
			steps:  []step{{comp: named3}, {comp: named2}},
			want: view{
				Events: []render.Event{normal(`Composed resource "a" is not yet ready`), normal(`Composed resource "b" is not yet ready`)},
				Conditions: []any{
					cond("Synced", "True", "ReconcileSuccess", ""),
					cond("Ready", "False", "Creating", "Unready resources: a, b"),
				},
				Composed: []render.ComposedResource{
					patched(0, "a", namedObj("xr1-bcdfg", "a"), namedObj("xr1-bcdfg", "a")),
					patched(1, "b", namedObj("xr1-hjklm", "b"), namedObj("xr1-hjklm", "b")),
				},
				Refs:    []any{ref("ex.org/v1", "CD", "xr1-bcdfg"), ref("ex.org/v1", "CD", "xr1-hjklm")},
				Deleted: []string{"xr1-npqrs"},
			},
		},
		"FL007BaseNamespaceDiscarded": {
			reason: "A base's namespace is discarded for a new object.",
			xr:     xr1,
			steps: []step{{comp: `
resources:
- {name: A, base: {apiVersion: ex.org/v1, kind: CD, metadata: {namespace: team-a}}}
`}},
			want: view{
				Events: []render.Event{normal(`Composed resource "A" is not yet ready`)},
				Conditions: []any{
					cond("Synced", "True", "ReconcileSuccess", ""),
					cond("Ready", "False", "Creating", "Unready resources: A"),
				},
				Composed: []render.ComposedResource{created(0, "A", objA)},
				Refs:     []any{ref("ex.org/v1", "CD", "xr1-bcdfg")},
			},
		},
		"FL008PatchedNamespace": {
			reason: "A patched namespace is kept on the object and in its reference, as Crossplane v1.20.11 writes it.",
			xr: `
apiVersion: ex.org/v1
kind: XR
metadata: {name: xr1, uid: u-1, labels: {crossplane.io/composite: xr1}}
spec: {ns: team-a}
`,
			steps: []step{{comp: `
resources:
- base: {apiVersion: ex.org/v1, kind: CD}
  patches: [{fromFieldPath: spec.ns, toFieldPath: metadata.namespace}]
`}},
			want: view{
				Events: []render.Event{normal(`Composed resource "resource 1" is not yet ready`)},
				Conditions: []any{
					cond("Synced", "True", "ReconcileSuccess", ""),
					cond("Ready", "False", "Creating", "Unready resources: resource 1"),
				},
				Composed: []render.ComposedResource{created(0, "", cd(owned("xr1-bcdfg", "", map[string]any{"namespace": "team-a"}), nil))},
				Refs:     []any{nsRef("ex.org/v1", "CD", "team-a", "xr1-bcdfg")},
			},
		},
		"FL008PatchedNamespaceAnonymousNextReconcile": {
			reason: "With anonymous templates the namespace patch re-applies on the next reconcile and the object is found (it keeps its status).",
			xr: `
apiVersion: ex.org/v1
kind: XR
metadata: {name: xr1, uid: u-1, labels: {crossplane.io/composite: xr1}}
spec: {ns: team-a}
`,
			steps: []step{{comp: `
resources:
- base: {apiVersion: ex.org/v1, kind: CD}
  patches: [{fromFieldPath: spec.ns, toFieldPath: metadata.namespace}]
`}, {editCluster: func(c []map[string]any) []map[string]any {
				c[0]["status"] = map[string]any{"seen": true}
				return c
			}}},
			want: view{
				Events: []render.Event{normal(`Composed resource "resource 1" is not yet ready`)},
				Conditions: []any{
					cond("Synced", "True", "ReconcileSuccess", ""),
					cond("Ready", "False", "Creating", "Unready resources: resource 1"),
				},
				Composed: []render.ComposedResource{patched(0, "",
					cd(owned("xr1-bcdfg", "", map[string]any{"namespace": "team-a"}), nil),
					withStatus(cd(owned("xr1-bcdfg", "", map[string]any{"namespace": "team-a"}), nil), map[string]any{"seen": true}))},
				Refs: []any{nsRef("ex.org/v1", "CD", "team-a", "xr1-bcdfg")},
			},
		},
		"FL011MergePatchKeepsFields": {
			reason:   "A JSON merge patch never removes fields the desired object does not mention.",
			xr:       xrLive,
			observed: live,
			steps:    []step{{comp: `resources: [{name: A, base: {apiVersion: ex.org/v1, kind: CD}}]`}},
			want: view{
				Events: []render.Event{normal(`Composed resource "A" is not yet ready`)},
				Conditions: []any{
					cond("Synced", "True", "ReconcileSuccess", ""),
					cond("Ready", "False", "Creating", "Unready resources: A"),
				},
				Composed: []render.ComposedResource{patched(0, "A", liveDesired(nil), liveApplied(map[string]any{"old": int64(1), "x": "old"}))},
				Refs:     []any{ref("ex.org/v1", "CD", "live")},
			},
		},
		"FL012OwnerReferencesReplaced": {
			reason: "Lists, owner references included, are replaced wholesale by the merge patch.",
			xr:     xrLive,
			observed: `
apiVersion: ex.org/v1
kind: CD
metadata:
  name: live
  annotations: {crossplane.io/composition-resource-name: A}
  ownerReferences:
  - {apiVersion: ex.org/v1, kind: XR, name: xr1, uid: u-1, controller: true, blockOwnerDeletion: true}
  - {apiVersion: x.org/v1, kind: Other, name: o, uid: other, controller: false}
`,
			steps: []step{{comp: `resources: [{name: A, base: {apiVersion: ex.org/v1, kind: CD}}]`}},
			want: view{
				Events: []render.Event{normal(`Composed resource "A" is not yet ready`)},
				Conditions: []any{
					cond("Synced", "True", "ReconcileSuccess", ""),
					cond("Ready", "False", "Creating", "Unready resources: A"),
				},
				Composed: []render.ComposedResource{patched(0, "A", liveDesired(nil), liveDesired(nil))},
				Refs:     []any{ref("ex.org/v1", "CD", "live")},
			},
		},
		"FL013NullDeletes": {
			reason:   "A null in the desired object (an unmatched match transform) deletes the live field.",
			xr:       xrLive,
			observed: live,
			steps: []step{{comp: `
resources:
- name: A
  base: {apiVersion: ex.org/v1, kind: CD}
  patches:
  - fromFieldPath: spec.str
    toFieldPath: spec.x
    transforms: [{type: match, match: {patterns: [{type: literal, literal: nomatch, result: r}]}}]
`}},
			want: view{
				Events: []render.Event{normal(`Composed resource "A" is not yet ready`)},
				Conditions: []any{
					cond("Synced", "True", "ReconcileSuccess", ""),
					cond("Ready", "False", "Creating", "Unready resources: A"),
				},
				Composed: []render.ComposedResource{patched(0, "A", liveDesired(map[string]any{"x": nil}), liveApplied(map[string]any{"old": int64(1)}))},
				Refs:     []any{ref("ex.org/v1", "CD", "live")},
			},
		},
		"FL014AnonymousFailedTemplateKeepsName": {
			reason: "An anonymous template that failed still records its generated name, and reuses it once it renders.",
			xr:     xr1,
			steps: []step{{comp: `
resources:
- base: {apiVersion: ex.org/v1, kind: CD}
  patches: [{fromFieldPath: spec.later, toFieldPath: spec.later, policy: {fromFieldPath: Required}}]
`}, {editXR: func(xr map[string]any) { xr["spec"].(map[string]any)["later"] = "now" }}},
			want: view{
				Events: []render.Event{normal(`Composed resource "resource 1" is not yet ready`)},
				Conditions: []any{
					cond("Synced", "True", "ReconcileSuccess", ""),
					cond("Ready", "False", "Creating", "Unready resources: resource 1"),
				},
				Composed: []render.ComposedResource{created(0, "", cd(owned("xr1-bcdfg", "", nil), map[string]any{"later": "now"}))},
				Refs:     []any{ref("ex.org/v1", "CD", "xr1-bcdfg")},
			},
		},
		"FL015NamedObjectDeletedExternally": {
			reason: "A named template whose object is gone gets a new name, replacing the reference.",
			xr:     xr1,
			steps: []step{{comp: `resources: [{name: A, base: {apiVersion: ex.org/v1, kind: CD}}]`},
				{editCluster: func([]map[string]any) []map[string]any { return nil }}},
			want: view{
				Events: []render.Event{normal(`Composed resource "A" is not yet ready`)},
				Conditions: []any{
					cond("Synced", "True", "ReconcileSuccess", ""),
					cond("Ready", "False", "Creating", "Unready resources: A"),
				},
				Composed: []render.ComposedResource{created(0, "A", cd(owned("xr1-hjklm", "A", nil), nil))},
				Refs:     []any{ref("ex.org/v1", "CD", "xr1-hjklm")},
			},
		},
		"FL016ControlledBySomeoneElse": {
			reason: "Applying to an object another owner controls is fatal.",
			xr:     xrLive,
			observed: `
apiVersion: ex.org/v1
kind: CD
metadata:
  name: live
  annotations: {crossplane.io/composition-resource-name: A}
  ownerReferences: [{apiVersion: x.org/v1, kind: Other, name: o, uid: someone-else, controller: true}]
`,
			steps: []step{{comp: `resources: [{name: A, base: {apiVersion: ex.org/v1, kind: CD}}]`}},
			want: view{
				Err:        `cannot compose resources: cannot apply composed resource "A": existing object is not controlled by UID "u-1"`,
				Events:     []render.Event{warning(`cannot compose resources: cannot apply composed resource "A": existing object is not controlled by UID "u-1"`)},
				Conditions: []any{cond("Synced", "False", "ReconcileError", `cannot compose resources: cannot apply composed resource "A": existing object is not controlled by UID "u-1"`)},
				Composed:   []render.ComposedResource{unobserved(0, "A", liveDesired(nil), nil)},
				Refs:       []any{ref("ex.org/v1", "CD", "live")},
			},
		},
		"FL016AnonymousApplyName": {
			reason: "Apply errors name an anonymous template by its bare 1-based index (Q-35).",
			xr:     xrLive,
			observed: `
apiVersion: ex.org/v1
kind: CD
metadata:
  name: live
  ownerReferences: [{apiVersion: x.org/v1, kind: Other, name: o, uid: someone-else, controller: true}]
`,
			steps: []step{{comp: `resources: [{base: {apiVersion: ex.org/v1, kind: CD}}]`}},
			want: view{
				Err:        `cannot compose resources: cannot apply composed resource "1": existing object is not controlled by UID "u-1"`,
				Events:     []render.Event{warning(`cannot compose resources: cannot apply composed resource "1": existing object is not controlled by UID "u-1"`)},
				Conditions: []any{cond("Synced", "False", "ReconcileError", `cannot compose resources: cannot apply composed resource "1": existing object is not controlled by UID "u-1"`)},
				Composed:   []render.ComposedResource{unobserved(0, "", cd(owned("live", "", nil), nil), nil)},
				Refs:       []any{ref("ex.org/v1", "CD", "live")},
			},
		},
		"NamedFallbackToOrder": {
			reason: "With named templates, an existing object without the template name annotation makes association fall back to order.",
			xr:     xrLive,
			observed: `
apiVersion: ex.org/v1
kind: CD
metadata: {name: live}
`,
			steps: []step{{comp: two}},
			want: view{
				Events: []render.Event{normal(`Composed resource "A" is not yet ready`), normal(`Composed resource "B" is not yet ready`)},
				Conditions: []any{
					cond("Synced", "True", "ReconcileSuccess", ""),
					cond("Ready", "False", "Creating", "Unready resources: A, B"),
				},
				Composed: []render.ComposedResource{
					patched(0, "A", liveDesired(nil), liveDesired(nil)),
					created(1, "B", cd(owned("xr1-bcdfg", "B", nil), nil)),
				},
				Refs: []any{ref("ex.org/v1", "CD", "live"), ref("ex.org/v1", "CD", "xr1-bcdfg")},
			},
		},
		"EV035EnvironmentDisabled": {
			reason: "With the v1.17 flag off, environment patches do nothing.",
			xr:     xr1,
			opts:   Options{Target: TargetV117, EnvironmentEnabled: ptrTo(false)},
			steps: []step{{comp: `
resources:
- name: A
  base: {apiVersion: ex.org/v1, kind: CD}
  patches: [{type: FromEnvironmentFieldPath, fromFieldPath: num, toFieldPath: spec.num}]
`}},
			want: view{
				Events: []render.Event{normal(`Composed resource "A" is not yet ready`)},
				Conditions: []any{
					cond("Synced", "True", "ReconcileSuccess", ""),
					cond("Ready", "False", "Creating", "Unready resources: A"),
				},
				Composed: []render.ComposedResource{created(0, "A", objA)},
				Refs:     []any{ref("ex.org/v1", "CD", "xr1-bcdfg")},
			},
		},
		"EV036EnvironmentEarlierToLater": {
			reason: "A value written to the environment by an earlier template reaches a later one in the same reconcile.",
			xr:     xr1,
			steps: []step{{comp: `
resources:
- name: A
  base: {apiVersion: ex.org/v1, kind: CD, spec: {id: x}}
  patches: [{type: ToEnvironmentFieldPath, fromFieldPath: spec.id, toFieldPath: id}]
- name: B
  base: {apiVersion: ex.org/v1, kind: CD}
  patches: [{type: FromEnvironmentFieldPath, fromFieldPath: id, toFieldPath: spec.peer}]
`}},
			want: view{
				Events: []render.Event{normal(`Composed resource "A" is not yet ready`), normal(`Composed resource "B" is not yet ready`)},
				Conditions: []any{
					cond("Synced", "True", "ReconcileSuccess", ""),
					cond("Ready", "False", "Creating", "Unready resources: A, B"),
				},
				Composed: []render.ComposedResource{
					created(0, "A", cd(owned("xr1-bcdfg", "A", nil), map[string]any{"id": "x"})),
					created(1, "B", cd(owned("xr1-hjklm", "B", nil), map[string]any{"peer": "x"})),
				},
				Refs: []any{ref("ex.org/v1", "CD", "xr1-bcdfg"), ref("ex.org/v1", "CD", "xr1-hjklm")},
			},
		},
		"EV037EnvironmentLaterToEarlier": {
			reason: "A value written by a later template never reaches an earlier one: the environment is rebuilt every reconcile.",
			xr:     xr1,
			steps: []step{{comp: `
resources:
- name: B
  base: {apiVersion: ex.org/v1, kind: CD}
  patches: [{type: FromEnvironmentFieldPath, fromFieldPath: id, toFieldPath: spec.peer}]
- name: A
  base: {apiVersion: ex.org/v1, kind: CD, spec: {id: x}}
  patches: [{type: ToEnvironmentFieldPath, fromFieldPath: spec.id, toFieldPath: id}]
`}, {}},
			want: view{
				Events: []render.Event{normal(`Composed resource "B" is not yet ready`), normal(`Composed resource "A" is not yet ready`)},
				Conditions: []any{
					cond("Synced", "True", "ReconcileSuccess", ""),
					cond("Ready", "False", "Creating", "Unready resources: A, B"),
				},
				Composed: []render.ComposedResource{
					patched(0, "B", cd(owned("xr1-bcdfg", "B", nil), nil), cd(owned("xr1-bcdfg", "B", nil), nil)),
					patched(1, "A", cd(owned("xr1-hjklm", "A", nil), map[string]any{"id": "x"}), cd(owned("xr1-hjklm", "A", nil), map[string]any{"id": "x"})),
				},
				Refs: []any{ref("ex.org/v1", "CD", "xr1-bcdfg"), ref("ex.org/v1", "CD", "xr1-hjklm")},
			},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			opts := tc.opts
			opts.NameGenerator = sequence()
			xr := object(t, tc.xr)
			cluster := objects(t, tc.observed)
			comp := ""
			var got view
			for i, s := range tc.steps {
				if s.comp != "" {
					comp = s.comp
				}
				if s.editXR != nil {
					s.editXR(xr)
				}
				if s.editCluster != nil {
					cluster = s.editCluster(cluster)
				}
				out, err := Compose(xr, composition(t, comp), cluster, opts)
				got = viewOf(out, err)
				if i < len(tc.steps)-1 {
					if out == nil || err != nil {
						t.Fatalf("\n%s\nCompose(...) at step %d: %v", tc.reason, i, err)
					}
					xr = out.EffectiveXR
					cluster = clusterAfter(cluster, out)
				}
			}
			if diff := cmp.Diff(tc.want, got, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("\n%s\nCompose(...): -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}
