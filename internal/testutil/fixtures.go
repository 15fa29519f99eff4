package testutil

// The fixtures several packages' tests share: one legacy Composition with
// one bucket whose size is patched from its XR, the same Composition as
// function-patch-and-transform converts it, an XR for it, and a "billion
// laughs" Composition. Tests that need a variant write their own literal.

// ThingsXR is an XThing XR of size small, for ThingsLegacy and
// ThingsPipeline.
const ThingsXR = `apiVersion: example.org/v1
kind: XThing
metadata:
  name: demo
spec:
  size: small
`

// ThingsLegacy is a legacy (mode Resources) Composition for XThing: one
// bucket whose spec.forProvider.size is patched from the XR's spec.size.
const ThingsLegacy = `apiVersion: apiextensions.crossplane.io/v1
kind: Composition
metadata:
  name: things
spec:
  compositeTypeRef:
    apiVersion: example.org/v1
    kind: XThing
  resources:
  - name: bucket
    base:
      apiVersion: s3.example.org/v1
      kind: Bucket
      spec: {}
    patches:
    - fromFieldPath: spec.size
      toFieldPath: spec.forProvider.size
`

// ThingsPipeline is ThingsLegacy converted to mode Pipeline.
const ThingsPipeline = `apiVersion: apiextensions.crossplane.io/v1
kind: Composition
metadata:
  name: things
spec:
  compositeTypeRef:
    apiVersion: example.org/v1
    kind: XThing
  mode: Pipeline
  pipeline:
  - step: patch-and-transform
    functionRef:
      name: function-patch-and-transform
    input:
      apiVersion: pt.fn.crossplane.io/v1beta1
      kind: Resources
      resources:
      - name: bucket
        base:
          apiVersion: s3.example.org/v1
          kind: Bucket
          spec: {}
        patches:
        - type: FromCompositeFieldPath
          fromFieldPath: spec.size
          toFieldPath: spec.forProvider.size
`

// AliasBomb is a "billion laughs" Composition: nine levels of nine
// aliases, 387 million nodes once expanded; the alias that crosses an
// expansion budget is on line 15.
const AliasBomb = `apiVersion: apiextensions.crossplane.io/v1
kind: Composition
metadata:
  name: bomb
spec:
  compositeTypeRef:
    apiVersion: example.org/v1
    kind: XBomb
  a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]
  b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]
  c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]
  d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]
  e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]
  f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]
  g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]
  h: &h [*g,*g,*g,*g,*g,*g,*g,*g,*g]
  i: &i [*h,*h,*h,*h,*h,*h,*h,*h,*h]
  resources: []
`
