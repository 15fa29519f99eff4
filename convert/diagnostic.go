package convert

import (
	"fmt"
	"slices"
	"strings"
)

// A Severity says what a finding means for the document it concerns.
type Severity string

// Severities, from the most to the least serious.
const (
	// SeverityError: the document is not converted, and the run fails.
	SeverityError Severity = "error"

	// SeverityWarning: the document is converted and the finding reported.
	// Options.Strict turns warnings into errors.
	SeverityWarning Severity = "warning"

	// SeverityInfo: reported only.
	SeverityInfo Severity = "info"
)

// A Code identifies a kind of finding. Codes are stable: C1xx are errors,
// C2xx warnings and C3xx information (conversion spec §14).
type Code string

// A CodeInfo describes one code of the registry.
type CodeInfo struct {
	Code     Code
	Severity Severity
	Summary  string
}

// Registry lists every code, in code order.
var Registry = []CodeInfo{
	{"C101", SeverityError, "unsupported Composition apiVersion"},
	{"C102", SeverityError, "unparseable YAML or template"},
	{"C103", SeverityError, "unknown mode"},
	{"C104", SeverityError, "Resources mode with a pipeline"},
	{"C106", SeverityError, "invalid function name"},
	{"C107", SeverityError, "no spec, or resources not a list"},
	{"C108", SeverityError, "duplicate resource name"},
	{"C109", SeverityError, "mix of named and unnamed resources"},
	{"C110", SeverityError, "template without base"},
	{"C111", SeverityError, "invalid environment source"},
	{"C112", SeverityError, "invalid environment patch type"},
	{"C113", SeverityError, "cannot move env patches (not exactly one PT step)"},
	{"C114", SeverityError, "PatchSet inside a patchSet"},
	{"C115", SeverityError, "unknown patch type"},
	{"C116", SeverityError, "missing required patch field"},
	{"C117", SeverityError, "unknown patchSetName"},
	{"C118", SeverityError, "bad fromFieldPath policy"},
	{"C119", SeverityError, "transform type missing and not inferable"},
	{"C120", SeverityError, "transform block missing"},
	{"C121", SeverityError, "ambiguous transform sub-type"},
	{"C122", SeverityError, "trim without type"},
	{"C123", SeverityError, "connection detail without a source"},
	{"C124", SeverityError, "connection detail without a name"},
	{"C125", SeverityError, "unknown connection detail type"},
	{"C126", SeverityError, "MatchCondition without matchCondition"},
	{"C127", SeverityError, "invalid readiness check"},
	{"C128", SeverityError, "match pattern without result"},
	{"C190", SeverityError, "output fails validation"},
	{"C191", SeverityError, "v2 schema violation"},
	{"C192", SeverityError, "round-trip mismatch"},

	{"C201", SeverityWarning, "leftover resources/patchSets in Pipeline mode removed"},
	{"C202", SeverityWarning, "ESS store config removed (v2)"},
	{"C203", SeverityWarning, "unknown field"},
	{"C204", SeverityWarning, "generated resource names: live migration hazard"},
	{"C205", SeverityWarning, "resolve semantics change with selectors"},
	{"C206", SeverityWarning, "environment dropped (flag assumed off)"},
	{"C207", SeverityWarning, "ignored env patches dropped (Pipeline-mode input)"},
	{"C208", SeverityWarning, "Join separator longer than one byte"},
	{"C209", SeverityWarning, "XR write outside status"},
	{"C210", SeverityWarning, "MatchInteger readiness cannot match under PT"},
	{"C211", SeverityWarning, "combine fmt with number verbs prints float64"},
	{"C212", SeverityWarning, "integer verb on a value that may be an integer prints float64"},
	{"C213", SeverityWarning, "environment patch writes XR status that native discarded (Q-4)"},
	{"C214", SeverityWarning, "converted what the API server kept"},
	{"C215", SeverityWarning, "string Format with number verbs prints float64"},
	{"C216", SeverityWarning, "patch field path cannot be parsed"},
	{"C217", SeverityWarning, "ToComposite toFieldPath indexes a list of the XR"},
	{"C218", SeverityWarning, "policy on a toFieldPath the apply-time merge fails on"},
	{"C219", SeverityWarning, "convert to a number type with a format"},

	{"C301", SeverityInfo, "CompositionRevision seen"},
	{"C302", SeverityInfo, "server fields stripped"},
	{"C303", SeverityInfo, "default ESS ref dropped"},
	{"C304", SeverityInfo, "step name suffixed"},
	{"C305", SeverityInfo, "function name derived from package"},
	{"C306", SeverityInfo, "alias expanded"},
	{"C307", SeverityInfo, "non-DNS template name (v2)"},
	{"C308", SeverityInfo, "lone env policy dropped"},
	{"C309", SeverityInfo, "resolve pinning gone (refs only)"},
	{"C310", SeverityInfo, "confirm env flag"},
	{"C311", SeverityInfo, "environmentConfigRefs unused"},
	{"C312", SeverityInfo, "enum case fixed"},
	{"C313", SeverityInfo, "transform type inferred"},
	{"C314", SeverityInfo, "clamp type inferred"},
	{"C315", SeverityInfo, "Required policy semantics"},
	{"C316", SeverityInfo, "extra connection-detail fields"},
	{"C317", SeverityInfo, "fatal-on-error semantics"},
	{"C318", SeverityInfo, "SSA ownership"},
	{"C319", SeverityInfo, "pinned revisions"},
	{"C320", SeverityInfo, "selector no-match semantics"},
	{"C321", SeverityInfo, "claim-machinery paths (v2 style)"},
	{"C322", SeverityInfo, "connection details (v2 style)"},
	{"C323", SeverityInfo, "int64 convert inserted before integer format of a proven integer (K1)"},
	{"C324", SeverityInfo, "EC pinned to v0.6.0 for Crossplane 1.x (K2)"},
	{"C325", SeverityInfo, "quirk fixed on request: integer verb prints the integer"},
	{"C480", SeverityInfo, "verify v2: composed resources in the XR's namespace"},
	{"C481", SeverityInfo, "verify v2: no claim labels on composed resources"},
	{"C482", SeverityInfo, "verify v2: composed resources owned by the v2 XR"},
	{"C483", SeverityInfo, "verify v2: XR connection details in the composed connection Secret"},
	{"C484", SeverityInfo, "verify v2: resource references under spec.crossplane.resourceRefs"},
	{"C485", SeverityInfo, "verify v2: the v2 XR twin of the claim or legacy XR"},
}

