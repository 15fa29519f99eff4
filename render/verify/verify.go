package verify

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/pkg/errors"
	yaml "go.yaml.in/yaml/v3"

	"github.com/xpmigrate/xpmigrate/environment"
	"github.com/xpmigrate/xpmigrate/internal/crossplane"
	"github.com/xpmigrate/xpmigrate/internal/errkind"
	"github.com/xpmigrate/xpmigrate/internal/jsonobj"
	"github.com/xpmigrate/xpmigrate/internal/manifest"
	"github.com/xpmigrate/xpmigrate/internal/v2map"
	"github.com/xpmigrate/xpmigrate/internal/xp"
	"github.com/xpmigrate/xpmigrate/render"
	"github.com/xpmigrate/xpmigrate/render/builtin/environmentconfigs"
	"github.com/xpmigrate/xpmigrate/render/engine"
	"github.com/xpmigrate/xpmigrate/render/pipeline"
	"github.com/xpmigrate/xpmigrate/render/verify/gaps"
)

// A Converter converts a legacy Composition document (YAML) to its
// mode: Pipeline form, as `xpmigrate convert` does with the same inputs.
// Verify calls it when it is given no converted Composition.
type Converter func(ConvertRequest) ([]byte, error)

// A ConvertRequest is what a Converter converts, and what it reads
// besides.
type ConvertRequest struct {
	// Composition is the legacy Composition's document (YAML).
	Composition []byte

	// Target is the Crossplane line to convert for (V1 or V2).
	Target crossplane.Target

	// XRD is the CompositeResourceDefinition of the Composition's type,
	// when known (Options.XRD, or the cluster's): its schema types the XR
	// fields patches read, as `convert --xrd` reads it.
	XRD map[string]any
}

// A Document is a YAML file's content and where it came from.
type Document struct {
	// Path names the file in reports (never opened by Verify).
	Path string

	// Data is the file's content. The first Composition in it is used.
	Data []byte

	// JSON optionally holds what Data means, as kubectl reads it
	// (sigs.k8s.io/yaml.YAMLToJSON of Data), when the caller already has
	// it, as the converter does. It is used only when Data is a single
	// document: Verify then decodes it instead of parsing Data again, and
	// reads Data for line numbers only.
	JSON []byte

	// Lines optionally locates nodes of the Composition's document for
	// reports, when the caller has parsed it already: given a path of
	// string keys and int indexes, the 1-based line, within the
	// document, of its deepest node that exists (of the document when
	// none does), and true; false when it cannot tell, and Verify parses
	// the document to find out.
	Lines func(path []any) (int, bool)
}

// A Sample is one composite resource to render both Compositions for.
type Sample struct {
	// Name identifies the sample in reports: the file and document, or
	// "synthesized-<n>".
	Name string

	// Source and Line locate the sample's document; empty for synthesized
	// samples.
	Source string
	Line   int

	// XR is the composite resource, or a claim when Options.XRD is set.
	XR map[string]any

	// Observed, Extra and ObservedConnectionDetails, when not nil, replace
	// Options' for this sample: the composed resources, other objects and
	// connection details of one XR read from a cluster.
	Observed                  []map[string]any
	Extra                     []map[string]any
	ObservedConnectionDetails map[string]map[string][]byte
}

// state returns the observed resources, extra objects and connection
// details for s: its own where set, else Options'.
func (o Options) state(s Sample) (observed, extra []map[string]any, details map[string]map[string][]byte) {
	observed, extra, details = o.Observed, o.Extra, o.ObservedConnectionDetails
	if s.Observed != nil {
		observed = s.Observed
	}
	if s.Extra != nil {
		extra = s.Extra
	}
	if s.ObservedConnectionDetails != nil {
		details = s.ObservedConnectionDetails
	}
	return observed, extra, details
}

