package migrate

import (
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/xpmigrate/xpmigrate/internal/logsafe"
)

// WriteSummary writes the human summary of a run: counts of files and
// Compositions, the skipped and failed files with their reasons, the
// verification verdicts with known gaps by code, the Compositions with
// unexplained differences, and the findings by code.
func WriteSummary(w io.Writer, r *Result) error {
	var b strings.Builder
	s := r.Summary
	verb := map[string]string{"in-place": "written in place", "out": "written to the output tree", "none": "nothing written"}[r.Mode]
	if r.Cancelled {
		b.WriteString("migrate: cancelled; files not processed were left as they were\n")
	}
	logsafe.Fprintf(&b, "files: %d: %d converted, %d unchanged, %d skipped, %d failed", s.Files, s.Converted, s.Unchanged, s.Skipped, s.Failed)
	if s.HeldBack > 0 {
		logsafe.Fprintf(&b, ", %d held back", s.HeldBack)
	}
	if s.NotProcessed > 0 {
		logsafe.Fprintf(&b, ", %d not processed", s.NotProcessed)
	}
	logsafe.Fprintf(&b, " (%s)\n", verb)
	if len(s.SkippedBy) > 0 {
		logsafe.Fprintf(&b, "  skipped or failed by reason: %s\n", CountList(s.SkippedBy))
	}
	for _, f := range r.Files {
		if f.Status == FileSkipped || f.Status == FileFailed || f.Status == FileHeldBack {
			logsafe.Fprintf(&b, "  %-8s %s: %s (%s)\n", f.Status, f.Path, f.Reason, f.Detail)
		}
	}
	logsafe.Fprintf(&b, "compositions: %d (%d legacy): %d converted, %d failed", s.Compositions, s.LegacyCompositions, s.ConvertedCompositions, s.FailedCompositions)
	if s.HeldBackCompositions > 0 {
		logsafe.Fprintf(&b, ", %d converted but held back", s.HeldBackCompositions)
	}
	if s.Phase1Compositions > 0 {
		logsafe.Fprintf(&b, ", %d named for phase 1 (still mode Resources)", s.Phase1Compositions)
	}
	b.WriteString("\n")
	for _, c := range r.Compositions {
		if c.Status == CompositionFailed {
			logsafe.Fprintf(&b, "  failed   %s#%d %s%s\n", c.File, c.Document, c.Name, firstError(c.Diagnostics))
		}
	}
	if verified := s.VerifiedEquivalent + s.EquivalentUpToMapping + s.IntendedChanges + s.KnownGaps + s.Differences + s.VerifyErrors + s.Unverified; verified > 0 {
		logsafe.Fprintf(&b, "verification: %d equivalent, %d with intended changes, %d with known gaps, %d different, %d errors, %d unverified; %d failing",
			s.VerifiedEquivalent, s.IntendedChanges, s.KnownGaps, s.Differences, s.VerifyErrors, s.Unverified, s.Failing)
		if s.EquivalentUpToMapping > 0 {
			logsafe.Fprintf(&b, "; %d equivalent up to the declared v2 mapping", s.EquivalentUpToMapping)
		}
		if s.InconclusiveSamples > 0 {
			logsafe.Fprintf(&b, "; %d inconclusive samples", s.InconclusiveSamples)
		}
		b.WriteString("\n")
		if len(s.GapCodes) > 0 {
			logsafe.Fprintf(&b, "  classified differences by gap code (benign ones included): %s\n", CountList(s.GapCodes))
		}
		for _, c := range r.Compositions {
			v := c.Verification
			if v == nil {
				continue
			}
			switch {
			case v.Status == VerifyDifferences || v.Status == VerifyError:
				logsafe.Fprintf(&b, "  %-11s %s#%d %s%s\n", v.Status, c.File, c.Document, c.Name, firstUnexplained(v))
			case v.Fails:
				logsafe.Fprintf(&b, "  %-11s %s#%d %s: breaking gaps %s not accepted (--accept or the annotation xpmigrate.io/accept-gaps)\n", "failing", c.File, c.Document, c.Name, strings.Join(failingCodes(v), ","))
			case v.Status == VerifyUnverified && v.Reason != "":
				logsafe.Fprintf(&b, "  %-11s %s#%d %s: %s\n", "WARN", c.File, c.Document, c.Name, v.Reason)
			}
		}
	}
	if ws := r.ConverterWarnings(); len(ws) > 0 {
		logsafe.Fprintf(&b, "converter warnings: %d\n", len(ws))
		for _, w := range ws {
			at := w.File
			if w.Line > 0 {
				at += ":" + strconv.Itoa(w.Line)
			}
			logsafe.Fprintf(&b, "  %s: %s: %s\n", at, w.Code, w.Message)
		}
	}
	if len(r.Findings) > 0 {
		codes := map[string]int{}
		for _, f := range r.Findings {
			codes[f.Code]++
		}
		logsafe.Fprintf(&b, "findings: %d: %s\n", len(r.Findings), CountList(codes))
		const maxListed = 30
		listed, more := 0, 0
		for _, f := range r.Findings {
			if f.Severity == SeverityInfo {
				continue
			}
			if listed == maxListed {
				more++
				continue
			}
			listed++
			at := f.File
			if f.Document >= 0 {
				at = fmt.Sprintf("%s#%d", f.File, f.Document)
			}
			if f.Path != "" {
				at += " " + f.Path
			}
			logsafe.Fprintf(&b, "  %s %s %s: %s\n", f.Code, f.Severity, at, f.Message)
		}
		if more > 0 {
			logsafe.Fprintf(&b, "  … and %d more warnings and errors (see --report)\n", more)
		}
	}
	b.WriteString(Headline(r) + "\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// firstUnexplained says what a failing verification found first: the
// sample and field of its first unexplained difference, with both values
// and how many more there are, or the first sample's error.
func firstUnexplained(v *Verification) string {
	var first string
	n := 0
	for _, sr := range v.Samples {
		if first == "" && sr.Error != "" {
			first = fmt.Sprintf(": %s: %s", sr.Source, sr.Error)
		}
		for _, d := range sr.Differences {
			if d.Code != "" {
				continue
			}
			n++
			if n == 1 {
				first = fmt.Sprintf(": %s: %s differs (legacy %s, pipeline %s)", sr.Source, d.Path, shownValue(d.Legacy), shownValue(d.Pipeline))
			}
		}
	}
	if n > 1 {
		first += fmt.Sprintf(", and %d more unexplained", n-1)
	}
	return first
}

// shownValue is a difference's value on one line, at most 60 characters.
func shownValue(s string) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return "absent"
	}
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 60 {
		s = s[:57] + "..."
	}
	return strconv.Quote(s)
}

