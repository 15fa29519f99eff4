package patchandtransform

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"k8s.io/apimachinery/pkg/api/resource"
)

// Test helpers of this file carry a tr prefix: other files of the package
// are written concurrently and must not collide with them.

func trPtr[T any](v T) *T { return &v }

// trMap builds a map transform; values are raw JSON text, "" meaning absent
// (how the front-ends hand over a null value).
func trMap(pairs map[string]string) Transform {
	m := &MapTransform{Pairs: map[string]RawJSON{}}
	for k, v := range pairs {
		if v == "" {
			m.Pairs[k] = nil
			continue
		}
		m.Pairs[k] = RawJSON(v)
	}
	return Transform{Type: TransformTypeMap, Map: m}
}

func trMatch(m MatchTransform) Transform {
	return Transform{Type: TransformTypeMatch, Match: &m}
}

func trLiteral(literal, result string) MatchPattern {
	return MatchPattern{Type: MatchPatternTypeLiteral, Literal: &literal, Result: RawJSON(result)}
}

func trRegexp(re, result string) MatchPattern {
	return MatchPattern{Type: MatchPatternTypeRegexp, Regexp: &re, Result: RawJSON(result)}
}

func trMath(typ MathTransformType, multiply, clampMin, clampMax *int64) Transform {
	return Transform{Type: TransformTypeMath, Math: &MathTransform{Type: typ, Multiply: multiply, ClampMin: clampMin, ClampMax: clampMax}}
}

func trString(s StringTransform) Transform {
	return Transform{Type: TransformTypeString, String: &s}
}

func trFormat(format string) Transform {
	return trString(StringTransform{Type: StringTransformTypeFormat, Format: &format})
}

func trConvertString(c StringConversionType) Transform {
	return trString(StringTransform{Type: StringTransformTypeConvert, Convert: &c})
}

func trRegexpGroup(match string, group *int) Transform {
	return trString(StringTransform{Type: StringTransformTypeRegexp, Regexp: &StringTransformRegexp{Match: match, Group: group}})
}

func trJoin(sep string) Transform {
	return trString(StringTransform{Type: StringTransformTypeJoin, Join: &StringTransformJoin{Separator: sep}})
}

func trConvert(to ConvertTransformType, format ConvertTransformFormat) Transform {
	c := &ConvertTransform{ToType: to}
	if format != "" {
		c.Format = &format
	}
	return Transform{Type: TransformTypeConvert, Convert: c}
}

// trCheckErr compares an error with an expected substring. The TR and PT
// vectors pin messages (docs/semantics/legacy.md#test-vectors), so only these tests match error
// text; "" means no error is expected.
func trCheckErr(t *testing.T, reason, call, want string, err error) {
	t.Helper()
	switch {
	case want == "" && err != nil:
		t.Errorf("\n%s\n%s: want no error, got: %v", reason, call, err)
	case want != "" && err == nil:
		t.Errorf("\n%s\n%s: want error containing %q, got none", reason, call, want)
	case want != "" && !strings.Contains(err.Error(), want):
		t.Errorf("\n%s\n%s: want error containing %q, got: %v", reason, call, want, err)
	}
}

type trWant struct {
	out any
	err string
}

