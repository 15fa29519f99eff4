package gaps

import (
	"fmt"
	"strings"

	"github.com/crossplane/crossplane-runtime/v2/pkg/fieldpath"
	"github.com/pkg/errors"

	"github.com/xpmigrate/xpmigrate/environment"
	"github.com/xpmigrate/xpmigrate/internal/crossplane"
	"github.com/xpmigrate/xpmigrate/render"
)

// A Gap is a known semantic difference between Crossplane's native
// composer and the function pipeline that explains a Difference.
type Gap struct {
	// Code is the difference's code in the catalogue of known gaps
	// (docs/reference/gaps.md#known-gaps).
	Code string `json:"code"`

	// Diagnostics are the converter's diagnostic codes
	// (docs/reference/diagnostics.md) that warn about this gap.
	Diagnostics []string `json:"diagnostics,omitempty"`

	// Observed names the measurements of this gap (O1–O13 of
	// docs/semantics/differences.md).
	Observed []string `json:"observed,omitempty"`

	// Title says what the gap is, in a few words.
	Title string `json:"title"`

	// Detail says how this difference follows from the gap: which patch,
	// check or step.
	Detail string `json:"detail"`

	// Fix is what the user can change so that both sides agree.
	Fix string `json:"fix"`

	// Class is breaking, benign or intended (see GapClass). A difference
	// that vanishes by the last reconcile is always benign: a lag.
	Class GapClass `json:"class"`

	// Accepted is true when the user accepted the code of a breaking gap;
	// AcceptedBy says where (the --accept flag, or the annotation on a
	// Composition).
	Accepted   bool   `json:"accepted,omitempty"`
	AcceptedBy string `json:"acceptedBy,omitempty"`

	// Proven is true when a render proved that the gap causes the
	// difference: the pipeline rendered again with the switches ProvenBy
	// names (the gap's own, alone or with those of gaps already proven on
	// the sample) agrees with legacy at the difference's path. A lag is
	// proven by the simulation itself (ProvenBy "later-reconcile"): the
	// pipeline reaches legacy's value in a later reconcile. Only a proven
	// gap can be accepted.
	Proven   bool     `json:"proven,omitempty"`
	ProvenBy []string `json:"provenBy,omitempty"`

	// Unproven says why the gap is not proven when it has no switch: it
	// stays a candidate, which never passes under --accept.
	Unproven string `json:"unproven,omitempty"`

	// Lag is set for the gaps of the transient rules (D8, D19, D26 as
	// lags), which the simulation proves: a later reconcile catches up.
	Lag bool `json:"-"`

	// NoSwitch is the rule's reason why its code's switch does not apply
	// to its mechanism.
	NoSwitch string `json:"-"`
}

// Switch returns the switch that renders the gap's mechanism away, or
// false and why none does.
func (g *Gap) Switch() (Switch, string, bool) {
	if g.NoSwitch != "" {
		return Switch{}, g.NoSwitch, false
	}
	if s, ok := Switches[g.Code]; ok {
		return s, "", true
	}
	why := NoSwitch[g.Code]
	if why == "" {
		why = "no switch renders this gap away"
	}
	return Switch{}, why, false
}

// A rule recognises one known gap. Rules are tried in order and the first
// that matches a difference classifies it.
type rule struct {
	code        string
	diagnostics []string
	observed    []string
	title       string
	fix         string

	// transient rules explain only differences that vanish by the last
	// reconcile: lags that the next reconcile catches up on.
	transient bool

	// class overrides the code's class in GapCodes for the differences
	// this rule explains.
	class GapClass

	// intended names the converter's opt-in fix (a C-code) the rule
	// recognises; the rule applies only when the converted Composition
	// declares it.
	intended string

	// match returns the detail when the rule explains d.
	match func(c *ruleContext, d *Difference) (string, bool)

	// noSwitch says why no switch renders this rule's mechanism away, when
	// its code has a switch for another mechanism (see Switches).
	noSwitch string
}

func (r rule) gap(detail string) *Gap {
	return &Gap{
		Code:        r.code,
		Diagnostics: r.diagnostics,
		Observed:    r.observed,
		Title:       r.title,
		Detail:      detail,
		Fix:         r.fix,
		Class:       r.gapClass(),
		Lag:         r.transient,
		NoSwitch:    r.noSwitch,
	}
}

// gapClass is the class of the differences the rule explains.
func (r rule) gapClass() GapClass {
	switch {
	case r.intended != "":
		return ClassIntended
	case r.class != "":
		return r.class
	case r.transient:
		return ClassBenign
	}
	if c, ok := LookupGapCode(r.code); ok {
		return c.Class
	}
	return ClassBreaking
}

