package legacy

import (
	"fmt"

	"k8s.io/apimachinery/pkg/runtime/schema"
)

// The errors below are the native composer's failures that verify tells
// apart. Their text is Crossplane's (goldens compare it); callers match
// them with errors.As, never by their text.

// A ToCompositeError is a ToComposite patch of a composed resource that
// failed once the resource was applied: fatal for the reconcile.
type ToCompositeError struct {
	// Resource is the composed resource's name in the message: the
	// template's name, or its index for an anonymous template.
	Resource string

	// Err is the failing patch's error.
	Err error
}

func (e *ToCompositeError) Error() string {
	return fmt.Sprintf("cannot render ToComposite patches for composed resource %q: %v", e.Resource, e.Err)
}

// Unwrap returns the patch's error.
func (e *ToCompositeError) Unwrap() error { return e.Err }

// A KindChangeError is a template whose base kind differs from the kind of
// the composed resource it already composed.
type KindChangeError struct {
	From, To schema.GroupVersionKind
}

func (e *KindChangeError) Error() string {
	return fmt.Sprintf("cannot change the kind of a composed resource from %s to %s (possible composed resource template mismatch)", e.From, e.To)
}

// A NotControlledError is an existing composed resource that another
// object controls.
type NotControlledError struct {
	// UID is the XR's UID.
	UID string
}

func (e *NotControlledError) Error() string {
	return fmt.Sprintf("existing object is not controlled by UID %q", e.UID)
}

// An ApplyError is a failed write to the API server: of a composed
// resource, or of the composite resource itself.
type ApplyError struct {
	// Resource names the composed resource; empty for the composite
	// resource.
	Resource string

	Err error
}

func (e *ApplyError) Error() string {
	if e.Resource == "" {
		return fmt.Sprintf("cannot update composite resource: %v", e.Err)
	}
	return fmt.Sprintf("cannot apply composed resource %q: %v", e.Resource, e.Err)
}

// Unwrap returns the write's error.
func (e *ApplyError) Unwrap() error { return e.Err }
