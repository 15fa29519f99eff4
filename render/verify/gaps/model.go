package gaps

import (
	"fmt"
	"strings"

	"github.com/crossplane/crossplane-runtime/v2/pkg/fieldpath"

	"github.com/xpmigrate/xpmigrate/internal/jsonobj"
	"github.com/xpmigrate/xpmigrate/internal/xp"
)

// Patch types, as both dialects spell them.
const (
	patchFromComposite        = "FromCompositeFieldPath"
	patchToComposite          = "ToCompositeFieldPath"
	patchCombineFromComposite = "CombineFromComposite"
	patchCombineToComposite   = "CombineToComposite"
	patchFromEnvironment      = "FromEnvironmentFieldPath"
	patchToEnvironment        = "ToEnvironmentFieldPath"
	patchCombineFromEnv       = "CombineFromEnvironment"
	patchCombineToEnv         = "CombineToEnvironment"
	patchPatchSet             = "PatchSet"
)

// A Model is what the rules read of a Composition: its templates with their
// PatchSets expanded, its environment patches and its environment sources,
// in either dialect. It is read leniently from the decoded object: the
// engines have validated what they render, and a rule that finds nothing
// it understands explains nothing.
type Model struct {
	// Templates in declared order.
	Templates []Template

	// EnvPatches are spec.environment.patches (legacy) or the PT input's
	// environment.patches (pipeline).
	EnvPatches []Patch

	// Environment is true when the Composition selects an environment: a
	// legacy spec.environment, or a function-environment-configs step.
	Environment bool

	// EnvDefaultData is the environment's defaultData.
	EnvDefaultData map[string]any

	// EnvConfigs are the environmentConfigs entries.
	EnvConfigs []map[string]any

	// EnvResolve is the legacy policy.resolve ("" when unset).
	EnvResolve string

	// HasPT is true when a pipeline has a function-patch-and-transform
	// step (always true for legacy).
	HasPT bool

	// PTStep and ECStep are the steps' indexes in spec.pipeline, -1 when
	// absent.
	PTStep, ECStep int

	// PTStepName and ECStepName are the steps' names.
	PTStepName, ECStepName string
}

// A Template is one resource template.
type Template struct {
	// Name is the composition resource name: the template's own, or for an
	// anonymous legacy template the name the converter gave it.
	Name string

	// Index is the template's position.
	Index int

	// Anonymous is true for an unnamed legacy template.
	Anonymous bool

	Base              map[string]any
	Patches           []Patch
	ReadinessChecks   []map[string]any
	ConnectionDetails []map[string]any

	// YAMLPath locates the template in its document.
	YAMLPath []any
}

// A Patch is one patch, PatchSets expanded.
type Patch struct {
	// Index is the patch's position after PatchSet expansion, as
	// Crossplane's messages count it.
	Index int

	Type string

	// From is fromFieldPath (empty for Combine patches).
	From string

	// To is the path written: toFieldPath, or fromFieldPath when a single
	// source patch has none.
	To string

	// Vars are a Combine's variables' fromFieldPaths.
	Vars []string

	// Fmt is a Combine's string.fmt.
	Fmt string

	Required   bool
	Transforms []map[string]any

	// PatchSet names the PatchSet the patch came from.
	PatchSet string

	// YAMLPath locates the patch in its document.
	YAMLPath []any
}

// String names the patch for messages: "patch 2 (ToCompositeFieldPath
// status.atProvider.id -> status.id)".
func (p Patch) String() string {
	src := p.From
	if len(p.Vars) > 0 {
		src = strings.Join(p.Vars, ", ")
	}
	s := fmt.Sprintf("patch %d (%s %s -> %s)", p.Index, p.Type, src, p.To)
	if p.PatchSet != "" {
		s += fmt.Sprintf(" from PatchSet %q", p.PatchSet)
	}
	return s
}

// Sources returns the paths the patch reads.
func (p Patch) Sources() []string {
	if len(p.Vars) > 0 {
		return p.Vars
	}
	if p.From == "" {
		return nil
	}
	return []string{p.From}
}

// ReadsXR reports whether the patch reads the XR.
func (p Patch) ReadsXR() bool {
	return p.Type == patchFromComposite || p.Type == patchCombineFromComposite
}

// WritesXR reports whether the patch writes the XR.
func (p Patch) WritesXR() bool {
	return p.Type == patchToComposite || p.Type == patchCombineToComposite
}

// ReadsEnvironment reports whether the patch reads the environment into a
// composed resource.
func (p Patch) ReadsEnvironment() bool {
	return p.Type == patchFromEnvironment || p.Type == patchCombineFromEnv
}

