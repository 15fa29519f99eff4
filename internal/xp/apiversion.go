package xp

import "strings"

// API groups.
const (
	// GroupAPIExtensions is the group of Compositions, CompositionRevisions,
	// CompositeResourceDefinitions and EnvironmentConfigs.
	GroupAPIExtensions = "apiextensions.crossplane.io"

	// GroupPkg is the group of installed packages: Functions, Providers,
	// Configurations.
	GroupPkg = "pkg.crossplane.io"

	// GroupMetaPkg is the group of a package's own metadata (its
	// crossplane.yaml).
	GroupMetaPkg = "meta.pkg.crossplane.io"

	// GroupPTInput is the group of function-patch-and-transform's input.
	GroupPTInput = "pt.fn.crossplane.io"

	// GroupECInput is the group of function-environment-configs' input.
	GroupECInput = "environmentconfigs.fn.crossplane.io"

	// GroupEnvironment is the group both engines stamp on the in-memory
	// composition environment.
	GroupEnvironment = "internal.crossplane.io"
)

// API versions and the names derived from them.
const (
	// CompositionAPIVersion is the one Composition version the converter
	// and the engines read.
	CompositionAPIVersion = GroupAPIExtensions + "/v1"

	// FunctionAPIVersion and FunctionAPIVersionV1Beta1 are the versions a
	// Function object is served at.
	FunctionAPIVersion        = GroupPkg + "/v1"
	FunctionAPIVersionV1Beta1 = GroupPkg + "/v1beta1"

	// PTInputAPIVersion and PTInputKind name function-patch-and-transform's
	// input.
	PTInputAPIVersion = GroupPTInput + "/v1beta1"
	PTInputKind       = "Resources"

	// ECInputAPIVersion and ECInputKind name function-environment-configs'
	// input.
	ECInputAPIVersion = GroupECInput + "/v1beta1"
	ECInputKind       = "Input"

	// EnvironmentVersion and EnvironmentAPIVersion are the version and
	// apiVersion stamped on the in-memory environment, of kind
	// EnvironmentKind.
	EnvironmentVersion    = "v1alpha1"
	EnvironmentAPIVersion = GroupEnvironment + "/" + EnvironmentVersion
	EnvironmentKind       = "Environment"

	// ContextKeyEnvironment is the pipeline context key the environment
	// lives under.
	ContextKeyEnvironment = GroupAPIExtensions + "/environment"

	// SecretTypeConnection is the type of the connection secrets
	// Crossplane writes.
	SecretTypeConnection = "connection.crossplane.io/v1alpha1"
)

// SplitAPIVersion splits an apiVersion at its last '/' into group and
// version; the core group is "".
func SplitAPIVersion(apiVersion string) (group, version string) {
	i := strings.LastIndexByte(apiVersion, '/')
	if i < 0 {
		return "", apiVersion
	}
	return apiVersion[:i], apiVersion[i+1:]
}

// Group returns the API group of an apiVersion, "" for the core group.
func Group(apiVersion string) string {
	g, _ := SplitAPIVersion(apiVersion)
	return g
}

// IsFunctionAPIVersion reports whether apiVersion is one a Function object
// is served at.
func IsFunctionAPIVersion(apiVersion string) bool {
	return apiVersion == FunctionAPIVersion || apiVersion == FunctionAPIVersionV1Beta1
}
