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
// C2xx warnings and C3xx information (docs/reference/diagnostics.md); C4xx, the
// transformations of the v2-native conversion (--target v2), have the
// severity of each code.
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
	{"C220", SeverityWarning, "text of a format that may print an integer re-encoded"},
	{"C221", SeverityWarning, "transform repaired that native Crossplane rejects (C313, C314)"},

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
	{"C326", SeverityInfo, "base metadata.name and metadata.namespace removed: native ignored them (K5)"},
	{"C327", SeverityInfo, "combine %d or %v of an integer XR field printed as %.0f (K4)"},

	{"C401", SeverityInfo, "XRD written as a new apiextensions.crossplane.io/v2 XRD"},
	{"C402", SeverityError, "XRD scope needs a choice (cluster-scoped kind or namespace in a template)"},
	{"C403", SeverityWarning, "v2 XR type has the name of the claim or of the v1 XR type"},
	{"C404", SeverityInfo, "claimNames removed"},
	{"C405", SeverityInfo, "defaultCompositeDeletePolicy removed"},
	{"C406", SeverityWarning, "connectionSecretKeys removed: key filtering lost"},
	{"C407", SeverityInfo, "default or enforced Composition reference renamed to the v2 Composition"},
	{"C408", SeverityInfo, "CEL rule or printer column moved to spec.crossplane"},
	{"C409", SeverityWarning, "spec.claimRef.name read as metadata.name"},
	{"C410", SeverityError, "CEL rule reads a field v2 XRs do not have"},
	{"C411", SeverityWarning, "printer column reads a field v2 XRs do not have"},
	{"C412", SeverityInfo, "server fields removed from the new XRD"},
	{"C413", SeverityError, "XRD cannot be converted to v2"},
	{"C414", SeverityWarning, "rewritten CEL rule reads spec.crossplane without has()"},
	{"C415", SeverityInfo, "v1 XRD of a modern scope: apiVersion changed only"},
	{"C416", SeverityInfo, "spec.writeConnectionSecretToRef declared in the v2 XRD"},
	{"C420", SeverityInfo, "new Composition for the v2 XR type"},
	{"C421", SeverityInfo, "XR machinery path moved to spec.crossplane"},
	{"C422", SeverityWarning, "v2 XR type derived without the XRD"},
	{"C423", SeverityInfo, "writeConnectionSecretsToNamespace removed"},
	{"C424", SeverityInfo, "XR connection details to the function's connection Secret"},
	{"C425", SeverityWarning, "cluster XR connection Secret without a namespace"},
	{"C426", SeverityInfo, "claim namespace read as the XR's namespace"},
	{"C427", SeverityWarning, "claim name read as the XR's name"},
	{"C428", SeverityWarning, "claim or connection Secret reference without a v2 equivalent"},
	{"C429", SeverityWarning, "connection Secret namespace made local"},
	{"C430", SeverityWarning, "XR uid read: a new XR has a new uid"},
	{"C432", SeverityWarning, "step of another function kept for the v2 XR"},
	{"C440", SeverityInfo, "managed resource becomes its namespaced twin (v2-native)"},
	{"C441", SeverityInfo, "providerConfigRef gains a kind (v2-native)"},
	{"C442", SeverityInfo, "deletionPolicy becomes managementPolicies (v2-native)"},
	{"C443", SeverityWarning, "namespace removed from a Secret reference (v2-native)"},
	{"C444", SeverityWarning, "publishConnectionDetailsTo removed (v2-native)"},
	{"C445", SeverityWarning, "namespaced twin by the group rule: confirm the version (v2-native)"},
	{"C446", SeverityWarning, "template namespace removed: v2 overwrites it (v2-native)"},
	{"C447", SeverityWarning, "patch writes metadata.namespace, which v2 overwrites (v2-native)"},
	{"C448", SeverityError, "cluster-scoped composed resource in a namespaced XR (v2-native)"},
	{"C449", SeverityWarning, "patch of a field namespaced managed resources lack (v2-native)"},
	{"C450", SeverityWarning, "deletionPolicy patch writes managementPolicies (v2-native)"},
	{"C453", SeverityWarning, "nested composite resource: its type changes with its XRD (v2-native)"},
	{"C454", SeverityWarning, "patch writes a field whose shape changes (v2-native)"},
	{"C455", SeverityWarning, "deletionPolicy Orphan lost to managementPolicies with Delete (v2-native)"},
	{"C456", SeverityWarning, "provider-kubernetes Object unwrapped on request: readiness changes (v2-native)"},
	{"C457", SeverityInfo, "provider-kubernetes Object kept a wrapper despite --unwrap-objects (v2-native)"},
	{"C458", SeverityInfo, "nested composite resource composes its XRD's v2 type (v2-native)"},
	{"C460", SeverityInfo, "EnvironmentConfig v1alpha1 moved to v1beta1 (v2)"},
	{"C461", SeverityInfo, "Usage replaced by a protection.crossplane.io ClusterUsage (v2)"},
	{"C462", SeverityInfo, "Usage replaced by a namespaced protection.crossplane.io Usage (v2)"},
	{"C463", SeverityInfo, "ControllerConfig replaced by a DeploymentRuntimeConfig (v2)"},
	{"C464", SeverityWarning, "ControllerConfig field without a place in a DeploymentRuntimeConfig dropped"},
	{"C465", SeverityInfo, "controllerConfigRef replaced by runtimeConfigRef (v2)"},
	{"C466", SeverityWarning, "controllerConfigRef dropped beside a runtimeConfigRef"},
	{"C467", SeverityInfo, "Function moved to pkg.crossplane.io/v1 (v2)"},
	{"C468", SeverityWarning, "package reference given a registry (v2 has no default registry)"},
	{"C469", SeverityInfo, "Configuration's Crossplane constraint set for v2"},
	{"C470", SeverityInfo, "Configuration's function dependency pinned for v2"},
	{"C471", SeverityInfo, "v2 XR twin of an example written"},
	{"C472", SeverityWarning, "example twin keeps writeConnectionSecretToRef (XRD must declare it)"},
	{"C473", SeverityInfo, "example twin drops fields Crossplane fills in"},
	{"C474", SeverityWarning, "example twin drops a field v2 XRs have no place for"},
	{"C475", SeverityWarning, "example twin not written: the file exists"},
	{"C476", SeverityWarning, "example twin cannot be written"},
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
