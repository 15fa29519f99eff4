package v2native

import (
	"maps"
	"slices"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/xpmigrate/xpmigrate/convert"
	"github.com/xpmigrate/xpmigrate/convert/xrpath"
	"github.com/xpmigrate/xpmigrate/convert/yamledit"
	"github.com/xpmigrate/xpmigrate/internal/v2map"
	"github.com/xpmigrate/xpmigrate/internal/xp"
)

// scopeOf is the v2 XRD scope of convert.Options.XRScope.
func scopeOf(o convert.Options) string {
	if o.XRScope == convert.XRScopeCluster {
		return scopeCluster
	}
	return scopeNamespaced
}

// newGroup is the group the v2 XR types move to by convert.Options.XRNaming
// (new-group), or "" when they keep theirs (XRNames).
func newGroup(o convert.Options) string {
	if o.XRNaming == convert.XRNamingNewGroup {
		return o.XRGroup
	}
	return ""
}

// A v2Plan is the new Composition for the v2 XR type, worked out before
// the pipeline is assembled (while the templates and patch sets are still
// in place).
type v2Plan struct {
	c       *composition
	name    string // of the new Composition
	mapping v2map.Mapping
	// xrd and newXRD are the names of the legacy XRD of the type and of
	// the v2 XRD it becomes ("" when no XRD of the type is known): the
	// label crossplane.io/xrd that named the one names the other.
	xrd, newXRD string
}

// effectivePatches returns a template's patches with the patches of the
// Composition's patch sets they name in their place.
func (c *composition) effectivePatches(patches *yaml.Node, path string) []convert.PatchRef {
	return convert.WithPatchSets(yamledit.Get(yamledit.Get(c.Node(), "spec"), "patchSets"), "spec.patchSets", patches, path)
}

// v2PlanFor works out the new Composition's name and type and the
// v2-mapping of a Resources-mode Composition, edits its templates (the
// template helper) and removes the patches v2Patch marked.
func (c *composition) v2PlanFor(spec, res *yaml.Node) *v2Plan {
	p := c.v2TypePlan(spec)
	p.mapping.Resources = c.v2Templates(spec, res, "spec.resources", c.effectivePatches)
	c.v2DropPatches(spec, res)
	return p
}

// v2TypePlan works out the new Composition's name and type, and the XR
// part of the v2-mapping.
func (c *composition) v2TypePlan(spec *yaml.Node) *v2Plan {
	c.scope = scopeOf(c.o) // For the templates (v2Template).
	ref := yamledit.Get(spec, "compositeTypeRef")
	av, _ := yamledit.Str(yamledit.Get(ref, "apiVersion"))
	kind, _ := yamledit.Str(yamledit.Get(ref, "kind"))
	group, _ := xp.SplitAPIVersion(av)
	newAV, newKind := XRType(av, kind, newGroup(c.o))
	newGroup, _ := xp.SplitAPIVersion(newAV)

	plural, ok := c.xrdPlural(group, kind)
	newPlural := ""
	if ok {
		newPlural = Plural(plural, kind)
	} else {
		c.Warnf("C422", ref, "spec.compositeTypeRef", "no CompositeResourceDefinition of %s %s in the input or --xrd: the v2 XR type %s %s is derived from the kind alone; check it against the v2 XRD (and the Composition name, which cannot follow the XRD's plural)", av, kind, newAV, newKind)
	}
	p := &v2Plan{c: c, name: CompositionName(c.Name(), plural, newPlural, group, newGroup)}
	if ok {
		p.xrd, p.newXRD = plural+"."+group, newPlural+"."+newGroup
	}
	m := &p.mapping
	m.From = v2map.Type{APIVersion: av, Kind: kind}
	m.To = v2map.Type{APIVersion: newAV, Kind: newKind}
	m.Scope = scopeOf(c.o)
	m.XR = c.v2XROps(newAV, newKind)
	return p
}

