package jsonobj

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestEqual(t *testing.T) {
	cases := map[string]struct {
		reason string
		a, b   any
		want   bool
	}{
		"IntegerAndFloat": {
			reason: "an int64 and a float64 holding the same integer are equal",
			a:      int64(3), b: float64(3),
			want: true,
		},
		"IntAndInt32": {
			reason: "integers of any Go type compare by value",
			a:      3, b: int32(3),
			want: true,
		},
		"Fraction": {
			reason: "a fraction is not the integer it rounds to",
			a:      2.5, b: int64(2),
			want: false,
		},
		"NumberAndString": {
			reason: "a number never equals its text",
			a:      int64(1), b: "1",
			want: false,
		},
		"NestedNumbers": {
			reason: "objects and lists compare element by element, numbers by value",
			a:      map[string]any{"l": []any{int64(1), "x"}},
			b:      map[string]any{"l": []any{float64(1), "x"}},
			want:   true,
		},
		"ExtraKey": {
			reason: "an object with another key differs",
			a:      map[string]any{"a": true},
			b:      map[string]any{"a": true, "b": nil},
			want:   false,
		},
		"ListLength": {
			reason: "lists of different lengths differ",
			a:      []any{"a"}, b: []any{"a", "a"},
			want: false,
		},
		"Nulls": {
			reason: "null equals null",
			want:   true,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, Equal(tc.a, tc.b)); diff != "" {
				t.Errorf("\n%s\nEqual(%v, %v): -want, +got:\n%s", tc.reason, tc.a, tc.b, diff)
			}
		})
	}
}

func TestEqualStrings(t *testing.T) {
	upper := func(x, y string) bool { return strings.EqualFold(x, y) }
	type point struct{ x int }
	cases := map[string]struct {
		reason string
		a, b   any
		want   bool
	}{
		"SameSaysEqual": {
			reason: "strings same calls equal are equal, nested too",
			a:      map[string]any{"l": []any{"ABC"}},
			b:      map[string]any{"l": []any{"abc"}},
			want:   true,
		},
		"SameSaysDifferent": {
			reason: "strings same calls different differ",
			a:      "abc", b: "abd",
			want: false,
		},
		"StringAndNumber": {
			reason: "a string never equals a number, whatever same says",
			a:      "1", b: int64(1),
			want: false,
		},
		"NumbersByValue": {
			reason: "numbers compare by value, as Equal compares them",
			a:      []any{int64(3)}, b: []any{float64(3)},
			want: true,
		},
		"BoolsAndNulls": {
			reason: "bools and nulls compare as Equal compares them",
			a:      []any{true, nil}, b: []any{true, nil},
			want: true,
		},
		"OtherGoType": {
			reason: "a value of another Go type is equal to nothing, unlike in Equal",
			a:      point{1}, b: point{1},
			want: false,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, EqualStrings(tc.a, tc.b, upper)); diff != "" {
				t.Errorf("\n%s\nEqualStrings(%v, %v): -want, +got:\n%s", tc.reason, tc.a, tc.b, diff)
			}
		})
	}
}

func TestNumberText(t *testing.T) {
	type want struct {
		text string
		ok   bool
	}
	cases := map[string]struct {
		reason string
		v      any
		want   want
	}{
		"Int64":         {reason: "an int64 as its decimal text", v: int64(-42), want: want{text: "-42", ok: true}},
		"IntegralFloat": {reason: "an integral float64 as the integer's text", v: float64(1e6), want: want{text: "1000000", ok: true}},
		"Fraction":      {reason: "another float64 as its shortest text", v: 0.1, want: want{text: "0.1", ok: true}},
		"Huge":          {reason: "a float64 beyond int64 keeps its float text", v: 1e20, want: want{text: "1e+20", ok: true}},
		"String":        {reason: "a string is not a number", v: "1", want: want{}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			text, ok := NumberText(tc.v)
			if diff := cmp.Diff(tc.want, want{text: text, ok: ok}, cmp.AllowUnexported(want{})); diff != "" {
				t.Errorf("\n%s\nNumberText(%v): -want, +got:\n%s", tc.reason, tc.v, diff)
			}
		})
	}
}
