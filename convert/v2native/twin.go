package v2native

import (
	"fmt"
	"slices"
	"strings"

	"github.com/pkg/errors"
	yaml "go.yaml.in/yaml/v3"

	"github.com/xpmigrate/xpmigrate/convert"
	"github.com/xpmigrate/xpmigrate/convert/yamledit"
	"github.com/xpmigrate/xpmigrate/internal/xp"
)

// A TwinType is the legacy XR type of an example (from its XRD) that
// XRTwin writes a v2-native twin of.
type TwinType struct {
	// Group, Kind and Plural are the XRD's spec.group, spec.names.kind
	// and spec.names.plural.
	Group, Kind, Plural string
	// Version is the version the twin is written at (the XRD's
	// referenceable version); empty keeps the example's.
	Version string
}

// Fields of a claim or legacy XR's spec that Crossplane v2 reads from
// spec.crossplane of a modern XR (in this order there).
var twinMachinery = []string{"compositionRef", "compositionSelector", "compositionRevisionSelector", "compositionUpdatePolicy"}

// Fields of a claim or legacy XR's spec that a v2 XR has no place for.
var (
	// twinBookkeeping are written by Crossplane, not the user: dropped
	// (C473).
	twinBookkeeping = []string{"claimRef", "resourceRef", "resourceRefs", "compositeDeletePolicy"}
	// twinBehaviour change what the XR does: dropped with a warning
	// (C474).
	twinBehaviour = map[string]string{
		"compositionRevisionRef":     "it names a revision of the legacy Composition; the v2 Composition has revisions of its own (select one with spec.crossplane.compositionRevisionSelector if the XR must be pinned)",
		"environmentConfigRefs":      "Crossplane v2 has no native environment; the Composition's environment-configs step selects EnvironmentConfigs",
		"publishConnectionDetailsTo": "Crossplane v2 has no External Secret Stores",
	}
)

// XRTwin writes the v2-native twin of one example document, a claim or
// a legacy XR of type t: the same object as an XR of the v2 type
// (convert.Options.XRNaming), in the claim's namespace (a legacy XR's claimRef
// namespace), with its spec copied and the composition machinery moved to
// spec.crossplane (compositionRef naming the v2 Composition). Edits are
// node-level: comments and key order stay. Diagnostics carry lines of doc
// and Document 0.
func XRTwin(doc []byte, t TwinType, o convert.Options) ([]byte, []convert.Diagnostic, error) {
	d, err := yamledit.Parse(doc)
	if err != nil {
		return nil, nil, errors.Wrap(err, "cannot parse the example")
	}
	if d == nil || !yamledit.IsMap(d.Top()) {
		return nil, nil, errors.New("cannot write a twin of an example that is not an object")
	}
	top := d.Top()
	name, _ := yamledit.Str(yamledit.Get(yamledit.Get(top, "metadata"), "name"))
	var diags []convert.Diagnostic
	add := func(code convert.Code, n *yaml.Node, path, format string, args ...any) {
		info, _ := convert.Lookup(code)
		dg := convert.Diagnostic{Code: code, Severity: info.Severity, Document: 0, Composition: name, Path: path, Message: fmt.Sprintf(format, args...)}
		if n != nil {
			dg.Line = n.Line
		}
		diags = append(diags, dg)
	}

	apiVersion, _ := yamledit.Str(yamledit.Get(top, "apiVersion"))
	kind, _ := yamledit.Str(yamledit.Get(top, "kind"))
	version := t.Version
	if version == "" {
		_, version = xp.SplitAPIVersion(apiVersion)
	}
	newAV, newKind := XRType(t.Group+"/"+version, t.Kind, newGroup(o))
	setScalar(top, "apiVersion", newAV)
	setScalar(top, "kind", newKind)
	claim := kind != t.Kind

	spec := yamledit.Resolve(yamledit.Get(top, "spec"))
	meta := yamledit.Resolve(yamledit.Get(top, "metadata"))
	claimNS, _ := yamledit.Str(yamledit.Get(meta, "namespace"))
	if o.XRScope == convert.XRScopeCluster && yamledit.IsMap(meta) {
		// A cluster-scoped XR has no namespace.
		if k := yamledit.Key(meta, "namespace"); k != nil {
			yamledit.Delete(meta, "namespace")
			add("C473", k, "metadata.namespace", "metadata.namespace dropped from the v2 XR: --xr-scope cluster makes it cluster-scoped")
		}
	}
	if !claim && o.XRScope != convert.XRScopeCluster && yamledit.IsMap(meta) && !yamledit.Has(meta, "namespace") {
		// A legacy XR's claim namespace is where its namespaced twin goes.
		if ns, _ := yamledit.Str(yamledit.Get(yamledit.Get(spec, "claimRef"), "namespace")); ns != "" {
			yamledit.Insert(meta, yamledit.Index(meta, "name")+1, "namespace", yamledit.NewString(ns))
		}
	}
	if yamledit.IsMap(meta) {
		dropClaimLabels(meta)
	}

	var moved, dropped []string
	if yamledit.IsMap(spec) {
		cp := yamledit.NewMap()
		at := -1
		var keep []*yaml.Node
		for i := 0; i+1 < len(spec.Content); i += 2 {
			k, v := spec.Content[i], spec.Content[i+1]
			switch {
			case slices.Contains(twinMachinery, k.Value):
				if at < 0 {
					at = len(keep) / 2
				}
				if k.Value == "compositionRef" {
					renameCompositionRef(v, t, o)
				}
				cp.Content = append(cp.Content, k, v)
				moved = append(moved, k.Value)
			case slices.Contains(twinBookkeeping, k.Value):
				dropped = append(dropped, k.Value)
			case twinBehaviour[k.Value] != "":
				add("C474", k, "spec."+k.Value, "spec.%s dropped from the v2 XR: %s", k.Value, twinBehaviour[k.Value])
			case k.Value == "writeConnectionSecretToRef":
				keep = append(keep, k, v)
				twinSecretRef(k, yamledit.Resolve(v), claim, claimNS, o, add)
			default:
				keep = append(keep, k, v)
			}
		}
		if len(cp.Content) > 0 {
			c := make([]*yaml.Node, 0, len(keep)+2)
			c = append(c, keep[:2*at]...)
			c = append(c, yamledit.NewKey("crossplane"), cp)
			c = append(c, keep[2*at:]...)
			keep = c
		}
		spec.Content = keep
	}
	what := "machinery moved to spec.crossplane: none"
	if len(moved) > 0 {
		what = "machinery moved to spec.crossplane: " + strings.Join(moved, ", ")
	}
	if len(dropped) > 0 {
		add("C473", yamledit.Key(top, "spec"), "spec", "dropped from the v2 XR, which Crossplane fills in or has no use for: spec.%s", strings.Join(dropped, ", spec."))
	}
	from := "legacy XR"
	if claim {
		from = "claim"
	}
	add("C471", yamledit.Key(top, "kind"), "kind", "v2 XR twin of the %s %s %q: %s %s; %s", from, kind, name, newAV, newKind, what)
	out, err := d.Encode()
	if err != nil {
		return nil, nil, errors.Wrap(err, "cannot write the twin")
	}
	return out, diags, nil
}

