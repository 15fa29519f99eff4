package jsonobj

import (
	"encoding/json"
	"math"
	"slices"
	"strconv"
	"unicode/utf8"
)

// Marshal returns the JSON text of a JSON value, byte for byte what
// json.Marshal returns (keys sorted, compact, the same escapes and number
// forms), without reflection for plain JSON data: objects, lists, strings,
// float64, int64, int, bool and nil. Anything else is left to json.Marshal.
func Marshal(v any) ([]byte, error) {
	if b, ok := appendJSON(make([]byte, 0, 1024), v); ok {
		return b, nil
	}
	return json.Marshal(v)
}

// SortedKeys returns the keys of m in increasing order (as Marshal writes
// an object's members); an empty slice, not nil, for an empty m.
func SortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// appendJSON appends the JSON text of v to b; false means v is not plain
// JSON data, or a number JSON cannot hold.
func appendJSON(b []byte, v any) ([]byte, bool) {
	switch t := v.(type) {
	case nil:
		return append(b, "null"...), true
	case string:
		return appendString(b, t), true
	case bool:
		return strconv.AppendBool(b, t), true
	case int64:
		return strconv.AppendInt(b, t, 10), true
	case int:
		return strconv.AppendInt(b, int64(t), 10), true
	case float64:
		return appendFloat(b, t)
	case map[string]any:
		if t == nil {
			return append(b, "null"...), true
		}
		// Not SortedKeys: a slice that does not escape may live on the
		// stack.
		keys := make([]string, 0, len(t))
		for k := range t {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		b = append(b, '{')
		for i, k := range keys {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendString(b, k)
			b = append(b, ':')
			var ok bool
			if b, ok = appendJSON(b, t[k]); !ok {
				return b, false
			}
		}
		return append(b, '}'), true
	case []any:
		if t == nil {
			return append(b, "null"...), true
		}
		b = append(b, '[')
		for i, e := range t {
			if i > 0 {
				b = append(b, ',')
			}
			var ok bool
			if b, ok = appendJSON(b, e); !ok {
				return b, false
			}
		}
		return append(b, ']'), true
	}
	return b, false
}

// appendString appends s quoted. Strings of printable ASCII that needs no
// escape (json.Marshal also escapes <, > and &) are copied; any other is
// left to json.Marshal, which knows every escape.
func appendString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c >= 0x80 || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			q, _ := json.Marshal(s) // a string always encodes
			return append(b, q...)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}

// appendFloat appends f as json.Marshal writes a float64: like %g, but
// with exponents only below 1e-6 and from 1e21, written without padding.
func appendFloat(b []byte, f float64) ([]byte, bool) {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return b, false
	}
	abs := math.Abs(f)
	if abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		q, err := json.Marshal(f)
		if err != nil {
			return b, false
		}
		return append(b, q...), true
	}
	return strconv.AppendFloat(b, f, 'f', -1, 64), true
}

// Verbatim reports whether v is a JSON tree that its JSON text (Marshal)
// writes as it is: plain JSON data (objects, lists, strings, float64,
// int64, int, bool and nil) without nil objects or lists (written null),
// with strings and keys in UTF-8 (others are written with U+FFFD) and
// numbers JSON can write (not NaN or an infinity). Decoding the text
// gives v back, up to the Go types of its numbers.
func Verbatim(v any) bool { return plainTree(v, false) }

// Decoded reports whether v is what a trip through JSON and the Kubernetes
// decoder gives back unchanged: a Verbatim tree without ints, whose
// float64s are those the decoder keeps as float64 (it reads integral
// numbers below 1e21 as int64). It may say false of such a value (large
// integral floats), never true of another.
func Decoded(v any) bool { return plainTree(v, true) }

// plainTree is Verbatim, or with decoded Decoded.
func plainTree(v any, decoded bool) bool {
	switch t := v.(type) {
	case nil, bool, int64:
		return true
	case int:
		return !decoded
	case string:
		return utf8.ValidString(t)
	case float64:
		return !math.IsNaN(t) && !math.IsInf(t, 0) && (!decoded || t != math.Trunc(t) || math.Abs(t) >= 1e21)
	case map[string]any:
		if t == nil {
			return false
		}
		for k, e := range t {
			if !utf8.ValidString(k) || !plainTree(e, decoded) {
				return false
			}
		}
		return true
	case []any:
		if t == nil {
			return false
		}
		for _, e := range t {
			if !plainTree(e, decoded) {
				return false
			}
		}
		return true
	}
	return false
}
