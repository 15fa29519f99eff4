package v2native

import (
	"fmt"
	"slices"
	"strings"

	"github.com/crossplane/crossplane-runtime/v2/pkg/fieldpath"
	yaml "go.yaml.in/yaml/v3"

	"github.com/xpmigrate/xpmigrate/convert"
	"github.com/xpmigrate/xpmigrate/convert/xrpath"
	"github.com/xpmigrate/xpmigrate/convert/yamledit"
	"github.com/xpmigrate/xpmigrate/internal/jsonobj"
	"github.com/xpmigrate/xpmigrate/internal/v2map"
	"github.com/xpmigrate/xpmigrate/internal/xp"
)

// provider-kubernetes' Object: the v1 types and the namespaced twin.
const (
	objectGroup     = "kubernetes.crossplane.io"
	objectKind      = "Object"
	objectTwinGroup = "kubernetes.m.crossplane.io"
	// objectTwinVersion is the only version provider-kubernetes serves
	// its namespaced Object at.
	objectTwinVersion = "v1alpha1"
)

// objectManagementPolicy maps the managementPolicy of a
// kubernetes.crossplane.io/v1alpha1 Object to the managementPolicies of
// later versions (provider-kubernetes' own conversion).
var objectManagementPolicy = map[string][]string{
	"Default":             {"*"},
	"ObserveCreateUpdate": {"Observe", "Create", "Update"},
	"ObserveDelete":       {"Observe", "Delete"},
	"Observe":             {"Observe"},
}

// A v2Tmpl is one template being converted for a v2-native XR.
type v2Tmpl struct {
	c     *composition
	res   *yaml.Node // the template
	base  *yaml.Node // its base
	path  string     // the template's path in the Composition
	name  string
	ops   []v2map.Op
	twin  providerType // the namespaced twin's CRD, when known
	crd   bool         // twin comes from convert.Options.ProviderCRDs
	kind  string
	group string
}

// v2Template converts the template res, named name, for the Composition's
// v2-native XR, editing its base (and its patches) in place, and returns
// the edits of its rendered output, as v2map ops that state the same rules
// as the edits of the base. A managed resource of a namespaced XR becomes
// its namespaced twin (C440, C445), with a providerConfigRef kind (C441),
// management policies instead of a deletion policy (C442), Secret
// references without namespaces (C443), and no
// publishConnectionDetailsTo (C444); the metadata.namespace of a
// template goes (C446). What a namespaced XR cannot compose is refused
// (C448). A Cluster-scoped XR keeps its templates: its managed resources
// stay the cluster-scoped ones, which v2 providers still serve.
func (c *composition) v2Template(res *yaml.Node, name string) []v2map.Op {
	res = yamledit.Resolve(res)
	base := yamledit.Resolve(yamledit.Get(res, "base"))
	if !yamledit.IsMap(base) || c.scope == scopeCluster {
		return nil
	}
	path := c.templatePath(res, name)
	c.detach(res, path)
	base = yamledit.Resolve(yamledit.Get(res, "base"))
	t := &v2Tmpl{c: c, res: res, base: base, path: path, name: name}
	av, version := t.readType()
	if c.o.UnwrapObjects && t.group == objectGroup && t.kind == objectKind && t.unwrapObject() {
		av, version = t.readType()
	}
	t.metadataNamespace()
	switch {
	case t.nestedXR() && t.nestedLegacyXRD():
		t.nestedV2(av)
	case t.nestedXR():
		t.c.Warnf("C453", yamledit.Get(t.base, "apiVersion"), t.path+".base.apiVersion", "template %q composes the composite resource %s %s: its type changes when its XRD converts to v2 (a new kind or group); write the new type into this template when you convert that XRD", name, av, t.kind)
	case t.namespacedTwin(version):
		t.managed()
	default:
		t.unconverted(av)
	}
	t.patches()
	return t.ops
}

// detach unshares the template res before it is edited: an alias in it,
// and an alias anywhere in the document to a node of it, becomes a copy of
// what it names, as it is before the edit (C306). Every template is then
// converted on its own, with its own ops.
func (c *composition) detach(res *yaml.Node, path string) {
	if !yamledit.HasAlias(c.Root()) {
		return
	}
	in := map[*yaml.Node]bool{}
	var mark func(n *yaml.Node, depth int)
	mark = func(n *yaml.Node, depth int) {
		if n == nil || depth > 1000 || in[n] {
			return
		}
		in[n] = true
		for _, ch := range n.Content {
			if ch.Kind != yaml.AliasNode {
				mark(ch, depth+1)
			}
		}
	}
	mark(res, 0)
	var walk func(n *yaml.Node, inside bool, depth int)
	walk = func(n *yaml.Node, inside bool, depth int) {
		if n == nil || depth > 1000 {
			return
		}
		inside = inside || n == res
		for i, ch := range n.Content {
			if ch.Kind == yaml.AliasNode && ch.Alias != nil && (inside || in[ch.Alias]) {
				n.Content[i] = yamledit.Clone(ch.Alias)
				c.Infof("C306", ch, path, "expanded the alias *%s: the template it shares is converted for the v2-native XR on its own", ch.Value)
				ch = n.Content[i]
			}
			walk(ch, inside, depth+1)
		}
	}
	walk(c.Root(), false, 0)
}

