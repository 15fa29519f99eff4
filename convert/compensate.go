package convert

import (
	"fmt"
	"slices"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/xpmigrate/xpmigrate/convert/yamledit"
	pt "github.com/xpmigrate/xpmigrate/patchandtransform"
)

// integerFormat decides, for a Format transform, whether to insert a
// convert to int64 before it (docs/conversion-fidelity.md#the-compensations K1), and inserts it.
// It reports whether it did.
//
// A %d prints an int64 as the integer and a float64 as %!d(float64=N).
// Natively a value read through the Kubernetes decoder is int64 when
// integral; in the function every number is float64. By default the
// convert goes in only where it provably restores the native output (the
// value is always such an integer, or already int64), and nothing goes in
// where native printed the same as the function will (float64 from
// EnvironmentConfig data, map and match values, float arithmetic).
// Elsewhere the difference stays, with C212. --fix-quirk C325 inserts the
// convert wherever the value can be a number, on purpose.
func (c compensatePass) integerFormat(seq *yaml.Node, i int, s *yaml.Node, path, tpath string, ch *chain) bool {
	f, ok := yamledit.Str(yamledit.Get(s, "fmt"))
	verb := integerVerb(f)
	k := ch.kinds
	if !ok || verb == "" || k&(kindKubeInt|kindFloat) == 0 {
		return false // Both sides print the same.
	}
	fmtNode := yamledit.Get(s, "fmt")
	asInt, asFloat := fmt.Sprintf(f, int64(100)), fmt.Sprintf(f, float64(100))
	provable := k&kindKubeInt != 0 && k&^(kindKubeInt|kindInt) == 0
	fix := slices.Contains(c.r.o.FixQuirks, QuirkIntegerFormat)
	switch {
	case provable && c.r.o.compensate(CompensateIntegerFormat):
		c.insertIntConvert(seq, i, tpath, s)
		c.infof("C323", fmtNode, path+".fmt", "inserted {type: convert, convert: {toType: int64}} before this transform: %s is always an integer, int64 natively, and reaches the function as float64: without the convert %q would print %q where native printed %q for 100 (turn off with --no-compensate=K1)", ch.src.what, f, asFloat, asInt)
		return true
	case fix:
		c.insertIntConvert(seq, i, tpath, s)
		c.intended = append(c.intended, QuirkIntegerFormat)
		was := fmt.Sprintf("native printed %q for 100 (a float64 there too)", asFloat)
		if k&kindKubeInt != 0 {
			was = fmt.Sprintf("native printed %q for an integer and %q for a float64 100", asInt, asFloat)
		}
		msg := fmt.Sprintf("quirk fixed on request: integer verb now prints the integer (intended change): inserted {type: convert, convert: {toType: int64}} before this transform, so %q prints %q when %s is 100, where %s", f, asInt, ch.src.what, was)
		if k&kindFloat != 0 {
			msg += "; a fraction is now truncated"
		}
		if k&kindString != 0 {
			msg += "; a string is now parsed as an integer, and the patch fails when it is not one"
		}
		if k&(kindBool|kindOther) != 0 {
			msg += "; a bool now prints 1 or 0, and null, an object or a list fails the patch"
		}
		c.infof("C325", fmtNode, path+".fmt", "%s", msg)
		return true
	case k&kindKubeInt != 0:
		why := ""
		if ch.src.why != "" {
			why = " (" + ch.src.why + ")"
		}
		if provable {
			c.warnf("C212", fmtNode, path+".fmt", "the patch at %s formats %s, always an integer, with %q: native printed %q (for 100) and the pipeline prints %q, because the function receives every number as float64, and --no-compensate K1 turned off the convert to int64 that restores native output", patchPathOf(tpath), ch.src.what, f, asInt, asFloat)
			break
		}
		c.warnf("C212", fmtNode, path+".fmt", "the patch at %s formats %s with %q: where it holds an integer%s, native printed %q (for 100) and the pipeline prints %q, because the function receives every number as float64. The converter cannot prove the value is always an integer (natively it can be %s), so it inserted no convert and every other value prints as natively. Give the XRD that types the field (--xrd), fix the quirk on purpose with --fix-quirk C325 (a convert to int64: prints the integer, truncates fractions, fails on non-numeric strings), or convert the value in the Composition", patchPathOf(tpath), ch.src.what, f, why, asInt, asFloat, k.describe())
	}
	// Natively the value is float64 (or not a number) too: the function
	// prints the same %!d(float64=N), faithfully.
	return false
}

// insertIntConvert inserts {type: convert, convert: {toType: int64}} before
// transform i of seq.
func (c compensatePass) insertIntConvert(seq *yaml.Node, i int, tpath string, s *yaml.Node) {
	conv := yamledit.NewMap()
	yamledit.Set(conv, "toType", yamledit.NewString(string(pt.ConvertTransformTypeInt64)))
	t := yamledit.NewMap()
	yamledit.Set(t, "type", yamledit.NewString(transformConvert))
	yamledit.Set(t, "convert", conv)
	if seq.Style&yaml.FlowStyle != 0 {
		t.Style, conv.Style = yaml.FlowStyle, yaml.FlowStyle
	}
	seq.Content = slices.Insert(seq.Content, i, t)
	c.fallibleAt(tpath, s)
}

// annotateIntended writes IntendedChangesAnnotation when a quirk was fixed,
// merged with the codes already listed, sorted.
func (c compensatePass) annotateIntended() {
	if len(c.intended) == 0 {
		return
	}
	an := c.annotations()
	codes := slices.Clone(c.intended)
	if old, ok := yamledit.Str(yamledit.Get(an, IntendedChangesAnnotation)); ok {
		for _, s := range strings.Split(old, ",") {
			if s = strings.TrimSpace(s); s != "" {
				codes = append(codes, s)
			}
		}
	}
	slices.Sort(codes)
	codes = slices.Compact(codes)
	v := yamledit.NewString(strings.Join(codes, ","))
	v.Style = yaml.DoubleQuotedStyle
	yamledit.Set(an, IntendedChangesAnnotation, v)
}
