package render

import (
	"encoding/json"
	"math"
	"math/rand"
	"testing"

	"github.com/google/go-cmp/cmp"
	"sigs.k8s.io/yaml"

	"github.com/xpmigrate/xpmigrate/internal/testutil"
)

// viaJSON is the reference path MarshalYAML must match byte for byte.
func viaJSON(t *testing.T, v any) string {
	t.Helper()
	j, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	y, err := yaml.JSONToYAML(j)
	if err != nil {
		t.Fatal(err)
	}
	return string(y)
}

func TestMarshalYAMLMatchesJSONPath(t *testing.T) {
	values := []any{
		nil, true, false, "", "yes", "on", "y", "n", "~", "null", "012", "1.5", "0x1F", "a: b", "- x", "#c", "x #y",
		"multi\nline", "trailing\n", "tab\there", "trailing space ", "<&>", "\xff invalid", "ünïcödé", "@at", "`tick`",
		"this string is deliberately long so that the YAML emitter has to fold it across two lines at column eighty",
		int64(0), int64(-7), int64(math.MaxInt64), int64(math.MinInt64), 3, 1.5, 3.0, math.Copysign(0, -1), 0.1, 1e-7, 1e6, 1e18, 1e20,
		1e21, 1.5e300, -9.3e18, 9.3e18, 1.8e19, 2e19, 123456789.125,
		[]any{}, map[string]any{}, []any{"a", []any{int64(1), nil}}, map[string]any{"n": "y", "1": int64(2), "b": map[string]any{}},
		map[string]any{"z": 1.0, "a": []any{map[string]any{"k": "v"}}, "A": "upper", "_": "u", "10": "ten", "9": "nine"},
	}
	for i, v := range values {
		want := viaJSON(t, map[string]any{"v": v})
		got, err := MarshalYAML(map[string]any{"v": v})
		if err != nil {
			t.Fatalf("value %d (%#v): MarshalYAML: %v", i, v, err)
		}
		if diff := cmp.Diff(want, string(got)); diff != "" {
			t.Errorf("value %d (%#v): MarshalYAML differs from JSON then YAML: -want, +got:\n%s", i, v, diff)
		}
	}
}

// TestMarshalYAMLRandomTrees compares both paths on random JSON trees.
func TestMarshalYAMLRandomTrees(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	words := []string{"a", "b", "yes", "No", "1", "0.5", "k: v", "", "null", "x-y", "Ready", "True", "2024-01-01T00:00:00Z"}
	var gen func(depth int) any
	gen = func(depth int) any {
		switch n := r.Intn(9); {
		case n == 0 || depth > 3:
			return words[r.Intn(len(words))]
		case n == 1:
			return int64(r.Intn(2000) - 1000)
		case n == 2:
			return r.NormFloat64() * math.Pow(10, float64(r.Intn(30)-10))
		case n == 3:
			return float64(r.Intn(1000))
		case n == 4:
			return r.Intn(2) == 0
		case n == 5:
			return nil
		case n <= 7:
			m := map[string]any{}
			for i := r.Intn(5); i > 0; i-- {
				m[words[r.Intn(len(words))]] = gen(depth + 1)
			}
			return m
		default:
			l := make([]any, r.Intn(4))
			for i := range l {
				l[i] = gen(depth + 1)
			}
			return l
		}
	}
	n := testutil.Cases(2000)
	for i := 0; i < n; i++ {
		v := map[string]any{"root": gen(0)}
		got, err := MarshalYAML(v)
		if err != nil {
			t.Fatal(err)
		}
		if want := viaJSON(t, v); want != string(got) {
			t.Fatalf("tree %d: MarshalYAML differs from JSON then YAML:\n%s", i, cmp.Diff(want, string(got)))
		}
	}
}
