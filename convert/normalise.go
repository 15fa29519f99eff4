package convert

import (
	"fmt"
	"slices"
	"strings"

	yaml "go.yaml.in/yaml/v3"
	"k8s.io/apimachinery/pkg/util/validation"

	"github.com/xpmigrate/xpmigrate/convert/yamledit"
	"github.com/xpmigrate/xpmigrate/internal/crossplane"
)

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

// specKeys are the keys of a v1 Composition's spec that the converter
// knows.
var specKeys = []string{
	"compositeTypeRef", "mode", "pipeline", "resources", "patchSets", "environment",
	"writeConnectionSecretsToNamespace", "publishConnectionDetailsWithStoreConfigRef", "functions",
}

// unknownSpecKeys reports spec keys the API server would prune (C203), or,
// for target v2, refuses them (C191).
func (c normalisePass) unknownSpecKeys(spec *yaml.Node) {
	yamledit.Pairs(spec, func(_ int, k, v *yaml.Node) {
		if slices.Contains(specKeys, k.Value) || k.Value == "<<" {
			return
		}
		if c.r.o.Target == crossplane.V2 {
			c.errorf("C191", k, "spec."+k.Value, "unknown field: Crossplane v2 rejects it under strict field validation; remove it")
			return
		}
		c.warnf("C203", k, "spec."+k.Value, "unknown field kept; the API server prunes it (or rejects it under strict field validation)")
	})
}

// storeConfigRef applies the target rule for
// publishConnectionDetailsWithStoreConfigRef (docs/semantics/conversion.md#the-composition-object).
func (c normalisePass) storeConfigRef(spec *yaml.Node) {
	v := yamledit.Get(spec, "publishConnectionDetailsWithStoreConfigRef")
	if v == nil || c.r.o.Target != crossplane.V2 {
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

// names names the templates when none is named, and checks the names
// otherwise (docs/semantics/conversion.md#template-names). It reports whether it added names.
func (c normalisePass) names(res *yaml.Node) bool {
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
			if c.r.o.Target == crossplane.V2 && len(validation.IsDNS1123Label(name)) > 0 {
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

// generatedName is the name of unnamed template i (docs/semantics/conversion.md#template-names).
func (c normalisePass) generatedName(t *yaml.Node, i int) string {
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

// template normalises one resource template (docs/semantics/conversion.md#resource-templates).
func (c normalisePass) template(t *yaml.Node, path string) {
	t = yamledit.Resolve(t)
	if !yamledit.IsMap(t) {
		c.errorf("C110", t, path, "a resource template must be an object with a base")
		return
	}
	if b := yamledit.Get(t, "base"); yamledit.IsNull(b) {
		c.errorf("C110", t, path+".base", "a resource template needs a base (natively required; in the function a missing base means something else)")
	} else if !yamledit.IsMap(b) {
		c.errorf("C110", b, path+".base", "base must be an object")
	} else {
		compensatePass(c).baseMetadata(b, path+".base")
	}
	c.dropUnknown(t, path, templateKeys)
	if p := yamledit.Get(t, "patches"); p != nil && !yamledit.IsNull(p) {
		c.patches(p, path+".patches", LocResource)
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
func (c normalisePass) dropUnknown(m *yaml.Node, path string, known []string) {
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