// v2Templates edits the templates res (at path) for the v2 XR with the
// template helper, and returns their ops: its edits, and the removal of
// the Secret namespace a dropped patch wrote (C429). effective returns a
// template's patches with its patch sets' in their place.
func (c *composition) v2Templates(spec, res *yaml.Node, path string, effective func(patches *yaml.Node, path string) []convert.PatchRef) []v2map.Resource {
	var out []v2map.Resource
	for i, t := range res.Content {
		name, _ := yamledit.Str(yamledit.Get(t, "name"))
		ops := c.v2Template(t, name)
		for _, pp := range effective(yamledit.Get(t, "patches"), idx(path, i)+".patches") {
			if c.drop[pp.Node] {
				ops = append(ops, v2map.Op{Code: "C429", Op: v2map.OpDelete, Path: "spec.writeConnectionSecretToRef.namespace"})
				ref := yamledit.Resolve(yamledit.Get(yamledit.Get(yamledit.Get(t, "base"), "spec"), "writeConnectionSecretToRef"))
				if yamledit.IsMap(ref) {
					// A base that sets the namespace itself (one that is
					// no managed resource, whose namespace C443 removes)
					// loses it too: the op says what the template renders.
					yamledit.Delete(ref, "namespace")
				}
				if ref == nil {
					// Only patches make the reference: without the removed
					// one, none may (the name's source missing).
					ops = append(ops, v2map.Op{Code: "C429", Op: v2map.OpPrune, Path: "spec.writeConnectionSecretToRef"})
				}
				break
			}
		}
		if len(ops) > 0 {
			out = append(out, v2map.Resource{Name: name, Ops: ops})
		}
	}
	return out
}

// v2PipelineMode makes a Composition already in Pipeline mode the
// Composition of the v2 XR type: the patches of its patch-and-transform
// steps are rewritten as v2Patch does, its templates edited, and v2Apply
// gives it the new name and type. Steps of other functions are kept as
// they are (C432).
func (c *composition) v2PipelineMode(spec *yaml.Node) *v2Plan {
	steps := yamledit.Resolve(yamledit.Get(spec, "pipeline"))
	if !yamledit.IsSeq(steps) {
		return nil // Output validation reports it.
	}
	p := c.v2TypePlan(spec)
	pts := convert.PTSteps(steps)
	for i, s := range steps.Content {
		in := yamledit.Resolve(yamledit.Get(s, "input"))
		if av, _ := yamledit.Str(yamledit.Get(in, "apiVersion")); av == convert.ECInputAPIVersion {
			c.v2Selectors(yamledit.Get(yamledit.Get(in, "spec"), "environmentConfigs"), idx("spec.pipeline", i)+".input.spec.environmentConfigs")
			continue
		}
		if !slices.Contains(pts, i) {
			if m := readsMachinery(in); m != "" {
				fn, _ := yamledit.Str(yamledit.Get(yamledit.Get(s, "functionRef"), "name"))
				c.Warnf("C432", s, idx("spec.pipeline", i), "the step of function %q is kept as it is, and its input mentions %s: what it reads of the claim or of the XR's machinery is not rewritten for the v2 XR; check it", fn, m)
			}
			continue
		}
		at := idx("spec.pipeline", i) + ".input"
		n := c
		eachPatch := func(seq *yaml.Node, path string, loc convert.Location) {
			seq = yamledit.Resolve(seq)
			if !yamledit.IsSeq(seq) {
				return
			}
			for j, pn := range seq.Content {
				pm := yamledit.Resolve(pn)
				if !yamledit.IsMap(pm) {
					continue
				}
				typ, ok := yamledit.Str(yamledit.Get(pm, "type"))
				if !ok || typ == "" {
					typ = fromComposite
				}
				n.v2Patch(pm, idx(path, j), typ, loc)
			}
		}
		if sets := yamledit.Resolve(yamledit.Get(in, "patchSets")); yamledit.IsSeq(sets) {
			for j, ps := range sets.Content {
				eachPatch(yamledit.Get(ps, "patches"), idx(at+".patchSets", j)+".patches", convert.LocPatchSet)
			}
		}
		eachPatch(yamledit.Get(yamledit.Get(in, "environment"), "patches"), at+".environment.patches", convert.LocEnvironment)
		res := yamledit.Resolve(yamledit.Get(in, "resources"))
		if !yamledit.IsSeq(res) {
			continue
		}
		for j, t := range res.Content {
			eachPatch(yamledit.Get(t, "patches"), idx(at+".resources", j)+".patches", convert.LocResource)
		}
		effective := func(patches *yaml.Node, path string) []convert.PatchRef { return inputPatches(in, patches, path) }
		p.mapping.Resources = append(p.mapping.Resources, c.v2Templates(in, res, at+".resources", effective)...)
		c.v2DropPatches(in, res)
	}
	c.v2Apply(spec, p)
	return p
}

