package convert

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/crossplane/crossplane-runtime/v2/pkg/fieldpath"
	yaml "go.yaml.in/yaml/v3"

	"github.com/xpmigrate/xpmigrate/convert/xrpath"
	"github.com/xpmigrate/xpmigrate/convert/yamledit"
	pt "github.com/xpmigrate/xpmigrate/patchandtransform"
	"github.com/xpmigrate/xpmigrate/patchandtransform/function"
)

// A Location is where a patch list lives; it decides which patch types are
// allowed (docs/semantics/conversion.md#allowed-patch-types).
type Location int

// Locations of patches.
const (
	LocResource Location = iota
	LocPatchSet
	LocEnvironment
)

// Patch types, policies and transform types: the core's enums, as the
// strings the YAML holds.
const (
	fromComposite    = string(pt.PatchTypeFromCompositeFieldPath)
	toComposite      = string(pt.PatchTypeToCompositeFieldPath)
	combineFromComp  = string(pt.PatchTypeCombineFromComposite)
	combineToComp    = string(pt.PatchTypeCombineToComposite)
	fromEnvironment  = string(pt.PatchTypeFromEnvironmentFieldPath)
	toEnvironment    = string(pt.PatchTypeToEnvironmentFieldPath)
	combineFromEnv   = string(pt.PatchTypeCombineFromEnvironment)
	combineToEnv     = string(pt.PatchTypeCombineToEnvironment)
	patchSetType     = string(pt.PatchTypePatchSet)
	policyOptional   = string(pt.FromFieldPathPolicyOptional)
	policyRequired   = string(pt.FromFieldPathPolicyRequired)
	transformMath    = string(pt.TransformTypeMath)
	transformMap     = string(pt.TransformTypeMap)
	transformMatch   = string(pt.TransformTypeMatch)
	transformString  = string(pt.TransformTypeString)
	transformConvert = string(pt.TransformTypeConvert)
)

var (
	resourcePatchTypes = []string{
		fromComposite, toComposite, combineFromComp, combineToComp,
		fromEnvironment, toEnvironment, combineFromEnv, combineToEnv, patchSetType,
	}
	environmentPatchTypes = []string{fromComposite, toComposite, combineFromComp, combineToComp}
	fieldPathPatchTypes   = []string{fromComposite, toComposite, fromEnvironment, toEnvironment}
	combinePatchTypes     = []string{combineFromComp, combineToComp, combineFromEnv, combineToEnv}

	resourcePatchKeys = []string{"type", "fromFieldPath", "toFieldPath", "combine", "transforms", "policy", "patchSetName"}
	otherPatchKeys    = []string{"type", "fromFieldPath", "toFieldPath", "combine", "transforms", "policy"}

	toFieldPathPolicies = names(
		function.ToFieldPathPolicyReplace, function.ToFieldPathPolicyMergeObjects, function.ToFieldPathPolicyMergeObjectsAppendArrays,
		function.ToFieldPathPolicyForceMergeObjects, function.ToFieldPathPolicyForceMergeObjectsAppendArrays,
	)
)

// names returns enum values as the strings the YAML holds.
func names[T ~string](vs ...T) []string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = string(v)
	}
	return out
}

// enum checks the string value of node n against allowed values. With
// --fix-enum-case a value that differs only in case is rewritten (C312).
// It returns the (fixed) value and whether it is allowed.
func (c normalisePass) enum(n *yaml.Node, path string, allowed []string) (string, bool) {
	s, ok := yamledit.Str(n)
	if !ok {
		return "", false
	}
	if slices.Contains(allowed, s) {
		return s, true
	}
	if !c.r.o.FixEnumCase {
		return s, false
	}
	for _, a := range allowed {
		if strings.EqualFold(a, s) {
			r := yamledit.Resolve(n)
			r.Value = a
			c.infof("C312", n, path, "rewrote %q as %q", s, a)
			return a, true
		}
	}
	return s, false
}

// once reports whether shared node n (an anchor used through aliases) is
// seen for the first time.
func (c normalisePass) once(n *yaml.Node) bool {
	n = yamledit.Resolve(n)
	if c.visited[n] {
		return false
	}
	c.visited[n] = true
	return true
}

