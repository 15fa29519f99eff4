package convert

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	yaml "go.yaml.in/yaml/v3"
	"k8s.io/apimachinery/pkg/util/validation"

	"github.com/xpmigrate/xpmigrate/convert/yamledit"
	"github.com/xpmigrate/xpmigrate/internal/manifest"
)

// Group, version and kind of the function inputs the converter writes.
const (
	PTInputAPIVersion = "pt.fn.crossplane.io/v1beta1"
	PTInputKind       = "Resources"
	ECInputAPIVersion = "environmentconfigs.fn.crossplane.io/v1beta1"
	ECInputKind       = "Input"
)

// composition is one Composition being converted.
type composition struct {
	r        *run
	doc      *yamledit.Doc
	index    int
	lineBase int    // the document's first line, minus one
	base     string // path of the Composition in the document ("" or "items[3].")
	name     string
	node     *yaml.Node

	failed  bool
	changed bool
	lint    bool // report only lintCodes, never fail (linting a pipeline)
	usedEC  bool // an environment-configs step was written

	visited        map[*yaml.Node]bool // shared (aliased) nodes normalised once
	errPaths       []string            // paths of the errors reported
	inferred       []string            // transforms whose type was inferred
	sets           map[string]bool     // declared patch set names
	fallible       string              // the first transform able to fail (C317)
	envWrite       bool                // a patch writes to the environment
	emptyResources bool                // converted without resources (C214)
	intended       []string            // codes of the quirks fixed on request
	xrIndexed      []indexedWrite      // ToComposite writes of XR list items (C217)
	fallNode       *yaml.Node
	inJSON         []byte             // the input, as kubectl reads it
	outJSON        []byte             // the whole output document as kubectl will read it (base "" only)
	outView        *manifest.JSONView // outJSON, indexed
}

// errorf, warnf and infof report a finding about node n at path (relative
// to the Composition).
func (c *composition) errorf(code Code, n *yaml.Node, path, format string, args ...any) {
	c.report(code, n, path, fmt.Sprintf(format, args...))
}

func (c *composition) warnf(code Code, n *yaml.Node, path, format string, args ...any) {
	c.report(code, n, path, fmt.Sprintf(format, args...))
}

func (c *composition) infof(code Code, n *yaml.Node, path, format string, args ...any) {
	c.report(code, n, path, fmt.Sprintf(format, args...))
}

func (c *composition) report(code Code, n *yaml.Node, path, msg string) {
	info, _ := Lookup(code)
	if c.lint && !slices.Contains(lintCodes, code) {
		return
	}
	line := 0
	if n != nil && n.Line > 0 {
		line = c.lineBase + n.Line
	} else if c.node.Line > 0 {
		line = c.lineBase + c.node.Line
	}
	if info.Severity == SeverityError {
		c.failed = true
		c.errPaths = append(c.errPaths, path)
	}
	c.r.add(Diagnostic{
		Code: code, Severity: info.Severity, Line: line, Document: c.index,
		Composition: c.name, Path: c.base + path, Message: msg,
	})
}

