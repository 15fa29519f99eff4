package engine

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/xpmigrate/xpmigrate/internal/manifest"
	"github.com/xpmigrate/xpmigrate/render"
)

func obj(t *testing.T, y string) map[string]any {
	t.Helper()
	o, err := manifest.DecodeObject([]byte(y))
	if err != nil {
		t.Fatal(err)
	}
	return o
}

const (
	loopXR = `
apiVersion: example.org/v1
kind: XThing
metadata: {name: demo}
spec: {size: small}
`
	loopLegacy = `
apiVersion: apiextensions.crossplane.io/v1
kind: Composition
metadata: {name: things}
spec:
  compositeTypeRef: {apiVersion: example.org/v1, kind: XThing}
  resources:
  - name: bucket
    base: {apiVersion: s3.example.org/v1, kind: Bucket, spec: {forProvider: {}}}
    patches:
    - fromFieldPath: spec.size
      toFieldPath: spec.forProvider.size
    - type: ToCompositeFieldPath
      fromFieldPath: spec.forProvider.size
      toFieldPath: status.size
    readinessChecks:
    - type: None
`
	loopPipeline = `
apiVersion: apiextensions.crossplane.io/v1
kind: Composition
metadata: {name: things}
spec:
  compositeTypeRef: {apiVersion: example.org/v1, kind: XThing}
  mode: Pipeline
  pipeline:
  - step: patch-and-transform
    functionRef: {name: function-patch-and-transform}
    input:
      apiVersion: pt.fn.crossplane.io/v1beta1
      kind: Resources
      resources:
      - name: bucket
        base: {apiVersion: s3.example.org/v1, kind: Bucket, spec: {forProvider: {}}}
        patches:
        - {type: FromCompositeFieldPath, fromFieldPath: spec.size, toFieldPath: spec.forProvider.size}
        - {type: ToCompositeFieldPath, fromFieldPath: spec.forProvider.size, toFieldPath: status.size}
        readinessChecks:
        - type: None
`
)

// statusSize reads status.size from the printed XR.
func statusSize(o *render.Outcome) any {
	st, _ := o.XR["status"].(map[string]any)
	return st["size"]
}

func TestRenderLoops(t *testing.T) {
	type want struct {
		size   any
		loops  int
		stable bool
	}
	cases := map[string]struct {
		reason string
		comp   string
		opts   Options
		want   want
	}{
		"LegacyOneLoop": {
			reason: "native ToComposite patches read the object just applied, so one reconcile is enough",
			comp:   loopLegacy,
			opts:   Options{},
			want:   want{size: "small", loops: 1},
		},
		"PipelineOneLoop": {
			reason: "the function reads observed resources only, so a new resource yields nothing yet",
			comp:   loopPipeline,
			opts:   Options{},
			want:   want{size: nil, loops: 1},
		},
		"PipelineTwoLoops": {
			reason: "feeding the desired resource back as observed lets the ToComposite patch see it",
			comp:   loopPipeline,
			opts:   Options{Loops: 2},
			want:   want{size: "small", loops: 2},
		},
		"PipelineUntilStable": {
			reason: "until-stable stops at the first reconcile that changes nothing",
			comp:   loopPipeline,
			opts:   Options{UntilStable: true},
			want:   want{size: "small", loops: 3, stable: true},
		},
		"LegacyUntilStable": {
			reason: "a legacy render that is already stable stops after the second reconcile",
			comp:   loopLegacy,
			opts:   Options{UntilStable: true},
			want:   want{size: "small", loops: 2, stable: true},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			res, err := Render(context.Background(), Request{XR: obj(t, loopXR), Composition: obj(t, tc.comp)}, tc.opts)
			if err != nil {
				t.Fatalf("\n%s\nRender(...): %v", tc.reason, err)
			}
			got := want{size: statusSize(res.Outcome), loops: res.Loops, stable: res.Stable}
			if diff := cmp.Diff(tc.want, got, cmp.AllowUnexported(want{})); diff != "" {
				t.Errorf("\n%s\nRender(...): -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}

func TestXRFromClaim(t *testing.T) {
	xrd := obj(t, `
apiVersion: apiextensions.crossplane.io/v1
kind: CompositeResourceDefinition
metadata: {name: xthings.example.org}
spec:
  group: example.org
  names: {kind: XThing, plural: xthings}
  claimNames: {kind: Thing, plural: things}
  versions:
  - {name: v1alpha1, served: true, referenceable: false}
  - {name: v1, served: true, referenceable: true}
`)
	claim := obj(t, `
apiVersion: example.org/v1
kind: Thing
metadata: {name: mine, namespace: team-a}
spec:
  size: small
  compositionSelector: {matchLabels: {provider: aws}}
  writeConnectionSecretToRef: {name: conn}
`)
	if !isClaim(claim, xrd) {
		t.Fatal("isClaim(...): want true")
	}
	got, err := XRFromClaim(claim, xrd)
	if err != nil {
		t.Fatal(err)
	}
	name := render.GeneratedName("mine-", "", "team-a", "mine", 0)
	want := map[string]any{
		"apiVersion": "example.org/v1",
		"kind":       "XThing",
		"metadata": map[string]any{"name": name, "labels": map[string]any{
			"crossplane.io/claim-name": "mine", "crossplane.io/claim-namespace": "team-a", "crossplane.io/composite": name,
		}},
		"spec": map[string]any{
			"size":                "small",
			"compositionSelector": map[string]any{"matchLabels": map[string]any{"provider": "aws"}},
			"claimRef":            map[string]any{"apiVersion": "example.org/v1", "kind": "Thing", "name": "mine", "namespace": "team-a"},
		},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("XRFromClaim(...): -want, +got:\n%s", diff)
	}
}

func TestBuiltinFor(t *testing.T) {
	cases := map[string]struct {
		fn, pkg, want string
	}{
		"ByPackage":       {fn: "pt", pkg: "xpkg.upbound.io/crossplane-contrib/function-patch-and-transform:v0.10.8", want: BuiltinPatchAndTransform},
		"ByName":          {fn: "function-environment-configs", want: BuiltinEnvironmentConfigs},
		"NotBuiltIn":      {fn: "function-go-templating", pkg: "xpkg.upbound.io/crossplane-contrib/function-go-templating:v0.9.0", want: ""},
		"PackageWinsName": {fn: "function-patch-and-transform", pkg: "xpkg.upbound.io/crossplane-contrib/function-environment-configs:v0.6.0", want: BuiltinEnvironmentConfigs},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if got := builtinFor(tc.fn, tc.pkg); got != tc.want {
				t.Errorf("builtinFor(%q, %q): want %q, got %q", tc.fn, tc.pkg, tc.want, got)
			}
		})
	}
}
