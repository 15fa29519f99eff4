package patchandtransform

import "github.com/pkg/errors"

// A Dialect names which upstream engine's behaviour the core reproduces where
// the two engines differ.
type Dialect uint8

const (
	// Native is Crossplane's own `mode: Resources` composer (v1.20.11, with
	// the v1.17.6 composition environment).
	Native Dialect = iota

	// Function is function-patch-and-transform v0.10.8.
	Function
)

// String returns the dialect's name.
func (d Dialect) String() string {
	switch d {
	case Native:
		return "native"
	case Function:
		return "function"
	default:
		return "unknown"
	}
}

// byDialect returns native or function, as d says. An unknown dialect is
// an error of the operation op ("cannot op: unknown dialect N").
func byDialect[F any](d Dialect, native, function F, op string) (F, error) {
	switch d {
	case Native:
		return native, nil
	case Function:
		return function, nil
	default:
		var zero F
		return zero, errors.Errorf("cannot %s: unknown dialect %d", op, d)
	}
}
