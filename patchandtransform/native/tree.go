package native

import (
	"encoding"
	"encoding/json"
	"reflect"
	"strings"
	"sync"
	"unicode/utf8"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/xpmigrate/xpmigrate/internal/jsonobj"
	pt "github.com/xpmigrate/xpmigrate/patchandtransform"
)

// DecodeTree reads a Composition held as a JSON tree (objects, lists,
// strings, int64, float64, bools and nulls, as the Kubernetes decoder makes
// them) straight into the Go types, with the result Decode gives for the
// tree's JSON text (json.Marshal's). It vouches only for trees whose keys
// are the fields' exact names and whose values have the fields' types, and
// only for Compositions Decode accepts: for any other tree it reports
// false, and the caller decodes the text.
func DecodeTree(o map[string]any) (*Composition, bool) {
	if o == nil {
		return nil, false
	}
	c := &Composition{}
	if !decodeTree(reflect.ValueOf(c).Elem(), o) || c.APIVersion != APIVersion || c.Kind != Kind {
		return nil, false
	}
	if !canonicalBases(c, o) {
		return nil, false
	}
	if err := c.pruneExcept(true); err != nil {
		return nil, false
	}
	return c, true
}

// canonicalBases sets each template's base to its canonical text (see
// canonical) made from the tree: canonical decodes json.Marshal's text of
// the base, which gives what pt.Normalize gives, without the text for
// plain JSON data.
func canonicalBases(c *Composition, o map[string]any) bool {
	spec, _ := o["spec"].(map[string]any)
	list, _ := spec["resources"].([]any)
	if len(list) != len(c.Spec.Resources) {
		return false
	}
	for i, e := range list {
		r, _ := e.(map[string]any)
		x, ok := r["base"]
		if !ok || x == nil {
			c.Spec.Resources[i].Base = nil
			continue
		}
		var v any
		var err error
		if m, ok := x.(map[string]any); ok {
			v, err = pt.NormalizeObject(m)
		} else {
			v, err = pt.Normalize(x)
		}
		if err != nil {
			return false
		}
		b, err := jsonobj.Marshal(v)
		if err != nil {
			return false
		}
		if isNull(b) {
			// A typed nil is written null, as canonical keeps it.
			b = nil
		}
		c.Spec.Resources[i].Base = b
	}
	return true
}

var (
	unmarshalerType     = reflect.TypeFor[json.Unmarshaler]()
	textUnmarshalerType = reflect.TypeFor[encoding.TextUnmarshaler]()
	compositionPkg      = reflect.TypeFor[Composition]().PkgPath()
	mergeOptionsType    = reflect.TypeFor[pt.MergeOptions]()
	templateType        = reflect.TypeFor[ComposedTemplate]()
	objectMetaType      = reflect.TypeFor[metav1.ObjectMeta]()
	mapTransformType    = reflect.TypeFor[MapTransform]()
)