// Options tune Verify.
type Options struct {
	// Observed are the composed resources that exist, the same for both
	// sides and every sample.
	Observed []map[string]any

	// Extra are the other objects in the "cluster" (EnvironmentConfigs,
	// Secrets), the same for both sides.
	Extra []map[string]any

	// XRD is the CompositeResourceDefinition; with it samples may be
	// claims, and its schema decides which null fields of a sample both
	// engines see (engine.PruneXR). Without it every null is dropped, and
	// the Report says so when a sample has one.
	XRD map[string]any

	// ObservedConnectionDetails are observed composed resources'
	// connection details by composition resource name (D28, docs/reference/gaps.md#known-gaps).
	ObservedConnectionDetails map[string]map[string][]byte

	// Loops is how many reconciles to simulate; 0 means until both sides
	// are stable (at most engine.MaxStableLoops).
	Loops int

	// Target is the Crossplane line the pipeline side emulates, V1 (the
	// default) or V2.
	Target crossplane.Target

	// EnvironmentFunction is the function-environment-configs release the
	// pipeline runs: "v0.6" or "v0.7". Empty pairs it with Target (v0.6 for
	// v1, v0.7 for v2), as the converter pins it.
	EnvironmentFunction string

	// Strict makes every known gap that persists fail verification,
	// benign or accepted ones too (intended changes excepted).
	Strict bool

	// Accept lists breaking gap codes (D21, D30…) the user accepts: they
	// are reported but do not fail verification. The annotation
	// xpmigrate.io/accept-gaps on either Composition accepts codes too.
	Accept []string

	// Convert converts the legacy Composition when Verify is given no
	// converted one.
	Convert Converter

	// FromCluster says the samples and their inputs were read from a
	// cluster: hints for missing input name what the cluster lacks instead
	// of the flags that give files.
	FromCluster bool

	// ClusterScoped tells, for a v2-native Composition, whether a composed
	// type is cluster-scoped (from the CRDs of the composed types, when
	// the caller has them); nil uses pipeline.KnownClusterScoped.
	ClusterScoped func(apiVersion, kind string) bool

	// ResourceName names the legacy Composition's anonymous template at
	// index i. Nil uses the converted Composition's name for the template
	// at the same index (the converter keeps the order), or
	// DefaultResourceName.
	ResourceName func(i int) string
}

