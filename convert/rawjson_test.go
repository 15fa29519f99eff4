package convert

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestJSONView(t *testing.T) {
	in := map[string]any{
		"a": `q"uo\te\\{[`, "b": []any{1.5, "x]", map[string]any{"c": nil, "d": []any{map[string]any{}}}}, "d": map[string]any{}, "e": []any{}, "f": true, "<g>": "\\",
	}
	b, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	v, ok := newJSONView(b)
	if !ok {
		t.Fatalf("newJSONView(%s): unbalanced", b)
	}
	ms, ok := v.members(v.all())
	if !ok {
		t.Fatalf("members(%s): not an object", b)
	}
	got := map[string]any{}
	for _, m := range ms {
		var k string
		var val any
		if err := json.Unmarshal(m.key, &k); err != nil {
			t.Fatalf("key %s: %v", m.key, err)
		}
		if err := json.Unmarshal(v.text(m.val), &val); err != nil {
			t.Fatalf("value %s: %v", v.text(m.val), err)
		}
		got[k] = val
	}
	var want map[string]any
	_ = json.Unmarshal(b, &want)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("members(%s): -want, +got:\n%s", b, diff)
	}
	items, ok := v.items(jsonGet(ms, "b"))
	if !ok || len(items) != 3 || string(v.text(items[1])) != `"x]"` || string(v.text(items[2])) != `{"c":null,"d":[{}]}` {
		t.Errorf("items(%s) = %v, %t", v.text(jsonGet(ms, "b")), items, ok)
	}
	if v.text(jsonGet(ms, "nope")) != nil {
		t.Errorf("jsonGet(nope): want no value")
	}
	for _, bad := range []string{`{`, `{"a"}`, `{"a":1,}`, `[1,]`, `{"a":"b}`, `{"a":1]`, `{"a":1}}`} {
		v, ok := newJSONView([]byte(bad))
		if !ok {
			continue
		}
		if _, ok := v.members(v.all()); ok {
			t.Errorf("members(%s): accepted", bad)
		}
		if _, ok := v.items(v.all()); ok {
			t.Errorf("items(%s): accepted", bad)
		}
	}
}
