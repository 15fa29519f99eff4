package live

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/xpmigrate/xpmigrate/render"
)

// TestEmulateNullFields: the composer sends a field whose rendered value is
// null, but the API server keeps no null field of a custom resource (found
// by the real-Crossplane tier: real core v1.20.11 composed a corpus
// Composition whose patch wrote null, and the live object had no such
// field). A rendered null matches an absent live field; a null where the
// live object holds a value is still a difference.
func TestEmulateNullFields(t *testing.T) {
	cases := map[string]struct {
		reason      string
		forProvider string
		rendered    map[string]any
		want        []string
	}{
		"NullIsAbsent": {
			reason:      "A rendered null and an absent live field agree.",
			forProvider: "{region: us-east-1}",
			rendered:    map[string]any{"region": "us-east-1", "keyName": nil},
		},
		"NestedNullIsAbsent": {
			reason:      "A null nested in a map agrees with the map's absence.",
			forProvider: "{region: us-east-1}",
			rendered:    map[string]any{"region": "us-east-1", "encryption": map[string]any{"keyName": nil}},
		},
		"NullAgainstValue": {
			reason:      "A rendered null where the live object holds a value is a difference.",
			forProvider: "{region: us-east-1, keyName: k}",
			rendered:    map[string]any{"region": "us-east-1", "keyName": nil},
			want:        []string{`bucket (Bucket x-bucket) spec.forProvider.keyName: live "k", rendered (none)`},
		},
		"ValueAgainstAbsent": {
			reason:      "A rendered value the live object lacks is a difference.",
			forProvider: "{region: us-east-1}",
			rendered:    map[string]any{"region": "us-east-1", "keyName": "k"},
			want:        []string{`bucket (Bucket x-bucket) spec.forProvider.keyName: live (none), rendered "k"`},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			live := composite(t, "arn:x", tc.forProvider)
			desired := live.Composed[0].Object.DeepCopy().Object
			desired["spec"] = map[string]any{"forProvider": tc.rendered}
			out := &render.Outcome{Composed: []render.ComposedResource{{Name: "bucket", Rendered: true, Desired: desired}}}
			x := &XR{}
			emulate(x, out, live)
			var got []string
			for _, f := range x.Emulation {
				got = append(got, f.String())
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s\nemulate(): -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}
