package plan

import (
	"strings"
	"testing"
)

// TestWriteUpgradeTextEscapes feeds the upgrade report names no API
// server would accept but an export or a hostile proxy could hold: each
// stays on its line and sends no terminal sequence or workflow command.
func TestWriteUpgradeTextEscapes(t *testing.T) {
	cases := map[string]struct {
		reason string
		name   string
	}{
		"Newline":         {reason: "A newline would start a line of its own.", name: "x\n::error::pwned"},
		"TerminalEscape":  {reason: "An escape sequence would drive the terminal.", name: "x\x1b]0;title\x07"},
		"CarriageReturn":  {reason: "A carriage return would overwrite the line.", name: "x\rREADY"},
		"WorkflowCommand": {reason: "A workflow command at a line's start would run in CI.", name: "::add-mask::x"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			rep := &UpgradeReport{Compositions: 1, XRs: 1, Findings: []UpgradeFinding{{
				Code: CodeLegacyComposition, Composition: tc.name, Message: "m",
				XRs: []UpgradeXR{{Kind: tc.name, Name: tc.name, Namespace: tc.name, Claim: tc.name, Revision: tc.name, Composed: 1}},
			}}}
			var b strings.Builder
			if err := WriteUpgradeText(&b, rep); err != nil {
				t.Fatal(err)
			}
			out := b.String()
			if strings.ContainsAny(out, "\x1b\x07\r") {
				t.Errorf("%s\nWriteUpgradeText() wrote a control character:\n%q", tc.reason, out)
			}
			for _, line := range strings.Split(out, "\n") {
				if strings.HasPrefix(line, "::") || line == "READY" {
					t.Errorf("%s\nWriteUpgradeText() wrote a line that is the name's: %q", tc.reason, line)
				}
			}
		})
	}
}
