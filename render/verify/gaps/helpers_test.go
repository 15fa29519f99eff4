package gaps_test

import (
	"github.com/xpmigrate/xpmigrate/render/verify"
)

// summary is a compact, comparable view of a report's differences:
// "aspect resource path: code (transient)" or "... UNEXPLAINED".
func summary(r *verify.Report) []string {
	var out []string
	for _, s := range r.Samples {
		for _, d := range s.Differences {
			line := string(d.Aspect)
			if d.Resource != "" {
				line += " " + d.Resource
			}
			if len(d.Path) > 0 {
				line += " " + d.Path.String()
			}
			line += ": "
			if d.Gap == nil {
				line += "UNEXPLAINED"
			} else {
				line += d.Gap.Code
			}
			if d.Transient {
				line += " (transient)"
			}
			out = append(out, line)
		}
	}
	return out
}

// A reworded error says something else than the engine's error it wraps.
type reworded struct{ err error }

func (e reworded) Error() string { return "the engine failed (reworded)" }
func (e reworded) Unwrap() error { return e.err }