// patchSetsAt normalises the patch sets at path (docs/semantics/conversion.md#the-patch-and-transform-input, docs/semantics/conversion.md#patches).
func (c normalisePass) patchSetsAt(sets *yaml.Node, at string) {
	sets = yamledit.Resolve(sets)
	if !yamledit.IsSeq(sets) {
		c.errorf("C116", sets, at, "patchSets must be a list")
		return
	}
	for i, ps := range sets.Content {
		path := idx(at, i)
		ps = yamledit.Resolve(ps)
		if !yamledit.IsMap(ps) {
			c.errorf("C116", ps, path, "a patch set must be an object with a name and patches")
			continue
		}
		name, ok := yamledit.Str(yamledit.Get(ps, "name"))
		if !ok || name == "" {
			c.errorf("C116", ps, path+".name", "a patch set needs a name")
		}
		c.sets[name] = true
		c.dropUnknown(ps, path, []string{"name", "patches"})
		if p := yamledit.Get(ps, "patches"); p != nil && !yamledit.IsNull(p) {
			c.patches(p, path+".patches", LocPatchSet)
		}
	}
}

func (c normalisePass) patches(seq *yaml.Node, path string, loc Location) {
	seq = yamledit.Resolve(seq)
	if !yamledit.IsSeq(seq) {
		c.errorf("C116", seq, path, "patches must be a list")
		return
	}
	for i, p := range seq.Content {
		c.patch(p, idx(path, i), loc)
	}
}

// patch normalises one patch (docs/semantics/conversion.md#patches).
func (c normalisePass) patch(pn *yaml.Node, path string, loc Location) {
	if !c.once(pn) {
		return
	}
	p := yamledit.Resolve(pn)
	if !yamledit.IsMap(p) {
		c.errorf("C116", pn, path, "a patch must be an object")
		return
	}
	typ := fromComposite
	if tn := yamledit.Get(p, "type"); tn == nil || yamledit.IsNull(tn) {
		dropNull(p, "type")
		yamledit.Insert(p, 0, "type", yamledit.NewString(fromComposite))
	} else {
		allowed := resourcePatchTypes
		switch loc {
		case LocEnvironment:
			allowed = environmentPatchTypes
		case LocPatchSet:
			allowed = resourcePatchTypes[:len(resourcePatchTypes)-1] // No PatchSet.
		}
		t, ok := c.enum(tn, path+".type", allowed)
		switch {
		case ok:
		case loc == LocPatchSet && t == patchSetType:
			c.errorf("C114", tn, path+".type", "a patch set cannot include another patch set")
			return
		case loc == LocEnvironment && slices.Contains(resourcePatchTypes, t):
			c.errorf("C112", tn, path+".type", "environment patches can only be %s, not %q", strings.Join(environmentPatchTypes, ", "), t)
			return
		default:
			c.errorf("C115", tn, path+".type", "unknown patch type %q", yamledit.Resolve(tn).Value)
			return
		}
		typ = t
	}
	known := otherPatchKeys
	if loc == LocResource {
		known = resourcePatchKeys
	}
	c.dropUnknown(p, path, known)

	switch {
	case slices.Contains(fieldPathPatchTypes, typ):
		if s, ok := yamledit.Str(yamledit.Get(p, "fromFieldPath")); !ok || s == "" {
			c.errorf("C116", p, path+".fromFieldPath", "a %s patch needs fromFieldPath", typ)
		}
	case slices.Contains(combinePatchTypes, typ):
		c.combine(p, path, typ)
	case typ == patchSetType:
		name, ok := yamledit.Str(yamledit.Get(p, "patchSetName"))
		switch {
		case !ok || name == "":
			c.errorf("C116", p, path+".patchSetName", "a PatchSet patch needs patchSetName")
		case !c.sets[name]:
			c.errorf("C117", yamledit.Get(p, "patchSetName"), path+".patchSetName", "no patch set is named %q", name)
		}
	}
	c.fieldPaths(p, path)
	c.policy(p, path, typ, loc)
	c.wildcardMerge(p, path, typ, loc)
	c.xrListWrite(p, path, typ)
	if ts := yamledit.Get(p, "transforms"); ts != nil && !yamledit.IsNull(ts) {
		src := c.patchSource(p, typ, loc)
		c.transforms(ts, path+".transforms", &chain{src: src, kinds: src.kinds, printed: c.combinePrinted(p, path, typ, loc)})
	} else {
		dropNull(p, "transforms")
	}
	c.xrWrite(p, path, typ, loc)
	switch {
	case c.ext != nil:
		c.ext.Patch(p, path, typ, loc)
	case c.r.o.XRStyleV2:
		c.claimMachinery(p, path, typ)
	}
}