// readType reads the base's apiVersion, kind and group, and returns the
// apiVersion and its version.
func (t *v2Tmpl) readType() (apiVersion, version string) {
	apiVersion, _ = yamledit.Str(yamledit.Get(t.base, "apiVersion"))
	t.kind, _ = yamledit.Str(yamledit.Get(t.base, "kind"))
	t.group, version = xp.SplitAPIVersion(apiVersion)
	return apiVersion, version
}

// templatePath returns the path of template res in the Composition: in
// spec.resources, or in a patch-and-transform step's input.
func (c *composition) templatePath(res *yaml.Node, name string) string {
	spec := yamledit.Get(c.Node(), "spec")
	for i, r := range items(yamledit.Get(spec, "resources")) {
		if yamledit.Resolve(r) == res {
			return idx("spec.resources", i)
		}
	}
	if steps := yamledit.Resolve(yamledit.Get(spec, "pipeline")); yamledit.IsSeq(steps) {
		for i, s := range steps.Content {
			in := yamledit.Get(s, "input")
			for j, r := range items(yamledit.Get(in, "resources")) {
				if yamledit.Resolve(r) == res {
					return idx(idx("spec.pipeline", i)+".input.resources", j)
				}
			}
		}
	}
	return "spec.resources[" + name + "]"
}

// items returns the items of a sequence (after aliases), or nil.
func items(n *yaml.Node) []*yaml.Node {
	if n = yamledit.Resolve(n); yamledit.IsSeq(n) {
		return n.Content
	}
	return nil
}

func (t *v2Tmpl) op(code, op, path string, value any) {
	t.ops = append(t.ops, v2map.Op{Code: code, Op: op, Path: path, Value: value})
}

// nestedXR reports whether the template composes an XR of a known XRD.
func (t *v2Tmpl) nestedXR() bool {
	return t.c.HasXRSchema(t.group, t.kind)
}

// nestedLegacyXRD reports whether the XRD of the nested XR the template
// composes is a legacy one (apiextensions.crossplane.io v1 or v1beta1,
// without a modern scope): --target v2 converts it with the same options,
// so its v2 type is known.
func (t *v2Tmpl) nestedLegacyXRD() bool {
	for _, x := range t.c.XRDs() {
		av, _ := x["apiVersion"].(string)
		g, v := xp.SplitAPIVersion(av)
		if x["kind"] != "CompositeResourceDefinition" || g != xp.GroupAPIExtensions || (v != "v1" && v != "v1beta1") {
			continue
		}
		if jsonobj.String(x, "spec", "group") != t.group || jsonobj.String(x, "spec", "names", "kind") != t.kind {
			continue
		}
		scope := jsonobj.String(x, "spec", "scope")
		return scope == "" || scope == "LegacyCluster"
	}
	return false
}

// nestedV2 makes a template that composes a legacy XR compose the v2 XR
// its XRD becomes (C458): the v2 type (--xr-naming), and the machinery of
// its base under spec.crossplane. A v2 XR of a namespaced XR is
// namespaced too (the same --xr-scope), so Crossplane v2 composes it in
// the XR's namespace.
func (t *v2Tmpl) nestedV2(av string) {
	newAV, newKind := XRType(av, t.kind, newGroup(t.c.o))
	setString(t.base, "apiVersion", newAV)
	setString(t.base, "kind", newKind)
	// Declared even when unchanged: verify composes the type as a v2 XR.
	t.op("C458", v2map.OpSet, "apiVersion", newAV)
	t.op("C458", v2map.OpSet, "kind", newKind)
	var moved []string
	if spec := yamledit.Resolve(yamledit.Get(t.base, "spec")); yamledit.IsMap(spec) {
		for _, f := range xrpath.MachineryFields {
			v := yamledit.Get(spec, f)
			if v == nil {
				continue
			}
			cp := yamledit.Resolve(yamledit.Get(spec, "crossplane"))
			if !yamledit.IsMap(cp) {
				cp = yamledit.NewMap()
				yamledit.Set(spec, "crossplane", cp)
			}
			yamledit.Delete(spec, f)
			yamledit.Set(cp, f, v)
			t.ops = append(t.ops, v2map.Op{Code: "C458", Op: v2map.OpMove, Path: "spec." + f, To: "spec.crossplane." + f})
			moved = append(moved, f)
		}
	}
	what := ""
	if len(moved) > 0 {
		what = "; its base's " + strings.Join(moved, ", ") + " moved under spec.crossplane"
	}
	t.c.Infof("C458", yamledit.Get(t.base, "apiVersion"), t.path+".base.apiVersion", "template %q composes the composite resource %s %s, whose XRD --target v2 converts: it now composes the v2 XR %s %s%s", t.name, av, t.kind, newAV, newKind, what)
}

