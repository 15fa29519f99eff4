package jsonobj

import (
	"strconv"
)

// DecodePlainObject decodes a JSON object as k8s.io/apimachinery's
// util/json.Unmarshal does into a map[string]any (integers that fit an
// int64 as int64, other numbers as float64, the last of duplicate keys
// wins), for text whose strings are printable ASCII without escapes, as
// most Kubernetes manifests' are. It returns false for any other text,
// valid or not, and the caller uses the general decoder.
func DecodePlainObject(b []byte) (map[string]any, bool) {
	d := plainDecoder{b: b}
	d.space()
	if d.i >= len(d.b) || d.b[d.i] != '{' {
		return nil, false
	}
	v, ok := d.value(0)
	if !ok {
		return nil, false
	}
	d.space()
	if d.i != len(d.b) {
		return nil, false
	}
	m, _ := v.(map[string]any)
	return m, true
}

type plainDecoder struct {
	b []byte
	i int
}

// maxPlainDepth bounds nesting; deeper text goes to the general decoder.
const maxPlainDepth = 1000

func (d *plainDecoder) space() {
	for d.i < len(d.b) {
		switch d.b[d.i] {
		case ' ', '\t', '\n', '\r':
			d.i++
		default:
			return
		}
	}
}

func (d *plainDecoder) value(depth int) (any, bool) {
	if depth > maxPlainDepth || d.i >= len(d.b) {
		return nil, false
	}
	switch c := d.b[d.i]; {
	case c == '{':
		return d.object(depth)
	case c == '[':
		return d.array(depth)
	case c == '"':
		return d.str()
	case c == 't':
		return true, d.literal("true")
	case c == 'f':
		return false, d.literal("false")
	case c == 'n':
		return nil, d.literal("null")
	case c == '-' || (c >= '0' && c <= '9'):
		return d.number()
	}
	return nil, false
}

func (d *plainDecoder) literal(s string) bool {
	if len(d.b)-d.i < len(s) || string(d.b[d.i:d.i+len(s)]) != s {
		return false
	}
	d.i += len(s)
	return true
}

func (d *plainDecoder) object(depth int) (any, bool) {
	d.i++ // {
	m := map[string]any{}
	d.space()
	if d.i < len(d.b) && d.b[d.i] == '}' {
		d.i++
		return m, true
	}
	for {
		d.space()
		if d.i >= len(d.b) || d.b[d.i] != '"' {
			return nil, false
		}
		k, ok := d.str()
		if !ok {
			return nil, false
		}
		d.space()
		if d.i >= len(d.b) || d.b[d.i] != ':' {
			return nil, false
		}
		d.i++
		d.space()
		v, ok := d.value(depth + 1)
		if !ok {
			return nil, false
		}
		m[k.(string)] = v //nolint:forcetypeassert // str returns strings.
		if done, ok := d.next('}'); !ok {
			return nil, false
		} else if done {
			return m, true
		}
	}
}

func (d *plainDecoder) array(depth int) (any, bool) {
	d.i++ // [
	s := []any{}
	d.space()
	if d.i < len(d.b) && d.b[d.i] == ']' {
		d.i++
		return s, true
	}
	for {
		d.space()
		v, ok := d.value(depth + 1)
		if !ok {
			return nil, false
		}
		s = append(s, v)
		if done, ok := d.next(']'); !ok {
			return nil, false
		} else if done {
			return s, true
		}
	}
}

// next reads what follows a member or an item: a comma (more follow) or
// end (done); ok false for anything else.
func (d *plainDecoder) next(end byte) (done, ok bool) {
	d.space()
	if d.i >= len(d.b) {
		return false, false
	}
	switch d.b[d.i] {
	case ',':
		d.i++
		return false, true
	case end:
		d.i++
		return true, true
	}
	return false, false
}

// str reads a string of printable ASCII without escapes.
func (d *plainDecoder) str() (any, bool) {
	d.i++ // "
	start := d.i
	for d.i < len(d.b) {
		switch c := d.b[d.i]; {
		case c == '"':
			s := string(d.b[start:d.i])
			d.i++
			return s, true
		case c == '\\' || c < 0x20 || c > 0x7e:
			return nil, false
		}
		d.i++
	}
	return nil, false
}

// number reads a number with JSON's grammar and converts it as
// sigs.k8s.io/json does when it preserves integers.
func (d *plainDecoder) number() (any, bool) {
	start := d.i
	if d.b[d.i] == '-' {
		d.i++
	}
	switch {
	case d.i < len(d.b) && d.b[d.i] == '0':
		d.i++
	case d.i < len(d.b) && d.b[d.i] >= '1' && d.b[d.i] <= '9':
		d.digits()
	default:
		return nil, false
	}
	if d.i < len(d.b) && d.b[d.i] == '.' {
		d.i++
		if !d.digits() {
			return nil, false
		}
	}
	if d.i < len(d.b) && (d.b[d.i] == 'e' || d.b[d.i] == 'E') {
		d.i++
		if d.i < len(d.b) && (d.b[d.i] == '+' || d.b[d.i] == '-') {
			d.i++
		}
		if !d.digits() {
			return nil, false
		}
	}
	s := string(d.b[start:d.i])
	if n, err := strconv.ParseInt(s, 10, 64); err == nil {
		return n, true
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return nil, false
	}
	return f, true
}

func (d *plainDecoder) digits() bool {
	start := d.i
	for d.i < len(d.b) && d.b[d.i] >= '0' && d.b[d.i] <= '9' {
		d.i++
	}
	return d.i > start
}
