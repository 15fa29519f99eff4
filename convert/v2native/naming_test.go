package convert

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestV2XRNames(t *testing.T) {
	dropPrefix := Options{XRNaming: XRNamingDropPrefix}
	newGroup := Options{XRNaming: XRNamingNewGroup, XRGroup: "platform.example.org"}
	cases := map[string]struct {
		reason string
		old    xrTypeNames
		o      Options
		want   xrTypeNames
	}{
		"DropPrefix": {
			reason: "drop-prefix keeps the group and drops the X of kind, plural, singular and list kind.",
			old:    xrTypeNames{Group: "database.example.org", Kind: "XPostgreSQLInstance", Plural: "xpostgresqlinstances", Singular: "xpostgresqlinstance", ListKind: "XPostgreSQLInstanceList"},
			o:      dropPrefix,
			want:   xrTypeNames{Group: "database.example.org", Kind: "PostgreSQLInstance", Plural: "postgresqlinstances", Singular: "postgresqlinstance", ListKind: "PostgreSQLInstanceList"},
		},
		"NoPrefix": {
			reason: "A kind without the X prefix keeps its names.",
			old:    xrTypeNames{Group: "database.example.org", Kind: "Database", Plural: "databases"},
			o:      dropPrefix,
			want:   xrTypeNames{Group: "database.example.org", Kind: "Database", Plural: "databases"},
		},
		"XOfAWord": {
			reason: "An X that starts a word (Xylophone) is no prefix.",
			old:    xrTypeNames{Group: "music.example.org", Kind: "Xylophone", Plural: "xylophones"},
			o:      dropPrefix,
			want:   xrTypeNames{Group: "music.example.org", Kind: "Xylophone", Plural: "xylophones"},
		},
		"PluralWithoutX": {
			reason: "A plural that does not start with x is kept.",
			old:    xrTypeNames{Group: "g.example.org", Kind: "XBucket", Plural: "buckets"},
			o:      dropPrefix,
			want:   xrTypeNames{Group: "g.example.org", Kind: "Bucket", Plural: "buckets"},
		},
		"NewGroup": {
			reason: "new-group drops the X and moves the type to the new group.",
			old:    xrTypeNames{Group: "database.example.org", Kind: "XPostgreSQLInstance", Plural: "xpostgresqlinstances"},
			o:      newGroup,
			want:   xrTypeNames{Group: "platform.example.org", Kind: "PostgreSQLInstance", Plural: "postgresqlinstances"},
		},
		"NewGroupNoPrefix": {
			reason: "new-group keeps a kind without X, in the new group.",
			old:    xrTypeNames{Group: "database.example.org", Kind: "Database", Plural: "databases"},
			o:      newGroup,
			want:   xrTypeNames{Group: "platform.example.org", Kind: "Database", Plural: "databases"},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got := v2XRNames(tc.old, tc.o)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("\n%s\nv2XRNames(...): -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}

func TestV2XRType(t *testing.T) {
	cases := map[string]struct {
		reason           string
		group, kind      string
		o                Options
		wantAV, wantKind string
	}{
		"APIVersion": {
			reason: "An apiVersion keeps its version.",
			group:  "database.example.org/v1alpha1", kind: "XPostgreSQLInstance",
			o:      Options{XRNaming: XRNamingNewGroup, XRGroup: "platform.example.org"},
			wantAV: "platform.example.org/v1alpha1", wantKind: "PostgreSQLInstance",
		},
		"Group": {
			reason: "A group gives a group.",
			group:  "database.example.org", kind: "XPostgreSQLInstance",
			o:      Options{XRNaming: XRNamingDropPrefix},
			wantAV: "database.example.org", wantKind: "PostgreSQLInstance",
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			av, kind := v2XRType(tc.group, tc.kind, tc.o)
			if diff := cmp.Diff([]string{tc.wantAV, tc.wantKind}, []string{av, kind}); diff != "" {
				t.Errorf("\n%s\nv2XRType(...): -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}

func TestV2CompositionName(t *testing.T) {
	cases := map[string]struct {
		reason                                        string
		old, oldPlural, newPlural, oldGroup, newGroup string
		want                                          string
	}{
		"PluralSegment": {
			reason: "The old plural, a segment of the name, becomes the new one.",
			old:    "xpostgresqlinstances.aws.database.example.org", oldPlural: "xpostgresqlinstances", newPlural: "postgresqlinstances",
			oldGroup: "database.example.org", newGroup: "database.example.org",
			want: "postgresqlinstances.aws.database.example.org",
		},
		"PluralAndGroup": {
			reason: "With a new group, the old group's segments are replaced too.",
			old:    "xpostgresqlinstances.aws.database.example.org", oldPlural: "xpostgresqlinstances", newPlural: "postgresqlinstances",
			oldGroup: "database.example.org", newGroup: "platform.acme.io",
			want: "postgresqlinstances.aws.platform.acme.io",
		},
		"NotASegment": {
			reason: "The plural inside a segment is not replaced; the name gets -v2.",
			old:    "aws-xpostgresqlinstances", oldPlural: "xpostgresqlinstances", newPlural: "postgresqlinstances",
			oldGroup: "database.example.org", newGroup: "database.example.org",
			want: "aws-xpostgresqlinstances-v2",
		},
		"SamePlural": {
			reason: "A kind without X keeps its plural: the name gets -v2.",
			old:    "databases.example.org", oldPlural: "databases", newPlural: "databases",
			oldGroup: "example.org", newGroup: "example.org",
			want: "databases.example.org-v2",
		},
		"GroupOnly": {
			reason: "A new group alone changes the name.",
			old:    "databases.example.org", oldPlural: "databases", newPlural: "databases",
			oldGroup: "example.org", newGroup: "platform.example.org",
			want: "databases.platform.example.org",
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got := v2CompositionName(tc.old, tc.oldPlural, tc.newPlural, tc.oldGroup, tc.newGroup)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("\n%s\nv2CompositionName(...): -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}
