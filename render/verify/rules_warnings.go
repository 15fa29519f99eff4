package verify

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/crossplane/crossplane-runtime/v2/pkg/fieldpath"
)

// warningRules classify the differences the converter's warnings predict
// (C211, C215, C216, C217), and the ToComposite failures they lead to.
var warningRules = []rule{
	ruleUnparseablePath,
	ruleToCompositeFailure,
	ruleBaseStatus,
	ruleNumberPrinted,
}

// D46, C216: a patch path that cannot be parsed.
var ruleUnparseablePath = rule{
	code:        "D46",
	diagnostics: []string{"C216"},
	title:       "a patch path that cannot be parsed fails natively and in the function in different ways",
	fix: "Fix the path. Natively the patch skipped its resource, or failed the reconcile for a ToComposite " +
		"patch or one with a policy; the function fails the whole pipeline.",
	match: func(c *ruleContext, _ *Difference) (string, bool) {
		l, p := errText(c.legacySide().Err), errText(c.pipeSide().Err)
		if !strings.Contains(l, "cannot parse path") && !strings.Contains(p, "cannot parse path") {
			return "", false
		}
		for _, t := range c.v.pipeline.Templates {
			for _, pt := range t.Patches {
				for _, s := range append(append([]string{pt.From, pt.To}, pt.Vars...), pt.sources()...) {
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

// D46: a ToComposite patch that fails is terminal on both sides, but
// legacy has applied the composed resources before it ran.
var ruleToCompositeFailure = rule{
	code:        "D46",
	diagnostics: []string{"C317"},
	title:       "a failing ToComposite patch fails both reconciles, but legacy has applied the composed resources first",
	fix: "Make the ToComposite patch unable to fail for the values the resource can hold (a transform that " +
		"accepts them, a path that matches their shape). Natively the composed resources were applied before " +
		"the patch failed; the function's fatal result applies nothing.",
	match: func(c *ruleContext, _ *Difference) (string, bool) {
		// The pipeline runs ToComposite patches only on observed
		// resources, so it may fail a reconcile later than legacy.
		l, p := errText(c.legacy[c.final()-1].Err), errText(c.pipe[c.final()-1].Err)
		if !strings.Contains(l, "cannot render ToComposite patches") || !strings.Contains(p, "fatal result") || !strings.Contains(p, "cannot render composed resource") {
			return "", false
		}
		return fmt.Sprintf("legacy failed after applying the composed resources: %s; the pipeline failed before applying any: %s", l, p), true
	},
}

// D8, C217: a ToComposite patch reads a status field the base sets.
var ruleBaseStatus = rule{
	code:        "D8",
	diagnostics: []string{"C217"},
	title:       "a ToComposite patch reads a status field the base sets, which only the pipeline sees",
	fix: "Remove status from the base: the API server drops it, so natively the patch reads only what the " +
		"resource's controller writes.",
	match: func(c *ruleContext, d *Difference) (string, bool) {
		for _, t := range c.v.pipeline.Templates {
			for _, pt := range t.Patches {
				if !pt.writesXR() {
					continue
				}
				for _, s := range pt.sources() {
					if !isStatus(cachedPath(s)) || !has(t.Base, s) {
						continue
					}
					if d.Aspect == AspectXR && overlaps(cachedPath(pt.To), d.Path) ||
						strings.Contains(errText(c.pipeSide().Err), fmt.Sprintf("%q", t.Name)) {
						return fmt.Sprintf("%s of resource %q reads %s, which the base sets", pt, t.Name, s), true
					}
				}
			}
		}
		return "", false
	},
}

var (
	floatPrinted = regexp.MustCompile(`float64|\d(\.\d+)?[eE][+-]\d+|0[xX]1(\.[0-9a-fA-F]*)?[pP][+-]\d+|\d+p[+-]\d+`)
	intPrinted   = regexp.MustCompile(`int64`)

	// What a number becomes in a format, natively or in the function: a
	// bad verb or extra argument with its value, a type name, a quoted
	// rune, digits (decimal, hex, exponent or hex-float notation).
	printedNumber = regexp.MustCompile(`%!(\w|\(EXTRA )\(?(int64|float64)=[^)]*\)|u?int64|float64|'(\\.|[^'\\])+'|[0-9][0-9a-fA-FxXpP.+\-]*`)
)

// samePrinted reports whether two formatted strings differ only in how
// numbers are printed.
func samePrinted(a, b string) bool {
	return printedNumber.ReplaceAllString(a, "#") == printedNumber.ReplaceAllString(b, "#")
}

// D30, C211, C215: a format prints a number that is an int64 natively and
// a float64 in the function, with any verb: a number verb (%q, %x, %5.2f,
// %T, which the converter warns about), or %s and %v, which misprint or
// print large integers in exponent notation, and extra arguments.
var ruleNumberPrinted = rule{
	code:        "D30",
	diagnostics: []string{"C211", "C215"},
	observed:    []string{"§5"},
	title:       "a format prints an integer, which natively is an int64 and in function-patch-and-transform a float64",
	fix: "Give the format the type it expects: convert the value to int64 or string first (a convert " +
		"transform before a string Format; for Combine, patch the number into a string field first), " +
		"and use %s only on strings.",
	match: func(c *ruleContext, d *Difference) (string, bool) {
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

func orNone(s string) string {
	if s == "" {
		return "no error"
	}
	return s
}
