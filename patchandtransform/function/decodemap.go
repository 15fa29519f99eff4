package function

import (
	"encoding/json"
	"math"
	"unicode/utf8"

	"google.golang.org/protobuf/types/known/structpb"
)

// decodeMap reads the input straight from its JSON tree, giving what
// DecodeJSON gives for the tree's JSON text. It reports false for anything
// it cannot vouch for: a member it does not know (strict decoding rejects
// it), a value of the wrong type, a number that is not an exact integer
// where one is wanted, a string that is not UTF-8 (encoding/json would
// change it), metadata (decoded strictly into ObjectMeta), a value that is
// not plain JSON data. The caller then decodes through JSON text, which also
// yields the errors.
//
// Values kept as JSON text (a template's base, map values, match results
// and fallbacks) are encoded with encoding/json, whose output for a value is
// the same inside a document as on its own.
func decodeMap(input map[string]any) (*Resources, bool) {
	if input == nil {
		return nil, false
	}
	return decodeTree(input)
}

// decodeStruct is decodeMap(input.AsMap()), reading the Struct in place.
// Every reader below takes either form of a JSON value: Go values as
// AsMap makes them, or the protobuf Values they are made from (see node).
func decodeStruct(input *structpb.Struct) (*Resources, bool) {
	if input == nil {
		return nil, false
	}
	return decodeTree(input)
}

// node returns the JSON value v holds as the readers below take it: a
// protobuf Value's scalar as AsInterface returns it, its object or list as
// the protobuf message (nil messages read as empty, as AsInterface has
// them). Anything else is returned as it is.
func node(v any) any {
	pv, ok := v.(*structpb.Value)
	if !ok {
		return v
	}
	switch k := pv.GetKind().(type) {
	case *structpb.Value_StructValue:
		if k.StructValue == nil {
			return &structpb.Struct{}
		}
		return k.StructValue
	case *structpb.Value_ListValue:
		if k.ListValue == nil {
			return &structpb.ListValue{}
		}
		return k.ListValue
	}
	return pv.AsInterface()
}

// plain returns v, which node has seen, as the Go value AsMap makes of it.
func plain(v any) any {
	switch t := v.(type) {
	case *structpb.Struct:
		return t.AsMap()
	case *structpb.ListValue:
		return t.AsSlice()
	}
	return v
}

func decodeTree(input any) (*Resources, bool) {
	r := &Resources{}
	ok := members(input, func(k string, v any) bool {
		var ok bool
		switch k {
		case "apiVersion":
			ok = decodeString(v, &r.APIVersion)
		case "kind":
			ok = decodeString(v, &r.Kind)
		case "patchSets":
			ok = decodeList(v, &r.PatchSets, decodePatchSet)
		case "environment":
			ok = decodePtr(v, &r.Environment, decodeEnvironment)
		case "resources":
			ok = decodeList(v, &r.Resources, decodeTemplate)
		case "writeConnectionSecretToRef":
			ok = decodePtr(v, &r.WriteConnectionSecretToRef, decodeConnectionSecretRef)
		}
		return ok
	})
	if !ok {
		return nil, false
	}
	return r, true
}

// members calls f for every member of the object v; it reports false when v
// is not an object or f reports false. Null is an object without members.
func members(v any, f func(k string, v any) bool) bool {
	switch m := node(v).(type) {
	case nil:
		return true
	case map[string]any:
		if m == nil {
			return false
		}
		for k, e := range m {
			if !f(k, e) {
				return false
			}
		}
		return true
	case *structpb.Struct:
		for k, e := range m.GetFields() {
			if !f(k, e) {
				return false
			}
		}
		return true
	}
	return false
}

func decodePtr[T any](v any, dst **T, f func(v any, dst *T) bool) bool {
	if node(v) == nil {
		*dst = nil
		return true
	}
	out := new(T)
	if !f(v, out) {
		return false
	}
	*dst = out
	return true
}