// decodeTree sets v, a zero value, from x as encoding/json would set it
// from x's JSON text, and reports false where it cannot vouch for that.
func decodeTree(v reflect.Value, x any) bool {
	t := v.Type()
	if t.Kind() == reflect.Pointer {
		if x == nil {
			return true // null leaves a pointer nil
		}
		e := reflect.New(t.Elem())
		if !decodeTree(e.Elem(), x) {
			return false
		}
		v.Set(e)
		return true
	}
	if t == objectMetaType {
		if m, ok := x.(map[string]any); ok && plainMeta(v.Addr().Interface().(*metav1.ObjectMeta), m) { //nolint:forcetypeassert // t is the type of *metav1.ObjectMeta.
			return true
		}
	}
	if t == mapTransformType {
		if m, ok := x.(map[string]any); ok && m != nil {
			// UnmarshalJSON keeps each value's text.
			pairs := make(map[string]json.RawMessage, len(m))
			for k, e := range m {
				b, ok := jsonText(e)
				if !ok || !utf8.ValidString(k) {
					return false
				}
				pairs[k] = b
			}
			v.Addr().Interface().(*MapTransform).Pairs = pairs //nolint:forcetypeassert // t is the type of *MapTransform.
			return true
		}
	}
	ptr := reflect.PointerTo(t)
	if ptr.Implements(unmarshalerType) || ptr.Implements(textUnmarshalerType) ||
		(t.Kind() == reflect.Struct && t.PkgPath() != compositionPkg && t != mergeOptionsType) {
		// Types that read JSON themselves, and types of other packages:
		// give them the value's text, as encoding/json does.
		b, ok := jsonText(x)
		return ok && json.Unmarshal(b, v.Addr().Interface()) == nil
	}
	if x == nil {
		return true // null leaves any other value as it is
	}
	switch t.Kind() {
	case reflect.Struct:
		m, ok := x.(map[string]any)
		if !ok {
			return false
		}
		fields := fieldsOf(t)
		if fields == nil {
			return false
		}
		for k, e := range m {
			if t == templateType && k == "base" {
				// canonicalBases makes it from the tree.
				continue
			}
			i, ok := fields[k]
			if !ok {
				// Unknown, or matched without regard to case: the text
				// path knows which.
				return false
			}
			if !decodeTree(v.Field(i), e) {
				return false
			}
		}
		return true
	case reflect.Slice:
		l, ok := x.([]any)
		if !ok {
			return false
		}
		s := reflect.MakeSlice(t, len(l), len(l))
		for i, e := range l {
			if !decodeTree(s.Index(i), e) {
				return false
			}
		}
		v.Set(s)
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
		n, ok := x.(int64)
		if !ok || v.OverflowInt(n) {
			return false
		}
		v.SetInt(n)
		return true
	}
	return false
}

// plainMeta sets md from an object with only a name, a namespace, and
// labels and annotations of strings, all UTF-8, as encoding/json would, and
// reports false, having set nothing, for any other object.
func plainMeta(md *metav1.ObjectMeta, m map[string]any) bool {
	var out metav1.ObjectMeta
	for k, e := range m {
		switch k {
		case "name", "namespace":
			s, ok := e.(string)
			if !ok || !utf8.ValidString(s) {
				return false
			}
			if k == "name" {
				out.Name = s
			} else {
				out.Namespace = s
			}
		case "labels", "annotations":
			sm, ok := plainStrings(e)
			if !ok {
				return false
			}
			if k == "labels" {
				out.Labels = sm
			} else {
				out.Annotations = sm
			}
		default:
			return false
		}
	}
	*md = out
	return true
}

// plainStrings reads an object of UTF-8 strings into a new map.
func plainStrings(x any) (map[string]string, bool) {
	m, ok := x.(map[string]any)
	if !ok || m == nil {
		return nil, false
	}
	out := make(map[string]string, len(m))
	for k, e := range m {
		s, ok := e.(string)
		if !ok || !utf8.ValidString(s) || !utf8.ValidString(k) {
			return nil, false
		}
		out[k] = s
	}
	return out, true
}

// jsonText is json.Marshal's text of x.
func jsonText(x any) ([]byte, bool) {
	b, err := jsonobj.Marshal(x)
	return b, err == nil
}

// fieldTables maps a struct type to its fields by JSON name (nil for a type
// the decoder leaves to the text path).
var fieldTables sync.Map

func fieldsOf(t reflect.Type) map[string]int {
	if f, ok := fieldTables.Load(t); ok {
		return f.(map[string]int) //nolint:forcetypeassert // The table holds only these.
	}
	f := map[string]int{}
	for i := range t.NumField() {
		sf := t.Field(i)
		if sf.Anonymous {
			f = nil
			break
		}
		if !sf.IsExported() {
			continue
		}
		tag := sf.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if strings.Contains(","+opts+",", ",string,") {
			f = nil
			break
		}
		if name == "" {
			name = sf.Name
		}
		f[name] = i
	}
	fieldTables.Store(t, f)
	return f
}
