package engine

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/xpmigrate/xpmigrate/internal/manifest"
	"github.com/xpmigrate/xpmigrate/render"
)

const (
	envXR = `
apiVersion: example.org/v1
kind: XThing
metadata: {name: demo}
`
	envLegacy = `
apiVersion: apiextensions.crossplane.io/v1
kind: Composition
metadata: {name: things}
spec:
  compositeTypeRef: {apiVersion: example.org/v1, kind: XThing}
  environment:
    environmentConfigs:
    - type: Selector
      selector:
        mode: Single
        matchLabels: [{key: env, type: Value, value: prod}]
  resources:
  - name: bucket
    base: {apiVersion: s3.example.org/v1, kind: Bucket, spec: {forProvider: {}}}
    patches:
    - {type: FromEnvironmentFieldPath, fromFieldPath: region, toFieldPath: spec.forProvider.region}
`
	envPipeline = `
apiVersion: apiextensions.crossplane.io/v1
kind: Composition
metadata: {name: things}
spec:
  compositeTypeRef: {apiVersion: example.org/v1, kind: XThing}
  mode: Pipeline
  pipeline:
  - step: environment-configs
    functionRef: {name: function-environment-configs}
    input:
      apiVersion: environmentconfigs.fn.crossplane.io/v1beta1
      kind: Input
      spec:
        environmentConfigs:
        - type: Selector
          selector:
            mode: Single
            matchLabels: [{key: env, type: Value, value: prod}]
  - step: patch-and-transform
    functionRef: {name: function-patch-and-transform}
    input:
      apiVersion: pt.fn.crossplane.io/v1beta1
      kind: Resources
      resources:
      - name: bucket
        base: {apiVersion: s3.example.org/v1, kind: Bucket, spec: {forProvider: {}}}
        patches:
        - {type: FromEnvironmentFieldPath, fromFieldPath: region, toFieldPath: spec.forProvider.region}
`
	envV1Alpha1 = `
apiVersion: apiextensions.crossplane.io/v1alpha1
kind: EnvironmentConfig
metadata: {name: prod, labels: {env: prod}}
data: {region: eu-west-1}
`
	envV1Beta1 = `
apiVersion: apiextensions.crossplane.io/v1beta1
kind: EnvironmentConfig
metadata: {name: prod, labels: {env: prod}}
data: {region: eu-west-1}
`
	envV1Beta1Other = `
apiVersion: apiextensions.crossplane.io/v1beta1
kind: EnvironmentConfig
metadata: {name: prod, labels: {env: prod}}
data: {region: us-east-1}
`
)