// fieldPaths warns about a patch path that cannot be parsed (C216). The
// patch fails whenever it runs: natively the resource is skipped with a
// warning (a ToComposite patch, or a policy's merge at apply time, fails
// the reconcile), in the function the whole pipeline fails. While its
// source is absent (Optional) it runs on neither side, so such a patch can
// live unnoticed in a working Composition.
func (c normalisePass) fieldPaths(p *yaml.Node, path string) {
	check := func(n *yaml.Node, at string) {
		s, ok := yamledit.Str(n)
		if !ok || s == "" {
			return
		}
		if _, err := fieldpath.Parse(s); err != nil {
			c.warnf("C216", n, at, "%v: the patch fails whenever its source is set, natively by skipping the resource (or failing the reconcile, for a ToComposite patch or one with a policy), in the function by failing the whole pipeline; fix the path", err)
		}
	}
	check(yamledit.Get(p, "fromFieldPath"), path+".fromFieldPath")
	check(yamledit.Get(p, "toFieldPath"), path+".toFieldPath")
	if vars := yamledit.Resolve(yamledit.Get(yamledit.Get(p, "combine"), "variables")); yamledit.IsSeq(vars) {
		for i, v := range vars.Content {
			check(yamledit.Get(v, "fromFieldPath"), idx(path+".combine.variables", i)+".fromFieldPath")
		}
	}
}

// An XRField is a field path of a patch that names a field of the XR:
// the node holding it, where it is, and whether the patch writes it.
type XRField struct {
	Node  *yaml.Node
	Path  string
	Write bool
}

// XRFields returns the field paths of patch p (of type typ, at path) that
// name XR fields: what FromComposite and CombineFromComposite patches read,
// what ToComposite and CombineToComposite patches write. In environment
// patches the XR is on the same sides.
func XRFields(p *yaml.Node, path, typ string) []XRField {
	var out []XRField
	switch typ {
	case fromComposite:
		if n := yamledit.Get(p, "fromFieldPath"); n != nil {
			out = append(out, XRField{Node: n, Path: path + ".fromFieldPath"})
		}
	case combineFromComp:
		if vars := yamledit.Resolve(yamledit.Get(yamledit.Get(p, "combine"), "variables")); yamledit.IsSeq(vars) {
			for i, v := range vars.Content {
				if n := yamledit.Get(v, "fromFieldPath"); n != nil {
					out = append(out, XRField{Node: n, Path: idx(path+".combine.variables", i) + ".fromFieldPath"})
				}
			}
		}
	case toComposite, combineToComp:
		if n := yamledit.Get(p, "toFieldPath"); n != nil {
			out = append(out, XRField{Node: n, Path: path + ".toFieldPath", Write: true})
		}
	}
	return out
}

// claimMachinery reports, for --xr-style=v2, reads of XR fields that
// v2-style XRs do not have (docs/semantics/conversion.md#constructs-with-no-exact-equivalent N13, C321).
func (c normalisePass) claimMachinery(p *yaml.Node, path, typ string) {
	for _, ref := range XRFields(p, path, typ) {
		r, ok := yamledit.Str(ref.Node)
		if !ok || ref.Write {
			continue
		}
		switch class, _ := xrpath.Classify(r); class {
		case xrpath.ClaimNamespace, xrpath.ClaimName, xrpath.ClaimRef, xrpath.Machinery, xrpath.SecretNamespace, xrpath.SecretRef:
			c.infof("C321", p, path, "reads %s: v2-style XRs keep this machinery under spec.crossplane and have no claim or connection secret reference", r)
		case xrpath.ClaimNameLabel, xrpath.ClaimNSLabel, xrpath.ClaimLabel:
			c.infof("C321", p, path, "reads %s: v2-style XRs have no claim, so the crossplane.io/claim-* labels are never set", r)
		}
	}
}

