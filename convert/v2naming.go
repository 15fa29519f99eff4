package convert

import (
	"strings"
	"unicode"

	"github.com/xpmigrate/xpmigrate/internal/xp"
)

// v2XRType returns the type of the v2 XR that replaces a legacy XR of
// group (or apiVersion group/version, whose version is kept) and kind,
// under the naming policy of o: drop-prefix keeps the group and drops a
// leading X from the kind, new-group drops it too and uses o.XRGroup.
func v2XRType(group, kind string, o Options) (apiVersion, newKind string) {
	g, version := group, ""
	if i := strings.Index(group, "/"); i >= 0 {
		g, version = xp.SplitAPIVersion(group)
	}
	newKind = dropX(kind)
	if o.XRNaming == XRNamingNewGroup {
		g = o.XRGroup
	}
	if version == "" {
		return g, newKind
	}
	return g + "/" + version, newKind
}

// dropX drops a leading X from a kind when an upper-case letter follows
// it (XPostgreSQLInstance, not Xray).
func dropX(kind string) string {
	if len(kind) > 1 && kind[0] == 'X' && unicode.IsUpper(rune(kind[1])) {
		return kind[1:]
	}
	return kind
}

// v2Plural returns the plural of the v2 XR type: without its leading x
// when the kind lost its X.
func v2Plural(plural, kind string) string {
	if dropX(kind) != kind && strings.HasPrefix(plural, "x") {
		return plural[1:]
	}
	return plural
}

// v2CompositionName returns the name of the Composition for the v2 XR
// type: the old plural (and, when the group changes, the old group) are
// replaced where they appear as dot-separated segments of the old name;
// when that changes nothing, -v2 is appended. Both Compositions can then
// exist at once (names are cluster-wide).
func v2CompositionName(old, oldPlural, newPlural, oldGroup, newGroup string) string {
	segs := strings.Split(old, ".")
	if oldPlural != "" && oldPlural != newPlural {
		for i, s := range segs {
			if s == oldPlural {
				segs[i] = newPlural
			}
		}
	}
	name := strings.Join(segs, ".")
	if oldGroup != "" && newGroup != "" && oldGroup != newGroup {
		name = replaceSegments(name, oldGroup, newGroup)
	}
	if name == old {
		return old + "-v2"
	}
	return name
}

// replaceSegments replaces each occurrence of the dot-separated segments
// old in name by new.
func replaceSegments(name, old, new string) string {
	var b strings.Builder
	for i := 0; i < len(name); {
		j := strings.Index(name[i:], old)
		if j < 0 {
			b.WriteString(name[i:])
			break
		}
		j += i
		end := j + len(old)
		if (j == 0 || name[j-1] == '.') && (end == len(name) || name[end] == '.') {
			b.WriteString(name[i:j])
			b.WriteString(new)
		} else {
			b.WriteString(name[i:end])
		}
		i = end
	}
	return b.String()
}
