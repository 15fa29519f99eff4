package pipeline

import (
	"fmt"

	"github.com/xpmigrate/xpmigrate/internal/xp"
)

// The errors below are the function composer's failures that verify tells
// apart. Their text is Crossplane's (goldens compare it); callers match
// them with errors.As, never by their text.

// A FatalResultError is a pipeline step that returned a fatal result.
type FatalResultError struct {
	// Step is the pipeline step's name.
	Step string

	// Message is the fatal result's message, the function's own text.
	Message string
}

func (e *FatalResultError) Error() string {
	return fmt.Sprintf("pipeline step %q returned a fatal result: %s", e.Step, e.Message)
}

// An UnnamedResourceError is an observed composed resource without the
// crossplane.io/composition-resource-name annotation, which the reconciler
// cannot compose.
type UnnamedResourceError struct{}

func (e *UnnamedResourceError) Error() string {
	return fmt.Sprintf("encountered composed resource without required %q annotation", xp.AnnotationCompositionResourceName)
}

// A SecretNotFoundError is a step's credentials Secret that is not among
// the inputs.
type SecretNotFoundError struct {
	Name string
}

func (e *SecretNotFoundError) Error() string {
	return fmt.Sprintf("cannot get credentials from secret %q: secret %q not found", e.Name, e.Name)
}
