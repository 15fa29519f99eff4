package yamledit

import (
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/xpmigrate/xpmigrate/internal/manifest"
)

// Tags of the YAML core schema, as yaml.v3 writes them.
const (
	TagStr   = "!!str"
	TagMap   = "!!map"
	TagSeq   = "!!seq"
	TagNull  = "!!null"
	TagBool  = "!!bool"
	TagInt   = "!!int"
	TagFloat = "!!float"
	tagMerge = "!!merge"
)

// Resolve follows an alias to the node it names. Other nodes, and nil, are
// returned as they are.
func Resolve(n *yaml.Node) *yaml.Node {
	for i := 0; n != nil && n.Kind == yaml.AliasNode && i < 100; i++ {
		n = n.Alias
	}
	return n
}

// IsMap reports whether n (after aliases) is a mapping.
func IsMap(n *yaml.Node) bool {
	n = Resolve(n)
	return n != nil && n.Kind == yaml.MappingNode
}

// IsSeq reports whether n (after aliases) is a sequence.
func IsSeq(n *yaml.Node) bool {
	n = Resolve(n)
	return n != nil && n.Kind == yaml.SequenceNode
}

// IsNull reports whether n is absent or a null scalar (`null`, `~` or
// nothing at all).
func IsNull(n *yaml.Node) bool {
	n = Resolve(n)
	return n == nil || (n.Kind == yaml.ScalarNode && n.ShortTag() == TagNull)
}

// IsEmpty reports whether n is absent, null, or an empty collection or
// string.
func IsEmpty(n *yaml.Node) bool {
	n = Resolve(n)
	if IsNull(n) {
		return true
	}
	switch n.Kind {
	case yaml.MappingNode, yaml.SequenceNode:
		return len(n.Content) == 0
	case yaml.ScalarNode:
		return n.Value == ""
	}
	return false
}

// Str returns the value of a scalar that kubectl would read as a string,
// and whether it is one. Quoted scalars are strings; plain scalars are
// strings unless YAML 1.1 reads them as a boolean, null or number.
func Str(n *yaml.Node) (string, bool) {
	n = Resolve(n)
	if n == nil || n.Kind != yaml.ScalarNode {
		return "", false
	}
	if n.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle|yaml.LiteralStyle|yaml.FoldedStyle) != 0 {
		return n.Value, true
	}
	if t := n.ShortTag(); t != TagStr && !strings.HasPrefix(t, "!!") {
		return n.Value, true // A local tag: left as a string.
	} else if t != TagStr {
		return "", false
	}
	if manifest.IsYAML11Special(n.Value) {
		return "", false
	}
	return n.Value, true
}

// Bool returns the value of a scalar that kubectl would read as a boolean
// (YAML 1.1: true/false, yes/no, on/off, y/n in their three spellings).
func Bool(n *yaml.Node) (value, ok bool) {
	n = Resolve(n)
	if n == nil || n.Kind != yaml.ScalarNode || n.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle|yaml.LiteralStyle|yaml.FoldedStyle) != 0 {
		return false, false
	}
	if t := n.ShortTag(); t != TagBool && t != TagStr {
		return false, false
	}
	switch n.Value {
	case "y", "Y", "yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON":
		return true, true
	case "n", "N", "no", "No", "NO", "false", "False", "FALSE", "off", "Off", "OFF":
		return false, true
	}
	return false, false
}

// NewString returns a new string scalar. It is written plain when that
// reads back as the same string in YAML 1.1 and 1.2, else double-quoted.
func NewString(s string) *yaml.Node {
	n := &yaml.Node{Kind: yaml.ScalarNode, Tag: TagStr, Value: s}
	if manifest.IsYAML11Special(s) {
		n.Style = yaml.DoubleQuotedStyle
	}
	return n
}

// NewMap returns a new, empty block mapping.
func NewMap() *yaml.Node { return &yaml.Node{Kind: yaml.MappingNode, Tag: TagMap} }

// NewSeq returns a new, empty block sequence.
func NewSeq() *yaml.Node { return &yaml.Node{Kind: yaml.SequenceNode, Tag: TagSeq} }

// Index returns the position of key among the entries of mapping m (the
// pair index, not the Content index), or -1. Merge keys are not followed.
func Index(m *yaml.Node, key string) int {
	if m == nil || m.Kind != yaml.MappingNode {
		return -1
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if k := m.Content[i]; k.Kind == yaml.ScalarNode && k.Value == key && k.ShortTag() != tagMerge {
			return i / 2
		}
	}
	return -1
}

// Key returns the key node of key in mapping m, or nil.
func Key(m *yaml.Node, key string) *yaml.Node {
	if i := Index(m, key); i >= 0 {
		return m.Content[2*i]
	}
	return nil
}

// Get returns the value of key in mapping m, or nil. m may be an alias.
// Merge keys (`<<`) are followed, as kubectl follows them: a key of m
// itself wins over a merged one.
func Get(m *yaml.Node, key string) *yaml.Node {
	m = Resolve(m)
	if m == nil || m.Kind != yaml.MappingNode {
		return nil
	}
	if i := Index(m, key); i >= 0 {
		return m.Content[2*i+1]
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if !isMergeKey(m.Content[i]) {
			continue
		}
		for _, s := range mergeSources(m.Content[i+1]) {
			if s = Resolve(s); s != nil && s.Kind == yaml.MappingNode && s != m {
				if r := Get(s, key); r != nil {
					return r
				}
			}
		}
	}
	return nil
}

