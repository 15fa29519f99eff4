package gaps

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"

	"github.com/xpmigrate/xpmigrate/environment"
	"github.com/xpmigrate/xpmigrate/internal/crossplane"
	"github.com/xpmigrate/xpmigrate/internal/jsonobj"
	pt "github.com/xpmigrate/xpmigrate/patchandtransform"
	"github.com/xpmigrate/xpmigrate/render"
	"github.com/xpmigrate/xpmigrate/render/legacy"
	"github.com/xpmigrate/xpmigrate/render/pipeline"
)

// rules are the known gaps, most specific first. Each has a test that
// produces its difference from real renders (rules_test.go).
var rules = append(append([]rule{
	ruleAnonymousExisting,
	ruleFatalPatchError,
	ruleRequiredToComposite,
	ruleRequiredMiss,
	ruleSkippedReadiness,
	ruleEnvironmentNotDelivered,
	ruleEnvironmentRefs,
	ruleResolvePinned,
	ruleEnvironmentStatusLost,
	ruleNullableNull,
	ruleSelectorNoLabels,
	ruleDefaultDataAlone,
	ruleToEnvironment,
	ruleEnvironmentToXR,
	ruleXRWriteOutsideStatus,
	ruleReadsUnpersisted,
	ruleBaseName,
	ruleSkippedRef,
	ruleResourceRefsIndex,
	ruleReadinessError,
	ruleKindChange,
	ruleControlledElsewhere,
	ruleLabelNotString,
	ruleSortMissing,
	ruleEnvironmentGVKKeys,
	ruleAnonymousAnnotation,
	ruleMatchInteger,
	ruleFormatFloat,
	ruleFormatFixed,
	ruleJoinSeparator,
	ruleLargeInteger,
}, warningRules...),
	ruleReadinessLag,
	ruleConnectionLag,
	ruleObservedLag,
)

// D1, observed O3: anonymous templates with composed resources that exist.
var ruleAnonymousExisting = rule{
	code:        "D1",
	diagnostics: []string{"C204"},
	observed:    []string{"O3"},
	title:       "existing resources of anonymous templates have no composition-resource-name annotation",
	fix: "Roll out the phase-1 Composition first (the legacy Composition with the generated names, " +
		"`xpmigrate convert --phase1-out`) and let every XR reconcile, so the native composer annotates " +
		"the existing composed resources; or annotate them with crossplane.io/composition-resource-name " +
		"by hand. Then switch to the pipeline.",
	match: func(c *ruleContext, _ *Difference) (string, bool) {
		if _, ok := errorAs[*pipeline.UnnamedResourceError](c.pipeSide().Err); !ok {
			return "", false
		}
		msg := errText(c.pipeSide().Err)
		var anon []string
		for _, t := range c.LegacyModel.Templates {
			if t.Anonymous {
				anon = append(anon, t.Name)
			}
		}
		if len(anon) == 0 {
			return "", false
		}
		return fmt.Sprintf("the pipeline cannot compose the XR (%s); the legacy templates converted to %s were anonymous", msg, quoteAll(anon)), true
	},
}

// D1, C204: the annotation itself, on a resource of an anonymous template.
var ruleAnonymousAnnotation = rule{
	code:        "D1",
	class:       ClassBenign,
	diagnostics: []string{"C204"},
	title:       "anonymous template named by the converter",
	fix: "Nothing to fix in the Composition: the pipeline needs names. Roll out the phase-1 Composition " +
		"(`xpmigrate convert --phase1-out`) before the pipeline so existing resources get the annotation.",
	match: func(c *ruleContext, d *Difference) (string, bool) {
		if d.Aspect != AspectResource || !d.Path.hasPrefix(Path{{Field: "metadata"}, {Field: "annotations"}}) {
			return "", false
		}
		t, ok := c.LegacyModel.Template(d.Resource)
		if !ok || !t.Anonymous {
			return "", false
		}
		onlyName := false
		if m, ok := d.rawPipeline.value().(map[string]any); ok && len(m) == 1 && d.rawLegacy == nil {
			_, onlyName = m[render.AnnotationCompositionResourceName]
		}
		if (len(d.Path) == 2 && onlyName) || (len(d.Path) == 3 && d.Path[2].Field == render.AnnotationCompositionResourceName) {
			return fmt.Sprintf("legacy template %d had no name; the converted one is named %q and its resources carry the annotation", t.Index, t.Name), true
		}
		return "", false
	},
}

// D10, observed O4: a patch error fails the whole pipeline.
var ruleFatalPatchError = rule{
	code:        "D10",
	diagnostics: []string{"C317"},
	observed:    []string{"O4"},
	title:       "a failing patch fails the whole XR instead of one resource",
	fix: "Make the patch unable to fail for the inputs the XR allows: add the missing keys to the map " +
		"transform or give the match transform a fallback, constrain the XRD schema (enum) to the values " +
		"the transform handles, or convert the type first.",
	match: func(c *ruleContext, _ *Difference) (string, bool) {
		l, p := c.legacySide(), c.pipeSide()
		f, ok := c.ptFatal(p.Err)
		if l.Err != nil || !ok {
			return "", false
		}
		for _, n := range c.legacyUnrendered() {
			if f.Resource == n {
				return fmt.Sprintf("legacy skipped only resource %q (warning) and composed the others; the pipeline failed: %s", n, p.Err), true
			}
		}
		return "", false
	},
}

