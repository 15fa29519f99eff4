package function

import (
	"testing"

	"k8s.io/apimachinery/pkg/util/validation/field"
	"sigs.k8s.io/yaml"

	pt "github.com/xpmigrate/xpmigrate/patchandtransform"
)

// wire decodes a YAML input the way it reaches the function: as a JSON object
// whose numbers are all float64 (docs/semantics/pipeline.md#numbers-at-the-function-boundary, rule N1).
func wire(t testing.TB, y string) map[string]any {
	t.Helper()
	var in map[string]any
	if err := yaml.Unmarshal([]byte(y), &in); err != nil {
		t.Fatalf("cannot parse fixture YAML: %v", err)
	}
	if in == nil {
		return nil
	}
	out, _ := pt.WireNumbers(in).(map[string]any)
	return out
}

// mustDecode decodes a YAML input that is known to be well formed.
func mustDecode(t testing.TB, y string) *Resources {
	t.Helper()
	r, err := Decode(wire(t, y))
	if err != nil {
		t.Fatalf("Decode(...): unexpected error: %v", err)
	}
	return r
}

func ptr[T any](v T) *T { return &v }

// message renders a validation result as the function's result message
// would show it, "" for none.
func message(err *field.Error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
