package gaps

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/xpmigrate/xpmigrate/render"
)

// An Aspect is what a Difference is about.
type Aspect string

// Aspects of an outcome that Compare compares.
const (
	// AspectError: one side's reconcile failed and the other's did not.
	AspectError Aspect = "error"

	// AspectPresence: a composed resource is rendered (desired) on one side
	// only.
	AspectPresence Aspect = "presence"

	// AspectResource: a field of a composed resource's desired object.
	AspectResource Aspect = "resource"

	// AspectReadiness: a composed resource's readiness.
	AspectReadiness Aspect = "readiness"

	// AspectSynced: a composed resource's synced flag.
	AspectSynced Aspect = "synced"

	// AspectDeleted: a composed resource is garbage collected on one side
	// only.
	AspectDeleted Aspect = "deleted"

	// AspectXR: a field of the XR as the cluster would keep it (effective
	// XR, docs/semantics/pipeline.md#the-effective-xr), conditions excepted.
	AspectXR Aspect = "xr"

	// AspectCondition: the XR's Ready or Synced condition (status and
	// reason; messages are never compared, D45, docs/reference/gaps.md#known-gaps).
	AspectCondition Aspect = "condition"

	// AspectConnection: one of the XR's connection details.
	AspectConnection Aspect = "connection-detail"
)

// A Value is one side's value in a Difference. A nil *Value means absent.
type Value struct {
	V any
}

// MarshalJSON writes the value itself.
func (v Value) MarshalJSON() ([]byte, error) { return jsonMarshal(v.V) }

// A Difference is one thing the legacy and the converted Composition do
// differently for one XR.
type Difference struct {
	Aspect Aspect `json:"aspect"`

	// Resource is the composition resource name, for resource aspects.
	Resource string `json:"resource,omitempty"`

	// Resources are, in a finding that stands for one difference per
	// composed resource with one root cause (verify.Findings groups them
	// for the report), every resource's name, Resource the first's. Nil
	// for a single difference: rules and proofs see one path each.
	Resources []string `json:"resources,omitempty"`

	// Path locates the field: in the desired object (AspectResource), in
	// the effective XR (AspectXR), the condition type (AspectCondition) or
	// the connection detail key (AspectConnection).
	Path Path `json:"path,omitempty"`

	// Legacy and Pipeline are the two sides' values; nil when absent.
	// Connection detail values that come from a Secret (or whose origin
	// Compare is not told) are redacted to their length and a hash.
	Legacy   *Value `json:"legacy,omitempty"`
	Pipeline *Value `json:"pipeline,omitempty"`

	// FirstLoop and LastLoop are the first and last reconciles (1-based)
	// the difference was seen in.
	FirstLoop int `json:"firstLoop"`
	LastLoop  int `json:"lastLoop"`

	// Transient is true when the difference vanished by the last
	// reconcile simulated.
	Transient bool `json:"transient,omitempty"`

	// Line is the line of the legacy Composition the difference comes
	// from: the patch writing the field when one does, else the template,
	// else the Composition.
	Line int `json:"line,omitempty"`

	// Gap explains the difference; nil when nothing does (a bug in the
	// conversion or in an engine, which always fails verification).
	Gap *Gap `json:"gap,omitempty"`

	// Candidate is the known gap whose rule matched the difference's shape
	// when a counterfactual render refuted it: the pipeline rendered with
	// the gap's switch (Candidate.ProvenBy names it) still differs here.
	// The difference is then unexplained (Gap is nil).
	Candidate *Gap `json:"refutedCandidate,omitempty"`

	// raw are the unredacted values rules read.
	rawLegacy, rawPipeline *Value
}

// SetRaw sets the values the rules read: the unredacted ones, where
// Legacy and Pipeline show a connection detail redacted.
func (d *Difference) SetRaw(legacy, pipeline *Value) {
	d.rawLegacy, d.rawPipeline = legacy, pipeline
}

// Raw returns the values the rules read (see SetRaw).
func (d *Difference) Raw() (legacy, pipeline *Value) {
	return d.rawLegacy, d.rawPipeline
}

// Key identifies a difference across reconciles and renders: its aspect,
// resource and path.
func (d *Difference) Key() string { return d.key() }

// key identifies a difference across reconciles.
func (d *Difference) key() string {
	return string(d.Aspect) + "\x00" + d.Resource + "\x00" + d.Path.String()
}

// Title names the difference in one line: "resource \"bucket\"
// spec.forProvider.size", "XR status.size", "XR condition Ready".
func (d *Difference) Title() string {
	res := fmt.Sprintf("resource %q", d.Resource)
	if len(d.Resources) > 1 {
		q := make([]string, len(d.Resources))
		for i, r := range d.Resources {
			q[i] = strconv.Quote(r)
		}
		res = fmt.Sprintf("%d resources %s", len(d.Resources), strings.Join(q, ", "))
	}
	switch d.Aspect {
	case AspectError:
		return "reconcile error"
	case AspectPresence:
		return res + " rendered"
	case AspectResource:
		return fmt.Sprintf("%s %s", res, d.Path)
	case AspectReadiness:
		return res + " ready"
	case AspectSynced:
		return res + " synced"
	case AspectDeleted:
		return res + " garbage collected"
	case AspectXR:
		return fmt.Sprintf("XR %s", d.Path)
	case AspectCondition:
		return fmt.Sprintf("XR condition %s", d.Path)
	case AspectConnection:
		return fmt.Sprintf("XR connection detail %s", d.Path)
	}
	return string(d.Aspect)
}

// A Side is one engine's result for one reconcile.
type Side struct {
	// Outcome is what the reconcile left; nil when it produced nothing.
	Outcome *render.Outcome

	// Err is the reconcile's fatal error, if any.
	Err error
}

// ResourceName returns a composed resource's composition resource name:
// its own, or for an anonymous legacy template the name names gives its
// index.
func ResourceName(cd render.ComposedResource, names func(int) string) string {
	if cd.Name != "" {
		return cd.Name
	}
	return names(cd.Index)
}

// CompareOptions tune render/verify's Compare.
type CompareOptions struct {
	// ResourceName names the legacy Composition's anonymous template at
	// index i as the converted Composition names it. Nil means verify's
	// DefaultResourceName (`resource-<i>`, docs/semantics/conversion.md#template-names).
	ResourceName func(i int) string

	// ShownConnectionDetails are the XR connection details whose values a
	// difference may show: those read from a field or a constant, never
	// from a Secret. The values of every other connection detail are
	// redacted to their length and a hash.
	ShownConnectionDetails map[string]bool
}

// Unexplained reports whether nothing proved what causes the difference:
// no rule matched it, a counterfactual render refuted the rule that did
// (Candidate), or the breaking gap a rule proposed has no switch to prove
// it (Gap.Unproven): a candidate, shown with its code, that is not
// accepted.
func (d *Difference) Unexplained() bool {
	return d.Gap == nil || d.Gap.Class == ClassBreaking && !d.Gap.Proven
}

// Fails reports whether a difference fails verification: an unexplained
// difference always; a breaking gap unless accepted (only a proven one
// is); with strict any known gap that persists, except intended changes.
func (d *Difference) Fails(strict bool) bool {
	if d.Gap == nil {
		return true
	}
	switch d.Gap.Class {
	case ClassIntended, ClassMapped:
		return false
	case ClassBreaking:
		return !d.Gap.Accepted || (strict && !d.Transient)
	}
	return strict && !d.Transient
}

func jsonMarshal(v any) ([]byte, error) { return json.Marshal(v) }
