package v2native

import (
	"slices"

	"github.com/crossplane/crossplane-runtime/v2/pkg/fieldpath"
	yaml "go.yaml.in/yaml/v3"

	"github.com/xpmigrate/xpmigrate/convert/yamledit"
	"github.com/xpmigrate/xpmigrate/internal/v2map"
)

// Paths of provider-kubernetes' Object: the object it wraps, and what it
// observed of it.
const (
	objectManifest = "spec.forProvider.manifest"
	objectObserved = "status.atProvider.manifest"
)

// unwrapMetadata are the wrapper's metadata fields an unwrapped template
// keeps where its manifest does not set them (as v2map.OpUnwrap does).
var unwrapMetadata = []string{"name", "generateName", "namespace", "ownerReferences", "labels", "annotations"}

// unwrapObject makes the template of a provider-kubernetes Object the
// object it wraps (convert.Options.UnwrapObjects), with its patches rewritten to
// address that object and readinessChecks `None`, when nothing else
// depends on the wrapper (C456); otherwise it keeps the wrapper and says
// why (C457). It reports whether it unwrapped.
func (t *v2Tmpl) unwrapObject() bool {
	at := t.path + ".base"
	spec := yamledit.Resolve(yamledit.Get(t.base, "spec"))
	man := yamledit.Resolve(yamledit.Get(yamledit.Get(spec, "forProvider"), "manifest"))
	if why := t.unwrapBlocker(spec, man); why != "" {
		t.c.Warnf("C457", yamledit.Get(t.base, "kind"), at+".kind", "the Object of template %q stays a wrapper (--unwrap-objects): %s", t.name, why)
		return false
	}
	pc, _ := yamledit.Str(yamledit.Get(yamledit.Get(spec, "providerConfigRef"), "name"))
	if omd := yamledit.Resolve(yamledit.Get(t.base, "metadata")); yamledit.IsMap(omd) {
		imd := yamledit.Resolve(yamledit.Get(man, "metadata"))
		for _, k := range unwrapMetadata {
			ov := yamledit.Get(omd, k)
			if ov == nil {
				continue
			}
			if !yamledit.IsMap(imd) {
				imd = yamledit.NewMap()
				yamledit.Set(man, "metadata", imd)
			}
			iv := yamledit.Resolve(yamledit.Get(imd, k))
			switch {
			case yamledit.IsMap(ov) && yamledit.IsMap(iv):
				yamledit.Pairs(ov, func(_ int, kk, vv *yaml.Node) {
					if !yamledit.Has(iv, kk.Value) {
						yamledit.Set(iv, kk.Value, vv)
					}
				})
			case yamledit.IsNull(iv):
				yamledit.Set(imd, k, ov)
			}
		}
	}
	yamledit.Set(t.res, "base", man)
	t.base = man
	t.op("C456", v2map.OpUnwrap, objectManifest, nil)
	for _, p := range items(yamledit.Get(t.res, "patches")) {
		t.unwrapPatch(yamledit.Resolve(p))
	}
	none := yamledit.NewMap()
	yamledit.Set(none, "type", yamledit.NewString("None"))
	checks := yamledit.NewSeq()
	checks.Content = append(checks.Content, none)
	yamledit.Set(t.res, "readinessChecks", checks)
	where := "the ProviderConfig default"
	if pc != "" {
		where = "ProviderConfig " + pc
	}
	t.c.Warnf("C456", yamledit.Get(t.res, "base"), at, "unwrapped the Object (--unwrap-objects): the template composes the object it wrapped, in the Crossplane cluster itself (if %s pointed at another cluster, do not unwrap). Readiness changes: the Object was ready once the object was applied (policy SuccessfulCreate); the object itself has no Ready condition Crossplane can read, so the template gets readinessChecks [{type: None}] and counts as ready as soon as it is composed", where)
	return true
}

