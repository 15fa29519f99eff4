// Package redact decides which values of a Kubernetes object are secret,
// and shows them by length and hash only, so that reports (which end up in
// CI logs, pull request comments and artifacts) never print them.
//
// Secret are the values under data and stringData of a Secret, whether the
// Secret is an object of its own or wrapped in a provider-kubernetes Object
// (kubernetes.crossplane.io v1alpha1 and v1alpha2, kubernetes.m.crossplane.io;
// the manifest under spec.forProvider.manifest, and the observed one under
// status.atProvider.manifest), and the values under data and binaryData of
// a ConfigMap such an Object wraps while its spec.connectionDetails read
// from a ConfigMap (the values then become connection Secret keys).
// Fields says where they are; Object returns a copy with each replaced by
// its Digest, which is what verify shows for a connection detail read from
// a Secret:
//
//	obj := map[string]any{"apiVersion": "v1", "kind": "Secret",
//		"stringData": map[string]any{"password": "hunter2"}}
//	redact.Object(obj)["stringData"] // map[password:(7 bytes, sha256:f52fbd32b2b3)]
//
// Equal values have equal digests, so two redacted objects compare as the
// originals do.
package redact
