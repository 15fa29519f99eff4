package native

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	kjson "k8s.io/apimachinery/pkg/util/json"
	"sigs.k8s.io/yaml"
)

// FuzzDecode checks that nothing Decode accepts makes Default, Validate or
// the conversions panic, that Default is idempotent, and that DecodeTree
// reads a document's tree (as the Kubernetes decoder makes it) as Decode
// reads the tree's JSON text.
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
		checkDecodeTree(t, data)
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

// checkDecodeTree checks DecodeTree on the tree of data, if it has one,
// against Decode of the tree's JSON text.
func checkDecodeTree(t *testing.T, data []byte) {
	t.Helper()
	j, err := yaml.YAMLToJSON(data)
	if err != nil {
		return
	}
	var tree map[string]any
	if kjson.Unmarshal(j, &tree) != nil || tree == nil {
		return
	}
	got, ok := DecodeTree(tree)
	if !ok {
		return
	}
	raw, err := json.Marshal(tree)
	if err != nil {
		t.Fatalf("DecodeTree read a tree json.Marshal cannot write: %v", err)
	}
	want, err := Decode(raw)
	if err != nil {
		t.Fatalf("DecodeTree read what Decode rejects (%v): %s", err, raw)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("DecodeTree(%s): -Decode, +got:\n%s", raw, diff)
	}
}