// convert converts the Composition in place (conversion spec §2, §3).
func (c *composition) convert() {
	if c.failed {
		return
	}
	if n, path := templateLike(c.node, ""); n != nil {
		c.errorf("C102", n, path, "this looks like a template (Helm or similar), not YAML: render it first")
		return
	}
	c.dropDuplicateKeys(c.node, "", 0)
	spec := yamledit.Get(c.node, "spec")
	if !yamledit.IsMap(spec) {
		c.errorf("C107", spec, "spec", "a Composition needs a spec with resources")
		return
	}
	spec = yamledit.Resolve(spec)
	mode := "Resources"
	if m := yamledit.Get(spec, "mode"); m != nil && !yamledit.IsNull(m) {
		s, ok := yamledit.Str(m)
		if !ok || (s != "Resources" && s != "Pipeline") {
			c.errorf("C103", m, "spec.mode", "unknown mode %q (want Resources or Pipeline)", yamledit.Resolve(m).Value)
			return
		}
		mode = s
	}
	c.alphaFunctions(spec)
	switch {
	case c.r.o.Phase1 && mode == "Resources":
		c.phase1(spec)
	case c.r.o.Phase1:
		return
	case mode == "Resources":
		c.resourcesMode(spec)
	default:
		c.pipelineMode(spec)
	}
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

func joinPath(path, key string) string {
	if path == "" {
		return key
	}
	if strings.ContainsAny(key, ".[]") {
		return path + "[" + key + "]"
	}
	return path + "." + key
}

func idx(path string, i int) string { return path + "[" + strconv.Itoa(i) + "]" }

// stripServerFields removes what `kubectl get -o yaml` adds (conversion
// spec §1.5).
func (c *composition) stripServerFields() {
	if c.r.o.KeepServerFields {
		return
	}
	var removed []string
	if yamledit.Delete(c.node, "status") {
		removed = append(removed, "status")
	}
	md := yamledit.Resolve(yamledit.Get(c.node, "metadata"))
	if yamledit.IsMap(md) {
		for _, k := range []string{"uid", "resourceVersion", "generation", "creationTimestamp", "managedFields", "selfLink"} {
			if yamledit.Delete(md, k) {
				removed = append(removed, "metadata."+k)
			}
		}
		if an := yamledit.Resolve(yamledit.Get(md, "annotations")); yamledit.IsMap(an) {
			const lac = "kubectl.kubernetes.io/last-applied-configuration"
			if yamledit.Delete(an, lac) {
				removed = append(removed, "metadata.annotations["+lac+"]")
				if len(an.Content) == 0 {
					yamledit.Delete(md, "annotations")
				}
			}
		}
	}
	if len(removed) > 0 {
		c.infof("C302", c.node, "", "removed the server fields %s (use --keep-server-fields to keep them)", strings.Join(removed, ", "))
	}
}

// specKeys are the keys of a v1 Composition's spec that the converter
// knows.
var specKeys = []string{
	"compositeTypeRef", "mode", "pipeline", "resources", "patchSets", "environment",
	"writeConnectionSecretsToNamespace", "publishConnectionDetailsWithStoreConfigRef", "functions",
}

// unknownSpecKeys reports spec keys the API server would prune (C203), or,
// for target v2, refuses them (C191).
func (c *composition) unknownSpecKeys(spec *yaml.Node) {
	yamledit.Pairs(spec, func(_ int, k, v *yaml.Node) {
		if slices.Contains(specKeys, k.Value) || k.Value == "<<" {
			return
		}
		if c.r.o.Target == TargetV2 {
			c.errorf("C191", k, "spec."+k.Value, "unknown field: Crossplane v2 rejects it under strict field validation; remove it")
			return
		}
		c.warnf("C203", k, "spec."+k.Value, "unknown field kept; the API server prunes it (or rejects it under strict field validation)")
	})
}

// storeConfigRef applies the target rule for
// publishConnectionDetailsWithStoreConfigRef (conversion spec §3).
func (c *composition) storeConfigRef(spec *yaml.Node) {
	v := yamledit.Get(spec, "publishConnectionDetailsWithStoreConfigRef")
	if v == nil || c.r.o.Target != TargetV2 {
		return
	}
	k := yamledit.Key(spec, "publishConnectionDetailsWithStoreConfigRef")
	name, _ := yamledit.Str(yamledit.Get(v, "name"))
	isDefault := yamledit.IsMap(v) && len(yamledit.Keys(v)) == 1 && name == "default"
	yamledit.Delete(spec, "publishConnectionDetailsWithStoreConfigRef")
	if isDefault || yamledit.IsNull(v) {
		c.infof("C303", k, "spec.publishConnectionDetailsWithStoreConfigRef", "removed the default external secret store reference: Crossplane v2 has no external secret stores")
		return
	}
	c.warnf("C202", k, "spec.publishConnectionDetailsWithStoreConfigRef", "external secret stores are removed in Crossplane v2: connection details published to store config %q are no longer written", name)
}

// alphaFunctions handles the alpha spec.functions of Crossplane 1.11–1.13.
// From 1.14 on the API server pruned the field and ran the rest of the
// Composition as it was, so the conversion converts that rest and drops
// the field, with C214. Phase 1 keeps the document as it is.
func (c *composition) alphaFunctions(spec *yaml.Node) {
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
func (c *composition) noResources(spec *yaml.Node) bool {
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

// phase1 names the unnamed templates and changes nothing else (the first
// step of the rollout of conversion spec §11 N1).
func (c *composition) phase1(spec *yaml.Node) {
	if c.noResources(spec) {
		return
	}
	res := yamledit.Resolve(yamledit.Get(spec, "resources"))
	if !yamledit.IsSeq(res) {
		c.errorf("C107", res, "spec.resources", "spec.resources must be a list of resource templates")
		return
	}
	if c.names(res) {
		c.changed = true
	}
}

// resourcesMode is the full conversion (conversion spec §3–§10).
func (c *composition) resourcesMode(spec *yaml.Node) {
	if p := yamledit.Get(spec, "pipeline"); !yamledit.IsEmpty(p) {
		c.errorf("C104", p, "spec.pipeline", "a Resources-mode Composition with pipeline steps is ambiguous (native ignored them): remove the steps, or set mode: Pipeline and move the resources into a step by hand")
		return
	}
	c.noResources(spec)
	res := yamledit.Resolve(yamledit.Get(spec, "resources"))
	if !yamledit.IsSeq(res) {
		c.errorf("C107", res, "spec.resources", "spec.resources must be a list of resource templates")
		return
	}
	c.stripServerFields()
	c.unknownSpecKeys(spec)
	if k := yamledit.Key(spec, "writeConnectionSecretsToNamespace"); k != nil && c.r.o.XRStyleV2 {
		c.infof("C322", k, "spec.writeConnectionSecretsToNamespace", "v2-style XRs have no native connection secret: the function composes a Secret itself when its input sets writeConnectionSecretToRef")
	}
	c.names(res)

	if c.r.o.EnvironmentFlagOff {
		c.dropEnvironmentPatches(spec)
	}
	c.envWrite = envWrites(spec)
	c.sets = map[string]bool{}
	sets := yamledit.Resolve(yamledit.Get(spec, "patchSets"))
	if sets != nil && !yamledit.IsNull(sets) {
		c.patchSetsAt(sets, "spec.patchSets")
	}
	for i, t := range res.Content {
		c.template(t, idx("spec.resources", i))
	}
	env := c.environment(spec)
	c.xrIndexedWrites()
	c.storeConfigRef(spec)
	c.nativeValidation()
	if c.fallible != "" && !c.failed {
		c.infof("C317", c.fallNode, c.fallible, "a patch that fails (a transform that cannot convert, match or map its input) now fails the whole XR with a fatal result; natively only that resource was skipped")
	}
	if c.failed {
		return
	}
	c.assemble(spec, res, env)
	c.annotateIntended()
	c.validateOutput(spec)
	c.changed = true
}

// assemble replaces spec.resources, spec.patchSets and spec.environment by
// the pipeline (conversion spec §3, §4, §5).
func (c *composition) assemble(spec, res *yaml.Node, env *envSplit) {
	input := yamledit.NewMap()
	yamledit.Set(input, "apiVersion", yamledit.NewString(PTInputAPIVersion))
	yamledit.Set(input, "kind", yamledit.NewString(PTInputKind))
	// Moved blocks keep their relative order (and their key nodes, so the
	// comments above them move along).
	yamledit.Pairs(spec, func(_ int, k, v *yaml.Node) {
		switch k.Value {
		case "environment":
			if env != nil && env.patches != nil {
				e := yamledit.NewMap()
				e.Content = append(e.Content, env.patchesKey, env.patches)
				input.Content = append(input.Content, k, e)
			}
		case "patchSets":
			if !yamledit.IsEmpty(v) {
				input.Content = append(input.Content, k, v)
			}
		case "resources":
			input.Content = append(input.Content, yamledit.NewKey("resources"), v)
		}
	})

	pipeline := yamledit.NewSeq()
	if env != nil && env.ec != nil {
		pipeline.Content = append(pipeline.Content, c.step(c.r.o.ECStep, c.r.ecFunction, env.ec))
		c.usedEC = true
	}
	pipeline.Content = append(pipeline.Content, c.step(c.r.o.PTStep, c.r.ptFunction, input))

	c.blockStyle(spec)
	// An empty pipeline key (Resources mode ignores it) makes way.
	yamledit.Delete(spec, "pipeline")
	yamledit.Rename(spec, "resources", "pipeline")
	yamledit.Set(spec, "pipeline", pipeline)
	yamledit.Delete(spec, "patchSets")
	yamledit.Delete(spec, "environment")
	if m := yamledit.Get(spec, "mode"); m != nil && m.Kind == yaml.ScalarNode && !yamledit.IsNull(m) {
		m.Value, m.Tag = "Pipeline", yamledit.TagStr
	} else {
		yamledit.Delete(spec, "mode")
		yamledit.Insert(spec, yamledit.Index(spec, "pipeline"), "mode", yamledit.NewString("Pipeline"))
	}
	c.expandEarlyAliases()
}

// step returns a pipeline step.
func (c *composition) step(name, fn string, input *yaml.Node) *yaml.Node {
	ref := yamledit.NewMap()
	yamledit.Set(ref, "name", yamledit.NewString(fn))
	s := yamledit.NewMap()
	yamledit.Set(s, "step", yamledit.NewString(name))
	yamledit.Set(s, "functionRef", ref)
	yamledit.Set(s, "input", input)
	return s
}

// names names the templates when none is named, and checks the names
// otherwise (conversion spec §6.2). It reports whether it added names.
func (c *composition) names(res *yaml.Node) bool {
	var named, unnamed []int
	for i, t := range res.Content {
		if s, ok := yamledit.Str(yamledit.Get(t, "name")); ok && s == "" || yamledit.IsNull(yamledit.Get(t, "name")) {
			unnamed = append(unnamed, i)
			continue
		}
		named = append(named, i)
	}
	switch {
	case len(named) > 0 && len(unnamed) > 0:
		for _, i := range unnamed {
			c.errorf("C109", res.Content[i], idx("spec.resources", i)+".name", "cannot mix named and unnamed resources: name all of them or none")
		}
		return false
	case len(unnamed) == 0:
		seen := map[string]int{}
		for i, t := range res.Content {
			name, ok := yamledit.Str(yamledit.Get(t, "name"))
			if !ok {
				continue // Output validation reports a name that is not a string.
			}
			if j, dup := seen[name]; dup {
				c.errorf("C108", yamledit.Get(t, "name"), idx("spec.resources", i)+".name", "duplicate resource name %q (also resources[%d]): the function would silently keep only the later template", name, j)
				continue
			}
			seen[name] = i
			if c.r.o.Target == TargetV2 && len(validation.IsDNS1123Label(name)) > 0 {
				c.infof("C307", yamledit.Get(t, "name"), idx("spec.resources", i)+".name", "resource name %q is not a DNS-1123 label: Crossplane v2.0.0 derived composed resource names from it and failed; use v2.0.1 or later, or rename it", name)
			}
		}
		return false
	}
	var generated []string
	for i, t := range res.Content {
		t = yamledit.Resolve(t)
		if !yamledit.IsMap(t) {
			continue // The template check reports it.
		}
		name := c.generatedName(t, i)
		generated = append(generated, name)
		if yamledit.Index(t, "name") >= 0 {
			yamledit.Set(t, "name", yamledit.NewString(name))
		} else {
			yamledit.Insert(t, 0, "name", yamledit.NewString(name))
		}
	}
	msg := fmt.Sprintf("named the unnamed templates %s. Existing XRs break if this Pipeline Composition is applied directly: their composed resources lack the crossplane.io/composition-resource-name annotation. Roll out in two phases: first apply the Resources-mode Composition with these names (--phase1), wait until every XR using it has reconciled, then apply this one", strings.Join(generated, ", "))
	if c.r.o.Phase1 {
		msg = fmt.Sprintf("named the unnamed templates %s (phase 1): apply this Resources-mode Composition, wait until every XR using it has reconciled, then apply the converted Pipeline Composition", strings.Join(generated, ", "))
	}
	c.warnf("C204", res, "spec.resources", "%s", msg)
	return true
}

// generatedName is the name of unnamed template i (conversion spec §6.2).
func (c *composition) generatedName(t *yaml.Node, i int) string {
	if c.r.o.NameStrategy == NameByKind {
		if k, ok := yamledit.Str(yamledit.Get(yamledit.Get(t, "base"), "kind")); ok && k != "" {
			return fmt.Sprintf("%s-%d", strings.ToLower(k), i)
		}
	}
	return fmt.Sprintf("resource-%d", i)
}

// templateKeys are the keys a resource template may have in the function
// input.
var templateKeys = []string{"name", "base", "patches", "connectionDetails", "readinessChecks"}

// template normalises one resource template (conversion spec §6).
func (c *composition) template(t *yaml.Node, path string) {
	t = yamledit.Resolve(t)
	if !yamledit.IsMap(t) {
		c.errorf("C110", t, path, "a resource template must be an object with a base")
		return
	}
	if b := yamledit.Get(t, "base"); yamledit.IsNull(b) {
		c.errorf("C110", t, path+".base", "a resource template needs a base (natively required; in the function a missing base means something else)")
	} else if !yamledit.IsMap(b) {
		c.errorf("C110", b, path+".base", "base must be an object")
	}
	c.dropUnknown(t, path, templateKeys)
	if p := yamledit.Get(t, "patches"); p != nil && !yamledit.IsNull(p) {
		c.patches(p, path+".patches", locResource)
		ps := c.effectivePatches(p, path+".patches")
		c.listKeyMerge(t, ps)
	}
	if cd := yamledit.Get(t, "connectionDetails"); cd != nil && !yamledit.IsNull(cd) {
		c.connectionDetails(cd, path+".connectionDetails")
	}
	if rc := yamledit.Get(t, "readinessChecks"); rc != nil && !yamledit.IsNull(rc) {
		c.readinessChecks(rc, path+".readinessChecks")
	}
}

// dropUnknown removes keys the function input does not know from mapping
// m. The API server pruned them from the legacy Composition, so dropping
// them is what it saw; the function would refuse them.
func (c *composition) dropUnknown(m *yaml.Node, path string, known []string) {
	m = yamledit.Resolve(m)
	if !yamledit.IsMap(m) {
		return
	}
	for _, k := range yamledit.Keys(m) {
		if slices.Contains(known, k) {
			continue
		}
		kn := yamledit.Key(m, k)
		yamledit.Delete(m, k)
		c.warnf("C203", kn, joinPath(path, k), "unknown field removed: the API server pruned it from the legacy Composition, and the function would reject the input because of it")
	}
}

// dropNull removes key from m when its value is null, as the API server
// does for fields without a default.
func dropNull(m *yaml.Node, key string) {
	if v := yamledit.Get(m, key); v != nil && yamledit.IsNull(v) {
		yamledit.Delete(yamledit.Resolve(m), key)
	}
}

// dropDuplicateKeys removes the earlier of two equal keys in a mapping:
// kubectl keeps only the last, so the earlier never reached the cluster.
func (c *composition) dropDuplicateKeys(n *yaml.Node, path string, depth int) {
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

// blockStyle writes the Composition and its spec in block style when they
// were flow collections (JSON, or `spec: {…}`): the new pipeline is block
// style, and a flow collection cannot hold one.
func (c *composition) blockStyle(spec *yaml.Node) {
	c.node.Style &^= yaml.FlowStyle
	spec.Style &^= yaml.FlowStyle
}

// IntendedChangesAnnotation lists, on a converted Composition, the codes of
// the legacy quirks the conversion fixed on request (Options.FixQuirks):
// the behaviour changes verify reports as intended.
const IntendedChangesAnnotation = "xpmigrate.io/intended-changes"

// annotateIntended writes IntendedChangesAnnotation when a quirk was fixed,
// merged with the codes already listed, sorted.
func (c *composition) annotateIntended() {
	if len(c.intended) == 0 {
		return
	}
	md := yamledit.Resolve(yamledit.Get(c.node, "metadata"))
	if !yamledit.IsMap(md) {
		md = yamledit.NewMap()
		yamledit.Insert(c.node, max(yamledit.Index(c.node, "kind")+1, 0), "metadata", md)
	}
	an := yamledit.Resolve(yamledit.Get(md, "annotations"))
	if !yamledit.IsMap(an) {
		yamledit.Delete(md, "annotations")
		an = yamledit.NewMap()
		an.Style = md.Style & yaml.FlowStyle
		yamledit.Set(md, "annotations", an)
	}
	codes := slices.Clone(c.intended)
	if old, ok := yamledit.Str(yamledit.Get(an, IntendedChangesAnnotation)); ok {
		for _, s := range strings.Split(old, ",") {
			if s = strings.TrimSpace(s); s != "" {
				codes = append(codes, s)
			}
		}
	}
	slices.Sort(codes)
	codes = slices.Compact(codes)
	v := yamledit.NewString(strings.Join(codes, ","))
	v.Style = yaml.DoubleQuotedStyle
	yamledit.Set(an, IntendedChangesAnnotation, v)
}
