// Package legacy renders a `mode: Resources` Composition as Crossplane's
// native composer did: one reconcile of one composite resource (XR), as
// Crossplane v1.20.11's PTComposer and composite reconciler ran it, plus the
// composition environment of Crossplane v1.17.6 (--enable-environment-configs).
// Everything happens in memory; the cluster is a list of observed objects.
//
// One reconcile, in the order Crossplane runs it (docs/semantics/legacy.md#one-reconcile):
//
//  1. refuse an invalid Composition (reconcile-time logical validation);
//  2. configure the XR: the crossplane.io/composite label, the
//     compositeTypeRef check, spec.writeConnectionSecretToRef;
//  3. select and fetch the environment (v1.17 only, when enabled);
//  4. expand PatchSets, associate templates with the objects named in
//     spec.resourceRefs (by name when every template is named, else by
//     position), garbage-collect named orphans, run the environment patches;
//  5. render every template in order: base, From patches (and the
//     environment patches of the template), metadata, name; a failure skips
//     that template with a Warning event;
//  6. persist spec.resourceRefs, apply every rendered template (create, or
//     JSON merge patch after the apply-time merge), observe it
//     (ToComposite patches, connection details, readiness), persist the XR;
//  7. publish connection details and set the Synced and Ready conditions.
//
// A fatal error stops the reconcile where Crossplane stopped it. Compose
// then returns the error with an Outcome that shows what the cluster was
// left with: objects applied before the error stay applied, and the XR
// carries Synced=False with the error text.
//
// The cluster model is offline (docs/semantics/legacy.md#the-offline-cluster): a created object is the
// desired object without status; a patched object is the observed object
// with the desired object (without status) merged onto it by RFC 7386, and
// keeps its observed status. No server defaults, no admission, no schema
// pruning. A namespaced composed resource's spec.resourceRefs entry keeps
// its namespace, as Crossplane v1.20.11 writes it.
//
// A minimal use:
//
//	c, err := native.Decode(compositionYAML)
//	if err != nil {
//		return err
//	}
//	c.Default() // Crossplane only ever sees API-server-defaulted Compositions
//	out, err := legacy.Compose(xr, c, observed, legacy.Options{})
//	if out == nil {
//		return err // the inputs could not be composed at all
//	}
//	// err, if any, is the reconcile's fatal error; out is what it left.
//
// Generated names are `<generateName><5 characters>` as the API server makes
// them. Crossplane picks the characters at random; here
// Options.NameGenerator picks them, and by default they are derived from a
// hash of the XR's uid and name, the template and the attempt, so the same
// inputs always give the same names.
package legacy
