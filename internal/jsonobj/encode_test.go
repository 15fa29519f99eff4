package jsonobj

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/xpmigrate/xpmigrate/internal/testutil"
)

// randomValue returns a random JSON tree: every kind Marshal handles
// itself, awkward strings and keys, and numbers of every magnitude.
func randomValue(r *rand.Rand, depth int) any {
	n := 9
	if depth > 3 {
		n = 6
	}
	switch r.IntN(n) {
	case 0:
		return nil
	case 1:
		return r.IntN(2) == 0
	case 2:
		return randomString(r)
	case 3:
		return r.Int64() >> r.IntN(64)
	case 4:
		return r.IntN(1000) - 500
	case 5:
		f := []float64{0, math.Copysign(0, -1), 1, -2.5, 1e-7, 1e-6, 123456789.125, 1e20, 1e21, 5e-324, math.MaxFloat64, 0.1, 1e300}
		if r.IntN(2) == 0 {
			return f[r.IntN(len(f))]
		}
		return math.Float64frombits(r.Uint64())
	case 6, 7:
		m := map[string]any{}
		for range r.IntN(5) {
			m[randomString(r)] = randomValue(r, depth+1)
		}
		if r.IntN(10) == 0 {
			return map[string]any(nil)
		}
		return m
	default:
		if r.IntN(10) == 0 {
			return []any(nil)
		}
		l := []any{}
		for range r.IntN(5) {
			l = append(l, randomValue(r, depth+1))
		}
		return l
	}
}

func randomString(r *rand.Rand) string {
	pieces := []string{"a", "Z", "0", " ", "\"", "\\", "<", ">", "&", "\n", "\t", "\x00", "\x1f", "\x7f", "\xff", "\xe2\x80", "é", "\u2028", "\u2029", "😀", "\b", "\f", "/"}
	var s string
	for range r.IntN(6) {
		s += pieces[r.IntN(len(pieces))]
	}
	return s
}

// TestMarshalMatchesEncodingJSON checks Marshal against json.Marshal on
// random trees, byte for byte, errors included.
func TestMarshalMatchesEncodingJSON(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := range testutil.Cases(20000) {
		v := randomValue(r, 0)
		want, wantErr := json.Marshal(v)
		got, err := Marshal(v)
		if (err != nil) != (wantErr != nil) {
			t.Fatalf("Marshal(%#v): error %v, json.Marshal error %v", v, err, wantErr)
		}
		if diff := cmp.Diff(string(want), string(got)); diff != "" {
			t.Fatalf("tree %d: Marshal(%#v): -json.Marshal, +got:\n%s", i, v, diff)
		}
	}
	for _, v := range []any{math.NaN(), math.Inf(1), map[string]any{"k": math.Inf(-1)}, map[string]string{"a": "<b>"}, []any{int32(3), uint(4)}, json.Number("12")} {
		want, wantErr := json.Marshal(v)
		got, err := Marshal(v)
		if (err != nil) != (wantErr != nil) || string(want) != string(got) {
			t.Errorf("Marshal(%#v) = %q, %v; json.Marshal gives %q, %v", v, got, err, want, wantErr)
		}
	}
}

func TestVerbatimAndDecoded(t *testing.T) {
	cases := map[string]struct {
		reason       string
		v            any
		wantVerbatim bool
		wantDecoded  bool
	}{
		"PlainTree": {
			reason:       "objects, lists, UTF-8 strings, bools, nulls and int64s are both",
			v:            map[string]any{"a": []any{"x", true, nil, int64(-3)}, "b": map[string]any{}},
			wantVerbatim: true, wantDecoded: true,
		},
		"Int": {
			reason:       "Marshal writes an int, the decoder never makes one",
			v:            []any{1},
			wantVerbatim: true, wantDecoded: false,
		},
		"IntegralFloat": {
			reason:       "the decoder reads an integral number below 1e21 as an int64",
			v:            []any{float64(2)},
			wantVerbatim: true, wantDecoded: false,
		},
		"Fraction": {
			reason:       "the decoder keeps a fraction a float64",
			v:            []any{2.5},
			wantVerbatim: true, wantDecoded: true,
		},
		"LargeFloat": {
			reason:       "the decoder keeps an integral float from 1e21 a float64",
			v:            []any{1e21},
			wantVerbatim: true, wantDecoded: true,
		},
		"NaN": {
			reason:       "JSON cannot write NaN",
			v:            map[string]any{"n": math.NaN()},
			wantVerbatim: false, wantDecoded: false,
		},
		"Infinity": {
			reason:       "JSON cannot write an infinity",
			v:            []any{math.Inf(-1)},
			wantVerbatim: false, wantDecoded: false,
		},
		"NilObject": {
			reason:       "a nil object is written null",
			v:            map[string]any{"m": map[string]any(nil)},
			wantVerbatim: false, wantDecoded: false,
		},
		"NilList": {
			reason:       "a nil list is written null",
			v:            []any{[]any(nil)},
			wantVerbatim: false, wantDecoded: false,
		},
		"InvalidUTF8Key": {
			reason:       "a key that is not UTF-8 is written with U+FFFD",
			v:            map[string]any{"\xff": "x"},
			wantVerbatim: false, wantDecoded: false,
		},
		"InvalidUTF8String": {
			reason:       "a string that is not UTF-8 is written with U+FFFD",
			v:            []any{"a\xffb"},
			wantVerbatim: false, wantDecoded: false,
		},
		"OtherType": {
			reason:       "other Go types are not JSON trees",
			v:            []any{int32(1)},
			wantVerbatim: false, wantDecoded: false,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.wantVerbatim, Verbatim(tc.v)); diff != "" {
				t.Errorf("\n%s\nVerbatim(...): -want, +got:\n%s", tc.reason, diff)
			}
			if diff := cmp.Diff(tc.wantDecoded, Decoded(tc.v)); diff != "" {
				t.Errorf("\n%s\nDecoded(...): -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}
