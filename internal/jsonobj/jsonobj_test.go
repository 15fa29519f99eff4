package jsonobj

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestMergePatch(t *testing.T) {
	cases := map[string]struct {
		reason        string
		target, patch map[string]any
		want          map[string]any
	}{
		"NullDeletes": {
			reason: "a null in the patch deletes the key",
			target: map[string]any{"a": "x", "b": "y"},
			patch:  map[string]any{"a": nil},
			want:   map[string]any{"b": "y"},
		},
		"ObjectsMerge": {
			reason: "objects merge key by key and keys absent from the patch stay",
			target: map[string]any{"spec": map[string]any{"old": int64(1), "keep": true}},
			patch:  map[string]any{"spec": map[string]any{"old": int64(2), "new": "n"}},
			want:   map[string]any{"spec": map[string]any{"old": int64(2), "keep": true, "new": "n"}},
		},
		"ListsReplace": {
			reason: "lists are replaced wholesale",
			target: map[string]any{"l": []any{"a", "b"}},
			patch:  map[string]any{"l": []any{"c"}},
			want:   map[string]any{"l": []any{"c"}},
		},
		"ScalarByObject": {
			reason: "an object replaces a scalar",
			target: map[string]any{"a": "x"},
			patch:  map[string]any{"a": map[string]any{"b": "c"}},
			want:   map[string]any{"a": map[string]any{"b": "c"}},
		},
		"NilTarget": {
			reason: "a nil target starts empty",
			patch:  map[string]any{"a": "x"},
			want:   map[string]any{"a": "x"},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got := MergePatch(tc.target, tc.patch)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("\n%s\nMergePatch(...): -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}

func TestDeepCopyIsIndependent(t *testing.T) {
	in := map[string]any{"a": map[string]any{"b": []any{"c"}}}
	out := DeepCopy(in)
	out["a"].(map[string]any)["b"].([]any)[0] = "changed"
	if in["a"].(map[string]any)["b"].([]any)[0] != "c" {
		t.Error("DeepCopy(...): the copy shares a list with the original")
	}
	if got := WithoutStatus(map[string]any{"status": "s", "spec": "x"}); !cmp.Equal(got, map[string]any{"spec": "x"}) {
		t.Errorf("WithoutStatus(...): got %v", got)
	}
}

func TestPruneNulls(t *testing.T) {
	in := map[string]any{"a": nil, "b": map[string]any{"c": nil, "d": int64(1)}, "l": []any{nil, map[string]any{"e": nil}}}
	want := map[string]any{"b": map[string]any{"d": int64(1)}, "l": []any{nil, map[string]any{}}}
	if diff := cmp.Diff(want, PruneNulls(in)); diff != "" {
		t.Errorf("PruneNulls(...): -want, +got:\n%s", diff)
	}
	if in["a"] != nil || len(in) != 3 {
		t.Error("PruneNulls(...): modified its input")
	}
}

func TestValue(t *testing.T) {
	o := map[string]any{"metadata": map[string]any{"name": "x", "labels": map[string]any{"a": "b"}}, "n": int64(1)}
	if got := String(o, "metadata", "name"); got != "x" {
		t.Errorf("String(metadata.name): want x, got %q", got)
	}
	if got := String(o, "n"); got != "" {
		t.Errorf("String(n): want \"\" for a number, got %q", got)
	}
	if got := Value(o, "n", "deeper"); got != nil {
		t.Errorf("Value(n.deeper): want nil through a scalar, got %v", got)
	}
	if got := Value(o, "metadata", "labels"); !cmp.Equal(got, map[string]any{"a": "b"}) {
		t.Errorf("Value(metadata.labels): got %v", got)
	}
}

func TestCopies(t *testing.T) {
	type want struct {
		deepCopyValue any
		copyTree      any
	}
	cases := map[string]struct {
		reason string
		v      any
		want   want
	}{
		"Tree": {
			reason: "objects and lists are copied, scalars kept, by both",
			v:      map[string]any{"a": []any{int64(1), "x", nil}, "b": map[string]any{"c": true}},
			want: want{
				deepCopyValue: map[string]any{"a": []any{int64(1), "x", nil}, "b": map[string]any{"c": true}},
				copyTree:      map[string]any{"a": []any{int64(1), "x", nil}, "b": map[string]any{"c": true}},
			},
		},
		"NilObject": {
			reason: "DeepCopyValue keeps a nil object nil; CopyTree makes it empty",
			v:      map[string]any{"m": map[string]any(nil)},
			want: want{
				deepCopyValue: map[string]any{"m": map[string]any(nil)},
				copyTree:      map[string]any{"m": map[string]any{}},
			},
		},
		"NilList": {
			reason: "both make a nil list empty",
			v:      []any{[]any(nil)},
			want:   want{deepCopyValue: []any{[]any{}}, copyTree: []any{[]any{}}},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got := want{deepCopyValue: DeepCopyValue(tc.v), copyTree: CopyTree(tc.v)}
			if diff := cmp.Diff(tc.want, got, cmp.AllowUnexported(want{})); diff != "" {
				t.Errorf("\n%s\nDeepCopyValue, CopyTree: -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}
