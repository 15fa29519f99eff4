package convert

import (
	"encoding/json"
	"slices"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/xpmigrate/xpmigrate/convert/yamledit"
	pt "github.com/xpmigrate/xpmigrate/patchandtransform"
)

// valueKinds is what a value can be at one point of a patch's transform
// chain, seen from both engines at once (docs/semantics/legacy.md#two-kinds-of-number,
// docs/semantics/pipeline.md#numbers-at-the-function-boundary and D30). Each bit is one kind of value together with the Go type
// it has natively and in function-patch-and-transform; a set holds every
// kind the value may have. The empty set means the value never gets
// there (every input makes an earlier transform fail, on both sides).
type valueKinds uint8

const (
	// kindString, kindBool and kindOther (null, object, array) have the
	// same Go type on both sides.
	kindString valueKinds = 1 << iota
	kindBool
	kindOther

	// kindKubeInt is an integral number read through the Kubernetes JSON
	// decoder (an XR or composed resource field, an environment after a
	// patch wrote to it): int64 natively, float64 in the function, which
	// receives every number as float64.
	kindKubeInt

	// kindFloat is float64 on both sides: a non-integral number, or a
	// number from the plain JSON decoder (EnvironmentConfig data, map
	// values, match results), or the output of a float64 operation.
	kindFloat

	// kindInt is int64 on both sides: a convert to int64, a clamp bound,
	// a product of int64s.
	kindInt
)

const (
	kindNumbers = kindKubeInt | kindFloat | kindInt

	// kindsKube is a field of an object read through the Kubernetes JSON
	// decoder whose schema the converter does not know.
	kindsKube = kindString | kindBool | kindOther | kindKubeInt | kindFloat

	// kindsPlain is a value decoded by the plain JSON decoder on both
	// sides, of a type the converter does not know.
	kindsPlain = kindString | kindBool | kindOther | kindFloat
)

// A source says where a patch reads its value, for the findings.
type source struct {
	kinds valueKinds
	what  string // "the XR's spec.size", "environment field size"
	why   string // why it can be an int64 natively, when that is not obvious
}

// patchSource returns what the value of a single-source patch can be
// before its transforms. Combine patches format their variables into a
// string first.
func (c normalisePass) patchSource(p *yaml.Node, typ string, loc Location) source {
	from, _ := yamledit.Str(yamledit.Get(p, "fromFieldPath"))
	switch {
	case slices.Contains(combinePatchTypes, typ):
		return source{kinds: kindString, what: "the combined string"}
	case loc == LocEnvironment && typ == toComposite, typ == fromEnvironment:
		if c.envWrite {
			return source{kinds: kindsKube | kindInt, what: "environment field " + from, why: "a patch of this Composition writes to the environment, after which native Crossplane re-read every number of the environment as int64 when integral"}
		}
		return source{kinds: kindsPlain, what: "environment field " + from}
	case typ == fromComposite:
		if k, ok := schemaKinds(c.xrSchema(), from); ok {
			return source{kinds: k, what: "the XR's " + from + " (as the XRD types it)"}
		}
		return source{kinds: kindsKube, what: "the XR's " + from}
	default: // ToComposite, ToEnvironment: a composed resource.
		return source{kinds: kindsKube, what: "the composed resource's " + from}
	}
}

// envWrites reports whether any patch of the Composition writes to the
// environment: natively every write re-reads the whole environment
// through the Kubernetes decoder, so its integral numbers become int64
// (docs/semantics/legacy.md#two-kinds-of-number normalisation points).
func envWrites(spec *yaml.Node) bool {
	written := false
	scan := func(seq *yaml.Node, types ...string) {
		seq = yamledit.Resolve(seq)
		if !yamledit.IsSeq(seq) {
			return
		}
		for _, p := range seq.Content {
			t, ok := yamledit.Str(yamledit.Get(p, "type"))
			if !ok {
				t = fromComposite
			}
			if slices.Contains(types, t) {
				written = true
			}
		}
	}
	if res := yamledit.Resolve(yamledit.Get(spec, "resources")); yamledit.IsSeq(res) {
		for _, t := range res.Content {
			scan(yamledit.Get(t, "patches"), toEnvironment, combineToEnv)
		}
	}
	if sets := yamledit.Resolve(yamledit.Get(spec, "patchSets")); yamledit.IsSeq(sets) {
		for _, s := range sets.Content {
			scan(yamledit.Get(s, "patches"), toEnvironment, combineToEnv)
		}
	}
	scan(yamledit.Get(yamledit.Get(spec, "environment"), "patches"), fromComposite, combineFromComp)
	return written
}