// namespacedTwin finds the namespaced twin of a managed resource and
// rewrites the template's apiVersion to it (C440; C445 when no CRD
// confirms it). It reports whether the template is such a managed
// resource.
func (t *v2Tmpl) namespacedTwin(version string) bool {
	if t.group == "" || isNamespacedGroup(t.group) {
		return false
	}
	group, twin, ok, fromCRD := twinOf(t.c.o, t.group, t.kind)
	if cluster, _ := clusterScoped(t.c.o, t.group, t.kind); cluster && !managedKind(t.group, t.kind, t.base, fromCRD) {
		return false // A ProviderConfig, a Namespace: refused below.
	}
	t.twin, t.crd = twin, fromCRD
	crds := t.c.o.ProviderCRDs
	if !ok {
		return false
	}
	fam, _ := familyOf(t.group)
	newVersion := version
	if t.group == objectGroup && t.kind == objectKind {
		newVersion = objectTwinVersion
	}
	if t.crd {
		newVersion = t.twin.version(version)
	}
	av := group + "/" + newVersion
	avNode := yamledit.Get(t.base, "apiVersion")
	yamledit.Set(t.base, "apiVersion", yamledit.NewString(av))
	t.op("C440", v2map.OpSet, "apiVersion", av)
	at := t.path + ".base.apiVersion"
	switch {
	case t.crd:
		t.c.Infof("C440", avNode, at, "%s %s becomes its namespaced twin %s (decided by the twin's CRD in %s, which gives the version)", t.group+"/"+version, t.kind, av, crdSource(t.c.o))
	case t.group == objectGroup:
		t.c.Infof("C440", avNode, at, "provider-kubernetes' Object %s becomes its namespaced twin %s, still a wrapper of the same manifest", t.group+"/"+version, av)
	case len(crds) > 0:
		t.c.Warnf("C445", avNode, at, "%s %s becomes %s, with the version kept, decided by %s: %s has no CRD of the twin; confirm the version the provider serves (or add its CRDs)", t.group+"/"+version, t.kind, av, fam.why(), crdSource(t.c.o))
	default:
		t.c.Warnf("C445", avNode, at, "%s %s becomes %s, with the version kept, decided by %s: no CRD of the twin was given; confirm the version the provider serves (or give its CRDs with --provider-crds)", t.group+"/"+version, t.kind, av, fam.why())
	}
	return true
}

// twinOf returns the group of the namespaced twin of the managed
// resource group/kind, its CRD when convert.Options.ProviderCRDs has it, and
// whether there is a twin: by the known providers' rule (twinGroup), or
// for any provider a namespaced CRD of the kind in the group with an m
// label before the domain.
func twinOf(o convert.Options, group, kind string) (twin string, crd providerType, ok, fromCRD bool) {
	twin, ok = twinGroup(group)
	if ok {
		crd, fromCRD = providerTypeOf(o.ProviderCRDs, twin, kind)
		if fromCRD {
			return twin, crd, true, true
		}
	}
	if labels := strings.Split(group, "."); len(labels) >= 2 {
		g := strings.TrimPrefix(strings.Join(labels[:len(labels)-2], ".")+".m."+strings.Join(labels[len(labels)-2:], "."), ".")
		if pt, found := providerTypeOf(o.ProviderCRDs, g, kind); found && pt.scope == scopeNamespaced {
			return g, pt, true, true
		}
	}
	return twin, providerType{}, ok, false
}

// v2ClusterOnly reports why template res needs a Cluster-scoped v2 XR,
// and whether it does: it sets metadata.namespace, composes a
// cluster-scoped kind, or a v1 managed resource without a namespaced twin
// (what v2Template refuses or removes for a namespaced XR). It edits
// nothing: the XRD conversion asks it to choose the scope under
// --xr-scope auto.
func (c *composition) v2ClusterOnly(res *yaml.Node) (string, bool) {
	base := yamledit.Resolve(yamledit.Get(yamledit.Resolve(res), "base"))
	if !yamledit.IsMap(base) {
		return "", false
	}
	if ns, _ := yamledit.Str(yamledit.Get(yamledit.Get(base, "metadata"), "namespace")); ns != "" {
		return fmt.Sprintf("it sets metadata.namespace %q", ns), true
	}
	t := &v2Tmpl{c: c, base: base}
	av, _ := t.readType()
	if t.group == "" && t.kind == "" || t.nestedXR() || isNamespacedGroup(t.group) {
		return "", false
	}
	_, _, twin, fromCRD := twinOf(c.o, t.group, t.kind)
	if twin && managedKind(t.group, t.kind, base, fromCRD) {
		return "", false
	}
	if ok, why := clusterScoped(c.o, t.group, t.kind); ok {
		return fmt.Sprintf("it composes %s %s, which is cluster-scoped (%s)", av, t.kind, why), true
	}
	if isManaged(base) && !twin && t.group != "" {
		return fmt.Sprintf("it composes the managed resource %s %s, which is cluster-scoped and has no namespaced twin known", av, t.kind), true
	}
	return "", false
}