// O12, D46: a Required ToComposite miss is terminal in legacy only.
var ruleRequiredToComposite = rule{
	code:     "D46",
	observed: []string{"O12"},
	title:    "a Required ToComposite patch whose source is absent fails the legacy reconcile; the pipeline skips it",
	fix: "If the pipeline behaviour is what you want, drop `policy.fromFieldPath: Required` from the " +
		"ToComposite patch; the XR then reports the resource as unready instead of a reconcile error.",
	match: func(c *ruleContext, _ *Difference) (string, bool) {
		l, p := c.legacySide(), c.pipeSide()
		te, ok := errorAs[*legacy.ToCompositeError](l.Err)
		if !ok || p.Err != nil {
			return "", false
		}
		for _, t := range c.PipelineModel.Templates {
			for _, pt := range t.Patches {
				if pt.WritesXR() && pt.Required && te.Resource == t.Name {
					return fmt.Sprintf("%s of resource %q is Required; legacy failed: %s", pt, t.Name, l.Err), true
				}
			}
		}
		return "", false
	},
}

// D9, observed O10: a Required miss into a composed resource.
var ruleRequiredMiss = rule{
	code:        "D9",
	diagnostics: []string{"C315"},
	observed:    []string{"O10"},
	title:       "policy.fromFieldPath: Required with an absent source",
	fix: "Make sure the source field is always set (a default in the XRD schema), or drop Required if " +
		"the resource may be composed without that value. On an existing resource the pipeline applies " +
		"it without the patch; legacy left it untouched.",
	match: func(c *ruleContext, d *Difference) (string, bool) {
		switch d.Aspect {
		case AspectPresence, AspectResource, AspectReadiness, AspectSynced:
		default:
			return "", false
		}
		if !contains(c.legacyUnrendered(), d.Resource) {
			return "", false
		}
		t, ok := c.PipelineModel.Template(d.Resource)
		if !ok {
			return "", false
		}
		for _, p := range t.Patches {
			if p.Required && (p.ReadsXR() || p.ReadsEnvironment()) && !c.sourcesPresent(p) {
				return fmt.Sprintf("%s of resource %q is Required and its source is absent: legacy does not render the resource at all, the pipeline %s", p, t.Name, pipelineRequiredOutcome(c, t.Name)), true
			}
		}
		return "", false
	},
}

func pipelineRequiredOutcome(c *ruleContext, name string) string {
	out := c.pipeSide().Outcome
	if out != nil {
		for _, cd := range out.Composed {
			if cd.Name == name && cd.Rendered {
				return "applies it without the patch"
			}
		}
	}
	return "leaves it out of the desired state"
}

// O13, D23: the XR's readiness when a template is skipped.
var ruleSkippedReadiness = rule{
	code:        "D23",
	diagnostics: []string{"C315"},
	observed:    []string{"O13"},
	title:       "a skipped template counts for XR readiness in legacy only",
	fix: "Make the Required source always present (XRD default), or accept that the pipeline reports " +
		"the XR ready without that resource.",
	match: func(c *ruleContext, d *Difference) (string, bool) {
		if d.Aspect != AspectCondition {
			return "", false
		}
		for _, n := range c.legacyUnrendered() {
			t, ok := c.PipelineModel.Template(n)
			if !ok {
				continue
			}
			for _, p := range t.Patches {
				if p.Required && !c.sourcesPresent(p) {
					return fmt.Sprintf("legacy counts resource %q, skipped for its Required %s, as unready and unsynced; the pipeline leaves it out", n, p), true
				}
			}
		}
		return "", false
	},
}

// sourcesPresent reports whether every source of a patch that reads the XR
// or the environment is present in the current reconcile's input.
func (c *ruleContext) sourcesPresent(p Patch) bool {
	src := c.XR
	if c.loop > 1 {
		if out := c.Legacy[c.loop-2].Outcome; out != nil && out.EffectiveXR != nil {
			src = out.EffectiveXR
		}
	}
	if p.ReadsEnvironment() {
		src = c.pipelineEnvironment()
	}
	for _, s := range p.Sources() {
		if !Has(src, s) {
			return false
		}
	}
	return true
}

// Observed O1, D43: function-environment-configs v0.7 on Crossplane v1.
var ruleEnvironmentNotDelivered = rule{
	code:        "D43",
	diagnostics: []string{"C324"},
	observed:    []string{"O1"},
	title:       "function-environment-configs v0.7+ gets no EnvironmentConfigs from Crossplane v1",
	fix: "Pin function-environment-configs to v0.6.0 while the cluster runs Crossplane 1.x " +
		"(`xpmigrate convert --target v1 --emit-functions`); move to v0.7 after the upgrade to v2.",
	match: func(c *ruleContext, d *Difference) (string, bool) {
		if c.Target != crossplane.V1 || c.EnvironmentFunction != "v0.7" || !c.PipelineModel.Environment {
			return "", false
		}
		if len(c.pipelineEnvironment()) > 2 { // apiVersion and kind at most
			return "", false
		}
		if src, ok := c.environmentSource(d); ok {
			return fmt.Sprintf("%s reads the environment, which is empty in the pipeline", src), true
		}
		return "", false
	},
}

