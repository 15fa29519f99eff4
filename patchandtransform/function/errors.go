package function

import (
	"fmt"
	"strings"

	pt "github.com/xpmigrate/xpmigrate/patchandtransform"
)

// formatPatchError and formatEnvironmentPatchError are the texts of the
// function's patch failures (function-patch-and-transform v0.10.8's).
const (
	formatPatchError            = "cannot render composed resource %q %q patch at index %d"
	formatEnvironmentPatchError = "cannot apply the %q environment patch at index %d"
)

// A PatchError is a patch that failed: a patch of a composed resource, or
// an environment patch (Resource empty). The function returns it as a
// fatal result; its message is the error's text.
type PatchError struct {
	// Resource is the composed resource's name; empty for an environment
	// patch.
	Resource string

	// Type is the patch's effective type, Index its index in the
	// template's (or the environment's) patches.
	Type  pt.PatchType
	Index int

	// Cause is the patch's error.
	Cause error
}

func (e *PatchError) prefix() string {
	if e.Resource == "" {
		return fmt.Sprintf(formatEnvironmentPatchError, e.Type, e.Index)
	}
	return fmt.Sprintf(formatPatchError, e.Resource, e.Type, e.Index)
}

func (e *PatchError) Error() string { return e.prefix() + ": " + e.Cause.Error() }

// Unwrap returns the patch's error.
func (e *PatchError) Unwrap() error { return e.Cause }

// A Fatal is what a fatal result's message of the function says: which
// patch failed, and the text of its cause. A fatal result crosses the
// RunFunction protocol as text alone, so this reads the message back with
// the format PatchError writes it with.
type Fatal struct {
	// Resource, Type and Index name the failing patch, as in a
	// PatchError.
	Resource string
	Type     pt.PatchType
	Index    int

	// Cause is the text of the patch's error.
	Cause string
}

// Expand reports whether the patch failed because its toFieldPath
// expanded to nothing (a patchandtransform.ExpandError).
func (f Fatal) Expand() bool { return pt.HasExpandError(f.Cause) }

// ParseFatal reads a fatal result's message: the PatchError it was written
// from. It returns false for any other message.
func ParseFatal(msg string) (Fatal, bool) {
	var name, typ string
	var idx int
	var res string
	switch {
	case strings.HasPrefix(msg, "cannot render composed resource "):
		if _, err := fmt.Sscanf(msg, formatPatchError, &name, &typ, &idx); err != nil {
			return Fatal{}, false
		}
		res = name
	case strings.HasPrefix(msg, "cannot apply the "):
		if _, err := fmt.Sscanf(msg, formatEnvironmentPatchError, &typ, &idx); err != nil {
			return Fatal{}, false
		}
	default:
		return Fatal{}, false
	}
	e := &PatchError{Resource: res, Type: pt.PatchType(typ), Index: idx}
	cause, ok := strings.CutPrefix(msg, e.prefix()+": ")
	if !ok {
		return Fatal{}, false
	}
	return Fatal{Resource: res, Type: e.Type, Index: idx, Cause: cause}, true
}
