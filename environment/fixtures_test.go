package environment

import (
	"testing"

	kjson "k8s.io/apimachinery/pkg/util/json"
	"sigs.k8s.io/yaml"
)

// Fixtures of docs/semantics/legacy.md#test-vectors.

// ec3 is EC3: three EnvironmentConfigs labelled env=prod.
const ec3 = `
apiVersion: apiextensions.crossplane.io/v1alpha1
kind: EnvironmentConfig
metadata: {name: c, labels: {env: prod}}
data: {w: 2, s: b}
---
apiVersion: apiextensions.crossplane.io/v1alpha1
kind: EnvironmentConfig
metadata: {name: a, labels: {env: prod}}
data: {w: 10, s: c}
---
apiVersion: apiextensions.crossplane.io/v1beta1
kind: EnvironmentConfig
metadata: {name: b, labels: {env: prod}}
data: {w: 1.5, s: a}
`

// env0 is ENV0: one EnvironmentConfig layer.
const env0 = `
apiVersion: apiextensions.crossplane.io/v1alpha1
kind: EnvironmentConfig
metadata: {name: env0}
data: {num: 3, str: s, obj: {a: 1}, apiVersion: foo, kind: bar}
`

// xr0 is XR0, the observed XR.
const xr0 = `
apiVersion: ex.org/v1
kind: XR
metadata: {name: xr1, uid: u-1, labels: {a: "1", crossplane.io/composite: xr1},
           annotations: {crossplane.io/external-name: ext}}
spec: {str: hello, num: 3, flt: 1.5, nul: null, obj: {k1: v1, k2: v2, nested: {x: 1}},
       arr: [a, b], list: [{name: a}, {name: b}], b: true}
status: {st: done}
`

// cd0 is CD0, the desired composed resource being built.
const cd0 = `
apiVersion: ex.org/v1
kind: CD
metadata: {labels: {keep: "yes"}}
spec: {obj: {k1: base1, k3: base3, nested: {yy: 2}}, arr: [b, c], scalar: base,
       items: [{name: n1}, {name: n2, value: old}], nul: null, a: fromdesired}
status: {id: abc, num: 7}
`

// object decodes YAML as the Kubernetes decoder does: integers int64.
func object(t testing.TB, y string) map[string]any {
	t.Helper()
	j, err := yaml.YAMLToJSON([]byte(y))
	if err != nil {
		t.Fatalf("YAMLToJSON(...): %v", err)
	}
	out := map[string]any{}
	if err := kjson.Unmarshal(j, &out); err != nil {
		t.Fatalf("Unmarshal(...): %v", err)
	}
	return out
}

// set loads EnvironmentConfigs from YAML documents into a Set.
func set(t testing.TB, docs ...string) *Set {
	t.Helper()
	var all []Config
	for _, d := range docs {
		cs, err := Load([]byte(d))
		if err != nil {
			t.Fatalf("Load(...): %v", err)
		}
		all = append(all, cs...)
	}
	s, err := NewSet(all...)
	if err != nil {
		t.Fatalf("NewSet(...): %v", err)
	}
	return s
}

// spec decodes and defaults spec.environment from YAML.
func spec(t testing.TB, y string) *Spec {
	t.Helper()
	s, err := DecodeSpec([]byte(y))
	if err != nil {
		t.Fatalf("DecodeSpec(...): %v", err)
	}
	s.Default()
	return s
}

// errText is an error's text, or "" for nil: the vectors pin upstream's
// messages, which are the behaviour under test.
func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

func refs(names ...string) []Ref {
	out := make([]Ref, len(names))
	for i, n := range names {
		out[i] = Ref{APIVersion: APIVersionV1Alpha1, Kind: KindConfig, Name: n}
	}
	return out
}
