package legacy

import (
	"github.com/pkg/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/xpmigrate/xpmigrate/render"
)

// The API server's generateName rules: the prefix is cut to 58 characters
// and up to 10 candidates are tried.
const (
	maxPrefixLength = render.MaxGenerateNameLen
	maxNameAttempts = 10
)

// A nameGenerator returns a candidate name for a template's new object.
// template identifies the template, attempt counts from 0.
type nameGenerator func(prefix, template string, attempt int) string

// newNameGenerator returns fn, or when it is nil a deterministic generator
// seeded by the XR's uid and name (render.GeneratedName).
func newNameGenerator(xr map[string]any, fn func(prefix string) string) nameGenerator {
	if fn != nil {
		return func(prefix, _ string, _ int) string { return fn(prefix) }
	}
	u := &unstructured.Unstructured{Object: xr}
	uid, name := string(u.GetUID()), u.GetName()
	return func(prefix, template string, attempt int) string {
		return render.GeneratedName(prefix, uid, name, template, attempt)
	}
}

// generateName names an object that has a generateName but no name, as
// Crossplane does before the object exists: up to 10 candidates, the first
// that no object of the same kind has (docs/semantics/legacy.md#rendering-a-template step 5).
func (c *composer) generateName(u *unstructured.Unstructured, template string) error {
	if u.GetName() != "" || u.GetGenerateName() == "" {
		return nil
	}
	prefix := u.GetGenerateName()
	if len(prefix) > maxPrefixLength {
		prefix = prefix[:maxPrefixLength]
	}
	for attempt := range maxNameAttempts {
		name := c.names(prefix, template, attempt)
		if c.get(keyOf(u.GetAPIVersion(), u.GetKind(), "", name)) == nil {
			u.SetName(name)
			return nil
		}
	}
	return errors.New("cannot generate a name for a resource")
}
