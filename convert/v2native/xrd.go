package v2native

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/xpmigrate/xpmigrate/convert"
	"github.com/xpmigrate/xpmigrate/convert/xrpath"
	"github.com/xpmigrate/xpmigrate/convert/yamledit"
	"github.com/xpmigrate/xpmigrate/internal/jsonobj"
	"github.com/xpmigrate/xpmigrate/internal/xp"
)

// XRDAPIVersionV2 is the apiVersion of the XRDs --target v2 writes.
const XRDAPIVersionV2 = xp.GroupAPIExtensions + "/v2"

// Scopes of a v2 XRD (spec.scope).
const (
	scopeNamespaced = "Namespaced"
	scopeCluster    = "Cluster"
)

// v2XRD is one apiextensions.crossplane.io/v1 CompositeResourceDefinition
// being written as its apiextensions.crossplane.io/v2 twin: a new object
// (scope, group and names of an XRD are immutable), edited node by node so
// that comments and key order survive.
type v2XRD struct {
	e      *extension
	d      *convert.Document
	o      convert.Options
	base   string // path of the XRD in the document ("" or "items[3].")
	name   string
	node   *yaml.Node
	failed bool

	old, new TypeNames
	scope    string
	spec     *yaml.Node
}

// xrdDocument converts an XRD document of the input for the v2-native
// target: it writes the v2 XRD, or leaves the document unchanged when it
// is one already or fails. It reports false when the document is no XRD.
func (e *extension) xrdDocument(d *convert.Document) bool {
	top := d.Top()
	apiVersion, _ := yamledit.Str(yamledit.Get(top, "apiVersion"))
	kind, _ := yamledit.Str(yamledit.Get(top, "kind"))
	if g, _ := xp.SplitAPIVersion(apiVersion); kind != "CompositeResourceDefinition" || g != xp.GroupAPIExtensions {
		return false
	}
	if _, v := xp.SplitAPIVersion(apiVersion); v == "v2" {
		d.Unchanged()
		return true
	}
	x := &v2XRD{e: e, d: d, o: d.Options(), name: d.Name(), node: top}
	x.convert()
	d.Write(true, x.failed)
	return true
}

// xrdItem returns the XRD of the item n of a List (at base) to convert
// for the v2-native target, or nil when n is none (or a v2 XRD).
func (e *extension) xrdItem(d *convert.Document, n *yaml.Node, base string) *v2XRD {
	n = yamledit.Resolve(n)
	if !yamledit.IsMap(n) {
		return nil
	}
	av, _ := yamledit.Str(yamledit.Get(n, "apiVersion"))
	kind, _ := yamledit.Str(yamledit.Get(n, "kind"))
	if g, v := xp.SplitAPIVersion(av); g != xp.GroupAPIExtensions || kind != "CompositeResourceDefinition" || v == "v2" {
		return nil
	}
	name, _ := yamledit.Str(yamledit.Get(yamledit.Get(n, "metadata"), "name"))
	return &v2XRD{e: e, d: d, o: d.Options(), base: base, name: name, node: n}
}

// report adds a finding about node n (its line in the input; the XRD's
// when n is new) at path.
func (x *v2XRD) report(code convert.Code, n *yaml.Node, path, format string, args ...any) {
	line := x.d.LineBase() + x.node.Line
	if n != nil && n.Line > 0 {
		line = x.d.LineBase() + n.Line
	}
	if info, _ := convert.Lookup(code); info.Severity == convert.SeverityError {
		x.failed = true
	}
	x.d.Add(convert.Diagnostic{Code: code, Document: x.d.Index(), Line: line, Composition: x.name, Path: trimDot(x.base + path), Message: fmt.Sprintf(format, args...)})
}

