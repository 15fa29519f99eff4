package jsonobj

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestAccessors is issue 27 item 4's accessors: every reader of a decoded
// object, on present, missing, null and mistyped values.
func TestAccessors(t *testing.T) {
	o := map[string]any{
		"metadata": map[string]any{
			"name":        "x",
			"annotations": map[string]any{"a": "b", "n": int64(1)},
		},
		"spec": map[string]any{
			"items": []any{"i"},
			"null":  nil,
			"n":     int64(2),
		},
	}
	type got struct {
		Value        any
		Found        bool
		String       string
		StringFound  bool
		Map          map[string]any
		List         []any
		AnnotationA  string
		AnnotationN  string
		AnnotationNo string
	}
	read := func(path ...string) got {
		v, found := Lookup(o, path...)
		s, sfound := LookupString(o, path...)
		return got{
			Value: v, Found: found, String: s, StringFound: sfound,
			Map: Map(o, path...), List: List(o, path...),
			AnnotationA: Annotation(o, "a"), AnnotationN: Annotation(o, "n"), AnnotationNo: Annotation(o, "no"),
		}
	}
	annotations := func(g got) got {
		g.AnnotationA = "b"
		return g
	}
	cases := map[string]struct {
		reason string
		path   []string
		want   got
	}{
		"String": {
			reason: "A string is found by Lookup and LookupString; Map and List are nil.",
			path:   []string{"metadata", "name"},
			want:   annotations(got{Value: "x", Found: true, String: "x", StringFound: true}),
		},
		"Object": {
			reason: "An object is returned by Map.",
			path:   []string{"metadata", "annotations"},
			want: annotations(got{Value: map[string]any{"a": "b", "n": int64(1)}, Found: true,
				Map: map[string]any{"a": "b", "n": int64(1)}}),
		},
		"List": {
			reason: "A list is returned by List.",
			path:   []string{"spec", "items"},
			want:   annotations(got{Value: []any{"i"}, Found: true, List: []any{"i"}}),
		},
		"Null": {
			reason: "A key that holds null is found, as nil.",
			path:   []string{"spec", "null"},
			want:   annotations(got{Found: true}),
		},
		"Number": {
			reason: "A number is no string: LookupString says not found.",
			path:   []string{"spec", "n"},
			want:   annotations(got{Value: int64(2), Found: true}),
		},
		"Missing": {
			reason: "A missing key is not found.",
			path:   []string{"spec", "none"},
			want:   annotations(got{}),
		},
		"ThroughAScalar": {
			reason: "A step through a scalar is not found.",
			path:   []string{"metadata", "name", "deeper"},
			want:   annotations(got{}),
		},
		"Root": {
			reason: "No path is the object itself.",
			path:   nil,
			want:   annotations(got{Value: o, Found: true, Map: o}),
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, read(tc.path...)); diff != "" {
				t.Errorf("%s\nread(%v): -want, +got:\n%s", tc.reason, tc.path, diff)
			}
		})
	}
}

// TestAs is the conversions of one value: the value when its type fits,
// else the zero value.
func TestAs(t *testing.T) {
	type got struct {
		Map    map[string]any
		List   []any
		String string
	}
	cases := map[string]struct {
		reason string
		v      any
		want   got
	}{
		"Object": {reason: "An object is a map only.", v: map[string]any{"a": "b"}, want: got{Map: map[string]any{"a": "b"}}},
		"List":   {reason: "A list is a list only.", v: []any{int64(1)}, want: got{List: []any{int64(1)}}},
		"String": {reason: "A string is a string only.", v: "s", want: got{String: "s"}},
		"Nil":    {reason: "Nil is nothing.", v: nil, want: got{}},
		"Number": {reason: "A number is none of them.", v: 1.5, want: got{}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			g := got{Map: AsMap(tc.v), List: AsList(tc.v), String: AsString(tc.v)}
			if diff := cmp.Diff(tc.want, g); diff != "" {
				t.Errorf("%s\nAs*(%v): -want, +got:\n%s", tc.reason, tc.v, diff)
			}
		})
	}
}
