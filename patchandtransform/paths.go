package patchandtransform

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/crossplane/crossplane-runtime/v2/pkg/fieldpath"
)

// crossplane-runtime parses a field path on every read and write, with a
// lexer that runs on its own goroutine, and copies every value it writes
// through JSON text. The functions below do the same reads and writes
// without either, for the paths and values where the result is certainly
// the same: paths made only of object field names, plain JSON values. For
// anything else, and for every error but a missing field, they call the
// Paved method itself.

// simplePath reports whether path is one crossplane-runtime parses into
// object field names only, each of them the text between separators: names
// separated by periods, or in brackets. It rejects (leaving them to the
// parser) empty paths, a leading bracket, quotes (which the parser trims),
// wildcards, bracketed text that could be an index, text right after a
// closing bracket, and everything the parser refuses.
func simplePath(path string) bool {
	if path == "" || path[0] == '[' || path[0] == '.' || strings.ContainsAny(path, `'"*`) {
		return false
	}
	for i := 0; i < len(path); {
		switch path[i] {
		case '.':
			// Not last, not followed by a period or a bracket.
			if i == len(path)-1 || path[i+1] == '.' || path[i+1] == '[' {
				return false
			}
			i++
		case '[':
			end := strings.IndexByte(path[i+1:], ']')
			if end <= 0 {
				return false
			}
			inner := path[i+1 : i+1+end]
			if strings.IndexByte(inner, '[') >= 0 || allDigits(inner) {
				return false
			}
			i += end + 2
			if i < len(path) && path[i] != '.' && path[i] != '[' {
				return false
			}
		case ']':
			return false
		default:
			i++
		}
	}
	return true
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// nextField returns the field name of a simple path that starts at i, and
// where the next one starts (len(path) at the end).
func nextField(path string, i int) (string, int) {
	if path[i] == '.' {
		i++
	}
	if path[i] == '[' {
		end := i + 1 + strings.IndexByte(path[i+1:], ']')
		return path[i+1 : end], end + 1
	}
	end := i
	for end < len(path) && path[end] != '.' && path[end] != '[' {
		end++
	}
	return path[i:end], end
}

// notFoundError is the error crossplane-runtime returns for a missing field
// of a simple path, the one ending at end: the same text, and IsNotFound.
// Most callers only ask IsNotFound, so the text is made when asked for.
type notFoundError struct {
	path string
	end  int
}

func (e notFoundError) Error() string {
	var s fieldpath.Segments
	for i := 0; i < e.end; {
		var f string
		f, i = nextField(e.path, i)
		s = append(s, fieldpath.Field(f))
	}
	return fmt.Sprintf("%s: no such field", s)
}

func (e notFoundError) IsNotFound() bool { return true }

// noSuchField is the error for the field at [0, end) of a simple path.
func noSuchField(path string, end int) error {
	return notFoundError{path: path, end: end}
}

// getValue is p.GetValue(path).
func getValue(p *fieldpath.Paved, path string) (any, error) {
	if !simplePath(path) {
		return p.GetValue(path)
	}
	var it any = p.UnstructuredContent()
	for i := 0; i < len(path); {
		o, ok := it.(map[string]any)
		if !ok {
			return p.GetValue(path)
		}
		var f string
		f, i = nextField(path, i)
		v, ok := o[f]
		if !ok {
			return nil, noSuchField(path, i)
		}
		it = v
	}
	return it, nil
}

// setValue is p.SetValue(path, value).
func setValue(p *fieldpath.Paved, path string, value any) error {
	obj := p.UnstructuredContent()
	// An empty object may be a nil one, which UnstructuredContent does not
	// return.
	if len(obj) == 0 || !simplePath(path) || !settable(obj, path) {
		return p.SetValue(path, value)
	}
	v, ok := jsonCopy(value)
	if !ok {
		return p.SetValue(path, value)
	}
	o := obj
	for i := 0; ; {
		var f string
		f, i = nextField(path, i)
		if i == len(path) {
			o[f] = v
			return nil
		}
		next, ok := o[f].(map[string]any)
		if !ok {
			next = map[string]any{}
			o[f] = next
		}
		o = next
	}
}

// settable reports whether every field on a simple path up to the last is
// absent or a non-nil object, so that setting it cannot fail.
func settable(obj map[string]any, path string) bool {
	o := obj
	for i := 0; ; {
		var f string
		f, i = nextField(path, i)
		if i == len(path) {
			return true
		}
		v, ok := o[f]
		if !ok {
			return true
		}
		next, ok := v.(map[string]any)
		if !ok || next == nil {
			return false
		}
		o = next
	}
}

// mergeValue is fieldpath's MergeValue, which without merge options reads
// the target only to discard what it read: then it is exactly SetValue. It
// merges nothing either when the target is missing or null.
func mergeValue(to *fieldpath.Paved, path string, value any, mo *MergeOptions) error {
	if mo == nil {
		return setValue(to, path, value)
	}
	dst, err := getValue(to, path)
	if (err == nil && dst == nil) || IsNotFound(err) {
		return setValue(to, path, value)
	}
	return to.MergeValue(path, value, mo)
}

// jsonCopy returns what a trip through encoding/json and the Kubernetes
// decoder makes of v, as crossplane-runtime does to every value it writes:
// a deep copy in which integral numbers are int64 (Normalize). It reports
// false for what it cannot vouch for: values that are not plain JSON data,
// strings and keys that are not UTF-8, numbers JSON cannot hold.
func jsonCopy(v any) (any, bool) {
	switch t := v.(type) {
	case map[string]any:
		if t == nil {
			return nil, true
		}
		out := make(map[string]any, len(t))
		for k, e := range t {
			if !utf8.ValidString(k) {
				return nil, false
			}
			c, ok := jsonCopy(e)
			if !ok {
				return nil, false
			}
			out[k] = c
		}
		return out, true
	case []any:
		if t == nil {
			return nil, true
		}
		out := make([]any, len(t))
		for i, e := range t {
			c, ok := jsonCopy(e)
			if !ok {
				return nil, false
			}
			out[i] = c
		}
		return out, true
	case string:
		return t, utf8.ValidString(t)
	case float64:
		if math.IsNaN(t) || math.IsInf(t, 0) {
			return nil, false
		}
	}
	return normalizeScalar(v)
}

// IndexLikeKey returns the first field name of a field path that reads as
// an integer (`l[-1]`): written in brackets as if it were a list index, the
// parser takes it as a key, which fails wherever the field holds a list.
// It returns "" when there is none, or the path does not parse.
func IndexLikeKey(path string) string {
	segs, err := fieldpath.Parse(path)
	if err != nil {
		return ""
	}
	for _, sg := range segs {
		if sg.Type != fieldpath.SegmentField {
			continue
		}
		if _, err := strconv.Atoi(sg.Field); err == nil {
			return sg.Field
		}
	}
	return ""
}

// ListPath reports whether a field path reaches into a list: it has an
// index, a wildcard, or an index-like key (see IndexLikeKey). A path that
// does not parse reaches nothing.
func ListPath(path string) bool {
	segs, err := fieldpath.Parse(path)
	if err != nil {
		return false
	}
	for _, sg := range segs {
		if sg.Type == fieldpath.SegmentIndex || sg.Field == "*" {
			return true
		}
	}
	return IndexLikeKey(path) != ""
}
