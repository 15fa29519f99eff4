package convert

import (
	"fmt"
	"slices"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/xpmigrate/xpmigrate/convert/yamledit"
)

// lintCodes are the findings reported for function-patch-and-transform
// steps already in a pipeline (docs/semantics/conversion.md#mode-decision: the docs/semantics/conversion.md#constructs-with-no-exact-equivalent lint).
var lintCodes = []Code{"C208", "C209", "C210", "C211", "C315", "C317"}

// pipelineMode handles a Composition that is already a pipeline: leftover
// Resources-mode fields are removed, a native environment is converted
// (docs/semantics/conversion.md#pipeline-compositions-with-a-native-environment), and the patch-and-transform steps are linted.
func (c pipelinePass) pipelineMode(spec *yaml.Node) {
	for _, k := range []string{"resources", "patchSets"} {
		if kn := yamledit.Key(spec, k); kn != nil {
			yamledit.Delete(spec, k)
			c.warnf("C201", kn, "spec."+k, "removed spec.%s: native Crossplane ignored it in Pipeline mode and Crossplane v2 prunes it", k)
			c.changed = true
		}
	}
	if envKey := yamledit.Key(spec, "environment"); envKey != nil {
		c.pipelineEnvironment(spec)
		if c.failed {
			return
		}
		c.changed = true
	}
	c.lintSteps(spec)
	if c.ext != nil && !c.failed {
		if p := c.ext.Pipeline(spec); p != nil {
			c.plan, c.changed = p, true
		}
	}
	if c.changed {
		normalisePass(c).stripServerFields()
		c.expandEarlyAliases()
		validatePass(c).validateOutput(spec)
	}
}

// pipelineEnvironment converts spec.environment of a Pipeline-mode
// Composition (Crossplane 1.14–1.17 style): an environment-configs step
// goes first, the environment patches (ignored natively in Pipeline mode)
// are dropped, or moved with --move-env-patches.
func (c pipelinePass) pipelineEnvironment(spec *yaml.Node) {
	env := normalisePass(c).environment(spec)
	yamledit.Delete(spec, "environment")
	if env == nil || c.failed {
		return
	}
	c.blockStyle(spec)
	steps := yamledit.Resolve(yamledit.Get(spec, "pipeline"))
	if !yamledit.IsSeq(steps) {
		steps = yamledit.NewSeq()
		yamledit.Set(spec, "pipeline", steps)
	}
	if env.patches != nil {
		if !c.r.o.MoveEnvPatches {
			c.warnf("C207", env.patchesKey, "spec.environment.patches", "dropped the environment patches: native Crossplane ignored them in Pipeline mode (crossplane/crossplane#5267); --move-env-patches moves them into the patch-and-transform step instead, which changes behaviour")
		} else {
			c.moveEnvPatches(steps, env)
			if c.failed {
				return
			}
		}
	}
	if env.ec == nil {
		return
	}
	name := c.r.o.ECStep
	taken := map[string]bool{}
	for _, s := range steps.Content {
		if n, ok := yamledit.Str(yamledit.Get(s, "step")); ok {
			taken[n] = true
		}
	}
	if taken[name] {
		base := name
		for i := 2; taken[name]; i++ {
			name = fmt.Sprintf("%s-%d", base, i)
		}
		c.infof("C304", steps, "spec.pipeline", "step name %q is taken; the environment-configs step is named %q", base, name)
	}
	steps.Content = slices.Insert(steps.Content, 0, c.step(name, c.r.ecFunction, env.ec))
	c.usedEC = true
}

// PTSteps returns the indexes of the steps whose input is a
// patch-and-transform input.
func PTSteps(steps *yaml.Node) []int {
	var out []int
	for i, s := range yamledit.Resolve(steps).Content {
		in := yamledit.Get(s, "input")
		av, _ := yamledit.Str(yamledit.Get(in, "apiVersion"))
		k, _ := yamledit.Str(yamledit.Get(in, "kind"))
		if av == PTInputAPIVersion && k == PTInputKind {
			out = append(out, i)
		}
	}
	return out
}

// moveEnvPatches appends the environment patches to the
// environment.patches of the only patch-and-transform step (C113 when
// there is not exactly one).
func (c pipelinePass) moveEnvPatches(steps *yaml.Node, env *envSplit) {
	pts := PTSteps(steps)
	if len(pts) != 1 {
		c.errorf("C113", env.patchesKey, "spec.environment.patches", "cannot move the environment patches: the pipeline has %d patch-and-transform steps, not exactly one", len(pts))
		return
	}
	in := yamledit.Resolve(yamledit.Get(steps.Content[pts[0]], "input"))
	e := yamledit.Resolve(yamledit.Get(in, "environment"))
	if e == nil || yamledit.IsNull(e) {
		e = yamledit.NewMap()
		yamledit.Insert(in, yamledit.Index(in, "kind")+1, "environment", e)
	}
	ps := yamledit.Resolve(yamledit.Get(e, "patches"))
	if ps == nil || yamledit.IsNull(ps) {
		ps = yamledit.NewSeq()
		yamledit.Set(e, "patches", ps)
	}
	ps.Content = append(ps.Content, yamledit.Resolve(env.patches).Content...)
}