// combine checks a Combine patch's required fields (docs/semantics/conversion.md#required-patch-fields)
// and warns about integer verbs (K4).
func (c normalisePass) combine(p *yaml.Node, path, typ string) {
	if s, ok := yamledit.Str(yamledit.Get(p, "toFieldPath")); !ok || s == "" {
		c.errorf("C116", p, path+".toFieldPath", "a %s patch needs toFieldPath", typ)
	}
	cb := yamledit.Resolve(yamledit.Get(p, "combine"))
	if !yamledit.IsMap(cb) {
		c.errorf("C116", p, path+".combine", "a %s patch needs combine", typ)
		return
	}
	cp := path + ".combine"
	c.dropUnknown(cb, cp, []string{"variables", "strategy", "string"})
	if s, ok := yamledit.Str(yamledit.Get(cb, "strategy")); !ok || s != string(pt.CombineStrategyString) {
		c.errorf("C116", cb, cp+".strategy", "combine needs strategy: string")
	}
	vars := yamledit.Resolve(yamledit.Get(cb, "variables"))
	if !yamledit.IsSeq(vars) || len(vars.Content) == 0 {
		c.errorf("C116", cb, cp+".variables", "combine needs at least one variable")
	} else {
		for i, v := range vars.Content {
			vp := idx(cp+".variables", i)
			c.dropUnknown(v, vp, []string{"fromFieldPath"})
			if s, ok := yamledit.Str(yamledit.Get(v, "fromFieldPath")); !ok || s == "" {
				c.errorf("C116", v, vp+".fromFieldPath", "a combine variable needs fromFieldPath")
			}
		}
	}
	str := yamledit.Resolve(yamledit.Get(cb, "string"))
	if !yamledit.IsMap(str) {
		c.errorf("C116", cb, cp+".string", "combine needs string.fmt")
		return
	}
	c.dropUnknown(str, cp+".string", []string{"fmt"})
	f, ok := yamledit.Str(yamledit.Get(str, "fmt"))
	if !ok {
		c.errorf("C116", str, cp+".string.fmt", "combine needs string.fmt")
		return
	}
	if verb := numberVerb(f); !c.combineIntegerFormat(cb, cp, typ, f) && verb != "" {
		c.warnf("C211", yamledit.Get(str, "fmt"), cp+".string.fmt", "format %q uses %s: integers reach the function as float64 and print differently (%s); no function input can compensate, use %%v or %%s on strings, or convert the value first", f, verb, verbExample(verb))
	}
}

// combinePrinted names a Combine patch's format when its text may hold an
// integer printed differently natively and in the function with a verb
// C211 does not cover (%s, %v, an extra argument), for C220; "" otherwise.
func (c normalisePass) combinePrinted(p *yaml.Node, path, typ string, loc Location) string {
	if !slices.Contains(combinePatchTypes, typ) {
		return ""
	}
	cb := yamledit.Resolve(yamledit.Get(p, "combine"))
	f, ok := yamledit.Str(yamledit.Get(yamledit.Resolve(yamledit.Get(cb, "string")), "fmt"))
	if !ok || numberVerb(f) != "" {
		return "" // C211.
	}
	single := map[string]string{combineFromComp: fromComposite, combineToComp: toComposite, combineFromEnv: fromEnvironment, combineToEnv: toEnvironment}[typ]
	vars := yamledit.Resolve(yamledit.Get(cb, "variables"))
	if !yamledit.IsSeq(vars) {
		return ""
	}
	for _, v := range vars.Content {
		from := yamledit.Resolve(yamledit.Get(v, "fromFieldPath"))
		if from == nil {
			continue
		}
		one := &yaml.Node{Kind: yaml.MappingNode, Content: []*yaml.Node{yamledit.NewString("fromFieldPath"), from}}
		if c.patchSource(one, single, loc).kinds&kindKubeInt != 0 {
			return fmt.Sprintf("the combine format at %s.combine.string.fmt (%q) of the variable %s", path, f, from.Value)
		}
	}
	return ""
}

