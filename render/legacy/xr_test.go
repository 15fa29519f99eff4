package legacy

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/xpmigrate/xpmigrate/patchandtransform/native"
	"github.com/xpmigrate/xpmigrate/render"
)

// TestNameList covers FL-009 and FL-010 (docs/semantics/legacy.md#xr-conditions, Q-36).
func TestNameList(t *testing.T) {
	cases := map[string]struct {
		reason string
		names  []string
		want   string
	}{
		"One":   {reason: "One name is shown as is.", names: []string{"a"}, want: "a"},
		"Two":   {reason: "Two names are joined by a comma.", names: []string{"b", "a"}, want: "a, b"},
		"FL010": {reason: "Three names end with 'and'.", names: []string{"a", "b", "c"}, want: "a, b, and c"},
		"FL009": {
			reason: "Names sort as strings and at most three are shown.",
			names:  []string{"resource 10", "resource 2", "resource 3", "resource 4"},
			want:   "resource 10, resource 2, resource 3, and 1 more",
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, nameList(tc.names)); diff != "" {
				t.Errorf("\n%s\nnameList(...): -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}

// TestComposeConnectionDetails covers FL-017, FL-018 and CD-016: the XR's
// connection secret reference, the XRD's key filter, and template order.
func TestComposeConnectionDetails(t *testing.T) {
	type want struct {
		secretRef any
		details   map[string][]byte
		secret    map[string]any
		xrStatus  any
		events    []render.Event
	}
	cases := map[string]struct {
		reason string
		comp   string
		opts   Options
		want   want
	}{
		"FL017WriteConnectionSecretsToNamespace": {
			reason: "The XR gets a secret reference named after its uid; the Secret is owned by the XR.",
			comp: `
writeConnectionSecretsToNamespace: crossplane-system
resources:
- name: A
  base: {apiVersion: ex.org/v1, kind: CD}
  readinessChecks: [{type: None}]
  connectionDetails: [{name: host, value: h}]
`,
			want: want{
				secretRef: map[string]any{"name": "u-1", "namespace": "crossplane-system"},
				details:   map[string][]byte{"host": []byte("h")},
				secret: map[string]any{
					"apiVersion": "v1",
					"kind":       "Secret",
					"metadata": map[string]any{
						"name":      "u-1",
						"namespace": "crossplane-system",
						"ownerReferences": []any{map[string]any{
							"apiVersion": "ex.org/v1", "kind": "XR", "name": "xr1", "uid": "u-1", "controller": true, "blockOwnerDeletion": true,
						}},
					},
					"type": "connection.crossplane.io/v1alpha1",
					"data": map[string]any{"host": "aA=="},
				},
				xrStatus: map[string]any{"lastPublishedTime": LastTransitionTime},
				events:   []render.Event{{Type: render.EventNormal, Reason: "PublishConnectionSecret", Message: "Successfully published connection details"}},
			},
		},
		"FL018ConnectionSecretKeys": {
			reason: "Only the keys the XRD lists are published.",
			comp: `
resources:
- name: A
  base: {apiVersion: ex.org/v1, kind: CD}
  readinessChecks: [{type: None}]
  connectionDetails: [{name: host, value: h}, {name: password, value: p}]
`,
			opts: Options{ConnectionSecretKeys: []string{"host"}},
			want: want{
				details: map[string][]byte{"host": []byte("h")},
			},
		},
		"CD016LaterTemplateWins": {
			reason: "A later template's key overwrites an earlier one's.",
			comp: `
resources:
- {name: A, base: {apiVersion: ex.org/v1, kind: CD}, readinessChecks: [{type: None}], connectionDetails: [{name: host, value: a}]}
- {name: B, base: {apiVersion: ex.org/v1, kind: CD}, readinessChecks: [{type: None}], connectionDetails: [{name: host, value: b}]}
`,
			want: want{
				details: map[string][]byte{"host": []byte("b")},
			},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			out, err := Compose(object(t, xr1), composition(t, tc.comp), nil, tc.opts)
			if err != nil {
				t.Fatalf("\n%s\nCompose(...): %v", tc.reason, err)
			}
			got := want{
				secretRef: dig(out.EffectiveXR, "spec", "writeConnectionSecretToRef"),
				details:   out.ConnectionDetails,
				secret:    ConnectionSecret(out.EffectiveXR, out.ConnectionDetails),
				xrStatus:  dig(out.EffectiveXR, "status", "connectionDetails"),
				events:    out.Events,
			}
			if diff := cmp.Diff(tc.want, got, cmp.AllowUnexported(want{}), cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("\n%s\nCompose(...): -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}

// TestComposeXR checks what reaches the XR: the printed XR and the XR as
// persisted, including environment patches (EV-016…EV-018, Q-4).
func TestComposeXR(t *testing.T) {
	type want struct {
		printed   map[string]any
		effective map[string]any
	}
	ready := []any{
		cond("Synced", "True", "ReconcileSuccess", ""),
		cond("Ready", "True", "Available", ""),
	}
	cases := map[string]struct {
		reason string
		xr     string
		comp   string
		want   want
	}{
		"ToCompositePatches": {
			reason: "ToComposite patches read the post-apply object; spec and status writes are persisted and printed, bookkeeping only persisted.",
			xr: `
apiVersion: ex.org/v1
kind: XR
metadata: {name: xr1, uid: u-1}
spec: {str: hello}
`,
			comp: `
resources:
- name: A
  base: {apiVersion: ex.org/v1, kind: CD, spec: {size: 3}}
  readinessChecks: [{type: None}]
  patches:
  - {fromFieldPath: spec.str, toFieldPath: spec.s}
  - {type: ToCompositeFieldPath, fromFieldPath: spec.s, toFieldPath: spec.echo}
  - {type: ToCompositeFieldPath, fromFieldPath: spec.size, toFieldPath: status.size}
  - {type: ToCompositeFieldPath, fromFieldPath: metadata.name, toFieldPath: "metadata.annotations[cd-name]"}
`,
			want: want{
				printed: map[string]any{
					"apiVersion": "ex.org/v1",
					"kind":       "XR",
					"metadata":   map[string]any{"name": "xr1", "annotations": map[string]any{"cd-name": "xr1-bcdfg"}},
					"spec":       map[string]any{"echo": "hello"},
					"status":     map[string]any{"size": int64(3), "conditions": ready},
				},
				effective: map[string]any{
					"apiVersion": "ex.org/v1",
					"kind":       "XR",
					"metadata": map[string]any{
						"name": "xr1", "uid": "u-1",
						"labels":      map[string]any{"crossplane.io/composite": "xr1"},
						"annotations": map[string]any{"cd-name": "xr1-bcdfg"},
					},
					"spec": map[string]any{
						"str": "hello", "echo": "hello",
						"resourceRefs": []any{ref("ex.org/v1", "CD", "xr1-bcdfg")},
					},
					"status": map[string]any{"size": int64(3), "conditions": ready},
				},
			},
		},
		"EnvironmentPatchesToXR": {
			reason: "Environment patches write the XR in memory: spec and metadata persist, status is lost at the references update (EV-016…EV-018, Q-4).",
			xr:     xr1,
			comp: `
environment:
  defaultData: {num: 3, str: s}
  patches:
  - {type: FromCompositeFieldPath, fromFieldPath: spec.num, toFieldPath: xrnum}
  - {type: ToCompositeFieldPath, fromFieldPath: num, toFieldPath: status.envnum}
  - {type: ToCompositeFieldPath, fromFieldPath: str, toFieldPath: "metadata.annotations[from-env]"}
  - {type: ToCompositeFieldPath, fromFieldPath: xrnum, toFieldPath: spec.fromenv}
resources:
- name: A
  base: {apiVersion: ex.org/v1, kind: CD}
  readinessChecks: [{type: None}]
  patches:
  - {fromFieldPath: status.envnum, toFieldPath: spec.envnum}
  - {type: FromEnvironmentFieldPath, fromFieldPath: xrnum, toFieldPath: spec.xrnum}
`,
			want: want{
				printed: map[string]any{
					"apiVersion": "ex.org/v1",
					"kind":       "XR",
					"metadata":   map[string]any{"name": "xr1", "annotations": map[string]any{"from-env": "s"}},
					"spec":       map[string]any{"fromenv": int64(3)},
					"status":     map[string]any{"conditions": ready},
				},
				effective: map[string]any{
					"apiVersion": "ex.org/v1",
					"kind":       "XR",
					"metadata": map[string]any{
						"name": "xr1", "uid": "u-1",
						"labels":      map[string]any{"crossplane.io/composite": "xr1"},
						"annotations": map[string]any{"from-env": "s"},
					},
					"spec": map[string]any{
						"str": "hello", "num": int64(3), "fromenv": int64(3),
						"resourceRefs": []any{ref("ex.org/v1", "CD", "xr1-bcdfg")},
					},
					"status": map[string]any{"conditions": ready},
				},
			},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			out, err := Compose(object(t, tc.xr), composition(t, tc.comp), nil, Options{NameGenerator: sequence()})
			if err != nil {
				t.Fatalf("\n%s\nCompose(...): %v", tc.reason, err)
			}
			got := want{printed: out.XR, effective: out.EffectiveXR}
			if diff := cmp.Diff(tc.want, got, cmp.AllowUnexported(want{})); diff != "" {
				t.Errorf("\n%s\nCompose(...): -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}

// TestComposeEnvironmentStatusVisibleToFromPhase checks the other half of
// a status write by an environment patch is visible to the templates'
// From patches of the same reconcile.
func TestComposeEnvironmentStatusVisibleToFromPhase(t *testing.T) {
	c := composition(t, `
environment:
  defaultData: {num: 3}
  patches: [{type: ToCompositeFieldPath, fromFieldPath: num, toFieldPath: status.envnum}]
resources:
- name: A
  base: {apiVersion: ex.org/v1, kind: CD}
  patches: [{fromFieldPath: status.envnum, toFieldPath: spec.envnum}]
`)
	out, err := Compose(object(t, xr1), c, nil, Options{})
	if err != nil {
		t.Fatalf("Compose(...): %v", err)
	}
	if diff := cmp.Diff(int64(3), dig(out.Composed[0].Desired, "spec", "envnum")); diff != "" {
		t.Errorf("Compose(...): -want, +got:\n%s", diff)
	}
}

// TestComposeTarget checks the texts that differ between v1.17 and v1.20
// (docs/semantics/legacy.md#target-releases).
func TestComposeTarget(t *testing.T) {
	const comp = `
resources:
- name: A
  base: {apiVersion: ex.org/v1, kind: CD}
  readinessChecks: [{type: None}]
  patches: [{fromFieldPath: spec.nope, toFieldPath: spec.x, policy: {fromFieldPath: Required}}]
`
	cases := map[string]struct {
		reason string
		target native.Target
		want   view
	}{
		"V120": {
			reason: "v1.20 texts are the default.",
			want: view{
				Events: []render.Event{
					warning(`cannot render FromComposite patches for composed resource "A": cannot apply the "FromCompositeFieldPath" patch at index 0: spec.nope: no such field`),
					normal(`Composed resource "A" is not yet valid`),
					normal(`Composed resource "A" is not yet ready`),
				},
				Conditions: []any{
					cond("Synced", "False", "ReconcileError", "Unsynced resources: A"),
					cond("Ready", "False", "Creating", "Unready resources: A"),
				},
				Composed: []render.ComposedResource{failed(0, "A")},
				Refs:     []any{ref("ex.org/v1", "CD", "xr1-bcdfg")},
			},
		},
		"V117": {
			reason: "v1.17 mentions environment patches and says Invalid.",
			target: TargetV117,
			want: view{
				Events: []render.Event{
					warning(`cannot render FromComposite or environment patches for composed resource "A": cannot apply the "FromCompositeFieldPath" patch at index 0: spec.nope: no such field`),
					normal(`Composed resource "A" is not yet valid`),
					normal(`Composed resource "A" is not yet ready`),
				},
				Conditions: []any{
					cond("Synced", "False", "ReconcileError", "Invalid resources: A"),
					cond("Ready", "False", "Creating", "Unready resources: A"),
				},
				Composed: []render.ComposedResource{failed(0, "A")},
				Refs:     []any{ref("ex.org/v1", "CD", "xr1-bcdfg")},
			},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got := viewOf(Compose(object(t, xr1), composition(t, comp), nil, Options{Target: tc.target, NameGenerator: sequence()}))
			if diff := cmp.Diff(tc.want, got, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("\n%s\nCompose(...): -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}

// TestComposeRefused covers reconciles that stop before composing, or at
// association.
func TestComposeRefused(t *testing.T) {
	type args struct {
		xr       string
		comp     string
		observed string
		opts     Options
	}
	cases := map[string]struct {
		reason string
		args   args
		want   view
	}{
		"InvalidComposition": {
			reason: "A Composition that fails logical validation is refused.",
			args: args{xr: xr1, comp: `
resources:
- {name: a, base: {apiVersion: ex.org/v1, kind: CD}}
- {name: a, base: {apiVersion: ex.org/v1, kind: CD}}
`},
			want: view{
				Err:        `refusing to use invalid Composition: spec.resources[1].name: Duplicate value: "a"`,
				Events:     []render.Event{warning(`refusing to use invalid Composition: spec.resources[1].name: Duplicate value: "a"`)},
				Conditions: []any{cond("Synced", "False", "ReconcileError", `refusing to use invalid Composition: spec.resources[1].name: Duplicate value: "a"`)},
			},
		},
		"EnvironmentPatchTypeOnV120": {
			reason: "v1.20 without the environment refuses environment patch types.",
			args: args{xr: xr1, opts: Options{EnvironmentEnabled: ptrTo(false)}, comp: `
resources:
- name: a
  base: {apiVersion: ex.org/v1, kind: CD}
  patches: [{type: FromEnvironmentFieldPath, fromFieldPath: x}]
`},
			want: view{
				Err:        `refusing to use invalid Composition: spec.resources[0].patches[0].type: Invalid value: "FromEnvironmentFieldPath": unknown patch type`,
				Events:     []render.Event{warning(`refusing to use invalid Composition: spec.resources[0].patches[0].type: Invalid value: "FromEnvironmentFieldPath": unknown patch type`)},
				Conditions: []any{cond("Synced", "False", "ReconcileError", `refusing to use invalid Composition: spec.resources[0].patches[0].type: Invalid value: "FromEnvironmentFieldPath": unknown patch type`)},
			},
		},
		"IncompatibleXR": {
			reason: "An XR of another type than compositeTypeRef cannot be configured.",
			args: args{
				xr: `
apiVersion: ex.org/v1
kind: Other
metadata: {name: xr1, uid: u-1}
`,
				comp: `resources: [{name: a, base: {apiVersion: ex.org/v1, kind: CD}}]`,
			},
			want: view{
				Err:        "cannot configure composite resource: referenced composition is not compatible with this composite resource",
				Events:     []render.Event{warning("cannot configure composite resource: referenced composition is not compatible with this composite resource")},
				Conditions: []any{cond("Synced", "False", "ReconcileError", "cannot configure composite resource: referenced composition is not compatible with this composite resource")},
			},
		},
		"GarbageCollectionRefused": {
			reason: "An orphan of a named template that someone else controls is not deleted; the reconcile fails.",
			args: args{
				xr: `
apiVersion: ex.org/v1
kind: XR
metadata: {name: xr1, uid: u-1, labels: {crossplane.io/composite: xr1}}
spec: {resourceRefs: [{apiVersion: ex.org/v1, kind: CD, name: gone}]}
`,
				comp: `resources: [{name: a, base: {apiVersion: ex.org/v1, kind: CD}}]`,
				observed: `
apiVersion: ex.org/v1
kind: CD
metadata:
  name: gone
  annotations: {crossplane.io/composition-resource-name: old}
  ownerReferences: [{apiVersion: x.org/v1, kind: Other, name: o, uid: u-2, controller: true}]
`,
			},
			want: view{
				Err:        `cannot compose resources: cannot associate composed resources with Composition resource templates: refusing to delete composed resource "old" that is controlled by Other "o"`,
				Events:     []render.Event{warning(`cannot compose resources: cannot associate composed resources with Composition resource templates: refusing to delete composed resource "old" that is controlled by Other "o"`)},
				Conditions: []any{cond("Synced", "False", "ReconcileError", `cannot compose resources: cannot associate composed resources with Composition resource templates: refusing to delete composed resource "old" that is controlled by Other "o"`)},
				Refs:       []any{ref("ex.org/v1", "CD", "gone")},
			},
		},
		"PatchSetInPatchSet": {
			reason: "A PatchSet patch inside a PatchSet breaks every reconcile, even unused (PS-001); validation refuses it first.",
			args: args{xr: xr1, comp: `
patchSets: [{name: a, patches: [{type: PatchSet, patchSetName: b}]}]
resources: [{name: a, base: {apiVersion: ex.org/v1, kind: CD}}]
`},
			want: view{
				Err:        `refusing to use invalid Composition: spec.patchSets[0].patches[0].type: Invalid value: "PatchSet": cannot use patches within patches`,
				Events:     []render.Event{warning(`refusing to use invalid Composition: spec.patchSets[0].patches[0].type: Invalid value: "PatchSet": cannot use patches within patches`)},
				Conditions: []any{cond("Synced", "False", "ReconcileError", `refusing to use invalid Composition: spec.patchSets[0].patches[0].type: Invalid value: "PatchSet": cannot use patches within patches`)},
			},
		},
		"Paused": {
			reason: "A paused XR is only marked paused.",
			args: args{
				xr: `
apiVersion: ex.org/v1
kind: XR
metadata: {name: xr1, uid: u-1, annotations: {crossplane.io/paused: "true"}}
`,
				comp: `resources: [{name: a, base: {apiVersion: ex.org/v1, kind: CD}}]`,
			},
			want: view{
				Events:     []render.Event{{Type: render.EventNormal, Reason: "ReconciliationPaused", Message: "Reconciliation is paused via the pause annotation"}},
				Conditions: []any{cond("Synced", "False", "ReconcilePaused", "Reconciliation (including deletion) is paused via the pause annotation")},
			},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got := viewOf(Compose(object(t, tc.args.xr), composition(t, tc.args.comp), objects(t, tc.args.observed), tc.args.opts))
			if diff := cmp.Diff(tc.want, got, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("\n%s\nCompose(...): -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}

// TestComposeBadInput covers inputs that cannot be composed at all: no
// Outcome, only an error.
func TestComposeBadInput(t *testing.T) {
	cases := map[string]struct {
		reason string
		xr     string
		comp   string
		opts   Options
	}{
		"UnknownTarget": {
			reason: "Only v1.17 and v1.20 texts are known.",
			xr:     xr1,
			comp:   `resources: [{name: A, base: {apiVersion: ex.org/v1, kind: CD}}]`,
			opts:   Options{Target: "v1.14"},
		},
		"PipelineComposition": {
			reason: "Pipeline Compositions are not this engine's.",
			xr:     xr1,
			comp:   "mode: Pipeline\npipeline: [{step: a, functionRef: {name: f}}]",
		},
		"XRWithoutName": {
			reason: "An XR needs apiVersion, kind and a name.",
			xr:     "{apiVersion: ex.org/v1, kind: XR}",
			comp:   `resources: [{name: A, base: {apiVersion: ex.org/v1, kind: CD}}]`,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			out, err := Compose(object(t, tc.xr), composition(t, tc.comp), nil, tc.opts)
			if out != nil || err == nil {
				t.Errorf("\n%s\nCompose(...): want no Outcome and an error, got %v and %v", tc.reason, out != nil, err)
			}
		})
	}
}
