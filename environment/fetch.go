package environment

import (
	"encoding/json"
	"fmt"

	"github.com/pkg/errors"
)

// A NotFoundError says an EnvironmentConfig does not exist. Its text is the
// one Crossplane's cached client returns.
type NotFoundError struct {
	Name string
}

func (e *NotFoundError) Error() string {
	return fmt.Sprintf("%s.%s %q not found", KindConfig, Group, e.Name)
}

// IsNotFound reports true; callers test for it with errors.As, or with the
// one-method interface.
func (e *NotFoundError) IsNotFound() bool { return true }

// Fetch builds the in-memory environment of a composite resource as
// Crossplane v1.17.6 does after selection (docs/semantics/legacy.md#fetching-and-merging-the-environment): defaultData
// first, then every config named in the XR's spec.environmentConfigRefs, in
// order and by name only, each merged over the previous layers. Objects
// merge key by key, recursively; any other value (lists included) replaces.
// Finally apiVersion and kind are set to internal.crossplane.io/v1alpha1
// Environment, overwriting data keys of those names.
//
// Data is decoded by the plain Go JSON decoder, so every number in the
// result is a float64 until a patch writes to the environment (which
// re-encodes it, turning integral numbers into int64).
//
// A ref that names no config is an error unless policy.resolution is
// Optional, or the Spec is nil (no spec.environment): then it is skipped.
// Errors are Crossplane's, wrapped in "cannot fetch environment".
//
// The result is a fresh object: pave it once (fieldpath.Pave) and keep the
// *fieldpath.Paved, since a native patch replaces its content when it
// re-encodes it.
func (s *Spec) Fetch(xr map[string]any, configs *Set) (map[string]any, error) {
	layers := make([]map[string]json.RawMessage, 0, 1)
	if s != nil && s.DefaultData != nil {
		layers = append(layers, s.DefaultData)
	}
	for _, ref := range currentRefs(xr) {
		c, ok := configs.Get(ref.Name)
		if !ok {
			if s.required() {
				err := errors.Wrap(&NotFoundError{Name: ref.Name}, "failed to get config set from reference")
				return nil, errors.Wrap(errors.Wrap(err, "cannot fetch environment configs"), "cannot fetch environment")
			}
			continue
		}
		layers = append(layers, c.Data)
	}

	env := map[string]any{}
	for _, l := range layers {
		if l == nil {
			continue
		}
		data, err := decodePlain(l)
		if err != nil {
			return nil, errors.Wrap(errors.Wrap(err, "failed to merge data"), "cannot fetch environment")
		}
		env = mergeMaps(env, data)
	}
	env["apiVersion"] = EnvironmentAPIVersion
	env["kind"] = EnvironmentKind
	return env, nil
}

// Build selects, then fetches: the environment Crossplane v1.17.6 (with
// --enable-environment-configs) computes for a composite resource before
// composing it (docs/semantics/legacy.md#before-composing step 7). The XR's
// spec.environmentConfigRefs are updated in place when selection runs.
func (s *Spec) Build(xr map[string]any, configs *Set) (map[string]any, *Selection, error) {
	sel, err := s.Select(xr, configs)
	if err != nil {
		return nil, nil, err
	}
	env, err := s.Fetch(xr, configs)
	if err != nil {
		return nil, sel, err
	}
	return env, sel, nil
}

// mergeMaps returns a new map holding a with b merged over it: where both
// hold an object under a key the objects merge recursively, otherwise b's
// value replaces. Both engines merge environment layers this way.
func mergeMaps(a, b map[string]any) map[string]any {
	out := make(map[string]any, len(a)+len(b))
	for k, v := range a {
		out[k] = v
	}
	for k, v := range b {
		if bm, ok := v.(map[string]any); ok {
			if am, ok := out[k].(map[string]any); ok {
				out[k] = mergeMaps(am, bm)
				continue
			}
		}
		out[k] = v
	}
	return out
}
