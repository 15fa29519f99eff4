// Package functions knows what the converted Compositions need of the
// Crossplane Functions they call, and how a tree installs them: which
// releases of function-patch-and-transform and
// function-environment-configs each target supports (Pins, with the
// release pinned and the constraint a dependency gets), whether a Function
// manifest or a Configuration's dependency installs one of them
// (Pin.CheckManifest, Pin.CheckDependency: findings M409, M410), the
// Function manifests and spec.dependsOn entries the migrator adds
// (ManifestText, AddDependencies), and the Crossplane version constraint a
// Configuration needs for them (RaiseCrossplaneConstraint, M413).
//
// Versions and constraints are read with github.com/Masterminds/semver at
// the release Crossplane v1.20 pins, so that "a constraint admits a
// release" means here what Crossplane's package manager does.
//
// It decides nothing about the tree: which scopes get manifests, where
// they go and which files are edited is the run's (convert/migrate,
// functions.go and installed.go). A check of one dependency:
//
//	pt, _ := functions.Pins(crossplane.V1)
//	if fd := pt.CheckDependency("spec.dependsOn[0].version", pt.Pkg, ">=v0.10.0", crossplane.V1); fd != nil {
//		// fd.Code is "M410": the constraint admits a release v1 does not support.
//	}
package functions
