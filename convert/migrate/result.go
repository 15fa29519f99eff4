package migrate

import (
	"fmt"

	"github.com/xpmigrate/xpmigrate/convert/migrate/tree"
)

// A FileStatus says what the migration did with one file.
type FileStatus string

// File statuses.
const (
	// FileConverted: the file changed (or, without writes, would change).
	FileConverted FileStatus = "converted"
	// FileUnchanged: nothing in the file needed converting.
	FileUnchanged FileStatus = "unchanged"
	// FileSkipped: the file was left alone on purpose; Reason says why.
	FileSkipped FileStatus = "skipped"
	// FileFailed: the file needed converting but could not be converted
	// or written; Reason says why.
	FileFailed FileStatus = "failed"
	// FileNotProcessed: the run was cancelled before this file.
	FileNotProcessed FileStatus = "not-processed"
	// FileHeldBack: the file converts, but a conversion in it failed
	// verification, so it was not written (Options.Force writes it).
	FileHeldBack FileStatus = "held-back"
)

// Why a file was skipped or failed.
const (
	ReasonTemplate        = tree.ReasonTemplate       // Helm/Go-template syntax that is not YAML
	ReasonYtt             = tree.ReasonYtt            // ytt annotations
	ReasonUnparseable     = tree.ReasonUnparseable    // neither YAML nor JSON
	ReasonKustomizePatch  = "kustomize-patch"         // a kustomize patch file
	ReasonReadOnly        = "read-only"               // needs converting but is not writable (Options.Force writes it)
	ReasonHardLinked      = "hard-linked"             // needs converting but has other names (Options.Force writes it)
	ReasonVanished        = tree.ReasonVanished       // deleted after the scan
	ReasonModified        = "modified"                // changed by someone else after the scan
	ReasonSymlinkLoop     = tree.ReasonSymlinkLoop    // a symlinked directory that contains itself
	ReasonSymlinkOutside  = tree.ReasonSymlinkOutside // a symlink whose target is outside the tree
	ReasonBrokenSymlink   = tree.ReasonBrokenSymlink  // a symlink to nothing
	ReasonDuplicate       = "duplicate"               // the same file reached by another path (symlink)
	ReasonUnreadable      = tree.ReasonUnreadable     // cannot be read
	ReasonNotRegular      = tree.ReasonNotRegular     // a FIFO, socket or device: never opened
	ReasonTooLarge        = tree.ReasonTooLarge       // larger than --max-file-size: never parsed
	ReasonAliasBomb       = tree.ReasonAliasBomb      // aliases expand beyond the readers' budget: refused (exit 2)
	ReasonConversionError = "conversion-error"        // the converter refused a Composition, or failed
	ReasonWriteError      = "write-error"             // the new content could not be written
	ReasonVerification    = "verification"            // a conversion failed verification: held back
)

// A FileResult is the outcome for one file.
type FileResult struct {
	// Path is slash-separated and relative to the migrated tree.
	Path string `json:"path"`
	// Status is what happened.
	Status FileStatus `json:"status"`
	// Reason is set for skipped and failed files.
	Reason string `json:"reason,omitempty"`
	// Detail explains Reason.
	Detail string `json:"detail,omitempty"`
	// Compositions counts the Compositions in the file.
	Compositions int `json:"compositions,omitempty"`
	// Written reports whether the file (or its copy under Options.Out)
	// was written.
	Written bool `json:"written,omitempty"`
	// Diagnostics are the converter's diagnostics and the migrator's
	// findings for this file, by document then code.
	Diagnostics []Diagnostic `json:"diagnostics,omitempty"`
	// Diff is the unified diff of the change, when Options.Diff is set.
	Diff string `json:"-"`
}

// A CompositionStatus says what the migration did with one Composition.
type CompositionStatus string