// inputPatches returns a template's patches with those of the
// patch-and-transform input in's patch sets in their place.
func inputPatches(in, patches *yaml.Node, path string) []convert.PatchRef {
	return convert.WithPatchSets(yamledit.Get(in, "patchSets"), "", patches, path)
}

// v2XROps are the edits that turn a legacy XR (a claim's, or one created
// directly) into its v2 twin: the new type, the claim's name and namespace
// as the XR's own, machinery under spec.crossplane, no claim and no native
// connection Secret.
func (c *composition) v2XROps(apiVersion, kind string) []v2map.Op {
	ops := []v2map.Op{
		{Code: "C420", Op: v2map.OpSet, Path: "apiVersion", Value: apiVersion},
		{Code: "C420", Op: v2map.OpSet, Path: "kind", Value: kind},
	}
	if scopeOf(c.o) == "Namespaced" {
		ops = append(ops, v2map.Op{Code: "C426", Op: v2map.OpMove, Path: "spec.claimRef.namespace", To: "metadata.namespace"})
	}
	ops = append(ops,
		v2map.Op{Code: "C427", Op: v2map.OpMove, Path: "spec.claimRef.name", To: "metadata.name"},
		v2map.Op{Code: "C428", Op: v2map.OpDelete, Path: "spec.claimRef"},
		v2map.Op{Code: "C427", Op: v2map.OpDelete, Path: "metadata.labels[" + xp.LabelClaimName + "]"},
		v2map.Op{Code: "C426", Op: v2map.OpDelete, Path: "metadata.labels[" + xp.LabelClaimNamespace + "]"},
	)
	for _, f := range xrpath.MachineryFields {
		ops = append(ops, v2map.Op{Code: "C421", Op: v2map.OpMove, Path: "spec." + f, To: "spec.crossplane." + f})
	}
	if scopeOf(c.o) == "Namespaced" {
		// The v2 XRD declares the reference (C416), a Namespaced XR's
		// without a namespace: its Secret is in the XR's namespace.
		ops = append(ops, v2map.Op{Code: "C424", Op: v2map.OpDelete, Path: "spec.writeConnectionSecretToRef.namespace"})
	}
	return append(ops, v2map.Op{Code: "C424", Op: v2map.OpDelete, Path: "spec.publishConnectionDetailsTo"})
}

// alreadyV2 reports whether the Composition is already for a v2-native XR
// type: it carries the v2-mapping annotation of an earlier conversion, or
// its compositeTypeRef names a type an apiextensions.crossplane.io/v2 XRD
// defines. Converting it again would rename it and its type once more.
func (c *composition) alreadyV2(spec *yaml.Node) bool {
	md := yamledit.Get(c.Node(), "metadata")
	if yamledit.Get(yamledit.Get(md, "annotations"), v2map.Annotation) != nil {
		return true
	}
	ref := yamledit.Get(spec, "compositeTypeRef")
	av, _ := yamledit.Str(yamledit.Get(ref, "apiVersion"))
	kind, _ := yamledit.Str(yamledit.Get(ref, "kind"))
	group, _ := xp.SplitAPIVersion(av)
	for _, x := range c.XRDs() {
		if x["kind"] != "CompositeResourceDefinition" || x["apiVersion"] != xp.GroupAPIExtensions+"/v2" {
			continue
		}
		xs, _ := x["spec"].(map[string]any)
		names, _ := xs["names"].(map[string]any)
		if xs["group"] == group && names["kind"] == kind {
			return true
		}
	}
	return false
}

