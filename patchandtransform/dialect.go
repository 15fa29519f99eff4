package patchandtransform

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
