package format

import (
	"bytes"
	"strings"
	"testing"

	"github.com/xpmigrate/xpmigrate/internal/logsafe"
	"github.com/xpmigrate/xpmigrate/render/verify"
)

// controls is a name with every kind of character a terminal or a CI log
// interprets.
const controls = "n\n::set-output name=x::y\x1b[31m\r\u2028\u009b\x9b\x7f"

// TestTextEscapes (issue 23 item 8b): verify's text report, coloured or
// not, and its GitHub workflow commands show the controls in names and
// messages escaped: no raw control character but the report's own colours,
// no line a name starts, no line that starts with "::" but the workflow
// commands.
func TestTextEscapes(t *testing.T) {
	r := reportFixture(t)
	r.Composition, r.Legacy, r.Converted = controls, controls, controls
	for i := range r.Samples {
		s := &r.Samples[i]
		s.Sample = controls
		for j := range s.Differences {
			d := &s.Differences[j]
			d.Resource = controls
			d.Legacy = &verify.Value{V: controls}
			if d.Gap != nil {
				d.Gap.Detail, d.Gap.Fix = controls, controls
			}
		}
	}
	colours := strings.NewReplacer(ansiReset, "", ansiBold, "", ansiRed, "", ansiGreen, "", ansiYellow, "", ansiCyan, "")
	for name, o := range map[string]Options{
		"Text":        {Format: Text},
		"TextVerbose": {Format: Text, Verbose: true},
		"TextColour":  {Format: Text, TTY: true, Verbose: true},
		"GitHub":      {Format: GitHub},
	} {
		t.Run(name, func(t *testing.T) {
			var b bytes.Buffer
			if err := Write(&b, r, o); err != nil {
				t.Fatal(err)
			}
			for i, line := range strings.Split(b.String(), "\n") {
				line = colours.Replace(line)
				if o.Format == GitHub {
					line = strings.TrimPrefix(line, "::")
				}
				if logsafe.Unsafe(line) {
					t.Errorf("Write(%s): line %d is not escaped: %q", name, i+1, line)
				}
			}
			if want := `n\n::set-output name=x::y\x1b[31m\r\u2028\u009b\x9b\x7f`; o.Format == Text && !strings.Contains(b.String(), want) {
				t.Errorf("Write(%s): the name is not shown escaped (%s):\n%s", name, want, b.String())
			}
		})
	}
}
