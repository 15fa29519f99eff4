package verify

import (
	"fmt"
	"sort"
	"strings"

	"github.com/crossplane/crossplane-runtime/v2/pkg/fieldpath"
	"github.com/pkg/errors"

	"github.com/xpmigrate/xpmigrate/internal/errkind"
	"github.com/xpmigrate/xpmigrate/internal/jsonobj"
	"github.com/xpmigrate/xpmigrate/internal/xp"
	"github.com/xpmigrate/xpmigrate/render/verify/gaps"
)

// Synthesize generates n composite resources from the XRD's openAPI schema
// for the legacy Composition, so that every patch that reads the XR fires
// in at least one of them:
//
//   - sample 0 sets every field a patch (or an environment selector label)
//     reads, with values the patch's transforms accept (a key of its map
//     transform, a literal of its match transform, a number for math);
//   - sample 1 sets only what the schema requires, so patches meet absent
//     optional fields;
//   - later samples set every field again, rotating through enum values and
//     transform keys.
//
// Schema defaults are applied, enum values are respected, and required
// fields are filled at every level. Each XR is named synthesized-<n> and
// has a uid, as the API server gives one. When the XRD offers a claim
// (spec.claimNames), each XR is bound to a claim as Crossplane's claim
// controller binds the XR it creates: spec.claimRef (the claim's
// apiVersion, kind, name synthesized-<n> and namespace default) and the
// crossplane.io/claim-name and claim-namespace labels, so that patches
// reading them (often Required) fire. The result is deterministic.
func Synthesize(xrd map[string]any, legacy Document, n int) ([]Sample, error) {
	if n <= 0 {
		return nil, nil
	}
	if xrd == nil {
		return nil, errkind.InvalidInputf("synthesizing XRs needs the CompositeResourceDefinition (--xrd)")
	}
	group := jsonobj.String(xrd, "spec", "group")
	kind := jsonobj.String(xrd, "spec", "names", "kind")
	version, schema := xrdVersion(xrd)
	if group == "" || kind == "" || version == "" {
		return nil, errkind.InvalidInputf("XRD %q: spec.group, spec.names.kind and a version are required", jsonobj.String(xrd, "metadata", "name"))
	}
	lc, err := loadComposition(legacy)
	if err != nil {
		return nil, err
	}
	m := gaps.LegacyModel(lc.obj, DefaultResourceName)
	drivers := xrDrivers(m)

	out := make([]Sample, 0, n)
	for i := 0; i < n; i++ {
		name := fmt.Sprintf("synthesized-%d", i)
		xr := map[string]any{
			"apiVersion": group + "/" + version,
			"kind":       kind,
			// A uid, as the API server would give: compositions often
			// patch it into secret names.
			"metadata": map[string]any{"name": name, "uid": fmt.Sprintf("00000000-0000-4000-8000-%012d", i)},
		}
		variant := 0
		if i >= 2 {
			variant = i - 1
		}
		spec, _ := fill(propertyAt(schema, "spec"), variant).(map[string]any)
		if spec == nil {
			spec = map[string]any{}
		}
		xr["spec"] = spec
		if claimKind := jsonobj.String(xrd, "spec", "claimNames", "kind"); claimKind != "" {
			bindClaim(xr, group+"/"+version, claimKind, name, SynthesizedClaimNamespace)
		}
		if i != 1 {
			p := fieldpath.Pave(xr)
			for _, d := range drivers {
				if gaps.Has(xr, d.path) {
					continue
				}
				v := d.value(schemaAtPath(schema, d.path), variant)
				if err := p.SetValue(d.path, v); err != nil {
					continue // a path the schema or the object shape rules out
				}
			}
		}
		out = append(out, Sample{Name: name, XR: xr})
	}
	return out, nil
}

// SynthesizedClaimNamespace is the namespace of the claim a synthesized
// XR of a claim-offering XRD is bound to.
const SynthesizedClaimNamespace = "default"

