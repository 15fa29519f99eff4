package gaps

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/crossplane/crossplane-runtime/v2/pkg/fieldpath"
	utilerrors "k8s.io/apimachinery/pkg/util/errors"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/xpmigrate/xpmigrate/internal/jsonobj"
	"github.com/xpmigrate/xpmigrate/internal/xp"
	pt "github.com/xpmigrate/xpmigrate/patchandtransform"
	"github.com/xpmigrate/xpmigrate/render/legacy"
)

// warningRules classify the differences the converter's warnings predict
// (C211, C215, C216, C217, C218, C219), and the differences of the engines'
// models that the converter cannot predict.
var warningRules = []rule{
	ruleUnparseablePath,
	ruleWildcardMerge,
	ruleXRListWrite,
	ruleToCompositeFailure,
	ruleObservedNotApplied,
	ruleNumberPrinted,
	ruleNumberAsText,
	ruleNumberConvert,
	ruleRepairedTransform,
}

// D46, C216: a patch path that cannot be parsed.
var ruleUnparseablePath = rule{
	code:        "D46",
	noSwitch:    "an unparseable path fails each engine at its own step; no switch makes the function fail where legacy does",
	diagnostics: []string{"C216"},
	title:       "a patch path that cannot be parsed fails natively and in the function in different ways",
	fix: "Fix the path. Natively the patch skipped its resource, or failed the reconcile for a ToComposite " +
		"patch or one with a policy; the function fails the whole pipeline.",
	match: func(c *ruleContext, _ *Difference) (string, bool) {
		_, legacyFailed := errorAs[*pt.PathError](c.legacySide().Err)
		if !legacyFailed && !c.pipelinePathFailed(c.pipeSide().Err) {
			return "", false
		}
		l, p := errText(c.legacySide().Err), errText(c.pipeSide().Err)
		for _, t := range c.PipelineModel.Templates {
			for _, pt := range t.Patches {
				for _, s := range append([]string{pt.From, pt.To}, pt.Vars...) {
					if s == "" {
						continue
					}
					if _, err := fieldpath.Parse(s); err != nil {
						return fmt.Sprintf("%s of resource %q has the path %q (%v); legacy: %s; pipeline: %s", pt, t.Name, s, err, orNone(l), orNone(p)), true
					}
				}
			}
		}
		return "", false
	},
}

// pipelinePathFailed reports whether the pipeline failed on a patch with a
// path that does not parse.
func (c *ruleContext) pipelinePathFailed(err error) bool {
	f, ok := c.ptFatal(err)
	if !ok {
		return false
	}
	ps := c.PipelineModel.EnvPatches
	if f.Resource != "" {
		t, ok := c.PipelineModel.Template(f.Resource)
		if !ok {
			return false
		}
		ps = t.Patches
	}
	for _, q := range ps {
		if q.Index != f.Index {
			continue
		}
		for _, s := range append([]string{q.From, q.To}, q.Vars...) {
			if _, err := fieldpath.Parse(s); s != "" && err != nil {
				return true
			}
		}
	}
	return false
}

// D15, C218: legacy's apply-time merge of a patch with a policy reads a
// wildcard toFieldPath as a key named "*", and a bracketed key of a list
// fails it as well.
var ruleWildcardMerge = rule{
	code:        "D15",
	diagnostics: []string{"C218"},
	title:       "legacy's apply-time merge of a patch with a policy reads a key of a list ([*], [-1]) in its toFieldPath, and fails",
	fix: "Drop the policy from the patch, or write each element's path instead of [*]. The function does not " +
		"merge at apply time.",
	match: func(c *ruleContext, _ *Difference) (string, bool) {
		// The pipeline may fail too, for the same patch: [*] expands over
		// nothing in its desired XR (C217).
		if _, ok := errorAs[*legacy.ApplyError](c.legacySide().Err); !ok {
			return "", false
		}
		l, p := errText(c.legacySide().Err), errText(c.pipeSide().Err)
		for _, t := range c.PipelineModel.Templates {
			for _, q := range t.Patches {
				if strings.Contains(q.To, "[*]") || touches(t.Base, q.To) && !Has(t.Base, q.To) || pt.IndexLikeKey(q.To) != "" {
					return fmt.Sprintf("%s of resource %q writes %s; legacy failed: %s; pipeline: %s", q, t.Name, q.To, l, orNone(p)), true
				}
			}
		}
		return "", false
	},
}

