package engine

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const nullsXRD = `
apiVersion: apiextensions.crossplane.io/v1
kind: CompositeResourceDefinition
metadata: {name: xthings.example.org}
spec:
  group: example.org
  names: {kind: XThing, plural: xthings}
  claimNames: {kind: Thing, plural: things}
  versions:
  - name: v1
    served: true
    referenceable: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              domain: {type: string, nullable: true}
              size: {type: string}
              sized: {type: string, default: small}
              tags:
                type: object
                additionalProperties: {type: string, nullable: true}
              strict:
                type: object
                additionalProperties: {type: string}
              list:
                type: array
                items:
                  type: object
                  properties:
                    a: {type: string}
                    b: {type: string, nullable: true}
              free:
                type: object
                x-kubernetes-preserve-unknown-fields: true
                properties:
                  known: {type: string}
`

// TestPruneXR checks that an XR is read as an API server stores it: nulls
// are dropped from fields the XRD schema does not mark nullable, and kept
// where it does, and under fields the schema leaves unknown
// (x-kubernetes-preserve-unknown-fields). Without a schema for the XR every
// null is dropped.
func TestPruneXR(t *testing.T) {
	cases := map[string]struct {
		reason string
		xr     string
		xrd    string
		want   string
		schema bool
	}{
		"NoXRD": {
			reason: "Without an XRD every null is treated as absent.",
			xr:     `{apiVersion: example.org/v1, kind: XThing, metadata: {name: x}, spec: {domain: null, size: null, list: [{a: null, b: null}]}}`,
			want:   `{apiVersion: example.org/v1, kind: XThing, metadata: {name: x}, spec: {list: [{}]}}`,
		},
		"Nullable": {
			reason: "A null survives where the schema says nullable: true, and only there.",
			xr:     `{apiVersion: example.org/v1, kind: XThing, metadata: {name: x}, spec: {domain: null, size: null, sized: null}}`,
			xrd:    nullsXRD,
			want:   `{apiVersion: example.org/v1, kind: XThing, metadata: {name: x}, spec: {domain: null}}`,
			schema: true,
		},
		"AdditionalProperties": {
			reason: "Map values follow additionalProperties' nullable.",
			xr:     `{apiVersion: example.org/v1, kind: XThing, metadata: {name: x}, spec: {tags: {a: null, b: x}, strict: {a: null, b: x}}}`,
			xrd:    nullsXRD,
			want:   `{apiVersion: example.org/v1, kind: XThing, metadata: {name: x}, spec: {tags: {a: null, b: x}, strict: {b: x}}}`,
			schema: true,
		},
		"ListItems": {
			reason: "Objects in a list follow the items schema; null items are left to validation.",
			xr:     `{apiVersion: example.org/v1, kind: XThing, metadata: {name: x}, spec: {list: [{a: null, b: null}, null]}}`,
			xrd:    nullsXRD,
			want:   `{apiVersion: example.org/v1, kind: XThing, metadata: {name: x}, spec: {list: [{b: null}, null]}}`,
			schema: true,
		},
		"PreserveUnknownFields": {
			reason: "Unknown fields of an x-kubernetes-preserve-unknown-fields object keep their nulls, at any depth; its known fields do not.",
			xr:     `{apiVersion: example.org/v1, kind: XThing, metadata: {name: x}, spec: {free: {known: null, other: null, deep: {n: null}}}}`,
			xrd:    nullsXRD,
			want:   `{apiVersion: example.org/v1, kind: XThing, metadata: {name: x}, spec: {free: {other: null, deep: {n: null}}}}`,
			schema: true,
		},
		"CrossplaneFieldsAndMetadata": {
			reason: "Crossplane's own spec fields are not nullable; metadata nulls are dropped.",
			xr:     `{apiVersion: example.org/v1, kind: XThing, metadata: {name: x, labels: null}, spec: {compositionRef: null, writeConnectionSecretToRef: null}}`,
			xrd:    nullsXRD,
			want:   `{apiVersion: example.org/v1, kind: XThing, metadata: {name: x}, spec: {}}`,
			schema: true,
		},
		"Claim": {
			reason: "A claim is read with the same version's schema.",
			xr:     `{apiVersion: example.org/v1, kind: Thing, metadata: {name: c, namespace: ns}, spec: {domain: null, size: null}}`,
			xrd:    nullsXRD,
			want:   `{apiVersion: example.org/v1, kind: Thing, metadata: {name: c, namespace: ns}, spec: {domain: null}}`,
			schema: true,
		},
		"UnservedVersion": {
			reason: "An XR of a version the XRD does not define is read without a schema.",
			xr:     `{apiVersion: example.org/v2, kind: XThing, metadata: {name: x}, spec: {domain: null}}`,
			xrd:    nullsXRD,
			want:   `{apiVersion: example.org/v2, kind: XThing, metadata: {name: x}, spec: {}}`,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			var xrd map[string]any
			if tc.xrd != "" {
				xrd = obj(t, tc.xrd)
			}
			got, schema := PruneXR(obj(t, tc.xr), xrd)
			if diff := cmp.Diff(obj(t, tc.want), got); diff != "" {
				t.Errorf("\n%s\nPruneXR(...): -want, +got:\n%s", tc.reason, diff)
			}
			if schema != tc.schema {
				t.Errorf("\n%s\nPruneXR(...): schema used: want %t, got %t", tc.reason, tc.schema, schema)
			}
		})
	}
}

