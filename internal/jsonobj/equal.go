package jsonobj

import (
	"math"
	"strconv"
)

// Equal compares JSON values; numbers by value, so an int64 and a
// float64 holding the same integer are equal.
func Equal(a, b any) bool { return equal(a, b, nil) }

// EqualStrings is Equal with two different strings equal when same says
// so; unlike Equal it never reports values of other Go types (neither JSON
// numbers nor the kinds of a JSON tree) equal.
func EqualStrings(a, b any, same func(x, y string) bool) bool {
	return equal(a, b, same)
}

// equal is Equal, or with same EqualStrings.
func equal(a, b any, same func(x, y string) bool) bool {
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, v := range x {
			w, ok := y[k]
			if !ok || !equal(v, w, same) {
				return false
			}
		}
		return true
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !equal(x[i], y[i], same) {
				return false
			}
		}
		return true
	case string:
		y, ok := b.(string)
		return ok && (x == y || same != nil && same(x, y))
	case bool, nil:
		return a == b
	}
	if an, ok := NumberText(a); ok {
		bn, ok := NumberText(b)
		return ok && an == bn
	}
	return same == nil && a == b
}

// NumberText returns a numeric value in a comparable form: integers as their
// decimal text, other floats as their shortest text.
func NumberText(v any) (string, bool) {
	switch t := v.(type) {
	case int64:
		return strconv.FormatInt(t, 10), true
	case int:
		return strconv.Itoa(t), true
	case int32:
		return strconv.FormatInt(int64(t), 10), true
	case float64:
		if t == math.Trunc(t) && math.Abs(t) < 1<<63 {
			return strconv.FormatInt(int64(t), 10), true
		}
		return strconv.FormatFloat(t, 'g', -1, 64), true
	}
	return "", false
}