// bindClaim binds xr to the claim of apiVersion, kind, name and namespace
// as the claim controller does: spec.claimRef and the claim labels.
func bindClaim(xr map[string]any, apiVersion, kind, name, namespace string) {
	spec, _ := xr["spec"].(map[string]any)
	spec["claimRef"] = map[string]any{"apiVersion": apiVersion, "kind": kind, "name": name, "namespace": namespace}
	md, _ := xr["metadata"].(map[string]any)
	md["labels"] = map[string]any{xp.LabelClaimName: name, xp.LabelClaimNamespace: namespace}
}

// xrdVersion returns the referenceable version (else the first) and its
// openAPIV3Schema.
func xrdVersion(xrd map[string]any) (string, map[string]any) {
	var name string
	var schema map[string]any
	for _, v := range jsonobj.AsList(jsonobj.Value(xrd, "spec", "versions")) {
		vm, _ := v.(map[string]any)
		n, _ := vm["name"].(string)
		s, _ := jsonobj.Value(vm, "schema", "openAPIV3Schema").(map[string]any)
		if ref, _ := vm["referenceable"].(bool); ref {
			return n, s
		}
		if name == "" {
			name, schema = n, s
		}
	}
	return name, schema
}

// A driver is an XR path some patch reads, with hints for its value.
type driver struct {
	path string
	// keys are values the patch's first transform accepts.
	keys []string
	// number is true when the first transform wants a number.
	number bool
}

func (d driver) value(s map[string]any, variant int) any {
	if s != nil {
		if enum := jsonobj.AsList(s["enum"]); len(enum) > 0 {
			return enum[variant%len(enum)]
		}
	}
	if len(d.keys) > 0 {
		return d.keys[variant%len(d.keys)]
	}
	if s != nil {
		if _, ok := s["type"]; ok {
			return fill(s, variant)
		}
	}
	if d.number {
		return int64(2 + variant)
	}
	last := d.path
	if i := strings.LastIndexAny(last, ".["); i >= 0 {
		last = strings.Trim(last[i+1:], "[]")
	}
	return fmt.Sprintf("sample-%s-%d", strings.ToLower(last), variant)
}

// xrDrivers lists the XR paths the legacy Composition reads, in order.
func xrDrivers(m *gaps.Model) []driver {
	byPath := map[string]*driver{}
	var order []string
	add := func(path string, p *gaps.Patch) {
		if path == "" || strings.Contains(path, "*") || !drivable(path) {
			return
		}
		d, ok := byPath[path]
		if !ok {
			d = &driver{path: path}
			byPath[path] = d
			order = append(order, path)
		}
		if p == nil || len(p.Transforms) == 0 || len(p.Vars) > 0 {
			return
		}
		t := p.Transforms[0]
		switch t["type"] {
		case "map":
			mm, _ := t["map"].(map[string]any)
			for k := range mm {
				d.keys = append(d.keys, k)
			}
		case "match":
			mm, _ := t["match"].(map[string]any)
			for _, pt := range jsonobj.AsList(mm["patterns"]) {
				if l, ok := pt.(map[string]any)["literal"].(string); ok {
					d.keys = append(d.keys, l)
				}
			}
		case "math":
			d.number = true
		case "string":
			s, _ := t["string"].(map[string]any)
			if f, _ := s["fmt"].(string); strings.Contains(f, "%d") {
				d.number = true
			}
		}
		sort.Strings(d.keys)
	}
	for _, t := range m.Templates {
		for i := range t.Patches {
			p := &t.Patches[i]
			if p.ReadsXR() {
				for _, s := range p.Sources() {
					add(s, p)
				}
			}
		}
	}
	for i := range m.EnvPatches {
		p := &m.EnvPatches[i]
		if p.ReadsXR() {
			for _, s := range p.Sources() {
				add(s, p)
			}
		}
	}
	for _, c := range m.EnvConfigs {
		for _, l := range jsonobj.AsList(jsonobj.Value(c, "selector", "matchLabels")) {
			lm, _ := l.(map[string]any)
			if s, _ := lm["valueFromFieldPath"].(string); s != "" {
				add(s, nil)
			}
		}
	}
	out := make([]driver, 0, len(order))
	for _, p := range order {
		out = append(out, *byPath[p])
	}
	return out
}