// convert edits the XRD into its v2 twin, or reports why it cannot, and
// reports whether it did.
func (x *v2XRD) convert() bool {
	top := x.node
	apiVersion, _ := yamledit.Str(yamledit.Get(top, "apiVersion"))
	_, fromVersion := xp.SplitAPIVersion(apiVersion)
	if fromVersion != "v1" && fromVersion != "v1beta1" {
		x.report("C413", yamledit.Get(top, "apiVersion"), "apiVersion", "cannot convert a CompositeResourceDefinition of apiVersion %q to v2: only apiextensions.crossplane.io/v1 (and v1beta1, its earlier spelling) is supported", apiVersion)
		return false
	}
	x.spec = yamledit.Resolve(yamledit.Get(top, "spec"))
	names := yamledit.Resolve(yamledit.Get(x.spec, "names"))
	md := yamledit.Resolve(yamledit.Get(top, "metadata"))
	for _, m := range []struct {
		n    *yaml.Node
		path string
	}{{x.spec, "spec"}, {names, "spec.names"}, {md, "metadata"}, {top, ""}} {
		if m.n != nil && yamledit.HasMerge(m.n) {
			x.report("C413", m.n, m.path, "cannot convert a CompositeResourceDefinition with a YAML merge key (<<) in %s: expand it first", orDocument(m.path))
			return false
		}
	}
	if !yamledit.IsMap(x.spec) || !yamledit.IsMap(names) {
		x.report("C413", top, "spec.names", "cannot convert a CompositeResourceDefinition without spec.group and spec.names")
		return false
	}
	str := func(m *yaml.Node, k string) string { s, _ := yamledit.Str(yamledit.Get(m, k)); return s }
	x.old = TypeNames{Group: str(x.spec, "group"), Kind: str(names, "kind"), Plural: str(names, "plural"), Singular: str(names, "singular"), ListKind: str(names, "listKind")}
	if x.old.Group == "" || x.old.Kind == "" || x.old.Plural == "" {
		x.report("C413", x.spec, "spec", "cannot convert a CompositeResourceDefinition without spec.group, spec.names.kind and spec.names.plural")
		return false
	}
	if md != nil && !yamledit.IsMap(md) {
		x.report("C413", md, "metadata", "cannot convert a CompositeResourceDefinition whose metadata is not a mapping")
		return false
	}
	if s := str(x.spec, "scope"); s == scopeNamespaced || s == scopeCluster {
		// A modern XRD written as v1 (Crossplane v2 serves both): the
		// same object, whose names and scope cannot change.
		setString(top, "apiVersion", XRDAPIVersionV2)
		x.report("C415", yamledit.Get(x.spec, "scope"), "spec.scope", "already defines %s XRs: written as apiextensions.crossplane.io/v2 with its names and scope (the same object, served at both versions; --xr-scope and --xr-naming do not apply)", s)
		return true
	}
	x.new = XRNames(x.old, newGroup(x.o))
	x.scope = x.chooseScope()
	if x.failed {
		return false
	}
	x.collisions()

	setString(top, "apiVersion", XRDAPIVersionV2)
	if md == nil {
		md = yamledit.NewMap()
		yamledit.Set(top, "metadata", md)
	}
	newName := x.new.Plural + "." + x.new.Group
	setString(md, "name", newName)
	x.stripServerFields(md)
	if x.new.Group != x.old.Group {
		setString(x.spec, "group", x.new.Group)
	}
	for _, f := range []struct{ key, old, new string }{
		{"kind", x.old.Kind, x.new.Kind}, {"plural", x.old.Plural, x.new.Plural},
		{"singular", x.old.Singular, x.new.Singular}, {"listKind", x.old.ListKind, x.new.ListKind},
	} {
		if f.old != "" && f.new != f.old {
			setString(names, f.key, f.new)
		}
	}
	if yamledit.Key(x.spec, "scope") != nil {
		setString(x.spec, "scope", x.scope)
	} else {
		yamledit.Insert(x.spec, yamledit.Index(x.spec, "group")+1, "scope", yamledit.NewString(x.scope))
	}
	x.dropClaimFields()
	x.renameCompositionRefs()
	x.rewriteVersions()
	x.connectionSecretRef()
	if x.failed {
		return false
	}
	was := ""
	if fromVersion != "v1" {
		was = " (the input's apiVersion was " + apiVersion + ", whose spec is v1's)"
	}
	x.report("C401", x.node, "", "written as the apiextensions.crossplane.io/v2 CompositeResourceDefinition %q%s: %s XRs of kind %s in group %s (was %s in %s); apply it as a new object next to the v1 one, whose scope, group and names cannot change",
		newName, was, x.scope, x.new.Kind, x.new.Group, x.old.Kind, x.old.Group)
	return true
}

