package legacy

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/crossplane/crossplane-runtime/v2/pkg/fieldpath"
	"github.com/google/go-cmp/cmp"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/xpmigrate/xpmigrate/internal/jsonobj"
	"github.com/xpmigrate/xpmigrate/internal/xp"
)

// TestWriteConnectionSecretToRefShortcut checks the reading of
// spec.writeConnectionSecretToRef against the JSON round trip it shortcuts.
func TestWriteConnectionSecretToRefShortcut(t *testing.T) {
	slow := func(o map[string]any) *secretRef {
		v, err := fieldpath.Pave(o).GetValue("spec.writeConnectionSecretToRef")
		if err != nil {
			return nil
		}
		b, err := json.Marshal(v)
		if err != nil {
			return nil
		}
		out := &secretRef{}
		if err := json.Unmarshal(b, out); err != nil {
			return nil
		}
		return out
	}
	refs := []any{
		nil, "x", 3, []any{}, map[string]any(nil), map[string]any{},
		map[string]any{"name": "n", "namespace": "ns"}, map[string]any{"name": "n"},
		map[string]any{"Name": "n"}, map[string]any{"name": 3}, map[string]any{"name": nil},
		map[string]any{"name": "\xff"}, map[string]any{"name": "n", "extra": true},
	}
	objs := []map[string]any{nil, {}, {"spec": nil}, {"spec": "x"}, {"spec": map[string]any{}}}
	for _, r := range refs {
		objs = append(objs, map[string]any{"spec": map[string]any{"writeConnectionSecretToRef": r}})
	}
	for _, o := range objs {
		if diff := cmp.Diff(slow(o), writeConnectionSecretToRef(o), cmp.AllowUnexported(secretRef{})); diff != "" {
			t.Errorf("writeConnectionSecretToRef(%#v): -round trip, +got:\n%s", o, diff)
		}
	}
}

// TestSetResourceRefsShortcut checks setResourceRefs against SetValue.
func TestSetResourceRefsShortcut(t *testing.T) {
	lists := [][]any{
		{}, {map[string]any{"apiVersion": "v1", "kind": "K", "name": "n"}},
		{map[string]any{"name": "\xff"}}, {map[string]any{"name": 3}}, {nil},
	}
	xrs := []map[string]any{{}, {"spec": nil}, {"spec": "x"}, {"spec": map[string]any{"a": 1}}}
	for _, xr := range xrs {
		for _, l := range lists {
			want := fieldpath.Pave(jsonobj.DeepCopy(xr))
			_ = want.SetValue("spec.resourceRefs", jsonobj.DeepCopyValue(l))
			got := fieldpath.Pave(jsonobj.DeepCopy(xr))
			setResourceRefs(got, jsonobj.DeepCopyValue(l).([]any))
			if diff := cmp.Diff(want.UnstructuredContent(), got.UnstructuredContent()); diff != "" {
				t.Errorf("setResourceRefs(%#v, %#v): -SetValue, +got:\n%s", xr, l, diff)
			}
		}
	}
}

// TestRenderPlainMetadata checks renderPlainMetadata against the
// Unstructured accessors it shortcuts, and that it changes nothing when it
// declines.
func TestRenderPlainMetadata(t *testing.T) {
	xrs := []map[string]any{
		{"apiVersion": "ex.org/v1", "kind": "XR", "metadata": map[string]any{"name": "x", "uid": "u-1", "labels": map[string]any{xp.LabelComposite: "x", xp.LabelClaimName: "c"}}},
		{"apiVersion": "ex.org/v1", "kind": "XR", "metadata": map[string]any{"name": "x", "labels": map[string]any{xp.LabelComposite: "x"}}},
		{"apiVersion": "ex.org/v1", "kind": "XR", "metadata": map[string]any{"name": "x", "labels": map[string]any{xp.LabelComposite: "x", "n": int64(3)}}},
		{"apiVersion": "ex.org/v1", "kind": "XR", "metadata": map[string]any{"name": "x"}},
	}
	objs := []map[string]any{
		{"apiVersion": "v1", "kind": "K"},
		{"apiVersion": "v1", "kind": "K", "metadata": map[string]any{}},
		{"apiVersion": "v1", "kind": "K", "metadata": nil},
		{"apiVersion": "v1", "kind": "K", "metadata": "x"},
		{"apiVersion": "v1", "kind": "K", "metadata": map[string]any{"name": "n", "labels": map[string]any{"a": "b", xp.LabelComposite: "old"}, "annotations": map[string]any{"c": "d"}}},
		{"apiVersion": "v1", "kind": "K", "metadata": map[string]any{"labels": map[string]any{"a": int64(1)}}},
		{"apiVersion": "v1", "kind": "K", "metadata": map[string]any{"labels": nil, "annotations": "x"}},
		{"apiVersion": "v1", "kind": "K", "metadata": map[string]any{"annotations": map[string]any{"a": true}}},
		{"apiVersion": "v1", "kind": "K", "metadata": map[string]any{"ownerReferences": []any{map[string]any{"uid": "u-2", "kind": "O", "name": "o", "controller": true}}}},
	}
	rendered := 0
	for _, x := range xrs {
		for _, o := range objs {
			for _, template := range []string{"", "t"} {
				want := &unstructured.Unstructured{Object: jsonobj.DeepCopy(o)}
				wantErr := renderMetadata(want, &unstructured.Unstructured{Object: jsonobj.DeepCopy(x)}, template)
				got := jsonobj.DeepCopy(o)
				if !renderPlainMetadata(got, &unstructured.Unstructured{Object: jsonobj.DeepCopy(x)}, template) {
					if diff := cmp.Diff(o, got); diff != "" {
						t.Errorf("renderPlainMetadata(%#v, %#v, %q) declined but changed the object: -want, +got:\n%s", o, x, template, diff)
					}
					continue
				}
				if wantErr != nil {
					t.Errorf("renderPlainMetadata(%#v, %#v, %q) rendered what renderMetadata refuses: %v", o, x, template, wantErr)
					continue
				}
				rendered++
				if diff := cmp.Diff(want.Object, got); diff != "" {
					t.Errorf("renderPlainMetadata(%#v, %#v, %q): -renderMetadata, +got:\n%s", o, x, template, diff)
				}
			}
		}
	}
	if rendered < 8 {
		t.Errorf("renderPlainMetadata rendered %d cases, want at least 8", rendered)
	}
}