func decodeList[T any](v any, dst *[]T, f func(v any, dst *T) bool) bool {
	var l []any
	switch t := node(v).(type) {
	case nil:
		*dst = nil
		return true
	case []any:
		if t == nil {
			return false
		}
		l = t
	case *structpb.ListValue:
		vals := t.GetValues()
		l = make([]any, len(vals))
		for i, e := range vals {
			l[i] = e
		}
	default:
		return false
	}
	out := make([]T, len(l))
	for i, e := range l {
		// A null element leaves its zero value.
		if node(e) != nil && !f(e, &out[i]) {
			return false
		}
	}
	*dst = out
	return true
}

func decodeString[T ~string](v any, dst *T) bool {
	v = node(v)
	if v == nil {
		return true
	}
	s, ok := v.(string)
	if !ok || !utf8.ValidString(s) {
		return false
	}
	*dst = T(s)
	return true
}

func decodeStringPtr[T ~string](v any, dst **T) bool {
	v = node(v)
	if v == nil {
		*dst = nil
		return true
	}
	s, ok := v.(string)
	if !ok || !utf8.ValidString(s) {
		return false
	}
	t := T(s)
	*dst = &t
	return true
}

// exactInt is the largest magnitude below which every integer is a float64.
const exactInt = 1 << 53

// integer returns the integer a JSON number holds, when it is one that
// JSON text would write as an integer and that float64 holds exactly.
func integer(v any) (int64, bool) {
	switch n := node(v).(type) {
	case float64:
		if n != math.Trunc(n) || math.Abs(n) >= exactInt {
			return 0, false
		}
		return int64(n), true
	case int64:
		return n, true
	case int:
		return int64(n), true
	}
	return 0, false
}

func decodeInt64Ptr(v any, dst **int64) bool {
	if node(v) == nil {
		*dst = nil
		return true
	}
	n, ok := integer(v)
	if !ok {
		return false
	}
	*dst = &n
	return true
}

func decodeIntPtr(v any, dst **int) bool {
	if node(v) == nil {
		*dst = nil
		return true
	}
	n, ok := integer(v)
	if !ok || int64(int(n)) != n {
		return false
	}
	i := int(n)
	*dst = &i
	return true
}

// decodeJSON keeps a value as JSON text; null is empty.
func decodeJSON(v any, dst *JSON) bool {
	v = node(v)
	if v == nil {
		*dst = nil
		return true
	}
	b, err := json.Marshal(plain(v))
	if err != nil {
		return false
	}
	*dst = b
	return true
}

func decodePatchSet(v any, ps *PatchSet) bool {
	return members(v, func(k string, v any) bool {
		switch k {
		case "name":
			return decodeString(v, &ps.Name)
		case "patches":
			return decodeList(v, &ps.Patches, func(v any, p *PatchSetPatch) bool {
				return decodePatch(v, &p.Patch, &p.Type, nil)
			})
		}
		return false
	})
}

func decodeEnvironment(v any, e *Environment) bool {
	return members(v, func(k string, v any) bool {
		if k != "patches" {
			return false
		}
		return decodeList(v, &e.Patches, func(v any, p *EnvironmentPatch) bool {
			return decodePatch(v, &p.Patch, &p.Type, nil)
		})
	})
}

func decodeConnectionSecretRef(v any, r *WriteConnectionSecretToRef) bool {
	return members(v, func(k string, v any) bool {
		switch k {
		case "name":
			return decodeString(v, &r.Name)
		case "namespace":
			return decodeString(v, &r.Namespace)
		case "patches":
			return decodeList(v, &r.Patches, func(v any, p *ConnectionSecretPatch) bool {
				return decodePatch(v, &p.Patch, &p.Type, nil)
			})
		}
		return false
	})
}

