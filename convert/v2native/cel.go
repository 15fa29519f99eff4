package v2native

import (
	"regexp"
	"strings"

	"github.com/xpmigrate/xpmigrate/convert/xrpath"
)

// A CELRewrite is one rewriting of legacy XR machinery in CEL, given the
// path from self to the XR's spec ("." + "spec" at the schema root, ""
// at spec).
type CELRewrite struct {
	Re   *regexp.Regexp
	Repl string
}

// CELRewrites returns the rewrites of the machinery fields for the rules
// of a schema node whose self reaches the XR's spec through spec (".spec"
// or "").
func CELRewrites(spec string) []CELRewrite {
	fields := strings.Join(xrpath.MachineryFields, "|")
	q := regexp.QuoteMeta(spec)
	return []CELRewrite{
		// has(self.spec.compositionRef): spec.crossplane may be absent.
		{Re: regexp.MustCompile(`has\(\s*(self|oldSelf)` + q + `\.(` + fields + `)\s*\)`), Repl: "(has(${1}" + spec + ".crossplane) && has(${1}" + spec + ".crossplane.${2}))"},
		{Re: regexp.MustCompile(`\b(self|oldSelf)` + q + `\.(` + fields + `)\b`), Repl: "${1}" + spec + ".crossplane.${2}"},
	}
}

// Unguarded returns a machinery field that CEL expression e reads under
// spec.crossplane without testing it with has() anywhere in e, or "". (A
// test anywhere counts as a guard: simple, and what rules usually do.)
func Unguarded(e, spec string) string {
	q := regexp.QuoteMeta(spec)
	fields := strings.Join(xrpath.MachineryFields, "|")
	guard := regexp.MustCompile(`has\(\s*(?:self|oldSelf)` + q + `\.crossplane\.(` + fields + `)\s*\)`)
	read := regexp.MustCompile(`\b(?:self|oldSelf)` + q + `\.crossplane\.(` + fields + `)\b`)
	guarded := map[string]bool{}
	for _, m := range guard.FindAllStringSubmatch(e, -1) {
		guarded[m[1]] = true
	}
	for _, m := range read.FindAllStringSubmatch(e, -1) {
		if !guarded[m[1]] {
			return m[1]
		}
	}
	return ""
}
