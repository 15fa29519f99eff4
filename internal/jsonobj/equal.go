package jsonobj

import (
	"math"
	"strconv"
)

// Equal compares JSON values; numbers by value, so an int64 and a
// float64 holding the same integer are equal.
func Equal(a, b any) bool {
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, v := range x {
			w, ok := y[k]
			if !ok || !Equal(v, w) {
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
			if !Equal(x[i], y[i]) {
				return false
			}
		}
		return true
	}
	if an, ok := NumberText(a); ok {
		bn, ok := NumberText(b)
		return ok && an == bn
	}
	return a == b
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