// WritesEnvironment reports whether the patch writes the environment from
// a composed resource.
func (p Patch) WritesEnvironment() bool {
	return p.Type == patchToEnvironment || p.Type == patchCombineToEnv
}

// Writes reports whether the patch's target overlaps path: whether it can
// change the value there.
func (p Patch) Writes(path Path) bool {
	return overlaps(cachedPath(p.To), path)
}

// Transform returns the patch's transforms of type t.
func (p Patch) Transform(t string) []map[string]any {
	var out []map[string]any
	for _, tr := range p.Transforms {
		if s, _ := tr["type"].(string); s == t {
			out = append(out, tr)
			continue
		}
		// A transform without a type but with the block (repaired by the
		// converter, C313).
		if _, ok := tr["type"]; !ok {
			if _, ok := tr[t].(map[string]any); ok {
				out = append(out, tr)
			}
		}
	}
	return out
}

// Template returns the template named name.
func (m *Model) Template(name string) (Template, bool) {
	for _, t := range m.Templates {
		if t.Name == name {
			return t, true
		}
	}
	return Template{}, false
}

// PatchesWriting returns the template's patches (of the kinds accepted by
// keep) whose target path overlaps path.
func (t Template) PatchesWriting(path Path, keep func(Patch) bool) []Patch {
	var out []Patch
	for _, p := range t.Patches {
		if keep != nil && !keep(p) {
			continue
		}
		if overlaps(cachedPath(p.To), path) {
			out = append(out, p)
		}
	}
	return out
}

// LegacyModel reads a mode: Resources Composition. Anonymous templates are
// named by names.
func LegacyModel(comp map[string]any, names func(int) string) *Model {
	m := &Model{HasPT: true, PTStep: -1, ECStep: -1}
	spec, _ := comp["spec"].(map[string]any)
	sets := patchSets(jsonobj.AsList(spec["patchSets"]))
	for i, r := range jsonobj.AsList(spec["resources"]) {
		rm, _ := r.(map[string]any)
		m.Templates = append(m.Templates, readTemplate(rm, i, names, sets, []any{"spec", "resources", i}))
	}
	if env, ok := spec["environment"].(map[string]any); ok {
		m.EnvPatches = readPatches(jsonobj.AsList(env["patches"]), []any{"spec", "environment", "patches"})
		m.EnvDefaultData, _ = env["defaultData"].(map[string]any)
		for _, c := range jsonobj.AsList(env["environmentConfigs"]) {
			if cm, ok := c.(map[string]any); ok {
				m.EnvConfigs = append(m.EnvConfigs, cm)
			}
		}
		m.Environment = len(m.EnvConfigs) > 0 || len(m.EnvDefaultData) > 0
		if pol, ok := env["policy"].(map[string]any); ok {
			m.EnvResolve, _ = pol["resolve"].(string)
		}
	}
	return m
}

// PipelineModel reads a mode: Pipeline Composition: the first
// function-patch-and-transform step and the first function-environment-configs
// step, recognised by their input's apiVersion.
func PipelineModel(comp map[string]any) *Model {
	m := &Model{PTStep: -1, ECStep: -1}
	spec, _ := comp["spec"].(map[string]any)
	for i, s := range jsonobj.AsList(spec["pipeline"]) {
		sm, _ := s.(map[string]any)
		in, _ := sm["input"].(map[string]any)
		av, _ := in["apiVersion"].(string)
		switch {
		case strings.HasPrefix(av, xp.GroupPTInput+"/") && m.PTStep < 0:
			m.PTStep = i
			m.PTStepName, _ = sm["step"].(string)
			m.HasPT = true
			sets := patchSets(jsonobj.AsList(in["patchSets"]))
			base := []any{"spec", "pipeline", i, "input"}
			for j, r := range jsonobj.AsList(in["resources"]) {
				rm, _ := r.(map[string]any)
				m.Templates = append(m.Templates, readTemplate(rm, j, nil, sets, append(clonePath(base), "resources", j)))
			}
			if env, ok := in["environment"].(map[string]any); ok {
				m.EnvPatches = readPatches(jsonobj.AsList(env["patches"]), append(clonePath(base), "environment", "patches"))
			}
		case strings.HasPrefix(av, xp.GroupECInput+"/") && m.ECStep < 0:
			m.ECStep = i
			m.ECStepName, _ = sm["step"].(string)
			m.Environment = true
			es, _ := in["spec"].(map[string]any)
			m.EnvDefaultData, _ = es["defaultData"].(map[string]any)
			for _, c := range jsonobj.AsList(es["environmentConfigs"]) {
				if cm, ok := c.(map[string]any); ok {
					m.EnvConfigs = append(m.EnvConfigs, cm)
				}
			}
		}
	}
	return m
}

