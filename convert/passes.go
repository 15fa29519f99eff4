package convert

import (
	yaml "go.yaml.in/yaml/v3"

	"github.com/xpmigrate/xpmigrate/convert/yamledit"
)

// A Composition converts in passes, each a small value over the
// Composition being converted (the domain state, and where findings go):
//
//   - checkPass decides whether and how the Composition converts: a
//     template, duplicate keys, the spec and its mode, the alpha functions,
//     resources that are missing or not a list (C1xx);
//   - normalisePass makes the input what the API server saw and what the
//     functions accept: server fields, unknown fields, template names,
//     patches, transforms, connection details, readiness checks and the
//     environment (conversion spec §6–§8);
//   - compensatePass restores native output where the function would
//     differ (§11.1 K1), or fixes a quirk on request and records it in the
//     intended-changes annotation;
//   - pipelinePass moves the resources, patch sets and environment into the
//     pipeline (§3–§5), and handles Compositions already in Pipeline mode;
//   - validatePass validates the input as native Crossplane does, the
//     output as the functions read it (§13), and the document read back as
//     kubectl reads it (C192).
//
// The passes run in that order, except that normalisePass consults
// compensatePass at each Format transform, where it knows what the value
// can be. Findings come out in the order the passes report them.
type (
	checkPass      struct{ *composition }
	normalisePass  struct{ *composition }
	compensatePass struct{ *composition }
	pipelinePass   struct{ *composition }
	validatePass   struct{ *composition }
)

// outputCache is what validation learnt about the converted document, kept
// for the encoder (Doc.EncodeKnown), the step inputs and the round-trip
// check so that none of them reads the document again. It is performance
// only: no finding and no output byte depends on it.
type outputCache struct {
	outJSON []byte    // the whole output document as kubectl will read it (base "" only)
	outView *jsonView // outJSON, indexed
}

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

// run normalises a Resources-mode Composition whose resources are res, and
// returns its environment divided between the two functions.
func (c normalisePass) run(spec, res *yaml.Node) *envSplit {
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
	return env
}

// input validates the normalised input as native Crossplane does, and
// reports the first transform that can fail (C317).
func (c validatePass) input() {
	c.nativeValidation()
	if c.fallible != "" && !c.failed {
		c.infof("C317", c.fallNode, c.fallible, "a patch that fails (a transform that cannot convert, match or map its input) now fails the whole XR with a fatal result; natively only that resource was skipped")
	}
}