func orDocument(path string) string {
	if path == "" {
		return "the document"
	}
	return path
}

// setString sets m[key] to the string v, in place when it is a scalar
// already (its comments and spacing kept).
func setString(m *yaml.Node, key, v string) {
	if n := yamledit.Get(m, key); n != nil && n.Kind == yaml.ScalarNode {
		if n.Value != v {
			n.Value = v
			n.Tag = yamledit.TagStr
			if n.Style&(yaml.LiteralStyle|yaml.FoldedStyle) != 0 {
				n.Style = 0
			}
		}
		return
	}
	yamledit.Set(m, key, yamledit.NewString(v))
}

// stripServerFields removes what the API server adds: the v2 XRD is a new
// object, which cannot be created with a uid or resourceVersion.
func (x *v2XRD) stripServerFields(md *yaml.Node) {
	var removed []string
	if yamledit.Delete(x.node, "status") {
		removed = append(removed, "status")
	}
	for _, k := range xp.ServerFields {
		if yamledit.Delete(md, k) {
			removed = append(removed, "metadata."+k)
		}
	}
	if an := yamledit.Resolve(yamledit.Get(md, "annotations")); yamledit.IsMap(an) {
		if yamledit.Delete(an, xp.AnnotationLastApplied) {
			removed = append(removed, "metadata.annotations["+xp.AnnotationLastApplied+"]")
			if len(an.Content) == 0 {
				yamledit.Delete(md, "annotations")
			}
		}
	}
	if len(removed) > 0 {
		x.report("C412", x.node, "", "removed %s: the v2 XRD is a new object", strings.Join(removed, ", "))
	}
}

// dropClaimFields removes what v2 XRDs do not have: claims, the claims'
// delete policy, and the connection secret keys of legacy XRs.
func (x *v2XRD) dropClaimFields() {
	if k := yamledit.Key(x.spec, "claimNames"); k != nil {
		claim, _ := yamledit.Str(yamledit.Get(yamledit.Get(x.spec, "claimNames"), "kind"))
		yamledit.Delete(x.spec, "claimNames")
		where := "in the claim's namespace"
		if x.scope == scopeCluster {
			where = "(cluster-scoped)"
		}
		x.report("C404", k, "spec.claimNames", "removed the claim %s: v2 XRDs offer no claims; a %s XR %s takes its place", claim, x.new.Kind, where)
	}
	if k := yamledit.Key(x.spec, "defaultCompositeDeletePolicy"); k != nil {
		yamledit.Delete(x.spec, "defaultCompositeDeletePolicy")
		x.report("C405", k, "spec.defaultCompositeDeletePolicy", "removed defaultCompositeDeletePolicy: it was the default of the claims' compositeDeletePolicy, and v2 XRs have no claims")
	}
	if k := yamledit.Key(x.spec, "connectionSecretKeys"); k != nil {
		var keys []string
		if s := yamledit.Resolve(yamledit.Get(x.spec, "connectionSecretKeys")); yamledit.IsSeq(s) {
			for _, it := range s.Content {
				if v, ok := yamledit.Str(it); ok {
					keys = append(keys, v)
				}
			}
		}
		yamledit.Delete(x.spec, "connectionSecretKeys")
		x.report("C406", k, "spec.connectionSecretKeys", "removed connectionSecretKeys [%s]: v2 XRDs cannot filter connection details, so the key filtering is lost; the connection Secret function-patch-and-transform composes for the XR (named by its spec.writeConnectionSecretToRef, C416) holds every connection detail the Composition declares", strings.Join(keys, ", "))
	}
}

