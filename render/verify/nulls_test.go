package verify

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const (
	nullsLegacy = `
apiVersion: apiextensions.crossplane.io/v1
kind: Composition
metadata: {name: sites}
spec:
  compositeTypeRef: {apiVersion: example.org/v1, kind: XSite}
  resources:
  - name: dns
    base: {apiVersion: dns.example.org/v1, kind: Record, spec: {forProvider: {}}}
    patches:
    - fromFieldPath: spec.domain
      toFieldPath: spec.forProvider.host
      transforms: [{type: string, string: {type: Format, fmt: "www.%s"}}]
`
	// nullsDropped is nullsLegacy converted without its patch.
	nullsDropped = `
apiVersion: apiextensions.crossplane.io/v1
kind: Composition
metadata: {name: sites}
spec:
  compositeTypeRef: {apiVersion: example.org/v1, kind: XSite}
  mode: Pipeline
  pipeline:
  - step: patch-and-transform
    functionRef: {name: function-patch-and-transform}
    input:
      apiVersion: pt.fn.crossplane.io/v1beta1
      kind: Resources
      resources:
      - name: dns
        base: {apiVersion: dns.example.org/v1, kind: Record, spec: {forProvider: {}}}
`
	nullsXR = `
apiVersion: example.org/v1
kind: XSite
metadata: {name: site, uid: 00000000-0000-4000-8000-000000000001}
spec: {domain: null}
`
	nullsXRDTemplate = `
apiVersion: apiextensions.crossplane.io/v1
kind: CompositeResourceDefinition
metadata: {name: xsites.example.org}
spec:
  group: example.org
  names: {kind: XSite, plural: xsites}
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
              domain: {type: string, nullable: NULLABLE}
`
)

// TestNullXRFields checks that both engines read a sample XR's null field
// as an API server stores it: kept where the XRD's schema says nullable
// (so legacy formats it, "%!s(<nil>)", and so does the pipeline), dropped
// where it does not, and dropped without an XRD, which the report states
// as an assumption. One reconcile is compared.
//
// A kept null is a real difference of the engines' XR bookkeeping: legacy
// persists the XR with a JSON merge patch of the whole object, whose null
// deletes the field (RFC 7386), while the pipeline's server-side apply
// leaves it. The stored XRs differ (xr spec.domain), and the next
// reconcile's legacy patch reads nothing. It has no D-code yet, so it shows
// as unexplained here.
func TestNullXRFields(t *testing.T) {
	xrd := func(nullable bool) map[string]any {
		s := "false"
		if nullable {
			s = "true"
		}
		return objects(t, strings.Replace(nullsXRDTemplate, "NULLABLE", s, 1))[0]
	}
	noXRD := "no XRD given: null XR fields treated as absent (as an API server prunes them when the schema is not nullable)"
	type want struct {
		diffs       []string
		assumptions []string
	}
	cases := map[string]struct {
		reason    string
		converted string
		xrd       map[string]any
		want      want
	}{
		"NullableBothSidesFormatNull": {
			reason: "With a nullable schema both engines get the null and format it alike (the composed resources are equal); legacy's merge patch then deletes it from the stored XR.",
			xrd:    xrd(true),
			want:   want{diffs: []string{"xr spec.domain: D50"}},
		},
		"NullableDroppedPatchIsCaught": {
			reason:    "With a nullable schema the null reaches the engines: a conversion that lost the patch reading it differs.",
			converted: nullsDropped,
			xrd:       xrd(true),
			want:      want{diffs: []string{"resource dns spec.forProvider.host: UNEXPLAINED", "xr spec.domain: D50"}},
		},
		"NotNullableIsAbsent": {
			reason:    "With a schema that is not nullable the API server drops the null: the patch reads nothing, on both sides.",
			converted: nullsDropped,
			xrd:       xrd(false),
		},
		"NoXRDAssumesAbsent": {
			reason:    "Without an XRD the null is treated as absent, and the report says so.",
			converted: nullsDropped,
			want:      want{assumptions: []string{noXRD}},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			r := verifyYAML(t, nullsLegacy, tc.converted, nullsXR, Options{Convert: referenceConvert, XRD: tc.xrd, Loops: 1})
			got := want{diffs: summary(r), assumptions: r.Assumptions}
			if diff := cmp.Diff(tc.want, got, cmp.AllowUnexported(want{})); diff != "" {
				dump(t, r)
				t.Errorf("%s\nVerify(...): -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}

// TestNullXRFieldsAssumptionOnlyWhenNull checks the assumption is stated
// only when a sample holds a null it applies to.
func TestNullXRFieldsAssumptionOnlyWhenNull(t *testing.T) {
	r := verifyYAML(t, nullsLegacy, "", strings.Replace(nullsXR, "domain: null", "domain: example.org", 1), Options{Convert: referenceConvert})
	if diff := cmp.Diff([]string(nil), r.Assumptions); diff != "" {
		t.Errorf("Verify(...).Assumptions: -want, +got:\n%s", diff)
	}
}
