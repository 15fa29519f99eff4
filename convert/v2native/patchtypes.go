package v2native

import (
	"strings"

	pt "github.com/xpmigrate/xpmigrate/patchandtransform"
)

// The patch and transform types the v2-native rewrites read and write:
// the core's enums, as the strings the YAML holds.
const (
	fromComposite   = string(pt.PatchTypeFromCompositeFieldPath)
	combineFromComp = string(pt.PatchTypeCombineFromComposite)
	fromEnvironment = string(pt.PatchTypeFromEnvironmentFieldPath)
	combineFromEnv  = string(pt.PatchTypeCombineFromEnvironment)
	toComposite     = string(pt.PatchTypeToCompositeFieldPath)
	combineToComp   = string(pt.PatchTypeCombineToComposite)
	toEnvironment   = string(pt.PatchTypeToEnvironmentFieldPath)
	combineToEnv    = string(pt.PatchTypeCombineToEnvironment)
	patchSetType    = string(pt.PatchTypePatchSet)
	transformMap    = string(pt.TransformTypeMap)
)

// writesComposed reports whether a patch of type typ writes the composed
// resource.
func writesComposed(typ string) bool {
	switch typ {
	case fromComposite, fromEnvironment, combineFromComp, combineFromEnv:
		return true
	}
	return false
}

// joinPath is the path of field key under path.
func joinPath(path, key string) string {
	if path == "" {
		return key
	}
	if strings.ContainsAny(key, ".[]") {
		return path + "[" + key + "]"
	}
	return path + "." + key
}

// trimDot drops the dot that ends a List item's base ("items[3].").
func trimDot(s string) string { return strings.TrimSuffix(s, ".") }
