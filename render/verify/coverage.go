package verify

import (
	"github.com/xpmigrate/xpmigrate/environment"
	"github.com/xpmigrate/xpmigrate/render/verify/gaps"
)

// coverage records which legacy patches fired in at least one sample: a
// patch fires when every path it reads has a value in the object it reads,
// in some reconcile of the legacy side (the XR it was given, the composed
// resource as applied or rendered, the environment the pipeline saw).
type coverage struct {
	m *gaps.Model
	// fired[t][p] for template patches; env[p] for environment patches.
	fired [][]bool
	env   []bool
}

func newCoverage(m *gaps.Model) *coverage {
	c := &coverage{m: m, env: make([]bool, len(m.EnvPatches))}
	for _, t := range m.Templates {
		c.fired = append(c.fired, make([]bool, len(t.Patches)))
	}
	return c
}

func (c *coverage) record(xr map[string]any, legacy, pipe []Side) {
	xrs := []map[string]any{xr}
	var envs []map[string]any
	for k := range legacy {
		if out := legacy[k].Outcome; out != nil && out.EffectiveXR != nil {
			xrs = append(xrs, out.EffectiveXR)
		}
		if out := pipe[k].Outcome; out != nil {
			if env, ok := out.Context[environment.ContextKeyEnvironment].(map[string]any); ok {
				envs = append(envs, env)
			}
		}
	}
	if len(envs) == 0 && len(c.m.EnvDefaultData) > 0 {
		envs = append(envs, c.m.EnvDefaultData)
	}

	for ti, t := range c.m.Templates {
		var applied, desired []map[string]any
		for _, s := range legacy {
			if s.Outcome == nil {
				continue
			}
			for _, cd := range s.Outcome.Composed {
				if cd.Index == t.Index && cd.Rendered {
					applied = append(applied, cd.Applied)
					desired = append(desired, cd.Desired)
				}
			}
		}
		for pi, p := range t.Patches {
			if c.fired[ti][pi] {
				continue
			}
			var from []map[string]any
			switch {
			case p.ReadsXR():
				from = xrs
			case p.WritesXR():
				from = applied
			case p.ReadsEnvironment():
				from = envs
			case p.WritesEnvironment():
				from = desired
			}
			c.fired[ti][pi] = anyHasAll(from, p.Sources())
		}
	}
	for pi, p := range c.m.EnvPatches {
		if c.env[pi] {
			continue
		}
		from := xrs
		if p.WritesXR() {
			from = envs
		}
		c.env[pi] = anyHasAll(from, p.Sources())
	}
}

func anyHasAll(objs []map[string]any, paths []string) bool {
	if len(paths) == 0 {
		return false
	}
	for _, o := range objs {
		all := true
		for _, p := range paths {
			if !gaps.Has(o, p) {
				all = false
				break
			}
		}
		if all {
			return true
		}
	}
	return false
}

// unexercised lists the patches that never fired, in template order.
func (c *coverage) unexercised(comp *composition) []PatchRef {
	lines := newLineIndex(comp)
	var out []PatchRef
	ref := func(res string, p gaps.Patch) PatchRef {
		return PatchRef{Resource: res, Index: p.Index, Type: p.Type, From: firstSource(p), To: p.To, PatchSet: p.PatchSet, Line: lines.line(p.YAMLPath)}
	}
	for ti, t := range c.m.Templates {
		for pi, p := range t.Patches {
			if !c.fired[ti][pi] {
				out = append(out, ref(t.Name, p))
			}
		}
	}
	for pi, p := range c.m.EnvPatches {
		if !c.env[pi] {
			out = append(out, ref("", p))
		}
	}
	return out
}

func firstSource(p gaps.Patch) string {
	if p.From != "" {
		return p.From
	}
	if len(p.Vars) > 0 {
		return p.Vars[0]
	}
	return ""
}