// TestResolveTransformsVectors runs every transform vector
// (docs/semantics/legacy.md#test-vectors, TR-001 … TR-098) in the Native dialect. Each row also runs in the
// Function dialect, which must agree unless the row says otherwise in fn
// (docs/semantics/pipeline.md#transforms and docs/reference/gaps.md#known-gaps).
func TestResolveTransformsVectors(t *testing.T) {
	two := trPtr(int64(2))
	matchFoo := []MatchPattern{trLiteral("foo", "1")}

	cases := map[string]struct {
		reason string
		ts     []Transform
		in     any
		want   trWant
		fn     *trWant
	}{
		// map
		"TR001MapHit": {
			reason: "TR-001: a string input is looked up in the map.",
			ts:     []Transform{trMap(map[string]string{"a": `"x"`})},
			in:     "a",
			want:   trWant{out: "x"},
		},
		"TR002MapMissingKey": {
			reason: "TR-002: a missing key is an error, there is no fallback.",
			ts:     []Transform{trMap(map[string]string{"a": `"x"`})},
			in:     "b",
			want:   trWant{err: "key b is not found in map"},
		},
		"TR003MapInt64Input": {
			reason: "TR-003: map never stringifies an int64 input (Q-15).",
			ts:     []Transform{trMap(map[string]string{"1": `"x"`})},
			in:     int64(1),
			want:   trWant{err: "type int64 is not supported for map transform"},
		},
		"TR004MapFloat64Input": {
			reason: "TR-004: map never stringifies a float64 input (Q-15).",
			ts:     []Transform{trMap(map[string]string{"1": `"x"`})},
			in:     float64(1),
			want:   trWant{err: "type float64 is not supported for map transform"},
		},
		"TR005MapBoolInput": {
			reason: "TR-005: map never stringifies a bool input (Q-15).",
			ts:     []Transform{trMap(map[string]string{"true": `"x"`})},
			in:     true,
			want:   trWant{err: "type bool is not supported for map transform"},
		},
		"TR006MapNumberValueIsFloat64": {
			reason: "TR-006: map values are decoded with the plain JSON decoder, so numbers are float64 (Q-2).",
			ts:     []Transform{trMap(map[string]string{"a": `1`})},
			in:     "a",
			want:   trWant{out: float64(1)},
		},
		"TR007MapNestedValue": {
			reason: "TR-007: nested map values are plain-decoded too.",
			ts:     []Transform{trMap(map[string]string{"a": `{"b":[1,"c"]}`})},
			in:     "a",
			want:   trWant{out: map[string]any{"b": []any{float64(1), "c"}}},
		},
		"TR008MapNullValue": {
			reason: "TR-008: a null map value is an error, not a null result (Q-16).",
			ts:     []Transform{trMap(map[string]string{"a": ""})},
			in:     "a",
			want:   trWant{err: "value for key a is not valid JSON: unexpected end of JSON input"},
		},
		"TR008MapLiteralNullValue": {
			reason: "TR-008: a value kept as the literal JSON null behaves as an absent one, as upstream's JSON type drops null.",
			ts:     []Transform{{Type: TransformTypeMap, Map: &MapTransform{Pairs: map[string]RawJSON{"a": RawJSON("null")}}}},
			in:     "a",
			want:   trWant{err: "value for key a is not valid JSON: unexpected end of JSON input"},
		},

		// match
		"TR009MatchLiteral": {
			reason: "TR-009: a literal match returns its result, plain-decoded (float64).",
			ts:     []Transform{trMatch(MatchTransform{Patterns: matchFoo, FallbackTo: MatchFallbackToValue})},
			in:     "foo",
			want:   trWant{out: float64(1)},
		},
		"TR010MatchRegexpUnanchored": {
			reason: "TR-010: a regexp matches anywhere in the input.",
			ts:     []Transform{trMatch(MatchTransform{Patterns: []MatchPattern{trRegexp("oo", `"hit"`)}, FallbackTo: MatchFallbackToValue})},
			in:     "xfoox",
			want:   trWant{out: "hit"},
		},
		"TR011MatchNoMatchNoFallback": {
			reason: "TR-011: no match and no fallback value gives nil.",
			ts:     []Transform{trMatch(MatchTransform{Patterns: matchFoo, FallbackTo: MatchFallbackToValue})},
			in:     "bar",
			want:   trWant{out: nil},
		},
		"TR012MatchFallbackValue": {
			reason: "TR-012: no match returns the fallback value.",
			ts:     []Transform{trMatch(MatchTransform{Patterns: matchFoo, FallbackValue: RawJSON(`"dflt"`), FallbackTo: MatchFallbackToValue})},
			in:     "bar",
			want:   trWant{out: "dflt"},
		},
		"TR013MatchFallbackToInput": {
			reason: "TR-013: no match with fallbackTo Input returns the input.",
			ts:     []Transform{trMatch(MatchTransform{Patterns: matchFoo, FallbackTo: MatchFallbackToInput})},
			in:     "bar",
			want:   trWant{out: "bar"},
		},
		"TR014MatchBothFallbacks": {
			reason: "TR-014: fallbackTo Input with a fallback value fails when nothing matched.",
			ts:     []Transform{trMatch(MatchTransform{Patterns: matchFoo, FallbackValue: RawJSON(`"x"`), FallbackTo: MatchFallbackToInput})},
			in:     "bar",
			want:   trWant{err: "cannot set both a fallback value and the fallback to input flag"},
		},
		"TR015MatchBothFallbacksButMatched": {
			reason: "TR-015: the both-fallbacks error is raised only when no pattern matched.",
			ts:     []Transform{trMatch(MatchTransform{Patterns: matchFoo, FallbackValue: RawJSON(`"x"`), FallbackTo: MatchFallbackToInput})},
			in:     "foo",
			want:   trWant{out: float64(1)},
		},
		"TR016MatchLiteralInt64Input": {
			reason: "TR-016: a literal pattern requires a string input.",
			ts:     []Transform{trMatch(MatchTransform{Patterns: []MatchPattern{trLiteral("5", "1")}, FallbackTo: MatchFallbackToValue})},
			in:     int64(5),
			want:   trWant{err: "cannot match pattern at index 0: unsupported input type 'int64'"},
		},
		"TR017MatchRegexpNullInput": {
			reason: "TR-017: a regexp pattern names a null input 'null'.",
			ts:     []Transform{trMatch(MatchTransform{Patterns: []MatchPattern{trRegexp(".*", "1")}, FallbackTo: MatchFallbackToValue})},
			in:     nil,
			want:   trWant{err: "unsupported input type 'null'"},
		},
		"TR018MatchLiteralNullInput": {
			reason: "TR-018: a literal pattern names a null input '<nil>'.",
			ts:     []Transform{trMatch(MatchTransform{Patterns: []MatchPattern{trLiteral("", "1")}, FallbackTo: MatchFallbackToValue})},
			in:     nil,
			want:   trWant{err: "unsupported input type '<nil>'"},
		},
		"TR019MatchUndefaultedPatternType": {
			reason: "TR-019: the runtime does not default an empty pattern type.",
			ts: []Transform{trMatch(MatchTransform{
				Patterns:   []MatchPattern{{Literal: trPtr("a"), Result: RawJSON("1")}},
				FallbackTo: MatchFallbackToValue,
			})},
			in:   "a",
			want: trWant{err: "unsupported pattern type ''"},
		},

		// math
		"TR020MathMultiplyInt64": {
			reason: "TR-020: multiplying an int64 gives an int64.",
			ts:     []Transform{trMath(MathTransformTypeMultiply, two, nil, nil)},
			in:     int64(3),
			want:   trWant{out: int64(6)},
		},
		"TR021MathMultiplyFloat64": {
			reason: "TR-021: multiplying a float64 gives a float64, even when integral.",
			ts:     []Transform{trMath(MathTransformTypeMultiply, two, nil, nil)},
			in:     1.5,
			want:   trWant{out: float64(3)},
		},
		"TR022MathUndefaultedType": {
			reason: "TR-022: Native treats an empty math type as Multiply; the function requires the type.",
			ts:     []Transform{trMath("", trPtr(int64(3)), nil, nil)},
			in:     int64(2),
			want:   trWant{out: int64(6)},
			fn:     &trWant{err: "math transform could not resolve: type: Required value: math transform type is required"},
		},
		"TR023MathClampMinBelow": {
			reason: "TR-023: a violated ClampMin returns the bound as int64 (Q-17).",
			ts:     []Transform{trMath(MathTransformTypeClampMin, nil, two, nil)},
			in:     1.9,
			want:   trWant{out: int64(2)},
		},
		"TR024MathClampMinAbove": {
			reason: "TR-024: ClampMin returns an input that passes unchanged (Q-17).",
			ts:     []Transform{trMath(MathTransformTypeClampMin, nil, two, nil)},
			in:     2.5,
			want:   trWant{out: 2.5},
		},
		"TR025MathClampMaxTruncates": {
			reason: "TR-025: ClampMax compares the truncated input, so 2.9 passes unchanged (Q-17).",
			ts:     []Transform{trMath(MathTransformTypeClampMax, nil, nil, two)},
			in:     2.9,
			want:   trWant{out: 2.9},
		},
		"TR026MathClampMaxAbove": {
			reason: "TR-026: a violated ClampMax returns the bound as int64.",
			ts:     []Transform{trMath(MathTransformTypeClampMax, nil, nil, two)},
			in:     3.1,
			want:   trWant{out: int64(2)},
		},
		"TR027MathClampMaxInt64": {
			reason: "TR-027: ClampMax of an int64.",
			ts:     []Transform{trMath(MathTransformTypeClampMax, nil, nil, two)},
			in:     int64(5),
			want:   trWant{out: int64(2)},
		},
		"TR028MathStringInput": {
			reason: "TR-028: math does not parse strings.",
			ts:     []Transform{trMath(MathTransformTypeMultiply, two, nil, nil)},
			in:     "3",
			want:   trWant{err: "input is required to be a number for math transformer, got string"},
		},
		"TR029MathNullInput": {
			reason: "TR-029: math names a null input <nil>.",
			ts:     []Transform{trMath(MathTransformTypeMultiply, two, nil, nil)},
			in:     nil,
			want:   trWant{err: "got <nil>"},
		},
		"TR030MathMissingOperand": {
			reason: "TR-030: the math configuration is validated at run time.",
			ts:     []Transform{trMath(MathTransformTypeMultiply, nil, nil, nil)},
			in:     int64(2),
			want:   trWant{err: "multiply: Required value: must specify a value if a multiply math transform is specified"},
		},

		// string Format
		"TR031FormatPercentSInt64": {
			reason: "TR-031: %s of an int64.",
			ts:     []Transform{trFormat("v-%s")},
			in:     int64(5),
			want:   trWant{out: "v-%!s(int64=5)"},
		},
		"TR032FormatPercentDInt64": {
			reason: "TR-032: %d of an int64.",
			ts:     []Transform{trFormat("v-%d")},
			in:     int64(5),
			want:   trWant{out: "v-5"},
		},
		"TR033FormatPercentDFloat64": {
			reason: "TR-033: %d of a float64 (Q-2).",
			ts:     []Transform{trFormat("v-%d")},
			in:     float64(5),
			want:   trWant{out: "v-%!d(float64=5)"},
		},
		"TR034FormatPercentVFloat64": {
			reason: "TR-034: %v of an integral float64.",
			ts:     []Transform{trFormat("v-%v")},
			in:     float64(5),
			want:   trWant{out: "v-5"},
		},
		"TR035FormatPercentVLargeFloat64": {
			reason: "TR-035: %v of a large float64 uses an exponent.",
			ts:     []Transform{trFormat("%v")},
			in:     1.0e21,
			want:   trWant{out: "1e+21"},
		},
		"TR036FormatObject": {
			reason: "TR-036: %v of an object sorts keys.",
			ts:     []Transform{trFormat("%v")},
			in:     map[string]any{"b": int64(1), "a": "x"},
			want:   trWant{out: "map[a:x b:1]"},
		},
		"TR037FormatList": {
			reason: "TR-037: %v of a list.",
			ts:     []Transform{trFormat("%v")},
			in:     []any{"a", int64(1)},
			want:   trWant{out: "[a 1]"},
		},
		"TR038FormatNull": {
			reason: "TR-038: %s of null.",
			ts:     []Transform{trFormat("%s")},
			in:     nil,
			want:   trWant{out: "%!s(<nil>)"},
		},
		"TR039FormatExtra": {
			reason: "TR-039: a format without verbs reports the extra argument.",
			ts:     []Transform{trFormat("abc")},
			in:     "x",
			want:   trWant{out: "abc%!(EXTRA string=x)"},
		},
		"TR040FormatMissing": {
			reason: "TR-040: a format with two verbs reports the missing argument.",
			ts:     []Transform{trFormat("%s-%s")},
			in:     "x",
			want:   trWant{out: "x-%!s(MISSING)"},
		},
		"TR041StringUndefaultedType": {
			reason: "TR-041: the runtime does not default an empty string type.",
			ts:     []Transform{trString(StringTransform{Format: trPtr("%s")})},
			in:     "x",
			want:   trWant{err: "type  is not supported for string transform type"},
		},

		// string Convert
		"TR042ConvertToUpperFloat64": {
			reason: "TR-042: ToUpper acts on %v of the input.",
			ts:     []Transform{trConvertString(StringConversionTypeToUpper)},
			in:     1.5,
			want:   trWant{out: "1.5"},
		},
		"TR043ConvertToLower": {
			reason: "TR-043: ToLower.",
			ts:     []Transform{trConvertString(StringConversionTypeToLower)},
			in:     "AbC",
			want:   trWant{out: "abc"},
		},
		"TR044ConvertToBase64": {
			reason: "TR-044: ToBase64 is standard, padded base64.",
			ts:     []Transform{trConvertString(StringConversionTypeToBase64)},
			in:     "CrossPlane",
			want:   trWant{out: "Q3Jvc3NQbGFuZQ=="},
		},
		"TR045ConvertToBase64Int64": {
			reason: "TR-045: ToBase64 acts on %v of the input.",
			ts:     []Transform{trConvertString(StringConversionTypeToBase64)},
			in:     int64(42),
			want:   trWant{out: "NDI="},
		},
		"TR046ConvertFromBase64": {
			reason: "TR-046: FromBase64.",
			ts:     []Transform{trConvertString(StringConversionTypeFromBase64)},
			in:     "Q3Jvc3NQbGFuZQ==",
			want:   trWant{out: "CrossPlane"},
		},
		"TR047ConvertFromBase64Invalid": {
			reason: "TR-047: FromBase64 of invalid base64 fails.",
			ts:     []Transform{trConvertString(StringConversionTypeFromBase64)},
			in:     "not-base64!",
			want:   trWant{err: "string is not valid base64: illegal base64 data at input byte 3"},
		},
		"TR048ConvertToJSONString": {
			reason: "TR-048: ToJson quotes strings.",
			ts:     []Transform{trConvertString(StringConversionTypeToJSON)},
			in:     "foo",
			want:   trWant{out: `"foo"`},
		},
		"TR049ConvertToJSONEscapesHTML": {
			reason: "TR-049: ToJson sorts keys and escapes <, > and & (Q-38).",
			ts:     []Transform{trConvertString(StringConversionTypeToJSON)},
			in:     map[string]any{"b": "<&>", "a": int64(1)},
			want:   trWant{out: `{"a":1,"b":"\u003c\u0026\u003e"}`},
		},
		"TR050ConvertToJSONNull": {
			reason: "TR-050: ToJson of null.",
			ts:     []Transform{trConvertString(StringConversionTypeToJSON)},
			in:     nil,
			want:   trWant{out: "null"},
		},
		"TR051ConvertToJSONFloat64": {
			reason: "TR-051: ToJson of an integral float64.",
			ts:     []Transform{trConvertString(StringConversionTypeToJSON)},
			in:     float64(3),
			want:   trWant{out: "3"},
		},
		"TR052ConvertToSha1": {
			reason: "TR-052: ToSha1 of a string hashes its bytes.",
			ts:     []Transform{trConvertString(StringConversionTypeToSHA1)},
			in:     "Crossplane",
			want:   trWant{out: "3b683dc8ff44122b331a5e4f253dd69d90726d75"},
		},
		"TR053ConvertToSha256": {
			reason: "TR-053: ToSha256 of a string.",
			ts:     []Transform{trConvertString(StringConversionTypeToSHA256)},
			in:     "Crossplane",
			want:   trWant{out: "19c8a7c24ed0067f606815b59e5b82d92935ff69deed04171457a55018e31224"},
		},
		"TR054ConvertToSha256Object": {
			reason: "TR-054: ToSha256 of an object hashes its JSON encoding.",
			ts:     []Transform{trConvertString(StringConversionTypeToSHA256)},
			in:     map[string]any{"a": int64(1)},
			want:   trWant{out: "015abd7f5cc57a2dd94b7590f04ad8084273905ee33ec5cebeae62276a97f862"},
		},
		"TR055aConvertToSha256Int64": {
			reason: "TR-055a: ToSha256 of int64 1234 hashes its JSON encoding 1234.",
			ts:     []Transform{trConvertString(StringConversionTypeToSHA256)},
			in:     int64(1234),
			want:   trWant{out: "03ac674216f3e15c761ee1a5e255f067953623c8b388b4459e13f978d7c846f4"},
		},
		"TR055bConvertToSha256StringCollides": {
			reason: "TR-055b: ToSha256 of the string 1234 gives the same digest (Q-38).",
			ts:     []Transform{trConvertString(StringConversionTypeToSHA256)},
			in:     "1234",
			want:   trWant{out: "03ac674216f3e15c761ee1a5e255f067953623c8b388b4459e13f978d7c846f4"},
		},
		"TR056ConvertToSha512": {
			reason: "TR-056: ToSha512 of a string.",
			ts:     []Transform{trConvertString(StringConversionTypeToSHA512)},
			in:     "Crossplane",
			want:   trWant{out: "0016037c62c92b5cc4a282fbe30cdd228fa001624b26fd31baa9fcb76a9c60d48e2e7a16cf8729a2d9cba3d23e1d846e7721a5381b9a92dd813178e9a6686205"},
		},
		"TR057ConvertToAdler32": {
			reason: "TR-057: ToAdler32 prints an unsigned decimal.",
			ts:     []Transform{trConvertString(StringConversionTypeToAdler32)},
			in:     "Crossplane",
			want:   trWant{out: "373097499"},
		},
		"TR058ConvertToAdler32Null": {
			reason: "TR-058: ToAdler32 of null checksums the bytes null.",
			ts:     []Transform{trConvertString(StringConversionTypeToAdler32)},
			in:     nil,
			want:   trWant{out: "73335228"},
		},

		// string Trim, Regexp, Join
		"TR059TrimPrefix": {
			reason: "TR-059: TrimPrefix.",
			ts:     []Transform{trString(StringTransform{Type: StringTransformTypeTrimPrefix, Trim: trPtr("https://")})},
			in:     "https://crossplane.io",
			want:   trWant{out: "crossplane.io"},
		},
		"TR060TrimSuffix": {
			reason: "TR-060: TrimSuffix.",
			ts:     []Transform{trString(StringTransform{Type: StringTransformTypeTrimSuffix, Trim: trPtr("-test")})},
			in:     "my-string-test",
			want:   trWant{out: "my-string"},
		},
		"TR061TrimPrefixInt64": {
			reason: "TR-061: TrimPrefix acts on %v of the input.",
			ts:     []Transform{trString(StringTransform{Type: StringTransformTypeTrimPrefix, Trim: trPtr("1")})},
			in:     int64(123),
			want:   trWant{out: "23"},
		},
		"TR062RegexpWholeMatch": {
			reason: "TR-062: Regexp returns the leftmost match by default.",
			ts:     []Transform{trRegexpGroup("[0-9]+", nil)},
			in:     "ab-12-cd-34",
			want:   trWant{out: "12"},
		},
		"TR063RegexpGroup": {
			reason: "TR-063: Regexp returns the requested group.",
			ts:     []Transform{trRegexpGroup("ab-([0-9]+)", trPtr(1))},
			in:     "ab-12-cd",
			want:   trWant{out: "12"},
		},
		"TR064RegexpNoMatch": {
			reason: "TR-064: no match is an error.",
			ts:     []Transform{trRegexpGroup("z+", nil)},
			in:     "abc",
			want:   trWant{err: `regexp "z+" had no matches for group 0`},
		},
		"TR065RegexpGroupDidNotParticipate": {
			reason: "TR-065: a group that did not take part in the match is empty, not an error.",
			ts:     []Transform{trRegexpGroup("a(x)?", trPtr(1))},
			in:     "abc",
			want:   trWant{out: ""},
		},
		"TR066RegexpGroupOutOfRange": {
			reason: "TR-066: a group index beyond the groups is an error.",
			ts:     []Transform{trRegexpGroup("my-([0-9]+)-string", trPtr(2))},
			in:     "my-1-string",
			want:   trWant{err: "had no matches for group 2"},
		},
		"TR067JoinMixed": {
			reason: "TR-067: Join stringifies each element with %v.",
			ts:     []Transform{trJoin(",")},
			in:     []any{"a", int64(1), true, 1.5, nil},
			want:   trWant{out: "a,1,true,1.5,<nil>"},
		},
		"TR068JoinNonList": {
			reason: "TR-068: Join fails on a non-list; the function words it differently.",
			ts:     []Transform{trJoin(",")},
			in:     "abc",
			want:   trWant{err: "cannot join non-array values"},
			fn:     &trWant{err: "string transform could not resolve: could not parse input array"},
		},
		"TR069JoinEmptyList": {
			reason: "TR-069: Join of an empty list is empty.",
			ts:     []Transform{trJoin(",")},
			in:     []any{},
			want:   trWant{out: ""},
		},

		// convert
		"TR070ConvertStringToInt": {
			reason: "TR-070: int is an alias of int64.",
			ts:     []Transform{trConvert(ConvertTransformTypeInt, "")},
			in:     "42",
			want:   trWant{out: int64(42)},
		},
		"TR071ConvertStringToInt64Invalid": {
			reason: "TR-071: a failed conversion is wrapped with the value in Native only.",
			ts:     []Transform{trConvert(ConvertTransformTypeInt64, "")},
			in:     "4.2",
			want:   trWant{err: `cannot convert value 4.2: strconv.ParseInt: parsing "4.2": invalid syntax`},
			fn:     &trWant{err: `convert transform could not resolve: strconv.ParseInt: parsing "4.2": invalid syntax`},
		},
		"TR072aConvertStringToBool": {
			reason: "TR-072a: Go's bool parse accepts True.",
			ts:     []Transform{trConvert(ConvertTransformTypeBool, "")},
			in:     "True",
			want:   trWant{out: true},
		},
		"TR072bConvertStringOneToBool": {
			reason: "TR-072b: Go's bool parse accepts 1.",
			ts:     []Transform{trConvert(ConvertTransformTypeBool, "")},
			in:     "1",
			want:   trWant{out: true},
		},
		"TR072cConvertStringYesToBool": {
			reason: "TR-072c: Go's bool parse rejects yes.",
			ts:     []Transform{trConvert(ConvertTransformTypeBool, "")},
			in:     "yes",
			want:   trWant{err: `strconv.ParseBool: parsing "yes": invalid syntax`},
		},
		"TR073ConvertStringToFloat64": {
			reason: "TR-073: Go's float parse accepts exponents.",
			ts:     []Transform{trConvert(ConvertTransformTypeFloat64, "")},
			in:     "1e3",
			want:   trWant{out: float64(1000)},
		},
		"TR074aConvertQuantityGi": {
			reason: "TR-074a: quantity 1Gi as an approximate float64.",
			ts:     []Transform{trConvert(ConvertTransformTypeFloat64, ConvertTransformFormatQuantity)},
			in:     "1Gi",
			want:   trWant{out: float64(1073741824)},
		},
		"TR074bConvertQuantityMilli": {
			reason: "TR-074b: quantity 250m as an approximate float64.",
			ts:     []Transform{trConvert(ConvertTransformTypeFloat64, ConvertTransformFormatQuantity)},
			in:     "250m",
			want:   trWant{out: 0.25},
		},
		"TR075ConvertQuantityToInt": {
			reason: "TR-075: quantity is only supported towards float64; int prints as int64.",
			ts:     []Transform{trConvert(ConvertTransformTypeInt, ConvertTransformFormatQuantity)},
			in:     "1Gi",
			want:   trWant{err: "conversion from string to int64 is not supported with format quantity"},
		},
		"TR076aConvertInt64TwoToBool": {
			reason: "TR-076a: int64 to bool is true only for 1 (Q-18).",
			ts:     []Transform{trConvert(ConvertTransformTypeBool, "")},
			in:     int64(2),
			want:   trWant{out: false},
		},
		"TR076bConvertInt64OneToBool": {
			reason: "TR-076b: int64 1 to bool is true.",
			ts:     []Transform{trConvert(ConvertTransformTypeBool, "")},
			in:     int64(1),
			want:   trWant{out: true},
		},
		"TR077ConvertFloat64ToBool": {
			reason: "TR-077: float64 to bool is true only for 1 (Q-18).",
			ts:     []Transform{trConvert(ConvertTransformTypeBool, "")},
			in:     float64(2),
			want:   trWant{out: false},
		},
		"TR078ConvertFloat64ToInt64": {
			reason: "TR-078: float64 to int64 truncates toward zero (Q-18).",
			ts:     []Transform{trConvert(ConvertTransformTypeInt64, "")},
			in:     -1.9,
			want:   trWant{out: int64(-1)},
		},
		"TR079aConvertLargeFloat64ToString": {
			reason: "TR-079a: float64 to string never uses an exponent.",
			ts:     []Transform{trConvert(ConvertTransformTypeString, "")},
			in:     1.0e21,
			want:   trWant{out: "1000000000000000000000"},
		},
		"TR079bConvertSmallFloat64ToString": {
			reason: "TR-079b: float64 to string is the shortest decimal.",
			ts:     []Transform{trConvert(ConvertTransformTypeString, "")},
			in:     0.1,
			want:   trWant{out: "0.1"},
		},
		"TR080ConvertInt64ToString": {
			reason: "TR-080: int64 to string.",
			ts:     []Transform{trConvert(ConvertTransformTypeString, "")},
			in:     int64(-7),
			want:   trWant{out: "-7"},
		},
		"TR081ConvertInt64ToFloat64": {
			reason: "TR-081: int64 to float64.",
			ts:     []Transform{trConvert(ConvertTransformTypeFloat64, "")},
			in:     int64(7),
			want:   trWant{out: float64(7)},
		},
		"TR082ConvertBoolToString": {
			reason: "TR-082: bool to string.",
			ts:     []Transform{trConvert(ConvertTransformTypeString, "")},
			in:     true,
			want:   trWant{out: "true"},
		},
		"TR083ConvertBoolToInt": {
			reason: "TR-083: bool to int gives int64 1.",
			ts:     []Transform{trConvert(ConvertTransformTypeInt, "")},
			in:     true,
			want:   trWant{out: int64(1)},
		},
		"TR084ConvertBoolToFloat64": {
			reason: "TR-084: bool to float64 gives 0 for false.",
			ts:     []Transform{trConvert(ConvertTransformTypeFloat64, "")},
			in:     false,
			want:   trWant{out: float64(0)},
		},
		"TR085ConvertJSONToObject": {
			reason: "TR-085: string to object decodes plain JSON (float64 numbers).",
			ts:     []Transform{trConvert(ConvertTransformTypeObject, ConvertTransformFormatJSON)},
			in:     `{"a":1,"b":[true]}`,
			want:   trWant{out: map[string]any{"a": float64(1), "b": []any{true}}},
		},
		"TR086ConvertJSONNullToObject": {
			reason: "TR-086: string null to object gives null; precisely upstream's nil map (Go type map[string]interface {}, JSON null).",
			ts:     []Transform{trConvert(ConvertTransformTypeObject, ConvertTransformFormatJSON)},
			in:     "null",
			want:   trWant{out: map[string]any(nil)},
		},
		"TR087ConvertJSONArrayToObject": {
			reason: "TR-087: non-object JSON does not convert to an object.",
			ts:     []Transform{trConvert(ConvertTransformTypeObject, ConvertTransformFormatJSON)},
			in:     "[1]",
			want:   trWant{err: "cannot convert value [1]: json: cannot unmarshal array into Go value of type map[string]interface {}"},
			fn:     &trWant{err: "convert transform could not resolve: json: cannot unmarshal array into Go value of type map[string]interface {}"},
		},
		"TR088ConvertJSONToArray": {
			reason: "TR-088: string to array decodes plain JSON.",
			ts:     []Transform{trConvert(ConvertTransformTypeArray, ConvertTransformFormatJSON)},
			in:     `[1,"a"]`,
			want:   trWant{out: []any{float64(1), "a"}},
		},
		"TR089ConvertStringToObjectWithoutJSON": {
			reason: "TR-089: string to object needs format json.",
			ts:     []Transform{trConvert(ConvertTransformTypeObject, "")},
			in:     "{}",
			want:   trWant{err: "conversion from string to object is not supported with format none"},
		},
		"TR090ConvertObjectInput": {
			reason: "TR-090: convert rejects object input (Q-18).",
			ts:     []Transform{trConvert(ConvertTransformTypeString, "")},
			in:     map[string]any{"a": "b"},
			want:   trWant{err: "invalid input type map[string]interface {}"},
		},
		"TR091ConvertListInput": {
			reason: "TR-091: convert rejects list input, even towards array (Q-18).",
			ts:     []Transform{trConvert(ConvertTransformTypeArray, "")},
			in:     []any{"a"},
			want:   trWant{err: "invalid input type []interface {}"},
		},
		"TR092ConvertNullInput": {
			reason: "TR-092: convert rejects null input (Q-18).",
			ts:     []Transform{trConvert(ConvertTransformTypeString, "")},
			in:     nil,
			want:   trWant{err: "invalid input type <nil>"},
		},
		"TR093ConvertIdentityIgnoresFormat": {
			reason: "TR-093: string to string returns the input whatever the format.",
			ts:     []Transform{trConvert(ConvertTransformTypeString, ConvertTransformFormatJSON)},
			in:     "x",
			want:   trWant{out: "x"},
		},
		"TR094ConvertIdentityIgnoresQuantity": {
			reason: "TR-094: float64 to float64 returns the input whatever the format.",
			ts:     []Transform{trConvert(ConvertTransformTypeFloat64, ConvertTransformFormatQuantity)},
			in:     1.5,
			want:   trWant{out: 1.5},
		},
		"TR095ConvertFloat64ToIntWithJSON": {
			reason: "TR-095: float64 to int64 exists only with format none.",
			ts:     []Transform{trConvert(ConvertTransformTypeInt, ConvertTransformFormatJSON)},
			in:     1.5,
			want:   trWant{err: "conversion from float64 to int64 is not supported with format json"},
		},
		"TR096ConvertInt64ToInt": {
			reason: "TR-096: int64 to int is the identity.",
			ts:     []Transform{trConvert(ConvertTransformTypeInt, "")},
			in:     int64(3),
			want:   trWant{out: int64(3)},
		},
		"TR097ConvertInvalidToType": {
			reason: "TR-097: the convert configuration is validated at run time.",
			ts:     []Transform{trConvert("list", "")},
			in:     "x",
			want:   trWant{err: `toType: Invalid value: "list": invalid type`},
		},

		// chains
		"TR098ChainIndex": {
			reason: "TR-098: a failure names the index of the failing transform and its type.",
			ts:     []Transform{trFormat("%s"), trMath(MathTransformTypeMultiply, two, nil, nil)},
			in:     "x",
			want:   trWant{err: "transform at index 1 returned error: math transform could not resolve: input is required to be a number for math transformer, got string"},
		},
	}

	for name, tc := range cases {
		for _, d := range []Dialect{Native, Function} {
			want := tc.want
			if d == Function && tc.fn != nil {
				want = *tc.fn
			}
			t.Run(name+"/"+d.String(), func(t *testing.T) {
				got, err := ResolveTransforms(d, tc.ts, tc.in)
				call := "ResolveTransforms(" + d.String() + ", ...)"
				if diff := cmp.Diff(want.out, got); diff != "" {
					t.Errorf("\n%s\n%s: -want, +got:\n%s", tc.reason, call, diff)
				}
				trCheckErr(t, tc.reason, call, want.err, err)
				// A single transform that fails while resolving is wrapped
				// twice, with its index and its type.
				if err != nil && len(tc.ts) == 1 {
					prefix := "transform at index 0 returned error: " + string(tc.ts[0].Type) + " transform could not resolve: "
					if !strings.HasPrefix(err.Error(), prefix) {
						t.Errorf("\n%s\n%s: want error starting with %q, got: %v", tc.reason, call, prefix, err)
					}
				}
			})
		}
	}
}