// afterTransform returns what a value of kinds in can be after transform
// t (normalised, of type typ) has run on it, on both sides
// (docs/semantics/legacy.md#transforms, docs/semantics/pipeline.md#transforms).
func afterTransform(t *yaml.Node, typ string, in valueKinds) valueKinds {
	block := yamledit.Resolve(yamledit.Get(t, typ))
	switch typ {
	case transformMap:
		if in&kindString == 0 {
			return 0 // Only strings are looked up.
		}
		var out valueKinds
		yamledit.Pairs(block, func(_ int, _, v *yaml.Node) { out |= plainKinds(v) })
		return out
	case transformMatch:
		if in&kindString == 0 {
			return 0 // Every pattern needs a string.
		}
		var out valueKinds
		if pats := yamledit.Resolve(yamledit.Get(block, "patterns")); yamledit.IsSeq(pats) {
			for _, p := range pats.Content {
				out |= plainKinds(yamledit.Get(p, "result"))
			}
		}
		if to, _ := yamledit.Str(yamledit.Get(block, "fallbackTo")); to == string(pt.MatchFallbackToInput) {
			return out | kindString
		}
		return out | plainKinds(yamledit.Get(block, "fallbackValue"))
	case transformMath:
		num := in & kindNumbers
		if num == 0 {
			return 0
		}
		if mt, _ := yamledit.Str(yamledit.Get(block, "type")); mt == string(pt.MathTransformTypeClampMin) || mt == string(pt.MathTransformTypeClampMax) {
			return num | kindInt // The bound, as int64, or the input unchanged.
		}
		return num // A product keeps its Go type.
	case transformString:
		return kindString
	case transformConvert:
		to, _ := yamledit.Str(yamledit.Get(block, "toType"))
		switch pt.ConvertTransformType(to) {
		case pt.ConvertTransformTypeString:
			return kindString
		case pt.ConvertTransformTypeInt, pt.ConvertTransformTypeInt64:
			return kindInt
		case pt.ConvertTransformTypeBool:
			return kindBool
		case pt.ConvertTransformTypeFloat64:
			return kindFloat
		default:
			return kindOther
		}
	}
	return in
}

// plainKinds is what a value of the Composition decodes to with the
// plain JSON decoder (map values, match results and fallbacks): numbers
// are float64 on both sides, and an absent value is null.
func plainKinds(n *yaml.Node) valueKinds {
	if n == nil {
		return kindOther
	}
	j, err := yamledit.JSON(n)
	if err != nil {
		return kindsPlain
	}
	var v any
	if err := json.Unmarshal(j, &v); err != nil {
		return kindsPlain
	}
	switch v.(type) {
	case string:
		return kindString
	case float64:
		return kindFloat
	case bool:
		return kindBool
	}
	return kindOther
}

// describe names the native Go types of a set, for messages.
func (k valueKinds) describe() string {
	var parts []string
	if k&(kindKubeInt|kindInt) != 0 {
		parts = append(parts, "int64")
	}
	if k&kindFloat != 0 {
		parts = append(parts, "float64")
	}
	if k&kindString != 0 {
		parts = append(parts, "string")
	}
	if k&kindBool != 0 {
		parts = append(parts, "bool")
	}
	if k&kindOther != 0 {
		parts = append(parts, "null, object or list")
	}
	return strings.Join(parts, ", ")
}