// TestResourceRefsShortcut checks the reading of spec.resourceRefs against
// the JSON round trip it shortcuts.
func TestResourceRefsShortcut(t *testing.T) {
	slow := func(xr map[string]any) []reference {
		out := []reference{}
		v, err := fieldpath.Pave(xr).GetValue("spec.resourceRefs")
		if err != nil {
			return out
		}
		b, err := json.Marshal(v)
		if err != nil {
			return out
		}
		_ = json.Unmarshal(b, &out)
		return out
	}
	lists := []any{
		nil, "x", []any{}, []any(nil), []any{nil}, map[string]any{},
		[]any{map[string]any{"apiVersion": "v1", "kind": "K", "namespace": "ns", "name": "n"}, map[string]any{"name": "m"}},
		[]any{map[string]any{"Name": "n"}}, []any{map[string]any{"name": 3}}, []any{map[string]any{"name": "\xff"}},
		[]any{map[string]any{"name": "n", "uid": "u"}}, []any{map[string]any{"name": nil}}, []any{"x", map[string]any{"name": "n"}},
	}
	xrs := []map[string]any{nil, {}, {"spec": nil}, {"spec": "x"}, {"spec": map[string]any{}}}
	for _, l := range lists {
		xrs = append(xrs, map[string]any{"spec": map[string]any{"resourceRefs": l}})
	}
	for _, xr := range xrs {
		if diff := cmp.Diff(slow(xr), resourceRefs(xr)); diff != "" {
			t.Errorf("resourceRefs(%#v): -round trip, +got:\n%s", xr, diff)
		}
	}
}

// TestGetValueShortcut checks getValue against Paved.GetValue: the same
// value, the same error, the same IsNotFound.
func TestGetValueShortcut(t *testing.T) {
	objs := []map[string]any{
		{},
		{"metadata": map[string]any{"labels": map[string]any{"a": "b"}, "x": nil}},
		{"spec": map[string]any{"list": []any{int64(1), map[string]any{"k": "v"}, nil}, "s": "str"}},
		{"spec": nil},
	}
	paths := []string{"metadata", "metadata.labels", "metadata.labels.a", "metadata.labels[a]", "metadata.x", "metadata.x.y",
		"spec.list[1].k", "spec.list[3]", "spec.list[0].k", "spec.s.x", "spec.s[0]", "spec.list.k", "spec.x", "spec", "spec[", "a..b", ""}
	for _, o := range objs {
		p := fieldpath.Pave(o)
		for _, path := range paths {
			want, wantErr := p.GetValue(path)
			segs, perr := fieldpath.Parse(path)
			got, err := getValue(p, path, segs, perr)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("getValue(%v, %q): -GetValue, +got:\n%s", o, path, diff)
			}
			if fmt.Sprint(wantErr) != fmt.Sprint(err) || fieldpath.IsNotFound(wantErr) != fieldpath.IsNotFound(err) {
				t.Errorf("getValue(%v, %q): error %v, GetValue gives %v", o, path, err, wantErr)
			}
		}
	}
}
