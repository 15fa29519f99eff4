package verify

import (
	"fmt"
	"slices"
	"strings"

	"github.com/pkg/errors"

	"github.com/xpmigrate/xpmigrate/internal/crossplane"
	"github.com/xpmigrate/xpmigrate/render/verify/gaps"
)

// A Verdict is the outcome of verifying one sample, or a Composition.
type Verdict string

// Verdicts. A sample is equivalent, has known gaps, has an intended
// change, is different, or is inconclusive; a Composition has the worst
// verdict of its conclusive samples, or is unverified when none was
// conclusive.
const (
	// Equivalent: no difference, or only benign known gaps (lags the next
	// reconcile catches up on, bookkeeping nothing reads), shown as info.
	Equivalent Verdict = "equivalent"

	// EquivalentUpToMapping (--target v2 with a v2-native Composition
	// that declares its xpmigrate.io/v2-mapping): every difference that is
	// not benign is explained by an edit the mapping declares, reported
	// under the edit's C-code.
	EquivalentUpToMapping Verdict = "equivalent-up-to-mapping"

	// IntendedChange: every difference that is not benign is a legacy
	// quirk the user asked the converter to fix (its C-code is declared
	// in the converted Composition).
	IntendedChange Verdict = "intended-change"

	// KnownGaps: some difference is a breaking known gap (a D-code): the
	// steady state differs in a way xpmigrate understands. Breaking gaps
	// fail verification unless their code is accepted.
	KnownGaps Verdict = "known-gaps"

	// Different: a difference nothing proves the cause of: no rule
	// matched it, or a counterfactual render refuted the known gap a rule
	// proposed, or that gap has no switch to prove it by (see
	// Difference.Unexplained). A bug in the conversion (or in xpmigrate)
	// until shown otherwise. Always fails.
	Different Verdict = "different"

	// Inconclusive: both sides failed to render the sample, so nothing
	// was proven. It never counts as equivalent.
	Inconclusive Verdict = "inconclusive"

	// Unverified (Compositions only): no sample was conclusive, or there
	// was none.
	Unverified Verdict = "unverified"
)

// rank orders conclusive verdicts from best to worst.
func (v Verdict) rank() int {
	switch v {
	case Equivalent:
		return 0
	case EquivalentUpToMapping:
		return 1
	case IntendedChange:
		return 2
	case KnownGaps:
		return 3
	case Different:
		return 4
	}
	return -1
}

// A Report is the result of Verify.
type Report struct {
	// Legacy and Converted are the Compositions' file paths.
	Legacy    string `json:"legacy"`
	Converted string `json:"converted,omitempty"`

	// Composition is the Composition's name.
	Composition string `json:"composition"`

	Target crossplane.Target `json:"target"`
	Strict bool              `json:"strict,omitempty"`

	// Verdict is the worst verdict of the conclusive samples, or
	// Unverified when no sample was conclusive.
	Verdict Verdict `json:"verdict"`

	// Reason says why the Composition is unverified, and Hint what to do
	// about it.
	Reason string `json:"reason,omitempty"`
	Hint   string `json:"hint,omitempty"`

	// Accepted are the breaking gap codes accepted for this Composition,
	// with where each acceptance comes from.
	Acceptances map[string]string `json:"accepted,omitempty"`

	// IntendedChanges are the converter's opt-in fixes the converted
	// Composition declares.
	IntendedChanges []string `json:"intendedChanges,omitempty"`

	// Mapping is the v2 mapping the converted Composition declares
	// (xpmigrate.io/v2-mapping), when it has one: the legacy render was
	// mapped through it before the comparison.
	Mapping *MappingSummary `json:"mapping,omitempty"`

	// Assumptions lists what verify assumed for lack of input.
	Assumptions []string `json:"assumptions,omitempty"`

	Samples []SampleReport `json:"samples"`

	// Unexercised lists the legacy patches no sample made fire.
	Unexercised []PatchRef `json:"unexercised,omitempty"`

	// Counts of differences over the conclusive samples.
	Unexplained  int `json:"unexplained"`
	Breaking     int `json:"breaking"`
	AcceptedGaps int `json:"acceptedBreaking"`
	Benign       int `json:"benign"`
	Intended     int `json:"intended"`
	Mapped       int `json:"mapped,omitempty"`

	// InconclusiveSamples counts the samples that proved nothing.
	InconclusiveSamples int `json:"inconclusiveSamples"`
}