// isManaged reports whether a base looks like a managed resource: a
// Crossplane v1 managed resource has spec.forProvider. It is the last
// resort, for a kind of a provider neither the CRDs given nor the
// built-in table of provider families know (managedKind).
func isManaged(base *yaml.Node) bool {
	return yamledit.Has(yamledit.Get(base, "spec"), "forProvider")
}

// managedKind reports whether group/kind is a managed resource that has
// a namespaced twin: the twin's CRD was given (fromCRD), the built-in
// table says its provider serves twins, or, for a provider neither knows,
// its base has spec.forProvider. A provider's configuration is none.
func managedKind(group, kind string, base *yaml.Node, fromCRD bool) bool {
	if isProviderConfigKind(kind) {
		return false
	}
	if _, ok := twinGroup(group); ok || fromCRD {
		return true
	}
	return isManaged(base)
}

// unconverted handles a template with no namespaced twin: a
// cluster-scoped kind (C448), or a managed resource whose provider has
// none known (C448: v1 managed resources are cluster-scoped).
func (t *v2Tmpl) unconverted(av string) {
	at := t.path + ".base.kind"
	n := yamledit.Get(t.base, "kind")
	if f, ok := familyOf(t.group); ok && f.twins == "" && !hasCRD(t.c.o, t.group, t.kind) {
		t.c.Errorf("C448", n, at, "template %q composes the managed resource %s %s, which is cluster-scoped with no namespaced twin (decided by %s): Crossplane v2 refuses it in a namespaced XR (crossplane/crossplane#6588); move to a provider with namespaced managed resources (the Upjet providers of *.upbound.io), or convert the XRD with --xr-scope cluster", t.name, av, t.kind, f.why())
		return
	}
	if ok, why := clusterScoped(t.c.o, t.group, t.kind); ok {
		t.c.Errorf("C448", n, at, "template %q composes %s %s, which is cluster-scoped (%s): Crossplane v2 refuses cluster-scoped composed resources in a namespaced XR (crossplane/crossplane#6588); convert the XRD with --xr-scope cluster, or move this resource out of the Composition", t.name, av, t.kind, why)
		return
	}
	if isManaged(t.base) && !isNamespacedGroup(t.group) && t.group != "" {
		t.c.Errorf("C448", n, at, "template %q composes the managed resource %s %s (its spec.forProvider says so), which is cluster-scoped, and no namespaced twin of it is known (decided by the CRDs given in %s, which have no namespaced CRD of that kind, and the built-in table of provider families, which does not list its provider): Crossplane v2 refuses it in a namespaced XR (crossplane/crossplane#6588); give the provider's CRDs with --provider-crds, move to a provider with namespaced managed resources, or convert the XRD with --xr-scope cluster", t.name, av, t.kind, crdSource(t.c.o))
	}
}

// managed converts the spec of a managed resource for its namespaced
// twin.
func (t *v2Tmpl) managed() {
	spec := yamledit.Resolve(yamledit.Get(t.base, "spec"))
	sp := t.path + ".base.spec"
	if !yamledit.IsMap(spec) {
		spec = yamledit.NewMap()
		yamledit.Set(t.base, "spec", spec)
		defer func() {
			if len(spec.Content) == 0 {
				yamledit.Delete(t.base, "spec")
			}
		}()
	}
	t.providerConfigRef(spec, sp)
	t.objectPolicy(spec, sp)
	t.deletionPolicy(spec, sp)
	if k := yamledit.Key(spec, "publishConnectionDetailsTo"); k != nil {
		yamledit.Delete(spec, "publishConnectionDetailsTo")
		t.op("C444", v2map.OpDelete, "spec.publishConnectionDetailsTo", nil)
		t.c.Warnf("C444", k, sp+".publishConnectionDetailsTo", "removed publishConnectionDetailsTo: namespaced managed resources have no external secret stores; the connection details go only to writeConnectionSecretToRef")
	}
	if w := yamledit.Resolve(yamledit.Get(spec, "writeConnectionSecretToRef")); yamledit.IsMap(w) {
		if k := yamledit.Key(w, "namespace"); k != nil {
			yamledit.Delete(w, "namespace")
			t.op("C443", v2map.OpDelete, "spec.writeConnectionSecretToRef.namespace", nil)
			t.c.Warnf("C443", k, sp+".writeConnectionSecretToRef.namespace", "removed the namespace of writeConnectionSecretToRef: a namespaced managed resource writes its connection Secret in its own namespace, the XR's")
		}
	}
	if t.group == objectGroup {
		t.objectReferences(spec)
		return // The manifest is the object on the remote cluster: not a reference.
	}
	for _, key := range []string{"forProvider", "initProvider"} {
		if v := yamledit.Get(spec, key); v != nil {
			t.secretRefs(v, "spec."+key)
		}
	}
}