// environmentSource returns the converted patch that brings an
// environment value to the difference's field: a FromEnvironment patch of
// its resource, or an environment ToComposite patch writing the XR field.
func (c *ruleContext) environmentSource(d *Difference) (string, bool) {
	switch d.Aspect {
	case AspectResource:
		for _, p := range c.resourceWriters(d, Patch.ReadsEnvironment) {
			return fmt.Sprintf("%s of resource %q", p, d.Resource), true
		}
	case AspectXR:
		for _, p := range c.PipelineModel.EnvPatches {
			if p.WritesXR() && overlaps(cachedPath(p.To), d.Path) {
				return "environment " + p.String(), true
			}
		}
	}
	return "", false
}

// environmentKeys returns the environment keys a difference's field is
// read from.
func (c *ruleContext) environmentKeys(d *Difference) []string {
	var out []string
	switch d.Aspect {
	case AspectResource:
		for _, p := range c.resourceWriters(d, Patch.ReadsEnvironment) {
			out = append(out, p.Sources()...)
		}
	case AspectXR:
		for _, p := range c.PipelineModel.EnvPatches {
			if p.WritesXR() && overlaps(cachedPath(p.To), d.Path) {
				out = append(out, p.Sources()...)
			}
		}
	}
	return out
}

// D35: the pipeline never writes spec.environmentConfigRefs. Legacy
// records the selection there (and rewrites stale references under
// policy.resolve: Always); the pipeline leaves whatever the XR had. Nothing
// in the pipeline reads them, so the difference is bookkeeping.
var ruleEnvironmentRefs = rule{
	code:        "D35",
	class:       ClassBenign,
	diagnostics: []string{"C205", "C311"},
	observed:    []string{"O2"},
	title:       "spec.environmentConfigRefs is written by legacy only",
	fix: "None needed: function-environment-configs selects on every reconcile and never reads " +
		"spec.environmentConfigRefs. Remove the field from XR manifests once the pipeline runs.",
	match: func(c *ruleContext, d *Difference) (string, bool) {
		refs := Path{{Field: "spec"}, {Field: "environmentConfigRefs"}}
		if d.Aspect != AspectXR || !d.Path.hasPrefix(refs) {
			return "", false
		}
		if d.Pipeline == nil {
			return "legacy records the selected EnvironmentConfigs in the XR's spec.environmentConfigRefs; the pipeline does not", true
		}
		return "legacy rewrites the XR's spec.environmentConfigRefs with the EnvironmentConfigs it selected; the pipeline leaves the references the XR had", true
	},
}

// D35, observed O2: selection is pinned in legacy only.
var ruleResolvePinned = rule{
	code:        "D35",
	diagnostics: []string{"C205", "C311"},
	observed:    []string{"O2"},
	title:       "EnvironmentConfig selection is no longer pinned in spec.environmentConfigRefs",
	fix: "function-environment-configs selects on every reconcile. Make the selection unambiguous " +
		"(Reference entries, or selectors that match exactly the configs you want), or accept that " +
		"XRs pick up new matching EnvironmentConfigs.",
	match: func(c *ruleContext, d *Difference) (string, bool) {
		if c.LegacyModel.EnvResolve == "Always" || !Has(c.XR, "spec.environmentConfigRefs") {
			return "", false
		}
		if d.Aspect == AspectError && c.environmentFailed(c.pipeSide().Err) {
			return fmt.Sprintf("legacy reuses the XR's spec.environmentConfigRefs; the pipeline selects again and fails: %s", errText(c.pipeSide().Err)), true
		}
		if src, ok := c.environmentSource(d); ok {
			return fmt.Sprintf("%s reads the environment; legacy builds it from the XR's spec.environmentConfigRefs, the pipeline selects again", src), true
		}
		return "", false
	},
}

// D49, Q-4 of docs/semantics/legacy.md#quirks (crossplane/crossplane#4393): environment patches
// that write the XR's status change only the in-memory XR natively, which
// the XR update then replaces; the pipeline persists them.
var ruleEnvironmentStatusLost = rule{
	code:        "D49",
	diagnostics: []string{"C213"},
	title:       "an environment patch writes the XR's status: native Crossplane discarded it, the pipeline keeps it",
	fix: "None needed if the status field is wanted (the pipeline fixes crossplane/crossplane#4393). " +
		"Remove the environment patch if nothing should read that field.",
	match: func(c *ruleContext, d *Difference) (string, bool) {
		if d.Aspect != AspectXR || !isStatus(d.Path) || d.rawPipeline == nil {
			return "", false
		}
		// Legacy keeps what the XR had: nothing, or the input's value.
		if d.rawLegacy != nil {
			in, err := valueAtPath(c.XR, d.Path)
			if err != nil || !jsonobj.Equal(in, d.rawLegacy.V) {
				return "", false
			}
		}
		for _, p := range c.LegacyModel.EnvPatches {
			if p.WritesXR() && overlaps(cachedPath(p.To), d.Path) {
				return fmt.Sprintf("environment %s writes %s; native Crossplane lost the write when the XR update replaced the in-memory XR", p, d.Path), true
			}
		}
		return "", false
	},
}

