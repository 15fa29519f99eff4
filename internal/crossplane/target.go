// Package crossplane names the Crossplane release lines xpmigrate converts
// for and emulates. It imports nothing of the module, so every layer can
// use it.
package crossplane

import (
	"github.com/pkg/errors"
)

// A Target is the Crossplane release line a converted Composition is
// applied to and the pipeline side emulates (docs/semantics/conversion.md#target-profiles). The zero
// value means V1.
type Target string

// Targets.
const (
	// V1 is Crossplane 1.18–1.20, the default: a legacy Composition must be
	// converted, applied and proven while the cluster still runs 1.x.
	// function-environment-configs is pinned to v0.6.0 (the last release
	// 1.x can feed EnvironmentConfigs to).
	V1 Target = "v1"

	// V2 is Crossplane ≥ 2.0 with legacy XRs: external secret store
	// references are dropped and function-environment-configs is ≥ v0.7.
	V2 Target = "v2"
)

// Targets are the valid targets, in the order help texts list them.
var Targets = []Target{V1, V2}

// ParseTarget returns the target s names; "" is V1.
func ParseTarget(s string) (Target, error) {
	switch t := Target(s); t {
	case "":
		return V1, nil
	case V1, V2:
		return t, nil
	}
	return "", errors.Errorf("unknown target %q (want v1 or v2)", s)
}