// lintSteps reports the docs/semantics/conversion.md#constructs-with-no-exact-equivalent findings for every patch-and-transform step.
// It works on a copy: linting never changes the input.
func (c pipelinePass) lintSteps(spec *yaml.Node) {
	steps := yamledit.Get(spec, "pipeline")
	if !yamledit.IsSeq(steps) {
		return
	}
	for _, i := range PTSteps(steps) {
		budget := 1 << 20
		in := cloneTree(yamledit.Get(yamledit.Resolve(steps).Content[i], "input"), 0, &budget)
		l := &composition{r: c.r, doc: c.doc, index: c.index, lineBase: c.lineBase, base: c.base, name: c.name, node: c.node,
			visited: map[*yaml.Node]bool{}, sets: map[string]bool{}, lint: true}
		path := idx("spec.pipeline", i) + ".input"
		if sets := yamledit.Get(in, "patchSets"); yamledit.IsSeq(sets) {
			normalisePass{l}.patchSetsAt(sets, path+".patchSets")
		}
		if e := yamledit.Get(yamledit.Get(in, "environment"), "patches"); yamledit.IsSeq(e) {
			normalisePass{l}.patches(e, path+".environment.patches", LocEnvironment)
		}
		if res := yamledit.Resolve(yamledit.Get(in, "resources")); yamledit.IsSeq(res) {
			for j, t := range res.Content {
				normalisePass{l}.template(t, idx(path+".resources", j))
			}
		}
		if l.fallible != "" {
			l.infof("C317", l.fallNode, l.fallible, "a patch that fails (a transform that cannot convert, match or map its input) fails the whole XR with a fatal result; natively only that resource was skipped")
		}
	}
}

// cloneTree copies a tree, positions and styles included, so that findings
// about the copy carry the lines of the original.
// Aliases are expanded, within a budget (beyond it, nodes are shared).
func cloneTree(n *yaml.Node, depth int, budget *int) *yaml.Node {
	if *budget--; n == nil || depth > 500 || *budget < 0 {
		return n
	}
	if n.Kind == yaml.AliasNode {
		return cloneTree(n.Alias, depth+1, budget)
	}
	c := *n
	c.Content = nil
	for _, ch := range n.Content {
		c.Content = append(c.Content, cloneTree(ch, depth+1, budget))
	}
	return &c
}

// assemble replaces spec.resources, spec.patchSets and spec.environment by
// the pipeline (docs/semantics/conversion.md#the-composition-object, docs/semantics/conversion.md#pipeline-layout, docs/semantics/conversion.md#the-patch-and-transform-input).
func (c pipelinePass) assemble(spec, res *yaml.Node, env *envSplit) {
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
func (c pipelinePass) step(name, fn string, input *yaml.Node) *yaml.Node {
	ref := yamledit.NewMap()
	yamledit.Set(ref, "name", yamledit.NewString(fn))
	s := yamledit.NewMap()
	yamledit.Set(s, "step", yamledit.NewString(name))
	yamledit.Set(s, "functionRef", ref)
	yamledit.Set(s, "input", input)
	return s
}

// blockStyle writes the Composition and its spec in block style when they
// were flow collections (JSON, or `spec: {…}`): the new pipeline is block
// style, and a flow collection cannot hold one.
func (c pipelinePass) blockStyle(spec *yaml.Node) {
	c.node.Style &^= yaml.FlowStyle
	spec.Style &^= yaml.FlowStyle
}

// expandEarlyAliases replaces each alias that would come before its anchor
// (or whose anchor is gone) by a copy of what it names (C306).
func (c pipelinePass) expandEarlyAliases() {
	if !yamledit.HasAlias(c.doc.Top()) {
		return
	}
	defined := map[*yaml.Node]bool{}
	var walk func(n *yaml.Node, path string, depth int)
	walk = func(n *yaml.Node, path string, depth int) {
		if n == nil || depth > 1000 {
			return
		}
		defined[n] = true
		for i, ch := range n.Content {
			p := path
			switch {
			case n.Kind == yaml.MappingNode && i%2 == 1:
				p = joinPath(path, n.Content[i-1].Value)
			case n.Kind == yaml.SequenceNode:
				p = idx(path, i)
			}
			if ch.Kind == yaml.AliasNode && ch.Alias != nil && !defined[ch.Alias] {
				n.Content[i] = yamledit.Clone(ch.Alias)
				c.infof("C306", ch, strings.TrimPrefix(p, trimDot(c.base)+"."), "expanded the alias *%s: after the move it would come before its anchor", ch.Value)
				ch = n.Content[i]
			}
			walk(ch, p, depth+1)
		}
	}
	walk(c.doc.Top(), "", 0)
}
