package legacy

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/xpmigrate/xpmigrate/render"
)

// TestComposeMetadata covers vectors MD-001…MD-010 and PS-005 (docs/semantics/legacy.md#test-vectors):
// how a template becomes a desired object — base, metadata, name — and how
// rendering failures are reported.
func TestComposeMetadata(t *testing.T) {
	long := strings.Repeat("abcdefghij", 7)

	type args struct {
		xr    string
		comp  string
		names func(string) string
	}
	cases := map[string]struct {
		reason string
		args   args
		want   view
	}{
		"MD001BaseNameNamespaceDiscarded": {
			reason: "The base's name and namespace are discarded, generateName and Crossplane's labels overwritten, the template name annotated, the XR made controller.",
			args: args{
				xr: xr1,
				comp: `
resources:
- name: my-res
  base: {apiVersion: ex.org/v1, kind: CD, metadata: {name: basename, namespace: ns, generateName: g-, labels: {crossplane.io/composite: evil, x: "y"}}, spec: {m: 1}}
`,
			},
			want: view{
				Events: []render.Event{normal(`Composed resource "my-res" is not yet ready`)},
				Conditions: []any{
					cond("Synced", "True", "ReconcileSuccess", ""),
					cond("Ready", "False", "Creating", "Unready resources: my-res"),
				},
				Composed: []render.ComposedResource{
					created(0, "my-res", cd(owned("xr1-bcdfg", "my-res", map[string]any{"labels": map[string]any{"x": "y"}}), map[string]any{"m": int64(1)})),
				},
				Refs: []any{ref("ex.org/v1", "CD", "xr1-bcdfg")},
			},
		},
		"MD002BaseWithoutKind": {
			reason: "A base without kind cannot be parsed, which is fatal.",
			args: args{
				xr: xr1,
				comp: `
resources:
- name: my-res
  base: {apiVersion: ex.org/v1, spec: {}}
`,
			},
			want: view{
				Err:        `cannot compose resources: cannot parse base template of composed resource "my-res": cannot unmarshal JSON data: Object 'Kind' is missing in '{"apiVersion":"ex.org/v1","spec":{}}'`,
				Events:     []render.Event{warning(`cannot compose resources: cannot parse base template of composed resource "my-res": cannot unmarshal JSON data: Object 'Kind' is missing in '{"apiVersion":"ex.org/v1","spec":{}}'`)},
				Conditions: []any{cond("Synced", "False", "ReconcileError", `cannot compose resources: cannot parse base template of composed resource "my-res": cannot unmarshal JSON data: Object 'Kind' is missing in '{"apiVersion":"ex.org/v1","spec":{}}'`)},
				Composed:   []render.ComposedResource{},
			},
		},
		"MD003NoCompositeLabel": {
			reason: "Without the crossplane.io/composite label (here emptied by an environment patch) metadata cannot render: the template is skipped and gets no name.",
			args: args{
				xr: xr1,
				comp: `
environment:
  defaultData: {empty: ""}
  patches: [{type: ToCompositeFieldPath, fromFieldPath: empty, toFieldPath: "metadata.labels[crossplane.io/composite]"}]
resources:
- name: my-res
  base: {apiVersion: ex.org/v1, kind: CD}
`,
			},
			want: view{
				Events: []render.Event{
					warning(`cannot render metadata for composed resource "my-res": cannot find top-level composite resource name label "crossplane.io/composite" in composite resource metadata`),
					normal(`Composed resource "my-res" is not yet valid`),
					normal(`Composed resource "my-res" is not yet ready`),
				},
				Conditions: []any{
					cond("Synced", "False", "ReconcileError", "Unsynced resources: my-res"),
					cond("Ready", "False", "Creating", "Unready resources: my-res"),
				},
				Composed: []render.ComposedResource{failed(0, "my-res")},
				Refs:     []any{map[string]any{"apiVersion": "ex.org/v1", "kind": "CD"}},
			},
		},
		"MD004ControlledByAnother": {
			reason: "A base whose controller is someone else cannot be controlled by the XR; the object has no name yet when the error is made.",
			args: args{
				xr: xr1,
				comp: `
resources:
- name: my-res
  base: {apiVersion: ex.org/v1, kind: CD, metadata: {ownerReferences: [{apiVersion: a/v1, kind: K, name: other, uid: u-2, controller: true}]}}
`,
			},
			want: view{
				Events: []render.Event{
					warning(`cannot render metadata for composed resource "my-res": cannot set controller reference:  is already controlled by K other (UID u-2)`),
					normal(`Composed resource "my-res" is not yet valid`),
					normal(`Composed resource "my-res" is not yet ready`),
				},
				Conditions: []any{
					cond("Synced", "False", "ReconcileError", "Unsynced resources: my-res"),
					cond("Ready", "False", "Creating", "Unready resources: my-res"),
				},
				Composed: []render.ComposedResource{failed(0, "my-res")},
				Refs:     []any{ref("ex.org/v1", "CD", "xr1-bcdfg")},
			},
		},
		"MD005KindChanged": {
			reason: "A template whose kind differs from its existing object's is fatal.",
			args: args{
				xr: `
apiVersion: ex.org/v1
kind: XR
metadata: {name: xr1, uid: u-1, labels: {crossplane.io/composite: xr1}}
spec: {resourceRefs: [{apiVersion: example.org/v1, kind: Potato, name: p}]}
`,
				comp: `
resources:
- base: {apiVersion: example.org/v1, kind: Different}
`,
			},
			want: view{
				Err:    `cannot compose resources: cannot parse base template of composed resource "resource 1": cannot change the kind of a composed resource from example.org/v1, Kind=Potato to example.org/v1, Kind=Different (possible composed resource template mismatch)`,
				Events: []render.Event{warning(`cannot compose resources: cannot parse base template of composed resource "resource 1": cannot change the kind of a composed resource from example.org/v1, Kind=Potato to example.org/v1, Kind=Different (possible composed resource template mismatch)`)},
				Conditions: []any{cond("Synced", "False", "ReconcileError",
					`cannot compose resources: cannot parse base template of composed resource "resource 1": cannot change the kind of a composed resource from example.org/v1, Kind=Potato to example.org/v1, Kind=Different (possible composed resource template mismatch)`)},
				Composed: []render.ComposedResource{},
				Refs:     []any{ref("example.org/v1", "Potato", "p")},
			},
		},
		"MD006APIVersionChanged": {
			reason: "Group and version may change; the reference follows the template.",
			args: args{
				xr: `
apiVersion: ex.org/v1
kind: XR
metadata: {name: xr1, uid: u-1, labels: {crossplane.io/composite: xr1}}
spec: {resourceRefs: [{apiVersion: example.org/v1alpha1, kind: Potato, name: p}]}
`,
				comp: `
resources:
- base: {apiVersion: foo.io/v1beta1, kind: Potato}
`,
			},
			want: view{
				Events: []render.Event{normal(`Composed resource "resource 1" is not yet ready`)},
				Conditions: []any{
					cond("Synced", "True", "ReconcileSuccess", ""),
					cond("Ready", "False", "Creating", "Unready resources: resource 1"),
				},
				Composed: []render.ComposedResource{
					created(0, "", map[string]any{"apiVersion": "foo.io/v1beta1", "kind": "Potato", "metadata": owned("p", "", nil)}),
				},
				Refs: []any{ref("foo.io/v1beta1", "Potato", "p")},
			},
		},
		"MD007LongPrefix": {
			reason: "A generateName longer than 58 characters is cut before the 5 random characters are appended.",
			args: args{
				xr: `
apiVersion: ex.org/v1
kind: XR
metadata: {name: xr1, uid: u-1, labels: {crossplane.io/composite: ` + long + `}}
`,
				comp: `
resources:
- name: my-res
  base: {apiVersion: ex.org/v1, kind: CD}
`,
			},
			want: view{
				Events: []render.Event{normal(`Composed resource "my-res" is not yet ready`)},
				Conditions: []any{
					cond("Synced", "True", "ReconcileSuccess", ""),
					cond("Ready", "False", "Creating", "Unready resources: my-res"),
				},
				Composed: []render.ComposedResource{
					created(0, "my-res", cd(owned(long[:58]+"bcdfg", "my-res", map[string]any{
						"generateName": long + "-",
						"labels":       map[string]any{"crossplane.io/composite": long},
					}), nil)),
				},
				Refs: []any{ref("ex.org/v1", "CD", long[:58]+"bcdfg")},
			},
		},
		"MD008Anonymous": {
			reason: "Anonymous templates get no composition-resource-name annotation.",
			args: args{
				xr: xr1,
				comp: `
resources:
- base: {apiVersion: ex.org/v1, kind: CD}
`,
			},
			want: view{
				Events: []render.Event{normal(`Composed resource "resource 1" is not yet ready`)},
				Conditions: []any{
					cond("Synced", "True", "ReconcileSuccess", ""),
					cond("Ready", "False", "Creating", "Unready resources: resource 1"),
				},
				Composed: []render.ComposedResource{created(0, "", cd(owned("xr1-bcdfg", "", nil), nil))},
				Refs:     []any{ref("ex.org/v1", "CD", "xr1-bcdfg")},
			},
		},
		"MD009NestedXR": {
			reason: "A nested XR passes on its root's prefix and claim labels.",
			args: args{
				xr: `
apiVersion: ex.org/v1
kind: XR
metadata: {name: child-abc, uid: u-1, labels: {crossplane.io/composite: parent-xyz, crossplane.io/claim-name: c1, crossplane.io/claim-namespace: ns1}}
`,
				comp: `
resources:
- name: my-res
  base: {apiVersion: ex.org/v1, kind: CD}
`,
			},
			want: view{
				Events: []render.Event{normal(`Composed resource "my-res" is not yet ready`)},
				Conditions: []any{
					cond("Synced", "True", "ReconcileSuccess", ""),
					cond("Ready", "False", "Creating", "Unready resources: my-res"),
				},
				Composed: []render.ComposedResource{
					created(0, "my-res", cd(owned("parent-xyz-bcdfg", "my-res", map[string]any{
						"generateName":    "parent-xyz-",
						"labels":          map[string]any{"crossplane.io/composite": "parent-xyz", "crossplane.io/claim-name": "c1", "crossplane.io/claim-namespace": "ns1"},
						"ownerReferences": []any{map[string]any{"apiVersion": "ex.org/v1", "kind": "XR", "name": "child-abc", "uid": "u-1", "controller": true, "blockOwnerDeletion": true}},
					}), nil)),
				},
				Refs: []any{ref("ex.org/v1", "CD", "parent-xyz-bcdfg")},
			},
		},
		"MD010PatchedName": {
			reason: "A patched name is kept; no name is generated, generateName is still set.",
			args: args{
				xr: xr1,
				comp: `
resources:
- name: my-res
  base: {apiVersion: ex.org/v1, kind: CD}
  patches: [{fromFieldPath: spec.str, toFieldPath: metadata.name}]
`,
				names: func(string) string {
					t.Errorf("MD010PatchedName: no name should be generated")
					return ""
				},
			},
			want: view{
				Events: []render.Event{normal(`Composed resource "my-res" is not yet ready`)},
				Conditions: []any{
					cond("Synced", "True", "ReconcileSuccess", ""),
					cond("Ready", "False", "Creating", "Unready resources: my-res"),
				},
				Composed: []render.ComposedResource{created(0, "my-res", cd(owned("hello", "my-res", nil), nil))},
				Refs:     []any{ref("ex.org/v1", "CD", "hello")},
			},
		},
		"PS005IndexAfterExpansion": {
			reason: "Patch indices in messages count the expanded patch list.",
			args: args{
				xr: xr1,
				comp: `
patchSets:
- name: ps
  patches:
  - {fromFieldPath: spec.str, toFieldPath: spec.a}
  - {fromFieldPath: spec.num, toFieldPath: spec.b}
resources:
- name: my-res
  base: {apiVersion: ex.org/v1, kind: CD}
  patches:
  - {type: PatchSet, patchSetName: ps}
  - {fromFieldPath: spec.nope, toFieldPath: spec.c, policy: {fromFieldPath: Required}}
`,
			},
			want: view{
				Events: []render.Event{
					warning(`cannot render FromComposite patches for composed resource "my-res": cannot apply the "FromCompositeFieldPath" patch at index 2: spec.nope: no such field`),
					normal(`Composed resource "my-res" is not yet valid`),
					normal(`Composed resource "my-res" is not yet ready`),
				},
				Conditions: []any{
					cond("Synced", "False", "ReconcileError", "Unsynced resources: my-res"),
					cond("Ready", "False", "Creating", "Unready resources: my-res"),
				},
				Composed: []render.ComposedResource{failed(0, "my-res")},
				Refs:     []any{ref("ex.org/v1", "CD", "xr1-bcdfg")},
			},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			names := tc.args.names
			if names == nil {
				names = sequence()
			}
			got := viewOf(Compose(object(t, tc.args.xr), composition(t, tc.args.comp), nil, Options{NameGenerator: names}))
			if diff := cmp.Diff(tc.want, got, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("\n%s\nCompose(...): -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}
