package native

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"

	"github.com/pkg/errors"

	"github.com/xpmigrate/xpmigrate/internal/jsonobj"
	"github.com/xpmigrate/xpmigrate/internal/xp"
	kjson "k8s.io/apimachinery/pkg/util/json"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"sigs.k8s.io/yaml"
)

// The group/version and kind Decode accepts.
const (
	APIVersion = xp.CompositionAPIVersion
	Kind       = "Composition"
)

// Decode reads one apiextensions.crossplane.io/v1 Composition from YAML or
// JSON, and returns what the API server would store before defaulting:
//
//   - YAML is read by sigs.k8s.io/yaml, as kubectl reads it, so YAML 1.1
//     rules apply (an unquoted key `y` becomes "true");
//   - unknown fields are dropped silently (a misspelled `toFieldPaht`
//     disappears), except inside the free-form values (base, map values,
//     match results and fallback values, environment defaultData);
//   - null values are dropped where the schema gives no default, including a
//     null map value, match result or fallback value;
//   - free-form values are re-encoded as compact JSON with sorted keys, as
//     the API server stores them.
//
// A value of the wrong JSON type is an error naming the field. Decode does
// not default (see Default) and does not validate (see Validate).
func Decode(data []byte) (*Composition, error) {
	doc, err := oneDocument(data)
	if err != nil {
		return nil, errors.Wrap(err, "cannot decode Composition")
	}
	return decodeDocument(doc)
}

// DecodeJSON is Decode for what is known to be valid JSON, such as
// json.Marshal's encoding of a Composition object: it skips the check of
// which Decode tells JSON from YAML. Text that is not valid JSON fails
// with the JSON decoder's error, where Decode would read it as YAML.
func DecodeJSON(data []byte) (*Composition, error) {
	if !utilyaml.IsJSONBuffer(data) {
		return Decode(data)
	}
	return decodeDocument(data)
}

// decodeDocument decodes one JSON document.
func decodeDocument(doc []byte) (*Composition, error) {
	// A Composition decodes in one pass. Anything else is read again, type
	// first, for the error a type check first gives.
	c := &Composition{}
	if err := json.Unmarshal(doc, c); err != nil || c.APIVersion != APIVersion || c.Kind != Kind {
		var tm struct {
			APIVersion string `json:"apiVersion"`
			Kind       string `json:"kind"`
		}
		if err := json.Unmarshal(doc, &tm); err != nil {
			return nil, errors.Wrap(err, "cannot decode Composition")
		}
		if tm.APIVersion != APIVersion || tm.Kind != Kind {
			return nil, errors.Errorf("cannot decode Composition: document is apiVersion %q kind %q, not apiVersion %q kind %q", tm.APIVersion, tm.Kind, APIVersion, Kind)
		}
		c = &Composition{}
		if err := json.Unmarshal(doc, c); err != nil {
			return nil, errors.Wrap(err, "cannot decode Composition")
		}
	}
	if err := c.prune(); err != nil {
		return nil, errors.Wrap(err, "cannot decode Composition")
	}
	return c, nil
}

// oneDocument returns the only document in data as JSON.
func oneDocument(data []byte) ([]byte, error) {
	if utilyaml.IsJSONBuffer(data) && json.Valid(data) {
		return data, nil
	}
	r := utilyaml.NewYAMLReader(bufio.NewReader(bytes.NewReader(data)))
	var docs [][]byte
	for {
		chunk, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, errors.Wrap(err, "cannot read YAML")
		}
		j, err := yaml.YAMLToJSON(chunk)
		if err != nil {
			return nil, errors.Wrapf(err, "cannot read YAML document %d", len(docs)+1)
		}
		if isNull(j) {
			continue
		}
		docs = append(docs, j)
	}
	switch len(docs) {
	case 0:
		return nil, errors.New("no document found")
	case 1:
		return docs[0], nil
	default:
		return nil, errors.Errorf("found %d documents, want one", len(docs))
	}
}

// isNull reports whether raw is absent or JSON null.
func isNull(raw []byte) bool {
	b := bytes.TrimSpace(raw)
	return len(b) == 0 || bytes.Equal(b, []byte("null"))
}

// canonical re-encodes a free-form value as the API server stores it:
// decoded by the Kubernetes decoder, encoded compact with sorted keys. Null
// becomes nil.
func canonical(raw json.RawMessage) (json.RawMessage, error) {
	if isNull(raw) {
		return nil, nil
	}
	if plainString(raw) {
		// Decoded and encoded again, it is the same text.
		return append(json.RawMessage(nil), raw...), nil
	}
	var v any
	if err := kjson.Unmarshal(raw, &v); err != nil {
		return nil, err
	}
	return jsonobj.Marshal(v)
}

// plainString reports whether raw is a JSON string of printable ASCII
// without escapes, which json.Marshal would not escape either.
func plainString(raw []byte) bool {
	if len(raw) < 2 || raw[0] != '"' || raw[len(raw)-1] != '"' {
		return false
	}
	for _, c := range raw[1 : len(raw)-1] {
		if c < 0x20 || c >= 0x7f || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			return false
		}
	}
	return true
}

// prune drops what the API server drops and canonicalises free-form values.
func (c *Composition) prune() error {
	return c.pruneExcept(false)
}

