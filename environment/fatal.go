package environment

import (
	"fmt"
	"strings"
)

// The texts of the function's failures that callers tell apart
// (function-environment-configs v0.6.0's).
const (
	msgBuildRequirements = "cannot build requirements"
	formatLabelValue     = "cannot get value from field path %q"
	formatConfigNotFound = "Required environment config %q not found"
)

// FindConfigNotFound finds, in a fatal result's message of the function,
// the name of a Required EnvironmentConfig referenced by name that does not
// exist.
func FindConfigNotFound(msg string) (string, bool) {
	prefix, _, _ := strings.Cut(formatConfigNotFound, "%q")
	i := strings.Index(msg, prefix)
	if i < 0 {
		return "", false
	}
	var name string
	if _, err := fmt.Sscanf(msg[i:], formatConfigNotFound, &name); err != nil {
		return "", false
	}
	return name, true
}

// A LabelValueFatal is what the function's fatal result says when a label's
// valueFromFieldPath could not be read from the XR. A fatal result crosses
// the RunFunction protocol as text alone, so ParseLabelValueFatal reads the
// message back with the formats Run writes it with.
type LabelValueFatal struct {
	// FieldPath is the label's valueFromFieldPath.
	FieldPath string

	// NotString is true when the XR has a value there that is not a
	// string (the function reads labels as strings; native Crossplane
	// printed any value).
	NotString bool
}

// ParseLabelValueFatal reads a fatal result's message of the function. It
// returns false for any other message.
func ParseLabelValueFatal(msg string) (LabelValueFatal, bool) {
	rest, ok := strings.CutPrefix(msg, msgBuildRequirements+": ")
	if !ok {
		return LabelValueFatal{}, false
	}
	var path string
	if _, err := fmt.Sscanf(rest, formatLabelValue, &path); err != nil {
		return LabelValueFatal{}, false
	}
	cause, ok := strings.CutPrefix(rest, fmt.Sprintf(formatLabelValue, path)+": ")
	if !ok {
		return LabelValueFatal{}, false
	}
	// crossplane-runtime's fieldpath.Paved.GetString text for a value of
	// another type.
	return LabelValueFatal{FieldPath: path, NotString: cause == path+": not a string"}, true
}
