package convert

import (
	"fmt"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/xpmigrate/xpmigrate/convert/yamledit"
	"github.com/xpmigrate/xpmigrate/environment"
)

// envSplit is spec.environment divided between the two functions
// (docs/semantics/conversion.md#splitting-the-environment).
type envSplit struct {
	// ec is the environment-configs input, nil when no step is needed.
	ec *yaml.Node

	// patchesKey and patches are the environment patches for the
	// patch-and-transform input, nil when there are none.
	patchesKey, patches *yaml.Node
}

var (
	environmentKeys = []string{"defaultData", "environmentConfigs", "policy", "patches"}
	sourceKeys      = []string{"type", "ref", "selector"}
	selectorKeys    = []string{"mode", "maxMatch", "minMatch", "sortByFieldPath", "matchLabels"}
	matcherKeys     = []string{"type", "key", "valueFromFieldPath", "fromFieldPathPolicy", "value"}
)

// environment splits spec.environment (docs/semantics/conversion.md#environment). It returns nil
// when there is none.
func (c normalisePass) environment(spec *yaml.Node) *envSplit {
	const path = "spec.environment"
	envKey := yamledit.Key(spec, "environment")
	env := yamledit.Get(spec, "environment")
	if envKey == nil || yamledit.IsNull(env) {
		return nil
	}
	env = yamledit.Resolve(env)
	if !yamledit.IsMap(env) {
		c.errorf("C111", env, path, "spec.environment must be an object")
		return nil
	}
	if c.r.o.EnvironmentFlagOff {
		c.warnf("C206", envKey, path, "dropped spec.environment: with --assume-env-flag=off it never ran (Crossplane ran without --enable-environment-configs), and converting it would switch it on")
		return nil
	}
	c.infof("C310", envKey, path, "after conversion the environment is always active; natively it ran only with --enable-environment-configs: confirm the flag was on (else convert with --assume-env-flag=off)")
	c.infof("C311", envKey, path, "the XR's spec.environmentConfigRefs is no longer read or written")
	c.dropUnknown(env, path, environmentKeys)
	c.environmentSources(env, path)
	if c.failed {
		return nil
	}
	split := &envSplit{}
	if pk := yamledit.Key(env, "patches"); pk != nil && !yamledit.IsEmpty(yamledit.Get(env, "patches")) {
		c.patches(yamledit.Get(env, "patches"), path+".patches", LocEnvironment)
		split.patchesKey, split.patches = pk, yamledit.Get(env, "patches")
	}
	split.ec = c.ecInput(env, path)
	return split
}

// environmentSources validates environmentConfigs as native did (C111),
// drops fields neither engine knows, and reports the policy findings.
func (c normalisePass) environmentSources(env *yaml.Node, path string) {
	srcs := yamledit.Resolve(yamledit.Get(env, "environmentConfigs"))
	selector := false
	if yamledit.IsSeq(srcs) {
		for i, s := range srcs.Content {
			sp := idx(path+".environmentConfigs", i)
			c.dropUnknown(s, sp, sourceKeys)
			c.dropUnknown(yamledit.Get(s, "ref"), sp+".ref", []string{"name"})
			sel := yamledit.Get(s, "selector")
			c.dropUnknown(sel, sp+".selector", selectorKeys)
			if ml := yamledit.Resolve(yamledit.Get(sel, "matchLabels")); yamledit.IsSeq(ml) {
				for j, m := range ml.Content {
					c.dropUnknown(m, idx(sp+".selector.matchLabels", j), matcherKeys)
				}
			}
			if t, _ := yamledit.Str(yamledit.Get(s, "type")); t == string(environment.SourceTypeSelector) {
				selector = true
			}
		}
	} else if srcs != nil && !yamledit.IsNull(srcs) {
		c.errorf("C111", srcs, path+".environmentConfigs", "environmentConfigs must be a list")
		return
	}
	if c.ext != nil {
		c.ext.EnvironmentSources(srcs, path+".environmentConfigs")
	}
	pol := yamledit.Resolve(yamledit.Get(env, "policy"))
	c.dropUnknown(pol, path+".policy", []string{"resolve", "resolution"})

	// Validate as the v1.17 API server and webhook did.
	j, err := yamledit.JSON(env)
	if err != nil {
		c.errorf("C111", env, path, "cannot read spec.environment: %v", err)
		return
	}
	spec, err := environment.DecodeSpec(j)
	if err != nil {
		c.errorf("C111", env, path, "%v", err)
		return
	}
	spec.Default()
	errs := append(spec.ValidateSchema(), spec.Validate()...)
	for _, fe := range errs {
		c.errorf("C111", nodeAt(env, strings.TrimPrefix(fe.Field, "spec.environment")), fe.Field, "%s", fe.ErrorBody())
	}
	if len(errs) > 0 {
		return
	}
	if selector {
		c.infof("C320", srcs, path+".environmentConfigs", "a selector that matches nothing selected nothing natively; function-environment-configs fails or skips the source depending on its policy and version: check the no-match case")
	}
	if yamledit.IsEmpty(srcs) {
		return
	}
	resolve := ""
	if r := yamledit.Get(pol, "resolve"); r != nil {
		resolve, _ = yamledit.Str(r)
	}
	at := pol
	if at == nil {
		at = srcs
	}
	switch {
	case resolve == string(environment.ResolvePolicyAlways):
	case selector:
		c.warnf("C205", at, path+".policy.resolve", "selection is now re-evaluated on every reconcile (was pinned in spec.environmentConfigRefs): a new or relabelled EnvironmentConfig changes the environment of existing XRs, and a Single selector that then matches two fails")
	default:
		c.infof("C309", at, path+".policy.resolve", "references are resolved on every reconcile instead of once: only edits of the Composition change the result, and now they take effect at once")
	}
}

