package jsonobj

import (
	"encoding"
	"encoding/json"
	"math"
	"reflect"
	"strings"
	"sync"
	"unicode/utf8"
)

// TreeOptions say which text decoder DecodeTree answers for.
type TreeOptions struct {
	// Strict answers for sigs.k8s.io/json's UnmarshalStrict with
	// DisallowUnknownFields: member names match fields exactly and an
	// unknown member is an error. Without it DecodeTree answers for
	// encoding/json's Unmarshal, which matches names without regard to case
	// and ignores unknown members.
	Strict bool

	// Skip names struct members that the caller reads from the tree
	// itself: DecodeTree leaves their fields alone.
	Skip func(t reflect.Type, member string) bool
}

// A TreeUnmarshaler reads itself from a JSON tree, as DecodeTree reads
// other values: it reports false where it cannot vouch that the result is
// what its UnmarshalJSON gives for the tree's JSON text (Marshal's). The
// receiver is a zero value.
type TreeUnmarshaler interface {
	UnmarshalTree(x any) bool
}

// DecodeTree sets *v, which must be a zero value, from the JSON tree x
// (objects, lists, strings, float64, int64, int, bools and nils, as the
// Kubernetes decoder and structpb's AsMap make them) as the text decoder
// o names would set it from x's JSON text, Marshal's. It reports whether
// it can vouch for that; when it cannot (a member it does not know, a value
// of another type, a number the field cannot hold exactly, a string that is
// not UTF-8, a typed nil, a Go type it does not handle), *v is unspecified
// and the caller decodes the text, which also yields the errors.
//
// Values whose type reads JSON itself (json.Unmarshaler,
// encoding.TextUnmarshaler) are given their text, unless the type is a
// TreeUnmarshaler. DecodeTree reads JSON trees only: a value of any other
// Go type, even one Marshal can write, goes to the text path.
//
//	var c Config
//	if !jsonobj.DecodeTree(tree, &c, jsonobj.TreeOptions{}) {
//		b, _ := jsonobj.Marshal(tree)
//		err = json.Unmarshal(b, &c)
//	}
func DecodeTree(x, v any, o TreeOptions) bool {
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer || rv.IsNil() {
		return false
	}
	d := treeDecoder{o: o}
	return d.value(rv.Elem(), x)
}

type treeDecoder struct {
	o TreeOptions
}

var (
	treeUnmarshalerType = reflect.TypeFor[TreeUnmarshaler]()
	unmarshalerType     = reflect.TypeFor[json.Unmarshaler]()
	textUnmarshalerType = reflect.TypeFor[encoding.TextUnmarshaler]()
)

// exactInt bounds the integers a float64 holds whose JSON text is their
// exact decimal digits.
const exactInt = 1 << 53

func (d *treeDecoder) value(v reflect.Value, x any) bool {
	t := v.Type()
	if t.Kind() == reflect.Pointer {
		if x == nil {
			return true // null leaves a pointer nil
		}
		e := reflect.New(t.Elem())
		if !d.value(e.Elem(), x) {
			return false
		}
		v.Set(e)
		return true
	}
	ptr := reflect.PointerTo(t)
	if ptr.Implements(treeUnmarshalerType) {
		return v.Addr().Interface().(TreeUnmarshaler).UnmarshalTree(x) //nolint:forcetypeassert // ptr implements it.
	}
	if ptr.Implements(unmarshalerType) || ptr.Implements(textUnmarshalerType) {
		// Types that read JSON themselves get the value's text, as the
		// text decoders give it to them.
		b, ok := Text(x)
		return ok && json.Unmarshal(b, v.Addr().Interface()) == nil
	}
	if x == nil {
		return true // null leaves any other value as it is
	}
	switch t.Kind() {
	case reflect.Struct:
		return d.object(v, x)
	case reflect.Slice:
		l, ok := x.([]any)
		if !ok || l == nil {
			return false
		}
		s := reflect.MakeSlice(t, len(l), len(l))
		for i, e := range l {
			if !d.value(s.Index(i), e) {
				return false
			}
		}
		v.Set(s)
		return true
	case reflect.Map:
		m, ok := x.(map[string]any)
		if !ok || m == nil || t.Key().Kind() != reflect.String || t.Key().Implements(textUnmarshalerType) {
			return false
		}
		out := reflect.MakeMapWithSize(t, len(m))
		for k, e := range m {
			if !utf8.ValidString(k) {
				return false
			}
			ev := reflect.New(t.Elem()).Elem()
			if !d.value(ev, e) {
				return false
			}
			out.SetMapIndex(reflect.ValueOf(k).Convert(t.Key()), ev)
		}
		v.Set(out)
		return true
	case reflect.String:
		s, ok := x.(string)
		if !ok || !utf8.ValidString(s) {
			return false
		}
		v.SetString(s)
		return true
	case reflect.Bool:
		b, ok := x.(bool)
		if !ok {
			return false
		}
		v.SetBool(b)
		return true
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		n, ok := integer(x)
		if !ok || v.OverflowInt(n) {
			return false
		}
		v.SetInt(n)
		return true
	case reflect.Float64:
		f, ok := number(x)
		if !ok {
			return false
		}
		v.SetFloat(f)
		return true
	}
	return false
}

