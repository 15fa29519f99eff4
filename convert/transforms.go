package convert

import (
	"fmt"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/xpmigrate/xpmigrate/convert/yamledit"
	pt "github.com/xpmigrate/xpmigrate/patchandtransform"
)

var (
	transformTypes = []string{transformMath, transformMap, transformMatch, transformString, transformConvert}
	mathTypes      = names(pt.MathTransformTypeMultiply, pt.MathTransformTypeClampMin, pt.MathTransformTypeClampMax)
	stringTypes    = names(pt.StringTransformTypeFormat, pt.StringTransformTypeConvert, pt.StringTransformTypeTrimPrefix, pt.StringTransformTypeTrimSuffix, pt.StringTransformTypeRegexp, pt.StringTransformTypeJoin, pt.StringTransformTypeReplace)
	patternTypes   = names(pt.MatchPatternTypeLiteral, pt.MatchPatternTypeRegexp)
)

// A chain is what a patch's value can be while its transforms run.
type chain struct {
	src   source
	kinds valueKinds

	// printed names the format (a Combine's or a string Format's) whose
	// text may hold an integer printed differently natively (int64) and in
	// the function (float64) with a verb no warning covers (%s, %v, an
	// extra argument); "" when the text holds none, or after C220.
	printed string
}

// transforms normalises a patch's transforms (docs/semantics/conversion.md#transforms), and
// follows what the value can be from transform to transform.
func (c normalisePass) transforms(seq *yaml.Node, path string, ch *chain) {
	seq = yamledit.Resolve(seq)
	if !yamledit.IsSeq(seq) {
		c.errorf("C120", seq, path, "transforms must be a list")
		return
	}
	// Indexes in paths are the source document's: a compensation inserted
	// before transform i does not shift the transforms after it there.
	for i, n := 0, 0; i < len(seq.Content); i, n = i+1, n+1 {
		if c.transform(seq, i, idx(path, n), ch) {
			i++ // A compensation was inserted before this transform.
		}
	}
}

// transform normalises transform i of seq. It reports whether it inserted
// a transform before it.
func (c normalisePass) transform(seq *yaml.Node, i int, path string, ch *chain) (inserted bool) {
	tn := seq.Content[i]
	if !c.once(tn) {
		return false
	}
	t := yamledit.Resolve(tn)
	if !yamledit.IsMap(t) {
		c.errorf("C119", tn, path, "a transform must be an object")
		return false
	}
	var typ string
	defer func() {
		if typ != "" {
			ch.kinds = afterTransform(t, typ, ch.kinds)
		}
	}()
	if n := yamledit.Get(t, "type"); n == nil || yamledit.IsNull(n) {
		var present []string
		for _, k := range transformTypes {
			if b := yamledit.Get(t, k); b != nil && !yamledit.IsNull(b) {
				present = append(present, k)
			}
		}
		if len(present) != 1 {
			c.errorf("C119", t, path+".type", "a transform needs a type (%s), and it cannot be inferred from %d configuration blocks", strings.Join(transformTypes, ", "), len(present))
			return false
		}
		typ = present[0]
		dropNull(t, "type")
		yamledit.Insert(t, 0, "type", yamledit.NewString(typ))
		c.inferred = append(c.inferred, path)
		c.repaired(t, path)
		c.infof("C313", t, path+".type", "set the missing transform type to %s, the only configuration block present (the API server would have rejected the transform without it)", typ)
	} else {
		v, ok := c.enum(n, path+".type", transformTypes)
		if !ok {
			c.errorf("C119", n, path+".type", "unknown transform type %q (want one of %s)", yamledit.Resolve(n).Value, strings.Join(transformTypes, ", "))
			return false
		}
		typ = v
	}
	c.dropUnknown(t, path, append([]string{"type"}, transformTypes...))
	block := yamledit.Resolve(yamledit.Get(t, typ))
	if yamledit.IsNull(block) {
		c.errorf("C120", t, path+"."+typ, "a transform of type %s needs its %s block", typ, typ)
		return false
	}
	c.reencoded(t, typ, block, path, ch)
	bp := path + "." + typ
	switch typ {
	case transformMath:
		c.math(block, bp)
		c.fallibleAt(path, t)
	case transformString:
		return c.stringTransform(seq, i, block, bp, path, ch)
	case transformMatch:
		c.match(block, bp, path)
	case transformMap:
		c.fallibleAt(path, t)
	case transformConvert:
		if yamledit.IsMap(block) {
			c.dropUnknown(block, bp, []string{"toType", "format"})
			c.numberConvert(block, bp)
		}
		c.fallibleAt(path, t)
	}
	return false
}