// xrdPlural returns the plural of the XRD of group and kind, from the
// input stream or convert.Options.XRDs.
func (c *composition) xrdPlural(group, kind string) (string, bool) {
	for _, x := range c.XRDs() {
		if x["kind"] != "CompositeResourceDefinition" {
			continue
		}
		spec, _ := x["spec"].(map[string]any)
		names, _ := spec["names"].(map[string]any)
		if g, _ := spec["group"].(string); g != group {
			continue
		}
		if k, _ := names["kind"].(string); k != kind {
			continue
		}
		if p, _ := names["plural"].(string); p != "" {
			return p, true
		}
	}
	return "", false
}

// v2Apply makes the assembled Pipeline Composition the Composition of the
// v2 XR type: new name and compositeTypeRef, no native connection Secret
// (function-patch-and-transform composes it), and the v2-mapping
// annotation.
func (c *composition) v2Apply(spec *yaml.Node, p *v2Plan) {
	yamledit.Set(c.Metadata(), "name", yamledit.NewString(p.name))
	c.v2XRDLabel(p)
	ref := yamledit.Resolve(yamledit.Get(spec, "compositeTypeRef"))
	if yamledit.IsMap(ref) {
		yamledit.Set(ref, "apiVersion", yamledit.NewString(p.mapping.To.APIVersion))
		yamledit.Set(ref, "kind", yamledit.NewString(p.mapping.To.Kind))
	}
	c.Infof("C420", ref, "spec.compositeTypeRef", "new Composition %s for the v2 XR type %s %s (%s): compositeTypeRef cannot change on a live Composition, and both Compositions exist while XRs move; apply it next to %s", p.name, p.mapping.To.APIVersion, p.mapping.To.Kind, p.mapping.Scope, c.Name())

	ns, hasNS := "", false
	if k := yamledit.Key(spec, "writeConnectionSecretsToNamespace"); k != nil {
		ns, hasNS = yamledit.Str(yamledit.Get(spec, "writeConnectionSecretsToNamespace"))
		yamledit.Delete(spec, "writeConnectionSecretsToNamespace")
		c.Infof("C423", k, "spec.writeConnectionSecretsToNamespace", "removed: v2 XRs have no native connection Secret (see C424)")
	}
	c.v2ConnectionSecret(spec, ns, hasNS)

	enc, err := p.mapping.Encode()
	if err != nil {
		c.Errorf("C190", c.Node(), "metadata.annotations", "%v", err)
		return
	}
	an := c.Annotations()
	v := yamledit.NewString(enc)
	v.Style = yaml.SingleQuotedStyle
	yamledit.Set(an, v2map.Annotation, v)
}

// xrdLabel is the label by which Compositions name the XRD of their type
// (a convention of Configurations and of compositionSelectors; Crossplane
// itself neither sets nor reads it on Compositions).
const xrdLabel = "crossplane.io/xrd"

