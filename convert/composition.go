package convert

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/xpmigrate/xpmigrate/convert/yamledit"
	"github.com/xpmigrate/xpmigrate/internal/xp"
)

// Group, version and kind of the function inputs the converter writes.
const (
	PTInputAPIVersion = xp.PTInputAPIVersion
	PTInputKind       = xp.PTInputKind
	ECInputAPIVersion = xp.ECInputAPIVersion
	ECInputKind       = xp.ECInputKind
)

// composition is one Composition being converted: the state the passes
// (passes.go) read and edit, and where their findings go. Caches that only
// save work are kept apart, in outputCache.
type composition struct {
	r        *run
	doc      *yamledit.Doc
	index    int
	lineBase int    // the document's first line, minus one
	base     string // path of the Composition in the document ("" or "items[3].")
	name     string
	node     *yaml.Node

	failed  bool
	changed bool
	lint    bool // report only lintCodes, never fail (linting a pipeline)
	usedEC  bool // an environment-configs step was written

	visited        map[*yaml.Node]bool // shared (aliased) nodes normalised once
	errPaths       []string            // paths of the errors reported
	inferred       []string            // transforms whose type was inferred
	sets           map[string]bool     // declared patch set names
	fallible       string              // the first transform able to fail (C317)
	envWrite       bool                // a patch writes to the environment
	emptyResources bool                // converted without resources (C214)
	intended       []string            // codes of the quirks fixed on request
	xrIndexed      []indexedWrite      // ToComposite writes of XR list items (C217)
	fallNode       *yaml.Node
	inJSON         []byte // the input, as kubectl reads it

	ext  CompositionExtension // the target's (Extension), or nil
	plan Plan                 // what ext does beyond the Pipeline conversion, or nil

	outputCache // performance only
}

// errorf, warnf and infof report a finding about node n at path (relative
// to the Composition).
func (c *composition) errorf(code Code, n *yaml.Node, path, format string, args ...any) {
	c.report(code, n, path, fmt.Sprintf(format, args...))
}

func (c *composition) warnf(code Code, n *yaml.Node, path, format string, args ...any) {
	c.report(code, n, path, fmt.Sprintf(format, args...))
}

func (c *composition) infof(code Code, n *yaml.Node, path, format string, args ...any) {
	c.report(code, n, path, fmt.Sprintf(format, args...))
}

func (c *composition) report(code Code, n *yaml.Node, path, msg string) {
	info, _ := Lookup(code)
	if c.lint && !slices.Contains(lintCodes, code) {
		return
	}
	line := 0
	if n != nil && n.Line > 0 {
		line = c.lineBase + n.Line
	} else if c.node.Line > 0 {
		line = c.lineBase + c.node.Line
	}
	if info.Severity == SeverityError {
		c.failed = true
		c.errPaths = append(c.errPaths, path)
	}
	c.r.add(Diagnostic{
		Code: code, Severity: info.Severity, Line: line, Document: c.index,
		Composition: c.name, Path: c.base + path, Message: msg,
	})
}

// convert converts the Composition in place (docs/semantics/conversion.md#mode-decision, docs/semantics/conversion.md#the-composition-object).
func (c *composition) convert() {
	spec, mode, ok := checkPass{c}.run()
	if !ok {
		return
	}
	switch {
	case c.r.o.Phase1 && mode == "Resources":
		c.phase1(spec)
	case c.r.o.Phase1:
		return
	case mode == "Resources":
		c.resourcesMode(spec)
	default:
		pipelinePass{c}.pipelineMode(spec)
	}
}

func joinPath(path, key string) string {
	if path == "" {
		return key
	}
	if strings.ContainsAny(key, ".[]") {
		return path + "[" + key + "]"
	}
	return path + "." + key
}

func idx(path string, i int) string { return path + "[" + strconv.Itoa(i) + "]" }

// stripServerFields removes what `kubectl get -o yaml` adds
// (docs/semantics/conversion.md#server-fields).
func (c normalisePass) stripServerFields() {
	if c.r.o.KeepServerFields {
		return
	}
	var removed []string
	if yamledit.Delete(c.node, "status") {
		removed = append(removed, "status")
	}
	md := yamledit.Resolve(yamledit.Get(c.node, "metadata"))
	if yamledit.IsMap(md) {
		for _, k := range xp.ServerFields {
			if yamledit.Delete(md, k) {
				removed = append(removed, "metadata."+k)
			}
		}
		if an := yamledit.Resolve(yamledit.Get(md, "annotations")); yamledit.IsMap(an) {
			const lac = xp.AnnotationLastApplied
			if yamledit.Delete(an, lac) {
				removed = append(removed, "metadata.annotations["+lac+"]")
				if len(an.Content) == 0 {
					yamledit.Delete(md, "annotations")
				}
			}
		}
	}
	if len(removed) > 0 {
		c.infof("C302", c.node, "", "removed the server fields %s (use --keep-server-fields to keep them)", strings.Join(removed, ", "))
	}
}

// phase1 names the unnamed templates and changes nothing else (the first
// step of the rollout of docs/semantics/conversion.md#constructs-with-no-exact-equivalent N1).
func (c *composition) phase1(spec *yaml.Node) {
	if (checkPass{c}).noResources(spec) {
		return
	}
	res := yamledit.Resolve(yamledit.Get(spec, "resources"))
	if !yamledit.IsSeq(res) {
		c.errorf("C107", res, "spec.resources", "spec.resources must be a list of resource templates")
		return
	}
	if (normalisePass{c}).names(res) {
		c.changed = true
	}
}

// resourcesMode is the full conversion (docs/semantics/conversion.md#the-composition-object and the sections after it): the
// passes in order.
func (c *composition) resourcesMode(spec *yaml.Node) {
	res := checkPass{c}.resources(spec)
	if res == nil {
		return
	}
	env := normalisePass{c}.run(spec, res)
	v := validatePass{c}
	v.input()
	if c.failed {
		return
	}
	if c.ext != nil {
		c.plan = c.ext.Resources(spec, res)
	}
	pipelinePass{c}.assemble(spec, res, env)
	if c.plan != nil {
		c.plan.Apply(spec)
	}
	compensatePass{c}.annotateIntended()
	v.validateOutput(spec)
	c.changed = true
}

// IntendedChangesAnnotation lists, on a converted Composition, the codes of
// the legacy quirks the conversion fixed on request (Options.FixQuirks):
// the behaviour changes verify reports as intended.
const IntendedChangesAnnotation = xp.AnnotationIntendedChanges

// metadata returns the Composition's metadata, added when missing.
func (c *composition) metadata() *yaml.Node {
	md := yamledit.Resolve(yamledit.Get(c.node, "metadata"))
	if !yamledit.IsMap(md) {
		yamledit.Delete(c.node, "metadata")
		md = yamledit.NewMap()
		yamledit.Insert(c.node, max(yamledit.Index(c.node, "kind")+1, 0), "metadata", md)
	}
	return md
}

// annotations returns the Composition's metadata.annotations, added (in
// the style of metadata) when missing.
func (c *composition) annotations() *yaml.Node {
	md := c.metadata()
	an := yamledit.Resolve(yamledit.Get(md, "annotations"))
	if !yamledit.IsMap(an) {
		yamledit.Delete(md, "annotations")
		an = yamledit.NewMap()
		an.Style = md.Style & yaml.FlowStyle
		yamledit.Set(md, "annotations", an)
	}
	return an
}