// pruneExcept is prune, leaving the bases alone when they are already
// canonical.
func (c *Composition) pruneExcept(canonicalBases bool) error {
	for i := range c.Spec.PatchSets {
		if err := prunePatches(c.Spec.PatchSets[i].Patches); err != nil {
			return errors.Wrapf(err, "spec.patchSets[%d]", i)
		}
	}
	for i := range c.Spec.Resources {
		t := &c.Spec.Resources[i]
		if !canonicalBases {
			b, err := canonical(t.Base)
			if err != nil {
				return errors.Wrapf(err, "spec.resources[%d].base", i)
			}
			t.Base = b
		}
		if err := prunePatches(t.Patches); err != nil {
			return errors.Wrapf(err, "spec.resources[%d]", i)
		}
	}
	if e := c.Spec.Environment; e != nil {
		if err := prunePatches(e.Patches); err != nil {
			return errors.Wrap(err, "spec.environment")
		}
		sel, err := editSelection(e.Selection, func(o map[string]any) { pruneValue(o, selectionShape) })
		if err != nil {
			return errors.Wrap(err, "spec.environment")
		}
		e.Selection = sel
	}
	return nil
}

func prunePatches(ps []Patch) error {
	for i := range ps {
		for j := range ps[i].Transforms {
			if err := pruneTransform(&ps[i].Transforms[j]); err != nil {
				return errors.Wrapf(err, "patches[%d].transforms[%d]", i, j)
			}
		}
	}
	return nil
}

func pruneTransform(t *Transform) error {
	if t.Map != nil {
		for k, v := range t.Map.Pairs {
			if isNull(v) {
				delete(t.Map.Pairs, k)
				continue
			}
			cv, err := canonical(v)
			if err != nil {
				return errors.Wrapf(err, "map[%s]", k)
			}
			t.Map.Pairs[k] = cv
		}
	}
	if t.Match == nil {
		return nil
	}
	fv, err := canonical(t.Match.FallbackValue)
	if err != nil {
		return errors.Wrap(err, "match.fallbackValue")
	}
	t.Match.FallbackValue = fv
	for i := range t.Match.Patterns {
		r, err := canonical(t.Match.Patterns[i].Result)
		if err != nil {
			return errors.Wrapf(err, "match.patterns[%d].result", i)
		}
		t.Match.Patterns[i].Result = r
	}
	return nil
}

// A shape is the part of a CRD schema that pruning and defaulting need. A
// shape with neither fields, items nor values is a scalar or a free-form
// value: nothing below it is pruned.
type shape struct {
	fields map[string]*shape // known properties of an object
	items  *shape            // the items of a list
	values *shape            // the values of a map (additionalProperties)
	def    any               // the CRD default, if any
}

// selectionShape is the v1.17 CRD schema of spec.environment without
// patches.
var selectionShape = &shape{fields: map[string]*shape{
	"defaultData": {values: &shape{}},
	"environmentConfigs": {items: &shape{fields: map[string]*shape{
		"type": {def: "Reference"},
		"ref":  {fields: map[string]*shape{"name": {}}},
		"selector": {fields: map[string]*shape{
			"mode":            {def: "Single"},
			"maxMatch":        {},
			"minMatch":        {},
			"sortByFieldPath": {def: "metadata.name"},
			"matchLabels": {items: &shape{fields: map[string]*shape{
				"key":                 {},
				"type":                {def: "FromCompositeFieldPath"},
				"valueFromFieldPath":  {},
				"fromFieldPathPolicy": {def: "Required"},
				"value":               {},
			}}},
		}},
	}}},
	"policy": {fields: map[string]*shape{
		"resolve":    {},
		"resolution": {def: "Required"},
	}},
}}

// pruneValue drops unknown fields, and nulls that have no default, from v.
func pruneValue(v any, s *shape) {
	switch t := v.(type) {
	case map[string]any:
		switch {
		case s.fields != nil:
			for k, e := range t {
				fs, ok := s.fields[k]
				if !ok || (e == nil && fs.def == nil) {
					delete(t, k)
					continue
				}
				pruneValue(e, fs)
			}
		case s.values != nil:
			for k, e := range t {
				if e == nil && s.values.def == nil {
					delete(t, k)
					continue
				}
				pruneValue(e, s.values)
			}
		}
	case []any:
		if s.items == nil {
			return
		}
		for _, e := range t {
			pruneValue(e, s.items)
		}
	}
}

// defaultValue sets the defaults of absent or null fields in v.
func defaultValue(v any, s *shape) {
	switch t := v.(type) {
	case map[string]any:
		for k, fs := range s.fields {
			if e, ok := t[k]; fs.def != nil && (!ok || e == nil) {
				t[k] = fs.def
			}
		}
		for k, e := range t {
			if fs, ok := s.fields[k]; ok {
				defaultValue(e, fs)
			}
		}
	case []any:
		if s.items == nil {
			return
		}
		for _, e := range t {
			defaultValue(e, s.items)
		}
	}
}

// editSelection decodes a selection object, lets fn edit it and encodes it
// again. An empty result is nil.
func editSelection(sel json.RawMessage, fn func(map[string]any)) (json.RawMessage, error) {
	if isNull(sel) {
		return nil, nil
	}
	o := map[string]any{}
	if err := kjson.Unmarshal(sel, &o); err != nil {
		return nil, err
	}
	fn(o)
	if len(o) == 0 {
		return nil, nil
	}
	return json.Marshal(o)
}
