package pipeline

import (
	"reflect"

	"github.com/xpmigrate/xpmigrate/internal/jsonobj"
	"github.com/xpmigrate/xpmigrate/internal/protostruct"
)

// specOf reads a Composition's spec straight from its JSON tree, giving what
// specFromJSON gives for the tree's JSON text, inputs included. It reports
// false for anything jsonobj.DecodeTree cannot vouch for, and for an input
// whose JSON text would not hold it as it is (jsonobj.Verbatim); the caller
// then decodes through JSON text, which also yields the errors.
func specOf(v any) (compositionSpec, bool) {
	var out compositionSpec
	m, ok := v.(map[string]any)
	if !ok || m == nil || !jsonobj.DecodeTree(m, &out, jsonobj.TreeOptions{Skip: skipInput}) {
		return compositionSpec{}, false
	}
	steps, _ := m["pipeline"].([]any)
	var b protostruct.Builder
	for i := range out.Pipeline {
		sm, _ := steps[i].(map[string]any)
		in, ok := sm["input"]
		if !ok || in == nil {
			continue
		}
		// A Verbatim object makes the Struct its JSON text decodes to.
		im, ok := in.(map[string]any)
		if !ok || !jsonobj.Verbatim(im) {
			return compositionSpec{}, false
		}
		s, err := b.NewStruct(im)
		if err != nil {
			return compositionSpec{}, false
		}
		out.Pipeline[i].in = s
	}
	return out, true
}

var stepType = reflect.TypeFor[step]()

// skipInput leaves a step's input to specOf, which makes the Struct its
// requests carry without the JSON text.
func skipInput(t reflect.Type, member string) bool {
	return t == stepType && member == "input"
}
