package redact

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/xpmigrate/xpmigrate/internal/jsonobj"
)

// Digest shows a secret value by its length and a hash only:
// "(7 bytes, sha256:f52fbd32b2b3)".
func Digest(b []byte) string {
	sum := sha256.Sum256(b)
	return fmt.Sprintf("(%d bytes, sha256:%s)", len(b), hex.EncodeToString(sum[:])[:12])
}

// Fields returns the paths in obj of the fields whose values are all
// secret (see the package comment), in a fixed order. Each field may be
// absent from obj.
func Fields(obj map[string]any) [][]string {
	var out [][]string
	kind, _ := obj["kind"].(string)
	if kind == "Secret" {
		out = append(out, []string{"data"}, []string{"stringData"})
	}
	if !wrapper(obj) {
		return out
	}
	cmRef := readsConfigMap(obj)
	for _, at := range [][]string{{"spec", "forProvider", "manifest"}, {"status", "atProvider", "manifest"}} {
		v, _ := jsonobj.Lookup(obj, at...)
		m, ok := v.(map[string]any)
		if !ok {
			continue
		}
		switch k, _ := m["kind"].(string); {
		case k == "Secret":
			out = append(out, with(at, "data"), with(at, "stringData"))
		case k == "ConfigMap" && cmRef:
			out = append(out, with(at, "data"), with(at, "binaryData"))
		}
	}
	return out
}

// Object returns obj with every secret value (Fields) replaced by its
// Digest: a string in data or binaryData by the bytes it encodes in
// base64 (the string itself when it encodes none), any other value by its
// JSON. A field that is not an object is replaced as a whole. obj is not
// modified: the objects on the way to a replaced value are copied. Object
// returns obj itself when it holds no secret value.
func Object(obj map[string]any) map[string]any {
	out, copied := obj, false
	for _, f := range Fields(obj) {
		v, ok := jsonobj.Lookup(out, f...)
		if !ok {
			continue
		}
		if !copied {
			out, copied = shallow(obj), true
		}
		set(out, f, redacted(v, f[len(f)-1] != "stringData"))
	}
	return out
}

// Value returns v, the value at path (field names and list indexes) in
// obj, as Object(obj) shows it: redacted when it lies in or holds a secret
// value. ok is false when path is not in Object(obj) (it goes deeper than
// a redacted value): the value is then "(redacted)".
func Value(obj map[string]any, path []any, v any) any {
	fields := Fields(obj)
	if len(fields) == 0 {
		return v
	}
	touched := false
	for _, f := range fields {
		if overlaps(f, path) {
			touched = true
			break
		}
	}
	if !touched {
		return v
	}
	cur := any(Object(obj))
	for _, s := range path {
		switch s := s.(type) {
		case string:
			m, ok := cur.(map[string]any)
			if !ok {
				return "(redacted)"
			}
			if cur, ok = m[s]; !ok {
				return "(redacted)"
			}
		case int:
			l, ok := cur.([]any)
			if !ok || s < 0 || s >= len(l) {
				return "(redacted)"
			}
			cur = l[s]
		}
	}
	return cur
}

// overlaps reports whether the field f and path are on one line: one a
// prefix of the other.
func overlaps(f []string, path []any) bool {
	for i := 0; i < len(f) && i < len(path); i++ {
		if s, ok := path[i].(string); !ok || s != f[i] {
			return false
		}
	}
	return true
}

func redacted(v any, base64Strings bool) any {
	m, ok := v.(map[string]any)
	if !ok {
		return digestValue(v, false)
	}
	out := make(map[string]any, len(m))
	for k, e := range m {
		out[k] = digestValue(e, base64Strings)
	}
	return out
}

func digestValue(v any, base64String bool) string {
	if s, ok := v.(string); ok {
		if base64String {
			if b, err := base64.StdEncoding.DecodeString(s); err == nil {
				return Digest(b)
			}
		}
		return Digest([]byte(s))
	}
	b, err := json.Marshal(v)
	if err != nil {
		b = []byte(fmt.Sprint(v))
	}
	return Digest(b)
}

// wrapper reports whether obj is a provider-kubernetes Object.
func wrapper(obj map[string]any) bool {
	if k, _ := obj["kind"].(string); k != "Object" {
		return false
	}
	av, _ := obj["apiVersion"].(string)
	group, _, _ := strings.Cut(av, "/")
	return group == "kubernetes.crossplane.io" || group == "kubernetes.m.crossplane.io"
}

// readsConfigMap reports whether an Object's spec.connectionDetails read
// from a ConfigMap.
func readsConfigMap(obj map[string]any) bool {
	v, _ := jsonobj.Lookup(obj, "spec", "connectionDetails")
	cds, _ := v.([]any)
	for _, cd := range cds {
		m, _ := cd.(map[string]any)
		if k, _ := m["kind"].(string); k == "ConfigMap" {
			return true
		}
		if ref, ok := m["objectReference"].(map[string]any); ok {
			if k, _ := ref["kind"].(string); k == "ConfigMap" {
				return true
			}
		}
	}
	return false
}

func with(p []string, f string) []string {
	out := make([]string, len(p), len(p)+1)
	copy(out, p)
	return append(out, f)
}

// set sets path in out, copying each object on the way (out itself is a
// copy already).
func set(out map[string]any, path []string, v any) {
	cur := out
	for _, f := range path[:len(path)-1] {
		next := shallow(cur[f].(map[string]any)) //nolint:forcetypeassert // lookup found path in the original.
		cur[f] = next
		cur = next
	}
	cur[path[len(path)-1]] = v
}

func shallow(m map[string]any) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}