// connectionSecretRef declares spec.writeConnectionSecretToRef in the
// schema of every version that does not declare it itself: every v1 XR
// and claim had the field (Crossplane added it to their CRDs), a v2 XR has
// it only when its XRD declares it, and function-patch-and-transform
// (≥ v0.10.0) names the connection Secret it composes for a v2 XR by it
// before anything else. So the XR twins keep the Secret name their
// claim's users read (C472), and the Composition lets it win (C424). A
// Namespaced XR's Secret is in its own namespace: name only, as a
// claim's; a Cluster XR's needs both, as a v1 XR's.
func (x *v2XRD) connectionSecretRef() {
	vs := yamledit.Resolve(yamledit.Get(x.spec, "versions"))
	if !yamledit.IsSeq(vs) {
		return
	}
	var added []string
	for i, v := range vs.Content {
		v = yamledit.Resolve(v)
		if !yamledit.IsMap(v) {
			continue
		}
		props := x.specProperties(v)
		if props == nil || yamledit.Get(props, "writeConnectionSecretToRef") != nil {
			continue
		}
		yamledit.Set(props, "writeConnectionSecretToRef", x.secretRefSchema())
		name, _ := yamledit.Str(yamledit.Get(v, "name"))
		if name == "" {
			name = idx("spec.versions", i)
		}
		added = append(added, name)
	}
	if len(added) == 0 {
		return
	}
	fields := "name only: the Secret is in the XR's namespace"
	if x.scope == scopeCluster {
		fields = "name and namespace"
	}
	x.report("C416", vs, "spec.versions", "declared spec.writeConnectionSecretToRef (%s) in the schema of version %s: v1 XRs and claims had it, v2 XRs have it only when the XRD declares it; function-patch-and-transform (≥ v0.10.0) names the XR's connection Secret by it first, so the v2 XRs keep the Secret name the claims asked for",
		fields, strings.Join(added, ", "))
}

// specProperties returns the properties of the XR's spec in the schema of
// version v, made where missing (a version without a schema gets one that
// declares the spec); nil when the schema is not a mapping.
func (x *v2XRD) specProperties(v *yaml.Node) *yaml.Node {
	ensure := func(m *yaml.Node, key string, object bool) *yaml.Node {
		n := yamledit.Resolve(yamledit.Get(m, key))
		if n == nil {
			n = yamledit.NewMap()
			if object {
				yamledit.Set(n, "type", yamledit.NewString("object"))
			}
			yamledit.Set(m, key, n)
		}
		if !yamledit.IsMap(n) {
			return nil
		}
		return n
	}
	schema := ensure(v, "schema", false)
	if schema == nil {
		return nil
	}
	root := ensure(schema, "openAPIV3Schema", true)
	if root == nil {
		return nil
	}
	props := ensure(root, "properties", false)
	if props == nil {
		return nil
	}
	spec := ensure(props, "spec", true)
	if spec == nil {
		return nil
	}
	return ensure(spec, "properties", false)
}

// secretRefSchema is the schema of spec.writeConnectionSecretToRef: a
// claim's (name) for Namespaced XRs, a v1 XR's (name, namespace) for
// Cluster ones.
func (x *v2XRD) secretRefSchema() *yaml.Node {
	fields := []string{"name"}
	if x.scope == scopeCluster {
		fields = append(fields, "namespace")
	}
	props, req := yamledit.NewMap(), yamledit.NewSeq()
	for _, f := range fields {
		t := yamledit.NewMap()
		yamledit.Set(t, "type", yamledit.NewString("string"))
		yamledit.Set(props, f, t)
		req.Content = append(req.Content, yamledit.NewString(f))
	}
	ref := yamledit.NewMap()
	yamledit.Set(ref, "description", yamledit.NewString("The Secret function-patch-and-transform writes the XR's connection details to (added by xpmigrate: v1 XRs and claims had this field)."))
	yamledit.Set(ref, "type", yamledit.NewString("object"))
	yamledit.Set(ref, "properties", props)
	yamledit.Set(ref, "required", req)
	return ref
}