// D50: a null in an XR field the schema marks nullable. Native Crossplane
// saves the XR with a JSON merge patch of the whole object, in which a null
// deletes the field (RFC 7386); the pipeline's server-side apply keeps it.
// From the next reconcile on, legacy's patches read nothing where the
// pipeline's read null.
var ruleNullableNull = rule{
	code:  "D50",
	title: "a null XR field (nullable in the schema) is deleted by legacy's merge patch and kept by the pipeline",
	fix: "Do not rely on null: give the field a value or leave it out of the XR (and make the patch " +
		"Optional), or drop nullable: true from the XRD schema so the API server prunes it on both sides.",
	match: func(c *ruleContext, d *Difference) (string, bool) {
		switch d.Aspect {
		case AspectXR:
			if d.rawLegacy != nil || d.rawPipeline == nil || d.rawPipeline.V != nil {
				return "", false
			}
			if v, err := valueAtPath(c.XR, d.Path); err != nil || v != nil {
				return "", false
			}
			return fmt.Sprintf("the XR's %s is null; legacy's merge patch deleted it, the pipeline keeps it", d.Path), true
		case AspectResource:
			for _, p := range c.resourceWriters(d, Patch.ReadsXR) {
				for _, src := range p.Sources() {
					if v, err := valueAtPath(c.XR, cachedPath(src)); err == nil && v == nil {
						return fmt.Sprintf("%s of resource %q reads %s, which is null in the XR: legacy deleted it after the first reconcile, the pipeline keeps reading null", p, d.Resource, src), true
					}
				}
			}
		}
		return "", false
	},
}

// D36: selectors whose labels all resolve to nothing.
var ruleSelectorNoLabels = rule{
	code:        "D36",
	diagnostics: []string{"C320"},
	title:       "a selector with no resolvable labels",
	fix: "Give the selector a label that always resolves (a Required field with an XRD default), or " +
		"make the environment optional with policy.resolution: Optional and mode: Multiple.",
	match: func(c *ruleContext, d *Difference) (string, bool) {
		se, ok := selectError(c.legacySide().Err)
		if c.pipeSide().Err != nil || !ok || se.Reason != environment.SelectReasonSingle {
			return "", false
		}
		msg := errText(c.legacySide().Err)
		return fmt.Sprintf("legacy fails in Single mode with no match (%s); the pipeline skips the selector", msg), true
	},
}

// D39, observed O11: defaultData without a requested EnvironmentConfig.
var ruleDefaultDataAlone = rule{
	code:     "D39",
	observed: []string{"O11"},
	title:    "environment defaultData is lost when no EnvironmentConfig is requested",
	fix: "Give function-environment-configs at least one request that always resolves: a Reference to " +
		"a well-known EnvironmentConfig with policy.resolution: Optional, or seed the defaults with " +
		"function-patch-and-transform environment patches.",
	match: func(c *ruleContext, d *Difference) (string, bool) {
		dd := c.PipelineModel.EnvDefaultData
		if len(dd) == 0 {
			return "", false
		}
		env := c.pipelineEnvironment()
		for _, k := range c.environmentKeys(d) {
			if Has(dd, k) && !Has(env, k) {
				return fmt.Sprintf("environment key %q comes from defaultData, which function-environment-configs ignores when it requests no EnvironmentConfig", k), true
			}
		}
		return "", false
	},
}

// D33, observed O8: ToEnvironment patches read the observed resource.
var ruleToEnvironment = rule{
	code:     "D33",
	observed: []string{"O8"},
	title:    "ToEnvironment patches read the observed resource in the pipeline, the rendered one in legacy",
	fix: "Read the value from where it comes from instead of passing it through the environment: " +
		"patch the XR field into both resources (FromCompositeFieldPath), or compute it in both.",
	match: func(c *ruleContext, d *Difference) (string, bool) {
		for _, k := range c.environmentKeys(d) {
			if w := c.envWriters(cachedPath(k)); len(w) > 0 {
				return fmt.Sprintf("environment key %q is written by %s", k, w[0]), true
			}
		}
		// A resource left out for a Required environment value that a
		// ToEnvironment patch had not yet written.
		if d.Aspect != AspectPresence && d.Aspect != AspectReadiness {
			return "", false
		}
		t, ok := c.PipelineModel.Template(d.Resource)
		if !ok {
			return "", false
		}
		for _, p := range t.Patches {
			if !p.ReadsEnvironment() || !p.Required {
				continue
			}
			for _, k := range p.Sources() {
				if w := c.envWriters(cachedPath(k)); len(w) > 0 {
					return fmt.Sprintf("resource %q needs environment key %q (Required), written by %s", d.Resource, k, w[0]), true
				}
			}
		}
		return "", false
	},
}