// Has reports whether mapping m has key (merge keys followed).
func Has(m *yaml.Node, key string) bool { return Get(m, key) != nil }

// HasMerge reports whether mapping m has a merge key.
func HasMerge(m *yaml.Node) bool {
	m = Resolve(m)
	if m == nil || m.Kind != yaml.MappingNode {
		return false
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if isMergeKey(m.Content[i]) {
			return true
		}
	}
	return false
}

func isMergeKey(k *yaml.Node) bool {
	return k.Kind == yaml.ScalarNode && k.Value == "<<" && (k.ShortTag() == tagMerge || k.Style == 0)
}

// mergeSources returns what the value v of a merge key merges: the items
// of a sequence, else v itself (resolved; the callers check each is a
// mapping).
func mergeSources(v *yaml.Node) []*yaml.Node {
	v = Resolve(v)
	if v != nil && v.Kind == yaml.SequenceNode {
		return v.Content
	}
	return []*yaml.Node{v}
}

// Keys returns the keys of mapping m in order (merge keys excluded).
func Keys(m *yaml.Node) []string {
	m = Resolve(m)
	if m == nil || m.Kind != yaml.MappingNode {
		return nil
	}
	out := make([]string, 0, len(m.Content)/2)
	for i := 0; i+1 < len(m.Content); i += 2 {
		if !isMergeKey(m.Content[i]) {
			out = append(out, m.Content[i].Value)
		}
	}
	return out
}

// Set sets key to v in mapping m: in place when the key exists (the key
// node and its comments stay), else appended.
func Set(m *yaml.Node, key string, v *yaml.Node) {
	if i := Index(m, key); i >= 0 {
		m.Content[2*i+1] = v
		return
	}
	m.Content = append(m.Content, NewString(key), v)
}

// Insert inserts key: v as entry number at of mapping m (clamped to the
// mapping's length). An existing entry of the same key is removed first.
func Insert(m *yaml.Node, at int, key string, v *yaml.Node) {
	InsertPair(m, at, NewKey(key), v)
}

// NewKey returns a new key node. Keys are written plain when possible.
func NewKey(key string) *yaml.Node { return NewString(key) }

// InsertPair inserts the pair k: v as entry number at of mapping m. An
// existing entry with the same key is removed first.
func InsertPair(m *yaml.Node, at int, k, v *yaml.Node) {
	if i := Index(m, k.Value); i >= 0 {
		m.Content = append(m.Content[:2*i], m.Content[2*i+2:]...)
		if i < at {
			at--
		}
	}
	at = max(0, min(at, len(m.Content)/2))
	c := make([]*yaml.Node, 0, len(m.Content)+2)
	c = append(c, m.Content[:2*at]...)
	c = append(c, k, v)
	c = append(c, m.Content[2*at:]...)
	m.Content = c
}

// Delete removes key from mapping m and reports whether it was there.
func Delete(m *yaml.Node, key string) bool {
	i := Index(m, key)
	if i < 0 {
		return false
	}
	m.Content = append(m.Content[:2*i:2*i], m.Content[2*i+2:]...)
	return true
}

// Rename renames key to newKey in mapping m, in place (the key node and
// the comments around it stay), and reports whether key was there.
func Rename(m *yaml.Node, key, newKey string) bool {
	k := Key(m, key)
	if k == nil {
		return false
	}
	k.Value = newKey
	k.Tag = TagStr
	k.Style = 0
	if manifest.IsYAML11Special(newKey) {
		k.Style = yaml.DoubleQuotedStyle
	}
	return true
}

// Pairs calls fn for each entry of mapping m, in order, with its index.
func Pairs(m *yaml.Node, fn func(i int, k, v *yaml.Node)) {
	m = Resolve(m)
	if m == nil || m.Kind != yaml.MappingNode {
		return
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		fn(i/2, m.Content[i], m.Content[i+1])
	}
}

// Clone returns a deep copy of n without anchors and comments, with
// aliases expanded. It is what an alias would mean where it is used.
// Expanding an alias bomb stops at a bound, with nulls in its place.
func Clone(n *yaml.Node) *yaml.Node {
	budget := maxExpanded
	return clone(n, 0, &budget)
}

func clone(n *yaml.Node, depth int, budget *int) *yaml.Node {
	if n == nil {
		return nil
	}
	if *budget--; depth > 200 || *budget < 0 {
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: TagNull, Value: "null"}
	}
	if n.Kind == yaml.AliasNode {
		return clone(n.Alias, depth+1, budget)
	}
	c := &yaml.Node{Kind: n.Kind, Style: n.Style, Tag: n.Tag, Value: n.Value}
	if n.Kind == yaml.DocumentNode {
		c.HeadComment, c.FootComment = n.HeadComment, n.FootComment
	}
	for _, ch := range n.Content {
		c.Content = append(c.Content, clone(ch, depth+1, budget))
	}
	return c
}
