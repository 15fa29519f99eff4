package convert

import (
	"slices"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/xpmigrate/xpmigrate/convert/yamledit"
	pt "github.com/xpmigrate/xpmigrate/patchandtransform"
)

var connectionDetailTypes = names(pt.ConnectionDetailTypeFromConnectionSecretKey, pt.ConnectionDetailTypeFromFieldPath, pt.ConnectionDetailTypeFromValue)

// connectionDetails completes each connection detail's type and name with
// the native rules (docs/semantics/conversion.md#connection-details).
func (c normalisePass) connectionDetails(seq *yaml.Node, path string) {
	c.eachObject(seq, path, "C123", "connectionDetails", "a connection detail", c.connectionDetail)
}

// connectionDetail completes connection detail d at p.
func (c normalisePass) connectionDetail(d *yaml.Node, p string) {
	c.dropUnknown(d, p, []string{"name", "type", "fromConnectionSecretKey", "fromFieldPath", "value"})
	for _, k := range []string{"name", "type", "fromConnectionSecretKey", "fromFieldPath", "value"} {
		dropNull(d, k)
	}
	var sources []string
	for _, k := range []string{"value", "fromConnectionSecretKey", "fromFieldPath"} {
		if yamledit.Get(d, k) != nil {
			sources = append(sources, k)
		}
	}
	typ := ""
	if tn := yamledit.Get(d, "type"); tn != nil {
		v, ok := c.enum(tn, p+".type", connectionDetailTypes)
		if !ok {
			c.errorf("C125", tn, p+".type", "unknown connection detail type %q (want %s)", yamledit.Resolve(tn).Value, strings.Join(connectionDetailTypes, ", "))
			return
		}
		typ = v
	} else {
		switch {
		case slices.Contains(sources, "value"):
			typ = string(pt.ConnectionDetailTypeFromValue)
		case slices.Contains(sources, "fromConnectionSecretKey"):
			typ = string(pt.ConnectionDetailTypeFromConnectionSecretKey)
		case slices.Contains(sources, "fromFieldPath"):
			typ = string(pt.ConnectionDetailTypeFromFieldPath)
		default:
			c.errorf("C123", d, p, "a connection detail needs value, fromConnectionSecretKey or fromFieldPath (natively it failed at run time)")
			return
		}
	}
	source := map[pt.ConnectionDetailType]string{pt.ConnectionDetailTypeFromValue: "value", pt.ConnectionDetailTypeFromConnectionSecretKey: "fromConnectionSecretKey", pt.ConnectionDetailTypeFromFieldPath: "fromFieldPath"}[pt.ConnectionDetailType(typ)]
	if !slices.Contains(sources, source) {
		c.errorf("C123", d, p+"."+source, "a connection detail of type %s needs %s", typ, source)
		return
	}
	name, hasName := yamledit.Str(yamledit.Get(d, "name"))
	if yamledit.Get(d, "name") != nil && !hasName {
		hasName = true // Not a string: output validation reports it.
		name = "-"
	}
	if !hasName || name == "" {
		key, ok := yamledit.Str(yamledit.Get(d, "fromConnectionSecretKey"))
		if typ != string(pt.ConnectionDetailTypeFromConnectionSecretKey) || !ok || key == "" {
			c.errorf("C124", d, p+".name", "connection detail of type %s needs a name", typ)
			return
		}
		dropEmpty(d, "name")
		yamledit.Insert(d, 0, "name", yamledit.NewString(key))
	}
	if yamledit.Get(d, "type") == nil {
		yamledit.Insert(d, yamledit.Index(d, "name")+1, "type", yamledit.NewString(typ))
	}
	if len(sources) > 1 {
		c.infof("C316", d, p, "type %s reads only %s; the other source fields (%s) are ignored and can be removed", typ, source, strings.Join(slices.DeleteFunc(slices.Clone(sources), func(s string) bool { return s == source }), ", "))
	}
	if c.r.o.XRStyleV2 {
		c.infof("C322", d, p, "v2-style XRs have no native connection secret: the function composes a Secret itself when its input sets writeConnectionSecretToRef")
	}
}