// D14, observed O7: environment → XR → resource within one reconcile.
var ruleEnvironmentToXR = rule{
	code:        "D14",
	diagnostics: []string{"C209"},
	observed:    []string{"O7"},
	title:       "a value the environment patches write to the XR is not visible to resource patches in the same reconcile",
	fix:         "Read the value from the environment directly (FromEnvironmentFieldPath) instead of through the XR.",
	match: func(c *ruleContext, d *Difference) (string, bool) {
		for _, p := range c.resourceWriters(d, Patch.ReadsXR) {
			for _, s := range p.Sources() {
				for _, w := range c.xrWriters(cachedPath(s)) {
					if w.template == "" {
						return fmt.Sprintf("%s of resource %q reads %s, written by %s", p, d.Resource, s, w), true
					}
				}
			}
		}
		return "", false
	},
}

// D5, observed O6: only the XR's status persists.
var ruleXRWriteOutsideStatus = rule{
	code:        "D5",
	diagnostics: []string{"C209"},
	observed:    []string{"O6"},
	title:       "a ToComposite patch writes outside the XR's status, which Pipeline mode does not persist",
	fix:         "Write the value under status (and read it from there), or compute it where it is needed.",
	match: func(c *ruleContext, d *Difference) (string, bool) {
		if d.Aspect != AspectXR || isStatus(d.Path) {
			return "", false
		}
		if w := c.xrWriters(d.Path); len(w) > 0 {
			return fmt.Sprintf("%s writes %s; only status reaches the cluster in Pipeline mode", w[0], d.Path), true
		}
		return "", false
	},
}

// D5 downstream, observed O6: a resource patch reads what D5 loses.
var ruleReadsUnpersisted = rule{
	code:        "D5",
	diagnostics: []string{"C209"},
	observed:    []string{"O6"},
	title:       "a patch reads an XR field that a ToComposite patch writes outside status, which Pipeline mode does not persist",
	fix:         "Write the value under status and read it from there.",
	match: func(c *ruleContext, d *Difference) (string, bool) {
		for _, p := range c.resourceWriters(d, Patch.ReadsXR) {
			for _, s := range p.Sources() {
				sp := cachedPath(s)
				if isStatus(sp) {
					continue
				}
				if w := c.xrWriters(sp); len(w) > 0 {
					return fmt.Sprintf("%s of resource %q reads %s, written by %s", p, d.Resource, s, w[0]), true
				}
			}
		}
		return "", false
	},
}

// D11: base metadata.name and namespace.
var ruleBaseName = rule{
	code:  "D11",
	title: "base metadata.name or metadata.namespace is ignored by legacy and kept by the pipeline",
	fix: "Remove metadata.name and metadata.namespace from the base (legacy ignored them), or set them " +
		"with a patch if a fixed name is really wanted.",
	match: func(c *ruleContext, d *Difference) (string, bool) {
		if d.Aspect != AspectResource || len(d.Path) != 2 || d.Path[0].Field != "metadata" {
			return "", false
		}
		f := d.Path[1].Field
		if f != "name" && f != "namespace" {
			return "", false
		}
		t, ok := c.PipelineModel.Template(d.Resource)
		if !ok || jsonobj.String(t.Base, "metadata", f) == "" {
			return "", false
		}
		return fmt.Sprintf("the base of resource %q sets metadata.%s: %q", d.Resource, f, jsonobj.String(t.Base, "metadata", f)), true
	},
}

// D7: legacy records a reference for every template.
var ruleSkippedRef = rule{
	code:  "D7",
	title: "legacy records a resource reference for every template, the pipeline only for desired resources",
	fix:   "None needed: the reference names an object legacy never created.",
	match: func(c *ruleContext, d *Difference) (string, bool) {
		refs := Path{{Field: "spec"}, {Field: "resourceRefs"}}
		// A v2 XR keeps them under spec.crossplane (verify --target v2).
		v2refs := Path{{Field: "spec"}, {Field: "crossplane"}, {Field: "resourceRefs"}}
		if d.Aspect != AspectXR || !d.Path.hasPrefix(refs) && !d.Path.hasPrefix(v2refs) {
			return "", false
		}
		if n := c.legacyUnrendered(); len(n) > 0 {
			return fmt.Sprintf("legacy keeps a reference for %s, which it did not render", quoteAll(n)), true
		}
		return "", false
	},
}

// D7: legacy keeps spec.resourceRefs in template order, the pipeline sorts
// them by apiVersion, kind and name, so a patch that reads
// spec.resourceRefs[i] reads another resource's reference.
var ruleResourceRefsIndex = rule{
	code:  "D7",
	class: ClassBreaking,
	title: "a patch reads spec.resourceRefs by position, and the pipeline orders the references differently",
	fix: "Do not read spec.resourceRefs[i]: give the referenced resource a ToCompositeFieldPath patch that " +
		"copies its metadata.name into the XR's status, and read that instead. The pipeline sorts " +
		"spec.resourceRefs by apiVersion, kind and name; legacy kept template order.",
	match: func(c *ruleContext, d *Difference) (string, bool) {
		if d.Aspect != AspectResource {
			return "", false
		}
		t, ok := c.PipelineModel.Template(d.Resource)
		if !ok {
			return "", false
		}
		for _, p := range t.Patches {
			for _, from := range append([]string{p.From}, p.Vars...) {
				if strings.HasPrefix(from, "spec.resourceRefs[") && overlaps(cachedPath(p.To), d.Path) {
					return fmt.Sprintf("patch %d of resource %q reads %s", p.Index, d.Resource, from), true
				}
			}
		}
		return "", false
	},
}

