package engine

import (
	"context"
	"strings"
	"testing"

	"github.com/xpmigrate/xpmigrate/internal/jsonobj"
	"github.com/xpmigrate/xpmigrate/render"
	"github.com/xpmigrate/xpmigrate/render/pipeline"
)

// The native-vs-function pairs of docs/semantics/pipeline.md#test-vectors: each renders a
// legacy composition and its pipeline twin and checks the behaviour the
// vector gives for each side. The pipeline side uses the reconciler profile,
// which is what the cluster would do.

const nvXR = `
apiVersion: example.org/v1
kind: XThing
metadata:
  name: xr1
  uid: u-1
  labels: {crossplane.io/composite: xr1}
spec: {size: small}
`

// nvPair returns a legacy composition with the given templates (YAML list
// items, indented for spec.resources) and its pipeline twin.
func nvPair(t *testing.T, templates string) (legacyC, pipelineC map[string]any) {
	t.Helper()
	head := `
apiVersion: apiextensions.crossplane.io/v1
kind: Composition
metadata: {name: things}
spec:
  compositeTypeRef: {apiVersion: example.org/v1, kind: XThing}
`
	legacyC = obj(t, head+"  resources:\n"+indent(templates, 2))
	pipelineC = obj(t, head+`  mode: Pipeline
  pipeline:
  - step: patch-and-transform
    functionRef: {name: function-patch-and-transform}
    input:
      apiVersion: pt.fn.crossplane.io/v1beta1
      kind: Resources
      resources:
`+indent(templates, 6))
	return legacyC, pipelineC
}

func indent(s string, n int) string {
	pad := strings.Repeat(" ", n)
	var b strings.Builder
	for _, l := range strings.Split(strings.Trim(s, "\n"), "\n") {
		b.WriteString(pad + l + "\n")
	}
	return b.String()
}

func renderBoth(t *testing.T, legacyC, pipelineC map[string]any, observed []map[string]any) (legacyRes, pipelineRes *Result, legacyErr, pipelineErr error) {
	t.Helper()
	legacyRes, legacyErr = Render(context.Background(), Request{XR: obj(t, nvXR), Composition: legacyC, Observed: observed}, Options{})
	pipelineRes, pipelineErr = Render(context.Background(), Request{XR: obj(t, nvXR), Composition: pipelineC, Observed: observed}, Options{Profile: pipeline.Reconciler})
	return
}

// condition returns the status, reason and message of the XR condition.
func condition(xr map[string]any, typ string) (status, reason, message string) {
	st, _ := xr["status"].(map[string]any)
	cs, _ := st["conditions"].([]any)
	for _, c := range cs {
		m, _ := c.(map[string]any)
		if m["type"] == typ {
			s, _ := m["status"].(string)
			r, _ := m["reason"].(string)
			msg, _ := m["message"].(string)
			return s, r, msg
		}
	}
	return "", "", ""
}

func composed(o *render.Outcome, name string) *render.ComposedResource {
	for i := range o.Composed {
		if o.Composed[i].Name == name {
			return &o.Composed[i]
		}
	}
	return nil
}