// objectReferences points the references of an Object to other Objects
// at their namespaced twins (C440): every Object of the Composition
// becomes one.
func (t *v2Tmpl) objectReferences(spec *yaml.Node) {
	for i, r := range items(yamledit.Get(spec, "references")) {
		for _, key := range []string{"dependsOn", "patchesFrom"} {
			ref := yamledit.Resolve(yamledit.Get(r, key))
			av, _ := yamledit.Str(yamledit.Get(ref, "apiVersion"))
			kind, _ := yamledit.Str(yamledit.Get(ref, "kind"))
			if g, _ := xp.SplitAPIVersion(av); g != objectGroup || (kind != "" && kind != objectKind) {
				continue
			}
			p := idx("spec.references", i) + "." + key + ".apiVersion"
			twin := objectTwinGroup + "/" + objectTwinVersion
			n := yamledit.Get(ref, "apiVersion")
			yamledit.Set(ref, "apiVersion", yamledit.NewString(twin))
			t.op("C440", v2map.OpSet, p, twin)
			t.c.Infof("C440", n, t.path+".base."+p, "the reference names the namespaced Object %s: the Objects of the Composition become namespaced twins", twin)
		}
	}
}

// providerConfigRef gives the reference the kind the namespaced twin
// requires (C441), and the name v1 defaulted when there was none.
func (t *v2Tmpl) providerConfigRef(spec *yaml.Node, sp string) {
	kind := t.c.o.ProviderConfigKind
	ref := yamledit.Resolve(yamledit.Get(spec, "providerConfigRef"))
	if yamledit.IsNull(ref) && kind == convert.KindClusterProviderConfig && !t.patchWrites("spec.providerConfigRef") {
		return // The twin's default: ClusterProviderConfig default, as v1's ProviderConfig default.
	}
	if !yamledit.IsMap(ref) {
		ref = yamledit.NewMap()
		yamledit.Set(spec, "providerConfigRef", ref)
	}
	if !yamledit.Has(ref, "name") && !t.patchWrites("spec.providerConfigRef.name") {
		yamledit.Set(ref, "name", yamledit.NewString("default"))
		t.op("C441", v2map.OpSet, "spec.providerConfigRef.name", "default")
	}
	if old, _ := yamledit.Str(yamledit.Get(ref, "kind")); old == kind {
		return
	}
	yamledit.Set(ref, "kind", yamledit.NewString(kind))
	t.op("C441", v2map.OpSet, "spec.providerConfigRef.kind", kind)
	at := yamledit.Key(spec, "providerConfigRef")
	if at == nil || at.Line == 0 {
		at = spec // A reference the conversion added: point at the template's spec.
	}
	t.c.Infof("C441", at, sp+".providerConfigRef.kind", "providerConfigRef names a %s (namespaced managed resources require the kind; --provider-config-kind chooses)", kind)
}

// objectPolicy turns the managementPolicy of a v1alpha1 Object into the
// managementPolicies of its namespaced twin (C442).
func (t *v2Tmpl) objectPolicy(spec *yaml.Node, sp string) {
	k := yamledit.Key(spec, "managementPolicy")
	if k == nil {
		return
	}
	v, _ := yamledit.Str(yamledit.Get(spec, "managementPolicy"))
	pol, ok := objectManagementPolicy[v]
	if !ok {
		t.c.Errorf("C442", k, sp+".managementPolicy", "unknown Object managementPolicy %q (want Default, ObserveCreateUpdate, ObserveDelete or Observe)", v)
		return
	}
	seq := yamledit.NewSeq()
	vals := make([]any, len(pol))
	for i, p := range pol {
		seq.Content = append(seq.Content, yamledit.NewString(p))
		vals[i] = p
	}
	seq.Style = yaml.FlowStyle
	yamledit.Insert(spec, yamledit.Index(spec, "managementPolicy"), "managementPolicies", seq)
	yamledit.Delete(spec, "managementPolicy")
	t.op("C442", v2map.OpDelete, "spec.managementPolicy", nil)
	t.op("C442", v2map.OpSet, "spec.managementPolicies", vals)
	t.c.Infof("C442", k, sp+".managementPolicy", "managementPolicy %s of the v1alpha1 Object becomes managementPolicies %v", v, pol)
}

