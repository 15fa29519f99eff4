package convert

import (
	"strings"

	"github.com/xpmigrate/xpmigrate/internal/xp"
)

// v2XRType returns the apiVersion and kind of the v2-native XR type that
// replaces the legacy XR type group/kind (Options.XRNaming). group may be
// an apiVersion ("group/version"): its version is kept.
//
// Minimal version written by the objects helper for the example twins; the
// XRD helper owns this file and its naming policy.
func v2XRType(group, kind string, o Options) (apiVersion, newKind string) {
	g, v := group, ""
	if i := strings.LastIndexByte(group, '/'); i >= 0 {
		g, v = xp.SplitAPIVersion(group)
	}
	newKind = dropXPrefix(kind)
	if o.XRNaming == XRNamingNewGroup && o.XRGroup != "" {
		g = o.XRGroup
	}
	if v == "" {
		return g, newKind
	}
	return g + "/" + v, newKind
}

// dropXPrefix drops a leading X from a kind when an upper-case letter
// follows it (XPostgreSQLInstance → PostgreSQLInstance).
func dropXPrefix(kind string) string {
	if len(kind) > 1 && kind[0] == 'X' && kind[1] >= 'A' && kind[1] <= 'Z' {
		return kind[1:]
	}
	return kind
}

// v2CompositionName names the Composition for the v2-native XR type: the
// old plural, and with a new group the old group, are replaced where they
// are dot-separated segments of the old name; when that changes nothing,
// "-v2" is appended (both Compositions exist during a move, and their
// names are cluster-wide).
//
// Minimal version written by the objects helper (the example twins name
// the new Composition in spec.crossplane.compositionRef); the Composition
// helper owns the rule.
func v2CompositionName(old, oldPlural, newPlural, oldGroup, newGroup string) string {
	segs := strings.Split(old, ".")
	var out []string
	gs := strings.Split(oldGroup, ".")
	for i := 0; i < len(segs); i++ {
		switch {
		case oldPlural != "" && segs[i] == oldPlural:
			out = append(out, newPlural)
		case oldGroup != "" && newGroup != "" && newGroup != oldGroup && i+len(gs) <= len(segs) && strings.Join(segs[i:i+len(gs)], ".") == oldGroup:
			out = append(out, newGroup)
			i += len(gs) - 1
		default:
			out = append(out, segs[i])
		}
	}
	if name := strings.Join(out, "."); name != old {
		return name
	}
	return old + "-v2"
}

// v2Plural is the plural of the v2-native XR type: with the X of the kind
// dropped, the x of the plural too (xpostgresqlinstances →
// postgresqlinstances).
//
// Minimal version written by the objects helper; the XRD helper owns the
// naming policy.
func v2Plural(plural, kind string, o Options) string {
	if _, k := v2XRType("", kind, o); k != kind && strings.HasPrefix(plural, "x") {
		return plural[1:]
	}
	return plural
}
