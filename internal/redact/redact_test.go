package redact

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func obj(t *testing.T, s string) map[string]any {
	t.Helper()
	var o map[string]any
	if err := json.Unmarshal([]byte(s), &o); err != nil {
		t.Fatal(err)
	}
	return o
}

func TestFields(t *testing.T) {
	cases := map[string]struct {
		reason string
		obj    string
		want   [][]string
	}{
		"Secret": {
			reason: "A Secret's data and stringData are secret.",
			obj:    `{"apiVersion":"v1","kind":"Secret","data":{"a":"YQ=="}}`,
			want:   [][]string{{"data"}, {"stringData"}},
		},
		"ConfigMap": {
			reason: "A ConfigMap of its own is not secret.",
			obj:    `{"apiVersion":"v1","kind":"ConfigMap","data":{"a":"b"}}`,
		},
		"ObjectV1alpha2Secret": {
			reason: "A Secret wrapped in a provider-kubernetes Object, desired and observed.",
			obj:    `{"apiVersion":"kubernetes.crossplane.io/v1alpha2","kind":"Object","spec":{"forProvider":{"manifest":{"apiVersion":"v1","kind":"Secret"}}},"status":{"atProvider":{"manifest":{"kind":"Secret"}}}}`,
			want: [][]string{
				{"spec", "forProvider", "manifest", "data"}, {"spec", "forProvider", "manifest", "stringData"},
				{"status", "atProvider", "manifest", "data"}, {"status", "atProvider", "manifest", "stringData"},
			},
		},
		"ObjectV1alpha1Secret": {
			reason: "v1alpha1 Objects wrap their manifest in the same place.",
			obj:    `{"apiVersion":"kubernetes.crossplane.io/v1alpha1","kind":"Object","spec":{"forProvider":{"manifest":{"kind":"Secret"}}}}`,
			want:   [][]string{{"spec", "forProvider", "manifest", "data"}, {"spec", "forProvider", "manifest", "stringData"}},
		},
		"NamespacedObjectSecret": {
			reason: "The namespaced Object of provider-kubernetes for Crossplane v2 too.",
			obj:    `{"apiVersion":"kubernetes.m.crossplane.io/v1alpha1","kind":"Object","spec":{"forProvider":{"manifest":{"kind":"Secret"}}}}`,
			want:   [][]string{{"spec", "forProvider", "manifest", "data"}, {"spec", "forProvider", "manifest", "stringData"}},
		},
		"ObjectConfigMapAsSecret": {
			reason: "A wrapped ConfigMap whose values the Object reads as connection details is secret.",
			obj:    `{"apiVersion":"kubernetes.crossplane.io/v1alpha2","kind":"Object","spec":{"connectionDetails":[{"apiVersion":"v1","kind":"ConfigMap","name":"c","namespace":"n","fieldPath":"data.token","toConnectionSecretKey":"token"}],"forProvider":{"manifest":{"kind":"ConfigMap"}}}}`,
			want:   [][]string{{"spec", "forProvider", "manifest", "data"}, {"spec", "forProvider", "manifest", "binaryData"}},
		},
		"ObjectConfigMap": {
			reason: "A wrapped ConfigMap not read as connection details is not secret.",
			obj:    `{"apiVersion":"kubernetes.crossplane.io/v1alpha2","kind":"Object","spec":{"forProvider":{"manifest":{"kind":"ConfigMap"}}}}`,
		},
		"OtherObject": {
			reason: "Another provider's Object kind is not a wrapper.",
			obj:    `{"apiVersion":"example.org/v1","kind":"Object","spec":{"forProvider":{"manifest":{"kind":"Secret"}}}}`,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got := Fields(obj(t, tc.obj))
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s\nFields(...): -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}

func TestObject(t *testing.T) {
	wrapped := `{"apiVersion":"kubernetes.crossplane.io/v1alpha2","kind":"Object","spec":{"forProvider":{"manifest":{"apiVersion":"v1","kind":"Secret","metadata":{"name":"db"},"stringData":{"password":"hunter2"},"data":{"token":"aHVudGVyMg=="}}}}}`
	cases := map[string]struct {
		reason string
		obj    string
		want   string
	}{
		"Wrapped": {
			reason: "Values are digests; a data value by the bytes it encodes; names and keys stay.",
			obj:    wrapped,
			want:   `{"apiVersion":"kubernetes.crossplane.io/v1alpha2","kind":"Object","spec":{"forProvider":{"manifest":{"apiVersion":"v1","kind":"Secret","metadata":{"name":"db"},"stringData":{"password":"` + Digest([]byte("hunter2")) + `"},"data":{"token":"` + Digest([]byte("hunter2")) + `"}}}}}`,
		},
		"NotAnObject": {
			reason: "A data field that is not an object is replaced as a whole.",
			obj:    `{"kind":"Secret","data":"hunter2"}`,
			want:   `{"kind":"Secret","data":"` + Digest([]byte("hunter2")) + `"}`,
		},
		"NonString": {
			reason: "A value that is not a string is digested as JSON.",
			obj:    `{"kind":"Secret","stringData":{"n":42}}`,
			want:   `{"kind":"Secret","stringData":{"n":"` + Digest([]byte(`42`)) + `"}}`,
		},
		"Nothing": {
			reason: "An object without secret values is unchanged.",
			obj:    `{"kind":"Bucket","spec":{"data":{"a":"b"}}}`,
			want:   `{"kind":"Bucket","spec":{"data":{"a":"b"}}}`,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			in := obj(t, tc.obj)
			before := obj(t, tc.obj)
			got := Object(in)
			if diff := cmp.Diff(obj(t, tc.want), got); diff != "" {
				t.Errorf("%s\nObject(...): -want, +got:\n%s", tc.reason, diff)
			}
			if diff := cmp.Diff(before, in); diff != "" {
				t.Errorf("%s\nObject(...) modified its input: -before, +after:\n%s", tc.reason, diff)
			}
		})
	}
}

func TestValue(t *testing.T) {
	o := map[string]any{"kind": "Secret", "metadata": map[string]any{"name": "db"}, "stringData": map[string]any{"password": "hunter2"}}
	cases := map[string]struct {
		reason string
		path   []any
		v      any
		want   any
	}{
		"Leaf": {
			reason: "A secret leaf shows its digest.",
			path:   []any{"stringData", "password"}, v: "hunter2",
			want: Digest([]byte("hunter2")),
		},
		"Parent": {
			reason: "An object holding secret values shows them as digests.",
			path:   []any{"stringData"}, v: o["stringData"],
			want: map[string]any{"password": Digest([]byte("hunter2"))},
		},
		"Whole": {
			reason: "The whole object shows its secret values as digests.",
			path:   nil, v: o,
			want: map[string]any{"kind": "Secret", "metadata": map[string]any{"name": "db"}, "stringData": map[string]any{"password": Digest([]byte("hunter2"))}},
		},
		"Elsewhere": {
			reason: "A value beside the secret ones is shown as is.",
			path:   []any{"metadata", "name"}, v: "db",
			want: "db",
		},
		"Deeper": {
			reason: "A path below a redacted value shows \"(redacted)\".",
			path:   []any{"stringData", "password", "x"}, v: "y",
			want: "(redacted)",
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got := Value(o, tc.path, tc.v)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s\nValue(%v): -want, +got:\n%s", tc.reason, tc.path, diff)
			}
			if s, _ := json.Marshal(got); strings.Contains(string(s), "hunter2") {
				t.Errorf("%s\nValue(%v) = %s: shows the secret", tc.reason, tc.path, s)
			}
		})
	}
}