// deletionPolicy replaces deletionPolicy, which namespaced managed
// resources lack, with management policies (C442): Orphan is every
// policy but Delete, Delete is the default. Explicit management policies
// other than `*` decided alone in v1 and are kept.
func (t *v2Tmpl) deletionPolicy(spec *yaml.Node, sp string) {
	k := yamledit.Key(spec, "deletionPolicy")
	patched := t.patchWrites("spec.deletionPolicy")
	if k == nil && !patched {
		return
	}
	pols := yamledit.Resolve(yamledit.Get(spec, "managementPolicies"))
	var explicit []string
	if yamledit.IsSeq(pols) {
		for _, p := range pols.Content {
			s, _ := yamledit.Str(p)
			explicit = append(explicit, s)
		}
	}
	if len(explicit) > 0 && !slices.Contains(explicit, "*") {
		if k == nil {
			return
		}
		v, _ := yamledit.Str(yamledit.Get(spec, "deletionPolicy"))
		yamledit.Delete(spec, "deletionPolicy")
		t.op("C442", v2map.OpDelete, "spec.deletionPolicy", nil)
		if v == "Orphan" && slices.Contains(explicit, "Delete") {
			t.c.Warnf("C455", k, sp+".deletionPolicy", "removed deletionPolicy Orphan: the template's managementPolicies %v include Delete, and namespaced managed resources have only management policies, so the external resource is deleted with the managed resource; drop Delete from managementPolicies to keep orphaning it", explicit)
			return
		}
		t.c.Infof("C442", k, sp+".deletionPolicy", "removed deletionPolicy %s: the template's managementPolicies %v decide, as they did in v1", v, explicit)
		return
	}
	t.op("C442", v2map.OpManagementPolicies, "spec.deletionPolicy", nil)
	if k == nil {
		return
	}
	v, _ := yamledit.Str(yamledit.Get(spec, "deletionPolicy"))
	if v != "Orphan" {
		yamledit.Delete(spec, "deletionPolicy")
		t.c.Infof("C442", k, sp+".deletionPolicy", "removed deletionPolicy %s: namespaced managed resources have none, and delete their external resource by default", v)
		return
	}
	seq := yamledit.NewSeq()
	seq.Style = yaml.FlowStyle
	for _, p := range v2map.OrphanPolicies {
		seq.Content = append(seq.Content, yamledit.NewString(p))
	}
	at := yamledit.Index(spec, "deletionPolicy")
	yamledit.Delete(spec, "deletionPolicy")
	yamledit.Insert(spec, at, "managementPolicies", seq)
	t.c.Infof("C442", k, sp+".deletionPolicy", "deletionPolicy Orphan becomes managementPolicies %v: namespaced managed resources have no deletionPolicy", v2map.OrphanPolicies)
}

// secretRefs removes the namespace of the Secret references (keys ending
// in SecretRef) under n, at path: a namespaced managed resource reads
// Secrets in its own namespace (C443). With the twin's CRD, a reference
// whose schema keeps a namespace keeps it.
func (t *v2Tmpl) secretRefs(n *yaml.Node, path string) {
	n = yamledit.Resolve(n)
	switch {
	case yamledit.IsSeq(n):
		for i, it := range n.Content {
			t.secretRefs(it, idx(path, i))
		}
	case yamledit.IsMap(n):
		yamledit.Pairs(n, func(_ int, k, v *yaml.Node) {
			p := joinPath(path, k.Value)
			ref := yamledit.Resolve(v)
			if !strings.HasSuffix(k.Value, "SecretRef") || !yamledit.IsMap(ref) {
				t.secretRefs(v, p)
				return
			}
			nk := yamledit.Key(ref, "namespace")
			if nk == nil || t.schemaHas(p+".namespace") {
				return
			}
			yamledit.Delete(ref, "namespace")
			t.op("C443", v2map.OpDelete, p+".namespace", nil)
			t.c.Warnf("C443", nk, t.path+".base."+p+".namespace", "removed the namespace of the Secret reference: a namespaced managed resource reads Secrets in its own namespace, the XR's; the Secret must be there")
		})
	}
}

// schemaHas reports whether the twin's CRD (when known) describes path.
func (t *v2Tmpl) schemaHas(path string) bool {
	if !t.crd {
		return false
	}
	return convert.SchemaAt(t.twinSchema(), path, false) != nil
}

// twinSchema is the OpenAPI schema of the twin's version.
func (t *v2Tmpl) twinSchema() map[string]any {
	av, _ := yamledit.Str(yamledit.Get(t.base, "apiVersion"))
	_, version := xp.SplitAPIVersion(av)
	for _, crd := range t.c.o.ProviderCRDs {
		spec, _ := crd["spec"].(map[string]any)
		names, _ := spec["names"].(map[string]any)
		if jsonobj.AsString(spec["group"]) != t.twin.group || jsonobj.AsString(names["kind"]) != t.kind {
			continue
		}
		vs, _ := spec["versions"].([]any)
		for _, v := range vs {
			vm, _ := v.(map[string]any)
			if jsonobj.AsString(vm["name"]) != version {
				continue
			}
			sch, _ := vm["schema"].(map[string]any)
			root, _ := sch["openAPIV3Schema"].(map[string]any)
			return root
		}
	}
	return nil
}

// metadataNamespace removes the namespace of a template of a namespaced
// XR: Crossplane v2 puts every composed resource in the XR's namespace,
// overwriting what the template says (crossplane/crossplane#6724) (C446).
func (t *v2Tmpl) metadataNamespace() {
	md := yamledit.Resolve(yamledit.Get(t.base, "metadata"))
	k := yamledit.Key(md, "namespace")
	if k == nil {
		return
	}
	ns, _ := yamledit.Str(yamledit.Get(md, "namespace"))
	yamledit.Delete(md, "namespace")
	t.op("C446", v2map.OpDelete, "metadata.namespace", nil)
	t.c.Warnf("C446", k, t.path+".base.metadata.namespace", "removed namespace %q: Crossplane v2 creates the composed resources of a namespaced XR in the XR's namespace, whatever the template says (crossplane/crossplane#6724); a resource that must live in %q belongs to a Cluster-scoped XR (--xr-scope cluster)", ns, ns)
}