// A Context is what the rules read to classify the differences of one
// sample: both Compositions, the XR given to both engines and every
// reconcile of both sides.
type Context struct {
	// LegacyModel and PipelineModel are the legacy Composition and its
	// conversion, as the rules read them.
	LegacyModel, PipelineModel *Model

	// Names names the legacy Composition's anonymous template at index i
	// as the converted Composition names it.
	Names func(i int) string

	// ShownConnectionDetails are the XR connection details whose values a
	// difference may show (CompareOptions).
	ShownConnectionDetails map[string]bool

	// Target is the Crossplane line the pipeline side emulates, and
	// EnvironmentFunction the function-environment-configs release it runs
	// ("v0.6", "v0.7").
	Target              crossplane.Target
	EnvironmentFunction string

	// Observed are the composed resources that exist.
	Observed []map[string]any

	// Intended are the converter's opt-in fixes (C-codes) the converted
	// Composition declares; Accepted the accepted breaking gap codes, with
	// where each acceptance comes from.
	Intended map[string]bool
	Accepted map[string]string

	// XR is the composite resource both engines were given.
	XR map[string]any

	// Legacy and Pipeline are every reconcile of each side, as many on
	// both.
	Legacy, Pipeline []Side

	// Truncated is true when the simulation stopped before both sides
	// were stable: a lag may still have caught up later.
	Truncated bool

	// Compare compares one reconcile of both sides (render/verify's
	// Compare).
	Compare func(legacy, pipeline Side, o CompareOptions) []Difference
}

// Classify compares every reconcile of the sample (Context.Compare) and
// returns the differences, merged over the reconciles, each with the Gap
// that explains it (nil when nothing does).
func Classify(c *Context) []Difference {
	rc := &ruleContext{Context: c}
	if rewordErr != nil {
		rc.Context = rewordErrors(c)
	}
	diffs := rc.compareLoops()
	classify(rc, diffs)
	return diffs
}

// rewordErr, set only by tests, replaces each engine error before the
// sides are compared and classified: classification must not depend on
// the text.
var rewordErr func(error) error

// rewordErrors returns a copy of c with every side's error reworded.
func rewordErrors(c *Context) *Context {
	out := *c
	reword := func(sides []Side) []Side {
		r := make([]Side, len(sides))
		for i, s := range sides {
			if s.Err != nil {
				s.Err = rewordErr(s.Err)
			}
			r[i] = s
		}
		return r
	}
	out.Legacy, out.Pipeline = reword(c.Legacy), reword(c.Pipeline)
	return &out
}

// A ruleContext is what rules read: the sample's Context, and the
// difference being classified.
type ruleContext struct {
	*Context

	// loop is the 1-based reconcile of the difference being classified.
	loop int

	// byLoop are the raw differences of each reconcile.
	byLoop [][]Difference
}

func (c *ruleContext) final() int { return len(c.Legacy) }

func (c *ruleContext) legacySide() Side { return c.Legacy[c.loop-1] }
func (c *ruleContext) pipeSide() Side   { return c.Pipeline[c.loop-1] }

// compareLoops compares every reconcile and merges the differences: one
// Difference per aspect, resource and path, with the reconciles it was seen
// in. A persistent difference shows the last reconcile's values, a
// transient one the first reconcile's it was seen in.
func (c *ruleContext) compareLoops() []Difference {
	var out []Difference
	idx := map[string]int{}
	opts := CompareOptions{ResourceName: c.Names, ShownConnectionDetails: c.ShownConnectionDetails}
	c.byLoop = make([][]Difference, c.final())
	for k := 1; k <= c.final(); k++ {
		ds := c.Compare(c.Legacy[k-1], c.Pipeline[k-1], opts)
		c.byLoop[k-1] = ds
		for _, d := range ds {
			d.FirstLoop, d.LastLoop = k, k
			i, seen := idx[d.key()]
			if !seen {
				idx[d.key()] = len(out)
				out = append(out, d)
				continue
			}
			first := out[i].FirstLoop
			out[i] = d
			out[i].FirstLoop = first
		}
	}
	for i := range out {
		if out[i].LastLoop < c.final() {
			out[i].Transient = true
			// Show the values of the first reconcile it was seen in.
			for _, d := range c.byLoop[out[i].FirstLoop-1] {
				if d.key() == out[i].key() {
					first, last := out[i].FirstLoop, out[i].LastLoop
					out[i] = d
					out[i].FirstLoop, out[i].LastLoop, out[i].Transient = first, last, true
					break
				}
			}
		}
	}
	return out
}

