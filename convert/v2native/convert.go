package v2native

import (
	yaml "go.yaml.in/yaml/v3"

	"github.com/xpmigrate/xpmigrate/convert"
	"github.com/xpmigrate/xpmigrate/internal/jsonobj"
	"github.com/xpmigrate/xpmigrate/internal/v2map"
)

// Convert converts a YAML stream as convert.Convert does, for either
// target: for the v2-native one (Options.V2Native) it runs package
// convert's conversion with this package's Extension, and hands every
// other conversion to convert.Convert.
func Convert(src []byte, o convert.Options) (*convert.Result, error) {
	if !o.V2Native() {
		return convert.Convert(src, o)
	}
	return convert.ConvertWith(src, o, &extension{})
}

// extension is the v2-native target's convert.Extension: the state of
// one conversion.
type extension struct {
	// comps are the Compositions of the input (List items included) and
	// of Options.Compositions, decoded once per run for --xr-scope auto
	// (compositionObjects).
	comps []map[string]any
}

var _ convert.Extension = &extension{}

// Document converts an XRD, or one of the objects around Compositions.
func (e *extension) Document(d *convert.Document) bool {
	return e.xrdDocument(d) || e.object(d)
}

// ListItem converts an XRD of a List.
func (e *extension) ListItem(d *convert.Document, n *yaml.Node, base string) func() (changed, failed bool) {
	x := e.xrdItem(d, n, base)
	if x == nil {
		return nil
	}
	return func() (bool, bool) {
		changed := x.convert()
		return changed, x.failed
	}
}

// Composition converts a Composition for its v2-native XR type.
func (e *extension) Composition(c *convert.Composition) convert.CompositionExtension {
	return &composition{Composition: c, o: c.Options()}
}

// composition is one Composition being converted for its v2 XR type.
type composition struct {
	*convert.Composition
	o convert.Options

	drop map[*yaml.Node]bool // patches removed for a v2-native XR (patches.go)

	// scope is the scope of the v2-native XRD the Composition is
	// converted for (scopeNamespaced when empty, scopeCluster): it decides
	// how v2Template converts the templates.
	scope string
}

var _ convert.CompositionExtension = &composition{}

// Patch rewrites the XR field paths of a patch (v2Patch).
func (c *composition) Patch(p *yaml.Node, path, typ string, loc convert.Location) {
	c.v2Patch(p, path, typ, loc)
}

// EnvironmentSources rewrites the XR field paths of environment selectors
// (v2Selectors).
func (c *composition) EnvironmentSources(srcs *yaml.Node, path string) {
	c.v2Selectors(srcs, path)
}

// Resources works out the Composition of the v2 XR type (v2PlanFor).
func (c *composition) Resources(spec, res *yaml.Node) convert.Plan {
	return c.v2PlanFor(spec, res)
}

// Pipeline makes a Pipeline-mode Composition the Composition of the v2
// XR type, unless it is one already (v2PipelineMode).
func (c *composition) Pipeline(spec *yaml.Node) convert.Plan {
	if c.alreadyV2(spec) {
		return nil
	}
	if p := c.v2PipelineMode(spec); p != nil {
		return p
	}
	return nil
}

// Apply makes the assembled Pipeline Composition the Composition of the
// v2 XR type (v2Apply).
func (p *v2Plan) Apply(spec *yaml.Node) { p.c.v2Apply(spec, p) }

// Expected returns the metadata and spec as the plan changes them.
func (p *v2Plan) Expected(md, spec map[string]any) (map[string]any, map[string]any) {
	return p.expected(md, spec)
}

// ExpectedBase returns a template's base as its declared ops change it:
// a v2-native template changes exactly as they say.
func (p *v2Plan) ExpectedBase(name string, base map[string]any) map[string]any {
	b := jsonobj.DeepCopy(base)
	if _, err := v2map.Apply(b, p.mapping.Resource(name)); err != nil {
		return base
	}
	return b
}
