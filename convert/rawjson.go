package convert

import (
	"bytes"
	"sort"

	"github.com/xpmigrate/xpmigrate/internal/xp"
)

// The helpers below read JSON as encoding/json writes it (compact, keys
// sorted): the kubectl views of the documents. In that form two values
// are equal exactly when their texts are, which lets the round-trip check
// compare parts of the views without decoding them. They return ok false
// for anything else, and the caller then decodes.

// A jsonView is a JSON text with the end of each of its objects and
// arrays found in one pass, so that reading a member or an item deep
// inside costs no scanning of what comes before it.
type jsonView struct {
	b      []byte
	opens  []int // the offsets of the `{` and `[`, ascending
	closes []int // the offsets of their `}` and `]`
}

// newJSONView indexes b; ok false when its brackets do not balance.
func newJSONView(b []byte) (*jsonView, bool) {
	v := &jsonView{b: b}
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

// A jsonSpan is a value's text, b[s:e]; the zero span is no value.
type jsonSpan struct{ s, e int }

// jsonMember is one member of a JSON object: its key as written (with its
// quotes) and its value.
type jsonMember struct {
	key []byte
	val jsonSpan
}

func (v *jsonView) all() jsonSpan { return jsonSpan{0, len(v.b)} }

// text returns the text of a value, nil for no value.
func (v *jsonView) text(sp jsonSpan) []byte {
	if sp.e <= sp.s {
		return nil
	}
	return v.b[sp.s:sp.e]
}

// skip returns the end of the value that starts at i.
func (v *jsonView) skip(i, end int) (int, bool) {
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

// members returns the members of the object sp, in order.
func (v *jsonView) members(sp jsonSpan) ([]jsonMember, bool) {
	b := v.b
	if sp.e-sp.s < 2 || b[sp.s] != '{' || b[sp.e-1] != '}' {
		return nil, false
	}
	var out []jsonMember
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
		out = append(out, jsonMember{key: b[i:ke], val: jsonSpan{ke + 1, ve}})
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

// items returns the items of the array sp, in order.
func (v *jsonView) items(sp jsonSpan) ([]jsonSpan, bool) {
	b := v.b
	if sp.e-sp.s < 2 || b[sp.s] != '[' || b[sp.e-1] != ']' {
		return nil, false
	}
	var out []jsonSpan
	i := sp.s + 1
	if b[i] == ']' {
		return out, i+1 == sp.e
	}
	for {
		e, ok := v.skip(i, sp.e)
		if !ok || e >= sp.e {
			return nil, false
		}
		out = append(out, jsonSpan{i, e})
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

// jsonGet returns the value of key (plain ASCII, no escapes) in object
// members ms, or no value.
func jsonGet(ms []jsonMember, key string) jsonSpan {
	for _, m := range ms {
		if len(m.key) == len(key)+2 && string(m.key[1:len(m.key)-1]) == key {
			return m.val
		}
	}
	return jsonSpan{}
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

// serverKeys are the keys stripServer removes, as JSON strings.
var serverKeys = func() [][]byte {
	var ks [][]byte
	for _, k := range xp.ServerFields {
		ks = append(ks, []byte(`"`+k+`"`))
	}
	return append(ks, []byte(`"`+xp.AnnotationLastApplied+`"`))
}()

// keptByText reports whether the parts of a whole-document Composition
// that checkRoundTrip compares have the same text in before and after
// (kubectl views). Equal texts mean equal values, so checkRoundTrip has
// nothing to report; false means it must decode and compare.
func (c *composition) keptByText(before, after []byte) bool {
	if c.base != "" {
		return false
	}
	bv, ok := newJSONView(before)
	if !ok {
		return false
	}
	av := c.outView
	if av == nil || !bytes.Equal(after, c.outJSON) {
		if av, ok = newJSONView(after); !ok {
			return false
		}
	}
	bm, ok := bv.members(bv.all())
	if !ok {
		return false
	}
	am, ok := av.members(av.all())
	if !ok {
		return false
	}
	for _, k := range []string{"apiVersion", "kind", "metadata"} {
		if !bytes.Equal(bv.text(jsonGet(bm, k)), av.text(jsonGet(am, k))) {
			return false
		}
	}
	if !c.r.o.KeepServerFields {
		md := bv.text(jsonGet(bm, "metadata"))
		for _, k := range serverKeys {
			if bytes.Contains(md, k) {
				return false // stripServer would change it
			}
		}
	}
	bs, ok := bv.members(jsonGet(bm, "spec"))
	if !ok {
		return false
	}
	as, ok := av.members(jsonGet(am, "spec"))
	if !ok {
		return false
	}
	for _, m := range bs {
		switch string(m.key) {
		case `"resources"`, `"patchSets"`, `"environment"`, `"mode"`, `"pipeline"`, `"publishConnectionDetailsWithStoreConfigRef"`:
			continue
		}
		k := string(m.key[1 : len(m.key)-1])
		if bytes.ContainsRune(m.key, '\\') || !bytes.Equal(bv.text(m.val), av.text(jsonGet(as, k))) {
			return false
		}
	}
	if string(bv.text(jsonGet(bs, "mode"))) == `"Pipeline"` {
		return true
	}
	res, ok := bv.items(jsonGet(bs, "resources"))
	if !ok {
		return false
	}
	var outRes jsonSpan
	if c.r.o.Phase1 {
		outRes = jsonGet(as, "resources")
	} else {
		steps, ok := av.items(jsonGet(as, "pipeline"))
		if !ok {
			return false
		}
		for _, s := range steps {
			sm, ok := av.members(s)
			if !ok {
				return false
			}
			in, ok := av.members(jsonGet(sm, "input"))
			if !ok {
				return false
			}
			if string(av.text(jsonGet(in, "apiVersion"))) == `"`+PTInputAPIVersion+`"` {
				outRes = jsonGet(in, "resources")
			}
		}
	}
	out, ok := av.items(outRes)
	if !ok || len(out) != len(res) {
		return false
	}
	for i := range res {
		b, ok := bv.members(res[i])
		if !ok {
			return false
		}
		a, ok := av.members(out[i])
		if !ok || !bytes.Equal(bv.text(jsonGet(b, "base")), av.text(jsonGet(a, "base"))) {
			return false
		}
	}
	return true
}
