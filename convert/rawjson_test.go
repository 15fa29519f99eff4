package convert

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestJSONMembers(t *testing.T) {
	in := map[string]any{
		"a": `q"uo\te\\`, "b": []any{1.5, "x]", map[string]any{"c": nil}}, "d": map[string]any{}, "e": []any{}, "f": true, "<g>": "\\",
	}
	b, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	ms, ok := jsonMembers(b)
	if !ok {
		t.Fatalf("jsonMembers(%s): not an object", b)
	}
	got := map[string]any{}
	for _, m := range ms {
		var k string
		var v any
		if err := json.Unmarshal(m.key, &k); err != nil {
			t.Fatalf("key %s: %v", m.key, err)
		}
		if err := json.Unmarshal(m.val, &v); err != nil {
			t.Fatalf("value %s: %v", m.val, err)
		}
		got[k] = v
	}
	var want map[string]any
	_ = json.Unmarshal(b, &want)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("jsonMembers(%s): -want, +got:\n%s", b, diff)
	}
	items, ok := jsonItems(jsonGet(ms, "b"))
	if !ok || len(items) != 3 || string(items[1]) != `"x]"` {
		t.Errorf("jsonItems(%s) = %q, %t", jsonGet(ms, "b"), items, ok)
	}
	for _, bad := range []string{``, `{`, `{"a"}`, `{"a":1,}`, `[1,]`, `{"a":"b}`, `{"a":1}x`} {
		if _, ok := jsonMembers([]byte(bad)); ok {
			t.Errorf("jsonMembers(%s): accepted", bad)
		}
	}
}
