package verify

import (
	"math/rand"
	"testing"

	"github.com/xpmigrate/xpmigrate/internal/jsonobj"
	"github.com/xpmigrate/xpmigrate/internal/testutil"
)

func TestSameNormalized(t *testing.T) {
	repl := replacer{}
	repl.add("thing-0-97dtn", "<generated:a>")
	repl.add("thing-0-zzzzz", "<generated:a>")
	md := func(kv ...any) map[string]any {
		m := map[string]any{}
		for i := 0; i+1 < len(kv); i += 2 {
			m[kv[i].(string)] = kv[i+1]
		}
		return map[string]any{"metadata": m, "spec": map[string]any{"n": int64(3)}}
	}
	cases := map[string]struct {
		reason string
		a, b   map[string]any
		want   bool
	}{
		"ClaimLabels": {
			reason: "empty claim labels are dropped (D48)",
			a:      md("labels", map[string]any{"crossplane.io/claim-name": "", "team": "a"}),
			b:      md("labels", map[string]any{"team": "a"}),
			want:   true,
		},
		"OnlyClaimLabels": {
			reason: "labels left empty are dropped",
			a:      md("labels", map[string]any{"crossplane.io/claim-name": "", "crossplane.io/claim-namespace": ""}),
			b:      md(),
			want:   true,
		},
		"SetClaimLabel": {
			reason: "a claim label with a value counts",
			a:      md("labels", map[string]any{"crossplane.io/claim-name": "x"}),
			b:      md(),
		},
		"GeneratedNames": {
			reason: "generated names are replaced",
			a:      md("name", "thing-0-97dtn"),
			b:      md("name", "thing-0-zzzzz"),
			want:   true,
		},
		"ServerFields": {
			reason: "server fields do not count",
			a:      md("uid", "x", "resourceVersion", "1"),
			b:      md(),
			want:   true,
		},
		"OwnerUID": {
			reason: "an empty owner uid is dropped",
			a:      md("ownerReferences", []any{map[string]any{"name": "x", "uid": ""}}),
			b:      md("ownerReferences", []any{map[string]any{"name": "x"}}),
			want:   true,
		},
		"OwnerUIDSet": {
			reason: "an owner uid with a value counts",
			a:      md("ownerReferences", []any{map[string]any{"name": "x", "uid": "u"}}),
			b:      md("ownerReferences", []any{map[string]any{"name": "x"}}),
		},
		"Numbers": {
			reason: "numbers compare by value",
			a:      map[string]any{"spec": map[string]any{"n": float64(3)}},
			b:      map[string]any{"spec": map[string]any{"n": int64(3)}},
			want:   true,
		},
		"UIDOutsideMetadata": {
			reason: "server fields are dropped from metadata only",
			a:      map[string]any{"spec": map[string]any{"uid": "x"}},
			b:      map[string]any{"spec": map[string]any{}},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if got := sameNormalized(tc.a, tc.b, repl); got != tc.want {
				t.Errorf("%s\nsameNormalized(...): got %v, want %v", tc.reason, got, tc.want)
			}
			if want := jsonobj.Equal(normalizeObject(tc.a, repl), normalizeObject(tc.b, repl)); tc.want != want {
				t.Errorf("%s\nthe test case is wrong: normalised, the objects are equal: %v", tc.reason, want)
			}
		})
	}
}

// TestSameNormalizedNeverHides checks on random objects that
// sameNormalized never calls equal what normalising tells apart.
func TestSameNormalizedNeverHides(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	repl := replacer{}
	repl.add("generated-aaaaa", "<generated:x>")
	repl.add("generated-bbbbb", "<generated:x>")
	leaves := []any{"", "a", "generated-aaaaa", "generated-bbbbb", "pre-generated-aaaaa", int64(1), float64(1), 1.5, true, false, nil}
	keys := []string{"a", "b", "uid", "labels", "ownerReferences", "crossplane.io/claim-name", "crossplane.io/claim-namespace", "metadata", "name"}
	var gen func(depth int) any
	gen = func(depth int) any {
		switch r := rng.Intn(6); {
		case depth > 3 || r < 3:
			return leaves[rng.Intn(len(leaves))]
		case r == 3:
			l := make([]any, rng.Intn(3))
			for i := range l {
				l[i] = gen(depth + 1)
			}
			return l
		default:
			m := map[string]any{}
			for i := rng.Intn(4); i > 0; i-- {
				m[keys[rng.Intn(len(keys))]] = gen(depth + 1)
			}
			return m
		}
	}
	// mutate copies v deeply, changing, adding or dropping an entry
	// here and there, so that pairs differ by little.
	var mutate func(v any) any
	mutate = func(v any) any {
		switch t := v.(type) {
		case map[string]any:
			out := map[string]any{}
			for k, e := range t {
				switch rng.Intn(12) {
				case 0:
					continue
				case 1:
					out[k] = leaves[rng.Intn(len(leaves))]
				default:
					out[k] = mutate(e)
				}
			}
			if rng.Intn(12) == 0 {
				out[keys[rng.Intn(len(keys))]] = leaves[rng.Intn(len(leaves))]
			}
			return out
		case []any:
			out := make([]any, len(t))
			for i, e := range t {
				out[i] = mutate(e)
			}
			return out
		}
		if rng.Intn(12) == 0 {
			return leaves[rng.Intn(len(leaves))]
		}
		return v
	}
	equal := 0
	n := testutil.Cases(200000)
	for i := 0; i < n; i++ {
		a, _ := gen(0).(map[string]any)
		if a == nil {
			continue
		}
		if rng.Intn(2) == 0 {
			a["metadata"] = gen(1)
		}
		b, _ := mutate(a).(map[string]any)
		if sameNormalized(a, b, repl) {
			equal++
			if !jsonobj.Equal(normalizeObject(a, repl), normalizeObject(b, repl)) {
				t.Fatalf("sameNormalized(%v, %v): true, but normalised they differ", a, b)
			}
		}
	}
	if equal < n/200 {
		t.Fatalf("only %d equal pairs: the generator does not exercise the fast path", equal)
	}
}