// policy rewrites policy.mergeOptions as policy.toFieldPath and checks
// policy.fromFieldPath (docs/semantics/conversion.md#fromfieldpath-policy, docs/semantics/conversion.md#merge-options-become-tofieldpath-policies).
func (c normalisePass) policy(p *yaml.Node, path, typ string, loc Location) {
	pol := yamledit.Get(p, "policy")
	if pol == nil {
		return
	}
	pp := path + ".policy"
	if yamledit.IsNull(pol) {
		yamledit.Delete(p, "policy")
		return
	}
	pol = yamledit.Resolve(pol)
	if !yamledit.IsMap(pol) {
		c.errorf("C118", pol, pp, "policy must be an object")
		return
	}
	c.dropUnknown(pol, pp, []string{"fromFieldPath", "mergeOptions", "toFieldPath"})
	if f := yamledit.Get(pol, "fromFieldPath"); f != nil {
		if yamledit.IsNull(f) {
			yamledit.Delete(pol, "fromFieldPath")
		} else if v, ok := c.enum(f, pp+".fromFieldPath", []string{policyOptional, policyRequired}); !ok {
			c.errorf("C118", f, pp+".fromFieldPath", "policy.fromFieldPath must be Optional or Required, not %q (use --fix-enum-case to fix the case)", yamledit.Resolve(f).Value)
		} else if v == policyRequired && loc != LocEnvironment && writesComposed(typ) {
			c.infof("C315", f, pp+".fromFieldPath", "Required: while the source is missing, the function leaves out a composed resource that does not exist yet and marks the XR not ready; for one that exists it applies the other patches and warns, where native skipped the resource")
		}
	}
	if mk := yamledit.Key(pol, "mergeOptions"); mk != nil {
		mo := yamledit.Get(pol, "mergeOptions")
		if yamledit.IsNull(mo) {
			yamledit.Delete(pol, "mergeOptions")
		} else {
			keep, _ := yamledit.Bool(yamledit.Get(mo, "keepMapValues"))
			appendSlice, _ := yamledit.Bool(yamledit.Get(mo, "appendSlice"))
			policy := function.ToFieldPathPolicyForceMergeObjects
			switch {
			case keep && appendSlice:
				policy = function.ToFieldPathPolicyMergeObjectsAppendArrays
			case keep:
				policy = function.ToFieldPathPolicyMergeObjects
			case appendSlice:
				policy = function.ToFieldPathPolicyForceMergeObjectsAppendArrays
			}
			yamledit.Delete(pol, "toFieldPath")
			i := yamledit.Index(pol, "mergeOptions")
			mk.Value = "toFieldPath"
			pol.Content[2*i+1] = yamledit.NewString(string(policy))
		}
	} else if t := yamledit.Get(pol, "toFieldPath"); t != nil {
		if yamledit.IsNull(t) {
			yamledit.Delete(pol, "toFieldPath")
		} else if _, ok := c.enum(t, pp+".toFieldPath", append(toFieldPathPolicies, string(function.ToFieldPathPolicyMergeObject), string(function.ToFieldPathPolicyAppendArray))); !ok {
			c.errorf("C118", t, pp+".toFieldPath", "unknown policy.toFieldPath %q", yamledit.Resolve(t).Value)
		}
	}
	if len(pol.Content) == 0 {
		yamledit.Delete(p, "policy")
	}
}

// writesComposed reports whether a patch type writes to the composed
// resource.
func writesComposed(typ string) bool {
	switch typ {
	case fromComposite, fromEnvironment, combineFromComp, combineFromEnv:
		return true
	}
	return false
}