// Composition statuses.
const (
	// CompositionConverted: a legacy Composition became a Pipeline one.
	CompositionConverted CompositionStatus = "converted"
	// CompositionPhase1: with Options.Phase1, names were added to its
	// unnamed templates; it stays in mode Resources.
	CompositionPhase1 CompositionStatus = "phase1"
	// CompositionChanged: a Pipeline Composition was edited (a native
	// environment moved into a step, leftover fields removed).
	CompositionChanged CompositionStatus = "changed"
	// CompositionUnchanged: nothing to do.
	CompositionUnchanged CompositionStatus = "unchanged"
	// CompositionFailed: the converter refused it; it was left as it was.
	CompositionFailed CompositionStatus = "failed"
	// CompositionHeldBack: converted, but not written, because its file
	// was held back (a verification failed, or another Composition of the
	// file was refused).
	CompositionHeldBack CompositionStatus = "held-back"
	// CompositionSkipped: its file was skipped or failed as a whole.
	CompositionSkipped CompositionStatus = "skipped"
)

// A CompositionResult is the outcome for one Composition.
type CompositionResult struct {
	// File is the path of the file it is in, Document its 0-based index
	// there and Line the line it starts on.
	File     string `json:"file"`
	Document int    `json:"document"`
	Line     int    `json:"line"`
	// Name is metadata.name.
	Name string `json:"name"`
	// CompositeType is compositeTypeRef as apiVersion, kind.
	CompositeType string `json:"compositeType,omitempty"`
	// Item is its index in a `kind: List` document, -1 otherwise.
	Item int `json:"item"`
	// Legacy reports whether it was in mode Resources before the run.
	Legacy bool `json:"legacy"`
	// Status is what happened.
	Status CompositionStatus `json:"status"`
	// Diagnostics are the converter's diagnostics for its document.
	Diagnostics []Diagnostic `json:"diagnostics,omitempty"`
	// Verification is the equivalence check, nil when none ran.
	Verification *Verification `json:"verification,omitempty"`
	// Base names the legacy form at the base revision a mode: Pipeline
	// Composition was verified against ("REF:file#doc"), with
	// Options.Base.
	Base string `json:"base,omitempty"`
	// Before and After are the document's text before and after the
	// conversion, kept only with Options.KeepSources.
	Before string `json:"-"`
	After  string `json:"-"`
}

// A VerifyStatus is the verdict of an equivalence check: verify's verdicts
// (render/verify.Verdict), and "error" when the check could not run.
type VerifyStatus string

// Verdicts, from best to worst.
const (
	// VerifyEquivalent: every conclusive sample rendered the same on both
	// sides, up to benign known gaps (lags, bookkeeping).
	VerifyEquivalent VerifyStatus = "equivalent"
	// VerifyEquivalentUpToMapping: a v2-native Composition (--target v2
	// with a declared xpmigrate.io/v2-mapping) renders what the legacy one
	// does once the legacy render is mapped through the declared edits.
	VerifyEquivalentUpToMapping VerifyStatus = "equivalent-up-to-mapping"
	// VerifyIntendedChange: the only other differences are legacy quirks
	// the converter fixed on request.
	VerifyIntendedChange VerifyStatus = "intended-change"
	// VerifyKnownGaps: some difference is a breaking known gap with a
	// code; it fails unless the code is accepted.
	VerifyKnownGaps VerifyStatus = "known-gaps"
	// VerifyInconclusive (samples only): both sides failed to render the
	// sample, so nothing was proven.
	VerifyInconclusive VerifyStatus = "inconclusive"
	// VerifyUnverified: no sample was conclusive (none found, or all
	// inconclusive).
	VerifyUnverified VerifyStatus = "unverified"
	// VerifyDifferences: at least one difference nobody explains.
	VerifyDifferences VerifyStatus = "different"
	// VerifyError: the check could not run for a sample.
	VerifyError VerifyStatus = "error"
)

// A Verification is the equivalence check of one converted Composition.
type Verification struct {
	// Status is the overall verdict. A Verifier may leave it empty; the
	// migrator then derives it from the samples.
	Status VerifyStatus `json:"status"`
	// Samples are the per-sample verdicts, in the order of the request
	// (synthesized samples last).
	Samples []SampleResult `json:"samples,omitempty"`
	// Unexercised lists patches no sample exercised, as YAML paths.
	Unexercised []string `json:"unexercised,omitempty"`
	// Error is set when the check could not run at all.
	Error string `json:"error,omitempty"`
	// Fails reports whether the check fails: an unexplained difference
	// or a breaking gap that is not accepted (see verify.Report.Fails).
	Fails bool `json:"fails,omitempty"`
	// Reason says why the Composition is unverified, and Hint what to
	// give so that it can be.
	Reason string `json:"reason,omitempty"`
	Hint   string `json:"hint,omitempty"`
}