// nodeAt finds the node at a relative field path such as
// `.environmentConfigs[0].ref.name`, for the line of a finding. It returns
// the deepest node found.
func nodeAt(n *yaml.Node, path string) *yaml.Node {
	cur := n
	for _, part := range strings.FieldsFunc(path, func(r rune) bool { return r == '.' || r == '[' || r == ']' }) {
		next := yamledit.Get(cur, part)
		if next == nil && yamledit.IsSeq(cur) {
			var i int
			if _, err := fmt.Sscanf(part, "%d", &i); err == nil && i >= 0 && i < len(yamledit.Resolve(cur).Content) {
				next = yamledit.Resolve(cur).Content[i]
			}
		}
		if next == nil {
			break
		}
		cur = next
	}
	return cur
}

// ecInput builds the environment-configs input, or returns nil when no step
// is needed (docs/semantics/conversion.md#splitting-the-environment, docs/semantics/conversion.md#selection-is-no-longer-pinned).
func (c normalisePass) ecInput(env *yaml.Node, path string) *yaml.Node {
	spec := yamledit.NewMap()
	configs := !yamledit.IsEmpty(yamledit.Get(env, "environmentConfigs"))
	data := !yamledit.IsEmpty(yamledit.Get(env, "defaultData"))
	yamledit.Pairs(env, func(_ int, k, v *yaml.Node) {
		switch k.Value {
		case "defaultData":
			if data {
				spec.Content = append(spec.Content, k, v)
			}
		case "environmentConfigs":
			if configs {
				spec.Content = append(spec.Content, k, v)
			}
		case "policy":
			pol := yamledit.Resolve(v)
			if yamledit.IsMap(pol) {
				yamledit.Delete(pol, "resolve")
				dropNull(pol, "resolution")
			}
			if yamledit.IsEmpty(pol) {
				return
			}
			if !configs && !data {
				c.infof("C308", k, path+".policy", "dropped the policy: without environmentConfigs or defaultData it has no effect")
				return
			}
			spec.Content = append(spec.Content, k, v)
		}
	})
	if !configs && !data {
		return nil
	}
	in := yamledit.NewMap()
	yamledit.Set(in, "apiVersion", yamledit.NewString(ECInputAPIVersion))
	yamledit.Set(in, "kind", yamledit.NewString(ECInputKind))
	yamledit.Set(in, "spec", spec)
	return in
}

// dropEnvironmentPatches removes every environment patch type from
// resource and patch set patches, for --assume-env-flag=off (C206).
func (c normalisePass) dropEnvironmentPatches(spec *yaml.Node) {
	drop := func(seq *yaml.Node, path string) {
		seq = yamledit.Resolve(seq)
		if !yamledit.IsSeq(seq) {
			return
		}
		kept := seq.Content[:0:0]
		for i, p := range seq.Content {
			t, _ := yamledit.Str(yamledit.Get(p, "type"))
			if strings.Contains(t, "Environment") {
				c.warnf("C206", p, idx(path, i), "dropped this %s patch: with --assume-env-flag=off it never ran", t)
				continue
			}
			kept = append(kept, p)
		}
		seq.Content = kept
	}
	if res := yamledit.Resolve(yamledit.Get(spec, "resources")); yamledit.IsSeq(res) {
		for i, t := range res.Content {
			drop(yamledit.Get(t, "patches"), idx("spec.resources", i)+".patches")
		}
	}
	if sets := yamledit.Resolve(yamledit.Get(spec, "patchSets")); yamledit.IsSeq(sets) {
		for i, s := range sets.Content {
			drop(yamledit.Get(s, "patches"), idx("spec.patchSets", i)+".patches")
		}
	}
}