// D20: a readiness check that errors (a type mismatch) is a terminal
// compose error in legacy, a warning and "not ready" in the pipeline.
var ruleReadinessError = rule{
	code:  "D20",
	title: "a readiness check that fails with an error stops the legacy reconcile; the pipeline only warns",
	fix: "Make the check match the field's type (MatchString on strings, MatchInteger on integers, " +
		"MatchTrue/MatchFalse on booleans), or use NonEmpty.",
	match: func(c *ruleContext, _ *Difference) (string, bool) {
		l, p := c.legacySide(), c.pipeSide()
		if _, ok := errorAs[*pt.ReadinessCheckError](l.Err); !ok || p.Err != nil {
			return "", false
		}
		return fmt.Sprintf("legacy failed: %s; the pipeline reports a warning and the resource as not ready", l.Err), true
	},
}

// D18: a template whose base kind differs from the existing resource's.
var ruleKindChange = rule{
	code:  "D18",
	title: "a template's kind differs from the existing composed resource's",
	fix: "Do not change a template's kind in place: add a template with a new name for the new kind " +
		"and remove the old one, so the old resource is garbage-collected.",
	match: func(c *ruleContext, _ *Difference) (string, bool) {
		l, p := c.legacySide(), c.pipeSide()
		if _, ok := errorAs[*legacy.KindChangeError](l.Err); !ok || p.Err != nil {
			return "", false
		}
		return fmt.Sprintf("legacy refuses: %s; the pipeline reuses the name for the new kind and leaves the old object behind", l.Err), true
	},
}

// D17: an existing composed resource controlled by another object.
var ruleControlledElsewhere = rule{
	code:  "D17",
	title: "an existing composed resource is controlled by another object",
	fix: "Find out which object controls the resource (its ownerReferences) and untangle the two " +
		"XRs before migrating; neither engine should share a composed resource.",
	match: func(c *ruleContext, _ *Difference) (string, bool) {
		l, p := c.legacySide(), c.pipeSide()
		if _, ok := errorAs[*legacy.NotControlledError](l.Err); !ok || p.Err != nil {
			return "", false
		}
		return fmt.Sprintf("legacy fails: %s; the pipeline does not see the resource and composes a new one", l.Err), true
	},
}

// D37: label values read from the XR must be strings for
// function-environment-configs; native Crossplane printed any value.
var ruleLabelNotString = rule{
	code:  "D37",
	title: "an EnvironmentConfig label value read from the XR is not a string",
	fix: "Make the XR field a string (type: string in the XRD), or, if it must stay a number, select " +
		"the EnvironmentConfig by a Value label or a reference instead.",
	match: func(c *ruleContext, _ *Difference) (string, bool) {
		l, p := c.legacySide(), c.pipeSide()
		if l.Err != nil || p.Err == nil {
			return "", false
		}
		f, ok := c.ecFatal(p.Err)
		if !ok {
			return "", false
		}
		if lv, ok := environment.ParseLabelValueFatal(f.Message); !ok || !lv.NotString {
			return "", false
		}
		msg := p.Err.Error()
		return fmt.Sprintf("legacy turned the value into text; the pipeline failed: %s", msg), true
	},
}

// D38: sorting Multiple-mode selections: a config without the sort field is
// an error natively, the zero value in the function.
var ruleSortMissing = rule{
	code:  "D38",
	title: "EnvironmentConfigs are sorted differently when the sort field is missing or of mixed types",
	fix: "Give every selectable EnvironmentConfig the sortByFieldPath field, with one type " +
		"(all strings or all numbers).",
	match: func(c *ruleContext, _ *Difference) (string, bool) {
		l, p := c.legacySide(), c.pipeSide()
		if l.Err == nil || p.Err != nil {
			return "", false
		}
		// The sort failed, or (as natively) a label's field path is absent.
		se, ok := selectError(l.Err)
		if !ok || se.Reason != environment.SelectReasonSort && !notFound(se) {
			return "", false
		}
		msg := l.Err.Error()
		for _, cfg := range c.LegacyModel.EnvConfigs {
			if sel, ok := cfg["selector"].(map[string]any); ok && sel["mode"] == "Multiple" {
				return fmt.Sprintf("legacy failed to sort the selected EnvironmentConfigs: %s; the pipeline sorts a missing value as the zero value", msg), true
			}
		}
		return "", false
	},
}

// D42: environment data keys named apiVersion or kind: native overwrote
// them with the internal Environment GVK, the functions keep them.
var ruleEnvironmentGVKKeys = rule{
	code:  "D42",
	title: "EnvironmentConfig data has an apiVersion or kind key, which native Crossplane overwrote",
	fix: "Rename the data key (e.g. kind → flavour) in the EnvironmentConfigs and the patches that read it; " +
		"natively the key always read as the internal Environment apiVersion/kind.",
	match: func(c *ruleContext, d *Difference) (string, bool) {
		ws := c.resourceWriters(d, func(p Patch) bool {
			return p.Type == patchFromEnvironment && (p.From == "kind" || p.From == "apiVersion")
		})
		if len(ws) == 0 {
			return "", false
		}
		return fmt.Sprintf("%s reads the environment's %s, which native Crossplane set to the internal Environment's", ws[0], ws[0].From), true
	},
}