// A MappingSummary says how a v2-native Composition was verified: the
// legacy and v2 XR types, the v2 XR's scope, and the C-codes of the
// declared edits (and of verify's own composer rules) that explained a
// difference in some sample, sorted.
type MappingSummary struct {
	From    string   `json:"from"`
	To      string   `json:"to"`
	Scope   string   `json:"scope"`
	Applied []string `json:"applied,omitempty"`
}

// A SampleReport is the result for one sample.
type SampleReport struct {
	Sample string `json:"sample"`
	Source string `json:"source,omitempty"`
	Line   int    `json:"line,omitempty"`

	Verdict Verdict `json:"verdict"`

	// Loops is how many reconciles were compared.
	Loops int `json:"loops"`

	// LegacyStable and PipelineStable report whether each side stopped
	// changing within Loops.
	LegacyStable   bool `json:"legacyStable"`
	PipelineStable bool `json:"pipelineStable"`

	// LegacyError and PipelineError are the last reconcile's fatal errors.
	LegacyError   string `json:"legacyError,omitempty"`
	PipelineError string `json:"pipelineError,omitempty"`

	// Hint says, for an inconclusive sample, which input is probably
	// missing.
	Hint string `json:"hint,omitempty"`

	// Ready is the XR's Ready condition on both sides when it differs in
	// the last reconcile: the most important line of a verdict.
	Ready *ReadyFlip `json:"ready,omitempty"`

	Differences []Difference `json:"differences,omitempty"`

	// Omitted counts the differences a Combiner did not keep (it keeps
	// them for the first samples only, see Combiner.Detailed);
	// OmittedFail says one of them fails verification.
	Omitted     int  `json:"omittedDifferences,omitempty"`
	OmittedFail bool `json:"omittedFailing,omitempty"`
}

// A ReadyFlip is the XR's Ready condition status on both sides.
type ReadyFlip struct {
	Legacy   string `json:"legacy"`
	Pipeline string `json:"pipeline"`
}

// A PatchRef names a patch of the legacy Composition.
type PatchRef struct {
	// Resource is the template's composition resource name, "" for an
	// environment patch.
	Resource string `json:"resource,omitempty"`

	// Index is the patch's position after PatchSet expansion.
	Index int `json:"index"`

	Type string `json:"type"`
	From string `json:"from,omitempty"`
	To   string `json:"to,omitempty"`

	// PatchSet names the PatchSet the patch came from.
	PatchSet string `json:"patchSet,omitempty"`

	// Line is the patch's line in the legacy Composition's file.
	Line int `json:"line,omitempty"`
}

// Fails reports whether the sample fails verification. An inconclusive
// sample proves nothing and fails only with RequireVerified (see
// Report.Fails).
func (s *SampleReport) Fails(strict bool) bool {
	if s.Verdict == Inconclusive {
		return false
	}
	if s.OmittedFail {
		return true
	}
	for i := range s.Differences {
		if s.Differences[i].Fails(strict) {
			return true
		}
	}
	return false
}

// verdict sets the sample's verdict from its differences and errors.
func (s *SampleReport) verdict(strict bool) {
	if s.LegacyError != "" && s.PipelineError != "" {
		s.Verdict = Inconclusive
		return
	}
	s.Verdict = Equivalent
	for i := range s.Differences {
		d := &s.Differences[i]
		v := Equivalent
		switch {
		case d.Unexplained():
			v = Different
		case d.Gap.Class == ClassBreaking:
			v = KnownGaps
		case d.Gap.Class == ClassIntended:
			v = IntendedChange
		case d.Gap.Class == ClassMapped:
			v = EquivalentUpToMapping
		case strict && !d.Transient:
			v = KnownGaps
		}
		if v.rank() > s.Verdict.rank() {
			s.Verdict = v
		}
	}
}

func (r *Report) finish() {
	var t tally
	for i := range r.Samples {
		t.add(&r.Samples[i])
	}
	r.conclude(&t)
}

