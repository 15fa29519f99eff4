package convert

import (
	"fmt"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/xpmigrate/xpmigrate/convert/yamledit"
)

// combineIntegerFormat rewrites the format of a Combine patch so that it
// prints as natively (compensation K4, C327), and reports whether the
// format is then faithful: no verb is left that prints an int64 and a
// float64 differently.
//
// Natively a Combine reads an XR field the XRD types integer as int64, and
// %d (or %v) prints its digits; the function receives it as float64, which
// %d prints as %!d(float64=N) and %v, from a million on, as 1e+06. %.0f,
// with the same flags and width, prints an integral float64 exactly as %d
// and %v print the int64 (sign, padding and every digit up to 2^53, beyond
// which the function has lost the digits anyway, D32). Combine variables
// take no transforms, so the verb is what can change. It does so only when
// every verb of the format consumes the next variable in order, every
// number verb (numberVerbs, and %v) prints a variable that is provably an
// integer, none has a precision or the # flag, and there are exactly as
// many verbs as variables (an extra one prints %!(EXTRA int64=…) natively).
func (c normalisePass) combineIntegerFormat(cb *yaml.Node, cp, typ, f string) bool {
	if !c.r.o.compensate(CompensateCombineFormat) || typ != combineFromComp {
		return false
	}
	vars := yamledit.Resolve(yamledit.Get(cb, "variables"))
	if !yamledit.IsSeq(vars) {
		return false
	}
	var out strings.Builder
	var mapped []string
	arg := 0
	for i := 0; i < len(f); i++ {
		if f[i] != '%' {
			out.WriteByte(f[i])
			continue
		}
		j := i + 1
		for j < len(f) && strings.IndexByte("+-# 0123456789.[]*", f[j]) >= 0 {
			j++
		}
		if j >= len(f) {
			return false // A dangling %: printed alike, but not worth a rewrite.
		}
		spec, verb := f[i+1:j], f[j]
		if verb == '%' && spec == "" {
			out.WriteString("%%")
			i = j
			continue
		}
		if strings.ContainsAny(spec, "[*") || arg >= len(vars.Content) {
			return false
		}
		from, _ := yamledit.Str(yamledit.Get(vars.Content[arg], "fromFieldPath"))
		arg++
		if verb != 'v' && strings.IndexByte(numberVerbs, verb) < 0 {
			out.WriteString(f[i : j+1]) // %s and the like print alike.
			i = j
			continue
		}
		if verb != 'd' && verb != 'v' || strings.ContainsAny(spec, "#.") || !c.provablyInteger(from) {
			return false
		}
		out.WriteString("%" + spec + ".0f")
		mapped = append(mapped, fmt.Sprintf("%%%s%c of %s", spec, verb, from))
		i = j
	}
	if arg != len(vars.Content) {
		return false
	}
	if len(mapped) == 0 {
		return true
	}
	n := yamledit.Resolve(yamledit.Get(yamledit.Get(cb, "string"), "fmt"))
	n.Value = out.String()
	c.infof("C327", n, cp+".string.fmt", "format %q became %q: %s, an XR field the XRD types integer, is int64 natively and float64 in the function, where %%d prints %%!d(float64=N) and %%v prints 1e+06 from a million on; %%.0f prints the float64 as the verb printed the int64, so the output is the native one (turn off with --no-compensate K4)", f, n.Value, strings.Join(mapped, ", "))
	return true
}

// provablyInteger reports whether the XR field at path is always an
// integer natively: the XRD types it integer, not nullable.
func (c normalisePass) provablyInteger(path string) bool {
	k, ok := schemaKinds(c.xrSchema(), path)
	return ok && k == kindKubeInt
}