// fallibleAt remembers the first transform that can fail at run time
// (C317).
func (c *composition) fallibleAt(path string, n *yaml.Node) {
	if c.fallible == "" {
		c.fallible, c.fallNode = path, n
	}
}

// subType infers the type of a math or string block from the one field
// that is set. It returns the type, or "" after reporting an error.
func (c normalisePass) subType(block *yaml.Node, path, what string, fields [][2]string) string {
	var present [][2]string
	for _, f := range fields {
		if v := yamledit.Get(block, f[0]); v != nil && !yamledit.IsNull(v) {
			present = append(present, f)
		}
	}
	switch len(present) {
	case 0:
		return ""
	case 1:
		return present[0][1]
	}
	names := make([]string, len(present))
	for i, p := range present {
		names[i] = p[0]
	}
	c.errorf("C121", block, path+".type", "cannot infer the %s transform type from several fields (%s): set type", what, strings.Join(names, ", "))
	return "-"
}

func (c normalisePass) math(m *yaml.Node, path string) {
	if !yamledit.IsMap(m) {
		c.errorf("C120", m, path, "math must be an object")
		return
	}
	c.dropUnknown(m, path, []string{"type", "multiply", "clampMin", "clampMax"})
	if n := yamledit.Get(m, "type"); n != nil && !yamledit.IsNull(n) {
		if _, ok := c.enum(n, path+".type", mathTypes); !ok {
			c.errorf("C121", n, path+".type", "unknown math transform type %q", yamledit.Resolve(n).Value)
		}
		return
	}
	t := c.subType(m, path, "math", [][2]string{{"multiply", string(pt.MathTransformTypeMultiply)}, {"clampMin", string(pt.MathTransformTypeClampMin)}, {"clampMax", string(pt.MathTransformTypeClampMax)}})
	switch t {
	case "-":
		return
	case "":
		c.errorf("C121", m, path, "a math transform needs multiply, clampMin or clampMax")
		return
	}
	dropNull(m, "type")
	yamledit.Insert(m, 0, "type", yamledit.NewString(t))
	if t != string(pt.MathTransformTypeMultiply) {
		c.inferred = append(c.inferred, path)
		c.repaired(m, path)
		c.infof("C314", m, path+".type", "set type %s from %s; natively the type defaulted to Multiply, so this transform failed there (it works after conversion)", t, lowerFirst(t))
	}
}

// repaired warns once per Composition (C221) that a transform the native
// webhook rejects was repaired (C313, C314): native Crossplane refuses the
// whole Composition and composes nothing, where the conversion renders.
func (c normalisePass) repaired(n *yaml.Node, path string) {
	if len(c.inferred) != 1 {
		return
	}
	c.warnf("C221", n, path, "native Crossplane refuses this Composition (\"refusing to use invalid Composition\": a transform without its type, or whose default type lacks its field) and composes nothing; the conversion repairs the transform (C313, C314) and renders, so its output differs from what the cluster did. Set the type in the legacy Composition, or accept the change")
}

func lowerFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToLower(s[:1]) + s[1:]
}