// D21, observed O5: MatchInteger never matches in PT.
var ruleMatchInteger = rule{
	code:        "D21",
	diagnostics: []string{"C210"},
	observed:    []string{"O5"},
	title:       "MatchInteger readiness checks never match in function-patch-and-transform",
	fix:         "Use MatchCondition, NonEmpty or MatchString (on a string field) instead of MatchInteger.",
	match: func(c *ruleContext, d *Difference) (string, bool) {
		if d.Aspect != AspectReadiness {
			return "", false
		}
		t, ok := c.PipelineModel.Template(d.Resource)
		if !ok {
			return "", false
		}
		for i, rc := range t.ReadinessChecks {
			if rc["type"] == "MatchInteger" {
				return fmt.Sprintf("readiness check %d of resource %q is MatchInteger on %v: numbers reach the function as float64", i, d.Resource, rc["fieldPath"]), true
			}
		}
		return "", false
	},
}

var (
	floatVerb     = regexp.MustCompile(`%!\w\(float64=|\d(\.\d+)?e[+-]\d+`)
	badFloatVerb  = regexp.MustCompile(`%!\w\(float64=([^)]*)\)`)
	floatExponent = regexp.MustCompile(`\d+(\.\d+)?e\+\d+`)
)

// asIntegers undoes what formatting an integer as a float64 did: the
// value of a bad verb, and exponent notation, back to integer digits. A
// value that then equals legacy's misprinted only because of D30.
func asIntegers(s string) string {
	s = badFloatVerb.ReplaceAllString(s, "$1")
	return floatExponent.ReplaceAllStringFunc(s, func(f string) string {
		v, err := strconv.ParseFloat(f, 64)
		if err != nil || v != math.Trunc(v) || math.Abs(v) >= 1<<63 {
			return f
		}
		return strconv.FormatInt(int64(v), 10)
	})
}

// D30, observed O5: integers formatted as float64.
var ruleFormatFloat = rule{
	code:        "D30",
	diagnostics: []string{"C211", "C212", "C323"},
	observed:    []string{"O5"},
	title:       "integers reach function-patch-and-transform as float64, so integer format verbs misprint",
	fix: "Convert the value to a string or int64 first (a convert transform before a string Format; " +
		"for Combine, patch the integer into a string field first), or use %v for values below 1e6.",
	match: func(c *ruleContext, d *Difference) (string, bool) {
		lv, lok := d.rawLegacy.string()
		pv, pok := d.rawPipeline.string()
		if !lok || !pok || !floatVerb.MatchString(pv) || floatVerb.MatchString(lv) || asIntegers(pv) != lv {
			return "", false
		}
		for _, p := range c.formatters(d) {
			return fmt.Sprintf("%s formats a number: legacy %q, pipeline %q", p, lv, pv), true
		}
		return "", false
	},
}

// C325: integer verbs fixed on request. Natively the value was a float64
// and printed as %!d(float64=N); the converter was asked to insert an
// int64 convert, so the pipeline prints N.
var ruleFormatFixed = rule{
	code:     "C325",
	intended: "C325",
	title:    "integer format verbs print the integer where native Crossplane printed %!d(float64=…)",
	fix:      "None: the converter fixed this legacy quirk because it was asked to (--fix-quirk C325).",
	match: func(c *ruleContext, d *Difference) (string, bool) {
		lv, lok := d.rawLegacy.string()
		pv, pok := d.rawPipeline.string()
		if !lok || !pok || !badFloatVerb.MatchString(lv) || floatVerb.MatchString(pv) || asIntegers(lv) != pv {
			return "", false
		}
		for _, p := range c.formatters(d) {
			return fmt.Sprintf("%s formats a float64: legacy %q, pipeline %q", p, lv, pv), true
		}
		return "", false
	},
}

// formatters returns the patches writing d's field with a string format:
// a Combine, or a string transform.
func (c *ruleContext) formatters(d *Difference) []string {
	var ps []Patch
	var owner string
	switch d.Aspect {
	case AspectResource:
		ps, owner = c.resourceWriters(d, nil), d.Resource
	case AspectXR:
		for _, w := range c.xrWriters(d.Path) {
			ps = append(ps, w.patch)
		}
	}
	var out []string
	for _, p := range ps {
		if p.Fmt != "" || len(p.Transform("string")) > 0 {
			if owner != "" {
				out = append(out, fmt.Sprintf("%s of resource %q", p, owner))
				continue
			}
			out = append(out, p.String())
		}
	}
	return out
}

// D31: Join with a multi-byte separator.
var ruleJoinSeparator = rule{
	code:        "D31",
	diagnostics: []string{"C208"},
	title:       "string Join with a separator longer than one byte leaves part of it at the end",
	fix:         "Use a one-byte separator, or trim the result with a Regexp transform after the Join.",
	match: func(c *ruleContext, d *Difference) (string, bool) {
		lv, lok := d.rawLegacy.string()
		pv, pok := d.rawPipeline.string()
		if !lok || !pok {
			return "", false
		}
		for _, p := range c.resourceWriters(d, nil) {
			for _, tr := range p.Transform("string") {
				st, _ := tr["string"].(map[string]any)
				j, _ := st["join"].(map[string]any)
				sep, _ := j["separator"].(string)
				if len(sep) > 1 && pv == lv+sep[:len(sep)-1] {
					return fmt.Sprintf("%s of resource %q joins with %q: legacy %q, pipeline %q", p, d.Resource, sep, lv, pv), true
				}
			}
		}
		return "", false
	},
}

