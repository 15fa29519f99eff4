package convert

import (
	yaml "go.yaml.in/yaml/v3"

	"github.com/xpmigrate/xpmigrate/convert/yamledit"
)

// baseMetadata removes metadata.name and metadata.namespace from a
// template's base (compensation K5, C326), and metadata itself when
// nothing else is left in it.
//
// Native Crossplane ignored both: it renders a base over an object that
// carries only the existing composed resource's name and namespace (none
// for a new one) and puts them back after reading the base, so a new
// composed resource got a name generated from the XR's and no namespace
// unless a patch set one (crossplane/crossplane@v1.20.11, RenderFromJSON in
// internal/controller/apiextensions/composite/composition_render.go).
// function-patch-and-transform keeps the base's metadata, and Crossplane's
// function composer generates a name only when the desired resource has
// none, so every XR of the Composition would create its resource under the
// one name of the base and they would collide. Patches still set the name
// or namespace on both sides alike, and an existing composed resource
// keeps its name on both. Removing them is therefore the native behaviour,
// exactly.
//
// Only for the v1 XRs that run the legacy Composition today (--target v1,
// or v2 with --xr-scope legacy): the v2-native conversion decides the
// namespace of a composed resource by the XR's scope (C446).
func (c compensatePass) baseMetadata(base *yaml.Node, path string) {
	if c.r.o.v2Native() || !c.r.o.compensate(CompensateBaseMetadata) {
		return
	}
	md := yamledit.Resolve(yamledit.Get(base, "metadata"))
	if !yamledit.IsMap(md) {
		return
	}
	removed := false
	for _, f := range []string{"name", "namespace"} {
		v, ok := yamledit.Str(yamledit.Get(md, f))
		if !ok || v == "" {
			continue
		}
		k := yamledit.Key(md, f)
		yamledit.Delete(md, f)
		removed = true
		if f == "name" {
			c.infof("C326", k, path+".metadata.name", "removed metadata.name %q from the base: native Crossplane ignored it and generated the composed resource's name from the XR's, while function-patch-and-transform would keep it, so that every XR of this Composition would create its resource under the one name %q and they would collide; patches that set metadata.name apply as before (turn off with --no-compensate K5)", v, v)
			continue
		}
		c.infof("C326", k, path+".metadata.namespace", "removed metadata.namespace %q from the base: native Crossplane ignored it (a new composed resource got no namespace unless a patch set one), while function-patch-and-transform would keep it; patches that set metadata.namespace apply as before (turn off with --no-compensate K5)", v)
	}
	if removed && len(md.Content) == 0 {
		yamledit.Delete(yamledit.Resolve(base), "metadata")
	}
}

// expectedBase returns base as baseMetadata leaves it, for the round-trip
// check: a copy without the non-empty string metadata.name and
// metadata.namespace, and without metadata when nothing else is left in
// it. base itself is not changed.
func (o Options) expectedBase(base any) any {
	b, ok := base.(map[string]any)
	if !ok || o.v2Native() || !o.compensate(CompensateBaseMetadata) {
		return base
	}
	md, ok := b["metadata"].(map[string]any)
	if !ok {
		return base
	}
	keep := map[string]any{}
	for k, v := range md {
		if s, ok := v.(string); ok && s != "" && (k == "name" || k == "namespace") {
			continue
		}
		keep[k] = v
	}
	if len(keep) == len(md) {
		return base
	}
	out := make(map[string]any, len(b))
	for k, v := range b {
		out[k] = v
	}
	out["metadata"] = keep
	if len(keep) == 0 {
		delete(out, "metadata")
	}
	return out
}
