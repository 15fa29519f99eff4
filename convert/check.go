package convert

import (
	"fmt"

	yaml "go.yaml.in/yaml/v3"

	"github.com/xpmigrate/xpmigrate/convert/yamledit"
)

// run checks the Composition, and returns its spec and mode, and false
// when it cannot convert.
func (c checkPass) run() (spec *yaml.Node, mode string, ok bool) {
	if c.failed {
		return nil, "", false
	}
	if n, path := templateLike(c.node, ""); n != nil {
		c.errorf("C102", n, path, "this looks like a template (Helm or similar), not YAML: render it first")
		return nil, "", false
	}
	c.dropDuplicateKeys(c.node, "", 0)
	spec = yamledit.Get(c.node, "spec")
	if !yamledit.IsMap(spec) {
		c.errorf("C107", spec, "spec", "a Composition needs a spec with resources")
		return nil, "", false
	}
	spec = yamledit.Resolve(spec)
	mode = "Resources"
	if m := yamledit.Get(spec, "mode"); m != nil && !yamledit.IsNull(m) {
		s, ok := yamledit.Str(m)
		if !ok || (s != "Resources" && s != "Pipeline") {
			c.errorf("C103", m, "spec.mode", "unknown mode %q (want Resources or Pipeline)", yamledit.Resolve(m).Value)
			return nil, "", false
		}
		mode = s
	}
	c.alphaFunctions(spec)
	return spec, mode, true
}

// resources checks the resources of a Resources-mode Composition, and
// returns them, or nil when the Composition cannot convert.
func (c checkPass) resources(spec *yaml.Node) *yaml.Node {
	if p := yamledit.Get(spec, "pipeline"); !yamledit.IsEmpty(p) {
		c.errorf("C104", p, "spec.pipeline", "a Resources-mode Composition with pipeline steps is ambiguous (native ignored them): remove the steps, or set mode: Pipeline and move the resources into a step by hand")
		return nil
	}
	c.noResources(spec)
	res := yamledit.Resolve(yamledit.Get(spec, "resources"))
	if !yamledit.IsSeq(res) {
		c.errorf("C107", res, "spec.resources", "spec.resources must be a list of resource templates")
		return nil
	}
	return res
}

// templateLike finds what a YAML reader accepts but only a template engine
// writes: a mapping key that is itself a collection, which is how an
// unquoted `{{ .Values.x }}` reads. (`{{` inside a string is left alone:
// alert descriptions and provider templates use it.)
func templateLike(n *yaml.Node, path string) (*yaml.Node, string) {
	if !hasCollectionKey(n, 0) {
		return nil, ""
	}
	var found *yaml.Node
	var at string
	var walk func(n *yaml.Node, path string, depth int)
	walk = func(n *yaml.Node, path string, depth int) {
		if n == nil || found != nil || depth > 200 {
			return
		}
		switch n.Kind {
		case yaml.MappingNode:
			for i := 0; i+1 < len(n.Content); i += 2 {
				k := n.Content[i]
				if k.Kind != yaml.ScalarNode {
					found, at = k, path
					return
				}
				walk(n.Content[i+1], joinPath(path, k.Value), depth+1)
			}
		case yaml.SequenceNode:
			for i, it := range n.Content {
				walk(it, fmt.Sprintf("%s[%d]", path, i), depth+1)
			}
		}
	}
	walk(n, path, 0)
	return found, at
}

// hasCollectionKey reports whether a mapping at or below n has a key that
// is not a scalar (templateLike without the paths).
func hasCollectionKey(n *yaml.Node, depth int) bool {
	if n == nil || depth > 200 {
		return false
	}
	switch n.Kind {
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i].Kind != yaml.ScalarNode || hasCollectionKey(n.Content[i+1], depth+1) {
				return true
			}
		}
	case yaml.SequenceNode:
		for _, it := range n.Content {
			if hasCollectionKey(it, depth+1) {
				return true
			}
		}
	}
	return false
}

// alphaFunctions handles the alpha spec.functions of Crossplane 1.11–1.13.
// From 1.14 on the API server pruned the field and ran the rest of the
// Composition as it was, so the conversion converts that rest and drops
// the field, with C214. Phase 1 keeps the document as it is.
func (c checkPass) alphaFunctions(spec *yaml.Node) {
	k := yamledit.Key(spec, "functions")
	if k == nil {
		return
	}
	if c.r.o.Phase1 {
		c.warnf("C214", k, "spec.functions", "the alpha spec.functions (Crossplane 1.11–1.13) is ignored: from Crossplane 1.14 on the API server prunes it, so these functions do not run; the rest of the Composition runs without them")
		return
	}
	yamledit.Delete(spec, "functions")
	c.changed = true
	c.warnf("C214", k, "spec.functions", "removed the alpha spec.functions (Crossplane 1.11–1.13): from Crossplane 1.14 on the API server prunes it, so these functions did not run; the rest of the Composition, which is what the cluster ran, is converted without them")
}