func firstError(ds []Diagnostic) string {
	for _, d := range ds {
		if d.Severity == SeverityError {
			return ": " + d.Code + " " + d.Message
		}
	}
	return ""
}

// CountList renders counts as "a 2, b 1", sorted by key.
func CountList(m map[string]int) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s %d", k, m[k])
	}
	return strings.Join(parts, ", ")
}

// failingCodes returns the sorted codes of a verification's breaking gaps
// nobody accepted.
func failingCodes(v *Verification) []string {
	seen := map[string]bool{}
	var out []string
	for _, sm := range v.Samples {
		if sm.Status == VerifyInconclusive {
			continue
		}
		for _, d := range sm.Differences {
			if d.Class == "breaking" && d.Accepted == "" && !seen[d.Code] {
				seen[d.Code] = true
				out = append(out, d.Code)
			}
		}
	}
	sort.Strings(out)
	return out
}

// Headline is the run's verdict in one line, for the top of every report:
// what was converted, what is wrong or not proven, and whether the change
// is safe to merge ("yes", "no", or "not proven"), as Result.Verdict
// decides.
func Headline(r *Result) string {
	v := r.Verdict()
	parts := []string{plural(r.Summary.ConvertedCompositions, "Composition") + " converted"}
	parts = append(parts, v.Blocking...)
	parts = append(parts, v.Unproven...)
	return strings.Join(parts, "; ") + ": safe to merge? " + v.Safe
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// ConverterWarnings returns the converter's warnings (C-codes) of every
// file, with File set, once each, in file and line order.
func (res *Result) ConverterWarnings() []Diagnostic {
	var out []Diagnostic
	seen := map[string]bool{}
	for _, f := range res.Files {
		for _, d := range f.Diagnostics {
			if d.Severity != SeverityWarning || !strings.HasPrefix(d.Code, "C") {
				continue
			}
			k := fmt.Sprintf("%s\x00%d\x00%s\x00%s", f.Path, d.Line, d.Code, d.Message)
			if seen[k] {
				continue
			}
			seen[k] = true
			d.File = f.Path
			out = append(out, d)
		}
	}
	return out
}