// v2XRDLabel makes the label crossplane.io/xrd of the new Composition name
// the v2 XRD: a label that named the legacy XRD of its type would name an
// XRD the v2 Composition does not serve. A label whose XRD is unknown
// goes. Other values are kept.
func (c *composition) v2XRDLabel(p *v2Plan) {
	labels := yamledit.Resolve(yamledit.Get(c.Metadata(), "labels"))
	v, ok := yamledit.Str(yamledit.Get(labels, xrdLabel))
	if !ok {
		return
	}
	k := yamledit.Key(labels, xrdLabel)
	switch {
	case p.newXRD != "" && v == p.xrd && p.newXRD != p.xrd:
		yamledit.Set(labels, xrdLabel, yamledit.NewString(p.newXRD))
		c.Infof("C420", k, "metadata.labels["+xrdLabel+"]", "the label %s names the v2 XRD %s, which defines the new Composition's type (it named the legacy XRD %s)", xrdLabel, p.newXRD, v)
	case p.newXRD == "":
		yamledit.Delete(labels, xrdLabel)
		c.Infof("C420", k, "metadata.labels["+xrdLabel+"]", "removed the label %s: %s, the legacy XRD it named, does not define the new Composition's type, and no XRD of the type is known to name the v2 one", xrdLabel, v)
	}
}

// expectedLabels returns labels as v2XRDLabel changes them.
func (p *v2Plan) expectedLabels(labels map[string]any) map[string]any {
	v, ok := labels[xrdLabel].(string)
	if !ok {
		return labels
	}
	out := maps.Clone(labels)
	switch {
	case p.newXRD != "" && v == p.xrd:
		out[xrdLabel] = p.newXRD
	case p.newXRD == "":
		delete(out, xrdLabel)
	}
	return out
}

// connectionSecretFormat names the connection Secret the way function-patch-and-transform
// names it for a v2 XR without spec.writeConnectionSecretToRef and without
// a name in its input (v0.10.x getBaseConnectionSecretRef).
const connectionSecretFormat = "%s-connection"

// v2ConnectionSecret moves the XR's connection details to the Secret
// function-patch-and-transform (≥ v0.10.0) composes for a v2 XR: its input's
// writeConnectionSecretToRef names it <XR name>-connection, in the XR's
// namespace (namespaced XRs) or in the namespace the Composition wrote
// connection Secrets to (cluster XRs). The XR's own
// spec.writeConnectionSecretToRef, where its XRD schema declares one, takes
// priority over the input.
func (c *composition) v2ConnectionSecret(spec *yaml.Node, ns string, hasNS bool) {
	steps := yamledit.Resolve(yamledit.Get(spec, "pipeline"))
	pts := convert.PTSteps(steps)
	if len(pts) == 0 {
		return
	}
	in := yamledit.Resolve(yamledit.Get(steps.Content[pts[len(pts)-1]], "input"))
	var details *yaml.Node
	if res := yamledit.Resolve(yamledit.Get(in, "resources")); yamledit.IsSeq(res) {
		for _, t := range res.Content {
			if cd := yamledit.Resolve(yamledit.Get(t, "connectionDetails")); yamledit.IsSeq(cd) && len(cd.Content) > 0 {
				details = cd
				break
			}
		}
	}
	if details == nil || yamledit.Get(in, "writeConnectionSecretToRef") != nil {
		return
	}
	ref := yamledit.NewMap()
	where := "in the XR's namespace"
	if c.o.XRScope == convert.XRScopeCluster {
		if hasNS && ns != "" {
			yamledit.Set(ref, "namespace", yamledit.NewString(ns))
			where = "in namespace " + ns + ", the Composition's writeConnectionSecretsToNamespace"
		} else {
			where = "without a namespace"
			c.Warnf("C425", details, "spec.resources", "a cluster-scoped v2 XR has no namespace, and the Composition names none (writeConnectionSecretsToNamespace): the connection Secret function-patch-and-transform composes has no namespace and cannot be applied; set namespace in the step input's writeConnectionSecretToRef")
		}
	}
	combine := yamledit.NewMap()
	v := yamledit.NewMap()
	yamledit.Set(v, "fromFieldPath", yamledit.NewString("metadata.name"))
	vars := yamledit.NewSeq()
	vars.Content = append(vars.Content, v)
	yamledit.Set(combine, "variables", vars)
	yamledit.Set(combine, "strategy", yamledit.NewString("string"))
	str := yamledit.NewMap()
	f := yamledit.NewString(connectionSecretFormat)
	f.Style = yaml.SingleQuotedStyle
	yamledit.Set(str, "fmt", f)
	yamledit.Set(combine, "string", str)
	patch := yamledit.NewMap()
	yamledit.Set(patch, "type", yamledit.NewString(combineFromComp))
	yamledit.Set(patch, "combine", combine)
	yamledit.Set(patch, "toFieldPath", yamledit.NewString("name"))
	patches := yamledit.NewSeq()
	patches.Content = append(patches.Content, patch)
	// The input's patches apply on top of the XR's own reference, which
	// function-patch-and-transform reads first: the XR's fields, copied
	// back last, win (a missing one is skipped: Optional).
	own := []string{"name"}
	if c.o.XRScope == convert.XRScopeCluster {
		own = append(own, "namespace")
	}
	for _, f := range own {
		p := yamledit.NewMap()
		yamledit.Set(p, "type", yamledit.NewString(fromComposite))
		yamledit.Set(p, "fromFieldPath", yamledit.NewString("spec.writeConnectionSecretToRef."+f))
		yamledit.Set(p, "toFieldPath", yamledit.NewString(f))
		patches.Content = append(patches.Content, p)
	}
	yamledit.Set(ref, "patches", patches)
	yamledit.Set(in, "writeConnectionSecretToRef", ref)
	c.Infof("C424", details, "spec.resources", "the XR's connection details now go to the Secret function-patch-and-transform (≥ v0.10.0) composes for a v2 XR: named by the XR's own spec.writeConnectionSecretToRef, which the v2 XRD declares (C416), else <XR name>-connection (%s), by the step input's writeConnectionSecretToRef. The Secret is a composed resource of the XR, in the XR's namespace; a claim's Secret keeps its name (the twin keeps the claim's reference, C472), readers of a Secret named after the legacy XR's uid must read the new one", where)
}

