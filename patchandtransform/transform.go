package patchandtransform

import (
	"bytes"
	"crypto/sha1" //nolint:gosec // Reproduces the ToSha1 conversion; not used for security.
	"crypto/sha256"
	"crypto/sha512"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"hash/adler32"
	"regexp"
	"strconv"
	"strings"

	"github.com/pkg/errors"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// This file reproduces the transform engines of Crossplane v1.20.11
// (internal/controller/apiextensions/composite/composition_transforms.go,
// the Native dialect) and of function-patch-and-transform v0.10.8
// (transforms.go, the Function dialect), error texts included. The two agree
// except where a function below branches on the dialect:
//
//   - math: Native treats an empty type as Multiply; Function fails with
//     `type: Required value: math transform type is required`.
//   - string Join: Native joins with the separator and fails on a non-list
//     with `cannot join non-array values`; Function appends
//     `%v(element)+separator` for every element, then cuts only the final
//     byte when the separator is non-empty, and fails with
//     `could not parse input array`.
//   - string Replace exists only in Function; Native fails with
//     `type Replace is not supported for string transform type`.
//   - convert: Native wraps a failed conversion as
//     `cannot convert value <input>: <cause>`; Function returns the cause.
//
// Any Dialect other than Function behaves as Native.
//
// Values are JSON trees as described in the package documentation. Go int
// inputs are accepted where upstream accepts them (math, the `int` convert
// source type), because upstream tests use them.

// ResolveTransforms runs ts in order, each on the previous output, starting
// with input. The first failure stops the chain and is returned as
//
//	transform at index <i> returned error: <cause>
//
// where <cause> is ResolveTransform's error, usually
// `<type> transform could not resolve: <reason>`.
func ResolveTransforms(d Dialect, ts []Transform, input any) (any, error) {
	out := input
	for i, t := range ts {
		var err error
		if out, err = ResolveTransform(d, t, out); err != nil {
			return nil, errors.Wrapf(err, "transform at index %d returned error", i)
		}
	}
	return out, nil
}

// ResolveTransform runs one transform on input. As upstream, a failure of the
// transform itself is wrapped as `<type> transform could not resolve: <reason>`,
// while a transform that cannot run at all is not wrapped:
//
//	given transform type <type> requires configuration   (its block is nil)
//	transform type <type> is not supported               (unknown type)
//
// ResolveTransforms adds the `transform at index <i> returned error` prefix.
func ResolveTransform(d Dialect, t Transform, input any) (any, error) {
	var out any
	var err error

	switch t.Type {
	case TransformTypeMath:
		if t.Math == nil {
			return nil, errors.Errorf("given transform type %s requires configuration", t.Type)
		}
		out, err = resolveMath(d, *t.Math, input)
	case TransformTypeMap:
		if t.Map == nil {
			return nil, errors.Errorf("given transform type %s requires configuration", t.Type)
		}
		out, err = resolveMap(*t.Map, input)
	case TransformTypeMatch:
		if t.Match == nil {
			return nil, errors.Errorf("given transform type %s requires configuration", t.Type)
		}
		out, err = resolveMatch(*t.Match, input)
	case TransformTypeString:
		if t.String == nil {
			return nil, errors.Errorf("given transform type %s requires configuration", t.Type)
		}
		out, err = resolveString(d, *t.String, input)
	case TransformTypeConvert:
		if t.Convert == nil {
			return nil, errors.Errorf("given transform type %s requires configuration", t.Type)
		}
		out, err = resolveConvert(d, *t.Convert, input)
	default:
		return nil, errors.Errorf("transform type %s is not supported", t.Type)
	}

	if err != nil {
		return nil, errors.Wrapf(err, "%s transform could not resolve", t.Type)
	}
	return out, nil
}

// rawJSONBytes returns the bytes of r, or nil when r is JSON null. Upstream
// holds these values in apiextensions' JSON type, whose decoder drops a
// literal null, so a null value is indistinguishable from an absent one.
func rawJSONBytes(r RawJSON) []byte {
	if bytes.Equal(bytes.TrimSpace(r), []byte("null")) {
		return nil
	}
	return r
}

// validateMath checks the math configuration as each engine does at run time,
// before it looks at the input.
func validateMath(d Dialect, t MathTransform) error {
	typ := t.Type
	if typ == "" {
		if d == Function {
			return field.Required(field.NewPath("type"), "math transform type is required")
		}
		typ = MathTransformTypeMultiply
	}
	switch typ {
	case MathTransformTypeMultiply:
		if t.Multiply == nil {
			return field.Required(field.NewPath("multiply"), "must specify a value if a multiply math transform is specified")
		}
	case MathTransformTypeClampMin:
		if t.ClampMin == nil {
			return field.Required(field.NewPath("clampMin"), "must specify a value if a clamp min math transform is specified")
		}
	case MathTransformTypeClampMax:
		if t.ClampMax == nil {
			return field.Required(field.NewPath("clampMax"), "must specify a value if a clamp max math transform is specified")
		}
	default:
		// The named type (not string) makes the value print as JSON, as upstream.
		return field.Invalid(field.NewPath("type"), t.Type, "unknown math transform type")
	}
	return nil
}

// resolveMath multiplies or clamps a number. Multiply keeps the kind of the
// input (integers become int64). Clamps compare the input truncated to int64
// and return either the bound (an int64) or the input unchanged.
func resolveMath(d Dialect, t MathTransform, input any) (any, error) {
	if err := validateMath(d, t); err != nil {
		return nil, err
	}

	var truncated int64
	switch i := input.(type) {
	case int:
		truncated = int64(i)
	case int64:
		truncated = i
	case float64:
		truncated = int64(i)
	default:
		return nil, errors.Errorf("input is required to be a number for math transformer, got %T", input)
	}

	switch t.Type {
	case MathTransformTypeClampMin:
		if truncated < *t.ClampMin {
			return *t.ClampMin, nil
		}
		return input, nil
	case MathTransformTypeClampMax:
		if truncated > *t.ClampMax {
			return *t.ClampMax, nil
		}
		return input, nil
	}

	// Multiply, or (Native only, validated above) the empty type.
	switch i := input.(type) {
	case int:
		return int64(i) * *t.Multiply, nil
	case int64:
		return i * *t.Multiply, nil
	default:
		f, _ := input.(float64) // Checked above: a number that is not an int is a float64.
		return f * float64(*t.Multiply), nil
	}
}

// resolveMap looks a string input up in the map. It never stringifies the
// input, and decodes the value with the plain JSON decoder (numbers become
// float64); a null value fails to decode.
func resolveMap(t MapTransform, input any) (any, error) {
	s, ok := input.(string)
	if !ok {
		return nil, errors.Errorf("type %T is not supported for map transform", input)
	}
	p, ok := t.Pairs[s]
	if !ok {
		return nil, errors.Errorf("key %s is not found in map", s)
	}
	var v any
	if err := json.Unmarshal(rawJSONBytes(p), &v); err != nil {
		return nil, errors.Wrapf(err, "value for key %s is not valid JSON", s)
	}
	return v, nil
}

// resolveMatch returns the decoded result of the first matching pattern, or
// the fallback.
func resolveMatch(t MatchTransform, input any) (any, error) {
	for i, p := range t.Patterns {
		ok, err := matchPattern(p, input)
		if err != nil {
			return nil, errors.Wrapf(err, "cannot match pattern at index %d", i)
		}
		if !ok {
			continue
		}
		out, err := DecodePlain(rawJSONBytes(p.Result))
		if err != nil {
			return nil, errors.Wrapf(err, "cannot parse result of pattern at index %d", i)
		}
		return out, nil
	}

	if t.FallbackTo == MatchFallbackToInput {
		if len(rawJSONBytes(t.FallbackValue)) != 0 {
			return nil, errors.New("cannot set both a fallback value and the fallback to input flag")
		}
		return input, nil
	}

	out, err := DecodePlain(rawJSONBytes(t.FallbackValue))
	if err != nil {
		return nil, errors.Wrap(err, "cannot parse fallback value")
	}
	return out, nil
}

// matchPattern reports whether one pattern matches. A regexp is compiled
// before the input is checked, and matches anywhere in the input.
func matchPattern(p MatchPattern, input any) (bool, error) {
	switch p.Type {
	case MatchPatternTypeLiteral:
		if p.Literal == nil {
			return false, errors.Errorf("literal is required by type %s", MatchPatternTypeLiteral)
		}
		s, ok := input.(string)
		if !ok {
			return false, errors.Errorf("unsupported input type '%T'", input)
		}
		return s == *p.Literal, nil
	case MatchPatternTypeRegexp:
		if p.Regexp == nil {
			return false, errors.Errorf("regexp is required by type %s", MatchPatternTypeRegexp)
		}
		re, err := regexp.Compile(*p.Regexp)
		if err != nil {
			return false, errors.Wrap(err, "cannot compile regexp")
		}
		if input == nil {
			return false, errors.New("unsupported input type 'null'")
		}
		s, ok := input.(string)
		if !ok {
			return false, errors.Errorf("unsupported input type '%T'", input)
		}
		return re.MatchString(s), nil
	default:
		return false, errors.Errorf("unsupported pattern type '%s'", p.Type)
	}
}

// resolveString turns the input into a string.
func resolveString(d Dialect, t StringTransform, input any) (string, error) {
	switch t.Type {
	case StringTransformTypeFormat:
		if t.Format == nil {
			return "", errors.Errorf("string transform of type %s fmt is not set", t.Type)
		}
		return fmt.Sprintf(*t.Format, input), nil
	case StringTransformTypeConvert:
		if t.Convert == nil {
			return "", errors.Errorf("string transform of type %s convert is not set", t.Type)
		}
		return convertString(*t.Convert, input)
	case StringTransformTypeTrimPrefix:
		if t.Trim == nil {
			return "", errors.Errorf("string transform of type %s trim is not set", t.Type)
		}
		return strings.TrimPrefix(fmt.Sprintf("%v", input), *t.Trim), nil
	case StringTransformTypeTrimSuffix:
		if t.Trim == nil {
			return "", errors.Errorf("string transform of type %s trim is not set", t.Type)
		}
		return strings.TrimSuffix(fmt.Sprintf("%v", input), *t.Trim), nil
	case StringTransformTypeRegexp:
		if t.Regexp == nil {
			return "", errors.Errorf("string transform of type %s regexp is not set", t.Type)
		}
		return extractRegexpGroup(*t.Regexp, input)
	case StringTransformTypeJoin:
		if t.Join == nil {
			return "", errors.Errorf("string transform of type %s join is not set", t.Type)
		}
		return joinStrings(d, *t.Join, input)
	case StringTransformTypeReplace:
		if d != Function {
			break
		}
		if t.Replace == nil {
			return "", errors.Errorf("string transform of type %s replace is not set", t.Type)
		}
		return strings.ReplaceAll(fmt.Sprintf("%v", input), t.Replace.Search, t.Replace.Replace), nil
	}
	return "", errors.Errorf("type %s is not supported for string transform type", t.Type)
}

// convertString applies a string conversion. Case and base64 conversions act
// on the %v form of the input; ToJson and the hashes of non-strings use the
// JSON encoding (HTML-escaped, sorted keys), while strings are hashed raw.
func convertString(c StringConversionType, input any) (string, error) {
	str := fmt.Sprintf("%v", input)
	switch c {
	case StringConversionTypeToUpper:
		return strings.ToUpper(str), nil
	case StringConversionTypeToLower:
		return strings.ToLower(str), nil
	case StringConversionTypeToJSON:
		raw, err := json.Marshal(input)
		if err != nil {
			return "", errors.Wrap(err, "cannot marshal to JSON")
		}
		return string(raw), nil
	case StringConversionTypeToBase64:
		return base64.StdEncoding.EncodeToString([]byte(str)), nil
	case StringConversionTypeFromBase64:
		b, err := base64.StdEncoding.DecodeString(str)
		if err != nil {
			return "", errors.Wrap(err, "string is not valid base64")
		}
		return string(b), nil
	case StringConversionTypeToSHA1:
		b, err := hashInput(input)
		if err != nil {
			return "", errors.Wrap(err, "cannot generate hash")
		}
		sum := sha1.Sum(b) //nolint:gosec // See the import.
		return hex.EncodeToString(sum[:]), nil
	case StringConversionTypeToSHA256:
		b, err := hashInput(input)
		if err != nil {
			return "", errors.Wrap(err, "cannot generate hash")
		}
		sum := sha256.Sum256(b)
		return hex.EncodeToString(sum[:]), nil
	case StringConversionTypeToSHA512:
		b, err := hashInput(input)
		if err != nil {
			return "", errors.Wrap(err, "cannot generate hash")
		}
		sum := sha512.Sum512(b)
		return hex.EncodeToString(sum[:]), nil
	case StringConversionTypeToAdler32:
		b, err := hashInput(input)
		if err != nil {
			return "", errors.Wrap(err, "unable to generate Adler checksum")
		}
		return strconv.FormatUint(uint64(adler32.Checksum(b)), 10), nil
	default:
		return "", errors.Errorf("type %s is not supported for string convert", c)
	}
}

// hashInput returns the bytes a hash conversion digests: a string's own
// bytes, anything else's JSON encoding.
func hashInput(input any) ([]byte, error) {
	if s, ok := input.(string); ok {
		return []byte(s), nil
	}
	b, err := json.Marshal(input)
	return b, errors.Wrap(err, "cannot marshal to JSON")
}

// extractRegexpGroup returns a capture group of the leftmost match in the %v
// form of the input. A group that exists but did not take part in the match
// is "".
func extractRegexpGroup(r StringTransformRegexp, input any) (string, error) {
	re, err := regexp.Compile(r.Match)
	if err != nil {
		return "", errors.Wrap(err, "could not compile regexp")
	}
	groups := re.FindStringSubmatch(fmt.Sprintf("%v", input))
	g := 0
	if r.Group != nil {
		g = *r.Group
	}
	if len(groups) == 0 || g >= len(groups) {
		return "", errors.Errorf("regexp %q had no matches for group %d", r.Match, g)
	}
	if g < 0 {
		// Both upstream engines index the groups with g unchecked and panic
		// here; nothing rejects a negative group earlier.
		return "", errors.Errorf("cannot use negative group %d of regexp %q", g, r.Match)
	}
	return groups[g], nil
}

// joinStrings joins the %v forms of a list's elements.
func joinStrings(d Dialect, j StringTransformJoin, input any) (string, error) {
	list, ok := input.([]any)
	if d != Function {
		if !ok {
			return "", errors.New("cannot join non-array values")
		}
		elems := make([]string, len(list))
		for i, e := range list {
			elems[i] = fmt.Sprintf("%v", e)
		}
		return strings.Join(elems, j.Separator), nil
	}

	if !ok {
		return "", errors.New("could not parse input array")
	}
	if len(list) == 0 {
		return "", nil
	}
	var b strings.Builder
	for _, e := range list {
		fmt.Fprintf(&b, "%v%s", e, j.Separator)
	}
	s := b.String()
	if j.Separator != "" {
		// Only the last byte, even when the separator is longer (D31).
		s = s[:len(s)-1]
	}
	return s, nil
}

// validConvertType reports whether t is a type a convert transform knows.
func validConvertType(t ConvertTransformType) bool {
	switch t {
	case ConvertTransformTypeString, ConvertTransformTypeBool, ConvertTransformTypeInt,
		ConvertTransformTypeInt64, ConvertTransformTypeFloat64, ConvertTransformTypeObject,
		ConvertTransformTypeArray:
		return true
	}
	return false
}

// resolveConvert converts the input to t.ToType. The source type is the Go
// type name of the input; `int` stands for `int64` on both sides. Equal types
// return the input unchanged, whatever the format.
func resolveConvert(d Dialect, t ConvertTransform, input any) (any, error) {
	format := ConvertTransformFormatNone
	if t.Format != nil {
		format = *t.Format
	}
	switch format {
	case ConvertTransformFormatNone, ConvertTransformFormatQuantity, ConvertTransformFormatJSON:
	default:
		// Upstream passes the pointer; it prints as the JSON of its target.
		return nil, field.Invalid(field.NewPath("format"), t.Format, "invalid format")
	}
	if !validConvertType(t.ToType) {
		return nil, field.Invalid(field.NewPath("toType"), t.ToType, "invalid type")
	}

	from := ConvertTransformType(fmt.Sprintf("%T", input))
	if !validConvertType(from) {
		return nil, errors.Errorf("invalid input type %T", input)
	}
	to := t.ToType
	if to == ConvertTransformTypeInt {
		to = ConvertTransformTypeInt64
	}
	key := from
	if key == ConvertTransformTypeInt {
		key = ConvertTransformTypeInt64
	}
	if key == to {
		return input, nil
	}

	conv := conversion(key, to, format)
	if conv == nil {
		return nil, &ConvertFormatError{From: string(from), To: string(to), Format: string(format)}
	}
	out, err := conv(d, input)
	if err != nil {
		if d == Function {
			return nil, err
		}
		return nil, errors.Wrapf(err, "cannot convert value %s", input)
	}
	return out, nil
}

// A converter converts one value. It asserts the exact Go type it expects,
// so a Go int (accepted as int64 by the lookup) fails as upstream.
type converter func(d Dialect, input any) (any, error)

// conversion returns the converter for a (from, to, format) triple, or nil
// if the triple is not supported.
func conversion(from, to ConvertTransformType, format ConvertTransformFormat) converter {
	type pair struct{ from, to ConvertTransformType }
	p := pair{from, to}

	if format == ConvertTransformFormatQuantity {
		if p != (pair{ConvertTransformTypeString, ConvertTransformTypeFloat64}) {
			return nil
		}
		return func(d Dialect, i any) (any, error) {
			s, err := assertConvertInput[string](d, i, "not a string")
			if err != nil {
				return nil, err
			}
			q, err := resource.ParseQuantity(s)
			if err != nil {
				return nil, err
			}
			return q.AsApproximateFloat64(), nil
		}
	}

	if format == ConvertTransformFormatJSON {
		switch p {
		case pair{ConvertTransformTypeString, ConvertTransformTypeObject}:
			return func(d Dialect, i any) (any, error) {
				s, err := assertConvertInput[string](d, i, "not a string")
				if err != nil {
					return nil, err
				}
				// Upstream decodes into a non-nil map, but the map it returns
				// is read after decoding: "null" yields a nil map (typed, so
				// it prints as map[] and has Go type map[string]interface {}).
				o := map[string]any{}
				if err := json.Unmarshal([]byte(s), &o); err != nil {
					return nil, err
				}
				return o, nil
			}
		case pair{ConvertTransformTypeString, ConvertTransformTypeArray}:
			return func(d Dialect, i any) (any, error) {
				s, err := assertConvertInput[string](d, i, "not a string")
				if err != nil {
					return nil, err
				}
				// "null" yields a nil []any, as upstream.
				var o []any
				if err := json.Unmarshal([]byte(s), &o); err != nil {
					return nil, err
				}
				return o, nil
			}
		}
		return nil
	}

	switch p {
	case pair{ConvertTransformTypeString, ConvertTransformTypeInt64}:
		return func(d Dialect, i any) (any, error) {
			s, err := assertConvertInput[string](d, i, "not a string")
			if err != nil {
				return nil, err
			}
			return strconv.ParseInt(s, 10, 64)
		}
	case pair{ConvertTransformTypeString, ConvertTransformTypeBool}:
		return func(d Dialect, i any) (any, error) {
			s, err := assertConvertInput[string](d, i, "not a string")
			if err != nil {
				return nil, err
			}
			return strconv.ParseBool(s)
		}
	case pair{ConvertTransformTypeString, ConvertTransformTypeFloat64}:
		return func(d Dialect, i any) (any, error) {
			s, err := assertConvertInput[string](d, i, "not a string")
			if err != nil {
				return nil, err
			}
			return strconv.ParseFloat(s, 64)
		}
	case pair{ConvertTransformTypeInt64, ConvertTransformTypeString}:
		return func(d Dialect, i any) (any, error) {
			n, err := assertConvertInput[int64](d, i, "not an int64")
			if err != nil {
				return nil, err
			}
			return strconv.FormatInt(n, 10), nil
		}
	case pair{ConvertTransformTypeInt64, ConvertTransformTypeBool}:
		return func(d Dialect, i any) (any, error) {
			n, err := assertConvertInput[int64](d, i, "not an int64")
			if err != nil {
				return nil, err
			}
			return n == 1, nil
		}
	case pair{ConvertTransformTypeInt64, ConvertTransformTypeFloat64}:
		return func(d Dialect, i any) (any, error) {
			n, err := assertConvertInput[int64](d, i, "not an int64")
			if err != nil {
				return nil, err
			}
			return float64(n), nil
		}
	case pair{ConvertTransformTypeBool, ConvertTransformTypeString}:
		return func(d Dialect, i any) (any, error) {
			b, err := assertConvertInput[bool](d, i, "not a bool")
			if err != nil {
				return nil, err
			}
			return strconv.FormatBool(b), nil
		}
	case pair{ConvertTransformTypeBool, ConvertTransformTypeInt64}:
		return func(d Dialect, i any) (any, error) {
			b, err := assertConvertInput[bool](d, i, "not a bool")
			if err != nil {
				return nil, err
			}
			if b {
				return int64(1), nil
			}
			return int64(0), nil
		}
	case pair{ConvertTransformTypeBool, ConvertTransformTypeFloat64}:
		return func(d Dialect, i any) (any, error) {
			b, err := assertConvertInput[bool](d, i, "not a bool")
			if err != nil {
				return nil, err
			}
			if b {
				return float64(1), nil
			}
			return float64(0), nil
		}
	case pair{ConvertTransformTypeFloat64, ConvertTransformTypeString}:
		return func(d Dialect, i any) (any, error) {
			f, err := assertConvertInput[float64](d, i, "not a float64")
			if err != nil {
				return nil, err
			}
			return strconv.FormatFloat(f, 'f', -1, 64), nil
		}
	case pair{ConvertTransformTypeFloat64, ConvertTransformTypeInt64}:
		return func(d Dialect, i any) (any, error) {
			f, err := assertConvertInput[float64](d, i, "not a float64")
			if err != nil {
				return nil, err
			}
			return int64(f), nil
		}
	case pair{ConvertTransformTypeFloat64, ConvertTransformTypeBool}:
		return func(d Dialect, i any) (any, error) {
			f, err := assertConvertInput[float64](d, i, "not a float64")
			if err != nil {
				return nil, err
			}
			return f == 1, nil
		}
	}
	return nil
}

// assertConvertInput asserts the input of a converter. Only a Go int can
// fail it (it passes the lookup as int64); the engines word that
// differently.
func assertConvertInput[T any](d Dialect, input any, native string) (T, error) {
	v, ok := input.(T)
	if ok {
		return v, nil
	}
	if d == Function {
		return v, errors.Errorf("invalid input type %T", input)
	}
	return v, errors.New(native)
}
