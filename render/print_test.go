package render

import (
	"bytes"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestPrint(t *testing.T) {
	bucket := map[string]any{
		"apiVersion": "s3.aws.upbound.io/v1beta1",
		"kind":       "Bucket",
		"metadata": map[string]any{
			"annotations":  map[string]any{AnnotationCompositionResourceName: "bucket"},
			"generateName": "demo-",
			"labels":       map[string]any{"crossplane.io/composite": "demo"},
			"name":         "demo-x7k2p",
			"ownerReferences": []any{map[string]any{
				"apiVersion": "example.org/v1alpha1", "kind": "XBucket", "name": "demo", "uid": "",
				"controller": true, "blockOwnerDeletion": true,
			}},
		},
		"spec": map[string]any{"forProvider": map[string]any{
			"region": "us-east-2",
			"tags": map[string]any{
				"managed": "yes",
				"note":    "this note is deliberately long so that the YAML emitter has to fold it across two lines",
			},
		}},
	}
	acl := map[string]any{
		"apiVersion": "s3.aws.upbound.io/v1beta1",
		"kind":       "BucketACL",
		"metadata":   map[string]any{"annotations": map[string]any{AnnotationCompositionResourceName: "acl"}},
	}
	o := &Outcome{
		XR: map[string]any{
			"apiVersion": "example.org/v1alpha1", "kind": "XBucket",
			"metadata": map[string]any{"name": "demo"},
			"status": map[string]any{"conditions": []any{map[string]any{
				"type": "Ready", "status": "False", "reason": "Creating",
				"message": "Unready resources: acl", "lastTransitionTime": "2024-01-01T00:00:00Z",
			}}},
		},
		Composed: []ComposedResource{
			{Name: "bucket", Desired: bucket, Rendered: true},
			{Name: "acl", Desired: acl, Rendered: true},
			{Name: "skipped", Desired: map[string]any{"kind": "X"}, Rendered: false},
		},
		Results: []Result{{Step: "patch-and-transform", Severity: "SEVERITY_WARNING", Message: "it's 'quoted'"}},
		Context: map[string]any{"example.org/k": map[string]any{"n": float64(1), "f": 1.5}},
	}
	// The bucket document is the real tool's (docs/semantics/render-format.md#a-verified-sample).
	want := `---
apiVersion: example.org/v1alpha1
kind: XBucket
metadata:
  name: demo
status:
  conditions:
  - lastTransitionTime: "2024-01-01T00:00:00Z"
    message: 'Unready resources: acl'
    reason: Creating
    status: "False"
    type: Ready
---
apiVersion: s3.aws.upbound.io/v1beta1
kind: BucketACL
metadata:
  annotations:
    crossplane.io/composition-resource-name: acl
---
apiVersion: s3.aws.upbound.io/v1beta1
kind: Bucket
metadata:
  annotations:
    crossplane.io/composition-resource-name: bucket
  generateName: demo-
  labels:
    crossplane.io/composite: demo
  name: demo-x7k2p
  ownerReferences:
  - apiVersion: example.org/v1alpha1
    blockOwnerDeletion: true
    controller: true
    kind: XBucket
    name: demo
    uid: ""
spec:
  forProvider:
    region: us-east-2
    tags:
      managed: "yes"
      note: this note is deliberately long so that the YAML emitter has to fold it
        across two lines
---
apiVersion: render.crossplane.io/v1beta1
kind: Result
message: it's 'quoted'
severity: SEVERITY_WARNING
step: patch-and-transform
---
apiVersion: render.crossplane.io/v1beta1
fields:
  example.org/k:
    f: 1.5
    "n": 1
kind: Context
`
	for i := 0; i < 2; i++ { // twice: output must be deterministic
		var b bytes.Buffer
		if err := Print(&b, o, PrintOptions{IncludeResults: true, IncludeContext: true}); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, b.String()); diff != "" {
			t.Errorf("Print(...): -want, +got:\n%s", diff)
		}
	}
}
