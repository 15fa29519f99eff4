package docgen

import (
	"fmt"
	"strings"
)

// GapsFile is the name of the known-gaps reference page.
const GapsFile = "gaps.md"

// A Gap is one code of verify's difference catalogue (D-codes).
type Gap struct {
	Code, Title string

	// Class is breaking or benign; Classes says when it depends on what
	// differs.
	Class, Classes string

	// Detected is true when verify recognises the gap in renders; Why
	// says otherwise why it never shows up.
	Detected bool
	Why      string
}

// An Intended is one of the converter's opt-in quirk fixes that verify
// reports as an intended change.
type Intended struct {
	Code, Title, Fixes string
}

// Gaps is verify's catalogue for the reference: the known gaps and the
// intended changes. The zero value writes no page.
type Gaps struct {
	Gaps     []Gap
	Intended []Intended
}

func gapsPage(g Gaps) []byte {
	var b strings.Builder
	b.WriteString(Marker + "\n\n")
	b.WriteString("# Verdicts and known gaps\n\n")
	b.WriteString("`xpmigrate verify` (and `xpmigrate migrate`, which verifies every conversion)\n")
	b.WriteString("gives each sample XR one verdict:\n\n")
	b.WriteString("| Verdict | Meaning | Fails the run |\n|---|---|---|\n")
	b.WriteString("| `equivalent` | both Compositions compose the same, up to benign gaps (shown as info) | no |\n")
	b.WriteString("| `equivalent-up-to-mapping` | `--target v2` with a v2-native Composition (annotation `xpmigrate.io/v2-mapping`): the legacy render, mapped through the edits the converter declared and Crossplane v2's composer rules (C480–C485), is what the v2 XR twin renders; every field the mapping changed is listed under its C-code (class `mapped`) | no |\n")
	b.WriteString("| `intended-change` | the only other differences are legacy quirks the converter fixed because you asked it to (codes below) | no |\n")
	b.WriteString("| `known-gaps` | a breaking known gap: the steady state differs in a way xpmigrate understands | yes, unless every breaking code is accepted |\n")
	b.WriteString("| `different` | a difference nothing explains: a bug in the conversion | always |\n")
	b.WriteString("| `inconclusive` | both sides failed to render the sample: nothing was proven; the report shows both errors and the input that is probably missing | only with `--require-verified` |\n\n")
	b.WriteString("A Composition takes the worst verdict of its conclusive samples, or is\n")
	b.WriteString("`unverified` when none was conclusive (no samples, or all inconclusive), which\n")
	b.WriteString("fails only with `--require-verified`, the setting for CI.\n\n")
	b.WriteString("A gap is **breaking** when the steady-state outcome differs (an XR that never\n")
	b.WriteString("becomes Ready, a wrong value, a resource that is never created, a reconcile\n")
	b.WriteString("that fails on one side only) and **benign** when it is a lag that the next\n")
	b.WriteString("reconcile catches up on, or bookkeeping that nothing reads. A difference that\n")
	b.WriteString("vanishes by the last reconcile is always benign. Accept a breaking code once a\n")
	b.WriteString("person has decided it does not matter: `--accept D21,D30` on the command line,\n")
	b.WriteString("or in the repository with the annotation `xpmigrate.io/accept-gaps: \"D21,D30\"`\n")
	b.WriteString("on the legacy or the converted Composition. `--strict` fails on every known\n")
	b.WriteString("gap that persists, accepted or benign.\n\n")
	b.WriteString("With `--target v2` and a v2-native Composition (annotation `xpmigrate.io/v2-mapping`,\n")
	b.WriteString("written by `convert --target v2`), a difference the declared mapping explains is of\n")
	b.WriteString("class **mapped**: its code is the C-code of the edit (or of one of verify's v2 composer\n")
	b.WriteString("rules, C480–C485, in the diagnostics reference). Mapped differences never fail, not even\n")
	b.WriteString("with `--strict`; the report lists the codes the mapping applied.\n\n")
	b.WriteString("This page is generated from verify's catalogue (`verify.GapCodes`); a test\n")
	b.WriteString("keeps the catalogue in step with verify's rules.\n\n")

	b.WriteString("## Known gaps\n\n| Code | Class | What differs | Recognised in renders |\n|---|---|---|---|\n")
	for _, c := range g.Gaps {
		class := c.Class
		if c.Classes != "" {
			class += " (" + c.Classes + ")"
		}
		seen := "yes"
		if !c.Detected {
			seen = "never shows up: " + c.Why
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", c.Code, tableCell(class), tableCell(c.Title), tableCell(seen))
	}
	b.WriteString("\n## Intended changes\n\n")
	b.WriteString("Legacy quirks the converter fixes only when asked (`xpmigrate convert --fix-quirk CODE`).\n")
	b.WriteString("The converted Composition then declares the code in its annotation\n")
	b.WriteString("`xpmigrate.io/intended-changes`, and verify reports the differences it causes as\n")
	b.WriteString("intended changes, never as unexplained and never as equivalent.\n\n")
	b.WriteString("| Code | What changes | Legacy behaviour it changes |\n|---|---|---|\n")
	for _, c := range g.Intended {
		fmt.Fprintf(&b, "| %s | %s | %s |\n", c.Code, tableCell(c.Title), c.Fixes)
	}
	return []byte(b.String())
}