// A resourcePatch is a patch that writes to the composed resource.
type resourcePatch struct {
	convert.PatchRef
	target string // the resource field it writes
	own    bool   // in the template's own patches (not a patch set's)
	index  int    // its index in the template's own patches
}

// resourcePatches returns the patches of the template that write to the
// composed resource, with those of the patch sets it uses.
func (t *v2Tmpl) resourcePatches() []resourcePatch {
	seq := yamledit.Resolve(yamledit.Get(t.res, "patches"))
	if !yamledit.IsSeq(seq) {
		return nil
	}
	var out []resourcePatch
	add := func(p *yaml.Node, path string, own bool, i int) {
		typ, _ := yamledit.Str(yamledit.Get(p, "type"))
		if typ == "" {
			typ = fromComposite
		}
		if !slices.Contains([]string{fromComposite, combineFromComp, fromEnvironment, combineFromEnv}, typ) {
			return
		}
		to, _ := yamledit.Str(yamledit.Get(p, "toFieldPath"))
		if to == "" && (typ == fromComposite || typ == fromEnvironment) {
			to, _ = yamledit.Str(yamledit.Get(p, "fromFieldPath"))
		}
		if to != "" {
			out = append(out, resourcePatch{PatchRef: convert.PatchRef{Node: p, Path: path}, target: to, own: own, index: i})
		}
	}
	for i, p := range seq.Content {
		p = yamledit.Resolve(p)
		if typ, _ := yamledit.Str(yamledit.Get(p, "type")); typ != patchSetType {
			add(p, idx(t.path+".patches", i), true, i)
			continue
		}
		name, _ := yamledit.Str(yamledit.Get(p, "patchSetName"))
		for _, set := range t.c.patchSetsNamed(name) {
			for j, q := range items(yamledit.Get(set.Node, "patches")) {
				add(yamledit.Resolve(q), idx(set.Path+".patches", j), false, -1)
			}
		}
	}
	return out
}

// patchSetsNamed returns the patch sets named name: of the Composition,
// and of its patch-and-transform steps' inputs.
func (c *composition) patchSetsNamed(name string) []convert.PatchRef {
	spec := yamledit.Get(c.Node(), "spec")
	var out []convert.PatchRef
	find := func(sets *yaml.Node, path string) {
		for i, s := range items(sets) {
			if n, _ := yamledit.Str(yamledit.Get(s, "name")); n == name {
				out = append(out, convert.PatchRef{Node: yamledit.Resolve(s), Path: idx(path, i)})
			}
		}
	}
	find(yamledit.Get(spec, "patchSets"), "spec.patchSets")
	for i, s := range items(yamledit.Get(spec, "pipeline")) {
		find(yamledit.Get(yamledit.Get(s, "input"), "patchSets"), idx("spec.pipeline", i)+".input.patchSets")
	}
	return out
}

// patchWrites reports whether a patch of the template writes path, a
// field under it, or one it is under.
func (t *v2Tmpl) patchWrites(path string) bool {
	for _, p := range t.resourcePatches() {
		if under(p.target, path) || under(path, p.target) {
			return true
		}
	}
	return false
}

