package native

import (
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/util/validation/field"
)

// base is a valid template base for test Compositions.
const base = "{apiVersion: ex.org/v1, kind: CD}"

// doc returns a Composition document with the given spec fields (YAML, at
// spec level, without indentation), and a valid compositeTypeRef. BASE in
// spec stands for a valid base.
func doc(spec string) []byte {
	var b strings.Builder
	b.WriteString("apiVersion: apiextensions.crossplane.io/v1\nkind: Composition\nmetadata:\n  name: test\nspec:\n  compositeTypeRef: {apiVersion: ex.org/v1, kind: XR}\n")
	for _, l := range strings.Split(strings.ReplaceAll(spec, "BASE", base), "\n") {
		if strings.TrimSpace(l) == "" {
			continue
		}
		b.WriteString("  " + l + "\n")
	}
	return []byte(b.String())
}

// mustDecode decodes a document or fails the test.
func mustDecode(t *testing.T, data []byte) *Composition {
	t.Helper()
	c, err := Decode(data)
	if err != nil {
		t.Fatalf("Decode(...): %v", err)
	}
	return c
}

// errorStrings renders an ErrorList as the messages users see.
func errorStrings(errs field.ErrorList) []string {
	if len(errs) == 0 {
		return nil
	}
	out := make([]string, len(errs))
	for i, e := range errs {
		out[i] = e.Error()
	}
	return out
}
