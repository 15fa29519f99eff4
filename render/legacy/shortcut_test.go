package legacy

import (
	"encoding/json"
	"testing"

	"github.com/crossplane/crossplane-runtime/v2/pkg/fieldpath"
	"github.com/google/go-cmp/cmp"

	"github.com/xpmigrate/xpmigrate/internal/jsonobj"
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
