// Package cluster reads, and only reads, what a live Crossplane cluster
// holds for verifying legacy Compositions against it: Compositions and
// their CompositionRevisions, the composite resources (XRs) that run a
// Composition, their claims, each XR's composed resources (spec.resourceRefs),
// EnvironmentConfigs, and digests of connection Secrets.
//
// It is an input source for render/verify: it knows Crossplane's object
// shapes (apiextensions.crossplane.io/v1) but no render or verify type, and
// hands out unstructured objects as the API server returns them.
//
// Every request is a get or a list (never a watch, a write or a dry-run
// write), so a view-only role is enough. A request the API server forbids is
// recorded as a missing Permission (verb, resource, namespace) and reading
// goes on with what can be read. Lists are paginated (limit/continue); the
// XRs of a Composition are streamed to a callback in list order while at
// most Options.Concurrency of them are being fetched, so memory is bounded
// by the page size and the concurrency, not by the number of XRs. Secret
// values are never kept: a Reader hashes them with a per-Reader HMAC key
// (Digest), so they can be compared but not recovered.
//
//	cfg, err := cluster.LoadConfig(cluster.Kubeconfig{Path: path, Context: ctxName})
//	r, err := cluster.NewReader(cfg, cluster.Options{Namespace: ns})
//	comps, err := r.Compositions(ctx)
//	err = r.Composites(ctx, comps[0], func(c *cluster.Composite) error {
//		// c.XR, c.Claim, c.Composed, c.Revision ...
//		return nil
//	})
//	for _, p := range r.Missing() {
//		fmt.Println("missing permission:", p)
//	}
package cluster