// xrWrite warns about writes to the XR outside status, which Pipeline mode
// does not persist (docs/semantics/conversion.md#writes-to-the-xr-outside-status, N2), and about environment
// patches that write the XR's status, which native Crossplane lost
// (Q-4, docs/semantics/legacy.md#quirks).
func (c normalisePass) xrWrite(p *yaml.Node, path, typ string, loc Location) {
	if typ != toComposite && typ != combineToComp && !(loc == LocEnvironment && typ == fromEnvironment) {
		return
	}
	to, ok := yamledit.Str(yamledit.Get(p, "toFieldPath"))
	if !ok {
		to, ok = yamledit.Str(yamledit.Get(p, "fromFieldPath"))
	}
	if !ok {
		return
	}
	if to == "status" || strings.HasPrefix(to, "status.") || strings.HasPrefix(to, "status[") {
		if loc == LocEnvironment {
			c.warnf("C213", p, path, "%s writes the XR's %s from the environment: native Crossplane discarded this write (the XR update that followed replaced the in-memory XR, so only this reconcile's patches saw it; crossplane/crossplane#4393), while function-patch-and-transform writes the field and Crossplane persists it: after conversion the XR's status gains a field it never had", typ, to)
		}
		return
	}
	c.warnf("C209", p, path, "%s writes the XR's %s: Pipeline mode persists only the XR's status, so this write is silently lost; move the value under status", typ, to)
}

// integerVerb returns the first integer verb (%d, %x, %05d, …) of a Go
// format, or "".
func integerVerb(f string) string { return firstVerb(f, "dxXobcOU") }

// numberVerbs are the verbs that print an int64 and a float64 of the same
// value differently: natively an integer reaches a format as int64, in the
// function as float64. %v and %s differ only for values that are
// misprinted or large, and are meant for any value; they are left to
// verify (D30).
const numberVerbs = "dxXobcOUqeEfFgGTtp"

// numberVerb returns the first verb of a Go format that prints integers
// differently as float64 (%d, %q, %x, %5.2f, %T, %[2]d, …), or "".
func numberVerb(f string) string { return firstVerb(f, numberVerbs) }