func readTemplate(rm map[string]any, i int, names func(int) string, sets map[string][]any, at []any) Template {
	t := Template{Index: i, YAMLPath: at}
	t.Name, _ = rm["name"].(string)
	if t.Name == "" && names != nil {
		t.Anonymous = true
		t.Name = names(i)
	}
	t.Base, _ = rm["base"].(map[string]any)
	t.Patches = expandPatches(jsonobj.AsList(rm["patches"]), sets, append(clonePath(at), "patches"))
	for _, rc := range jsonobj.AsList(rm["readinessChecks"]) {
		if m, ok := rc.(map[string]any); ok {
			t.ReadinessChecks = append(t.ReadinessChecks, m)
		}
	}
	for _, cd := range jsonobj.AsList(rm["connectionDetails"]) {
		if m, ok := cd.(map[string]any); ok {
			t.ConnectionDetails = append(t.ConnectionDetails, m)
		}
	}
	return t
}

func patchSets(raw []any) map[string][]any {
	out := map[string][]any{}
	for _, s := range raw {
		sm, _ := s.(map[string]any)
		n, _ := sm["name"].(string)
		out[n] = jsonobj.AsList(sm["patches"])
	}
	return out
}

// expandPatches reads patches, replacing each PatchSet patch by the set's
// patches, as both engines do before anything else.
func expandPatches(raw []any, sets map[string][]any, at []any) []Patch {
	var out []Patch
	for j, p := range raw {
		pm, _ := p.(map[string]any)
		typ, _ := pm["type"].(string)
		if typ == patchPatchSet {
			name, _ := pm["patchSetName"].(string)
			for _, q := range readPatches(sets[name], nil) {
				q.PatchSet = name
				q.YAMLPath = append(clonePath(at), j)
				q.Index = len(out)
				out = append(out, q)
			}
			continue
		}
		q := readPatch(pm)
		q.Index = len(out)
		q.YAMLPath = append(clonePath(at), j)
		out = append(out, q)
	}
	return out
}

func readPatches(raw []any, at []any) []Patch {
	out := make([]Patch, 0, len(raw))
	for j, p := range raw {
		pm, _ := p.(map[string]any)
		q := readPatch(pm)
		q.Index = j
		if at != nil {
			q.YAMLPath = append(clonePath(at), j)
		}
		out = append(out, q)
	}
	return out
}

func readPatch(pm map[string]any) Patch {
	p := Patch{}
	p.Type, _ = pm["type"].(string)
	if p.Type == "" {
		// The API server defaults it for legacy Compositions, and
		// function-patch-and-transform defaults it too (GetType).
		p.Type = patchFromComposite
	}
	p.From, _ = pm["fromFieldPath"].(string)
	p.To, _ = pm["toFieldPath"].(string)
	if c, ok := pm["combine"].(map[string]any); ok {
		for _, v := range jsonobj.AsList(c["variables"]) {
			vm, _ := v.(map[string]any)
			if s, ok := vm["fromFieldPath"].(string); ok {
				p.Vars = append(p.Vars, s)
			}
		}
		if s, ok := c["string"].(map[string]any); ok {
			p.Fmt, _ = s["fmt"].(string)
		}
	}
	if p.To == "" && len(p.Vars) == 0 {
		p.To = p.From
	}
	if pol, ok := pm["policy"].(map[string]any); ok {
		p.Required = pol["fromFieldPath"] == "Required"
	}
	for _, tr := range jsonobj.AsList(pm["transforms"]) {
		if m, ok := tr.(map[string]any); ok {
			p.Transforms = append(p.Transforms, m)
		}
	}
	return p
}

func clonePath(p []any) []any {
	return append([]any(nil), p...)
}

// parsePath parses a field path into a Path, or returns nil when it does
// not parse. A "*" segment matches any segment.
func parsePath(s string) Path {
	if s == "" {
		return nil
	}
	segs, err := fieldpath.Parse(s)
	if err != nil {
		return nil
	}
	out := make(Path, 0, len(segs))
	for _, sg := range segs {
		if sg.Type == fieldpath.SegmentIndex {
			out = append(out, Segment{Index: int(sg.Index), IsIndex: true})
			continue
		}
		out = append(out, Segment{Field: sg.Field})
	}
	return out
}
