package pipeline

import (
	"math"
	"strings"
	"unicode/utf8"

	"google.golang.org/protobuf/types/known/structpb"
)

// specOf reads a Composition's spec straight from its JSON tree, giving what
// encoding/json gives for the tree's JSON text, inputs included. It reports
// false for anything it cannot vouch for: a value of the wrong type, a
// member whose name matches a field only case-insensitively (encoding/json
// would take it), a typed nil, a string that is not UTF-8, a number JSON
// cannot hold, a value that is not plain JSON data. The caller then decodes
// through JSON text, which also yields the errors.
func specOf(v any) (compositionSpec, bool) {
	var out compositionSpec
	m, ok := v.(map[string]any)
	if !ok || m == nil {
		return out, false
	}
	for k, e := range m {
		switch k {
		case "compositeTypeRef":
			ref, ok := objectOf(e)
			if !ok {
				return out, false
			}
			for k, e := range ref {
				var ok bool
				switch k {
				case "apiVersion":
					ok = setString(&out.CompositeTypeRef.APIVersion, e)
				case "kind":
					ok = setString(&out.CompositeTypeRef.Kind, e)
				default:
					ok = otherMember(k, e, "apiVersion", "kind")
				}
				if !ok {
					return out, false
				}
			}
		case "mode":
			if e == nil {
				continue
			}
			s, ok := e.(string)
			if !ok || !utf8.ValidString(s) {
				return out, false
			}
			out.Mode = &s
		case "pipeline":
			if e == nil {
				continue
			}
			l, ok := e.([]any)
			if !ok || l == nil {
				return out, false
			}
			out.Pipeline = make([]step, len(l))
			for i, se := range l {
				if !stepOf(&out.Pipeline[i], se) {
					return out, false
				}
			}
		default:
			if !otherMember(k, e, "compositeTypeRef", "mode", "pipeline") {
				return out, false
			}
		}
	}
	return out, true
}

func stepOf(s *step, v any) bool {
	m, ok := v.(map[string]any)
	if !ok || m == nil {
		return false
	}
	for k, e := range m {
		switch k {
		case "step":
			if !setString(&s.Step, e) {
				return false
			}
		case "functionRef":
			ref, ok := objectOf(e)
			if !ok {
				return false
			}
			for k, e := range ref {
				var ok bool
				if k == "name" {
					ok = setString(&s.FunctionRef.Name, e)
				} else {
					ok = otherMember(k, e, "name")
				}
				if !ok {
					return false
				}
			}
		case "input":
			if e == nil {
				continue
			}
			in, ok := e.(map[string]any)
			if !ok || in == nil {
				return false
			}
			var b builder
			if s.in, ok = b.plainStruct(in); !ok {
				return false
			}
		case "credentials":
			if e == nil {
				continue
			}
			l, ok := e.([]any)
			if !ok || l == nil {
				return false
			}
			s.Credentials = make([]stepCredentials, len(l))
			for i, ce := range l {
				if !credentialsOf(&s.Credentials[i], ce) {
					return false
				}
			}
		default:
			if !otherMember(k, e, "step", "functionRef", "input", "credentials") {
				return false
			}
		}
	}
	return true
}

func credentialsOf(c *stepCredentials, v any) bool {
	m, ok := v.(map[string]any)
	if !ok || m == nil {
		return false
	}
	for k, e := range m {
		var ok bool
		switch k {
		case "name":
			ok = setString(&c.Name, e)
		case "source":
			ok = setString(&c.Source, e)
		case "secretRef":
			if e == nil {
				continue
			}
			ref, isObj := objectOf(e)
			if !isObj {
				return false
			}
			c.SecretRef = &struct {
				Namespace string `json:"namespace"`
				Name      string `json:"name"`
			}{}
			ok = true
			for k, e := range ref {
				switch k {
				case "namespace":
					ok = setString(&c.SecretRef.Namespace, e)
				case "name":
					ok = setString(&c.SecretRef.Name, e)
				default:
					ok = otherMember(k, e, "namespace", "name")
				}
				if !ok {
					return false
				}
			}
		default:
			ok = otherMember(k, e, "name", "source", "secretRef")
		}
		if !ok {
			return false
		}
	}
	return true
}

// objectOf returns the members of an object that a struct field is decoded
// from; null decodes to nothing.
func objectOf(v any) (map[string]any, bool) {
	if v == nil {
		return nil, true
	}
	m, ok := v.(map[string]any)
	return m, ok && m != nil
}

// setString decodes a string field: null leaves it alone.
func setString(dst *string, v any) bool {
	if v == nil {
		return true
	}
	s, ok := v.(string)
	if !ok || !utf8.ValidString(s) {
		return false
	}
	*dst = s
	return true
}

// otherMember reports whether a member that is not one of the fields may be
// ignored: its name matches no field case-insensitively and its value can be
// encoded.
func otherMember(k string, v any, fields ...string) bool {
	for _, f := range fields {
		if strings.EqualFold(k, f) {
			return false
		}
	}
	return plainJSON(v)
}

// plainJSON reports whether v is plain JSON data that encoding/json encodes
// without error.
func plainJSON(v any) bool {
	switch t := v.(type) {
	case nil, string, bool, int64, int:
		return true
	case float64:
		return !math.IsNaN(t) && !math.IsInf(t, 0)
	case map[string]any:
		for _, e := range t {
			if !plainJSON(e) {
				return false
			}
		}
		return true
	case []any:
		for _, e := range t {
			if !plainJSON(e) {
				return false
			}
		}
		return true
	}
	return false
}

// plainStruct converts a JSON object to the Struct its JSON text decodes to
// (structFromJSON), without the text. It reports false for anything a trip
// through JSON text would change or refuse: typed nils, strings and keys
// that are not UTF-8, numbers JSON cannot hold, values that are not plain
// JSON data.
func (b *builder) plainStruct(m map[string]any) (*structpb.Struct, bool) {
	s := b.a.Struct(len(m))
	for k, e := range m {
		if !utf8.ValidString(k) {
			return nil, false
		}
		v, ok := b.plainValue(e)
		if !ok {
			return nil, false
		}
		s.Fields[k] = v
	}
	return s, true
}

func (b *builder) plainValue(v any) (*structpb.Value, bool) {
	switch t := v.(type) {
	case map[string]any:
		if t == nil {
			return nil, false
		}
		s, ok := b.plainStruct(t)
		if !ok {
			return nil, false
		}
		return b.a.StructValue(s), true
	case []any:
		if t == nil {
			return nil, false
		}
		vals := make([]*structpb.Value, len(t))
		for i, e := range t {
			ev, ok := b.plainValue(e)
			if !ok {
				return nil, false
			}
			vals[i] = ev
		}
		return b.a.ListValue(vals), true
	}
	return b.valueOf(v)
}
