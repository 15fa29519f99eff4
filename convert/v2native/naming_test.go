package v2native

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestXRNames(t *testing.T) {
	const dropPrefix, newGroup = "", "platform.example.org"
	cases := map[string]struct {
		reason   string
		old      TypeNames
		newGroup string
		want     TypeNames
	}{
		"DropPrefix": {
			reason:   "drop-prefix keeps the group and drops the X of kind, plural, singular and list kind.",
			old:      TypeNames{Group: "database.example.org", Kind: "XPostgreSQLInstance", Plural: "xpostgresqlinstances", Singular: "xpostgresqlinstance", ListKind: "XPostgreSQLInstanceList"},
			newGroup: dropPrefix,
			want:     TypeNames{Group: "database.example.org", Kind: "PostgreSQLInstance", Plural: "postgresqlinstances", Singular: "postgresqlinstance", ListKind: "PostgreSQLInstanceList"},
		},
		"NoPrefix": {
			reason:   "A kind without the X prefix keeps its names.",
			old:      TypeNames{Group: "database.example.org", Kind: "Database", Plural: "databases"},
			newGroup: dropPrefix,
			want:     TypeNames{Group: "database.example.org", Kind: "Database", Plural: "databases"},
		},
		"XOfAWord": {
			reason:   "An X that starts a word (Xylophone) is no prefix.",
			old:      TypeNames{Group: "music.example.org", Kind: "Xylophone", Plural: "xylophones"},
			newGroup: dropPrefix,
			want:     TypeNames{Group: "music.example.org", Kind: "Xylophone", Plural: "xylophones"},
		},
		"PluralWithoutX": {
			reason:   "A plural that does not start with x is kept.",
			old:      TypeNames{Group: "g.example.org", Kind: "XBucket", Plural: "buckets"},
			newGroup: dropPrefix,
			want:     TypeNames{Group: "g.example.org", Kind: "Bucket", Plural: "buckets"},
		},
		"NewGroup": {
			reason:   "new-group drops the X and moves the type to the new group.",
			old:      TypeNames{Group: "database.example.org", Kind: "XPostgreSQLInstance", Plural: "xpostgresqlinstances"},
			newGroup: newGroup,
			want:     TypeNames{Group: "platform.example.org", Kind: "PostgreSQLInstance", Plural: "postgresqlinstances"},
		},
		"NewGroupNoPrefix": {
			reason:   "new-group keeps a kind without X, in the new group.",
			old:      TypeNames{Group: "database.example.org", Kind: "Database", Plural: "databases"},
			newGroup: newGroup,
			want:     TypeNames{Group: "platform.example.org", Kind: "Database", Plural: "databases"},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got := XRNames(tc.old, tc.newGroup)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("\n%s\nXRNames(...): -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}

func TestXRType(t *testing.T) {
	cases := map[string]struct {
		reason           string
		group, kind      string
		newGroup         string
		wantAV, wantKind string
	}{
		"APIVersion": {
			reason: "An apiVersion keeps its version.",
			group:  "database.example.org/v1alpha1", kind: "XPostgreSQLInstance",
			newGroup: "platform.example.org",
			wantAV:   "platform.example.org/v1alpha1", wantKind: "PostgreSQLInstance",
		},
		"Group": {
			reason: "A group gives a group.",
			group:  "database.example.org", kind: "XPostgreSQLInstance",
			wantAV: "database.example.org", wantKind: "PostgreSQLInstance",
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			av, kind := XRType(tc.group, tc.kind, tc.newGroup)
			if diff := cmp.Diff([]string{tc.wantAV, tc.wantKind}, []string{av, kind}); diff != "" {
				t.Errorf("\n%s\nXRType(...): -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}

func TestCompositionName(t *testing.T) {
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
			got := CompositionName(tc.old, tc.oldPlural, tc.newPlural, tc.oldGroup, tc.newGroup)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("\n%s\nCompositionName(...): -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}