// D6, C217: a ToComposite patch indexes a list of the XR or expands a
// wildcard: legacy writes into the XR as it is, the pipeline into the
// desired XR, which holds only what the patches write.
var ruleXRListWrite = rule{
	code:        "D6",
	diagnostics: []string{"C217"},
	title:       "a ToComposite patch writes an item of an XR list: legacy into the XR as it is, the pipeline into an empty desired XR",
	fix: "Write a whole field instead of an item (status.zone rather than status.zones[0]); the pipeline " +
		"replaces the list whole and expands [*] over nothing.",
	match: func(c *ruleContext, d *Difference) (string, bool) {
		listWriters := func() []ownedPatch {
			var out []ownedPatch
			for _, t := range c.PipelineModel.Templates {
				for _, p := range t.Patches {
					if p.WritesXR() && pt.ListPath(p.To) {
						out = append(out, ownedPatch{template: t.Name, patch: p})
					}
				}
			}
			return out
		}
		if d.Aspect == AspectXR {
			for _, w := range listWriters() {
				if prefix := listPrefix(w.patch.To); prefix != "" && overlaps(cachedPath(prefix), d.Path) {
					return fmt.Sprintf("%s writes %s; the XR held %s at %s before", w, w.patch.To, showJSON(valueOf(c.XR, prefix)), prefix), true
				}
			}
		}
		lerr, perr := c.Legacy[c.final()-1].Err, c.Pipeline[c.final()-1].Err
		te, toComposite := errorAs[*legacy.ToCompositeError](lerr)
		toComposite = toComposite && perr == nil
		pf, expand := c.ptFatal(perr)
		expand = expand && lerr == nil && pf.Expand()
		if !toComposite && !expand {
			return "", false
		}
		l, p := errText(lerr), errText(perr)
		for _, w := range listWriters() {
			if toComposite && te.Resource == w.template || expand && pf.Resource == w.template {
				return fmt.Sprintf("%s writes %s into the XR; legacy: %s; pipeline: %s", w, w.patch.To, orNone(l), orNone(p)), true
			}
		}
		return "", false
	},
}

// listPrefix returns the path of the list a path indexes or expands: the
// segments before its first index, wildcard or index-like key; "" when it
// has none.
func listPrefix(s string) string {
	segs, err := fieldpath.Parse(s)
	if err != nil {
		return ""
	}
	for k, sg := range segs {
		_, numeric := strconv.Atoi(sg.Field)
		if sg.Type == fieldpath.SegmentIndex || sg.Field == "*" || (sg.Type == fieldpath.SegmentField && numeric == nil) {
			if k == 0 {
				return ""
			}
			return segs[:k].String()
		}
	}
	return ""
}

func valueOf(o map[string]any, path string) any {
	v, err := fieldpath.Pave(o).GetValue(path)
	if err != nil {
		return nil
	}
	return v
}