// TestRenderNullXRField renders a Composition that formats an XR field
// which is null, legacy and pipeline: with an XRD that marks it nullable
// both engines read the null (and format it as Go does), without one both
// read it as absent.
func TestRenderNullXRField(t *testing.T) {
	legacyComp := `
apiVersion: apiextensions.crossplane.io/v1
kind: Composition
metadata: {name: things}
spec:
  compositeTypeRef: {apiVersion: example.org/v1, kind: XThing}
  resources:
  - name: bucket
    base: {apiVersion: s3.example.org/v1, kind: Bucket, spec: {forProvider: {}}}
    patches:
    - fromFieldPath: spec.domain
      toFieldPath: spec.forProvider.host
      transforms: [{type: string, string: {type: Format, fmt: "www.%s"}}]
`
	pipelineComp := `
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
        - type: FromCompositeFieldPath
          fromFieldPath: spec.domain
          toFieldPath: spec.forProvider.host
          transforms: [{type: string, string: {type: Format, fmt: "www.%s"}}]
`
	xr := `{apiVersion: example.org/v1, kind: XThing, metadata: {name: x}, spec: {domain: null}}`
	cases := map[string]struct {
		reason string
		comp   string
		xrd    bool
		want   any
	}{
		"LegacyNullable":   {reason: "legacy formats the null the schema keeps", comp: legacyComp, xrd: true, want: "www.%!s(<nil>)"},
		"PipelineNullable": {reason: "the pipeline formats the same null", comp: pipelineComp, xrd: true, want: "www.%!s(<nil>)"},
		"LegacyNoSchema":   {reason: "without an XRD the null is absent, and the patch does nothing", comp: legacyComp},
		"PipelineNoSchema": {reason: "without an XRD the pipeline reads it as absent too", comp: pipelineComp},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			req := Request{XR: obj(t, xr), Composition: obj(t, tc.comp)}
			if tc.xrd {
				req.XRD = obj(t, nullsXRD)
			}
			res, err := Render(context.Background(), req, Options{})
			if err != nil {
				t.Fatalf("\n%s\nRender(...): %v", tc.reason, err)
			}
			var got any
			for _, cd := range res.Outcome.Composed {
				got = valueAt(cd.Desired, "spec", "forProvider", "host")
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("\n%s\nRender(...): -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}
