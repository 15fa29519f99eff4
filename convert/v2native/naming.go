package v2native

import (
	"slices"
	"strings"
	"unicode"
)

// TypeNames are the names of a composite resource type: its API group
// and the names of an XRD's spec.names (ListKind and Singular may be
// empty: Crossplane derives them).
type TypeNames struct {
	Group, Kind, Plural, Singular, ListKind string
}

// XRNames returns the names of the v2 XR type that replaces the legacy
// XR type old, by the naming policy (convert's Options.XRNaming): newGroup
// is the group the types move to (new-group), "" to keep it (drop-prefix).
//
//   - drop-prefix keeps the group and drops a leading X from the kind (an X
//     followed by an upper-case letter: XPostgreSQLInstance →
//     PostgreSQLInstance, but Xylophone stays), and then the leading x of
//     the plural and singular and the leading X of the list kind. A kind
//     without that prefix keeps all its names.
//   - new-group does the same and moves the type to newGroup.
func XRNames(old TypeNames, newGroup string) TypeNames {
	n := old
	if newGroup != "" {
		n.Group = newGroup
	}
	k, ok := dropXPrefix(old.Kind)
	if !ok {
		return n
	}
	n.Kind = k
	n.Plural = dropLowerX(old.Plural)
	n.Singular = dropLowerX(old.Singular)
	if lk, ok := dropXPrefix(old.ListKind); ok {
		n.ListKind = lk
	}
	return n
}

// XRType returns the type of the v2 XR that replaces XRs of group (or
// apiVersion group/version, whose version is kept) and kind: its group (or
// apiVersion) and kind, by the naming policy newGroup (see XRNames).
func XRType(group, kind, newGroup string) (apiVersion, newKind string) {
	g, version, versioned := strings.Cut(group, "/")
	n := XRNames(TypeNames{Group: g, Kind: kind}, newGroup)
	if versioned {
		return n.Group + "/" + version, n.Kind
	}
	return n.Group, n.Kind
}

// dropXPrefix returns s without a leading X that an upper-case letter
// follows, and whether it had one.
func dropXPrefix(s string) (string, bool) {
	if len(s) < 2 || s[0] != 'X' || !unicode.IsUpper(rune(s[1])) {
		return s, false
	}
	return s[1:], true
}

// dropLowerX returns s without its leading x (the plural or singular of a
// kind whose X was dropped), unless that leaves nothing.
func dropLowerX(s string) string {
	if len(s) < 2 || s[0] != 'x' {
		return s
	}
	return s[1:]
}

// CompositionName returns the name of the Composition for the v2 XR
// type, given the name of the legacy one: the old plural, and with a new
// group the old group, are replaced where they are dot-separated segments
// of the name (xpostgresqlinstances.aws.example.org →
// postgresqlinstances.aws.example.org). When that changes nothing, -v2 is
// appended: both Compositions run during an adopt-in-place move, and
// Composition names are cluster-wide.
func CompositionName(old, oldPlural, newPlural, oldGroup, newGroup string) string {
	segs := strings.Split(old, ".")
	if oldPlural != "" && newPlural != oldPlural {
		for i, s := range segs {
			if s == oldPlural {
				segs[i] = newPlural
			}
		}
	}
	if oldGroup != "" && newGroup != "" && newGroup != oldGroup {
		g := strings.Split(oldGroup, ".")
		for i := 0; i+len(g) <= len(segs); i++ {
			if slices.Equal(segs[i:i+len(g)], g) {
				segs = append(append(append([]string{}, segs[:i]...), strings.Split(newGroup, ".")...), segs[i+len(g):]...)
				break
			}
		}
	}
	if name := strings.Join(segs, "."); name != old {
		return name
	}
	return old + "-v2"
}

// Plural returns the plural of the v2 XR type that replaces a legacy
// type of plural and kind, by the drop-prefix rule of XRNames.
func Plural(plural, kind string) string {
	if _, ok := dropXPrefix(kind); !ok {
		return plural
	}
	return dropLowerX(plural)
}
