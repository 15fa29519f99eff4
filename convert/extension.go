package convert

import (
	yaml "go.yaml.in/yaml/v3"

	"github.com/xpmigrate/xpmigrate/convert/yamledit"
	"github.com/xpmigrate/xpmigrate/internal/manifest"
)

// An Extension converts, on top of the Pipeline conversion of this
// package, what a target needs beyond it. Package convert/v2native is the
// one there is: the v2-native target (Target v2 with an XRScope other than
// legacy), which Convert refuses without it. ConvertWith runs a
// conversion with an extension; it is asked at these points, in this
// order:
//
//   - Document, for every document that is an object (before it is taken
//     for a Composition): it converts objects other than Compositions
//     whole;
//   - ListItem, for every item of a `kind: List`: it converts such
//     objects inside Lists;
//   - Composition, for every Composition recognised: the returned
//     CompositionExtension is then asked while the passes run.
type Extension interface {
	// Document converts document d whole when it is an object the
	// extension rewrites, and reports whether it took it (what it wrote
	// or left is d's, see Document.Write).
	Document(d *Document) bool

	// ListItem returns the conversion of item n of the List in document d
	// (at base, "items[3].") when the extension rewrites it, or nil. The
	// conversion runs before the List's Compositions convert, and reports
	// whether it changed the item and whether it failed.
	ListItem(d *Document, n *yaml.Node, base string) func() (changed, failed bool)

	// Composition returns what the extension does to Composition c.
	Composition(c *Composition) CompositionExtension
}

// A CompositionExtension converts one Composition for an Extension's
// target, inside the passes of this package.
type CompositionExtension interface {
	// Patch is called for every patch of a Resources-mode Composition (of
	// a template, a patch set or the environment, at loc) once it is
	// normalised: p is at path, of patch type typ.
	Patch(p *yaml.Node, path, typ string, loc Location)

	// EnvironmentSources is called with the environmentConfigs of a
	// Resources-mode Composition's environment (srcs, at path), once they
	// are normalised.
	EnvironmentSources(srcs *yaml.Node, path string)

	// Resources is called on a Resources-mode Composition whose input
	// validated, before its pipeline is assembled from spec and the
	// templates res; the plan it returns (nil for none) is applied once
	// the pipeline is assembled, and the output is validated against it.
	Resources(spec, res *yaml.Node) Plan

	// Pipeline is called on a Pipeline-mode Composition after its steps
	// are linted, when nothing failed. It converts the Composition and
	// returns the plan it applied, or nil when it left it alone.
	Pipeline(spec *yaml.Node) Plan
}

// A Plan is what a CompositionExtension does to a Composition beyond the
// Pipeline conversion, applied to the YAML (Apply) and stated for the
// round-trip check that the document read back is what was intended
// (C192).
type Plan interface {
	// Apply edits the assembled Pipeline Composition (its spec).
	Apply(spec *yaml.Node)

	// Expected returns the metadata and spec of the input as the plan
	// changes them (the templates aside), without changing those given.
	Expected(metadata, spec map[string]any) (map[string]any, map[string]any)

	// ExpectedBase returns the base of template name as the plan changes
	// it, without changing the base given.
	ExpectedBase(name string, base map[string]any) map[string]any
}

// ConvertWith is Convert with an Extension for the target: the one way to
// convert for the v2-native target (package convert/v2native calls it).
func ConvertWith(src []byte, opts Options, ext Extension) (*Result, error) {
	return convertStream(src, opts, ext)
}

// A PatchRef is a patch of a Composition (its node, aliases resolved) and
// its path.
type PatchRef struct {
	Node *yaml.Node
	Path string
}

// WithPatchSets returns the patches at path with the patches of the patch
// sets (the list sets, at setsPath) they name in their place, as the
// composer applies them; a patch set's patch has its path in the list
// when setsPath is set.
func WithPatchSets(sets *yaml.Node, setsPath string, patches *yaml.Node, path string) []PatchRef {
	pp := withPatchSets(sets, setsPath, patches, path)
	out := make([]PatchRef, len(pp))
	for i, p := range pp {
		out[i] = PatchRef{Node: p.node, Path: p.path}
	}
	return out
}

// A Composition is a Composition being converted, as an Extension sees
// it: its nodes, the options and what the run knows, and where its
// findings go.
type Composition struct{ c *composition }

// Name is the Composition's metadata.name as it was read.
func (c *Composition) Name() string { return c.c.name }

// Node is the Composition's object (the document's top node, or the item
// of a List).
func (c *Composition) Node() *yaml.Node { return c.c.node }

// Root is the top node of the document that holds the Composition.
func (c *Composition) Root() *yaml.Node { return c.c.doc.Top() }

// Options are the options of the run, completed.
func (c *Composition) Options() Options { return c.c.r.o }

// XRDs are the CompositeResourceDefinitions the run knows (decoded): the
// input's, and Options.XRDs.
func (c *Composition) XRDs() []map[string]any { return c.c.r.xrds }

