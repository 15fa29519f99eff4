// Package crdschema validates objects against the schema of their
// CustomResourceDefinition as the Kubernetes API server does on a create
// or a server-side apply, with the API server's own code
// (k8s.io/apiextensions-apiserver): structural defaulting, pruning (an
// unknown field is an error, as kubectl's strict field validation makes
// it), metadata (a namespaced kind needs a namespace, a cluster-scoped one
// has none), the OpenAPI v3 schema (required fields, types, enums,
// formats, patterns, bounds), x-kubernetes-list-type invariants and the
// x-kubernetes-validations CEL rules. An update is validated with
// ratcheting, as the API server does: a field left as it was may stay
// invalid.
//
// What it does not do: admission webhooks and ValidatingAdmissionPolicies
// (no CRD holds them), conversion between versions (an object is
// validated at its own version, which must be served), and field
// ownership (an applied object is merged over the live one as a JSON
// merge patch, which is server-side apply's result for maps and atomic
// lists).
//
//	s := crdschema.New()
//	if err := s.Add(crd); err != nil { ... }        // a decoded CRD
//	errs, err := s.Validate(ctx, obj, nil)          // nil: a create
//	// errs: ["spec.providerConfigRef.kind: Required value"]
package crdschema
