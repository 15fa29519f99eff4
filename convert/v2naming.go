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