func decodeTemplate(v any, t *ComposedTemplate) bool {
	return members(v, func(k string, v any) bool {
		switch k {
		case "name":
			return decodeString(v, &t.Name)
		case "base":
			v = node(v)
			if v == nil {
				t.Base = nil
				return true
			}
			b, err := json.Marshal(plain(v))
			if err != nil {
				return false
			}
			raw := RawObject(b)
			t.Base = &raw
			return true
		case "patches":
			return decodeList(v, &t.Patches, func(v any, p *ComposedPatch) bool {
				return decodePatch(v, &p.Patch, &p.Type, &p.PatchSetName)
			})
		case "connectionDetails":
			return decodeList(v, &t.ConnectionDetails, decodeConnectionDetail)
		case "readinessChecks":
			return decodeList(v, &t.ReadinessChecks, decodeReadinessCheck)
		}
		return false
	})
}

// decodePatch reads a patch of any kind: the members they share, its type
// and, for a template's patch (patchSetName not nil), patchSetName.
func decodePatch(v any, p *Patch, typ *PatchType, patchSetName **string) bool {
	return members(v, func(k string, v any) bool {
		switch k {
		case "type":
			return decodeString(v, typ)
		case "patchSetName":
			return patchSetName != nil && decodeStringPtr(v, patchSetName)
		case "fromFieldPath":
			return decodeStringPtr(v, &p.FromFieldPath)
		case "toFieldPath":
			return decodeStringPtr(v, &p.ToFieldPath)
		case "combine":
			return decodePtr(v, &p.Combine, decodeCombine)
		case "transforms":
			return decodeList(v, &p.Transforms, decodeTransform)
		case "policy":
			return decodePtr(v, &p.Policy, func(v any, pp *PatchPolicy) bool {
				return members(v, func(k string, v any) bool {
					switch k {
					case "fromFieldPath":
						return decodeStringPtr(v, &pp.FromFieldPath)
					case "toFieldPath":
						return decodeStringPtr(v, &pp.ToFieldPath)
					}
					return false
				})
			})
		}
		return false
	})
}

func decodeCombine(v any, c *Combine) bool {
	return members(v, func(k string, v any) bool {
		switch k {
		case "strategy":
			return decodeString(v, &c.Strategy)
		case "variables":
			return decodeList(v, &c.Variables, func(v any, cv *CombineVariable) bool {
				return members(v, func(k string, v any) bool {
					return k == "fromFieldPath" && decodeString(v, &cv.FromFieldPath)
				})
			})
		case "string":
			return decodePtr(v, &c.String, func(v any, s *StringCombine) bool {
				return members(v, func(k string, v any) bool {
					return k == "fmt" && decodeString(v, &s.Format)
				})
			})
		}
		return false
	})
}

func decodeTransform(v any, t *Transform) bool {
	return members(v, func(k string, v any) bool {
		switch k {
		case "type":
			return decodeString(v, &t.Type)
		case "math":
			return decodePtr(v, &t.Math, decodeMath)
		case "map":
			return decodePtr(v, &t.Map, decodeMapTransform)
		case "match":
			return decodePtr(v, &t.Match, decodeMatch)
		case "string":
			return decodePtr(v, &t.String, decodeStringTransform)
		case "convert":
			return decodePtr(v, &t.Convert, func(v any, c *ConvertTransform) bool {
				return members(v, func(k string, v any) bool {
					switch k {
					case "toType":
						return decodeString(v, &c.ToType)
					case "format":
						return decodeStringPtr(v, &c.Format)
					}
					return false
				})
			})
		}
		return false
	})
}

func decodeMath(v any, m *MathTransform) bool {
	return members(v, func(k string, v any) bool {
		switch k {
		case "type":
			return decodeString(v, &m.Type)
		case "multiply":
			return decodeInt64Ptr(v, &m.Multiply)
		case "clampMin":
			return decodeInt64Ptr(v, &m.ClampMin)
		case "clampMax":
			return decodeInt64Ptr(v, &m.ClampMax)
		}
		return false
	})
}

