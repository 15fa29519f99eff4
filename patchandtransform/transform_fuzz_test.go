package patchandtransform

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	kjson "k8s.io/apimachinery/pkg/util/json"
)

// trFuzzTransform builds one transform from fuzz input. kind picks the
// transform type, sub its sub-type and the shape of its configuration; a and
// b are its strings, n its number. The bit 0x80 of sub drops the
// configuration block.
func trFuzzTransform(kind, sub uint8, a, b string, n int64) Transform {
	pick := func(i uint8, from ...string) string { return from[int(i)%len(from)] }
	raw := func(s string) RawJSON {
		if s == "" {
			return nil
		}
		return RawJSON(s)
	}
	t := Transform{}
	switch kind % 6 {
	case 0:
		t.Type = TransformTypeMap
		t.Map = &MapTransform{Pairs: map[string]RawJSON{a: raw(b)}}
	case 1:
		t.Type = TransformTypeMatch
		p := MatchPattern{Type: MatchPatternType(pick(sub, "literal", "regexp", "", "glob")), Result: raw(b)}
		if sub&0x04 == 0 {
			p.Literal, p.Regexp = &a, &a
		}
		m := &MatchTransform{Patterns: []MatchPattern{p}, FallbackTo: MatchFallbackTo(pick(sub>>3, "Value", "Input", ""))}
		if sub&0x20 != 0 {
			m.FallbackValue = raw(b)
		}
		t.Match = m
	case 2:
		t.Type = TransformTypeMath
		m := &MathTransform{Type: MathTransformType(pick(sub, "Multiply", "ClampMin", "ClampMax", "", "Divide"))}
		if sub&0x08 == 0 {
			m.Multiply, m.ClampMin, m.ClampMax = &n, &n, &n
		}
		t.Math = m
	case 3:
		t.Type = TransformTypeString
		group := int(n)
		c := StringConversionType(pick(uint8(n), "ToUpper", "ToLower", "ToBase64", "FromBase64", "ToJson",
			"ToSha1", "ToSha256", "ToSha512", "ToAdler32", "ToRot13"))
		s := &StringTransform{Type: StringTransformType(pick(sub, "Format", "Convert", "TrimPrefix", "TrimSuffix",
			"Regexp", "Join", "Replace", ""))}
		if sub&0x40 == 0 {
			s.Format, s.Convert, s.Trim = &a, &c, &a
			s.Regexp = &StringTransformRegexp{Match: a, Group: &group}
			s.Join = &StringTransformJoin{Separator: b}
			s.Replace = &StringTransformReplace{Search: a, Replace: b}
		}
		t.String = s
	case 4:
		t.Type = TransformTypeConvert
		c := &ConvertTransform{ToType: ConvertTransformType(pick(sub, "string", "bool", "int", "int64", "float64",
			"object", "array", "list"))}
		if f := pick(sub>>3, "", "none", "quantity", "json", "yaml"); f != "" {
			format := ConvertTransformFormat(f)
			c.Format = &format
		}
		t.Convert = c
	default:
		t.Type = TransformType(a)
	}
	if sub&0x80 != 0 {
		t.Map, t.Match, t.Math, t.String, t.Convert = nil, nil, nil, nil, nil
	}
	return t
}

// trFuzzInput decodes the fuzz input as the Kubernetes decoder would
// (integers are int64) or as the plain decoder would (float64); text that is
// not JSON is a string input.
func trFuzzInput(in []byte, plain bool) any {
	var v any
	var err error
	if plain {
		err = json.Unmarshal(in, &v)
	} else {
		err = kjson.Unmarshal(in, &v)
	}
	if err != nil {
		return string(in)
	}
	return v
}

