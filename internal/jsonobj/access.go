package jsonobj

// The readers below take a JSON tree as decoded (map[string]any, []any,
// scalars) and never fail: a missing key, or a step or value of another
// type, reads as the zero value. Lookup and LookupString tell a missing or
// mistyped value from a zero one.

// Lookup returns the value at path (object keys only) and true, or nil and
// false when a key is missing or a step is not an object. A key that holds
// null is there: Lookup returns nil and true.
func Lookup(o map[string]any, path ...string) (any, bool) {
	var cur any = o
	for _, p := range path {
		m, ok := cur.(map[string]any)
		if !ok {
			return nil, false
		}
		if cur, ok = m[p]; !ok {
			return nil, false
		}
	}
	return cur, true
}

// LookupString returns the string at path and true, or "" and false when
// there is no value at path or it is not a string.
func LookupString(o map[string]any, path ...string) (string, bool) {
	s, ok := Value(o, path...).(string)
	return s, ok
}

// Map returns the object at path, or nil.
func Map(o map[string]any, path ...string) map[string]any {
	return AsMap(Value(o, path...))
}

// List returns the list at path, or nil.
func List(o map[string]any, path ...string) []any {
	return AsList(Value(o, path...))
}

// Annotation returns the value of the annotation key of object o (its
// metadata.annotations[key]), or "".
func Annotation(o map[string]any, key string) string {
	return String(o, "metadata", "annotations", key)
}

// AsMap returns v if it is an object, else nil.
func AsMap(v any) map[string]any {
	m, _ := v.(map[string]any)
	return m
}

// AsList returns v if it is a list, else nil.
func AsList(v any) []any {
	l, _ := v.([]any)
	return l
}

// AsString returns v if it is a string, else "".
func AsString(v any) string {
	s, _ := v.(string)
	return s
}
