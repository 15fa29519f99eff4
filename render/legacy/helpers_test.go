package legacy

import (
	"slices"
	"strings"
	"testing"

	kjson "k8s.io/apimachinery/pkg/util/json"
	"sigs.k8s.io/yaml"

	"github.com/xpmigrate/xpmigrate/internal/jsonobj"
	"github.com/xpmigrate/xpmigrate/patchandtransform/native"
	"github.com/xpmigrate/xpmigrate/render"
)

// Error texts are compared as strings in these tests: Crossplane's texts are
// the contract the legacy composer reproduces (they end up on the XR's
// Synced condition and in events).

// xr1 is the XR most tests compose.
const xr1 = `
apiVersion: ex.org/v1
kind: XR
metadata: {name: xr1, uid: u-1, labels: {crossplane.io/composite: xr1}}
spec: {str: hello, num: 3}
`

// composition returns a defaulted Composition for XR ex.org/v1 XR with the
// given spec fields (YAML at spec level, without indentation).
func composition(t *testing.T, spec string) *native.Composition {
	t.Helper()
	var b strings.Builder
	b.WriteString("apiVersion: apiextensions.crossplane.io/v1\nkind: Composition\nmetadata:\n  name: test\nspec:\n  compositeTypeRef: {apiVersion: ex.org/v1, kind: XR}\n")
	for _, l := range strings.Split(spec, "\n") {
		if strings.TrimSpace(l) == "" {
			continue
		}
		b.WriteString("  " + l + "\n")
	}
	c, err := native.Decode([]byte(b.String()))
	if err != nil {
		t.Fatalf("native.Decode(...): %v", err)
	}
	c.Default()
	return c
}

// object decodes YAML as the Kubernetes decoder does: integers int64.
func object(t *testing.T, y string) map[string]any {
	t.Helper()
	j, err := yaml.YAMLToJSON([]byte(y))
	if err != nil {
		t.Fatalf("yaml.YAMLToJSON(...): %v", err)
	}
	out := map[string]any{}
	if err := kjson.Unmarshal(j, &out); err != nil {
		t.Fatalf("kjson.Unmarshal(...): %v", err)
	}
	return out
}

// objects decodes a YAML stream of objects.
func objects(t *testing.T, y string) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, d := range strings.Split(y, "\n---\n") {
		if strings.TrimSpace(d) == "" {
			continue
		}
		out = append(out, object(t, d))
	}
	return out
}

// suffixes are the name suffixes sequence() hands out, in order.
var suffixes = []string{"bcdfg", "hjklm", "npqrs", "tvwxz", "24567", "89bcd", "fghjk", "lmnpq"}

// sequence returns a name generator that appends the suffixes in order.
func sequence() func(string) string {
	n := 0
	return func(prefix string) string {
		s := suffixes[n%len(suffixes)]
		n++
		return prefix + s
	}
}

// owned returns the metadata Crossplane gives an object composed for XR xr1
// (uid u-1) from the named template ("" for anonymous), merged with extra.
func owned(name, template string, extra map[string]any) map[string]any {
	md := map[string]any{
		"generateName": "xr1-",
		"labels": map[string]any{
			"crossplane.io/composite":       "xr1",
			"crossplane.io/claim-name":      "",
			"crossplane.io/claim-namespace": "",
		},
		"ownerReferences": []any{map[string]any{
			"apiVersion":         "ex.org/v1",
			"kind":               "XR",
			"name":               "xr1",
			"uid":                "u-1",
			"controller":         true,
			"blockOwnerDeletion": true,
		}},
	}
	if name != "" {
		md["name"] = name
	}
	if template != "" {
		md["annotations"] = map[string]any{"crossplane.io/composition-resource-name": template}
	}
	return jsonobj.MergePatch(md, extra)
}

// cd returns a composed ex.org/v1 CD object with the given metadata and
// spec.
func cd(md map[string]any, spec map[string]any) map[string]any {
	o := map[string]any{"apiVersion": "ex.org/v1", "kind": "CD", "metadata": md}
	if spec != nil {
		o["spec"] = spec
	}
	return o
}