// noResources handles a Resources-mode Composition without resources: a
// kustomize base whose overlays add them. Native Crossplane refuses it
// (spec.resources: Required value), and function-patch-and-transform
// refuses an input with no resources and no environment patches: the
// conversion writes `resources: []` into the function input, so that both
// refuse the base alone, and overlays that add resources (at their new
// place) complete it. It reports whether the resources were missing.
func (c checkPass) noResources(spec *yaml.Node) bool {
	k := yamledit.Key(spec, "resources")
	res := yamledit.Resolve(yamledit.Get(spec, "resources"))
	if k != nil && !yamledit.IsNull(res) && (!yamledit.IsSeq(res) || len(res.Content) > 0) {
		return false
	}
	at := spec
	if k != nil {
		at = k
	}
	if c.r.o.Phase1 {
		c.warnf("C214", at, "spec.resources", "this Composition has no resources: Crossplane refuses it alone (spec.resources: Required value), so it is presumably a base that kustomize overlays add resources to; phase 1 has nothing to name")
		return true
	}
	empty := yamledit.NewSeq()
	empty.Style = yaml.FlowStyle
	if k == nil {
		yamledit.Set(spec, "resources", empty)
	} else if !yamledit.IsSeq(res) {
		yamledit.Set(spec, "resources", empty)
	}
	c.emptyResources = true
	c.warnf("C214", at, "spec.resources", "this Composition has no resources: converted with `resources: []` in the function input. Crossplane refuses it alone (spec.resources: Required value), and so does function-patch-and-transform (resources or environment patches are required) unless environment patches run; presumably a base that kustomize overlays add resources to: they must now add them under spec.pipeline[].input.resources")
	return true
}

// dropDuplicateKeys removes the earlier of two equal keys in a mapping:
// kubectl keeps only the last, so the earlier never reached the cluster.
func (c checkPass) dropDuplicateKeys(n *yaml.Node, path string, depth int) {
	if n == nil || depth > 200 || n.Kind == yaml.AliasNode {
		return
	}
	if depth == 0 && !hasDuplicateKeys(n, 0) {
		return
	}
	switch n.Kind {
	case yaml.MappingNode:
		last := map[string]int{}
		for i := 0; i+1 < len(n.Content); i += 2 {
			if k := n.Content[i]; k.Kind == yaml.ScalarNode && k.Value != "<<" {
				last[k.Value] = i
			}
		}
		kept := n.Content[:0:0]
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			if k.Kind == yaml.ScalarNode && k.Value != "<<" && last[k.Value] != i {
				c.warnf("C203", k, joinPath(path, k.Value), "duplicate key removed: kubectl keeps only the last %q, so this one never reached the cluster", k.Value)
				continue
			}
			kept = append(kept, k, v)
			c.dropDuplicateKeys(v, joinPath(path, k.Value), depth+1)
		}
		if len(kept) != len(n.Content) {
			n.Content = kept
		}
	case yaml.SequenceNode:
		for i, it := range n.Content {
			c.dropDuplicateKeys(it, idx(path, i), depth+1)
		}
	}
}

// hasDuplicateKeys reports whether a mapping at or below n (not through
// aliases) has two equal scalar keys other than `<<`: whether
// dropDuplicateKeys has anything to do.
func hasDuplicateKeys(n *yaml.Node, depth int) bool {
	if n == nil || depth > 200 || n.Kind == yaml.AliasNode {
		return false
	}
	switch n.Kind {
	case yaml.MappingNode:
		var seen map[string]bool // for large mappings
		if len(n.Content) > 64 {
			seen = map[string]bool{}
		}
		for i := 0; i+1 < len(n.Content); i += 2 {
			if k := n.Content[i]; k.Kind == yaml.ScalarNode && k.Value != "<<" {
				if seen != nil {
					if seen[k.Value] {
						return true
					}
					seen[k.Value] = true
				} else {
					for j := i + 2; j+1 < len(n.Content); j += 2 {
						if o := n.Content[j]; o.Kind == yaml.ScalarNode && o.Value == k.Value {
							return true
						}
					}
				}
			}
			if hasDuplicateKeys(n.Content[i+1], depth+1) {
				return true
			}
		}
	case yaml.SequenceNode:
		for _, it := range n.Content {
			if hasDuplicateKeys(it, depth+1) {
				return true
			}
		}
	}
	return false
}