// renameCompositionRefs points defaultCompositionRef and
// enforcedCompositionRef at the v2 Compositions: the legacy ones compose
// the old XR type.
func (x *v2XRD) renameCompositionRefs() {
	for _, f := range []string{"defaultCompositionRef", "enforcedCompositionRef"} {
		ref := yamledit.Resolve(yamledit.Get(x.spec, f))
		old, ok := yamledit.Str(yamledit.Get(ref, "name"))
		if !ok || old == "" {
			continue
		}
		name := CompositionName(old, x.old.Plural, x.new.Plural, x.old.Group, x.new.Group)
		x.report("C407", yamledit.Get(ref, "name"), "spec."+f+".name", "now names %q, the v2 Composition that --target v2 writes for %q (Composition names are cluster-wide and the legacy one composes the old XR type)", name, old)
		setString(ref, "name", name)
	}
}

// chooseScope returns the scope of the v2 XRD. Under convert.XRScopeAuto it is
// Namespaced unless a Composition of the XR type in the input composes a
// kind that is cluster-scoped or sets a template's metadata.namespace: a
// namespaced XR can compose neither, so the choice is the user's (C402).
func (x *v2XRD) chooseScope() string {
	switch x.o.XRScope {
	case convert.XRScopeCluster:
		return scopeCluster
	case convert.XRScopeNamespaced:
		return scopeNamespaced
	}
	for _, why := range x.e.clusterHints(x.d, x.old.Group, x.old.Kind) {
		x.report("C402", x.node, "spec.scope", "cannot choose the scope of the v2 XRD: %s, which a Namespaced XR cannot compose; convert with --xr-scope cluster, or with --xr-scope namespaced after changing the template", why)
	}
	return scopeNamespaced
}

// collisions reports a v2 XR type whose CRD would have the name of the v1
// XRD's claim or of the v1 XRD's own XR type: both cannot exist at once.
func (x *v2XRD) collisions() {
	cn := yamledit.Resolve(yamledit.Get(x.spec, "claimNames"))
	ck, _ := yamledit.Str(yamledit.Get(cn, "kind"))
	cp, _ := yamledit.Str(yamledit.Get(cn, "plural"))
	switch {
	case x.new.Group == x.old.Group && (x.new.Kind == ck || x.new.Plural == cp):
		x.report("C403", cn, "spec.names", "the v2 XR type %s (%s.%s) has the name of the v1 claim %s (%s.%s): the two CRDs cannot exist at once, so the v2 XRD can only be applied once the claims and the v1 XRD are gone; for an adopt-in-place move convert with --xr-naming new-group",
			x.new.Kind, x.new.Plural, x.new.Group, ck, cp, x.old.Group)
	case x.new.Group == x.old.Group && x.new.Plural == x.old.Plural:
		x.report("C403", yamledit.Get(x.spec, "names"), "spec.names", "the v2 XR type keeps the name of the v1 XR type %s (%s.%s): the v1 and v2 XRDs cannot exist at once, so the v2 XRD can only be applied once the v1 XRD and its XRs are gone; for an adopt-in-place move convert with --xr-naming new-group",
			x.old.Kind, x.old.Plural, x.old.Group)
	}
}