// classify sets each difference's Gap: first from the rules, then from
// the differences it follows from (XR readiness from resource readiness,
// an XR status field or connection detail from the resource it is read
// from).
func classify(c *ruleContext, diffs []Difference) {
	for i := range diffs {
		d := &diffs[i]
		c.loop = d.FirstLoop
		if !d.Transient {
			c.loop = d.LastLoop
		}
		for _, r := range rules {
			if r.transient && !d.Transient && !c.Truncated {
				continue
			}
			if r.intended != "" && !c.Intended[r.intended] {
				continue
			}
			if detail, ok := r.match(c, d); ok {
				d.Gap = r.gap(detail)
				break
			}
		}
	}
	for i := range diffs {
		d := &diffs[i]
		if d.Gap != nil {
			continue
		}
		if g := consequence(c, diffs, d); g != nil {
			d.Gap = g
		}
	}
	for i := range diffs {
		d := &diffs[i]
		if d.Gap == nil {
			continue
		}
		// A lag is benign whatever caused it: the steady state agrees.
		if d.Transient && d.Gap.Class == ClassBreaking {
			d.Gap.Class = ClassBenign
		}
		// A reconcile that fails on one side to the end is never benign,
		// whatever rule explains it.
		if !d.Transient && d.Gap.Class == ClassBenign && c.finalErrorDiffers() {
			d.Gap.Class = ClassBreaking
		}
		if d.Gap.Class == ClassBreaking {
			if by, ok := c.Accepted[d.Gap.Code]; ok {
				d.Gap.Accepted, d.Gap.AcceptedBy = true, by
			}
		}
	}
}

// consequence explains d by other classified differences it follows from,
// seen in the same reconciles.
func consequence(c *ruleContext, diffs []Difference, d *Difference) *Gap {
	var causes []*Difference
	for i := range diffs {
		o := &diffs[i]
		if o == d || o.Gap == nil || o.FirstLoop > d.FirstLoop || o.LastLoop < d.LastLoop && !d.Transient {
			continue
		}
		if canCause(c, d, o) {
			causes = append(causes, o)
		}
	}
	if len(causes) == 0 {
		return nil
	}
	// Every difference of the kind d follows from must be explained.
	for i := range diffs {
		o := &diffs[i]
		if o != d && o.Gap == nil && o.FirstLoop <= d.LastLoop && o.LastLoop >= d.FirstLoop && canCause(c, d, o) {
			return nil
		}
	}
	g := *causes[0].Gap
	g.Detail = fmt.Sprintf("follows from %s: %s", causes[0].Title(), g.Detail)
	return &g
}

// canCause reports whether a difference like o can cause d.
func canCause(c *ruleContext, d, o *Difference) bool {
	switch d.Aspect {
	case AspectCondition:
		name := d.Path.String()
		switch o.Aspect {
		case AspectReadiness, AspectPresence:
			return name == render.ConditionTypeReady
		case AspectSynced:
			return name == render.ConditionTypeSynced
		}
	case AspectXR:
		// A resource reference, when the resource or its name differ.
		if d.Path.hasPrefix(Path{{Field: "spec"}, {Field: "resourceRefs"}}) || d.Path.hasPrefix(Path{{Field: "spec"}, {Field: "crossplane"}, {Field: "resourceRefs"}}) {
			return o.Aspect == AspectPresence || (o.Aspect == AspectResource && len(o.Path) == 2 && o.Path[0].Field == "metadata")
		}
		// A status field written by a ToComposite patch of o's resource.
		if o.Resource == "" || (o.Aspect != AspectPresence && o.Aspect != AspectResource && o.Aspect != AspectReadiness) {
			return false
		}
		t, ok := c.PipelineModel.Template(o.Resource)
		if !ok {
			return false
		}
		for _, p := range t.PatchesWriting(d.Path, Patch.WritesXR) {
			if o.Aspect != AspectResource || sourceOverlaps(p, o.Path) {
				return true
			}
		}
	case AspectConnection:
		if o.Resource == "" || (o.Aspect != AspectPresence && o.Aspect != AspectResource) {
			return false
		}
		t, ok := c.PipelineModel.Template(o.Resource)
		if !ok {
			return false
		}
		for _, cd := range t.ConnectionDetails {
			if cd["name"] == d.Path.String() {
				return true
			}
		}
	case AspectReadiness, AspectSynced, AspectResource:
		// A resource that is rendered on one side only, or whose
		// readiness follows from fields that differ.
		return o.Resource == d.Resource && o.Aspect == AspectPresence
	}
	return false
}

