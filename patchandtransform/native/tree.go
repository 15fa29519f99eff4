package native

import (
	"reflect"

	"github.com/xpmigrate/xpmigrate/internal/jsonobj"
	pt "github.com/xpmigrate/xpmigrate/patchandtransform"
)

// DecodeTree reads a Composition held as a JSON tree (objects, lists,
// strings, int64, float64, bools and nulls, as the Kubernetes decoder makes
// them) straight into the Go types, with the result Decode gives for the
// tree's JSON text (json.Marshal's). It vouches only for trees
// jsonobj.DecodeTree vouches for, and only for Compositions Decode
// accepts: for any other tree it reports false, and the caller decodes the
// text.
func DecodeTree(o map[string]any) (*Composition, bool) {
	if o == nil {
		return nil, false
	}
	c := &Composition{}
	if !jsonobj.DecodeTree(o, c, jsonobj.TreeOptions{Skip: skipBase}) || c.APIVersion != APIVersion || c.Kind != Kind {
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

var templateType = reflect.TypeFor[ComposedTemplate]()

// skipBase leaves a template's base to canonicalBases.
func skipBase(t reflect.Type, member string) bool {
	return t == templateType && member == "base"
}

// UnmarshalTree reads the pairs object from a JSON tree, as UnmarshalJSON
// reads it from text (jsonobj.TreeUnmarshaler).
func (m *MapTransform) UnmarshalTree(x any) bool {
	pairs, ok := jsonobj.MemberTexts(x)
	m.Pairs = pairs
	return ok
}