// TestEnvironmentConfigInSeveralVersions renders a Composition whose
// Single selector matches an EnvironmentConfig given in both served API
// versions, as `kubectl get` of each version prints it: the real engines
// see one object. Copies whose content differs are a conflict.
func TestEnvironmentConfigInSeveralVersions(t *testing.T) {
	type want struct {
		region any
		err    string
	}
	cases := map[string]struct {
		reason string
		comp   string
		extra  []string
		want   want
	}{
		"LegacyBothVersions": {
			reason: "The native environment sees one object, whatever the versions given.",
			comp:   envLegacy,
			extra:  []string{envV1Alpha1, envV1Beta1},
			want:   want{region: "eu-west-1"},
		},
		"PipelineBothVersions": {
			reason: "function-environment-configs gets one object for its Single selector, not two.",
			comp:   envPipeline,
			extra:  []string{envV1Alpha1, envV1Beta1},
			want:   want{region: "eu-west-1"},
		},
		"LegacyConflict": {
			reason: "Two objects of one name with different data cannot both be the cluster's: invalid input.",
			comp:   envLegacy,
			extra:  []string{envV1Alpha1, envV1Beta1Other},
			want:   want{err: `EnvironmentConfig "prod" is given twice with different content: extra resource 1 (apiextensions.crossplane.io/v1alpha1) and extra resource 2 (apiextensions.crossplane.io/v1beta1)`},
		},
		"PipelineConflict": {
			reason: "The pipeline side refuses the same conflict.",
			comp:   envPipeline,
			extra:  []string{envV1Alpha1, envV1Beta1Other},
			want:   want{err: `EnvironmentConfig "prod" is given twice with different content: extra resource 1 (apiextensions.crossplane.io/v1alpha1) and extra resource 2 (apiextensions.crossplane.io/v1beta1)`},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			req := Request{XR: obj(t, envXR), Composition: obj(t, tc.comp)}
			for _, e := range tc.extra {
				req.Extra = append(req.Extra, obj(t, e))
			}
			res, err := Render(context.Background(), req, Options{})
			got := want{}
			if err != nil {
				var ie *render.InputError
				if !errors.As(err, &ie) {
					t.Errorf("\n%s\nRender(...): want an InputError, got %T", tc.reason, err)
				}
				got.err = strings.SplitN(err.Error(), " (the same object", 2)[0]
			} else {
				for _, cd := range res.Outcome.Composed {
					got.region = valueAt(cd.Desired, "spec", "forProvider", "region")
				}
			}
			if diff := cmp.Diff(tc.want, got, cmp.AllowUnexported(want{})); diff != "" {
				t.Errorf("\n%s\nRender(...): -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}

// TestDistinctExtra checks that the extra resources read from files keep
// one copy of an EnvironmentConfig given in several versions, and that a
// conflict names both files and documents.
func TestDistinctExtra(t *testing.T) {
	load := func(t *testing.T, source, y string) []manifest.Document {
		t.Helper()
		docs, err := manifest.LoadStream(strings.NewReader(y), source)
		if err != nil {
			t.Fatal(err)
		}
		return docs
	}
	secret := "apiVersion: v1\nkind: Secret\nmetadata: {name: s, namespace: ns}\n"
	cases := map[string]struct {
		reason string
		docs   func(t *testing.T) []manifest.Document
		want   []string
		err    string
	}{
		"CopiesKeepTheFirst": {
			reason: "The v1beta1 copy of the v1alpha1 object is dropped; other objects stay in order.",
			docs: func(t *testing.T) []manifest.Document {
				return append(load(t, "a.yaml", envV1Alpha1+"---\n"+secret), load(t, "b.yaml", envV1Beta1)...)
			},
			want: []string{"apiextensions.crossplane.io/v1alpha1 EnvironmentConfig prod", "v1 Secret s"},
		},
		"ConflictNamesFilesAndDocuments": {
			reason: "A conflict names each copy's file and document.",
			docs: func(t *testing.T) []manifest.Document {
				return append(load(t, "a.yaml", envV1Alpha1), load(t, "b.yaml", secret+"---\n"+envV1Beta1Other)...)
			},
			err: `EnvironmentConfig "prod" is given twice with different content: a.yaml document 1 and b.yaml document 2`,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			objs, err := DistinctExtra(tc.docs(t))
			gotErr := ""
			if err != nil {
				gotErr = strings.SplitN(err.Error(), " (the same object", 2)[0]
			}
			if diff := cmp.Diff(tc.err, gotErr); diff != "" {
				t.Errorf("\n%s\nDistinctExtra(...): -want error, +got error:\n%s", tc.reason, diff)
			}
			var got []string
			for _, o := range objs {
				got = append(got, strings.Join([]string{stringOf(o["apiVersion"]), stringOf(o["kind"]), stringOf(valueAt(o, "metadata", "name"))}, " "))
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("\n%s\nDistinctExtra(...): -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}

func stringOf(v any) string {
	s, _ := v.(string)
	return s
}

func valueAt(o map[string]any, path ...string) any {
	var cur any = o
	for _, p := range path {
		m, ok := cur.(map[string]any)
		if !ok {
			return nil
		}
		cur = m[p]
	}
	return cur
}
