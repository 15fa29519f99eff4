package manifest

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
	v, ok := NewJSONView(b)
	if !ok {
		t.Fatalf("NewJSONView(%s): unbalanced", b)
	}
	ms, ok := v.Members(v.All())
	if !ok {
		t.Fatalf("Members(%s): not an object", b)
	}
	got := map[string]any{}
	for _, m := range ms {
		var k string
		var val any
		if err := json.Unmarshal(m.Key, &k); err != nil {
			t.Fatalf("key %s: %v", m.Key, err)
		}
		if err := json.Unmarshal(v.Text(m.Val), &val); err != nil {
			t.Fatalf("value %s: %v", v.Text(m.Val), err)
		}
		got[k] = val
	}
	var want map[string]any
	_ = json.Unmarshal(b, &want)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Members(%s): -want, +got:\n%s", b, diff)
	}
	items, ok := v.Items(Get(ms, "b"))
	if !ok || len(items) != 3 || string(v.Text(items[1])) != `"x]"` || string(v.Text(items[2])) != `{"c":null,"d":[{}]}` {
		t.Errorf("Items(%s) = %v, %t", v.Text(Get(ms, "b")), items, ok)
	}
	if v.Text(Get(ms, "nope")) != nil {
		t.Errorf("Get(nope): want no value")
	}
	for _, bad := range []string{`{`, `{"a"}`, `{"a":1,}`, `[1,]`, `{"a":"b}`, `{"a":1]`, `{"a":1}}`} {
		v, ok := NewJSONView([]byte(bad))
		if !ok {
			continue
		}
		if _, ok := v.Members(v.All()); ok {
			t.Errorf("Members(%s): accepted", bad)
		}
		if _, ok := v.Items(v.All()); ok {
			t.Errorf("Items(%s): accepted", bad)
		}
	}
}