func showJSON(v any) string {
	b, err := jsonMarshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// D46: a ToComposite patch that fails is terminal on both sides, but
// legacy has applied the composed resources before it ran.
var ruleToCompositeFailure = rule{
	code:     "D46",
	noSwitch: "the composer applies nothing after a fatal result; no switch applies the resources first, as legacy did",
	title:    "a failing ToComposite patch fails both reconciles, but legacy has applied the composed resources first",
	fix: "Make the ToComposite patch unable to fail for the values the resource can hold (a transform that " +
		"accepts them, a path that matches their shape). Natively the composed resources were applied before " +
		"the patch failed; the function's fatal result applies nothing.",
	match: func(c *ruleContext, _ *Difference) (string, bool) {
		// The pipeline runs ToComposite patches only on observed
		// resources, so it may fail a reconcile later than legacy.
		lerr, perr := c.Legacy[c.final()-1].Err, c.Pipeline[c.final()-1].Err
		if _, ok := errorAs[*legacy.ToCompositeError](lerr); !ok {
			return "", false
		}
		if f, ok := c.ptFatal(perr); !ok || f.Resource == "" {
			return "", false
		}
		l, p := errText(lerr), errText(perr)
		return fmt.Sprintf("legacy failed after applying the composed resources: %s; the pipeline failed before applying any: %s", l, p), true
	},
}

// D8, observed O9: a ToComposite patch fails in the pipeline, which reads
// the observed resource, and not in legacy, which reads the object it has
// just applied, because the value it reads differs between the two.
var ruleObservedNotApplied = rule{
	// Not a lag: the pipeline fails on every reconcile that reads it.
	class:    ClassBreaking,
	code:     "D8",
	observed: []string{"O9"},
	title:    "a ToComposite patch fails on the observed resource the pipeline reads, not on the object legacy has just applied",
	fix: "Make the patch accept the values the resource can hold before and after the apply, or read a field " +
		"the composition does not set.",
	match: func(c *ruleContext, _ *Difference) (string, bool) {
		l, perr := c.Legacy[c.final()-1], c.Pipeline[c.final()-1].Err
		f, ok := c.ptFatal(perr)
		if l.Err != nil || l.Outcome == nil || !ok || f.Resource == "" {
			return "", false
		}
		p := errText(perr)
		for _, t := range c.PipelineModel.Templates {
			if f.Resource != t.Name {
				continue
			}
			applied, observed := c.legacyApplied(t.Name), c.observed(t.Name)
			for _, pt := range t.Patches {
				if !pt.WritesXR() || string(f.Type) != pt.Type || f.Index != pt.Index {
					continue
				}
				for _, s := range pt.Sources() {
					av, aerr := fieldpath.Pave(applied).GetValue(s)
					ov, oerr := fieldpath.Pave(observed).GetValue(s)
					if (aerr == nil) != (oerr == nil) || !jsonobj.Equal(av, ov) {
						return fmt.Sprintf("%s of resource %q reads %s: legacy read the applied object, the pipeline the observed one, and failed: %s", pt, t.Name, s, p), true
					}
				}
			}
		}
		return "", false
	},
}

// touches reports whether o has a value at path, or something on the way
// to it that reading path fails on (a list where a key is read).
func touches(o map[string]any, path string) bool {
	if o == nil || path == "" {
		return false
	}
	_, err := fieldpath.Pave(o).GetValue(path)
	return !fieldpath.IsNotFound(err)
}

// legacyApplied returns the legacy side's applied object of a resource in
// the current reconcile, or nil.
func (c *ruleContext) legacyApplied(name string) map[string]any {
	out := c.legacySide().Outcome
	if out == nil {
		return nil
	}
	for _, cd := range out.Composed {
		if ResourceName(cd, c.Names) == name {
			return cd.Applied
		}
	}
	return nil
}

// observed returns the observed composed resource of a composition
// resource name, or nil.
func (c *ruleContext) observed(name string) map[string]any {
	for _, o := range c.Observed {
		if jsonobj.String(o, "metadata", "annotations", xp.AnnotationCompositionResourceName) == name {
			return o
		}
	}
	return nil
}

var (
	floatPrinted = regexp.MustCompile(`float64|\d(\.\d+)?[eE][+-]\d+|0[xX][01](\.[0-9a-fA-F]*)?[pP][+-]\d+|\d+p[+-]\d+`)
	intPrinted   = regexp.MustCompile(`int64`)

	// What a number becomes in a format, natively or in the function: a
	// bad verb or extra argument with its value, a type name, a quoted
	// rune, digits (decimal, hex, exponent or hex-float notation) with
	// the padding a width adds.
	printedNumber = regexp.MustCompile(`%!(\w|\(EXTRA )\(?(int64|float64)=[^)]*\)|u?int64|float64|'(\\.|[^'\\])+'|[0-9][0-9a-fA-FxXpP.+\-]*`)
)

// numberVerb matches a format verb that prints an int64 and a float64
// differently (the converter's C211 and C215).
var numberVerb = regexp.MustCompile(`%[-+# 0-9.\[\]*]*[dxXobcOUqeEfFgGT]`)

// numberFormat reports whether a patch formats with a number verb: its
// Combine format, or a string Format transform.
func numberFormat(p Patch) bool {
	if numberVerb.MatchString(strings.ReplaceAll(p.Fmt, "%%", "")) {
		return true
	}
	for _, t := range p.Transform("string") {
		st, _ := t["string"].(map[string]any)
		if f, _ := st["fmt"].(string); numberVerb.MatchString(strings.ReplaceAll(f, "%%", "")) {
			return true
		}
	}
	return false
}

// samePrinted reports whether two formatted strings differ only in how
// numbers are printed: with every printed number replaced by a mark, and
// the padding a width adds and minus signs dropped (natively a bad verb
// shows the sign inside, the function prints it before the digits), they
// are equal.
func samePrinted(a, b string) bool {
	norm := func(s string) string {
		return strings.NewReplacer(" ", "", "-", "").Replace(printedNumber.ReplaceAllString(s, "#"))
	}
	return norm(a) == norm(b)
}

// D30, C211, C215: a format prints a number that is an int64 natively and
// a float64 in the function, with any verb: a number verb (%q, %x, %5.2f,
// %T, which the converter warns about), or %s and %v, which misprint or
// print large integers in exponent notation, and extra arguments.
var ruleNumberPrinted = rule{
	code:        "D30",
	diagnostics: []string{"C211", "C215"},
	observed:    []string{"O5"},
	title:       "a format prints an integer, which natively is an int64 and in function-patch-and-transform a float64",
	fix: "Give the format the type it expects: convert the value to int64 or string first (a convert " +
		"transform before a string Format; for Combine, patch the number into a string field first), " +
		"and use %s only on strings.",
	match: func(c *ruleContext, d *Difference) (string, bool) {
		// A later transform fails on what the format printed: a map or
		// match key the float64's text does not name.
		if f, ok := c.ptFatal(c.Pipeline[c.final()-1].Err); c.Legacy[c.final()-1].Err == nil && ok && f.Resource != "" {
			p := errText(c.Pipeline[c.final()-1].Err)
			for _, t := range c.PipelineModel.Templates {
				for _, pt := range t.Patches {
					formatter := pt.Fmt != "" || len(pt.Transform("string")) > 0
					if !formatter || f.Resource != t.Name || string(f.Type) != pt.Type || f.Index != pt.Index {
						continue
					}
					// The patch's error shows the float64's text, or the
					// patch prints an integer with a number verb.
					integer := false
					for _, s := range pt.Sources() {
						if v, ok := c.legacySource(ownedPatch{template: t.Name, patch: pt}, s); ok && hasInteger(v) {
							integer = true
						}
					}
					if floatPrinted.MatchString(f.Cause) || integer && numberFormat(pt) {
						return fmt.Sprintf("%s of resource %q formats a number, and a later transform fails on the float64's text: %s", pt, t.Name, p), true
					}
				}
			}
		}
		lv, lok := d.rawLegacy.string()
		pv, pok := d.rawPipeline.string()
		if !lok || !pok || lv == pv || !(floatPrinted.MatchString(pv) || intPrinted.MatchString(lv)) || !samePrinted(lv, pv) {
			return "", false
		}
		for _, p := range c.formatters(d) {
			return fmt.Sprintf("%s formats a number: legacy %q, pipeline %q", p, lv, pv), true
		}
		return "", false
	},
}

// D30, C220: a number turned into text by a string transform that is not
// a Format (Regexp, Convert), or printed by a format whose text a later
// transform re-encodes (C220: %x of what %s printed, a hash of it) or
// printed as a rune (%c): the int64's digits natively, the float64's in
// the function. The text cannot be compared through a hash, hex digits or
// a regexp group, so the rule reads the patch's source instead.
var ruleNumberAsText = rule{
	code:        "D30",
	diagnostics: []string{"C211", "C212", "C215", "C220"},
	observed:    []string{"O5"},
	title:       "a string transform turns an integer into text, which natively is an int64 and in function-patch-and-transform a float64",
	fix:         "Convert the value to int64 or string first (a convert transform before the string transform).",
	match: func(c *ruleContext, d *Difference) (string, bool) {
		lv, lok := d.rawLegacy.string()
		pv, pok := d.rawPipeline.string()
		if !lok || !pok || lv == pv {
			return "", false
		}
		for _, w := range c.writers(d) {
			if !textTransform(w.patch) && !reencodesPrinted(w.patch) {
				continue
			}
			for _, s := range w.patch.Sources() {
				if v, ok := c.legacySource(w, s); ok {
					if hasInteger(v) {
						return fmt.Sprintf("%s reads %s, which holds an integer, and turns it into text: legacy %q, pipeline %q", w, s, lv, pv), true
					}
				}
			}
		}
		return "", false
	},
}

// writers returns the patches writing d's field, with their template.
func (c *ruleContext) writers(d *Difference) []ownedPatch {
	switch d.Aspect {
	case AspectResource:
		var out []ownedPatch
		for _, p := range c.resourceWriters(d, nil) {
			out = append(out, ownedPatch{template: d.Resource, patch: p})
		}
		return out
	case AspectXR:
		return c.xrWriters(d.Path)
	}
	return nil
}

// textTransform reports whether a patch has a string transform whose
// output hides how a number was printed: a Regexp or a Convert.
func textTransform(p Patch) bool {
	for _, t := range p.Transform("string") {
		st, _ := t["string"].(map[string]any)
		if typ, _ := st["type"].(string); typ == "Regexp" || typ == "Convert" {
			return true
		}
	}
	return false
}

var (
	// reencodingVerb matches a format verb that does not show a string
	// argument as it is: %x and %X hex-encode it, a precision truncates
	// it.
	reencodingVerb = regexp.MustCompile(`%[-+# 0-9\[\]*]*(\.[0-9*]*[-+# 0-9\[\]*]*[a-zA-Z]|[xX])`)

	// runeVerb matches %c, which prints an integer as the rune it codes.
	runeVerb = regexp.MustCompile(`%[-+# 0-9.\[\]*]*c`)
)

// reencodesPrinted reports whether a patch prints its value with a format
// (a Combine's fmt, a string Format) whose text a later transform
// re-encodes (a Format with %x or a precision, a string Convert or Regexp,
// a map, match or convert), or prints it with %c: where the value holds an
// integer, what the format printed differently natively and in the
// function can no longer be recognised in the output (C220).
func reencodesPrinted(p Patch) bool {
	verbs := func(f string) string { return strings.ReplaceAll(f, "%%", "") }
	formatted := p.Fmt != ""
	if runeVerb.MatchString(verbs(p.Fmt)) {
		return true
	}
	for _, t := range p.Transforms {
		typ, _ := t["type"].(string)
		switch typ {
		case "string":
			st, _ := t["string"].(map[string]any)
			switch styp, _ := st["type"].(string); styp {
			case "Format":
				f, _ := st["fmt"].(string)
				if runeVerb.MatchString(verbs(f)) || formatted && reencodingVerb.MatchString(verbs(f)) {
					return true
				}
				formatted = true
			case "Convert", "Regexp":
				if formatted {
					return true
				}
			}
		case "map", "match", "convert":
			if formatted {
				return true
			}
		}
	}
	return false
}

// legacySource returns the value a patch read on the legacy side: from
// the XR for a patch that reads it, from the applied composed resource for
// a ToComposite patch.
func (c *ruleContext) legacySource(w ownedPatch, s string) (any, bool) {
	var src map[string]any
	switch {
	case w.patch.ReadsXR():
		src = c.XR
		if c.loop > 1 {
			if out := c.Legacy[c.loop-2].Outcome; out != nil && out.EffectiveXR != nil {
				src = out.EffectiveXR
			}
		}
	case w.patch.WritesXR() && w.template != "":
		src = c.legacyApplied(w.template)
	}
	if src == nil {
		return nil, false
	}
	v, err := fieldpath.Pave(src).GetValue(s)
	return v, err == nil
}

// hasInteger reports whether v is or holds an int64.
func hasInteger(v any) bool {
	switch t := v.(type) {
	case int64:
		return true
	case []any:
		for _, e := range t {
			if hasInteger(e) {
				return true
			}
		}
	case map[string]any:
		for _, e := range t {
			if hasInteger(e) {
				return true
			}
		}
	}
	return false
}

// D30, C219: a convert to a number type with a format.
var ruleNumberConvert = rule{
	code:        "D30",
	diagnostics: []string{"C219"},
	observed:    []string{"O5"},
	title:       "a convert to a number type with a format: natively an integer is an int64, in the function a float64",
	fix:         "Drop the format (format none) for number inputs: it applies only to conversions from strings.",
	match: func(c *ruleContext, _ *Difference) (string, bool) {
		// Natively a failing patch of a composed resource is a warning
		// event; in the function a fatal result.
		// The legacy error, the pipeline's fatal result, then the legacy
		// events, with the failure each carries.
		type failure struct {
			msg string
			err *pt.ConvertFormatError
		}
		var fs []failure
		if err := c.legacySide().Err; err != nil {
			e, _ := errorAs[*pt.ConvertFormatError](err)
			fs = append(fs, failure{msg: err.Error(), err: e})
		}
		if f, ok := fatalResult(c.pipeSide().Err); ok {
			e, _ := pt.FindConvertFormatError(f.Message)
			fs = append(fs, failure{msg: c.pipeSide().Err.Error(), err: e})
		}
		if out := c.legacySide().Outcome; out != nil {
			for _, ev := range out.Events {
				e, _ := pt.FindConvertFormatError(ev.Message)
				fs = append(fs, failure{msg: ev.Message, err: e})
			}
		}
		for _, f := range fs {
			if f.err == nil || f.err.Format != string(pt.ConvertTransformFormatQuantity) && f.err.Format != string(pt.ConvertTransformFormatJSON) {
				continue
			}
			if f.err.From == "int64" && f.err.To == "float64" || f.err.From == "float64" && f.err.To == "int64" {
				return fmt.Sprintf("the number is an int64 on one side and a float64 on the other, and only equal types ignore the format: %s", f.msg), true
			}
		}
		return "", false
	},
}

// D4, C221: native Crossplane refuses a legacy Composition with a
// transform without its type (or whose default sub-type lacks its field),
// which the converter repairs (C313, C314): legacy composes nothing, the
// pipeline renders.
var ruleRepairedTransform = rule{
	code:        "D4",
	diagnostics: []string{"C221", "C313", "C314"},
	title:       "a transform without its type: native Crossplane refuses the Composition, the converter repaired it",
	fix:         "Set the transform's type in the legacy Composition, or accept the change: the repaired transform does what its configuration says.",
	match: func(c *ruleContext, _ *Difference) (string, bool) {
		// The native validation's field errors, one of them at an
		// untyped transform.
		agg, ok := errorAs[utilerrors.Aggregate](c.Legacy[c.final()-1].Err)
		if !ok {
			return "", false
		}
		l := errText(c.Legacy[c.final()-1].Err)
		at := map[string]bool{}
		for _, e := range agg.Errors() {
			if fe, ok := errorAs[*field.Error](e); ok {
				at[fe.Field] = true
			}
		}
		for _, t := range c.LegacyModel.Templates {
			for _, p := range t.Patches {
				for k, tr := range p.Transforms {
					tp := fmt.Sprintf("spec.resources[%d].patches[%d].transforms[%d]", t.Index, p.Index, k)
					refused := at[tp+".type"] || at[tp+".math.multiply"] || at[tp+".string.fmt"]
					if what := untyped(tr); what != "" && refused {
						return fmt.Sprintf("%s of resource %q has transform %d %s; legacy: %s", p, t.Name, k, what, l), true
					}
				}
			}
		}
		return "", false
	},
}

// untyped says what a legacy transform lacks that the converter repairs
// (C313, C314): its type, or the sub-type of a math or string block whose
// default (Multiply, Format) lacks its field; "" when it lacks nothing.
func untyped(tr map[string]any) string {
	typ, _ := tr["type"].(string)
	if typ == "" {
		return "without a type"
	}
	block, _ := tr[typ].(map[string]any)
	if block == nil {
		return ""
	}
	if st, _ := block["type"].(string); st != "" {
		return ""
	}
	switch {
	case typ == "math" && block["multiply"] == nil:
		return "without a math type (natively Multiply, without multiply)"
	case typ == "string" && block["fmt"] == nil:
		return "without a string type (natively Format, without fmt)"
	}
	return ""
}

func orNone(s string) string {
	if s == "" {
		return "no error"
	}
	return s
}