// stringTransform normalises a string block, and inserts the K1
// compensation before it. It reports whether it inserted one.
func (c normalisePass) stringTransform(seq *yaml.Node, i int, s *yaml.Node, path, tpath string, ch *chain) bool {
	if !yamledit.IsMap(s) {
		c.errorf("C120", s, path, "string must be an object")
		return false
	}
	c.dropUnknown(s, path, []string{"type", "fmt", "convert", "trim", "regexp", "join", "replace"})
	typ := ""
	if n := yamledit.Get(s, "type"); n != nil && !yamledit.IsNull(n) {
		v, ok := c.enum(n, path+".type", stringTypes)
		if !ok {
			c.errorf("C121", n, path+".type", "unknown string transform type %q", yamledit.Resolve(n).Value)
			return false
		}
		typ = v
	} else {
		if yamledit.Get(s, "trim") != nil && !yamledit.IsNull(yamledit.Get(s, "trim")) && len(yamledit.Keys(s)) == 1 {
			c.errorf("C122", s, path+".type", "string transform with trim needs type TrimPrefix or TrimSuffix")
			return false
		}
		t := c.subType(s, path, "string", [][2]string{{"fmt", string(pt.StringTransformTypeFormat)}, {"convert", string(pt.StringTransformTypeConvert)}, {"regexp", string(pt.StringTransformTypeRegexp)}, {"join", string(pt.StringTransformTypeJoin)}, {"trim", "-"}})
		switch t {
		case "-":
			return false
		case "":
			c.errorf("C121", s, path, "a string transform needs fmt, convert, regexp, join or trim with a type")
			return false
		}
		typ = t
		dropNull(s, "type")
		yamledit.Insert(s, 0, "type", yamledit.NewString(typ))
		if typ != string(pt.StringTransformTypeFormat) {
			c.inferred = append(c.inferred, path)
			c.repaired(s, path)
			c.infof("C313", s, path+".type", "set type %s from %s; natively the type defaulted to Format, so this transform failed there", typ, lowerFirst(typ))
		}
	}
	switch pt.StringTransformType(typ) {
	case pt.StringTransformTypeRegexp:
		c.fallibleAt(tpath, s)
		if re := yamledit.Resolve(yamledit.Get(s, "regexp")); yamledit.IsMap(re) {
			c.dropUnknown(re, path+".regexp", []string{"match", "group"})
		}
	case pt.StringTransformTypeJoin:
		if j := yamledit.Resolve(yamledit.Get(s, "join")); yamledit.IsMap(j) {
			c.dropUnknown(j, path+".join", []string{"separator"})
			if sep, ok := yamledit.Str(yamledit.Get(j, "separator")); ok && len(sep) > 1 {
				c.warnf("C208", yamledit.Get(j, "separator"), path+".join.separator", "the function cuts only one trailing byte of a %d-byte separator: %q renders \"a%sb%s\" where native rendered \"a%sb\"", len(sep), sep, sep, sep[:len(sep)-1], sep)
			}
		}
	case pt.StringTransformTypeConvert:
		// FromBase64 and ToJson can fail on bad input.
		c.fallibleAt(tpath, s)
	case pt.StringTransformTypeFormat:
		f, ok := yamledit.Str(yamledit.Get(s, "fmt"))
		if ok && integerVerb(f) == "" && ch.kinds&kindKubeInt != 0 {
			// A verb K1 does not compensate, on a value that natively
			// can be an int64 and reaches the function as float64.
			if verb := numberVerb(f); verb != "" {
				c.warnf("C215", yamledit.Get(s, "fmt"), path+".fmt", "format %q uses %s: integers reach the function as float64 and print differently (%s); convert the value first (a convert transform to int64 or string before this one) or use %%v", f, verb, verbExample(verb))
			}
		}
		if ok && numberVerb(f) == "" && ch.kinds&kindKubeInt != 0 {
			// %s, %v or an extra argument: an integer prints as
			// %!s(int64=7) natively and %!s(float64=7) in the function,
			// 1234567 and 1.234567e+06 with %v.
			ch.printed = fmt.Sprintf("the string Format at %s (%q) of %s", tpath, f, ch.src.what)
		}
		return compensatePass(c).integerFormat(seq, i, s, path, tpath, ch)
	}
	return false
}

// printAs prints v with a format given at run time, for messages that
// show a misprint.
func printAs(format string, v any) string { return fmt.Sprintf(format, v) }

