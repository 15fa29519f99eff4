package v2native

import (
	"slices"
	"strings"

	"github.com/crossplane/crossplane-runtime/v2/pkg/fieldpath"
	yaml "go.yaml.in/yaml/v3"

	"github.com/xpmigrate/xpmigrate/convert"
	"github.com/xpmigrate/xpmigrate/convert/xrpath"
	"github.com/xpmigrate/xpmigrate/convert/yamledit"
	"github.com/xpmigrate/xpmigrate/environment"
)

// v2Patch rewrites the XR field paths of patch p for a v2-native XR
// (convert.Options.XRScope namespaced or cluster): the claim's name and namespace
// become the XR's own, machinery moves under spec.crossplane, a connection
// Secret namespace becomes the XR's namespace (a local reference). Paths
// without a v2 equivalent are flagged and kept.
func (c *composition) v2Patch(p *yaml.Node, path, typ string, loc convert.Location) {
	if loc != convert.LocEnvironment && c.v2SecretNamespaceWrite(p, path, typ) {
		return
	}
	for _, ref := range convert.XRFields(p, path, typ) {
		c.v2XRPath(ref)
	}
}

// v2XRPath rewrites one XR field path (a patch's, or an environment
// selector's valueFromFieldPath) for a v2-native XR, or flags it.
func (c *composition) v2XRPath(ref convert.XRField) {
	namespaced := scopeOf(c.o) == "Namespaced"
	s, ok := yamledit.Str(ref.Node)
	if !ok {
		return
	}
	class, segs := xrpath.Classify(s)
	to := ""
	switch class {
	case xrpath.Plain:
		return
	case xrpath.Machinery:
		to = append(fieldpath.Segments{segs[0], fieldpath.Field("crossplane")}, segs[1:]...).String()
		c.Infof("C421", ref.Node, ref.Path, "%s → %s: a v2 XR keeps its Composition and resource references under spec.crossplane", s, to)
	case xrpath.ClaimNamespace, xrpath.ClaimNSLabel:
		if ref.Write || !namespaced {
			c.Warnf("C428", ref.Node, ref.Path, "%s %s: a %s v2 XR has no claim and no namespace of its own, so the patch finds nothing; kept as it is, rewrite or remove it", verb(ref.Write), s, strings.ToLower(scopeOf(c.o)))
			return
		}
		to = "metadata.namespace"
		c.Infof("C426", ref.Node, ref.Path, "%s → metadata.namespace: a namespaced v2 XR has no claim; it lives in the namespace the claim lived in", s)
	case xrpath.ClaimName, xrpath.ClaimNameLabel:
		if ref.Write {
			c.Warnf("C428", ref.Node, ref.Path, "writes %s: a v2 XR has no claim; kept as it is, remove the patch", s)
			return
		}
		to = "metadata.name"
		c.Warnf("C427", ref.Node, ref.Path, "%s → metadata.name: a v2 XR has no claim. The value is the claim's name only for a v2 XR created under that name (as xpmigrate's XR twins of claims are); a legacy XR of a claim was named <claim>-<suffix>, and a new v2 XR has whatever name its creator gives it", s)
	case xrpath.SecretNamespace:
		if ref.Write || !namespaced {
			c.Warnf("C429", ref.Node, ref.Path, "%s %s: a %s v2 XR has no connection Secret reference (function-patch-and-transform composes the Secret, see C424); kept as it is, rewrite or remove it", verb(ref.Write), s, strings.ToLower(scopeOf(c.o)))
			return
		}
		to = "metadata.namespace"
		c.Warnf("C429", ref.Node, ref.Path, "%s → metadata.namespace: a namespaced v2 XR's connection Secret is local, in the XR's namespace", s)
	case xrpath.SecretRef, xrpath.ClaimRef, xrpath.ClaimLabel:
		c.Warnf("C428", ref.Node, ref.Path, "%s %s: a v2 XR has no claim and no native connection Secret reference (unless its XRD schema declares spec.writeConnectionSecretToRef), so the patch finds nothing; kept as it is, rewrite or remove it", verb(ref.Write), s)
		return
	case xrpath.UID:
		c.Warnf("C430", ref.Node, ref.Path, "%s %s kept: a new v2 XR has a new uid, so names built from it change and will not match existing resources (cloud resources named after the old uid are not adopted); read a stable field instead", verb(ref.Write), s)
		return
	}
	r := yamledit.Resolve(ref.Node)
	r.Value, r.Tag, r.Style = to, yamledit.TagStr, 0
}

// v2Selectors rewrites the XR field paths environment selectors match
// labels against (matchLabels of type FromCompositeFieldPath, the
// default), in the list of environment sources srcs at path.
func (c *composition) v2Selectors(srcs *yaml.Node, path string) {
	srcs = yamledit.Resolve(srcs)
	if !yamledit.IsSeq(srcs) {
		return
	}
	for i, s := range srcs.Content {
		ml := yamledit.Resolve(yamledit.Get(yamledit.Get(s, "selector"), "matchLabels"))
		if !yamledit.IsSeq(ml) {
			continue
		}
		for j, m := range ml.Content {
			if t, _ := yamledit.Str(yamledit.Get(m, "type")); t != "" && t != string(environment.LabelMatcherTypeFromCompositeFieldPath) {
				continue
			}
			if n := yamledit.Get(m, "valueFromFieldPath"); n != nil {
				c.v2XRPath(convert.XRField{Node: n, Path: idx(idx(path, i)+".selector.matchLabels", j) + ".valueFromFieldPath"})
			}
		}
	}
}

func verb(write bool) string {
	if write {
		return "writes"
	}
	return "reads"
}

// v2SecretNamespaceWrite marks for removal a patch that writes a composed
// resource's spec.writeConnectionSecretToRef.namespace, for a namespaced
// XR: its composed resources are namespaced and their Secret references
// local (no namespace field). It reports whether it marked p.
func (c *composition) v2SecretNamespaceWrite(p *yaml.Node, path, typ string) bool {
	if scopeOf(c.o) != "Namespaced" || !writesComposed(typ) {
		return false
	}
	n := yamledit.Get(p, "toFieldPath")
	s, _ := yamledit.Str(n)
	if segs, err := fieldpath.Parse(s); err != nil || segs.String() != "spec.writeConnectionSecretToRef.namespace" {
		return false
	}
	if c.drop == nil {
		c.drop = map[*yaml.Node]bool{}
	}
	c.drop[yamledit.Resolve(p)] = true
	c.Warnf("C429", n, path, "removed: the patch writes the composed resource's spec.writeConnectionSecretToRef.namespace, which namespaced managed resources do not have (their connection Secret is local, in the XR's namespace)")
	return true
}

// v2DropPatches removes the patches v2SecretNamespaceWrite marked from the
// patch lists of the templates, the patch sets and the environment.
func (c *composition) v2DropPatches(spec, res *yaml.Node) {
	if len(c.drop) == 0 {
		return
	}
	drop := func(seq *yaml.Node) {
		seq = yamledit.Resolve(seq)
		if !yamledit.IsSeq(seq) {
			return
		}
		seq.Content = slices.DeleteFunc(seq.Content, func(n *yaml.Node) bool { return c.drop[yamledit.Resolve(n)] })
	}
	for _, t := range res.Content {
		drop(yamledit.Get(t, "patches"))
	}
	if sets := yamledit.Resolve(yamledit.Get(spec, "patchSets")); yamledit.IsSeq(sets) {
		for _, ps := range sets.Content {
			drop(yamledit.Get(ps, "patches"))
		}
	}
	drop(yamledit.Get(yamledit.Get(spec, "environment"), "patches"))
}