// twinSecretRef keeps a claim's or legacy XR's
// spec.writeConnectionSecretToRef (ref, at key k) in the shape the v2
// XRD declares it (C416), so the Secret keeps its name: a Namespaced XR's
// has no namespace (its Secret is in the XR's namespace); a Cluster XR's
// needs one, the claim's namespace when a claim's ref names none.
func twinSecretRef(k, ref *yaml.Node, claim bool, claimNS string, o convert.Options, add func(convert.Code, *yaml.Node, string, string, ...any)) {
	const why = "the v2 XRD declares it (C416) and function-patch-and-transform (≥ v0.10.0) names the XR's connection Secret by it"
	switch {
	case !yamledit.IsMap(ref):
		add("C472", k, "spec.writeConnectionSecretToRef", "spec.writeConnectionSecretToRef kept as it is: %s", why)
	case o.XRScope != convert.XRScopeCluster && yamledit.Delete(ref, "namespace"):
		add("C472", k, "spec.writeConnectionSecretToRef", "spec.writeConnectionSecretToRef kept without its namespace: a namespaced XR's connection Secret is in its own namespace; %s", why)
	case o.XRScope == convert.XRScopeCluster && claim && claimNS != "" && !yamledit.Has(ref, "namespace"):
		yamledit.Set(ref, "namespace", yamledit.NewString(claimNS))
		add("C472", k, "spec.writeConnectionSecretToRef", "spec.writeConnectionSecretToRef kept, in namespace %s, the claim's: a cluster-scoped XR's connection Secret needs a namespace; %s", claimNS, why)
	default:
		add("C472", k, "spec.writeConnectionSecretToRef", "spec.writeConnectionSecretToRef kept: %s", why)
	}
}

// renameCompositionRef points a compositionRef at the v2 Composition.
func renameCompositionRef(ref *yaml.Node, t TwinType, o convert.Options) {
	n := yamledit.Get(ref, "name")
	old, ok := yamledit.Str(n)
	if !ok || old == "" {
		return
	}
	newGroup := t.Group
	if o.XRNaming == convert.XRNamingNewGroup && o.XRGroup != "" {
		newGroup = o.XRGroup
	}
	n.Value = CompositionName(old, t.Plural, Plural(t.Plural, t.Kind), t.Group, newGroup)
}

// dropClaimLabels removes the labels Crossplane sets on a legacy XR for
// its claim and composite: the twin is its own XR.
func dropClaimLabels(meta *yaml.Node) {
	labels := yamledit.Resolve(yamledit.Get(meta, "labels"))
	if !yamledit.IsMap(labels) {
		return
	}
	for _, k := range yamledit.Keys(labels) {
		if strings.HasPrefix(k, xp.LabelClaimPrefix) || k == xp.LabelComposite {
			yamledit.Delete(labels, k)
		}
	}
	if len(labels.Content) == 0 {
		yamledit.Delete(meta, "labels")
	}
}