// Verify renders the legacy Composition and its converted form for every
// sample, with the same observed resources and EnvironmentConfigs, for as
// many reconciles as Options.Loops says, compares each reconcile's outcomes
// and classifies every difference.
//
// An error is returned only when verification could not run: unreadable or
// invalid input (a render.InputError, for exit code 2), a failing
// Converter, a cancelled context. A reconcile that fails on one side is a
// difference, not an error.
func Verify(ctx context.Context, legacy, converted Document, samples []Sample, o Options) (*Report, error) {
	t, err := crossplane.ParseTarget(string(o.Target))
	if err != nil {
		return nil, errkind.InvalidInput(err)
	}
	o.Target = t
	lc, err := loadComposition(legacy)
	if err != nil {
		return nil, err
	}
	if mode := jsonobj.String(lc.obj, "spec", "mode"); mode != "" && mode != "Resources" {
		return nil, errkind.InvalidInputf("%s: Composition %q is not a legacy composition (spec.mode is %q)", legacy.Path, jsonobj.String(lc.obj, "metadata", "name"), mode)
	}
	if len(converted.Data) == 0 {
		if o.Convert == nil {
			return nil, errors.New("cannot verify without a converted composition: give one, or a converter")
		}
		b, err := o.Convert(ConvertRequest{Composition: lc.src.Raw, Target: o.Target, XRD: o.XRD})
		if err != nil {
			return nil, errors.Wrapf(err, "cannot convert %s", legacy.Path)
		}
		path := converted.Path
		if path == "" {
			path = "(converted on the fly)"
		}
		converted = Document{Path: path, Data: b}
	}
	cc, err := loadComposition(converted)
	if err != nil {
		return nil, err
	}
	if mode := jsonobj.String(cc.obj, "spec", "mode"); mode != "Pipeline" {
		return nil, errkind.InvalidInputf("%s: Composition %q is not a pipeline composition (spec.mode is %q)", converted.Path, jsonobj.String(cc.obj, "metadata", "name"), mode)
	}

	v := &verifier{o: o, legacy: lc, converted: cc}
	m, err := v2map.FromAnnotations(stringMap(jsonobj.Value(cc.obj, "metadata", "annotations")))
	if err != nil {
		return nil, errkind.InvalidInput(errors.Wrap(err, converted.Path))
	}
	if m != nil && o.Target != crossplane.V2 {
		return nil, errkind.InvalidInputf("%s: Composition %q is v2-native (annotation %s): verify it with --target v2", converted.Path, jsonobj.String(cc.obj, "metadata", "name"), v2map.Annotation)
	}
	if m != nil {
		if ref := jsonobj.Value(cc.obj, "spec", "compositeTypeRef"); jsonobj.String(jsonobj.AsMap(ref), "apiVersion") != m.To.APIVersion || jsonobj.String(jsonobj.AsMap(ref), "kind") != m.To.Kind {
			return nil, errkind.InvalidInputf("%s: annotation %s maps to %s %s, but the Composition's compositeTypeRef is %s %s", converted.Path, v2map.Annotation, m.To.APIVersion, m.To.Kind, jsonobj.String(jsonobj.AsMap(ref), "apiVersion"), jsonobj.String(jsonobj.AsMap(ref), "kind"))
		}
		v.mapping = m
	}
	v.pipeline = gaps.PipelineModel(cc.obj)
	v.names = o.ResourceName
	if v.names == nil {
		v.names = anonymousNames(lc.obj, v.pipeline)
	}
	v.legacyModel = gaps.LegacyModel(lc.obj, v.names)
	v.shown = shownConnectionDetails(v.legacyModel, v.pipeline)
	v.builtins, v.ecVersion = builtins(o.Target, o.EnvironmentFunction)
	if v.builtins == nil {
		return nil, errkind.InvalidInputf("unknown function-environment-configs release %q: want v0.6 or v0.7", o.EnvironmentFunction)
	}

	rep := &Report{
		Legacy:      legacy.Path,
		Converted:   converted.Path,
		Composition: jsonobj.String(lc.obj, "metadata", "name"),
		Target:      o.Target,
		Strict:      o.Strict,
	}
	if v.mapping != nil {
		rep.Mapping = &MappingSummary{
			From:  v.mapping.From.APIVersion + " " + v.mapping.From.Kind,
			To:    v.mapping.To.APIVersion + " " + v.mapping.To.Kind,
			Scope: v.mapping.Scope,
		}
	}
	if err := v.readDeclarations(o.Accept, rep); err != nil {
		return nil, err
	}
	cov := newCoverage(v.legacyModel)
	for _, s := range samples {
		if a := nullAssumption(s.XR, o.XRD); a != "" && !slices.Contains(rep.Assumptions, a) {
			rep.Assumptions = append(rep.Assumptions, a)
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		sr, assumptions, err := v.sample(ctx, s, cov)
		if err != nil {
			return nil, err
		}
		for _, a := range assumptions {
			if !slices.Contains(rep.Assumptions, a) {
				rep.Assumptions = append(rep.Assumptions, a)
			}
		}
		rep.Samples = append(rep.Samples, *sr)
	}
	rep.Unexercised = cov.unexercised(v.legacy)
	rep.finish()
	return rep, nil
}

// anonymousNames guesses the names the converter gave the legacy
// Composition's anonymous templates: `resource-<i>`
// (docs/semantics/conversion.md#template-names) when the converted Composition has such a template, else
// `<kind>-<i>` (--name-strategy=kind), else the name of the converted
// template at the same position if its base has the same kind, else
// `resource-<i>`.
func anonymousNames(legacy map[string]any, converted *gaps.Model) func(int) string {
	resources := jsonobj.AsList(jsonobj.Value(legacy, "spec", "resources"))
	names := make([]string, len(resources))
	for i, r := range resources {
		rm, _ := r.(map[string]any)
		kind := jsonobj.String(rm, "base", "kind")
		candidates := []string{DefaultResourceName(i), strings.ToLower(kind) + "-" + strconv.Itoa(i)}
		names[i] = candidates[0]
		found := false
		for _, c := range candidates {
			if _, ok := converted.Template(c); ok {
				names[i], found = c, true
				break
			}
		}
		if !found && i < len(converted.Templates) && jsonobj.String(converted.Templates[i].Base, "kind") == kind && kind != "" {
			names[i] = converted.Templates[i].Name
		}
	}
	return func(i int) string {
		if i >= 0 && i < len(names) {
			return names[i]
		}
		return DefaultResourceName(i)
	}
}

// builtins returns the in-process functions for a target and a
// function-environment-configs release, and the release's name.
func builtins(target crossplane.Target, ec string) (engine.BuiltinSet, string) {
	set := engine.Builtins(target)
	switch ec {
	case "":
		if target == crossplane.V2 {
			return set, "v0.7"
		}
		return set, "v0.6"
	case "v0.6":
		set[engine.BuiltinEnvironmentConfigs] = environmentconfigs.New(environment.FunctionV06)
	case "v0.7":
		set[engine.BuiltinEnvironmentConfigs] = environmentconfigs.New(environment.FunctionV07)
	default:
		return nil, ""
	}
	return set, ec
}

// A composition is a loaded Composition document.
type composition struct {
	doc Document
	obj map[string]any
	// src is the Composition's own document of the file.
	src manifest.Document
	// node is the document parsed, on first use (see root).
	node   *yaml.Node
	parsed bool
}

func loadComposition(d Document) (*composition, error) {
	docs := manifest.Split(d.Data)
	if len(d.JSON) > 0 && len(docs) == 1 {
		obj, err := manifest.DecodeJSON(d.JSON)
		if err != nil {
			return nil, errkind.InvalidInput(errors.Wrapf(err, "%s: document 1 (line %d)", d.Path, docs[0].Line))
		}
		if obj != nil && obj["kind"] == "Composition" && obj["apiVersion"] == xp.CompositionAPIVersion {
			return &composition{doc: d, obj: obj, src: docs[0]}, nil
		}
	}
	for _, doc := range docs {
		obj, err := doc.Decode()
		if err != nil {
			return nil, errkind.InvalidInput(manifest.NewDocumentError(d.Path, doc, err))
		}
		if obj == nil || obj["kind"] != "Composition" || obj["apiVersion"] != xp.CompositionAPIVersion {
			continue
		}
		return &composition{doc: d, obj: obj, src: doc}, nil
	}
	return nil, errkind.InvalidInputf("%s: no apiextensions.crossplane.io/v1 Composition found", d.Path)
}

type verifier struct {
	o Options

	// intended are the converter's opt-in fixes the converted Composition
	// declares; accepted the accepted breaking gap codes and where each
	// acceptance comes from.
	intended map[string]bool
	accepted map[string]string

	legacy, converted *composition
	legacyModel       *gaps.Model

	// mapping is the converted Composition's v2 mapping, when it is
	// v2-native.
	mapping   *v2map.Mapping
	pipeline  *gaps.Model
	names     func(int) string
	shown     map[string]bool
	builtins  engine.BuiltinSet
	ecVersion string
}

// maxLoops bounds the simulation.
func (v *verifier) maxLoops() int {
	if v.o.Loops > 0 {
		return v.o.Loops
	}
	return engine.MaxStableLoops
}

// A run renders one side loop by loop. The engine is deterministic, so
// once a side is stable (or failed) later reconciles are the same.
type run struct {
	req    engine.Request
	opts   engine.Options
	sides  []Side
	done   bool
	stable bool

	// presence is what each reconcile differs from legacy in, computed
	// on first use by attribution (presenceOf).
	presence []loopPresence
}

// failedXR is xr with Synced=False for err, as the reconciler sets it.
func failedXR(xr map[string]any, err error) map[string]any {
	out := deepCopyMap(xr)
	st, _ := out["status"].(map[string]any)
	if st == nil {
		st = map[string]any{}
		out["status"] = st
	}
	conds := []any{map[string]any{
		"type":    render.ConditionTypeSynced,
		"status":  "False",
		"reason":  render.ReasonReconcileError,
		"message": err.Error(),
	}}
	for _, c := range jsonobj.AsList(st["conditions"]) {
		if cm, ok := c.(map[string]any); ok && cm["type"] != render.ConditionTypeSynced {
			conds = append(conds, cm)
		}
	}
	st["conditions"] = conds
	return out
}

// input is the XR the next reconcile reads: the last one's effective XR,
// or the sample.
func (r *run) input() map[string]any {
	for i := len(r.sides) - 1; i >= 0; i-- {
		if o := r.sides[i].Outcome; o != nil && o.EffectiveXR != nil {
			return o.EffectiveXR
		}
	}
	return r.req.XR
}

// renderAll renders the side once, for loops reconciles or until it is
// stable, and keeps every reconcile's outcome (the engine reports each one).
// A reconcile that fails ends the side; later loops repeat the last one.
func (r *run) renderAll(ctx context.Context, loops int, untilStable bool) error {
	o := r.opts
	o.Loops, o.UntilStable = loops, untilStable
	o.Observe = func(_ int, out *render.Outcome, stable bool) {
		r.sides = append(r.sides, Side{Outcome: out})
		if stable {
			r.stable = true
		}
	}
	res, err := engine.Render(ctx, r.req, o)
	// Done means the side reached its end state (stable, or failed), not
	// merely that the loops asked for ran out.
	r.done = r.stable || err != nil
	if err == nil {
		return nil
	}
	var ie *render.InputError
	var ic *engine.InvalidCompositionError
	if errors.As(err, &ie) && !errors.As(err, &ic) {
		return err
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	// A Composition the API server would refuse composes nothing: the
	// side fails, as it would in a cluster.
	if rewordErr != nil {
		err = rewordErr(err)
	}
	s := Side{Err: err}
	if res == nil || res.Outcome == nil {
		// The reconcile failed before it produced anything: the cluster
		// keeps the XR as it was, and the reconciler marks it unsynced.
		res = &engine.Result{Outcome: &render.Outcome{EffectiveXR: failedXR(r.input(), err)}}
	}
	if jsonobj.String(res.Outcome.EffectiveXR, "apiVersion") == "" {
		// A reconcile that failed before composing leaves the XR as it
		// was, with the status the failure wrote.
		xr := deepCopyMap(r.input())
		if st, ok := res.Outcome.EffectiveXR["status"]; ok {
			xr["status"] = st
		}
		res.Outcome.EffectiveXR = xr
	}
	s.Outcome = res.Outcome
	r.sides = append(r.sides, s)
	return nil
}

// rewordErr, set only by tests, replaces each engine error before it is
// compared, classified and hinted at: nothing may depend on the text (the
// rules' own tests reword through render/verify/gaps).
var rewordErr func(error) error

// padTo repeats the last reconcile until the side has n: the engine is
// deterministic, so a stable or failed side stays as it is.
func (r *run) padTo(n int) {
	for len(r.sides) > 0 && len(r.sides) < n {
		r.sides = append(r.sides, r.sides[len(r.sides)-1])
	}
}

func (v *verifier) sample(ctx context.Context, s Sample, cov *coverage) (*SampleReport, []string, error) {
	var claimAssumption string
	if v.mapping != nil && v.mapping.Scope != "Cluster" && isClaimOfGroup(s.XR, v.o.XRD) && jsonobj.String(s.XR, "metadata", "namespace") == "" {
		// A claim without a namespace is created in the namespace of the
		// client's context, "default" unless set: the legacy side
		// renders it there, as the v2 side renders its namespaced twin.
		s.XR = deepCopyMap(s.XR)
		setAt(s.XR, "default", "metadata", "namespace")
		claimAssumption = "a claim sample without a namespace: rendered in namespace default, where kubectl creates it, on both sides"
	}
	xr, err := v.prepareXR(s.XR)
	if err != nil {
		return nil, nil, errkind.InvalidInput(errors.Wrapf(err, "sample %s", s.Name))
	}
	observed, extra, details := v.o.state(s)
	var tw *twin
	var assumptions []string
	// A claim of the legacy XRD may have the v2 type's apiVersion and kind
	// (--xr-naming drop-prefix often gives the v2 XR the claim's names):
	// it is a claim all the same.
	if v.mapping != nil && v.isV2Sample(s.XR) {
		return nil, nil, errkind.InvalidInputf("sample %s is a v2 %s: give the claim or legacy XR it is the twin of (verify builds the twin)", s.Name, v.mapping.To.Kind)
	}
	if v.mapping != nil {
		if tw, assumptions, err = v.newTwin(xr, s.XR); err != nil {
			return nil, nil, errkind.InvalidInput(errors.Wrapf(err, "sample %s", s.Name))
		}
		if claimAssumption != "" {
			assumptions = append(assumptions, claimAssumption)
		}
	}
	req := engine.Request{
		XR:                        xr,
		Stored:                    true,
		Observed:                  observed,
		Extra:                     extra,
		ObservedConnectionDetails: details,
	}
	lreq, preq := req, req
	lreq.Composition = v.legacy.obj
	preq.Composition = v.converted.obj
	l := &run{req: lreq, opts: engine.Options{Target: v.o.Target}}
	p := &run{req: preq, opts: engine.Options{Target: v.o.Target, Profile: pipeline.Reconciler, Builtins: v.builtins}}
	if tw != nil {
		p.opts.ClusterScoped = tw.clusterScoped(v.o.ClusterScoped)
		p.req.XR = tw.xr
		if p.req.Observed, err = tw.mapObserved(observed); err != nil {
			return nil, nil, errkind.InvalidInput(errors.Wrapf(err, "sample %s", s.Name))
		}
	}

	// With Loops set, simulate exactly that many; until stable, each side
	// stops at the reconcile that repeats the one before, and the shorter
	// side is padded with its last reconcile.
	loops, untilStable := v.maxLoops(), v.o.Loops == 0
	for _, r := range []*run{l, p} {
		if err := r.renderAll(ctx, loops, untilStable); err != nil {
			return nil, nil, errors.Wrapf(err, "sample %s", s.Name)
		}
	}
	n := max(len(l.sides), len(p.sides))
	l.padTo(n)
	p.padTo(n)

	// A v2-native Composition is compared with the legacy render mapped
	// through its declared mapping.
	legacySides := l.sides
	var mappedLast mappedSide
	if tw != nil {
		legacySides = make([]Side, len(l.sides))
		for i, side := range l.sides {
			ms, err := tw.mapSide(side)
			if err != nil {
				return nil, nil, errors.Wrapf(err, "sample %s", s.Name)
			}
			legacySides[i] = ms.side
			mappedLast = ms
		}
	}

	diffs := gaps.Classify(&gaps.Context{
		LegacyModel:            v.legacyModel,
		PipelineModel:          v.pipeline,
		Names:                  v.names,
		ShownConnectionDetails: v.shown,
		Target:                 v.o.Target,
		EnvironmentFunction:    v.ecVersion,
		Observed:               observed,
		Intended:               v.intended,
		Accepted:               v.accepted,
		XR:                     xr,
		Legacy:                 legacySides,
		Pipeline:               p.sides,
		Truncated:              !(l.stable || l.done) || !(p.stable || p.done),
		Compare:                Compare,
	})
	if tw != nil {
		connectionLag(diffs, mappedLast)
		diffs = append(diffs, mappedDifferences(mappedLast, p.sides[len(p.sides)-1], diffs, v.names)...)
		for i := range diffs {
			if diffs[i].Gap != nil && diffs[i].Gap.Class == ClassMapped {
				diffs[i].FirstLoop, diffs[i].LastLoop = 1, len(p.sides)
			}
		}
	}
	if err := v.prove(ctx, diffs, legacySides, p); err != nil {
		return nil, nil, errors.Wrapf(err, "sample %s", s.Name)
	}
	for i := range diffs {
		diffs[i].Line = v.line(&diffs[i])
	}
	cov.record(xr, l.sides, p.sides)

	sr := &SampleReport{
		Sample:         s.Name,
		Source:         s.Source,
		Line:           s.Line,
		Loops:          len(l.sides),
		LegacyStable:   l.stable,
		PipelineStable: p.stable,
		Differences:    diffs,
	}
	if last := l.sides[len(l.sides)-1]; last.Err != nil {
		sr.LegacyError = last.Err.Error()
	}
	if last := p.sides[len(p.sides)-1]; last.Err != nil {
		sr.PipelineError = last.Err.Error()
	}
	if sr.LegacyError != "" && sr.PipelineError != "" {
		sr.Hint = v.missingInputHint(l.sides[len(l.sides)-1].Err, p.sides[len(p.sides)-1].Err)
	}
	sr.Ready = readyFlip(l.sides[len(l.sides)-1], p.sides[len(p.sides)-1])
	sr.verdict(v.o.Strict)
	return sr, assumptions, nil
}

// line locates a difference in the legacy Composition.
func (v *verifier) line(d *Difference) int {
	idx := newLineIndex(v.legacy)
	var at []any
	switch d.Aspect {
	case AspectResource:
		if t, ok := v.legacyModel.Template(d.Resource); ok {
			at = t.YAMLPath
			if ps := t.PatchesWriting(d.Path, nil); len(ps) > 0 {
				at = ps[len(ps)-1].YAMLPath
			}
		}
	case AspectXR:
		for _, t := range v.legacyModel.Templates {
			if ps := t.PatchesWriting(d.Path, gaps.Patch.WritesXR); len(ps) > 0 {
				at = ps[len(ps)-1].YAMLPath
			}
		}
		for _, p := range v.legacyModel.EnvPatches {
			if p.WritesXR() && p.Writes(d.Path) {
				at = p.YAMLPath
			}
		}
	default:
		if t, ok := v.legacyModel.Template(d.Resource); ok {
			at = t.YAMLPath
		}
	}
	return idx.line(at)
}

// prepareXR turns a claim into its XR and runs what Crossplane's XR
// configurators would have done before either engine sees the XR: the
// crossplane.io/composite label, and spec.writeConnectionSecretToRef from
// the Composition's writeConnectionSecretsToNamespace. crossplane render
// runs neither configurator, so without this patches reading those fields
// would differ spuriously (observed differences A1).
func (v *verifier) prepareXR(in map[string]any) (map[string]any, error) {
	if in == nil {
		return nil, errors.New("no object")
	}
	// The engines read the XR as the API server stored it: nulls pruned
	// by the XRD's schema (see nullAssumption when there is none).
	xr, _ := engine.PruneXR(in, v.o.XRD)
	xr, err := engine.CompositeOf(xr, v.o.XRD)
	if err != nil {
		return nil, err
	}
	md, _ := xr["metadata"].(map[string]any)
	if md == nil {
		md = map[string]any{}
		xr["metadata"] = md
	}
	labels, _ := md["labels"].(map[string]any)
	if labels == nil {
		labels = map[string]any{}
	}
	if s, _ := labels[xp.LabelComposite].(string); s == "" {
		labels[xp.LabelComposite] = md["name"]
		md["labels"] = labels
	}
	if ns := jsonobj.String(v.legacy.obj, "spec", "writeConnectionSecretsToNamespace"); ns != "" {
		spec, _ := xr["spec"].(map[string]any)
		if spec == nil {
			spec = map[string]any{}
			xr["spec"] = spec
		}
		if _, ok := spec["writeConnectionSecretToRef"]; !ok {
			uid, _ := md["uid"].(string)
			spec["writeConnectionSecretToRef"] = map[string]any{"name": uid, "namespace": ns}
		}
	}
	return xr, nil
}

// nullAssumption states how a sample's null fields are read when no XRD
// schema says which of them are nullable, or "" when the sample has none
// or the schema says.
func nullAssumption(xr, xrd map[string]any) string {
	if !hasNull(xr) {
		return ""
	}
	if _, schema := engine.PruneXR(xr, xrd); schema {
		return ""
	}
	if xrd == nil {
		return "no XRD given: null XR fields treated as absent (as an API server prunes them when the schema is not nullable)"
	}
	return fmt.Sprintf("XRD %q has no schema for %s: null XR fields treated as absent (as an API server prunes them when the schema is not nullable)", jsonobj.String(xrd, "metadata", "name"), jsonobj.String(xr, "apiVersion"))
}

// hasNull reports whether v holds a null anywhere.
func hasNull(v any) bool {
	switch t := v.(type) {
	case nil:
		return true
	case map[string]any:
		for _, e := range t {
			if hasNull(e) {
				return true
			}
		}
	case []any:
		for _, e := range t {
			if hasNull(e) {
				return true
			}
		}
	}
	return false
}

// isV2Sample reports whether a sample is already an XR of the mapping's v2
// type: it has the v2 type and is not a claim of the XRD (under the
// default naming the v2 type is often the claim's type).
func (v *verifier) isV2Sample(o map[string]any) bool {
	return jsonobj.String(o, "apiVersion") == v.mapping.To.APIVersion && jsonobj.String(o, "kind") == v.mapping.To.Kind && !isClaimOfGroup(o, v.o.XRD)
}

func isClaim(o, xrd map[string]any) bool {
	ck := jsonobj.String(xrd, "spec", "claimNames", "kind")
	return ck != "" && o["kind"] == ck
}

// isClaimOfGroup reports whether o is a claim of the XRD: its claim kind
// in its group.
func isClaimOfGroup(o, xrd map[string]any) bool {
	return isClaimOf(o, xrd) && xp.Group(jsonobj.String(o, "apiVersion")) == jsonobj.String(xrd, "spec", "group")
}

func deepCopyMap(o map[string]any) map[string]any {
	out, _ := jsonobj.CopyTree(o).(map[string]any)
	return out
}

func jsonMarshal(v any) ([]byte, error) { return json.Marshal(v) }

// readDeclarations reads what the Compositions declare for verification:
// the converted one's intended changes (xpmigrate.io/intended-changes) and
// either one's accepted gaps (xpmigrate.io/accept-gaps), with the codes
// accepted on the command line.
func (v *verifier) readDeclarations(accept []string, rep *Report) error {
	v.intended = map[string]bool{}
	v.accepted = map[string]string{}
	known := map[string]bool{}
	for _, c := range IntendedChanges {
		known[c.Code] = true
	}
	for _, code := range parseCodes(jsonobj.String(v.converted.obj, "metadata", "annotations", AnnotationIntendedChanges)) {
		if !known[code] {
			return errkind.InvalidInputf("%s: annotation %s: %q is not an intended change xpmigrate knows (want one of %s)", v.converted.doc.Path, AnnotationIntendedChanges, code, strings.Join(intendedCodes(), ", "))
		}
		if !v.intended[code] {
			v.intended[code] = true
			rep.IntendedChanges = append(rep.IntendedChanges, code)
		}
	}
	add := func(codes []string, by string) error {
		for _, code := range codes {
			c, ok := gaps.LookupGapCode(code)
			if !ok {
				return errkind.InvalidInputf("%s: %q is not a known gap code (D1-D%d)", by, code, len(GapCodes))
			}
			if _, dup := v.accepted[c.Code]; !dup {
				v.accepted[c.Code] = by
			}
		}
		return nil
	}
	if err := add(accept, "--accept"); err != nil {
		return err
	}
	for _, c := range []*composition{v.legacy, v.converted} {
		if c == nil || c.obj == nil {
			continue
		}
		by := fmt.Sprintf("annotation %s on %s", AnnotationAcceptGaps, c.doc.Path)
		if err := add(parseCodes(jsonobj.String(c.obj, "metadata", "annotations", AnnotationAcceptGaps)), by); err != nil {
			return err
		}
	}
	if len(v.accepted) > 0 {
		rep.Acceptances = v.accepted
	}
	return nil
}

func intendedCodes() []string {
	out := make([]string, 0, len(IntendedChanges))
	for _, c := range IntendedChanges {
		out = append(out, c.Code)
	}
	return out
}

// missingInputHint guesses, from the errors of two sides that both failed,
// which input the sample probably lacks. It only words a hint: verdicts
// never depend on it.
func (v *verifier) missingInputHint(legacy, pipe error) string {
	// The environment step's fatal result, if the pipeline failed there.
	var ec *pipeline.FatalResultError
	if !errors.As(pipe, &ec) || ec.Step != v.pipeline.ECStepName {
		ec = nil
	}
	var ic *engine.InvalidCompositionError
	invalid := errors.As(legacy, &ic) || errors.As(pipe, &ic)
	var nf *environment.NotFoundError
	notFound := errors.As(legacy, &nf)
	name := ""
	if notFound {
		name = nf.Name
	} else if ec != nil {
		name, notFound = environment.FindConfigNotFound(ec.Message)
	}
	var se *environment.SelectError
	selection := errors.As(legacy, &se)
	var secret *pipeline.SecretNotFoundError
	secretMissing := errors.As(pipe, &secret)
	if v.o.FromCluster {
		switch {
		case invalid:
			return "the legacy Composition is invalid (the API server would refuse it, so no XR ever ran it): fix it, or verify the Composition the cluster actually runs"
		case notFound:
			return fmt.Sprintf("EnvironmentConfig %s is not in the cluster (or the kubeconfig's user may not read it): create it, or fix the reference", name)
		case selection || ec != nil:
			return "the EnvironmentConfig selection failed on both sides: check the cluster's EnvironmentConfigs have the labels the selectors match, and the XR sets the fields the selector labels read"
		case secretMissing:
			return fmt.Sprintf("Secret %s is not in the cluster (or the kubeconfig's user may not read it)", secret.Name)
		}
		return "both sides failed on this XR: check that it is valid for the Composition and that every object it reads exists in the cluster and may be read"
	}
	switch {
	case invalid:
		return "the legacy Composition is invalid (the API server would refuse it, so no XR ever ran it): fix it, or verify the Composition the cluster actually runs"
	case notFound:
		return fmt.Sprintf("EnvironmentConfig %s is not among the inputs: pass it with -e (or --extra-resources)", name)
	case selection || ec != nil:
		return "the EnvironmentConfig selection failed on both sides: pass the EnvironmentConfigs the selectors should match with -e, and check the XR sets the fields the selector labels read"
	case secretMissing:
		return fmt.Sprintf("Secret %s is not among the inputs: pass it with -e", secret.Name)
	}
	return "both sides failed on this sample: check that the XR is valid for the Composition and that every object it reads is given (-e for EnvironmentConfigs and Secrets, -o for existing composed resources)"
}

// readyFlip returns the XR's Ready condition status on both sides when it
// differs in the last reconcile.
func readyFlip(l, p Side) *ReadyFlip {
	ls, ps := readyStatus(l), readyStatus(p)
	if ls == ps {
		return nil
	}
	return &ReadyFlip{Legacy: ls, Pipeline: ps}
}

func readyStatus(s Side) string {
	if s.Outcome == nil || s.Outcome.EffectiveXR == nil {
		return "Unknown"
	}
	for _, c := range jsonobj.AsList(jsonobj.Value(s.Outcome.EffectiveXR, "status", "conditions")) {
		cm, _ := c.(map[string]any)
		if cm["type"] == render.ConditionTypeReady {
			if st, _ := cm["status"].(string); st != "" {
				return st
			}
		}
	}
	return "Unknown"
}
