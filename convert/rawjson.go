package convert

import "bytes"

// The helpers below read JSON as encoding/json writes it (compact, keys
// sorted): the kubectl views of the documents. In that form two values
// are equal exactly when their texts are, which lets the round-trip check
// compare parts of the views without decoding them. They return ok false
// for anything else, and the caller then decodes.

// jsonMember is one member of a JSON object: its key as written (with
// its quotes) and its value's text.
type jsonMember struct {
	key, val []byte
}

// jsonMembers returns the members of object b, in order.
func jsonMembers(b []byte) ([]jsonMember, bool) {
	if len(b) < 2 || b[0] != '{' || b[len(b)-1] != '}' {
		return nil, false
	}
	var out []jsonMember
	i := 1
	if b[i] == '}' {
		return out, i+1 == len(b)
	}
	for {
		ke, ok := jsonSkip(b, i)
		if !ok || b[i] != '"' || ke >= len(b) || b[ke] != ':' {
			return nil, false
		}
		ve, ok := jsonSkip(b, ke+1)
		if !ok || ve >= len(b) {
			return nil, false
		}
		out = append(out, jsonMember{key: b[i:ke], val: b[ke+1 : ve]})
		switch b[ve] {
		case ',':
			i = ve + 1
		case '}':
			return out, ve+1 == len(b)
		default:
			return nil, false
		}
	}
}

// jsonItems returns the items of array b, in order.
func jsonItems(b []byte) ([][]byte, bool) {
	if len(b) < 2 || b[0] != '[' || b[len(b)-1] != ']' {
		return nil, false
	}
	var out [][]byte
	i := 1
	if b[i] == ']' {
		return out, i+1 == len(b)
	}
	for {
		e, ok := jsonSkip(b, i)
		if !ok || e >= len(b) {
			return nil, false
		}
		out = append(out, b[i:e])
		switch b[e] {
		case ',':
			i = e + 1
		case ']':
			return out, e+1 == len(b)
		default:
			return nil, false
		}
	}
}

// jsonGet returns the value of key (plain ASCII, no escapes) in object
// members ms, or nil.
func jsonGet(ms []jsonMember, key string) []byte {
	for _, m := range ms {
		if len(m.key) == len(key)+2 && string(m.key[1:len(m.key)-1]) == key {
			return m.val
		}
	}
	return nil
}

// jsonSkip returns the end of the value that starts at b[i].
func jsonSkip(b []byte, i int) (int, bool) {
	if i >= len(b) {
		return 0, false
	}
	switch b[i] {
	case '"':
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
	case '{', '[':
		depth := 0
		for j := i; j < len(b); j++ {
			switch b[j] {
			case '"':
				e, ok := jsonSkip(b, j)
				if !ok {
					return 0, false
				}
				j = e - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return j + 1, true
				}
			}
		}
		return 0, false
	}
	j := i
	for ; j < len(b); j++ {
		if c := b[j]; c == ',' || c == '}' || c == ']' || c == ':' {
			break
		}
	}
	return j, j > i
}

// serverKeys are the keys stripServer removes, as JSON strings.
var serverKeys = [][]byte{
	[]byte(`"uid"`), []byte(`"resourceVersion"`), []byte(`"generation"`), []byte(`"creationTimestamp"`),
	[]byte(`"managedFields"`), []byte(`"selfLink"`), []byte(`"kubectl.kubernetes.io/last-applied-configuration"`),
}

// keptByText reports whether the parts of a whole-document Composition
// that checkRoundTrip compares have the same text in before and after
// (kubectl views). Equal texts mean equal values, so checkRoundTrip has
// nothing to report; false means it must decode and compare.
func (c *composition) keptByText(before, after []byte) bool {
	if c.base != "" {
		return false
	}
	bm, ok := jsonMembers(before)
	if !ok {
		return false
	}
	am, ok := jsonMembers(after)
	if !ok {
		return false
	}
	for _, k := range []string{"apiVersion", "kind", "metadata"} {
		if !bytes.Equal(jsonGet(bm, k), jsonGet(am, k)) {
			return false
		}
	}
	if !c.r.o.KeepServerFields {
		md := jsonGet(bm, "metadata")
		for _, k := range serverKeys {
			if bytes.Contains(md, k) {
				return false // stripServer would change it
			}
		}
	}
	bs, ok := jsonMembers(jsonGet(bm, "spec"))
	if !ok {
		return false
	}
	as, ok := jsonMembers(jsonGet(am, "spec"))
	if !ok {
		return false
	}
	for _, m := range bs {
		switch string(m.key) {
		case `"resources"`, `"patchSets"`, `"environment"`, `"mode"`, `"pipeline"`, `"publishConnectionDetailsWithStoreConfigRef"`:
			continue
		}
		k := string(m.key[1 : len(m.key)-1])
		if bytes.ContainsRune(m.key, '\\') || !bytes.Equal(m.val, jsonGet(as, k)) {
			return false
		}
	}
	if string(jsonGet(bs, "mode")) == `"Pipeline"` {
		return true
	}
	res, ok := jsonItems(jsonGet(bs, "resources"))
	if !ok {
		return false
	}
	var outRes []byte
	if c.r.o.Phase1 {
		outRes = jsonGet(as, "resources")
	} else {
		steps, ok := jsonItems(jsonGet(as, "pipeline"))
		if !ok {
			return false
		}
		for _, s := range steps {
			sm, ok := jsonMembers(s)
			if !ok {
				return false
			}
			in, ok := jsonMembers(jsonGet(sm, "input"))
			if !ok {
				return false
			}
			if string(jsonGet(in, "apiVersion")) == `"`+PTInputAPIVersion+`"` {
				outRes = jsonGet(in, "resources")
			}
		}
	}
	out, ok := jsonItems(outRes)
	if !ok || len(out) != len(res) {
		return false
	}
	for i := range res {
		b, ok := jsonMembers(res[i])
		if !ok {
			return false
		}
		a, ok := jsonMembers(out[i])
		if !ok || !bytes.Equal(jsonGet(b, "base"), jsonGet(a, "base")) {
			return false
		}
	}
	return true
}