// conditions returns the XR's printed status.conditions.
func conditions(o *render.Outcome) []any {
	if o == nil {
		return nil
	}
	st, _ := o.XR["status"].(map[string]any)
	c, _ := st["conditions"].([]any)
	return c
}

// cond returns a printed condition.
func cond(typ, status, reason, message string) any {
	return condition{Type: typ, Status: status, Reason: reason, Message: message}.object()
}

// refsOf returns the persisted spec.resourceRefs.
func refsOf(o *render.Outcome) []any {
	if o == nil {
		return nil
	}
	spec, _ := o.EffectiveXR["spec"].(map[string]any)
	r, _ := spec["resourceRefs"].([]any)
	return r
}

// ref returns a persisted reference.
func ref(apiVersion, kind, name string) any {
	return reference{APIVersion: apiVersion, Kind: kind, Name: name}.object()
}

// nsRef is the spec.resourceRefs entry of a namespaced object.
func nsRef(apiVersion, kind, namespace, name string) any {
	return map[string]any{"apiVersion": apiVersion, "kind": kind, "namespace": namespace, "name": name}
}

// errText returns the error's text, or "".
func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// warning and normal return events.
func warning(msg string) render.Event {
	return render.Event{Type: render.EventWarning, Reason: "ComposeResources", Message: msg}
}

func normal(msg string) render.Event {
	return render.Event{Type: render.EventNormal, Reason: "ComposeResources", Message: msg}
}

func ptrTo[T any](v T) *T { return &v }

// A view is the part of an Outcome the reconcile-level tests compare.
type view struct {
	Err        string
	Events     []render.Event
	Conditions []any
	Composed   []render.ComposedResource
	Refs       []any
	Deleted    []string
}

// viewOf returns the view of a Compose result.
func viewOf(o *render.Outcome, err error) view {
	v := view{Err: errText(err)}
	if o == nil {
		return v
	}
	v.Events = o.Events
	v.Conditions = conditions(o)
	v.Composed = o.Composed
	v.Refs = refsOf(o)
	v.Deleted = o.Deleted
	return v
}

// created returns the result of a template whose object was created.
func created(index int, template string, obj map[string]any) render.ComposedResource {
	return render.ComposedResource{Name: template, Index: index, Desired: obj, Applied: jsonobj.WithoutStatus(obj), Rendered: true, Synced: true}
}

// failed returns the result of a template that did not render.
func failed(index int, template string) render.ComposedResource {
	return render.ComposedResource{Name: template, Index: index}
}

// patched returns the result of a template whose existing object was
// patched.
func patched(index int, template string, desired, applied map[string]any) render.ComposedResource {
	return render.ComposedResource{Name: template, Index: index, Desired: desired, Applied: applied, Rendered: true, Synced: true}
}

// unobserved returns the result of a template that rendered (and maybe was
// applied) before a fatal error stopped the reconcile.
func unobserved(index int, template string, desired, applied map[string]any) render.ComposedResource {
	return render.ComposedResource{Name: template, Index: index, Desired: desired, Applied: applied, Rendered: true}
}

// withStatus returns a copy of o with the given status.
func withStatus(o map[string]any, status map[string]any) map[string]any {
	out := jsonobj.DeepCopy(o)
	out["status"] = status
	return out
}

// clusterAfter returns the cluster a reconcile left: the objects it saw,
// without those it deleted, with those it applied.
func clusterAfter(before []map[string]any, o *render.Outcome) []map[string]any {
	out := make([]map[string]any, 0, len(before))
	for _, b := range before {
		n := dig(b, "metadata", "name")
		if n != nil && slices.Contains(o.Deleted, n.(string)) {
			continue
		}
		out = append(out, jsonobj.DeepCopy(b))
	}
	for _, r := range o.Composed {
		if r.Applied == nil {
			continue
		}
		k := dig(r.Applied, "kind")
		n := dig(r.Applied, "metadata", "name")
		found := false
		for i, b := range out {
			if dig(b, "kind") == k && dig(b, "metadata", "name") == n {
				out[i] = jsonobj.DeepCopy(r.Applied)
				found = true
			}
		}
		if !found {
			out = append(out, jsonobj.DeepCopy(r.Applied))
		}
	}
	return out
}
