package yamledit

import (
	"bytes"
	"encoding/json"
	"slices"
	"strconv"
	"strings"

	"github.com/pkg/errors"
	yaml "go.yaml.in/yaml/v3"
	sigsyaml "sigs.k8s.io/yaml"

	"github.com/xpmigrate/xpmigrate/internal/manifest"
)

// JSON returns the data of node n as kubectl reads it (sigs.k8s.io/yaml:
// YAML 1.1 scalars, merge keys applied, aliases expanded, non-string keys
// turned into strings), as compact JSON with sorted keys — the same bytes
// sigs.k8s.io/yaml.YAMLToJSON gives for a rendering of n. It works on the
// tree, without rendering it, so it can check a rendering.
func JSON(n *yaml.Node) ([]byte, error) {
	if out, ok := treeJSON(n); ok {
		return out, nil
	}
	return dataJSON(n)
}

// JSON returns JSON(d.Node), with room for it sized after the source.
func (d *Doc) JSON() ([]byte, error) {
	if out, ok := treeJSONSized(d.Node, len(d.src)); ok {
		return out, nil
	}
	return dataJSON(d.Node)
}

// dataJSON is JSON the long way: the data as Go values, marshalled.
func dataJSON(n *yaml.Node) ([]byte, error) {
	budget := maxExpanded
	v, err := data(n, 0, &budget)
	if err != nil {
		return nil, err
	}
	return json.Marshal(v)
}

// maxExpanded bounds the nodes a document may expand to through aliases
// (a "billion laughs" document expands exponentially).
const maxExpanded = 4 << 20

func data(n *yaml.Node, depth int, budget *int) (any, error) {
	if depth > 1000 {
		return nil, errors.New("document is nested too deeply")
	}
	if *budget--; *budget < 0 {
		return nil, errors.New("document expands to too many nodes through aliases")
	}
	switch n.Kind {
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			return nil, nil
		}
		return data(n.Content[0], depth+1, budget)
	case yaml.AliasNode:
		if n.Alias == nil {
			return nil, errors.Errorf("unknown anchor %q", n.Value)
		}
		return data(n.Alias, depth+1, budget)
	case yaml.ScalarNode:
		return scalar(n)
	case yaml.SequenceNode:
		out := make([]any, 0, len(n.Content))
		for _, c := range n.Content {
			v, err := data(c, depth+1, budget)
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		}
		return out, nil
	case yaml.MappingNode:
		out := map[string]any{}
		if err := mapping(n, out, depth, map[*yaml.Node]bool{}, budget); err != nil {
			return nil, err
		}
		return out, nil
	}
	return nil, errors.Errorf("unknown node kind %d", n.Kind)
}

// mapping fills out with the entries of m: merged mappings first (the
// first merge wins among them), then m's own keys over them.
func mapping(m *yaml.Node, out map[string]any, depth int, seen map[*yaml.Node]bool, budget *int) error {
	if seen[m] {
		return nil
	}
	seen[m] = true
	for i := 0; i+1 < len(m.Content); i += 2 {
		if !isMergeKey(m.Content[i]) {
			continue
		}
		for _, s := range mergeSources(m.Content[i+1]) {
			s = Resolve(s)
			if s == nil || s.Kind != yaml.MappingNode {
				return errors.New("map merge requires map or sequence of maps as the value")
			}
			merged := map[string]any{}
			if err := mapping(s, merged, depth+1, seen, budget); err != nil {
				return err
			}
			for k, mv := range merged {
				if _, ok := out[k]; !ok {
					out[k] = mv
				}
			}
		}
	}
	own := map[string]any{}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if isMergeKey(m.Content[i]) {
			continue
		}
		k, err := key(m.Content[i])
		if err != nil {
			return err
		}
		v, err := data(m.Content[i+1], depth+1, budget)
		if err != nil {
			return err
		}
		own[k] = v
	}
	for k, v := range own {
		out[k] = v
	}
	return nil
}

func key(n *yaml.Node) (string, error) {
	n = Resolve(n)
	if n == nil || n.Kind != yaml.ScalarNode {
		return "", errors.New("unsupported map key: not a scalar")
	}
	v, err := scalar(n)
	if err != nil {
		return "", err
	}
	switch t := v.(type) {
	case string:
		return t, nil
	case json.RawMessage:
		s := string(t)
		if s == "null" {
			return "", errors.New("unsupported map key: null")
		}
		if f, err := strconv.ParseFloat(s, 64); err == nil && strings.ContainsAny(s, ".eE") {
			return strconv.FormatFloat(f, 'g', -1, 32), nil
		}
		return s, nil
	}
	return "", errors.New("unsupported map key")
}

