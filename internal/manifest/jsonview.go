package manifest

import (
	"bytes"
	"sort"
)

// A JSONView reads JSON as encoding/json writes it (compact, keys sorted):
// the kubectl views of the documents (JSON). In that form two values are
// equal exactly when their texts are, which lets a caller compare parts of
// two views without decoding them. Its methods return ok false for
// anything else, and the caller then decodes.
//
// It is a JSON text with the end of each of its objects and
// arrays found in one pass, so that reading a member or an item deep
// inside costs no scanning of what comes before it.
type JSONView struct {
	b      []byte
	opens  []int // the offsets of the `{` and `[`, ascending
	closes []int // the offsets of their `}` and `]`
}

// NewJSONView indexes b; ok false when its brackets do not balance.
func NewJSONView(b []byte) (*JSONView, bool) {
	v := &JSONView{b: b}
	var stack []int
	for i := 0; i < len(b); i++ {
		switch b[i] {
		case '"':
			e, ok := jsonStringEnd(b, i)
			if !ok {
				return nil, false
			}
			i = e - 1
		case '{', '[':
			stack = append(stack, len(v.opens))
			v.opens = append(v.opens, i)
			v.closes = append(v.closes, -1)
		case '}', ']':
			if len(stack) == 0 {
				return nil, false
			}
			k := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if (b[i] == '}') != (b[v.opens[k]] == '{') {
				return nil, false
			}
			v.closes[k] = i
		}
	}
	return v, len(stack) == 0
}

// A Span is a value's text, b[s:e]; the zero span is no value.
type Span struct{ s, e int }

// A Member is one member of a JSON object: its key as written (with its
// quotes) and its value.
type Member struct {
	Key []byte
	Val Span
}

// All is the whole text.
func (v *JSONView) All() Span { return Span{0, len(v.b)} }

// Text returns the text of a value, nil for no value.
func (v *JSONView) Text(sp Span) []byte {
	if sp.e <= sp.s {
		return nil
	}
	return v.b[sp.s:sp.e]
}

// skip returns the end of the value that starts at i.
func (v *JSONView) skip(i, end int) (int, bool) {
	if i >= end {
		return 0, false
	}
	switch v.b[i] {
	case '"':
		return jsonStringEnd(v.b, i)
	case '{', '[':
		k := sort.SearchInts(v.opens, i)
		if k == len(v.opens) || v.opens[k] != i || v.closes[k] >= end {
			return 0, false
		}
		return v.closes[k] + 1, true
	}
	j := i
	for ; j < end; j++ {
		if c := v.b[j]; c == ',' || c == '}' || c == ']' || c == ':' {
			break
		}
	}
	return j, j > i
}

// Members returns the members of the object sp, in order.
func (v *JSONView) Members(sp Span) ([]Member, bool) {
	b := v.b
	if sp.e-sp.s < 2 || b[sp.s] != '{' || b[sp.e-1] != '}' {
		return nil, false
	}
	var out []Member
	i := sp.s + 1
	if b[i] == '}' {
		return out, i+1 == sp.e
	}
	for {
		ke, ok := v.skip(i, sp.e)
		if !ok || b[i] != '"' || ke >= sp.e || b[ke] != ':' {
			return nil, false
		}
		ve, ok := v.skip(ke+1, sp.e)
		if !ok || ve >= sp.e {
			return nil, false
		}
		out = append(out, Member{Key: b[i:ke], Val: Span{ke + 1, ve}})
		switch b[ve] {
		case ',':
			i = ve + 1
		case '}':
			return out, ve+1 == sp.e
		default:
			return nil, false
		}
	}
}

// Items returns the items of the array sp, in order.
func (v *JSONView) Items(sp Span) ([]Span, bool) {
	b := v.b
	if sp.e-sp.s < 2 || b[sp.s] != '[' || b[sp.e-1] != ']' {
		return nil, false
	}
	var out []Span
	i := sp.s + 1
	if b[i] == ']' {
		return out, i+1 == sp.e
	}
	for {
		e, ok := v.skip(i, sp.e)
		if !ok || e >= sp.e {
			return nil, false
		}
		out = append(out, Span{i, e})
		switch b[e] {
		case ',':
			i = e + 1
		case ']':
			return out, e+1 == sp.e
		default:
			return nil, false
		}
	}
}

// Get returns the value of key (plain ASCII, no escapes) in object
// members ms, or no value.
func Get(ms []Member, key string) Span {
	for _, m := range ms {
		if len(m.Key) == len(key)+2 && string(m.Key[1:len(m.Key)-1]) == key {
			return m.Val
		}
	}
	return Span{}
}

// jsonStringEnd returns the end of the string that starts at b[i].
func jsonStringEnd(b []byte, i int) (int, bool) {
	for j := i + 1; j < len(b); {
		k := bytes.IndexByte(b[j:], '"')
		if k < 0 {
			return 0, false
		}
		q := j + k
		escaped := false
		for p := q - 1; p > i && b[p] == '\\'; p-- {
			escaped = !escaped
		}
		if !escaped {
			return q + 1, true
		}
		j = q + 1
	}
	return 0, false
}
