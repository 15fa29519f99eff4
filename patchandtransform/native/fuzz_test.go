package native

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// FuzzDecode checks that nothing Decode accepts makes Default, Validate or
// the conversions panic, and that Default is idempotent.
func FuzzDecode(f *testing.F) {
	f.Add(doc(`patchSets: [{name: p, patches: [{fromFieldPath: a, transforms: [{type: map, map: {a: 1}}]}]}]
resources:
- name: r
  base: BASE
  patches:
  - {type: PatchSet, patchSetName: p}
  - {type: CombineFromComposite, combine: {strategy: string, variables: [{fromFieldPath: a}], string: {fmt: "%s"}}, toFieldPath: b}
  - {fromFieldPath: a, policy: {mergeOptions: {}}, transforms: [{type: match, match: {patterns: [{type: regexp, regexp: "(", result: null}]}}]}
  connectionDetails: [{fromConnectionSecretKey: k}, {}]
  readinessChecks: [{type: MatchInteger, matchInteger: 0}, {type: MatchCondition, matchCondition: {}}]
environment: {patches: [{fromFieldPath: a}], defaultData: {a: null}, environmentConfigs: [{selector: {}}]}`))
	f.Add(doc("resources: [{base: null}, {name: y, base: [1]}]"))
	f.Add([]byte(`{"apiVersion":"apiextensions.crossplane.io/v1","kind":"Composition","spec":{"environment":{"policy":{}}}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := Decode(data)
		if err != nil {
			return
		}
		c.Validate()
		c.Validate(ForTarget(TargetV120), LogicalOnly())
		c.Default()
		once, err := Decode(data)
		if err != nil {
			t.Fatalf("Decode(...) is not deterministic: %v", err)
		}
		once.Default()
		once.Default()
		if diff := cmp.Diff(c, once); diff != "" {
			t.Errorf("Default() is not idempotent: -once, +twice:\n%s", diff)
		}
		c.Validate()
		c.PatchSets()
		c.EnvironmentPatches()
		for _, tmpl := range c.Templates() {
			_, _ = tmpl.Object()
		}
	})
}
