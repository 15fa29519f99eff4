package gaps

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestPathString(t *testing.T) {
	cases := map[string]struct {
		path Path
		want string
	}{
		"Plain":      {path: Path{{Field: "spec"}, {Field: "forProvider"}, {Field: "size"}}, want: "spec.forProvider.size"},
		"Index":      {path: Path{{Field: "spec"}, {Field: "rules"}, {Index: 2, IsIndex: true}, {Field: "cidr"}}, want: "spec.rules[2].cidr"},
		"DottedKey":  {path: Path{{Field: "metadata"}, {Field: "annotations"}, {Field: "crossplane.io/name"}}, want: "metadata.annotations[crossplane.io/name]"},
		"NumericKey": {path: Path{{Field: "data"}, {Field: "123"}}, want: "data[123]"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, tc.path.String()); diff != "" {
				t.Errorf("Path.String(): -want, +got:\n%s", diff)
			}
			if p := parsePath(tc.want); name != "NumericKey" && !cmp.Equal(p, tc.path) {
				t.Errorf("parsePath(%q) = %v, want %v", tc.want, p, tc.path)
			}
		})
	}
}
