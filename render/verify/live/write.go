package live

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"

	"github.com/pkg/errors"

	"github.com/xpmigrate/xpmigrate/internal/logsafe"
	"github.com/xpmigrate/xpmigrate/render/verify/format"
)

// maxFindings bounds the findings of one kind that text, Markdown, HTML,
// JUnit and GitHub output list per XR (JSON and SARIF list every one)
// without Verbose.
const maxFindings = 5

// Write writes reports in a format: text and JSON carry the three checks;
// JUnit, SARIF and GitHub carry the conversion check (verify's formats).
// Every format is deterministic.
func Write(w io.Writer, reports []*Report, o format.Options) error {
	var b bytes.Buffer
	switch o.Format {
	case format.Text, "":
		for _, r := range reports {
			if err := writeText(&b, r, o); err != nil {
				return err
			}
		}
	case format.JSON:
		var v any = reports
		if len(reports) == 1 {
			v = reports[0]
		}
		enc := json.NewEncoder(&b)
		enc.SetIndent("", "  ")
		if err := enc.Encode(v); err != nil {
			return errors.Wrap(err, "cannot encode the report")
		}
	default:
		for _, r := range reports {
			if err := format.Write(&b, r.Conversion, o); err != nil {
				return err
			}
		}
	}
	_, err := w.Write(b.Bytes())
	return err
}

// WriteList is Write, but JSON is a list of reports even for one (Write
// writes a lone report as an object): `verify --from-cluster` writes a
// list, however many Compositions the cluster holds.
func WriteList(w io.Writer, reports []*Report, o format.Options) error {
	if o.Format != format.JSON {
		return Write(w, reports, o)
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	if reports == nil {
		reports = []*Report{}
	}
	if err := enc.Encode(reports); err != nil {
		return errors.Wrap(err, "cannot encode the report")
	}
	_, err := w.Write(b.Bytes())
	return err
}

func writeText(w io.Writer, r *Report, o format.Options) error {
	if r.Verdict == NotChecked {
		logsafe.Fprintf(w, "FAIL %s: not checked against the cluster: %s\n", r.Composition, r.Error)
		return nil
	}
	label := "PASS"
	switch {
	case r.Fails(false):
		label = "FAIL"
	case r.Verdict != Equivalent:
		label = "WARN"
	}
	logsafe.Fprintf(w, "%s %s: %s against the cluster: %d XRs", label, r.Composition, r.Verdict, r.XRs)
	if r.Pinned > 0 {
		logsafe.Fprintf(w, " (%d pinned to another CompositionRevision)", r.Pinned)
	}
	logsafe.Fprintf(w, "; conversion %s; %d emulation differences on %d XRs; %d drifted fields (info)\n",
		r.Conversion.Verdict, r.Emulation, r.EmulationXRs, r.Drift)
	for _, m := range r.Missing {
		logsafe.Fprintf(w, "WARN missing permission: %s (not checked)\n", m)
	}
	for _, x := range r.Composites {
		if len(x.Emulation) == 0 && x.EmulationError == "" && len(x.Notes) == 0 && (len(x.Drift) == 0 || !o.Verbose) {
			continue
		}
		logsafe.Fprintf(w, "XR %s", x.Name)
		if x.Claim != "" {
			logsafe.Fprintf(w, " (claim %s)", x.Claim)
		}
		if x.Pinned {
			logsafe.Fprintf(w, " pinned to %s", x.Revision)
		}
		logsafe.Fprintf(w, ": conversion %s\n", x.Conversion)
		for _, n := range x.Notes {
			logsafe.Fprintf(w, "  note: %s\n", n)
		}
		if x.EmulationError != "" {
			logsafe.Fprintf(w, "  emulation: the legacy render failed: %s\n", x.EmulationError)
		}
		list(w, "emulation", x.Emulation, o.Verbose)
		list(w, "drift (info)", x.Drift, o.Verbose)
	}
	if r.Unlisted > 0 {
		// The XRs beyond Options.Detailed: their findings by object and
		// path, with how many XRs each.
		logsafe.Fprintf(w, "%d more XRs with findings not listed; every XR's findings by object and path:\n", r.Unlisted)
		for _, t := range r.EmulationFindings {
			logsafe.Fprintf(w, "  emulation: %s\n", t)
		}
		for _, t := range r.DriftFindings {
			logsafe.Fprintf(w, "  drift (info): %s\n", t)
		}
	}
	fmt.Fprintln(w, "conversion check:")
	var b bytes.Buffer
	if err := format.Write(&b, r.Conversion, format.Options{Format: format.Text, Verbose: o.Verbose}); err != nil {
		return err
	}
	for _, line := range bytes.SplitAfter(b.Bytes(), []byte("\n")) {
		if len(line) > 0 {
			fmt.Fprintf(w, "  %s", line)
		}
	}
	return nil
}

func list(w io.Writer, what string, fs []Finding, verbose bool) {
	for i, f := range fs {
		if i == maxFindings && !verbose {
			logsafe.Fprintf(w, "  %s: %d more (--verbose lists them)\n", what, len(fs)-i)
			return
		}
		logsafe.Fprintf(w, "  %s: %s\n", what, f)
	}
}