// dropEmpty removes key from m when it is an empty string.
func dropEmpty(m *yaml.Node, key string) {
	if s, ok := yamledit.Str(yamledit.Get(m, key)); ok && s == "" {
		yamledit.Delete(yamledit.Resolve(m), key)
	}
}

var readinessTypes = names(pt.ReadinessCheckTypeMatchString, pt.ReadinessCheckTypeMatchInteger, pt.ReadinessCheckTypeNonEmpty,
	pt.ReadinessCheckTypeMatchCondition, pt.ReadinessCheckTypeMatchTrue, pt.ReadinessCheckTypeMatchFalse, pt.ReadinessCheckTypeNone)

// readinessChecks completes MatchCondition checks and checks the others
// (docs/semantics/conversion.md#readiness-checks).
func (c normalisePass) readinessChecks(seq *yaml.Node, path string) {
	c.eachObject(seq, path, "C127", "readinessChecks", "a readiness check", c.readinessCheck)
}

// readinessCheck completes or checks readiness check r at p.
func (c normalisePass) readinessCheck(r *yaml.Node, p string) {
	c.dropUnknown(r, p, []string{"type", "fieldPath", "matchString", "matchInteger", "matchCondition"})
	typ, ok := c.enum(yamledit.Get(r, "type"), p+".type", readinessTypes)
	if !ok {
		c.errorf("C127", r, p+".type", "a readiness check needs a type (%s)", strings.Join(readinessTypes, ", "))
		return
	}
	fieldPath, _ := yamledit.Str(yamledit.Get(r, "fieldPath"))
	switch pt.ReadinessCheckType(typ) {
	case pt.ReadinessCheckTypeNone:
	case pt.ReadinessCheckTypeMatchCondition:
		mc := yamledit.Get(r, "matchCondition")
		if yamledit.IsNull(mc) || !yamledit.IsMap(mc) {
			c.errorf("C126", r, p+".matchCondition", "a MatchCondition check needs matchCondition")
			return
		}
		mc = yamledit.Resolve(mc)
		c.dropUnknown(mc, p+".matchCondition", []string{"type", "status"})
		dropNull(mc, "type")
		dropNull(mc, "status")
		if yamledit.Get(mc, "type") == nil {
			yamledit.Insert(mc, 0, "type", yamledit.NewString("Ready"))
		}
		if yamledit.Get(mc, "status") == nil {
			yamledit.Set(mc, "status", yamledit.NewString("True"))
		}
	case pt.ReadinessCheckTypeMatchString:
		if s, ok := yamledit.Str(yamledit.Get(r, "matchString")); fieldPath == "" || !ok || s == "" {
			c.errorf("C127", r, p, "a MatchString check needs fieldPath and a non-empty matchString")
		}
	case pt.ReadinessCheckTypeMatchInteger:
		mi := yamledit.Resolve(yamledit.Get(r, "matchInteger"))
		if fieldPath == "" || mi == nil || mi.ShortTag() != yamledit.TagInt || strings.Trim(mi.Value, "+-0_") == "" {
			c.errorf("C127", r, p, "a MatchInteger check needs fieldPath and a non-zero matchInteger")
			return
		}
		c.warnf("C210", r, p, "MatchInteger never matches in the function: integers reach it as float64, so the resource and the XR stay unready; use MatchString on a string field, NonEmpty, or MatchCondition")
	default:
		if fieldPath == "" {
			c.errorf("C127", r, p+".fieldPath", "a %s check needs fieldPath", typ)
		}
	}
}

// eachObject calls f with each object of the list seq at path, and its
// path, the first time the pass meets it. It reports code where seq is not
// a list (list names it) or an item is not an object (item names one).
func (c normalisePass) eachObject(seq *yaml.Node, path string, code Code, list, item string, f func(m *yaml.Node, p string)) {
	seq = yamledit.Resolve(seq)
	if !yamledit.IsSeq(seq) {
		c.errorf(code, seq, path, "%s must be a list", list)
		return
	}
	for i, n := range seq.Content {
		p := idx(path, i)
		if !c.once(n) {
			continue
		}
		m := yamledit.Resolve(n)
		if !yamledit.IsMap(m) {
			c.errorf(code, n, p, "%s must be an object", item)
			continue
		}
		f(m, p)
	}
}