// A SampleResult is the verdict for one sample.
type SampleResult struct {
	// Source is the Sample's Source, or "synthesized#N".
	Source string `json:"source"`
	// Status is VerifyEquivalent, VerifyKnownGaps, VerifyDifferences or
	// VerifyError.
	Status VerifyStatus `json:"status"`
	// Differences lists what differs.
	Differences []Difference `json:"differences,omitempty"`
	// Error says why the sample could not be checked.
	Error string `json:"error,omitempty"`
	// LegacyError and PipelineError are the two sides' render errors of
	// an inconclusive sample, and Hint the input it probably lacks.
	LegacyError   string `json:"legacyError,omitempty"`
	PipelineError string `json:"pipelineError,omitempty"`
	Hint          string `json:"hint,omitempty"`
	// Ready is the XR's Ready condition on both sides when it differs
	// ("False -> True").
	Ready string `json:"ready,omitempty"`
	// Legacy and Pipeline are the two renders as text (crossplane render
	// format), for reports; may be empty.
	Legacy   string `json:"-"`
	Pipeline string `json:"-"`
}

// A Difference is one thing the two renders disagree on.
type Difference struct {
	// Path locates it, such as composed[bucket].spec.forProvider.size or
	// xr.status.arn.
	Path string `json:"path"`
	// Legacy and Pipeline are the two values as YAML text, empty when
	// absent.
	Legacy   string `json:"legacy,omitempty"`
	Pipeline string `json:"pipeline,omitempty"`
	// Code classifies a known semantic gap (a docs/reference/diagnostics.md C-code
	// or a D-code of docs/reference/gaps.md#known-gaps). Empty means unexplained.
	Code string `json:"code,omitempty"`
	// Class is the gap's class: breaking, benign or intended.
	Class string `json:"class,omitempty"`
	// Accepted says a breaking gap's code was accepted, and by what.
	Accepted string `json:"accepted,omitempty"`
	// Message explains the gap and the fix.
	Message string `json:"message,omitempty"`
	// Proof says how the attribution to Code was proven ("proven by"
	// the counterfactual render's switches), or why it was not
	// ("unproven: …", a candidate that never passes on its own).
	Proof string `json:"proof,omitempty"`
	// Candidate is the known gap whose rule matched an unexplained
	// difference's shape, refuted by the counterfactual render (the
	// pipeline rendered with the gap's switch still differs here).
	Candidate string `json:"refutedCandidate,omitempty"`
}

// failing reports whether a verification fails the run: Fails, or an
// unexplained difference a Verifier reported without setting Fails. A nil
// verification does not fail.
func (v *Verification) failing() bool {
	return v != nil && (v.Fails || v.Status == VerifyDifferences)
}

// deriveStatus fills v.Status from its samples when the Verifier left it
// empty.
func deriveStatus(v *Verification) {
	if v.Status != "" {
		return
	}
	if v.Error != "" {
		v.Status = VerifyError
		return
	}
	if len(v.Samples) == 0 {
		v.Status = VerifyUnverified
		return
	}
	st, conclusive := VerifyEquivalent, 0
	for i := range v.Samples {
		s := &v.Samples[i]
		if s.Status == "" {
			s.Status = sampleStatus(s)
		}
		if s.Status == VerifyInconclusive {
			continue
		}
		conclusive++
		if rank(s.Status) > rank(st) {
			st = s.Status
		}
	}
	if conclusive == 0 {
		st = VerifyUnverified
	}
	v.Status = st
}

