package patchandtransform

import (
	"fmt"
	"strings"

	"github.com/crossplane/crossplane-runtime/v2/pkg/fieldpath"
)

// The errors below are failures that callers tell apart. Their text is
// upstream's (goldens compare it); match them with errors.As, never by
// their text. Where only the text survives (a function's fatal result
// crosses the RunFunction protocol as a message), the Find functions read
// it back with the same format that wrote it.

// A ReadinessCheckError is a readiness check that could not run: invalid,
// or reading a field of the wrong type.
type ReadinessCheckError struct {
	// Index is the check's index in the template's readinessChecks.
	Index int

	Err error
}

func (e *ReadinessCheckError) Error() string {
	return fmt.Sprintf("cannot run readiness check at index %d: %v", e.Index, e.Err)
}

// Unwrap returns the check's error.
func (e *ReadinessCheckError) Unwrap() error { return e.Err }

// formatConvertFormat is a ConvertFormatError's text.
const formatConvertFormat = "conversion from %s to %s is not supported with format %s"

// A ConvertFormatError is a convert transform whose format does not apply
// to its input's type.
type ConvertFormatError struct {
	// From is the input's type, To the convert's target type (int64,
	// float64, string, bool, object, array).
	From, To string

	// Format is the convert's format: none, quantity or json.
	Format string
}

func (e *ConvertFormatError) Error() string {
	return fmt.Sprintf(formatConvertFormat, e.From, e.To, e.Format)
}

// FindConvertFormatError finds a ConvertFormatError's text in a message
// (an event, or a function's fatal result) and returns the error it
// describes.
func FindConvertFormatError(msg string) (*ConvertFormatError, bool) {
	const prefix = "conversion from "
	for i := strings.Index(msg, prefix); i >= 0; {
		e := &ConvertFormatError{}
		if _, err := fmt.Sscanf(msg[i:], formatConvertFormat, &e.From, &e.To, &e.Format); err == nil {
			// Sscanf reads the format up to the next space: drop what a
			// wrapping message put after it.
			e.Format = strings.TrimRight(e.Format, ":,;.)")
			return e, true
		}
		j := strings.Index(msg[i+len(prefix):], prefix)
		if j < 0 {
			break
		}
		i += len(prefix) + j
	}
	return nil, false
}

// formatExpand is an ExpandError's text.
const formatExpand = "cannot expand ToFieldPath %s"

// An ExpandError is a toFieldPath with a wildcard that expands to no path
// in the object written.
type ExpandError struct {
	Path string
}

func (e *ExpandError) Error() string { return fmt.Sprintf(formatExpand, e.Path) }

// HasExpandError reports whether a message (a function's fatal result)
// holds an ExpandError's text.
func HasExpandError(msg string) bool {
	return strings.Contains(msg, strings.TrimSuffix(formatExpand, "%s"))
}

// A PathError is a patch whose field path does not parse. Its text is
// crossplane-runtime's (fieldpath has no error type for it).
type PathError struct {
	// Path is the field path that does not parse.
	Path string

	Err error
}

func (e *PathError) Error() string { return e.Err.Error() }

// Unwrap returns fieldpath's error.
func (e *PathError) Unwrap() error { return e.Err }

// Cause returns fieldpath's error, for errors.Cause (and so
// fieldpath.IsNotFound) as for errors.Unwrap.
func (e *PathError) Cause() error { return e.Err }

// asPathError returns err as a PathError when it is fieldpath's failure to
// parse one of the patch's paths, and err otherwise. crossplane-runtime
// gives that failure no type: its text ("cannot parse path %q: ...") is
// read here, in the one place that calls fieldpath for patches.
func asPathError(p Patch, err error) error {
	if err == nil || IsNotFound(err) {
		return err
	}
	paths := []string{p.EffectiveToFieldPath()}
	if p.FromFieldPath != nil {
		paths = append(paths, *p.FromFieldPath)
	}
	if p.Combine != nil {
		for _, v := range p.Combine.Variables {
			paths = append(paths, v.FromFieldPath)
		}
	}
	msg := err.Error()
	for _, path := range paths {
		if _, perr := fieldpath.Parse(path); perr != nil && strings.Contains(msg, fmt.Sprintf("cannot parse path %q", path)) {
			return &PathError{Path: path, Err: err}
		}
	}
	return err
}