// FuzzTransform checks that no transform panics in either dialect, and the
// invariants of the engines: a failure returns no value and names index 0, a
// string transform returns a string, results are deterministic, and the two
// dialects agree wherever upstream's code is the same.
func FuzzTransform(f *testing.F) {
	// Seeds from the vectors (kind: 0 map, 1 match, 2 math, 3 string, 4 convert).
	f.Add(uint8(0), uint8(0), "a", `"x"`, int64(0), []byte(`"a"`), false)           // TR-001
	f.Add(uint8(0), uint8(0), "a", ``, int64(0), []byte(`"a"`), false)              // TR-008
	f.Add(uint8(0), uint8(0), "1", `"x"`, int64(0), []byte(`1`), true)              // TR-004
	f.Add(uint8(1), uint8(1), "oo", `"hit"`, int64(0), []byte(`"xfoox"`), false)    // TR-010
	f.Add(uint8(1), uint8(0x20), "foo", `"x"`, int64(0), []byte(`"bar"`), false)    // TR-014
	f.Add(uint8(1), uint8(2), "a", `1`, int64(0), []byte(`"a"`), false)             // TR-019
	f.Add(uint8(2), uint8(1), "", "", int64(2), []byte(`1.9`), false)               // TR-023
	f.Add(uint8(2), uint8(3), "", "", int64(3), []byte(`2`), false)                 // TR-022
	f.Add(uint8(3), uint8(0), "v-%d", "", int64(0), []byte(`5`), true)              // TR-033
	f.Add(uint8(3), uint8(1), "", "", int64(4), []byte(`{"b":"<&>","a":1}`), false) // TR-049
	f.Add(uint8(3), uint8(4), "a(x)?", "", int64(1), []byte(`"abc"`), false)        // TR-065
	f.Add(uint8(3), uint8(4), "a", "", int64(-1), []byte(`"a"`), false)             // negative group
	f.Add(uint8(3), uint8(5), "", ", ", int64(0), []byte(`["a","b"]`), false)       // PT-42
	f.Add(uint8(3), uint8(6), "Cr", "B", int64(0), []byte(`"Crossplane"`), false)   // PT-37
	f.Add(uint8(4), uint8(0x14), "", "", int64(0), []byte(`"1Gi"`), false)          // TR-074a
	f.Add(uint8(4), uint8(0x1d), "", "", int64(0), []byte(`"null"`), false)         // TR-086
	f.Add(uint8(4), uint8(7), "", "", int64(0), []byte(`"x"`), false)               // TR-097
	f.Add(uint8(5), uint8(0), "patch", "", int64(0), []byte(`1`), false)            // unknown type
	f.Add(uint8(2), uint8(0x80), "", "", int64(0), []byte(`1`), false)              // missing block

	equal := cmp.Options{cmpopts.EquateNaNs()}

	f.Fuzz(func(t *testing.T, kind, sub uint8, a, b string, n int64, in []byte, plain bool) {
		tr := trFuzzTransform(kind, sub, a, b, n)
		type result struct {
			out any
			err string
		}
		results := map[Dialect]result{}

		for _, d := range []Dialect{Native, Function} {
			out, err := ResolveTransforms(d, []Transform{tr}, trFuzzInput(in, plain))
			again, errAgain := ResolveTransforms(d, []Transform{tr}, trFuzzInput(in, plain))
			if diff := cmp.Diff(out, again, equal); diff != "" {
				t.Errorf("%v: ResolveTransforms is not deterministic: -first, +second:\n%s", d, diff)
			}
			if (err == nil) != (errAgain == nil) || (err != nil && err.Error() != errAgain.Error()) {
				t.Errorf("%v: ResolveTransforms errors are not deterministic: %v, then %v", d, err, errAgain)
			}

			if err != nil {
				if out != nil {
					t.Errorf("%v: ResolveTransforms(...) returned %#v with error %v", d, out, err)
				}
				if !strings.HasPrefix(err.Error(), "transform at index 0 returned error: ") {
					t.Errorf("%v: ResolveTransforms(...): error without index: %v", d, err)
				}
				results[d] = result{err: err.Error()}
				continue
			}
			if tr.Type == TransformTypeString {
				if _, ok := out.(string); !ok {
					t.Errorf("%v: string transform returned %T", d, out)
				}
			}
			results[d] = result{out: out}
		}

		// Upstream code differs only for an empty math type, string Join and
		// Replace, and the wrapping of failed conversions.
		switch {
		case tr.Type == TransformTypeMath && tr.Math != nil && tr.Math.Type == "":
			return
		case tr.Type == TransformTypeString && tr.String != nil &&
			(tr.String.Type == StringTransformTypeJoin || tr.String.Type == StringTransformTypeReplace):
			return
		case tr.Type == TransformTypeConvert && results[Native].err != "":
			return
		}
		if diff := cmp.Diff(results[Native].out, results[Function].out, equal); diff != "" {
			t.Errorf("dialects disagree on %+v: -native, +function:\n%s", tr, diff)
		}
		if results[Native].err != results[Function].err {
			t.Errorf("dialects disagree on %+v: native error %q, function error %q", tr, results[Native].err, results[Function].err)
		}
	})
}