func sampleStatus(s *SampleResult) VerifyStatus {
	if s.Error != "" {
		return VerifyError
	}
	st := VerifyEquivalent
	for _, d := range s.Differences {
		if d.Code == "" {
			return VerifyDifferences
		}
		switch {
		case d.Class == "mapped" && st == VerifyEquivalent:
			st = VerifyEquivalentUpToMapping
		case d.Class != "benign" && d.Class != "mapped":
			st = VerifyKnownGaps
		}
	}
	return st
}

func rank(s VerifyStatus) int {
	switch s {
	case VerifyEquivalent:
		return 0
	case VerifyEquivalentUpToMapping:
		return 1
	case VerifyIntendedChange:
		return 2
	case VerifyKnownGaps:
		return 3
	case VerifyInconclusive:
		return 4
	case VerifyUnverified:
		return 5
	case VerifyDifferences:
		return 6
	case VerifyError:
		return 7
	}
	return 8
}

// A Finding is a repository-level v2-readiness finding: something in a file
// that will break, or behave differently, once the migration is applied or
// Crossplane is upgraded. Findings carry M-codes:
//
//	M401 warning  a kustomize patch writes into spec.resources (or
//	              spec.patchSets, spec.environment) of a Composition;
//	              after conversion that path no longer exists (the message
//	              gives the converted place, or what to do)
//	M402 warning  a Composition is still in mode Resources (its
//	              conversion failed or its file was skipped)
//	M403 warning  publishConnectionDetailsWithStoreConfigRef or
//	              publishConnectionDetailsTo: external secret stores are
//	              gone in Crossplane v2
//	M404 info     a patch reads a claim-only path (spec.claimRef,
//	              spec.resourceRefs, crossplane.io/claim-* labels…), which
//	              v2-style XRs do not have
//	M405 warning  a patch writes to the XR outside status, which pipeline
//	              mode does not persist
//	M406 info     server-populated fields (uid, resourceVersion,
//	              managedFields…) in an exported manifest
//	M407 info     two or more Function manifests or Configuration
//	              dependencies name a function differently; the
//	              converter's default name was used (or, with one
//	              --functions-out file for several package scopes, the
//	              file holds one name of a function the scopes name
//	              differently)
//	M408 warning  the file was written in place but some of its metadata
//	              could not be kept (owner, group, mode bits, extended
//	              attributes, hard links split by --force)
//	M409 warning  a Function manifest the converted Compositions use (by
//	              name) installs a release of the function the target
//	              does not support (PT v0.10.x on v1, v0.10.0+ on v2; EC
//	              v0.6.x on v1, v0.7.x on v2); info when its release
//	              cannot be told (digest, no tag)
//	M410 warning  a Configuration's dependency on such a function has a
//	              version constraint that admits a release the target does
//	              not support (or none); info when pinned by digest
//	M411 info     a kustomize JSON 6902 patch's path was rewritten to where
//	              the converted Composition holds that content
//	M412 info     with Options.Base: a Composition that was already mode
//	              Pipeline at the base changed; it is not verified as a
//	              migration (its verification is unverified)
//	M413 info     target v1: a Configuration's spec.crossplane.version
//	              admitted Crossplane releases before v1.17.0 (or was
//	              missing); it was raised to >=v1.17.0-0 (warning when the
//	              constraint cannot be read, and is left)
//	M414 warning  a pipeline step's functionRef names no Function the tree
//	              (a Function manifest, a Configuration's dependency) or
//	              the cluster installs, where one of the same package is
//	              installed under another name, or the cluster was read;
//	              info when nothing says whether it is installed (checked
//	              for the Compositions the run changed or --base sees
//	              changed)
type Finding = Diagnostic

