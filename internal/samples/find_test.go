package samples

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestFind(t *testing.T) {
	xr := func(name string, spec map[string]any) map[string]any {
		o := map[string]any{"apiVersion": "example.org/v1", "kind": "XDB", "metadata": map[string]any{"name": name}}
		if spec != nil {
			o["spec"] = spec
		}
		return o
	}
	claim := map[string]any{"apiVersion": "example.org/v1", "kind": "DB", "metadata": map[string]any{"name": "c"}}
	c := Composition{File: "apis/db/composition.yaml", Name: "dbs", Labels: map[string]string{"provider": "aws"},
		APIVersion: "example.org/v1", Kind: "XDB", ClaimGroup: "example.org", ClaimKind: "DB"}
	docs := []Doc{
		{File: "examples/db/claim.yaml", Item: -1, Object: claim},
		{File: "examples/db/other.yaml", Item: -1, Object: xr("other", map[string]any{"compositionRef": map[string]any{"name": "other"}})},
		{File: "examples/db/v2.yaml", Item: -1, Object: xr("v2", map[string]any{"crossplane": map[string]any{"compositionSelector": map[string]any{"matchLabels": map[string]any{"provider": "aws"}}}})},
		{File: "apis/db/xr.yaml", Item: -1, Object: xr("near", nil)},
		{File: "apis/db/unnamed.yaml", Item: -1, Object: map[string]any{"apiVersion": "example.org/v1", "kind": "XDB"}},
		{File: "apis/db/xr.yaml", Index: 1, Item: -1, Object: map[string]any{"apiVersion": "example.org/v2", "kind": "XDB", "metadata": map[string]any{"name": "v"}}},
		{File: "examples/db/list.yaml", Item: 1, Object: xr("item", nil)},
	}
	cases := map[string]struct {
		reason      string
		max         int
		want        []string
		wantSkipped []string
	}{
		"All": {
			reason:      "Samples of the XR or claim type that select the Composition, nearest first, then in order; unnamed objects skipped.",
			want:        []string{"apis/db/xr.yaml#1", "examples/db/claim.yaml#1", "examples/db/v2.yaml#1", "examples/db/list.yaml#1.2"},
			wantSkipped: []string{"apis/db/unnamed.yaml#1"},
		},
		"Bounded": {
			reason:      "max keeps the nearest.",
			max:         2,
			want:        []string{"apis/db/xr.yaml#1", "examples/db/claim.yaml#1"},
			wantSkipped: []string{"apis/db/unnamed.yaml#1"},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			found, skipped := Find(c, docs, NewFilter(nil), tc.max)
			var got, gotSkipped []string
			for _, d := range found {
				got = append(got, d.File+d.Suffix())
			}
			for _, s := range skipped {
				gotSkipped = append(gotSkipped, s.Doc.File+s.Doc.Suffix())
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s\nFind(...): -want, +got:\n%s", tc.reason, diff)
			}
			if diff := cmp.Diff(tc.wantSkipped, gotSkipped); diff != "" {
				t.Errorf("%s\nFind(...) skipped: -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}