// TestResolveTransformsFunction runs the transform vectors of
// docs/semantics/pipeline.md#test-vectors in the Function dialect, with the Go types of the
// upstream unit tests they come from (plain Go ints among them), and the
// native/function pairs PT-42 and PT-43.
func TestResolveTransformsFunction(t *testing.T) {
	two := trPtr(int64(2))
	quantity := ConvertTransformFormatQuantity

	cases := map[string]struct {
		reason string
		d      Dialect
		ts     []Transform
		in     any
		want   trWant
		is     error
	}{
		"PT34MapIntInput": {
			reason: "PT-34 (TestMapResolve NonStringInput): a Go int input is not supported.",
			d:      Function,
			ts:     []Transform{trMap(map[string]string{"ola": `"voila"`})},
			in:     5,
			want:   trWant{err: "type int is not supported for map transform"},
		},
		"PT34MapKeyNotFound": {
			reason: "PT-34 (TestMapResolve KeyNotFound).",
			d:      Function,
			ts:     []Transform{trMap(map[string]string{"hola": `"voila"`})},
			in:     "ola",
			want:   trWant{err: "key ola is not found in map"},
		},
		"PT34MapSuccessString": {
			reason: "PT-34 (TestMapResolve SuccessString).",
			d:      Function,
			ts:     []Transform{trMap(map[string]string{"ola": `"voila"`})},
			in:     "ola",
			want:   trWant{out: "voila"},
		},
		"PT35MathMultiplyInt": {
			reason: "PT-35: multiplying a Go int gives an int64.",
			d:      Function,
			ts:     []Transform{trMath(MathTransformTypeMultiply, two, nil, nil)},
			in:     3,
			want:   trWant{out: int64(6)},
		},
		"PT35MathClampMinBelow": {
			reason: "PT-35: a violated ClampMin returns the int64 bound.",
			d:      Function,
			ts:     []Transform{trMath(MathTransformTypeClampMin, nil, two, nil)},
			in:     1,
			want:   trWant{out: int64(2)},
		},
		"PT35MathClampMinAboveKeepsType": {
			reason: "PT-35: ClampMin returns a passing Go int unchanged, type included.",
			d:      Function,
			ts:     []Transform{trMath(MathTransformTypeClampMin, nil, two, nil)},
			in:     3,
			want:   trWant{out: 3},
		},
		"PT35MathClampMaxAbove": {
			reason: "PT-35: a violated ClampMax returns the int64 bound.",
			d:      Function,
			ts:     []Transform{trMath(MathTransformTypeClampMax, nil, nil, two)},
			in:     3,
			want:   trWant{out: int64(2)},
		},
		"PT35MathNonNumber": {
			reason: "PT-35: a string is not a number.",
			d:      Function,
			ts:     []Transform{trMath(MathTransformTypeMultiply, two, nil, nil)},
			in:     "ola",
			want:   trWant{err: "input is required to be a number for math transformer, got string"},
		},
		"PT36ConvertStringToBool": {
			reason: "PT-36 (StringToBool).",
			d:      Function,
			ts:     []Transform{trConvert(ConvertTransformTypeBool, "")},
			in:     "true",
			want:   trWant{out: true},
		},
		"PT36ConvertStringToFloat64": {
			reason: "PT-36 (StringToFloat64).",
			d:      Function,
			ts:     []Transform{trConvert(ConvertTransformTypeFloat64, "")},
			in:     "1000",
			want:   trWant{out: 1000.0},
		},
		"PT36ConvertQuantity": {
			reason: "PT-36 (StringToQuantityFloat64).",
			d:      Function,
			ts:     []Transform{trConvert(ConvertTransformTypeFloat64, quantity)},
			in:     "1000m",
			want:   trWant{out: 1.0},
		},
		"PT36ConvertQuantityInvalid": {
			reason: "PT-36 (StringToQuantityFloat64InvalidFormat): the quantity error is returned unwrapped by the conversion.",
			d:      Function,
			ts:     []Transform{trConvert(ConvertTransformTypeFloat64, quantity)},
			in:     "1000 blabla",
			want:   trWant{err: "convert transform could not resolve: " + resource.ErrFormatWrong.Error()},
			is:     resource.ErrFormatWrong,
		},
		"PT36ConvertIntAlias": {
			reason: "PT-36 (IntAliasToInt64): int64 to int is the identity.",
			d:      Function,
			ts:     []Transform{trConvert(ConvertTransformTypeInt, "")},
			in:     int64(1),
			want:   trWant{out: int64(1)},
		},
		"PT36ConvertStringToObject": {
			reason: "PT-36 (StringToObject).",
			d:      Function,
			ts:     []Transform{trConvert(ConvertTransformTypeObject, ConvertTransformFormatJSON)},
			in:     `{"foo":"bar"}`,
			want:   trWant{out: map[string]any{"foo": "bar"}},
		},
		"PT36ConvertFloat64ToInt64": {
			reason: "PT-36 (ConversionPairSupportedFloat64Int64).",
			d:      Function,
			ts:     []Transform{trConvert(ConvertTransformTypeInt64, "")},
			in:     1.1,
			want:   trWant{out: int64(1)},
		},
		"PT36ConvertIntToStringQuantity": {
			reason: "PT-36 (ConversionPairFormatNotSupported): the message names the original Go type int.",
			d:      Function,
			ts:     []Transform{trConvert(ConvertTransformTypeString, quantity)},
			in:     100,
			want:   trWant{err: "conversion from int to string is not supported with format quantity"},
		},
		"PT37FormatInt": {
			reason: "PT-37: %d of a Go int.",
			d:      Function,
			ts:     []Transform{trFormat("the largest %d")},
			in:     8,
			want:   trWant{out: "the largest 8"},
		},
		"PT37ToBase64": {
			reason: "PT-37: ToBase64.",
			d:      Function,
			ts:     []Transform{trConvertString(StringConversionTypeToBase64)},
			in:     "CrossPlane",
			want:   trWant{out: "Q3Jvc3NQbGFuZQ=="},
		},
		"PT37ToSha512Int": {
			reason: "PT-37: ToSha512 of the number 1234 …",
			d:      Function,
			ts:     []Transform{trConvertString(StringConversionTypeToSHA512)},
			in:     1234,
			want:   trWant{out: "d404559f602eab6fd602ac7680dacbfaadd13630335e951f097af3900e9de176b6db28512f2e000b9d04fba5133e8b1c6e8df59db3a8ab9d60be4b97cc9e81db"},
		},
		"PT37ToSha512IntString": {
			reason: "PT-37: … equals ToSha512 of the string 1234.",
			d:      Function,
			ts:     []Transform{trConvertString(StringConversionTypeToSHA512)},
			in:     "1234",
			want:   trWant{out: "d404559f602eab6fd602ac7680dacbfaadd13630335e951f097af3900e9de176b6db28512f2e000b9d04fba5133e8b1c6e8df59db3a8ab9d60be4b97cc9e81db"},
		},
		"PT37ToAdler32": {
			reason: "PT-37: ToAdler32.",
			d:      Function,
			ts:     []Transform{trConvertString(StringConversionTypeToAdler32)},
			in:     "Crossplane",
			want:   trWant{out: "373097499"},
		},
		"PT37TrimPrefix": {
			reason: "PT-37: TrimPrefix.",
			d:      Function,
			ts:     []Transform{trString(StringTransform{Type: StringTransformTypeTrimPrefix, Trim: trPtr("https://")})},
			in:     "https://crossplane.io",
			want:   trWant{out: "crossplane.io"},
		},
		"PT37Regexp": {
			reason: "PT-37: Regexp.",
			d:      Function,
			ts:     []Transform{trRegexpGroup("[0-9]", nil)},
			in:     "my-1-string",
			want:   trWant{out: "1"},
		},
		"PT37RegexpGroupOutOfRange": {
			reason: "PT-37: Regexp with a missing group.",
			d:      Function,
			ts:     []Transform{trRegexpGroup("my-([0-9]+)-string", trPtr(2))},
			in:     "my-1-string",
			want:   trWant{err: `regexp "my-([0-9]+)-string" had no matches for group 2`},
		},
		"PT37JoinComma": {
			reason: "PT-37: Join with a one-byte separator behaves like a normal join.",
			d:      Function,
			ts:     []Transform{trJoin(",")},
			in:     []any{"cross", "plane"},
			want:   trWant{out: "cross,plane"},
		},
		"PT37JoinDifferentTypes": {
			reason: "PT-37: Join stringifies elements with %v.",
			d:      Function,
			ts:     []Transform{trJoin("-")},
			in:     []any{"cross", "plane", 42},
			want:   trWant{out: "cross-plane-42"},
		},
		"PT37JoinEmptySeparator": {
			reason: "PT-37: Join with an empty separator cuts nothing.",
			d:      Function,
			ts:     []Transform{trJoin("")},
			in:     []any{"cross", "plane"},
			want:   trWant{out: "crossplane"},
		},
		"PT37Replace": {
			reason: "PT-37: Replace replaces every occurrence.",
			d:      Function,
			ts:     []Transform{trString(StringTransform{Type: StringTransformTypeReplace, Replace: &StringTransformReplace{Search: "Cr", Replace: "B"}})},
			in:     "Crossplane",
			want:   trWant{out: "Bossplane"},
		},
		"PT42JoinMultiByteFunction": {
			reason: "PT-42 / D31: the function cuts only the final byte of a two-byte separator.",
			d:      Function,
			ts:     []Transform{trJoin(", ")},
			in:     []any{"a", "b"},
			want:   trWant{out: "a, b,"},
		},
		"PT42JoinMultiByteNative": {
			reason: "PT-42 / D31: Native joins normally.",
			d:      Native,
			ts:     []Transform{trJoin(", ")},
			in:     []any{"a", "b"},
			want:   trWant{out: "a, b"},
		},
		"PT43MatchUndefaultedPatternType": {
			reason: "PT-43: a pattern without type passes validation but fails at run time.",
			d:      Function,
			ts: []Transform{trMatch(MatchTransform{
				Patterns:   []MatchPattern{{Literal: trPtr("x"), Result: RawJSON("1")}},
				FallbackTo: MatchFallbackToValue,
			})},
			in:   "x",
			want: trWant{err: "transform at index 0 returned error: match transform could not resolve: cannot match pattern at index 0: unsupported pattern type ''"},
		},
	}

	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, err := ResolveTransforms(tc.d, tc.ts, tc.in)
			call := "ResolveTransforms(" + tc.d.String() + ", ...)"
			if diff := cmp.Diff(tc.want.out, got); diff != "" {
				t.Errorf("\n%s\n%s: -want, +got:\n%s", tc.reason, call, diff)
			}
			trCheckErr(t, tc.reason, call, tc.want.err, err)
			if tc.is != nil && !errors.Is(err, tc.is) {
				t.Errorf("\n%s\n%s: want an error that is %v, got: %v", tc.reason, call, tc.is, err)
			}
		})
	}
}

