// Package v2e2e proves that the v2-native platform `xpmigrate migrate
// --target v2` writes is accepted by a real API server. Its tests (build tag
// e2e, run by `make e2e-cluster`) start etcd and kube-apiserver
// (internal/kubetest) with Crossplane v2.3.4's CRDs, migrate the shared
// corpus with the binary built from this checkout, and ask the server to
// create every object the migration emitted (each document of the output
// that is not in the input: converted Compositions, v2 XRDs, Function
// manifests, EnvironmentConfigs, Usages, DeploymentRuntimeConfigs and XR
// twins) as a dry run with strict field validation, so the CRDs' schemas
// and CEL rules judge each one. The XR twins are validated against the XR
// CRD Crossplane v2 derives from the emitted XRD that defines their kind,
// installed under a group of its own per schema (the corpus holds XRDs of
// the same name with different schemas).
//
// None may be refused, except for what the migration copied from the
// corpus: an XR twin refused only for problems its example (the claim or
// legacy XR of the same name in its directory) has against the example's
// own v1 CRD, or a v2 XRD (or its XR CRD) refused only for what the v1 XRD
// it replaced is refused for, is logged as inherited. Objects of groups the
// server has no CRD for (managed resources, package metadata) are counted
// as not validated.
//
// The package has no code besides its tests.
package v2e2e