// reencoded warns (C220) about a transform that re-encodes the text of a
// format that may have printed an integer differently natively and in the
// function (chain.printed): a Format that hex-encodes or truncates the
// text (%x, %.3s), a string Convert (hash, base64, case), a Regexp, a
// convert, or a map or match lookup of the text. Once re-encoded, the
// misprint can no longer be recognised in the output (verify reads the
// patch's source instead, D30). Trims, Join, Replace and a Format with
// other verbs (%s, %d of a string prints %!d(string=…)) keep the printed
// text visible; math fails on any text alike.
func (c normalisePass) reencoded(t *yaml.Node, typ string, block *yaml.Node, path string, ch *chain) {
	if ch.printed == "" {
		return
	}
	if typ == transformString {
		st, _ := yamledit.Str(yamledit.Get(block, "type"))
		switch pt.StringTransformType(st) {
		case pt.StringTransformTypeTrimPrefix, pt.StringTransformTypeTrimSuffix, pt.StringTransformTypeJoin, pt.StringTransformTypeReplace:
			return
		case pt.StringTransformTypeFormat:
			if f, _ := yamledit.Str(yamledit.Get(block, "fmt")); reencodingVerb(f) == "" {
				return
			}
		}
	}
	if typ == transformMath {
		return // Fails on any text, alike on both sides.
	}
	c.warnf("C220", t, path, "this transform re-encodes the text of %s, which may print an integer: natively an int64 (%%s of 7 prints %q, %%v of 1234567 %q), in the function a float64 (%q, %q); the misprint then reaches the output unrecognisable. Convert the value to string or int64 before formatting it", ch.printed, printAs("%s", int64(7)), printAs("%v", int64(1234567)), printAs("%s", float64(7)), printAs("%v", float64(1234567)))
	ch.printed = ""
}

// patchPathOf returns the path of the patch a transform path belongs to.
func patchPathOf(tpath string) string {
	if i := strings.LastIndex(tpath, ".transforms["); i >= 0 {
		return tpath[:i]
	}
	return tpath
}

// match writes `type: literal` on every pattern without a type, which the
// function requires at run time (docs/semantics/conversion.md#transforms).
func (c normalisePass) match(m *yaml.Node, path, tpath string) {
	if !yamledit.IsMap(m) {
		c.errorf("C120", m, path, "match must be an object")
		return
	}
	c.dropUnknown(m, path, []string{"patterns", "fallbackValue", "fallbackTo"})
	dropNull(m, "fallbackTo")
	fb := yamledit.Get(m, "fallbackValue")
	to, _ := yamledit.Str(yamledit.Get(m, "fallbackTo"))
	if (fb == nil || yamledit.IsNull(fb)) && to != string(pt.MatchFallbackToInput) {
		c.fallibleAt(tpath, m)
	}
	pats := yamledit.Resolve(yamledit.Get(m, "patterns"))
	if !yamledit.IsSeq(pats) {
		return // Output validation reports a match without patterns.
	}
	for i, p := range pats.Content {
		pp := idx(path+".patterns", i)
		if !c.once(p) {
			continue
		}
		p = yamledit.Resolve(p)
		if !yamledit.IsMap(p) {
			continue
		}
		c.dropUnknown(p, pp, []string{"type", "literal", "regexp", "result"})
		if r := yamledit.Get(p, "result"); r == nil || yamledit.IsNull(r) {
			c.errorf("C128", p, pp+".result", "a match pattern needs a result: the API server rejects the pattern without one (result is required, and null is no value); set the value the pattern should produce")
		}
		if n := yamledit.Get(p, "type"); n == nil || yamledit.IsNull(n) {
			dropNull(p, "type")
			yamledit.Insert(p, 0, "type", yamledit.NewString(string(pt.MatchPatternTypeLiteral)))
		} else if _, ok := c.enum(n, pp+".type", patternTypes); !ok {
			c.errorf("C121", n, pp+".type", "unknown match pattern type %q (want literal or regexp)", yamledit.Resolve(n).Value)
		}
	}
}

// numberConvert warns about a convert to a number type with a format
// (C219). A conversion between equal types returns the input whatever the
// format, and a number is an int64 natively and a float64 in the function:
// to int64 with format quantity, native passes an integer through and the
// function fails; to float64, the other way round.
func (c normalisePass) numberConvert(block *yaml.Node, path string) {
	to, _ := yamledit.Str(yamledit.Get(block, "toType"))
	f, _ := yamledit.Str(yamledit.Get(block, "format"))
	format, toType := pt.ConvertTransformFormat(f), pt.ConvertTransformType(to)
	if (format != pt.ConvertTransformFormatQuantity && format != pt.ConvertTransformFormatJSON) ||
		(toType != pt.ConvertTransformTypeInt && toType != pt.ConvertTransformTypeInt64 && toType != pt.ConvertTransformTypeFloat64) {
		return
	}
	c.warnf("C219", yamledit.Get(block, "format"), path+".format", "a convert to %s with format %s: a number input is an int64 natively and a float64 in the function, and only a conversion between equal types ignores the format, so one side passes the number through and the other fails; use format none for number inputs", to, f)
}
