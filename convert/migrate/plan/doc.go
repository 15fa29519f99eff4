// Package plan writes the adopt-in-place move of running Crossplane v1
// claims and legacy XRs onto the v2-native definitions that convert
// --target v2 emits (xpmigrate plan v2): per XR, ordered manifests the
// user applies with kubectl, a machine-readable plan.json, a render proof
// that the new XR adopts every managed resource instead of recreating it,
// and read-only precondition checks for each step. It never writes to a
// cluster: it reads one (internal/cluster, get and list only) or exported
// manifests.
package plan