// sourceOverlaps reports whether p reads anything at or under path.
func sourceOverlaps(p Patch, path Path) bool {
	for _, s := range p.Sources() {
		if overlaps(cachedPath(s), path) {
			return true
		}
	}
	return false
}

// pipelineEnvironment returns the environment the pipeline's patches saw
// in the current reconcile.
func (c *ruleContext) pipelineEnvironment() map[string]any {
	out := c.pipeSide().Outcome
	if out == nil {
		return nil
	}
	env, _ := out.Context[environment.ContextKeyEnvironment].(map[string]any)
	return env
}

// resourceWriters returns the converted template's patches that write the
// difference's path in its resource, keeping those keep accepts.
func (c *ruleContext) resourceWriters(d *Difference, keep func(Patch) bool) []Patch {
	if d.Aspect != AspectResource {
		return nil
	}
	t, ok := c.PipelineModel.Template(d.Resource)
	if !ok {
		return nil
	}
	return t.PatchesWriting(d.Path, keep)
}

// xrWriters returns the converted Composition's patches that write path in
// the XR: resource ToComposite patches and environment ToComposite
// patches, with the template they belong to ("" for environment patches).
func (c *ruleContext) xrWriters(path Path) []ownedPatch {
	var out []ownedPatch
	for _, t := range c.PipelineModel.Templates {
		for _, p := range t.PatchesWriting(path, Patch.WritesXR) {
			out = append(out, ownedPatch{template: t.Name, patch: p})
		}
	}
	for _, p := range c.PipelineModel.EnvPatches {
		if p.WritesXR() && overlaps(cachedPath(p.To), path) {
			out = append(out, ownedPatch{patch: p})
		}
	}
	return out
}

// An ownedPatch is a patch and the template it belongs to.
type ownedPatch struct {
	template string
	patch    Patch
}

func (o ownedPatch) String() string {
	if o.template == "" {
		return "environment " + o.patch.String()
	}
	return fmt.Sprintf("%s of resource %q", o.patch, o.template)
}

// envWriters returns the converted templates' ToEnvironment patches that
// write the environment key path.
func (c *ruleContext) envWriters(path Path) []ownedPatch {
	var out []ownedPatch
	for _, t := range c.PipelineModel.Templates {
		for _, p := range t.Patches {
			if p.WritesEnvironment() && overlaps(cachedPath(p.To), path) {
				out = append(out, ownedPatch{template: t.Name, patch: p})
			}
		}
	}
	return out
}

// Has reports whether o has a value at the field path path.
func Has(o map[string]any, path string) bool {
	if o == nil || path == "" {
		return false
	}
	_, err := fieldpath.Pave(o).GetValue(path)
	return err == nil
}

// isStatus reports whether a path is in the XR's status.
func isStatus(p Path) bool {
	return len(p) > 0 && p[0].Field == "status" && !p[0].IsIndex
}

// errText returns an error's text, or "".
func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// legacyUnrendered returns the legacy templates (by resource name) that
// were not rendered in the current reconcile.
func (c *ruleContext) legacyUnrendered() []string {
	out := c.legacySide().Outcome
	if out == nil {
		return nil
	}
	var names []string
	for _, cd := range out.Composed {
		if !cd.Rendered {
			names = append(names, ResourceName(cd, c.Names))
		}
	}
	return names
}

func quoteAll(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = fmt.Sprintf("%q", s)
	}
	return strings.Join(q, ", ")
}

// valueAtPath returns the value at path in o.
func valueAtPath(o map[string]any, path Path) (any, error) {
	var cur any = o
	for _, s := range path {
		switch t := cur.(type) {
		case map[string]any:
			v, ok := t[s.Field]
			if s.IsIndex || !ok {
				return nil, errors.Errorf("no field %s", path)
			}
			cur = v
		case []any:
			if !s.IsIndex || s.Index < 0 || s.Index >= len(t) {
				return nil, errors.Errorf("no field %s", path)
			}
			cur = t[s.Index]
		default:
			return nil, errors.Errorf("no field %s", path)
		}
	}
	return cur, nil
}

// finalErrorDiffers reports whether exactly one side's last reconcile
// failed.
func (c *ruleContext) finalErrorDiffers() bool {
	n := c.final()
	return (c.Legacy[n-1].Err == nil) != (c.Pipeline[n-1].Err == nil)
}
