package xp

// The functions a converted Composition runs: each one's repository name,
// which is also the default metadata.name of its Function (the name the
// upstream converter writes into functionRef), and its package.
const (
	FunctionPatchAndTransform  = "function-patch-and-transform"
	FunctionEnvironmentConfigs = "function-environment-configs"

	PackagePatchAndTransform  = "xpkg.crossplane.io/crossplane-contrib/" + FunctionPatchAndTransform
	PackageEnvironmentConfigs = "xpkg.crossplane.io/crossplane-contrib/" + FunctionEnvironmentConfigs
)
