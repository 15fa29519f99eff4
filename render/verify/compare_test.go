package verify

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/xpmigrate/xpmigrate/render"
)

func composed(name string, obj map[string]any, ready bool) render.ComposedResource {
	return render.ComposedResource{Name: name, Index: -1, Desired: obj, Applied: obj, Rendered: true, Synced: true, Ready: ready}
}

func bucket(name string, extra map[string]any) map[string]any {
	o := map[string]any{
		"apiVersion": "s3.example.org/v1",
		"kind":       "Bucket",
		"metadata": map[string]any{
			"name":         name,
			"generateName": "xr-",
			"annotations":  map[string]any{render.AnnotationCompositionResourceName: "bucket"},
			"labels":       map[string]any{"crossplane.io/composite": "xr", "crossplane.io/claim-name": "", "crossplane.io/claim-namespace": ""},
			"ownerReferences": []any{map[string]any{
				"apiVersion": "example.org/v1", "kind": "XR", "name": "xr", "uid": "", "controller": true,
			}},
		},
		"spec": map[string]any{"forProvider": map[string]any{"size": int64(3)}},
	}
	for k, v := range extra {
		o[k] = v
	}
	return o
}

func xrWith(status map[string]any, refs ...string) map[string]any {
	var rs []any
	for _, r := range refs {
		rs = append(rs, map[string]any{"apiVersion": "s3.example.org/v1", "kind": "Bucket", "name": r})
	}
	return map[string]any{
		"apiVersion": "example.org/v1",
		"kind":       "XR",
		"metadata":   map[string]any{"name": "xr", "uid": "1234", "resourceVersion": "7"},
		"spec":       map[string]any{"resourceRefs": rs},
		"status":     status,
	}
}

func TestCompare(t *testing.T) {
	ready := []any{map[string]any{"type": "Ready", "status": "True", "reason": "Available", "lastTransitionTime": "2024-01-01T00:00:00Z"}}
	readyOther := []any{map[string]any{"type": "Ready", "status": "True", "reason": "Available", "lastTransitionTime": "2025-05-05T00:00:00Z", "message": "x"}}
	cases := map[string]struct {
		reason   string
		legacy   Side
		pipeline Side
		want     []string
	}{
		"Identical": {
			reason: "Identical outcomes have no difference.",
			legacy: Side{Outcome: &render.Outcome{
				Composed:    []render.ComposedResource{composed("bucket", bucket("xr-abcde", nil), true)},
				EffectiveXR: xrWith(map[string]any{"conditions": ready}, "xr-abcde"),
			}},
			pipeline: Side{Outcome: &render.Outcome{
				Composed:    []render.ComposedResource{composed("bucket", bucket("xr-abcde", nil), true)},
				EffectiveXR: xrWith(map[string]any{"conditions": ready}, "xr-abcde"),
			}},
		},
		"Normalised": {
			reason: "Generated names (5 characters or 12 hex digits, everywhere), claim labels with empty values, empty uids, server fields, condition times and messages, ref order and empty refs, and int64 against float64 are not differences.",
			legacy: Side{Outcome: &render.Outcome{
				Composed:    []render.ComposedResource{composed("bucket", bucket("xr-abcde", nil), true)},
				EffectiveXR: xrWith(map[string]any{"conditions": ready, "bucket": "xr-abcde"}, "xr-abcde", ""),
			}},
			pipeline: Side{Outcome: &render.Outcome{
				Composed: []render.ComposedResource{composed("bucket", func() map[string]any {
					o := bucket("xr-0123456789ab", map[string]any{"spec": map[string]any{"forProvider": map[string]any{"size": float64(3)}}})
					md := o["metadata"].(map[string]any)
					md["labels"] = map[string]any{"crossplane.io/composite": "xr"}
					md["uid"] = "server"
					return o
				}(), true)},
				EffectiveXR: xrWith(map[string]any{"conditions": readyOther, "bucket": "xr-0123456789ab"}, "xr-0123456789ab"),
			}},
		},
		"Differences": {
			reason: "A field, readiness, a condition, a connection detail and an XR status field differ.",
			legacy: Side{Outcome: &render.Outcome{
				Composed:          []render.ComposedResource{composed("bucket", bucket("xr-abcde", nil), true)},
				EffectiveXR:       xrWith(map[string]any{"conditions": ready, "arn": "a"}),
				ConnectionDetails: map[string][]byte{"port": []byte("5432")},
			}},
			pipeline: Side{Outcome: &render.Outcome{
				Composed:    []render.ComposedResource{composed("bucket", bucket("xr-abcde", map[string]any{"spec": map[string]any{"forProvider": map[string]any{"size": int64(4)}}}), false)},
				EffectiveXR: xrWith(map[string]any{"conditions": []any{map[string]any{"type": "Ready", "status": "False", "reason": "Creating"}}}),
			}},
			want: []string{
				"resource bucket spec.forProvider.size",
				"readiness bucket",
				"xr status.arn",
				"condition Ready",
				"connection-detail port",
			},
		},
		"OneSideFailed": {
			reason: "A reconcile error on one side, and a resource only the other side rendered.",
			legacy: Side{Outcome: &render.Outcome{
				Composed:    []render.ComposedResource{composed("bucket", bucket("xr-abcde", nil), true)},
				EffectiveXR: xrWith(nil),
			}},
			pipeline: Side{Err: errors.New("boom"), Outcome: &render.Outcome{EffectiveXR: xrWith(nil)}},
			want: []string{
				"error",
				"presence bucket",
			},
		},
		"AnonymousTemplate": {
			reason: "An anonymous legacy template is matched by index to resource-<i>.",
			legacy: Side{Outcome: &render.Outcome{
				Composed: []render.ComposedResource{{Index: 0, Rendered: true, Ready: true, Synced: true, Desired: map[string]any{"kind": "Bucket"}}},
			}},
			pipeline: Side{Outcome: &render.Outcome{
				Composed: []render.ComposedResource{composed("resource-0", map[string]any{"kind": "Bucket"}, true)},
			}},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			var got []string
			for _, d := range Compare(tc.legacy, tc.pipeline, CompareOptions{}) {
				s := string(d.Aspect)
				if d.Resource != "" {
					s += " " + d.Resource
				}
				if len(d.Path) > 0 {
					s += " " + d.Path.String()
				}
				got = append(got, s)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s\nCompare(...): -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}

func TestLoopsOption(t *testing.T) {
	c := loadCase(t, "testdata/gaps/first-reconcile")
	c.opts.Loops = 1
	r := c.verify(t)
	// One reconcile: nothing can converge. The readiness and connection
	// detail lags are still recognised (the simulation stopped before they
	// could vanish), as known gaps; the XR status the pipeline has not yet
	// read from the resource follows from the same lag.
	want := []string{
		"readiness db: D19",
		"xr status.engine: D19",
		"condition Ready: D19",
		"connection-detail port: D26",
	}
	if diff := cmp.Diff(want, summary(r)); diff != "" {
		t.Errorf("Verify(Loops: 1): -want, +got:\n%s", diff)
	}
	if r.Samples[0].Loops != 1 {
		t.Errorf("Verify(Loops: 1): %d reconciles", r.Samples[0].Loops)
	}
	c.opts.Loops = 4
	if r := c.verify(t); r.Samples[0].Loops != 4 || r.Unexplained != 0 {
		t.Errorf("Verify(Loops: 4): %d reconciles, %d unexplained", r.Samples[0].Loops, r.Unexplained)
	}
}