// unwrapBlocker says what keeps an Object a wrapper, or "".
func (t *v2Tmpl) unwrapBlocker(spec, man *yaml.Node) string {
	if !yamledit.IsMap(man) {
		return "it has no spec.forProvider.manifest object"
	}
	for _, k := range yamledit.Keys(spec) {
		v := yamledit.Get(spec, k)
		s, _ := yamledit.Str(v)
		switch {
		case k == "forProvider":
			if keys := yamledit.Keys(yamledit.Get(spec, k)); len(keys) != 1 {
				return "spec.forProvider has more than the manifest"
			}
		case k == "providerConfigRef":
		case k == "deletionPolicy" && s == "Delete", k == "managementPolicy" && s == "Default":
		case k == "managementPolicies" && len(items(v)) == 1 && yamledit.Resolve(items(v)[0]).Value == "*":
		case k == "readiness" && len(yamledit.Keys(v)) == 1 && yamledit.Keys(v)[0] == "policy":
			if p, _ := yamledit.Str(yamledit.Get(v, "policy")); p != "SuccessfulCreate" {
				return "its readiness policy " + p + " reads the object, which a readiness check of the template would have to restate"
			}
		default:
			return "spec." + k + " needs the wrapper"
		}
	}
	for _, k := range []string{"connectionDetails", "readinessChecks"} {
		if !yamledit.IsEmpty(yamledit.Get(t.res, k)) {
			return "the template's " + k + " read the Object"
		}
	}
	for _, p := range items(yamledit.Get(t.res, "patches")) {
		if why := unwrapPatchBlocker(yamledit.Resolve(p)); why != "" {
			return why
		}
	}
	return ""
}

// patchPaths returns the paths a patch reads from the resource (for
// patches to the XR or the environment) or writes to it, and whether it
// writes to it.
func patchPaths(p *yaml.Node) (typ string, paths []string, toResource bool) {
	typ, _ = yamledit.Str(yamledit.Get(p, "type"))
	if typ == "" {
		typ = fromComposite
	}
	switch typ {
	case fromComposite, fromEnvironment, combineFromComp, combineFromEnv:
		to, _ := yamledit.Str(yamledit.Get(p, "toFieldPath"))
		if to == "" {
			to, _ = yamledit.Str(yamledit.Get(p, "fromFieldPath"))
		}
		return typ, []string{to}, true
	case toComposite, toEnvironment:
		from, _ := yamledit.Str(yamledit.Get(p, "fromFieldPath"))
		return typ, []string{from}, false
	case combineToComp, combineToEnv:
		for _, v := range items(yamledit.Get(yamledit.Get(p, "combine"), "variables")) {
			from, _ := yamledit.Str(yamledit.Get(v, "fromFieldPath"))
			paths = append(paths, from)
		}
		return typ, paths, false
	}
	return typ, nil, false
}

// unwrapPatchBlocker says why a patch keeps an Object a wrapper, or "".
func unwrapPatchBlocker(p *yaml.Node) string {
	typ, paths, toResource := patchPaths(p)
	if typ == patchSetType {
		return "a patch set patches it"
	}
	for _, path := range paths {
		if toResource && !strictlyUnder(path, objectManifest) {
			return "a patch writes " + path + ", outside the manifest"
		}
		if !toResource && !strictlyUnder(path, objectManifest) && !strictlyUnder(path, objectObserved) {
			return "a patch reads " + path + ", outside the manifest"
		}
	}
	return ""
}

// strictlyUnder reports whether field path p is a field under path.
func strictlyUnder(p, path string) bool {
	return under(p, path) && !under(path, p)
}

// unwrapPath returns a path under the Object's manifest (desired or
// observed) as a path of the object itself, and whether it was one.
func unwrapPath(s string) (string, bool) {
	for _, prefix := range []string{objectManifest, objectObserved} {
		if !strictlyUnder(s, prefix) {
			continue
		}
		segs, err := fieldpath.Parse(s)
		n, err2 := fieldpath.Parse(prefix)
		if err != nil || err2 != nil {
			return s, false
		}
		return segs[len(n):].String(), true
	}
	return s, false
}

// unwrapPatch rewrites a patch of the Object's manifest to address the
// object itself.
func (t *v2Tmpl) unwrapPatch(p *yaml.Node) {
	rewrite := func(m *yaml.Node, key string) {
		s, _ := yamledit.Str(yamledit.Get(m, key))
		if u, ok := unwrapPath(s); ok {
			yamledit.Set(m, key, yamledit.NewString(u))
		}
	}
	typ, _, toResource := patchPaths(p)
	switch {
	case toResource:
		if yamledit.Get(p, "toFieldPath") == nil {
			from, _ := yamledit.Str(yamledit.Get(p, "fromFieldPath"))
			yamledit.Set(p, "toFieldPath", yamledit.NewString(from))
		}
		rewrite(p, "toFieldPath")
	case slices.Contains([]string{combineToComp, combineToEnv}, typ):
		for _, v := range items(yamledit.Get(yamledit.Get(p, "combine"), "variables")) {
			rewrite(yamledit.Resolve(v), "fromFieldPath")
		}
	default:
		rewrite(p, "fromFieldPath")
	}
}