// under reports whether field path p is path or a field under it.
func under(p, path string) bool {
	a, err1 := fieldpath.Parse(p)
	b, err2 := fieldpath.Parse(path)
	if err1 != nil || err2 != nil || len(a) < len(b) {
		return false
	}
	for i := range b {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// patches handles the patches that write what the conversion moved or
// removed: a patch of a removed field goes (C449; flagged when it is in a
// patch set), one of deletionPolicy writes managementPolicies (C450),
// one of metadata.namespace or of the whole providerConfigRef is flagged
// (C447, C454).
func (t *v2Tmpl) patches() {
	managed := slices.ContainsFunc(t.ops, func(o v2map.Op) bool { return o.Code == "C440" })
	var drop []int
	for _, p := range t.resourcePatches() {
		tn := yamledit.Get(p.Node, "toFieldPath")
		switch {
		case under(p.target, "metadata.namespace"):
			t.c.Warnf("C447", tn, p.Path+".toFieldPath", "the patch writes %s, which Crossplane v2 overwrites with the XR's namespace (crossplane/crossplane#6724): the value it writes is lost; remove the patch, or use a Cluster-scoped XR (--xr-scope cluster)", p.target)
		case !managed:
		case under(p.target, "spec.publishConnectionDetailsTo") || under(p.target, "spec.writeConnectionSecretToRef.namespace") || secretRefNamespace(p.target) && !t.schemaHas(p.target):
			t.removedPatch(p, &drop)
		case p.target == "spec.deletionPolicy":
			t.deletionPolicyPatch(p)
		case p.target == "spec.providerConfigRef" || p.target == "spec.writeConnectionSecretToRef":
			t.c.Warnf("C454", tn, p.Path+".toFieldPath", "the patch replaces the whole %s: the namespaced twin's %s has another shape (providerConfigRef needs a kind, writeConnectionSecretToRef has no namespace); patch its fields instead (e.g. %s.name)", p.target, p.target, p.target)
		case p.target == "spec.managementPolicy":
			t.c.Warnf("C454", tn, p.Path+".toFieldPath", "the patch writes the managementPolicy of a v1alpha1 Object, which the namespaced Object lacks: write spec.managementPolicies instead")
		}
	}
	seq := yamledit.Resolve(yamledit.Get(t.res, "patches"))
	for i := len(drop) - 1; i >= 0; i-- {
		seq.Content = slices.Delete(seq.Content, drop[i], drop[i]+1)
	}
}

// secretRefNamespace reports whether a field path is the namespace of a
// Secret reference under spec.forProvider or spec.initProvider.
func secretRefNamespace(p string) bool {
	segs, err := fieldpath.Parse(p)
	if err != nil || len(segs) < 4 || segs[0].Field != "spec" || (segs[1].Field != "forProvider" && segs[1].Field != "initProvider") {
		return false
	}
	last, ref := segs[len(segs)-1], segs[len(segs)-2]
	return last.Field == "namespace" && strings.HasSuffix(ref.Field, "SecretRef")
}

// removedPatch removes a patch of a field the namespaced twin lacks
// (C449), or flags it when it is in a patch set other templates share.
func (t *v2Tmpl) removedPatch(p resourcePatch, drop *[]int) {
	if t.c.drop[yamledit.Resolve(p.Node)] {
		return // Removed, wherever it is, as a connection Secret namespace write (C429).
	}
	tn := yamledit.Get(p.Node, "toFieldPath")
	if !p.own {
		t.c.Warnf("C449", tn, p.Path+".toFieldPath", "the patch writes %s, which the namespaced managed resource of template %q lacks: remove it from the patch set (other templates use it too)", p.target, t.name)
		return
	}
	*drop = append(*drop, p.index)
	// What the patch wrote is not rendered: declared, so that verify maps
	// the legacy render the same way.
	t.op("C449", v2map.OpDelete, p.target, nil)
	t.c.Warnf("C449", p.Node, p.Path, "removed the patch of %s: namespaced managed resources have no such field", p.target)
}

// deletionPolicyPatch makes a patch of deletionPolicy write the
// management policies that mean the same (C450): a map transform turns
// Orphan into every policy but Delete, and Delete into `*`.
func (t *v2Tmpl) deletionPolicyPatch(p resourcePatch) {
	tn := yamledit.Get(p.Node, "toFieldPath")
	if !p.own {
		t.c.Warnf("C450", tn, p.Path+".toFieldPath", "the patch writes spec.deletionPolicy, which namespaced managed resources lack: make it write spec.managementPolicies (Orphan: %v; Delete: [*]) in the patch set, or in a copy of it for this template", v2map.OrphanPolicies)
		return
	}
	yamledit.Set(p.Node, "toFieldPath", yamledit.NewString("spec.managementPolicies"))
	ts := yamledit.Resolve(yamledit.Get(p.Node, "transforms"))
	if !yamledit.IsSeq(ts) {
		ts = yamledit.NewSeq()
		yamledit.Set(p.Node, "transforms", ts)
	}
	m := yamledit.NewMap()
	orphan := yamledit.NewSeq()
	orphan.Style = yaml.FlowStyle
	for _, s := range v2map.OrphanPolicies {
		orphan.Content = append(orphan.Content, yamledit.NewString(s))
	}
	all := yamledit.NewSeq()
	all.Style = yaml.FlowStyle
	all.Content = []*yaml.Node{{Kind: yaml.ScalarNode, Tag: yamledit.TagStr, Value: "*", Style: yaml.DoubleQuotedStyle}}
	yamledit.Set(m, "Orphan", orphan)
	yamledit.Set(m, "Delete", all)
	tr := yamledit.NewMap()
	yamledit.Set(tr, "type", yamledit.NewString(transformMap))
	yamledit.Set(tr, "map", m)
	ts.Content = append(ts.Content, tr)
	// Declared, so that verify maps the legacy render the same way. The
	// patch's value wins over the base's: its mapping goes before the
	// base's (C442), which then finds no deletionPolicy left.
	pols := make([]any, len(v2map.OrphanPolicies))
	for i, s := range v2map.OrphanPolicies {
		pols[i] = s
	}
	op := v2map.Op{Code: "C450", Op: v2map.OpManagementPolicies, Path: "spec.deletionPolicy", Value: map[string]any{"Orphan": pols, "Delete": []any{"*"}}}
	at := slices.IndexFunc(t.ops, func(o v2map.Op) bool { return o.Op == v2map.OpManagementPolicies && o.Path == "spec.deletionPolicy" })
	if at < 0 {
		at = len(t.ops)
	}
	t.ops = slices.Insert(t.ops, at, op)
	t.c.Warnf("C450", p.Node, p.Path, "the patch wrote spec.deletionPolicy, which namespaced managed resources lack: it now writes spec.managementPolicies through a map transform (Orphan: %v; Delete: [*])", v2map.OrphanPolicies)
}