// decodeMapTransform reads the pairs. The plain decoder MapTransform uses
// reads every member, whatever its name.
func decodeMapTransform(v any, m *MapTransform) bool {
	v = node(v)
	if o, ok := v.(map[string]any); !ok || o == nil {
		if _, ok := v.(*structpb.Struct); !ok {
			return false
		}
	}
	m.Pairs = map[string]JSON{}
	return members(v, func(k string, e any) bool {
		if !utf8.ValidString(k) {
			return false
		}
		var j JSON
		if !decodeJSON(e, &j) {
			return false
		}
		m.Pairs[k] = j
		return true
	})
}

func decodeMatch(v any, m *MatchTransform) bool {
	return members(v, func(k string, v any) bool {
		switch k {
		case "patterns":
			return decodeList(v, &m.Patterns, func(v any, p *MatchTransformPattern) bool {
				return members(v, func(k string, v any) bool {
					switch k {
					case "type":
						return decodeString(v, &p.Type)
					case "literal":
						return decodeStringPtr(v, &p.Literal)
					case "regexp":
						return decodeStringPtr(v, &p.Regexp)
					case "result":
						return decodeJSON(v, &p.Result)
					}
					return false
				})
			})
		case "fallbackValue":
			return decodeJSON(v, &m.FallbackValue)
		case "fallbackTo":
			return decodeString(v, &m.FallbackTo)
		}
		return false
	})
}

func decodeStringTransform(v any, s *StringTransform) bool {
	return members(v, func(k string, v any) bool {
		switch k {
		case "type":
			return decodeString(v, &s.Type)
		case "fmt":
			return decodeStringPtr(v, &s.Format)
		case "convert":
			return decodeStringPtr(v, &s.Convert)
		case "trim":
			return decodeStringPtr(v, &s.Trim)
		case "regexp":
			return decodePtr(v, &s.Regexp, func(v any, r *StringTransformRegexp) bool {
				return members(v, func(k string, v any) bool {
					switch k {
					case "match":
						return decodeString(v, &r.Match)
					case "group":
						return decodeIntPtr(v, &r.Group)
					}
					return false
				})
			})
		case "join":
			return decodePtr(v, &s.Join, func(v any, j *StringTransformJoin) bool {
				return members(v, func(k string, v any) bool {
					return k == "separator" && decodeString(v, &j.Separator)
				})
			})
		case "replace":
			return decodePtr(v, &s.Replace, func(v any, r *StringTransformReplace) bool {
				return members(v, func(k string, v any) bool {
					switch k {
					case "search":
						return decodeString(v, &r.Search)
					case "replace":
						return decodeString(v, &r.Replace)
					}
					return false
				})
			})
		}
		return false
	})
}

func decodeConnectionDetail(v any, cd *ConnectionDetail) bool {
	return members(v, func(k string, v any) bool {
		switch k {
		case "name":
			return decodeString(v, &cd.Name)
		case "type":
			return decodeString(v, &cd.Type)
		case "fromConnectionSecretKey":
			return decodeStringPtr(v, &cd.FromConnectionSecretKey)
		case "fromFieldPath":
			return decodeStringPtr(v, &cd.FromFieldPath)
		case "value":
			return decodeStringPtr(v, &cd.Value)
		}
		return false
	})
}

func decodeReadinessCheck(v any, rc *ReadinessCheck) bool {
	return members(v, func(k string, v any) bool {
		switch k {
		case "type":
			return decodeString(v, &rc.Type)
		case "fieldPath":
			return decodeStringPtr(v, &rc.FieldPath)
		case "matchString":
			return decodeStringPtr(v, &rc.MatchString)
		case "matchInteger":
			return decodeInt64Ptr(v, &rc.MatchInteger)
		case "matchCondition":
			return decodePtr(v, &rc.MatchCondition, func(v any, mc *MatchConditionReadinessCheck) bool {
				return members(v, func(k string, v any) bool {
					switch k {
					case "type":
						return decodeString(v, &mc.Type)
					case "status":
						return decodeString(v, &mc.Status)
					}
					return false
				})
			})
		}
		return false
	})
}
