package gaps

import (
	"strconv"
	"strings"
	"sync"
)

// A Segment is one step of a Path: an object field, or a list index.
type Segment struct {
	Field   string
	Index   int
	IsIndex bool
}

// A Path locates a value inside an object, as a field path does.
type Path []Segment

// String writes the path in Crossplane's field path syntax:
// `metadata.annotations[crossplane.io/composition-resource-name]`,
// `spec.forProvider.rules[0].cidr`. The empty path is "".
func (p Path) String() string {
	var b strings.Builder
	for i, s := range p {
		switch {
		case s.IsIndex:
			b.WriteString("[" + strconv.Itoa(s.Index) + "]")
		case s.Field == "*" || !plainField(s.Field):
			b.WriteString("[" + s.Field + "]")
		default:
			if i > 0 {
				b.WriteByte('.')
			}
			b.WriteString(s.Field)
		}
	}
	return b.String()
}

// MarshalText writes the path as String does, so that JSON output shows
// paths as text.
func (p Path) MarshalText() ([]byte, error) { return []byte(p.String()), nil }

// plainField reports whether a field name can be written after a period.
func plainField(f string) bool {
	if f == "" {
		return false
	}
	for _, r := range f {
		switch r {
		case '.', '[', ']', ' ', '"', '\'':
			return false
		}
	}
	if _, err := strconv.ParseUint(f, 10, 32); err == nil {
		return false
	}
	return true
}

// Child returns the path of p's field f.
func (p Path) Child(f string) Path {
	out := make(Path, len(p), len(p)+1)
	copy(out, p)
	return append(out, Segment{Field: f})
}

// Index returns the path of p's list item i.
func (p Path) Index(i int) Path {
	out := make(Path, len(p), len(p)+1)
	copy(out, p)
	return append(out, Segment{Index: i, IsIndex: true})
}

// hasPrefix reports whether q is a prefix of p; a "*" field in q matches
// any segment.
func (p Path) hasPrefix(q Path) bool {
	if len(q) > len(p) {
		return false
	}
	for i := range q {
		if !q[i].matches(p[i]) {
			return false
		}
	}
	return true
}

func (s Segment) matches(o Segment) bool {
	if s.Field == "*" || o.Field == "*" {
		return true
	}
	return s == o
}

// overlaps reports whether a write to w can change the value at p: one is a
// prefix of the other. An unparsed (nil) w overlaps nothing.
func overlaps(w, p Path) bool {
	if w == nil {
		return false
	}
	return p.hasPrefix(w) || w.hasPrefix(p)
}

// pathCache memoises parsePath: crossplane-runtime's lexer runs a goroutine
// per parse, and rules look the same patch paths up for every difference.
var pathCache sync.Map // string -> Path

func cachedPath(s string) Path {
	if v, ok := pathCache.Load(s); ok {
		return v.(Path) //nolint:forcetypeassert // Only Paths are stored.
	}
	p := parsePath(s)
	pathCache.Store(s, p)
	return p
}