// stringScalar returns the value of a scalar that kubectl reads as a
// string (scalar's answer, without boxing it), and whether it is one.
func stringScalar(n *yaml.Node) (string, bool) {
	quoted := n.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle|yaml.LiteralStyle|yaml.FoldedStyle) != 0
	tag := n.ShortTag()
	if n.Style&yaml.TaggedStyle != 0 || (n.Tag != "" && !strings.HasPrefix(n.Tag, "!!")) {
		switch tag {
		case TagStr:
			return n.Value, true
		case TagInt, TagFloat, TagBool, TagNull:
		default:
			return n.Value, true // Local tags are dropped, the value kept.
		}
	} else if quoted {
		return n.Value, true
	}
	if !manifest.IsYAML11Special(n.Value) && tag == TagStr {
		return n.Value, true
	}
	return "", false
}

// scalar returns a scalar's value: a string, or the JSON of what YAML 1.1
// reads a plain scalar as.
func scalar(n *yaml.Node) (any, error) {
	if s, ok := stringScalar(n); ok {
		return s, nil
	}
	j, err := sigsyaml.YAMLToJSON([]byte(n.Value))
	if err != nil {
		return nil, errors.Wrapf(err, "cannot read scalar %q", n.Value)
	}
	j = bytes.TrimSpace(j)
	if len(j) > 0 && j[0] == '"' {
		var s string
		if err := json.Unmarshal(j, &s); err != nil {
			return nil, err
		}
		return s, nil
	}
	return json.RawMessage(j), nil
}

// treeJSON writes the JSON of node n straight from the tree, with the same
// bytes as JSON. It declines (ok false) what it does not handle the same
// way, and then JSON builds and marshals the data as before: aliases,
// merge keys, duplicate keys, very deep or large trees, and any error.
func treeJSON(n *yaml.Node) ([]byte, bool) {
	return treeJSONSized(n, 0)
}

// treeJSONSized is treeJSON with room for size bytes of output.
func treeJSONSized(n *yaml.Node, size int) ([]byte, bool) {
	w := treeWriter{budget: maxExpanded / 2, out: make([]byte, 0, size)}
	if !w.value(n, 0) {
		return nil, false
	}
	return w.out, true
}

type treeWriter struct {
	out     []byte
	budget  int
	entries []treeEntry // scratch, reused by nested mappings
}

type treeEntry struct {
	key string
	val *yaml.Node
}

func (w *treeWriter) value(n *yaml.Node, depth int) bool {
	if n == nil || depth > 900 {
		return false
	}
	if w.budget--; w.budget < 0 {
		return false
	}
	switch n.Kind {
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			w.out = append(w.out, "null"...)
			return true
		}
		return w.value(n.Content[0], depth+1)
	case yaml.ScalarNode:
		if s, ok := stringScalar(n); ok {
			w.out = manifest.AppendJSONString(w.out, s)
			return true
		}
		v, err := scalar(n)
		if err != nil {
			return false
		}
		switch t := v.(type) {
		case string:
			w.out = manifest.AppendJSONString(w.out, t)
		case json.RawMessage:
			w.out = append(w.out, t...) // compact and escaped: it is json.Marshal's output
		default:
			return false
		}
		return true
	case yaml.SequenceNode:
		w.out = append(w.out, '[')
		for i, c := range n.Content {
			if i > 0 {
				w.out = append(w.out, ',')
			}
			if !w.value(c, depth+1) {
				return false
			}
		}
		w.out = append(w.out, ']')
		return true
	case yaml.MappingNode:
		return w.mapping(n, depth)
	}
	return false
}

func (w *treeWriter) mapping(m *yaml.Node, depth int) bool {
	if len(m.Content)%2 != 0 {
		return false
	}
	start := len(w.entries)
	defer func() { w.entries = w.entries[:start] }()
	for i := 0; i+1 < len(m.Content); i += 2 {
		k := m.Content[i]
		if k.Kind != yaml.ScalarNode || isMergeKey(k) {
			return false
		}
		ks, ok := stringScalar(k)
		if !ok {
			var err error
			if ks, err = key(k); err != nil {
				return false
			}
		}
		w.entries = append(w.entries, treeEntry{key: ks, val: m.Content[i+1]})
	}
	es := w.entries[start:]
	slices.SortFunc(es, func(a, b treeEntry) int { return strings.Compare(a.key, b.key) })
	for i := 1; i < len(es); i++ {
		if es[i].key == es[i-1].key {
			return false
		}
	}
	w.out = append(w.out, '{')
	for i := range es {
		e := w.entries[start+i] // w.entries may move while values are written
		if i > 0 {
			w.out = append(w.out, ',')
		}
		w.out = manifest.AppendJSONString(w.out, e.key)
		w.out = append(w.out, ':')
		if !w.value(e.val, depth+1) {
			return false
		}
	}
	w.out = append(w.out, '}')
	return true
}