// HasXRSchema reports whether a known XRD serves a schema of the XR type
// group, kind.
func (c *Composition) HasXRSchema(group, kind string) bool {
	for _, s := range c.c.r.schemas {
		if s.group == group && s.kind == kind {
			return true
		}
	}
	return false
}

// Metadata returns the Composition's metadata, added when missing.
func (c *Composition) Metadata() *yaml.Node { return c.c.metadata() }

// Annotations returns the Composition's metadata.annotations, added when
// missing.
func (c *Composition) Annotations() *yaml.Node { return c.c.annotations() }

// Errorf reports an error of code about node n at path (relative to the
// Composition): the Composition fails. Warnf and Infof report the other
// severities.
func (c *Composition) Errorf(code Code, n *yaml.Node, path, format string, args ...any) {
	c.c.errorf(code, n, path, format, args...)
}

// Warnf reports a warning, see Errorf.
func (c *Composition) Warnf(code Code, n *yaml.Node, path, format string, args ...any) {
	c.c.warnf(code, n, path, format, args...)
}

// Infof reports information, see Errorf.
func (c *Composition) Infof(code Code, n *yaml.Node, path, format string, args ...any) {
	c.c.infof(code, n, path, format, args...)
}

// Diagnostics are the findings of the run so far.
func (c *Composition) Diagnostics() []Diagnostic { return c.c.r.res.Diagnostics }

// Encode returns the document that holds the Composition as it is now.
func (c *Composition) Encode() ([]byte, error) { return c.c.doc.Encode() }

// Compositions reads the Compositions that are whole documents of a YAML
// stream as an Extension sees them, converting nothing: for the tests and
// tools of an extension. They share one run, which knows the XRDs of the
// stream and of opts. Documents that are no YAML are left out (Convert
// refuses such a stream, C102); the error is an *OptionError.
func Compositions(src []byte, opts Options) ([]*Composition, error) {
	o, err := opts.complete()
	if err != nil {
		return nil, err
	}
	r := &run{o: o, res: &Result{}}
	chunks := manifest.Split(src)
	docs := make([]*yamledit.Doc, len(chunks))
	for i, ch := range chunks {
		docs[i], _ = yamledit.Parse(ch.Text) // Left out when it is no YAML.
	}
	r.xrds = append(o.XRDs[:len(o.XRDs):len(o.XRDs)], streamXRDs(chunks, docs)...)
	r.schemas = xrdSchemas(r.xrds)
	r.docs = docs
	r.resolveFunctions(docs, chunks)
	var out []*Composition
	for i, d := range docs {
		if d == nil {
			continue
		}
		if c := r.recognise(i, chunks[i], d, d.Top(), ""); c != nil {
			out = append(out, &Composition{c})
		}
	}
	return out, nil
}

// A Document is one document of the stream, as an Extension that may
// convert it whole sees it.
type Document struct {
	r     *run
	index int
	chunk manifest.Document
	doc   *yamledit.Doc
	rep   *DocumentReport
	from  int    // the first finding of the document
	out   []byte // what Write left
}

// Index is the document's 0-based position in the stream.
func (d *Document) Index() int { return d.index }

// LineBase is the line the document starts on, minus one: a node's line
// plus LineBase is its line in the stream.
func (d *Document) LineBase() int { return d.chunk.TextLine - 1 }

// Name is the metadata.name of the document's object.
func (d *Document) Name() string { return d.rep.Name }

// Top is the document's top node.
func (d *Document) Top() *yaml.Node { return d.doc.Top() }

// Options are the options of the run, completed.
func (d *Document) Options() Options { return d.r.o }

// Stream is every document of the stream, parsed (nil for empty ones).
func (d *Document) Stream() []*yamledit.Doc { return d.r.docs }

// Add adds a finding about the document; its severity is the registry's
// when unset.
func (d *Document) Add(dg Diagnostic) { d.r.add(dg) }

// Unchanged leaves the document as it was, with nothing to do.
func (d *Document) Unchanged() {
	d.rep.Status, d.out = StatusUnchanged, d.chunk.Text
}

// Write ends the conversion of the document: it is left as it was when
// the conversion failed (or a warning fails under Options.Strict) or
// changed nothing, and written with its edits otherwise.
func (d *Document) Write(changed, failed bool) {
	d.out = d.chunk.Text
	switch {
	case failed || d.r.strictFails(d.from):
		d.rep.Status = StatusFailed
		return
	case !changed:
		d.rep.Status = StatusUnchanged
		return
	}
	b, err := d.doc.Encode()
	if err != nil {
		d.r.add(Diagnostic{Code: "C192", Document: d.index, Line: d.chunk.TextLine, Composition: d.rep.Name, Message: err.Error()})
		d.rep.Status = StatusFailed
		return
	}
	if !d.doc.Spliced() {
		d.r.res.fallbacks++
	}
	d.rep.Status, d.out = StatusConverted, b
}