// Summary counts what a run did.
type Summary struct {
	Files        int `json:"files"`
	Converted    int `json:"converted"`
	Unchanged    int `json:"unchanged"`
	Skipped      int `json:"skipped"`
	Failed       int `json:"failed"`
	HeldBack     int `json:"heldBack,omitempty"`
	NotProcessed int `json:"notProcessed,omitempty"`
	// SkippedBy counts skipped and failed files by reason.
	SkippedBy map[string]int `json:"skippedBy,omitempty"`

	Compositions          int `json:"compositions"`
	LegacyCompositions    int `json:"legacyCompositions"`
	ConvertedCompositions int `json:"convertedCompositions"`
	Phase1Compositions    int `json:"phase1Compositions,omitempty"`
	FailedCompositions    int `json:"failedCompositions"`
	HeldBackCompositions  int `json:"heldBackCompositions,omitempty"`

	VerifiedEquivalent int `json:"verifiedEquivalent"`
	// EquivalentUpToMapping counts the v2-native Compositions equivalent
	// up to their declared v2 mapping.
	EquivalentUpToMapping int `json:"equivalentUpToMapping,omitempty"`
	IntendedChanges       int `json:"intendedChanges"`
	KnownGaps             int `json:"knownGaps"`
	Differences           int `json:"differences"`
	VerifyErrors          int `json:"verifyErrors"`
	Unverified            int `json:"unverified"`
	// Failing counts the verifications that fail: an unexplained
	// difference or a breaking gap nobody accepted.
	Failing int `json:"failing"`
	// InconclusiveSamples counts samples where both sides failed.
	InconclusiveSamples int `json:"inconclusiveSamples"`
	// Unchecked counts the Compositions the run changed without checking
	// them (Options.Verify off, Options.Phase1).
	Unchecked int `json:"unchecked,omitempty"`
	// FunctionProblems counts the findings that the converted Compositions
	// would fail in the cluster for a Function (M409, M410, M414
	// warnings); FunctionsUnproven those that say the run cannot tell
	// (their infos).
	FunctionProblems  int `json:"functionProblems,omitempty"`
	FunctionsUnproven int `json:"functionsUnproven,omitempty"`
	// LegacyLeft counts the files that still hold a legacy Composition
	// after the run (refused, skipped, or in a template), except those
	// Options.AllowLegacy exempts; LegacyAllowed those it exempts.
	LegacyLeft    int `json:"legacyLeft"`
	LegacyAllowed int `json:"legacyAllowed,omitempty"`
	// GapCodes counts classified differences by code, over all samples.
	GapCodes map[string]int `json:"gapCodes,omitempty"`

	Findings int `json:"findings"`
	// Diagnostics counts converter diagnostics and findings by severity.
	Errors   int `json:"errors"`
	Warnings int `json:"warnings"`
	Infos    int `json:"infos"`
}

// A Result is everything a run found and did.
type Result struct {
	// Root is the tree's path as given in Options.Root.
	Root string `json:"-"`
	// Files are the candidate files (and skipped entries) in path order.
	Files []FileResult `json:"files"`
	// Compositions are every Composition found, by file then document.
	Compositions []CompositionResult `json:"compositions"`
	// Findings are the repository-level findings (M-codes) with File
	// set, by file then document then code. They are also in their
	// files' Diagnostics.
	Findings []Finding `json:"findings,omitempty"`
	// Summary counts the above.
	Summary Summary `json:"summary"`
	// Cancelled reports that the context was cancelled mid-run; files
	// after that point are FileNotProcessed.
	Cancelled bool `json:"cancelled,omitempty"`
	// Mode records how the run wrote: "in-place", "out", "none".
	Mode string `json:"mode"`
	// Check reports whether the run was a --check run.
	Check bool `json:"check,omitempty"`
	// StaleTemporaries are the temporary files of interrupted writes
	// (".<name>.xpmigrate-tmp-<n>", left by a killed run) found in the
	// tree, in path order: never read, never copied. StaleRemoved
	// reports that the run (writing in place) removed them.
	StaleTemporaries []string `json:"staleTemporaries,omitempty"`
	StaleRemoved     bool     `json:"staleRemoved,omitempty"`
}

// Changed reports whether any file changed (or would change).
func (r *Result) Changed() bool { return r.Summary.Converted > 0 }

// Failed reports whether any file or Composition failed, or any check
// could not run.
func (r *Result) Failed() bool {
	return r.Summary.Failed > 0 || r.Summary.FailedCompositions > 0 || r.Summary.VerifyErrors > 0
}

