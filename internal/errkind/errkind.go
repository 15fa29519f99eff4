// Package errkind holds the two kinds of error that every layer may return
// and that the command line maps to exit codes in one place
// (cmd/xpmigrate/root.go): invalid input or usage (exit 2), and findings
// that fail a run, such as changes needed or differences found (exit 3).
// Any other error is a failure of the work itself (exit 1).
//
// Library error types that are invalid input implement InvalidInput() bool
// instead of wrapping an InvalidInputError, so they keep their own type for
// errors.As; IsInvalidInput recognises both.
package errkind

import (
	"github.com/pkg/errors"
)

// An InvalidInputError is input or usage that cannot be acted on: an
// unreadable file, a document that is not YAML, a flag value out of range.
type InvalidInputError struct{ Err error }

func (e *InvalidInputError) Error() string { return e.Err.Error() }

// Unwrap returns the cause.
func (e *InvalidInputError) Unwrap() error { return e.Err }

// InvalidInput reports that the error is invalid input or usage.
func (e *InvalidInputError) InvalidInput() bool { return true }

// InvalidInput marks err as invalid input or usage. A nil err stays nil.
func InvalidInput(err error) error {
	if err == nil {
		return nil
	}
	return &InvalidInputError{Err: err}
}

// InvalidInputf returns a new invalid input error.
func InvalidInputf(format string, args ...any) error {
	return &InvalidInputError{Err: errors.Errorf(format, args...)}
}

// IsInvalidInput reports whether err is, or wraps, an error with an
// InvalidInput method that returns true (the first such method decides).
func IsInvalidInput(err error) bool {
	var ii interface{ InvalidInput() bool }
	return errors.As(err, &ii) && ii.InvalidInput()
}

// A FindingsError fails a run that did its work: changes are needed
// (--check), differences were found (verify), a generated file is stale.
// Err says what was found; nil when the output already said it.
type FindingsError struct{ Err error }

func (e *FindingsError) Error() string {
	if e.Err == nil {
		return ""
	}
	return e.Err.Error()
}

// Unwrap returns the description.
func (e *FindingsError) Unwrap() error { return e.Err }

// Findings returns a findings error described by err (nil: the output
// already said what was found).
func Findings(err error) error { return &FindingsError{Err: err} }

// Findingsf returns a findings error with a description.
func Findingsf(format string, args ...any) error {
	return &FindingsError{Err: errors.Errorf(format, args...)}
}

// IsFindings reports whether err is, or wraps, a FindingsError.
func IsFindings(err error) bool {
	var fe *FindingsError
	return errors.As(err, &fe)
}