// Lookup returns the registry entry of code.
func Lookup(code Code) (CodeInfo, bool) {
	i, ok := slices.BinarySearchFunc(Registry, code, func(c CodeInfo, code Code) int {
		return strings.Compare(string(c.Code), string(code))
	})
	if !ok {
		return CodeInfo{}, false
	}
	return Registry[i], true
}

// A Diagnostic is one finding about one document.
type Diagnostic struct {
	Code     Code     `json:"code"`
	Severity Severity `json:"severity"`

	// File is Options.Source; Line is the 1-based line in it (0 when the
	// finding concerns the whole run).
	File string `json:"file,omitempty"`
	Line int    `json:"line,omitempty"`

	// Document is the 0-based index of the document in the file (-1 for a
	// finding about the run); Composition its metadata.name.
	Document    int    `json:"document"`
	Composition string `json:"composition,omitempty"`

	// Path is the field the finding concerns, in the source document
	// (`spec.resources[0].patches[1].policy`); empty for the document.
	Path string `json:"path,omitempty"`

	Message string `json:"message"`
}

// String formats the diagnostic as `file:line: CODE severity: path: message`.
func (d Diagnostic) String() string {
	var b strings.Builder
	if d.File != "" {
		b.WriteString(d.File)
		if d.Line > 0 {
			fmt.Fprintf(&b, ":%d", d.Line)
		}
		b.WriteString(": ")
	}
	fmt.Fprintf(&b, "%s %s: ", d.Code, d.Severity)
	if d.Path != "" {
		b.WriteString(d.Path)
		b.WriteString(": ")
	}
	b.WriteString(d.Message)
	return b.String()
}
