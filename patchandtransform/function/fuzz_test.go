package function

import (
	"testing"
)

// FuzzDecodeJSON checks that whatever decodes can be validated and converted
// without panicking.
func FuzzDecodeJSON(f *testing.F) {
	for _, s := range []string{
		`{}`,
		`{"resources":[{"name":"a","base":{"kind":"K"},"patches":[{"fromFieldPath":"a","policy":{"toFieldPath":"MergeObjects"}}]}]}`,
		`{"patchSets":[{"name":"s","patches":[{"type":"CombineFromComposite","toFieldPath":"x","combine":{"strategy":"string"}}]}],"resources":[{"name":"a"}]}`,
		`{"environment":{"patches":[{"type":"PatchSet"}]}}`,
		`{"resources":[{"name":"a","patches":[{"fromFieldPath":"a","transforms":[{"type":"match","match":{"patterns":[{"regexp":"("}]}},{"type":"map","map":{"a":null}}]}]}]}`,
		`{"resources":[{"name":"a","readinessChecks":[{"type":"MatchCondition"}],"connectionDetails":[{"type":"FromValue"}]}]}`,
		`{"resources":[],"writeConnectionSecretToRef":{"patches":[{"policy":{}}]}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
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