// expected returns the metadata and spec of the legacy Composition as the
// v2 plan changes them (the round-trip check, C192): the new name and
// type, the v2-mapping annotation, no writeConnectionSecretsToNamespace.
// The inputs are not changed.
func (p *v2Plan) expected(md, spec map[string]any) (map[string]any, map[string]any) {
	m := maps.Clone(md)
	if m == nil {
		m = map[string]any{}
	}
	m["name"] = p.name
	an, _ := m["annotations"].(map[string]any)
	an = maps.Clone(an)
	if an == nil {
		an = map[string]any{}
	}
	if enc, err := p.mapping.Encode(); err == nil {
		an[v2map.Annotation] = enc
	}
	m["annotations"] = an
	if labels, ok := m["labels"].(map[string]any); ok {
		m["labels"] = p.expectedLabels(labels)
	}
	s := maps.Clone(spec)
	if s == nil {
		return m, s
	}
	s["compositeTypeRef"] = map[string]any{"apiVersion": p.mapping.To.APIVersion, "kind": p.mapping.To.Kind}
	delete(s, "writeConnectionSecretsToNamespace")
	return m, s
}

// machineryWords are what an input of another function would mention to
// read the claim or the XR's machinery.
var machineryWords = append([]string{"claimRef", xp.LabelClaimPrefix, "writeConnectionSecretToRef", "metadata.uid"}, xrpath.MachineryFields...)

// readsMachinery returns the first machinery word that a step input
// mentions anywhere (in a key or a string, templates included), or "";
// "" for a step without input (function-auto-ready takes none).
func readsMachinery(in *yaml.Node) string {
	if in == nil {
		return ""
	}
	j, err := yamledit.JSON(in)
	if err != nil {
		return ""
	}
	for _, w := range machineryWords {
		if strings.Contains(string(j), w) {
			return w
		}
	}
	return ""
}
