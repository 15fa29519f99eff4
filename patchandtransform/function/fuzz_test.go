package function

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// FuzzDecodeJSON checks that whatever decodes can be validated and converted
// without panicking, and that decoding the JSON tree directly agrees with
// decoding its text.
func FuzzDecodeJSON(f *testing.F) {
	for _, s := range []string{
		`{}`,
		`{"resources":[{"name":"a","base":{"kind":"K"},"patches":[{"fromFieldPath":"a","policy":{"toFieldPath":"MergeObjects"}}]}]}`,
		`{"patchSets":[{"name":"s","patches":[{"type":"CombineFromComposite","toFieldPath":"x","combine":{"strategy":"string"}}]}],"resources":[{"name":"a"}]}`,
		`{"environment":{"patches":[{"type":"PatchSet"}]}}`,
		`{"resources":[{"name":"a","patches":[{"fromFieldPath":"a","transforms":[{"type":"match","match":{"patterns":[{"regexp":"("}]}},{"type":"map","map":{"a":null}}]}]}]}`,
		`{"resources":[{"name":"a","readinessChecks":[{"type":"MatchCondition"}],"connectionDetails":[{"type":"FromValue"}]}]}`,
		`{"resources":[],"writeConnectionSecretToRef":{"patches":[{"policy":{}}]}}`,
		`{"apiVersion":"pt.fn.crossplane.io/v1beta1","kind":"Resources","patchSets":[{"name":"common","patches":[{"type":"FromCompositeFieldPath","fromFieldPath":"metadata.labels","toFieldPath":"metadata.labels","policy":{"toFieldPath":"MergeObjects"}}]}],"resources":[{"name":"b","base":{"apiVersion":"v1","kind":"K","spec":{"n":1,"s":"<&>"}},"patches":[{"type":"PatchSet","patchSetName":"common"},{"fromFieldPath":"spec.size","toFieldPath":"spec.size","transforms":[{"type":"map","map":{"small":"10","large":100}},{"type":"string","string":{"type":"Format","fmt":"%s-b"}},{"type":"math","math":{"type":"Multiply","multiply":2}}]}],"connectionDetails":[{"name":"arn","type":"FromFieldPath","fromFieldPath":"status.arn"}],"readinessChecks":[{"type":"None"},{"type":"MatchInteger","fieldPath":"a","matchInteger":-3}]}]}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		// Reading the tree directly must agree with reading its text.
		var m map[string]any
		if json.Unmarshal(b, &m) == nil {
			if got, ok := decodeTree(m); ok {
				want, err := decodeText(m)
				if err != nil {
					t.Fatalf("decodeTree(%s) read an input the text decoder rejects: %v", b, err)
				}
				if diff := cmp.Diff(want, got); diff != "" {
					t.Fatalf("decodeTree(%s): -want, +got:\n%s", b, diff)
				}
			}
		}

		r, err := DecodeJSON(b)
		if err != nil {
			return
		}
		_ = r.Validate()
		_ = r.CorePatchSets()
		_ = r.EnvironmentPatches()
		_ = r.ConnectionSecretRef()
		for _, tp := range r.Templates() {
			if tp.Base != nil {
				_, _ = tp.BaseObject()
			}
		}
	})
}