// Refused returns the files refused as unusable input (alias bombs): the
// run exits as for invalid input.
func (r *Result) Refused() []FileResult {
	var out []FileResult
	for _, f := range r.Files {
		if f.Reason == ReasonAliasBomb {
			out = append(out, f)
		}
	}
	return out
}

// HasDifferences reports whether any verification fails: an unexplained
// difference, or a breaking gap nobody accepted.
func (r *Result) HasDifferences() bool { return r.Summary.Failing > 0 }

// HasLegacyLeft reports whether a legacy Composition is left in the tree
// that nobody allowed (what --check fails on).
func (r *Result) HasLegacyLeft() bool { return r.Summary.LegacyLeft > 0 }

// Unproven reports whether something the run changed, or the gate sees
// changed, is not proven: an unverified Composition, an inconclusive
// sample, a change nobody checked, or a Function the run cannot tell is
// installed at a supported release (what --require-verified fails on).
func (r *Result) Unproven() bool { return len(r.Verdict().Unproven) > 0 }

// The answers to "is this run safe to merge?".
const (
	SafeYes       = "yes"
	SafeNo        = "no"
	SafeNotProven = "not proven"
)

// A MergeVerdict is the answer to "is this run safe to merge?", and why.
type MergeVerdict struct {
	// Safe is SafeNo when something is wrong (Blocking), else
	// SafeNotProven when something is not proven (Unproven), else SafeYes.
	Safe string
	// Blocking and Unproven say what, as counts in words ("2 render
	// differently"), in a fixed order.
	Blocking, Unproven []string
}

// Verdict decides whether the run is safe to merge; the headline of every
// report and the exit code (Err) come from it. It is SafeYes only when
// every Composition the run changed, or the gate (Options.Base) sees
// changed, was verified, and every Function the tree's Pipeline
// Compositions use is installed, under the name they use, at a release the
// target supports. In order:
//
//   - no: the run was cancelled; a file or Composition failed or could not
//     be verified; a verification fails (an unexplained difference, a
//     breaking gap nobody accepted); a file was held back; a legacy
//     Composition is left that nobody allowed; a functionRef names a
//     Function nothing installs, or an installed Function's release is not
//     supported (M409, M410, M414 warnings);
//   - not proven: a Composition is unverified (no conclusive sample, or a
//     mode Pipeline Composition changed: verify proves a conversion from a
//     legacy form, nothing else), a sample is inconclusive, a change was not
//     checked (--verify=false, --phase1), or the run cannot tell whether a
//     Function is installed or at which release (M409, M410, M414 infos);
//   - yes otherwise.
func (r *Result) Verdict() MergeVerdict {
	s := r.Summary
	var v MergeVerdict
	add := func(to *[]string, n int, what string) {
		if n > 0 {
			*to = append(*to, fmt.Sprintf("%d %s", n, what))
		}
	}
	if r.Cancelled {
		v.Blocking = append(v.Blocking, "cancelled")
	}
	add(&v.Blocking, s.Differences, "render differently")
	add(&v.Blocking, s.Failing-s.Differences, "have breaking gaps nobody accepted")
	add(&v.Blocking, s.HeldBackCompositions, "held back")
	if s.HeldBackCompositions == 0 {
		add(&v.Blocking, s.HeldBack, "files held back")
	}
	add(&v.Blocking, s.FailedCompositions, "could not be converted")
	add(&v.Blocking, s.Failed, "files failed")
	add(&v.Blocking, s.VerifyErrors, "could not be verified")
	add(&v.Blocking, s.LegacyLeft, "files still hold a legacy Composition")
	add(&v.Blocking, s.FunctionProblems, "Function problems (M409, M410, M414)")
	add(&v.Unproven, s.Unverified, "unverified")
	add(&v.Unproven, s.InconclusiveSamples, "samples inconclusive")
	add(&v.Unproven, s.Unchecked, "changed without a verification")
	add(&v.Unproven, s.FunctionsUnproven, "Function checks not proven")
	switch {
	case len(v.Blocking) > 0:
		v.Safe = SafeNo
	case len(v.Unproven) > 0:
		v.Safe = SafeNotProven
	default:
		v.Safe = SafeYes
	}
	return v
}
