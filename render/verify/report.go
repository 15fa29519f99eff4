package verify

// A Verdict is the outcome of verifying one sample, or all of them.
type Verdict string

// Verdicts, from best to worst.
const (
	// Equivalent: no difference at all.
	Equivalent Verdict = "equivalent"

	// EquivalentWithGaps: every difference is a known gap that the user
	// accepts (transient gaps always; persistent ones unless Strict).
	EquivalentWithGaps Verdict = "equivalent-with-gaps"

	// Different: an unexplained difference, or with Strict a known gap
	// that persists.
	Different Verdict = "different"
)

func (v Verdict) worse(o Verdict) bool {
	rank := map[Verdict]int{Equivalent: 0, EquivalentWithGaps: 1, Different: 2}
	return rank[v] > rank[o]
}

// A Report is the result of Verify.
type Report struct {
	// Legacy and Converted are the Compositions' file paths.
	Legacy    string `json:"legacy"`
	Converted string `json:"converted,omitempty"`

	// Composition is the Composition's name.
	Composition string `json:"composition"`

	Target string `json:"target"`
	Strict bool   `json:"strict,omitempty"`

	// Verdict is the worst sample verdict (Equivalent with no samples).
	Verdict Verdict `json:"verdict"`

	Samples []SampleReport `json:"samples"`

	// Unexercised lists the legacy patches no sample made fire.
	Unexercised []PatchRef `json:"unexercised,omitempty"`

	// Assumptions state what Verify assumed where its inputs did not tell,
	// one line each (such as how null XR fields were read without an XRD).
	Assumptions []string `json:"assumptions,omitempty"`

	// Counts of differences over all samples.
	Unexplained int `json:"unexplained"`
	Gaps        int `json:"gaps"`
	Transient   int `json:"transient"`
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

	Differences []Difference `json:"differences,omitempty"`
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

// Fails reports whether a difference fails verification.
func (d *Difference) Fails(strict bool) bool {
	if d.Gap == nil {
		return true
	}
	return strict && !d.Transient
}

func (s *SampleReport) verdict(strict bool) {
	s.Verdict = Equivalent
	for i := range s.Differences {
		d := &s.Differences[i]
		v := EquivalentWithGaps
		if d.Fails(strict) {
			v = Different
		}
		if v.worse(s.Verdict) {
			s.Verdict = v
		}
	}
}

func (r *Report) finish() {
	r.Verdict = Equivalent
	for _, s := range r.Samples {
		if s.Verdict.worse(r.Verdict) {
			r.Verdict = s.Verdict
		}
		for _, d := range s.Differences {
			switch {
			case d.Gap == nil:
				r.Unexplained++
			case d.Transient:
				r.Transient++
			default:
				r.Gaps++
			}
		}
	}
}

// Equivalent reports whether verification passed: no sample has a
// difference that fails.
func (r *Report) Equivalent() bool { return r.Verdict != Different }