// A tally is what a Report's verdict and counts are computed from: folded
// sample by sample, so that a Combiner need not keep the samples.
type tally struct {
	samples, conclusive, inconclusive                 int
	worst                                             Verdict
	unexplained, intended, accepted, breaking, benign int
	// mapped counts the differences a v2 mapping explains, applied the
	// codes of their edits.
	mapped  int
	applied []string
	// hint is the first sample hint.
	hint string
}

func (t *tally) add(s *SampleReport) {
	t.samples++
	if t.hint == "" {
		t.hint = s.Hint
	}
	if s.Verdict == Inconclusive {
		t.inconclusive++
		return
	}
	t.conclusive++
	if s.Verdict.rank() > t.worst.rank() {
		t.worst = s.Verdict
	}
	for _, d := range s.Differences {
		switch {
		case d.Unexplained():
			t.unexplained++
		case d.Gap.Class == ClassIntended:
			t.intended++
		case d.Gap.Class == ClassMapped:
			t.mapped++
			if !slices.Contains(t.applied, d.Gap.Code) {
				t.applied = append(t.applied, d.Gap.Code)
			}
		case d.Gap.Class == ClassBreaking && d.Gap.Accepted:
			t.accepted++
		case d.Gap.Class == ClassBreaking:
			t.breaking++
		default:
			t.benign++
		}
	}
}

// conclude sets the counts and the verdict from t.
func (r *Report) conclude(t *tally) {
	r.InconclusiveSamples = t.inconclusive
	r.Unexplained, r.Intended, r.AcceptedGaps, r.Breaking, r.Benign = t.unexplained, t.intended, t.accepted, t.breaking, t.benign
	r.Mapped = t.mapped
	if r.Mapping != nil {
		r.Mapping.Applied = slices.Sorted(slices.Values(t.applied))
	}
	r.Verdict = Equivalent
	if t.worst.rank() > 0 {
		r.Verdict = t.worst
	}
	switch {
	case t.samples == 0:
		r.Verdict = Unverified
		if r.Reason == "" {
			r.Reason = "no samples: no XR or claim examples were found for this Composition"
		}
		r.Hint = "give samples with --xr, generate them from the XRD with --synthesize N, or put examples beside the Composition"
	case t.conclusive == 0:
		r.Verdict = Unverified
		r.Reason = fmt.Sprintf("all %d samples were inconclusive: both sides failed to render them", t.samples)
		r.Hint = t.hint
		if r.Hint == "" {
			r.Hint = defaultHint
		}
	}
}

// defaultHint is the hint of an unverified Composition whose samples have
// none.
const defaultHint = "check that every input the Composition reads is given: EnvironmentConfigs and Secrets with -e, existing composed resources with -o"

// Fails reports whether verification fails: a conclusive sample with a
// difference that fails (unexplained, or a breaking gap not accepted; with
// strict every persistent known gap); with requireVerified also an
// unverified Composition or an inconclusive sample.
func (r *Report) Fails(requireVerified bool) bool {
	for i := range r.Samples {
		if r.Samples[i].Fails(r.Strict) {
			return true
		}
	}
	return requireVerified && (r.Verdict == Unverified || r.InconclusiveSamples > 0)
}

// Equivalent reports whether verification passed without requiring every
// sample to be conclusive: Fails(false) is false.
func (r *Report) Equivalent() bool { return !r.Fails(false) }

// parseCodes splits a comma- or space-separated list of codes.
func parseCodes(s string) []string {
	var out []string
	for _, f := range strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' || r == '\n' || r == '\t' }) {
		out = append(out, strings.ToUpper(strings.TrimSpace(f)))
	}
	return out
}

// CheckGapCodes returns an error naming the first code that is not in the
// catalogue, for flags that accept gap codes.
func CheckGapCodes(codes []string) error {
	for _, code := range parseCodes(strings.Join(codes, ",")) {
		if _, ok := gaps.LookupGapCode(code); !ok {
			return errors.Errorf("%q is not a known gap code (D1-D%d; see the diagnostics reference)", code, len(gaps.GapCodes))
		}
	}
	return nil
}