// rewriteVersions rewrites, in every version, the CEL rules and printer
// columns that read legacy XR machinery.
func (x *v2XRD) rewriteVersions() {
	vs := yamledit.Resolve(yamledit.Get(x.spec, "versions"))
	if !yamledit.IsSeq(vs) {
		return
	}
	for i, v := range vs.Content {
		v = yamledit.Resolve(v)
		base := idx("spec.versions", i)
		root := yamledit.Resolve(yamledit.Get(yamledit.Get(v, "schema"), "openAPIV3Schema"))
		if yamledit.IsMap(root) {
			x.rewriteRules(root, base+".schema.openAPIV3Schema", ".spec")
			spec := yamledit.Resolve(yamledit.Get(yamledit.Get(root, "properties"), "spec"))
			if yamledit.IsMap(spec) {
				x.rewriteRules(spec, base+".schema.openAPIV3Schema.properties.spec", "")
			}
		}
		cols := yamledit.Resolve(yamledit.Get(v, "additionalPrinterColumns"))
		if yamledit.IsSeq(cols) {
			for j, col := range cols.Content {
				x.rewriteColumn(yamledit.Resolve(col), idx(base+".additionalPrinterColumns", j))
			}
		}
	}
}

// rewriteRules rewrites the x-kubernetes-validations of schema node n
// (its path p) whose self reaches the XR's spec through spec.
func (x *v2XRD) rewriteRules(n *yaml.Node, p, spec string) {
	rules := yamledit.Resolve(yamledit.Get(n, "x-kubernetes-validations"))
	if !yamledit.IsSeq(rules) {
		return
	}
	rw := CELRewrites(spec)
	q := regexp.QuoteMeta(spec)
	claimName := regexp.MustCompile(`\b(self|oldSelf)` + q + `\.claimRef\.name\b`)
	gone := regexp.MustCompile(`\b(?:self|oldSelf)` + q + `\.(claimRef|writeConnectionSecretToRef)\b`)
	for i, r := range rules.Content {
		r = yamledit.Resolve(r)
		for _, key := range []string{"rule", "messageExpression"} {
			vn := yamledit.Get(r, key)
			v, ok := yamledit.Str(vn)
			if !ok {
				continue
			}
			path := idx(p+".x-kubernetes-validations", i) + "." + key
			out := v
			for _, c := range rw {
				out = c.Re.ReplaceAllString(out, c.Repl)
			}
			named := false
			if spec != "" && claimName.MatchString(out) {
				// metadata.name is the only metadata a root rule can read.
				out = claimName.ReplaceAllString(out, "${1}.metadata.name")
				named = true
			}
			if m := gone.FindStringSubmatch(out); m != nil && !x.declares(m[1]) {
				x.report("C410", vn, path, "reads spec.%s, which v2 XRs do not have (and CEL cannot read metadata.namespace): rewrite or remove the rule by hand", m[1])
				continue
			}
			if out == v {
				continue
			}
			if named {
				x.report("C409", vn, path, "reads spec.claimRef.name, rewritten to metadata.name: the same value only when each v2 XR is named as its claim was")
			} else {
				x.report("C408", vn, path, "the XR machinery moved under spec.crossplane: rewritten to %q", out)
			}
			if m := Unguarded(out, spec); m != "" {
				x.report("C414", vn, path, "reads spec.crossplane.%s outside has(): spec.crossplane is absent until set (the v1 machinery fields were defaulted), and the rule then fails with \"no such key\"; guard it with has(self%s.crossplane)", m, spec)
			}
			setString(r, key, out)
		}
	}
}

// declares reports whether the user's schema of the XR's spec declares
// field f itself (then a rule reading it reads the user's field).
func (x *v2XRD) declares(f string) bool {
	vs := yamledit.Resolve(yamledit.Get(x.spec, "versions"))
	if !yamledit.IsSeq(vs) {
		return false
	}
	for _, v := range vs.Content {
		props := yamledit.Get(yamledit.Get(yamledit.Get(yamledit.Get(yamledit.Get(yamledit.Get(v, "schema"), "openAPIV3Schema"), "properties"), "spec"), "properties"), f)
		if props != nil {
			return true
		}
	}
	return false
}