// drivable reports whether a sample may set an XR path: spec fields and
// labels or annotations, but not what Crossplane itself sets.
func drivable(path string) bool {
	for _, own := range []string{
		"spec.resourceRefs", "spec.claimRef", "spec.compositionRef", "spec.compositionSelector",
		"spec.compositionRevisionRef", "spec.compositionUpdatePolicy", "spec.environmentConfigRefs",
		"spec.writeConnectionSecretToRef", "spec.publishConnectionDetailsTo",
	} {
		if path == own || strings.HasPrefix(path, own+".") || strings.HasPrefix(path, own+"[") {
			return false
		}
	}
	return strings.HasPrefix(path, "spec.") || strings.HasPrefix(path, "metadata.labels") || strings.HasPrefix(path, "metadata.annotations")
}

// fill makes a value for a schema: its default, an enum value, or a value
// of its type; objects get their required (and, for the first variant,
// defaulted) properties.
func fill(s map[string]any, variant int) any {
	if s == nil {
		return nil
	}
	if d, ok := s["default"]; ok && variant == 0 {
		return jsonobj.CopyTree(d)
	}
	if enum := jsonobj.AsList(s["enum"]); len(enum) > 0 {
		return enum[variant%len(enum)]
	}
	switch s["type"] {
	case "object":
		out := map[string]any{}
		props, _ := s["properties"].(map[string]any)
		keys := make([]string, 0, len(props))
		for k := range props {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		required := map[string]bool{}
		for _, r := range jsonobj.AsList(s["required"]) {
			if rs, ok := r.(string); ok {
				required[rs] = true
			}
		}
		for _, k := range keys {
			ps, _ := props[k].(map[string]any)
			_, hasDefault := ps["default"]
			if required[k] || (hasDefault && variant == 0) {
				if v := fill(ps, variant); v != nil {
					out[k] = v
				}
			}
		}
		return out
	case "array":
		items, _ := s["items"].(map[string]any)
		n := 1
		if mi, ok := jsonobj.NumberText(s["minItems"]); ok && mi != "0" && mi != "1" {
			n = 2
		}
		out := make([]any, 0, n)
		for i := 0; i < n; i++ {
			if v := fill(items, variant+i); v != nil {
				out = append(out, v)
			}
		}
		return out
	case "integer":
		if m, ok := s["minimum"]; ok {
			return m
		}
		return int64(1 + variant)
	case "number":
		if m, ok := s["minimum"]; ok {
			return m
		}
		return 1.5 + float64(variant)
	case "boolean":
		return variant%2 == 0
	case "string":
		switch s["format"] {
		case "date-time":
			return "2024-01-01T00:00:00Z"
		case "int-or-string":
			return "1"
		}
		if mn, ok := jsonobj.NumberText(s["minLength"]); ok && mn != "0" {
			return strings.Repeat("a", 8)
		}
		return fmt.Sprintf("sample-%d", variant)
	}
	if xi, _ := s["x-kubernetes-int-or-string"].(bool); xi {
		return "1"
	}
	return nil
}

func propertyAt(s map[string]any, name string) map[string]any {
	props, _ := s["properties"].(map[string]any)
	p, _ := props[name].(map[string]any)
	return p
}

// schemaAtPath returns the schema of a field path, or nil.
func schemaAtPath(root map[string]any, path string) map[string]any {
	segs, err := fieldpath.Parse(path)
	if err != nil {
		return nil
	}
	s := root
	for _, sg := range segs {
		if s == nil {
			return nil
		}
		if sg.Type == fieldpath.SegmentIndex {
			s, _ = s["items"].(map[string]any)
			continue
		}
		next := propertyAt(s, sg.Field)
		if next == nil {
			next, _ = s["additionalProperties"].(map[string]any)
		}
		s = next
	}
	return s
}

// errNoSamples is returned when verification has nothing to render.
var errNoSamples = errors.New("no XR samples: give --xr, put examples beside the composition, or --synthesize N with --xrd")

// ErrNoSamples reports whether err says there were no samples.
func ErrNoSamples(err error) bool { return errors.Is(err, errNoSamples) }