// integer returns the integer a number holds when its JSON text is that
// integer's digits.
func integer(x any) (int64, bool) {
	switch n := x.(type) {
	case int64:
		return n, true
	case int:
		return int64(n), true
	case float64:
		if n != math.Trunc(n) || math.Abs(n) >= exactInt {
			return 0, false
		}
		return int64(n), true
	}
	return 0, false
}

// number returns the float64 a number's JSON text is read as.
func number(x any) (float64, bool) {
	switch n := x.(type) {
	case int64:
		return float64(n), true // the nearest float64, as parsing its digits gives
	case int:
		return float64(n), true
	case float64:
		return n, !math.IsNaN(n) && !math.IsInf(n, 0)
	}
	return 0, false
}

func (d *treeDecoder) object(v reflect.Value, x any) bool {
	t := v.Type()
	m, ok := x.(map[string]any)
	if !ok || m == nil {
		return false
	}
	fs := fieldsOf(t)
	if fs == nil {
		return false
	}
	for k, e := range m {
		f, ok := fs.byName[k]
		if !ok {
			if !d.ignorable(fs, k, e) {
				return false
			}
			continue
		}
		if d.o.Skip != nil && d.o.Skip(t, k) {
			continue
		}
		if !d.value(v.FieldByIndex(f), e) {
			return false
		}
	}
	return true
}

// ignorable reports whether the text decoder ignores member k: it is
// unknown, matches no field without regard to case (encoding/json would
// take it), and its value is plain JSON data that can be written.
func (d *treeDecoder) ignorable(fs *fields, k string, e any) bool {
	if d.o.Strict {
		return false
	}
	for _, name := range fs.names {
		if strings.EqualFold(k, name) {
			return false
		}
	}
	_, ok := appendJSON(nil, e)
	return ok
}

// Text returns the JSON text of x, Marshal's, when x is plain JSON data
// that JSON can write (see Marshal), and false for anything else.
func Text(x any) ([]byte, bool) {
	return appendJSON(nil, x)
}

// fields are a struct type's members by JSON name, each the index of its
// field (promoted fields of embedded structs included).
type fields struct {
	byName map[string][]int
	names  []string
}

// fieldTables maps a struct type to its *fields, or to nil for a type the
// decoder leaves to the text path.
var fieldTables sync.Map

func fieldsOf(t reflect.Type) *fields {
	if f, ok := fieldTables.Load(t); ok {
		return f.(*fields) //nolint:forcetypeassert // The table holds only these.
	}
	f := &fields{byName: map[string][]int{}}
	if !f.add(t, nil) {
		f = nil
	} else {
		// A second field whose name differs only in case would make
		// encoding/json's choice depend on the text's order.
		for i, a := range f.names {
			for _, b := range f.names[i+1:] {
				if strings.EqualFold(a, b) {
					f = nil
				}
			}
			if f == nil {
				break
			}
		}
	}
	fieldTables.Store(t, f)
	return f
}

// add adds the members of struct type t, whose fields sit at index in the
// outer struct; false for a struct the decoder leaves to the text path.
func (f *fields) add(t reflect.Type, index []int) bool {
	for i := range t.NumField() {
		sf := t.Field(i)
		tag := sf.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if strings.Contains(","+opts+",", ",string,") || strings.ContainsAny(name, "\"\\") {
			// encoding/json quotes the value, or uses the Go name for a
			// tag name it finds invalid.
			return false
		}
		at := append(append([]int(nil), index...), i)
		if sf.Anonymous && name == "" {
			// encoding/json promotes the fields of an embedded struct.
			if sf.Type.Kind() != reflect.Struct || !sf.IsExported() || !f.add(sf.Type, at) {
				return false
			}
			continue
		}
		if !sf.IsExported() {
			if sf.Anonymous {
				return false
			}
			continue
		}
		if name == "" {
			name = sf.Name
		}
		if _, dup := f.byName[name]; dup {
			return false
		}
		f.byName[name] = at
		f.names = append(f.names, name)
	}
	return true
}

// MemberTexts returns the JSON text (Marshal's) of each member of the
// object x, as json.Unmarshal into a map[string]json.RawMessage gives it
// from x's text; null gives a nil map. It reports false for anything else,
// and for members the text would change (keys that are not UTF-8) or that
// are not plain JSON data.
func MemberTexts(x any) (map[string]json.RawMessage, bool) {
	if x == nil {
		return nil, true
	}
	m, ok := x.(map[string]any)
	if !ok || m == nil {
		return nil, false
	}
	out := make(map[string]json.RawMessage, len(m))
	for k, e := range m {
		b, ok := Text(e)
		if !ok || !utf8.ValidString(k) {
			return nil, false
		}
		out[k] = b
	}
	return out, true
}
