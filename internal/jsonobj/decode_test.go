package jsonobj

import (
	"encoding/json"
	"math/rand"
	"testing"

	"github.com/google/go-cmp/cmp"
	kjson "k8s.io/apimachinery/pkg/util/json"

	"github.com/xpmigrate/xpmigrate/internal/testutil"
)

// reference decodes as DecodePlainObject promises to.
func reference(b []byte) (map[string]any, error) {
	out := map[string]any{}
	err := kjson.Unmarshal(b, &out)
	return out, err
}

func TestDecodePlainObject(t *testing.T) {
	cases := map[string]struct {
		reason string
		in     string
		plain  bool
	}{
		"Empty":        {reason: "an empty object", in: `{}`, plain: true},
		"Nested":       {reason: "objects, arrays and every scalar", in: ` {"a":{"b":[1,-2,3.5,1e3,-0,0.0,true,false,null,"x"]},"c":[],"d":{}} `, plain: true},
		"Ints":         {reason: "integers that fit int64 stay integers", in: `{"a":9223372036854775807,"b":-9223372036854775808}`, plain: true},
		"BigInt":       {reason: "an integer beyond int64 is a float", in: `{"a":9223372036854775808}`, plain: true},
		"Exponent":     {reason: "an exponent makes a float", in: `{"a":1E+2,"b":2e-1}`, plain: true},
		"Duplicate":    {reason: "the last of duplicate keys wins", in: `{"a":1,"a":2}`, plain: true},
		"HTMLEscaped":  {reason: "escapes go to the general decoder", in: `{"a":"\u003c"}`},
		"Unicode":      {reason: "non-ASCII goes to the general decoder", in: `{"a":"é"}`},
		"NotObject":    {reason: "only objects", in: `[1]`},
		"Trailing":     {reason: "text after the object", in: `{} x`},
		"LeadingZero":  {reason: "JSON has no leading zeros", in: `{"a":01}`},
		"BareDot":      {reason: "a fraction needs digits", in: `{"a":1.}`},
		"Overflow":     {reason: "a float out of range is an error", in: `{"a":1e400}`},
		"TrailingComa": {reason: "no trailing commas", in: `{"a":1,}`},
		"Unclosed":     {reason: "unclosed object", in: `{"a":[1,2}`},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, ok := DecodePlainObject([]byte(tc.in))
			if ok != tc.plain {
				t.Fatalf("%s\nDecodePlainObject(%s): ok %v, want %v", tc.reason, tc.in, ok, tc.plain)
			}
			if !ok {
				return
			}
			want, err := reference([]byte(tc.in))
			if err != nil {
				t.Fatalf("%s\nthe general decoder fails on text DecodePlainObject accepts: %v", tc.reason, err)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("%s\nDecodePlainObject(%s): -general, +plain:\n%s", tc.reason, tc.in, diff)
			}
		})
	}
}

// TestDecodePlainObjectRandom compares the decoders on random JSON.
func TestDecodePlainObjectRandom(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	scalars := []any{"", "a b", "x<y", "é", "q\"", int64(0), int64(-7), 1.5, -2.25e-9, 1e21, 123456789012345678, true, false, nil}
	var gen func(depth int) any
	gen = func(depth int) any {
		switch r := rng.Intn(5); {
		case depth > 4 || r < 2:
			return scalars[rng.Intn(len(scalars))]
		case r == 2:
			l := make([]any, rng.Intn(4))
			for i := range l {
				l[i] = gen(depth + 1)
			}
			return l
		default:
			m := map[string]any{}
			for i := rng.Intn(4); i > 0; i-- {
				m[string(rune('a'+rng.Intn(5)))] = gen(depth + 1)
			}
			return m
		}
	}
	plain := 0
	n := testutil.Cases(20000)
	for i := 0; i < n; i++ {
		b, err := json.Marshal(map[string]any{"v": gen(0)})
		if err != nil {
			t.Fatal(err)
		}
		got, ok := DecodePlainObject(b)
		if !ok {
			continue
		}
		plain++
		want, err := reference(b)
		if err != nil {
			t.Fatalf("general decoder: %v", err)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("DecodePlainObject(%s): -general, +plain:\n%s", b, diff)
		}
	}
	if plain < n/20 {
		t.Fatalf("only %d plain documents", plain)
	}
}

func FuzzDecodePlainObject(f *testing.F) {
	for _, s := range []string{`{}`, `{"a":[1,2.5,-0,true,null,"x"]}`, `{"a":{"b":1e3}}`, `{"a":01}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		got, ok := DecodePlainObject(b)
		if !ok {
			return
		}
		want, err := reference(b)
		if err != nil {
			t.Fatalf("DecodePlainObject(%q) accepts what the general decoder refuses: %v", b, err)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("DecodePlainObject(%q): -general, +plain:\n%s", b, diff)
		}
	})
}