// TestResolveTransformEdges pins behaviour the vectors do not cover, read
// from the upstream sources (crossplane/crossplane@v1.20.11
// composition_transforms.go, function-patch-and-transform@v0.10.8
// transforms.go). Errors are compared in full.
func TestResolveTransformEdges(t *testing.T) {
	two := trPtr(int64(2))

	cases := map[string]struct {
		reason string
		d      Dialect
		ts     []Transform
		in     any
		want   trWant
	}{
		"NoTransforms": {
			reason: "An empty chain returns the input.",
			d:      Native,
			in:     int64(1),
			want:   trWant{out: int64(1)},
		},
		"ChainConvertThenMultiply": {
			reason: "Each transform receives the previous output (PT-04's chain).",
			d:      Function,
			ts:     []Transform{trConvert(ConvertTransformTypeInt64, ""), trMath(MathTransformTypeMultiply, trPtr(int64(3)), nil, nil)},
			in:     "10",
			want:   trWant{out: int64(30)},
		},
		"ChainMultiplyThenFormat": {
			reason: "No normalisation inside a chain: 1.5×2 stays float64, so %d fails to print it (docs/semantics/legacy.md#two-kinds-of-number).",
			d:      Native,
			ts:     []Transform{trMath(MathTransformTypeMultiply, two, nil, nil), trFormat("%d")},
			in:     1.5,
			want:   trWant{out: "%!d(float64=3)"},
		},
		"MissingConfiguration": {
			reason: "A missing block is not wrapped with the type's could-not-resolve message.",
			d:      Native,
			ts:     []Transform{{Type: TransformTypeMath}},
			in:     int64(1),
			want:   trWant{err: "transform at index 0 returned error: given transform type math requires configuration"},
		},
		"UnknownType": {
			reason: "An unknown transform type is not wrapped with a could-not-resolve message.",
			d:      Function,
			ts:     []Transform{{Type: "patch"}},
			in:     int64(1),
			want:   trWant{err: "transform at index 0 returned error: transform type patch is not supported"},
		},
		"MathUnknownType": {
			reason: "An unknown math type prints as JSON, as a field error.",
			d:      Native,
			ts:     []Transform{trMath("Divide", two, nil, nil)},
			in:     int64(1),
			want:   trWant{err: `transform at index 0 returned error: math transform could not resolve: type: Invalid value: "Divide": unknown math transform type`},
		},
		"MathClampMinMissing": {
			reason: "ClampMin needs clampMin.",
			d:      Function,
			ts:     []Transform{trMath(MathTransformTypeClampMin, two, nil, nil)},
			in:     int64(1),
			want:   trWant{err: "transform at index 0 returned error: math transform could not resolve: clampMin: Required value: must specify a value if a clamp min math transform is specified"},
		},
		"MathValidatedBeforeInput": {
			reason: "The configuration is checked before the input.",
			d:      Native,
			ts:     []Transform{trMath(MathTransformTypeClampMax, nil, nil, nil)},
			in:     "x",
			want:   trWant{err: "transform at index 0 returned error: math transform could not resolve: clampMax: Required value: must specify a value if a clamp max math transform is specified"},
		},
		"MathMultiplyWraps": {
			reason: "int64 multiplication wraps around.",
			d:      Native,
			ts:     []Transform{trMath(MathTransformTypeMultiply, two, nil, nil)},
			in:     int64(1) << 62,
			want:   trWant{out: int64(-1) << 63},
		},
		"MapNoPairs": {
			reason: "A map without pairs misses every key.",
			d:      Native,
			ts:     []Transform{{Type: TransformTypeMap, Map: &MapTransform{}}},
			in:     "a",
			want:   trWant{err: "transform at index 0 returned error: map transform could not resolve: key a is not found in map"},
		},
		"MatchLiteralMissing": {
			reason: "A literal pattern without literal.",
			d:      Native,
			ts:     []Transform{trMatch(MatchTransform{Patterns: []MatchPattern{{Type: MatchPatternTypeLiteral}}})},
			in:     "a",
			want:   trWant{err: "transform at index 0 returned error: match transform could not resolve: cannot match pattern at index 0: literal is required by type literal"},
		},
		"MatchRegexpInvalid": {
			reason: "A regexp is compiled before the input is checked.",
			d:      Function,
			ts:     []Transform{trMatch(MatchTransform{Patterns: []MatchPattern{trRegexp("?", "1")}})},
			in:     nil,
			want:   trWant{err: "transform at index 0 returned error: match transform could not resolve: cannot match pattern at index 0: cannot compile regexp: error parsing regexp: missing argument to repetition operator: `?`"},
		},
		"MatchSecondPatternFails": {
			reason: "Patterns run in order; a later pattern's error names its index.",
			d:      Native,
			ts:     []Transform{trMatch(MatchTransform{Patterns: []MatchPattern{trRegexp("z", "1"), {Type: "glob"}}})},
			in:     "a",
			want:   trWant{err: "transform at index 0 returned error: match transform could not resolve: cannot match pattern at index 1: unsupported pattern type 'glob'"},
		},
		"MatchNoPatternsFallback": {
			reason: "Zero patterns go straight to the fallback.",
			d:      Native,
			ts:     []Transform{trMatch(MatchTransform{FallbackValue: RawJSON(`{"a":1}`)})},
			in:     int64(1),
			want:   trWant{out: map[string]any{"a": float64(1)}},
		},
		"MatchNullFallbackWithInput": {
			reason: "A null fallback value counts as no fallback value.",
			d:      Native,
			ts:     []Transform{trMatch(MatchTransform{Patterns: []MatchPattern{trLiteral("foo", "1")}, FallbackValue: RawJSON("null"), FallbackTo: MatchFallbackToInput})},
			in:     "bar",
			want:   trWant{out: "bar"},
		},
		"MatchInvalidResult": {
			reason: "An undecodable result is an error.",
			d:      Native,
			ts:     []Transform{trMatch(MatchTransform{Patterns: []MatchPattern{trLiteral("a", "{")}})},
			in:     "a",
			want:   trWant{err: "transform at index 0 returned error: match transform could not resolve: cannot parse result of pattern at index 0: unexpected end of JSON input"},
		},
		"StringFormatMissing": {
			reason: "A Format without fmt.",
			d:      Native,
			ts:     []Transform{trString(StringTransform{Type: StringTransformTypeFormat})},
			in:     "a",
			want:   trWant{err: "transform at index 0 returned error: string transform could not resolve: string transform of type Format fmt is not set"},
		},
		"StringJoinMissing": {
			reason: "A Join without join.",
			d:      Function,
			ts:     []Transform{trString(StringTransform{Type: StringTransformTypeJoin})},
			in:     []any{},
			want:   trWant{err: "transform at index 0 returned error: string transform could not resolve: string transform of type Join join is not set"},
		},
		"StringReplaceNative": {
			reason: "Native has no Replace string type.",
			d:      Native,
			ts:     []Transform{trString(StringTransform{Type: StringTransformTypeReplace, Replace: &StringTransformReplace{Search: "a", Replace: "b"}})},
			in:     "a",
			want:   trWant{err: "transform at index 0 returned error: string transform could not resolve: type Replace is not supported for string transform type"},
		},
		"StringReplaceMissing": {
			reason: "A Replace without replace in the function.",
			d:      Function,
			ts:     []Transform{trString(StringTransform{Type: StringTransformTypeReplace})},
			in:     "a",
			want:   trWant{err: "transform at index 0 returned error: string transform could not resolve: string transform of type Replace replace is not set"},
		},
		"StringReplaceInt64": {
			reason: "Replace acts on %v of the input.",
			d:      Function,
			ts:     []Transform{trString(StringTransform{Type: StringTransformTypeReplace, Replace: &StringTransformReplace{Search: "0", Replace: "x"}})},
			in:     float64(1000000),
			want:   trWant{out: "1e+x6"},
		},
		"StringConvertUnknown": {
			reason: "An unknown string conversion.",
			d:      Native,
			ts:     []Transform{trConvertString("ToRot13")},
			in:     "a",
			want:   trWant{err: "transform at index 0 returned error: string transform could not resolve: type ToRot13 is not supported for string convert"},
		},
		"StringRegexpInvalid": {
			reason: "An invalid Regexp.",
			d:      Native,
			ts:     []Transform{trRegexpGroup("(", nil)},
			in:     "a",
			want:   trWant{err: "transform at index 0 returned error: string transform could not resolve: could not compile regexp: error parsing regexp: missing closing ): `(`"},
		},
		"StringRegexpNegativeGroup": {
			reason: "A negative group makes both upstream engines panic; the core fails instead.",
			d:      Native,
			ts:     []Transform{trRegexpGroup("a", trPtr(-1))},
			in:     "a",
			want:   trWant{err: `transform at index 0 returned error: string transform could not resolve: cannot use negative group -1 of regexp "a"`},
		},
		"StringRegexpNegativeGroupNoMatch": {
			reason: "Without a match, a negative group fails as any missing group does.",
			d:      Function,
			ts:     []Transform{trRegexpGroup("z", trPtr(-1))},
			in:     "a",
			want:   trWant{err: `transform at index 0 returned error: string transform could not resolve: regexp "z" had no matches for group -1`},
		},
		"JoinMultiByteRuneSeparatorFunction": {
			reason: "D31: cutting the last byte of a two-byte rune leaves half a rune.",
			d:      Function,
			ts:     []Transform{trJoin("é")},
			in:     []any{"a", "b"},
			want:   trWant{out: "aéb\xc3"},
		},
		"JoinNullFunction": {
			reason: "Join of null fails in the function too.",
			d:      Function,
			ts:     []Transform{trJoin(",")},
			in:     nil,
			want:   trWant{err: "transform at index 0 returned error: string transform could not resolve: could not parse input array"},
		},
		"ToJSONNaN": {
			reason: "NaN (from convert) has no JSON encoding.",
			d:      Native,
			ts:     []Transform{trConvert(ConvertTransformTypeFloat64, ""), trConvertString(StringConversionTypeToJSON)},
			in:     "NaN",
			want:   trWant{err: "transform at index 1 returned error: string transform could not resolve: cannot marshal to JSON: json: unsupported value: NaN"},
		},
		"ToAdler32NaN": {
			reason: "The Adler-32 wrapper names the failure differently from the hashes.",
			d:      Function,
			ts:     []Transform{trConvert(ConvertTransformTypeFloat64, ""), trConvertString(StringConversionTypeToAdler32)},
			in:     "NaN",
			want:   trWant{err: "transform at index 1 returned error: string transform could not resolve: unable to generate Adler checksum: cannot marshal to JSON: json: unsupported value: NaN"},
		},
		"ToSha1NaN": {
			reason: "The hash wrapper.",
			d:      Native,
			ts:     []Transform{trConvert(ConvertTransformTypeFloat64, ""), trConvertString(StringConversionTypeToSHA1)},
			in:     "NaN",
			want:   trWant{err: "transform at index 1 returned error: string transform could not resolve: cannot generate hash: cannot marshal to JSON: json: unsupported value: NaN"},
		},
		"ConvertInvalidFormat": {
			reason: "The format is validated before the type, and prints as JSON.",
			d:      Native,
			ts:     []Transform{trConvert("list", "yaml")},
			in:     "x",
			want:   trWant{err: `transform at index 0 returned error: convert transform could not resolve: format: Invalid value: "yaml": invalid format`},
		},
		"ConvertEmptyFormat": {
			reason: "A present but empty format is invalid (absent means none).",
			d:      Function,
			ts:     []Transform{{Type: TransformTypeConvert, Convert: &ConvertTransform{ToType: ConvertTransformTypeString, Format: trPtr(ConvertTransformFormat(""))}}},
			in:     "x",
			want:   trWant{err: `transform at index 0 returned error: convert transform could not resolve: format: Invalid value: "": invalid format`},
		},
		"ConvertIntSourceNative": {
			reason: "A Go int passes the type lookup as int64 but not the conversion's own type check.",
			d:      Native,
			ts:     []Transform{trConvert(ConvertTransformTypeString, "")},
			in:     100,
			want:   trWant{err: "transform at index 0 returned error: convert transform could not resolve: cannot convert value %!s(int=100): not an int64"},
		},
		"ConvertIntSourceFunction": {
			reason: "The function words the same failure differently.",
			d:      Function,
			ts:     []Transform{trConvert(ConvertTransformTypeString, "")},
			in:     100,
			want:   trWant{err: "transform at index 0 returned error: convert transform could not resolve: invalid input type int"},
		},
		"ConvertIntSourceIdentity": {
			reason: "A Go int converted to int64 is returned as it is.",
			d:      Native,
			ts:     []Transform{trConvert(ConvertTransformTypeInt64, "")},
			in:     100,
			want:   trWant{out: 100},
		},
		"ConvertNullObjectIsTypedNil": {
			reason: "The nil map from a json null keeps its Go type through the chain.",
			d:      Native,
			ts:     []Transform{trConvert(ConvertTransformTypeObject, ConvertTransformFormatJSON), trConvert(ConvertTransformTypeString, "")},
			in:     "null",
			want:   trWant{err: "transform at index 1 returned error: convert transform could not resolve: invalid input type map[string]interface {}"},
		},
		"ConvertNullArrayJoins": {
			reason: "The nil list from a json null is still a list.",
			d:      Native,
			ts:     []Transform{trConvert(ConvertTransformTypeArray, ConvertTransformFormatJSON), trJoin(",")},
			in:     "null",
			want:   trWant{out: ""},
		},
		"ConvertOtherGoType": {
			reason: "Any Go type but the five known ones is rejected by its %T name.",
			d:      Function,
			ts:     []Transform{trConvert(ConvertTransformTypeString, "")},
			in:     []int{64},
			want:   trWant{err: "transform at index 0 returned error: convert transform could not resolve: invalid input type []int"},
		},
		"ConvertStringToFloat64OutOfRange": {
			reason: "Go's float parse fails on an overflow.",
			d:      Native,
			ts:     []Transform{trConvert(ConvertTransformTypeFloat64, "")},
			in:     "1e400",
			want:   trWant{err: `transform at index 0 returned error: convert transform could not resolve: cannot convert value 1e400: strconv.ParseFloat: parsing "1e400": value out of range`},
		},
	}

	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, err := ResolveTransforms(tc.d, tc.ts, tc.in)
			call := "ResolveTransforms(" + tc.d.String() + ", ...)"
			if diff := cmp.Diff(tc.want.out, got); diff != "" {
				t.Errorf("\n%s\n%s: -want, +got:\n%s", tc.reason, call, diff)
			}
			gotErr := ""
			if err != nil {
				gotErr = err.Error()
			}
			if diff := cmp.Diff(tc.want.err, gotErr); diff != "" {
				t.Errorf("\n%s\n%s: -want error, +got error:\n%s", tc.reason, call, diff)
			}
		})
	}
}

// TestResolveTransform checks the single-transform entry point, which leaves
// out the index.
func TestResolveTransform(t *testing.T) {
	got, err := ResolveTransform(Native, trMath(MathTransformTypeMultiply, trPtr(int64(2)), nil, nil), "x")
	if diff := cmp.Diff(nil, got); diff != "" {
		t.Errorf("ResolveTransform(...): -want, +got:\n%s", diff)
	}
	want := "math transform could not resolve: input is required to be a number for math transformer, got string"
	if err == nil || err.Error() != want {
		t.Errorf("ResolveTransform(...): want error %q, got: %v", want, err)
	}
}