func TestNativeVersusFunction(t *testing.T) {
	t.Run("NV01BaseName", func(t *testing.T) {
		l, p := nvPair(t, `
- name: db
  base: {apiVersion: s3.example.org/v1, kind: Bucket, metadata: {name: db}}
`)
		lr, pr, lerr, perr := renderBoth(t, l, p, nil)
		if lerr != nil || perr != nil {
			t.Fatalf("Render: legacy %v, pipeline %v", lerr, perr)
		}
		if n := nestedName(composed(lr.Outcome, "db").Desired); n == "db" || !strings.HasPrefix(n, "xr1-") {
			t.Errorf("native: want a generated name xr1-xxxxx (base metadata.name ignored), got %q", n)
		}
		if n := nestedName(composed(pr.Outcome, "db").Desired); n != "db" {
			t.Errorf("function: want metadata.name db kept from the base, got %q", n)
		}
	})

	t.Run("NV02RequiredMissNewResource", func(t *testing.T) {
		l, p := nvPair(t, `
- name: t
  base: {apiVersion: s3.example.org/v1, kind: Bucket}
  patches:
  - {type: FromCompositeFieldPath, fromFieldPath: spec.missing, toFieldPath: spec.x, policy: {fromFieldPath: Required}}
`)
		lr, pr, lerr, perr := renderBoth(t, l, p, nil)
		if lerr != nil || perr != nil {
			t.Fatalf("Render: legacy %v, pipeline %v", lerr, perr)
		}
		if cd := composed(lr.Outcome, "t"); cd == nil || cd.Rendered {
			t.Errorf("native: want template t not applied, got %+v", cd)
		}
		if s, _, m := condition(lr.Outcome.EffectiveXR, "Synced"); s != "False" || m != "Unsynced resources: t" {
			t.Errorf("native: want Synced=False \"Unsynced resources: t\", got %s %q", s, m)
		}
		if s, _, m := condition(lr.Outcome.EffectiveXR, "Ready"); s != "False" || m != "Unready resources: t" {
			t.Errorf("native: want Ready=False \"Unready resources: t\", got %s %q", s, m)
		}
		if cd := composed(pr.Outcome, "t"); cd != nil && cd.Rendered {
			t.Errorf("function: want t left out of desired state, got %+v", cd)
		}
		if len(pr.Outcome.Results) == 0 || pr.Outcome.Results[0].Severity != "SEVERITY_WARNING" {
			t.Errorf("function: want a warning result, got %+v", pr.Outcome.Results)
		}
		if s, r, m := condition(pr.Outcome.EffectiveXR, "Ready"); s != "False" || r != "Creating" || m != "" {
			t.Errorf("function: want Ready=False/Creating without message, got %s/%s %q", s, r, m)
		}
		if s, _, _ := condition(pr.Outcome.EffectiveXR, "Synced"); s != "True" {
			t.Errorf("function: want Synced=True, got %s", s)
		}
	})

	t.Run("NV03TransformError", func(t *testing.T) {
		l, p := nvPair(t, `
- name: a
  base: {apiVersion: s3.example.org/v1, kind: Bucket}
  patches:
  - type: FromCompositeFieldPath
    fromFieldPath: spec.size
    toFieldPath: spec.x
    transforms: [{type: map, map: {large: L}}]
- name: b
  base: {apiVersion: s3.example.org/v1, kind: Bucket}
`)
		lr, _, lerr, perr := renderBoth(t, l, p, nil)
		if lerr != nil {
			t.Fatalf("native: want no fatal error, got %v", lerr)
		}
		if a, b := composed(lr.Outcome, "a"), composed(lr.Outcome, "b"); a.Rendered || !b.Rendered {
			t.Errorf("native: want a skipped and b applied, got a=%t b=%t", a.Rendered, b.Rendered)
		}
		if !hasWarning(lr.Outcome, `cannot render FromComposite patches for composed resource "a"`) {
			t.Errorf("native: want a warning event for a, got %+v", lr.Outcome.Events)
		}
		if perr == nil || !strings.Contains(perr.Error(), "returned a fatal result") {
			t.Errorf("function: want a fatal result, got %v", perr)
		}
	})

	t.Run("NV04ToCompositeIntoSpec", func(t *testing.T) {
		l, p := nvPair(t, `
- name: t
  base: {apiVersion: s3.example.org/v1, kind: Bucket}
  patches:
  - {type: ToCompositeFieldPath, fromFieldPath: status.atProvider.arn, toFieldPath: spec.arn}
`)
		observed := []map[string]any{obj(t, `
apiVersion: s3.example.org/v1
kind: Bucket
metadata:
  name: xr1-abcde
  annotations: {crossplane.io/composition-resource-name: t}
  ownerReferences: [{apiVersion: example.org/v1, kind: XThing, name: xr1, uid: u-1, controller: true}]
status: {atProvider: {arn: "arn:1"}}
`)}
		lr, pr, lerr, perr := renderBoth(t, l, p, observed)
		if lerr != nil || perr != nil {
			t.Fatalf("Render: legacy %v, pipeline %v", lerr, perr)
		}
		if v, _ := jsonobj.LookupString(lr.Outcome.EffectiveXR, "spec", "arn"); v != "arn:1" {
			t.Errorf("native: want XR spec.arn persisted, got %q", v)
		}
		if v, ok := jsonobj.LookupString(pr.Outcome.EffectiveXR, "spec", "arn"); ok {
			t.Errorf("function: want spec.arn dropped by the cluster, got %q", v)
		}
		crank, err := Render(context.Background(), Request{XR: obj(t, nvXR), Composition: p, Observed: observed}, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if v, _ := jsonobj.LookupString(crank.Outcome.XR, "spec", "arn"); v != "arn:1" {
			t.Errorf("function: want crossplane render to print spec.arn, got %q", v)
		}
	})

	t.Run("NV05ReadinessNoneFirstReconcile", func(t *testing.T) {
		l, p := nvPair(t, `
- name: t
  base: {apiVersion: s3.example.org/v1, kind: Bucket}
  readinessChecks: [{type: None}]
`)
		lr, pr, lerr, perr := renderBoth(t, l, p, nil)
		if lerr != nil || perr != nil {
			t.Fatalf("Render: legacy %v, pipeline %v", lerr, perr)
		}
		if s, r, _ := condition(lr.Outcome.EffectiveXR, "Ready"); s != "True" || r != "Available" {
			t.Errorf("native: want Ready=True/Available, got %s/%s", s, r)
		}
		if s, r, m := condition(pr.Outcome.EffectiveXR, "Ready"); s != "False" || r != "Creating" || m != "Unready resources: t" {
			t.Errorf("function: want Ready=False/Creating \"Unready resources: t\", got %s/%s %q", s, r, m)
		}
	})

	t.Run("NV06FromValueFirstReconcile", func(t *testing.T) {
		l, p := nvPair(t, `
- name: t
  base: {apiVersion: s3.example.org/v1, kind: Bucket}
  connectionDetails: [{type: FromValue, name: port, value: "5432"}]
`)
		lr, pr, lerr, perr := renderBoth(t, l, p, nil)
		if lerr != nil || perr != nil {
			t.Fatalf("Render: legacy %v, pipeline %v", lerr, perr)
		}
		if got := string(lr.Outcome.ConnectionDetails["port"]); got != "5432" {
			t.Errorf("native: want port 5432 on the first reconcile, got %q", got)
		}
		if len(pr.Outcome.ConnectionDetails) != 0 {
			t.Errorf("function: want no connection details before the resource is observed, got %v", pr.Outcome.ConnectionDetails)
		}
	})

	t.Run("NV07AnonymousExisting", func(t *testing.T) {
		xr := obj(t, nvXR)
		xr["spec"].(map[string]any)["resourceRefs"] = []any{map[string]any{"apiVersion": "s3.example.org/v1", "kind": "Bucket", "name": "xr1-abcde"}}
		observed := []map[string]any{obj(t, `
apiVersion: s3.example.org/v1
kind: Bucket
metadata:
  name: xr1-abcde
  ownerReferences: [{apiVersion: example.org/v1, kind: XThing, name: xr1, uid: u-1, controller: true}]
`)}
		_, p := nvPair(t, `
- name: resource-0
  base: {apiVersion: s3.example.org/v1, kind: Bucket}
`)
		_, err := Render(context.Background(), Request{XR: xr, Composition: p, Observed: observed}, Options{Profile: pipeline.Reconciler})
		if err == nil || !strings.Contains(err.Error(), "crossplane.io/composition-resource-name") {
			t.Errorf("function: want a compose error for an existing resource without the annotation, got %v", err)
		}
	})

	t.Run("NV08MergeOptionsLeftAsIs", func(t *testing.T) {
		_, p := nvPair(t, `
- name: t
  base: {apiVersion: s3.example.org/v1, kind: Bucket}
  patches:
  - {type: FromCompositeFieldPath, fromFieldPath: spec.size, toFieldPath: spec.x, policy: {mergeOptions: {keepMapValues: true}}}
`)
		_, err := Render(context.Background(), Request{XR: obj(t, nvXR), Composition: p}, Options{})
		if err == nil || !strings.Contains(err.Error(), "cannot get Function input") {
			t.Errorf("function: want a fatal 'cannot get Function input' for a leftover mergeOptions, got %v", err)
		}
	})
}

func nestedName(o map[string]any) string {
	s, _ := jsonobj.LookupString(o, "metadata", "name")
	return s
}

func hasWarning(o *render.Outcome, substr string) bool {
	for _, e := range o.Events {
		if e.Type == render.EventWarning && strings.Contains(e.Message, substr) {
			return true
		}
	}
	return false
}