// reencodingVerb returns the first verb of a Go format that does not show
// a string argument as it is: %x and %X hex-encode it, a precision
// truncates it (%.1s, %5.1f prints %!f(string=    a)); or "".
func reencodingVerb(f string) string {
	for rest := strings.ReplaceAll(f, "%%", ""); ; {
		v := firstVerb(rest, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
		if v == "" {
			return ""
		}
		if last := v[len(v)-1]; last == 'x' || last == 'X' || strings.Contains(v, ".") {
			return v
		}
		rest = rest[strings.Index(rest, v)+len(v):]
	}
}

// firstVerb returns the first verb of a Go format that is one of verbs,
// with its flags, width, precision and argument index ("%05d"), or "".
// "%%" is a literal percent sign.
func firstVerb(f, verbs string) string {
	for i := 0; i < len(f); i++ {
		if f[i] != '%' {
			continue
		}
		j := i + 1
		for j < len(f) && strings.IndexByte("+-# 0123456789.[]*", f[j]) >= 0 {
			j++
		}
		if j >= len(f) {
			return ""
		}
		if strings.IndexByte(verbs, f[j]) >= 0 {
			return f[i : j+1]
		}
		i = j
	}
	return ""
}

// verbExample says how verb's conversion prints 7 natively and in the
// function.
func verbExample(verb string) string {
	v := "%" + verb[len(verb)-1:]
	return fmt.Sprintf("%s of 7: native %q, function %q", v, fmt.Sprintf(v, int64(7)), fmt.Sprintf(v, float64(7)))
}

// listKeyMerge warns about a FromComposite or CombineFromComposite patch
// with a policy whose toFieldPath reads a key of a list the base sets
// (`spec.l[-1]` where spec.l is a list) (C218): natively the apply-time
// merge fails the reconcile, even while the source is absent.
func (c normalisePass) listKeyMerge(t *yaml.Node, patches []placedPatch) {
	b := yamledit.Get(t, "base")
	if !yamledit.IsMap(b) {
		return
	}
	var pv *fieldpath.Paved
	for _, pp := range patches {
		p := pp.node
		typ, _ := yamledit.Str(yamledit.Get(p, "type"))
		to, ok := yamledit.Str(yamledit.Get(p, "toFieldPath"))
		if (typ != fromComposite && typ != combineFromComp) || yamledit.Get(p, "policy") == nil || !ok || strings.Contains(to, "[*]") {
			continue
		}
		if _, err := fieldpath.Parse(to); err != nil {
			continue // C216
		}
		// A key that reads as an integer (`l[-1]`) was meant as a list
		// index: wherever the field is a list, in the base or in the
		// existing resource, the apply-time merge fails natively.
		if k := pt.IndexLikeKey(to); k != "" {
			c.warnf("C218", yamledit.Get(p, "toFieldPath"), pp.path+".toFieldPath", "%s has a policy and writes %s, whose [%s] is a key, not a list index: natively the apply-time merge fails the reconcile wherever that field holds a list (in the base or the existing resource), even while the source is absent; the function has no apply-time merge; fix the path", typ, to, k)
			continue
		}
		if pv == nil {
			j, err := yamledit.JSON(b)
			if err != nil {
				return
			}
			var base map[string]any
			if err := json.Unmarshal(j, &base); err != nil {
				return
			}
			pv = fieldpath.Pave(base)
		}
		if _, err := pv.GetValue(to); err == nil || fieldpath.IsNotFound(err) {
			continue
		}
		c.warnf("C218", yamledit.Get(p, "toFieldPath"), pp.path+".toFieldPath", "%s has a policy and writes %s, which the base's shape does not allow (a key of a list): natively the apply-time merge fails the reconcile, even while the source is absent; the function has no apply-time merge; fix the path", typ, to)
	}
}

// wildcardMerge warns about a patch with a policy whose toFieldPath has a
// wildcard (C218). Natively the apply-time merge of such a patch (composed
// resources and XR alike) reads `[*]` as a key named "*", which fails the
// reconcile whenever the field holds a list, even while the patch's source
// is absent; the function has no apply-time merge.
func (c normalisePass) wildcardMerge(p *yaml.Node, path, typ string, loc Location) {
	if loc == LocEnvironment || yamledit.Get(p, "policy") == nil {
		return
	}
	switch typ {
	case fromComposite, combineFromComp, toComposite, combineToComp:
	default:
		return
	}
	to, ok := yamledit.Str(yamledit.Get(p, "toFieldPath"))
	if !ok || !strings.Contains(to, "[*]") {
		return
	}
	c.warnf("C218", yamledit.Get(p, "toFieldPath"), path+".toFieldPath", "%s has a policy and writes %s: natively the apply-time merge reads [*] as a key named \"*\" and fails the reconcile whenever that field holds a list, even while the source is absent; the function does not merge at apply time; drop the policy or the wildcard", typ, to)
}

// A placedPatch is a patch node and its path in the source document.
type placedPatch struct {
	node *yaml.Node
	path string
}

// effectivePatches returns a template's patches with the patches of the
// PatchSets it names in their place, as the composer applies them. A patch
// set's patch keeps its own path (spec.patchSets[i].patches[j]).
func (c normalisePass) effectivePatches(patches *yaml.Node, path string) []placedPatch {
	return withPatchSets(yamledit.Get(yamledit.Get(c.node, "spec"), "patchSets"), "spec.patchSets", patches, path)
}

// withPatchSets returns the patches at path with the patches of the patch
// sets (the list sets, at setsPath) they name in their place; a patch
// set's patch has its path in the list when setsPath is set.
func withPatchSets(sets *yaml.Node, setsPath string, patches *yaml.Node, path string) []placedPatch {
	seq := yamledit.Resolve(patches)
	if !yamledit.IsSeq(seq) {
		return nil
	}
	sets = yamledit.Resolve(sets)
	var out []placedPatch
	for i, p := range seq.Content {
		p = yamledit.Resolve(p)
		if typ, _ := yamledit.Str(yamledit.Get(p, "type")); typ != patchSetType {
			out = append(out, placedPatch{node: p, path: idx(path, i)})
			continue
		}
		name, _ := yamledit.Str(yamledit.Get(p, "patchSetName"))
		if !yamledit.IsSeq(sets) {
			continue
		}
		for si, ps := range sets.Content {
			if n, _ := yamledit.Str(yamledit.Get(ps, "name")); n != name {
				continue
			}
			if pl := yamledit.Resolve(yamledit.Get(ps, "patches")); yamledit.IsSeq(pl) {
				for j, q := range pl.Content {
					pp := placedPatch{node: yamledit.Resolve(q)}
					if setsPath != "" {
						pp.path = idx(idx(setsPath, si)+".patches", j)
					}
					out = append(out, pp)
				}
			}
			break
		}
	}
	return out
}

// xrListWrite warns about a ToComposite patch whose toFieldPath expands a
// wildcard or names a key that looks like an index (`status.ids[*]`,
// `status.l[-1]`), and records one that indexes a list
// (`status.zones[1]`) for xrIndexedWrites (C217). Natively the patch writes
// into the XR as it is: other items of a list stay, a wildcard expands over
// the items the XR has, a key of an existing list fails the reconcile. The
// pipeline writes into the desired XR, which holds only what the patches
// put there: the list is replaced whole, a wildcard finds nothing.
func (c normalisePass) xrListWrite(p *yaml.Node, path, typ string) {
	if typ != toComposite && typ != combineToComp {
		return
	}
	n := yamledit.Get(p, "toFieldPath")
	to, ok := yamledit.Str(n)
	if !ok || !pt.ListPath(to) {
		return
	}
	if list, i, ok := oneIndex(to); ok {
		c.xrIndexed = append(c.xrIndexed, indexedWrite{list: list, index: i, typ: typ, to: to, node: n, path: path + ".toFieldPath"})
		return
	}
	c.warnf("C217", n, path+".toFieldPath", "%s writes %s: natively into the XR as it is ([*] expands over the items the XR has, a key of a list fails the reconcile), in the pipeline into a desired XR that holds only what the patches write ([*] finds nothing); write a whole field instead", typ, to)
}

// An indexedWrite is a ToComposite patch that writes one item of an XR
// list.
type indexedWrite struct {
	list    string
	index   uint
	typ, to string
	node    *yaml.Node
	path    string
}

// xrIndexedWrites warns about the ToComposite patches that write items of
// an XR list unless together they write every item from the first to the
// last (C217): then the pipeline's desired list is the XR's whole list, as
// natively once every resource is observed. Otherwise legacy keeps the
// items no patch writes and the pipeline drops them.
func (c normalisePass) xrIndexedWrites() {
	byList := map[string]map[uint]bool{}
	for _, w := range c.xrIndexed {
		if byList[w.list] == nil {
			byList[w.list] = map[uint]bool{}
		}
		byList[w.list][w.index] = true
	}
	for _, w := range c.xrIndexed {
		idxs := byList[w.list]
		whole := true
		for i := uint(0); i < uint(len(idxs)); i++ {
			whole = whole && idxs[i]
		}
		if whole {
			continue
		}
		c.warnf("C217", w.node, w.path, "%s writes %s, but no patch writes every other item of %s: natively the XR keeps the items no patch writes, the pipeline replaces the list with the items the patches write (null elsewhere); write the whole list, or every item", w.typ, w.to, w.list)
	}
	c.xrIndexed = nil
}

// oneIndex splits a path whose only list segment is one index
// (`status.zones[1]`, `status.nets[0].id`) into the list's path and the
// index.
func oneIndex(s string) (string, uint, bool) {
	segs, err := fieldpath.Parse(s)
	if err != nil {
		return "", 0, false
	}
	at := -1
	for k, sg := range segs {
		switch {
		case sg.Type == fieldpath.SegmentIndex:
			if at >= 0 {
				return "", 0, false
			}
			at = k
		case sg.Field == "*":
			return "", 0, false
		default:
			if _, err := strconv.Atoi(sg.Field); err == nil {
				return "", 0, false
			}
		}
	}
	if at < 0 {
		return "", 0, false
	}
	return segs[:at].String(), segs[at].Index, true
}