var (
	colMachinery = regexp.MustCompile(`(^|[^\w.])\.spec\.(` + strings.Join(xrpath.MachineryFields, "|") + `)\b`)
	colClaimName = regexp.MustCompile(`(^|[^\w.])\.spec\.claimRef\.name\b`)
	colClaimNS   = regexp.MustCompile(`(^|[^\w.])\.spec\.claimRef\.namespace\b`)
	colGone      = regexp.MustCompile(`(?:^|[^\w.])\.spec\.(claimRef|writeConnectionSecretToRef)\b`)
	colRefNS     = regexp.MustCompile(`\.spec\.crossplane\.resourceRefs\b.*\.namespace\b`)
)

// rewriteColumn rewrites the jsonPath of printer column col (at path p).
func (x *v2XRD) rewriteColumn(col *yaml.Node, p string) {
	vn := yamledit.Get(col, "jsonPath")
	v, ok := yamledit.Str(vn)
	if !ok {
		return
	}
	p += ".jsonPath"
	out := colMachinery.ReplaceAllString(v, "${1}.spec.crossplane.${2}")
	named, exact := false, out != v
	if colClaimName.MatchString(out) {
		out = colClaimName.ReplaceAllString(out, "${1}.metadata.name")
		named = true
	}
	if x.scope == scopeNamespaced && colClaimNS.MatchString(out) {
		out = colClaimNS.ReplaceAllString(out, "${1}.metadata.namespace")
		exact = true
	}
	if m := colGone.FindStringSubmatch(out); m != nil && !x.declares(m[1]) {
		x.report("C411", vn, p, "reads spec.%s, which %s v2 XRs do not have: the column stays empty; change or remove it", m[1], x.scope)
		return
	}
	if x.scope == scopeNamespaced && colRefNS.MatchString(out) {
		x.report("C411", vn, p, "reads the namespace of spec.resourceRefs, which Namespaced v2 XRs do not record (they compose in their own namespace): the column stays empty; change or remove it")
	}
	if out == v {
		return
	}
	switch {
	case named:
		x.report("C409", vn, p, "reads spec.claimRef.name, rewritten to %q: the same value only when each v2 XR is named as its claim was", out)
	case exact:
		x.report("C408", vn, p, "the XR machinery moved (under spec.crossplane, the claim's namespace is the XR's): rewritten to %q", out)
	}
	setString(col, "jsonPath", out)
}

// clusterHints returns why the Compositions of the XR type group and
// kind need cluster-scoped XRs: a template composes a cluster-scoped kind
// (clusterScopedKind), sets metadata.namespace, or patches
// metadata.namespace from anything but the claim's namespace. Deliberately
// simple: only the Compositions of the input and of convert.Options.Compositions
// are read, and only their templates' base and patches (patch sets
// included).
func (e *extension) clusterHints(d *convert.Document, group, kind string) []string {
	var out []string
	for _, obj := range e.compositionObjects(d) {
		out = append(out, ClusterHints(obj, group, kind)...)
	}
	return out
}

// compositionObjects returns the Compositions of the input (List items
// included) and of convert.Options.Compositions, decoded, once per run.
func (e *extension) compositionObjects(d *convert.Document) []map[string]any {
	if e.comps != nil {
		return e.comps
	}
	e.comps = []map[string]any{}
	add := func(o any) {
		if m, ok := o.(map[string]any); ok && m["kind"] == "Composition" && xp.Group(jsonobj.String(m, "apiVersion")) == xp.GroupAPIExtensions {
			e.comps = append(e.comps, m)
		}
	}
	for _, d := range d.Stream() {
		if d == nil {
			continue
		}
		j, err := d.JSON()
		if err != nil {
			continue
		}
		var m map[string]any
		if json.Unmarshal(j, &m) != nil {
			continue
		}
		add(m)
		if m["apiVersion"] == "v1" && m["kind"] == "List" {
			items, _ := m["items"].([]any)
			for _, it := range items {
				add(it)
			}
		}
	}
	for _, c := range d.Options().Compositions {
		add(c)
	}
	return e.comps
}