// D32: integers beyond 2^53.
var ruleLargeInteger = rule{
	code:  "D32",
	title: "integers above 2^53 lose precision in function-patch-and-transform",
	fix:   "Keep such values as strings.",
	match: func(_ *ruleContext, d *Difference) (string, bool) {
		if d.rawLegacy == nil || d.rawPipeline == nil {
			return "", false
		}
		ln, lok := d.rawLegacy.V.(int64)
		if !lok || (ln < 1<<53 && ln > -(1<<53)) {
			return "", false
		}
		if _, ok := jsonobj.NumberText(d.rawPipeline.V); !ok {
			return "", false
		}
		return fmt.Sprintf("legacy %d is not exactly representable as a float64", ln), true
	},
}

// D19, observed O9: readiness is only evaluated on observed resources.
var ruleReadinessLag = rule{
	code:      "D19",
	observed:  []string{"O9"},
	title:     "the pipeline evaluates readiness on the observed resource, one reconcile later",
	fix:       "None needed: the pipeline reports the same readiness once the resource is observed.",
	transient: true,
	match: func(c *ruleContext, d *Difference) (string, bool) {
		switch d.Aspect {
		case AspectReadiness:
			if d.rawLegacy != nil && d.rawLegacy.V == true {
				return fmt.Sprintf("legacy checks readiness of resource %q on the object it just applied; the pipeline waits until it is observed (reconcile %d)", d.Resource, d.LastLoop+1), true
			}
		case AspectCondition:
			if d.Path.String() == render.ConditionTypeReady && conditionStatus(d.rawLegacy) == "True" {
				return fmt.Sprintf("the XR is ready in legacy from reconcile %d, in the pipeline from reconcile %d", d.FirstLoop, d.LastLoop+1), true
			}
		}
		return "", false
	},
}

func conditionStatus(v *Value) string {
	if v == nil {
		return ""
	}
	m, _ := v.V.(map[string]any)
	s, _ := m["status"].(string)
	return s
}

// D26, observed O9: connection details only from observed resources.
var ruleConnectionLag = rule{
	code:      "D26",
	observed:  []string{"O9"},
	title:     "the pipeline publishes connection details of a resource once it is observed, one reconcile later",
	fix:       "None needed: the details appear one reconcile later.",
	transient: true,
	match: func(_ *ruleContext, d *Difference) (string, bool) {
		if d.Aspect != AspectConnection || d.rawLegacy == nil || d.rawPipeline != nil {
			return "", false
		}
		return fmt.Sprintf("legacy publishes %s from the object it just applied; the pipeline from reconcile %d", d.Path, d.LastLoop+1), true
	},
}

// D8, observed O9: patches read the observed resource, not the applied one.
var ruleObservedLag = rule{
	code:      "D8",
	observed:  []string{"O9"},
	title:     "the pipeline reads composed resources as observed at the start of the reconcile, one reconcile later",
	fix:       "None needed: the pipeline reaches the same value once the change is observed.",
	transient: true,
	match: func(c *ruleContext, d *Difference) (string, bool) {
		if d.Aspect != AspectXR && d.Aspect != AspectResource && d.Aspect != AspectCondition {
			return "", false
		}
		// The pipeline catches up: a later reconcile shows the value legacy
		// had when the difference first appeared.
		for k := d.FirstLoop + 1; k <= c.final(); k++ {
			v, ok := c.pipelineValue(k, d)
			if ok == (d.rawLegacy != nil) && (!ok || jsonobj.Equal(v, d.rawLegacy.V)) {
				return fmt.Sprintf("the pipeline has the value legacy had in reconcile %d from reconcile %d", d.FirstLoop, k), true
			}
		}
		return "", false
	},
}

// pipelineValue returns the pipeline side's normalised value of d's field
// in reconcile k.
func (c *ruleContext) pipelineValue(k int, d *Difference) (any, bool) {
	// Compare legacy's value with the pipeline's at k by comparing the
	// pipeline at k with itself through a Compare against legacy at the
	// first loop: a difference with the same key means they differ.
	ds := c.Compare(Side{Outcome: c.Legacy[d.FirstLoop-1].Outcome, Err: c.Legacy[d.FirstLoop-1].Err}, c.Pipeline[k-1], CompareOptions{ResourceName: c.Names})
	for _, o := range ds {
		if o.key() == d.key() {
			if o.rawPipeline == nil {
				return nil, false
			}
			return o.rawPipeline.V, true
		}
	}
	// No difference: the pipeline at k equals legacy at the first loop.
	if d.rawLegacy == nil {
		return nil, false
	}
	return d.rawLegacy.V, true
}

func (v *Value) value() any {
	if v == nil {
		return nil
	}
	return v.V
}

func (v *Value) string() (string, bool) {
	if v == nil {
		return "", false
	}
	s, ok := v.V.(string)
	return s, ok
}

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}
