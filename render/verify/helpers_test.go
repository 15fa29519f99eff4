package verify

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"testing"

	"github.com/xpmigrate/xpmigrate/internal/manifest"
)

// objects decodes a YAML stream.
func objects(t testing.TB, s string) []map[string]any {
	t.Helper()
	docs, err := manifest.LoadStream(strings.NewReader(s), "test")
	if err != nil {
		t.Fatal(err)
	}
	return manifest.Objects(docs)
}

// verifyYAML runs Verify on inline YAML.
func verifyYAML(t testing.TB, legacy, converted, xrs string, o Options) *Report {
	t.Helper()
	var samples []Sample
	for i, xr := range objects(t, xrs) {
		samples = append(samples, Sample{Name: fmt.Sprintf("xr-%d", i), XR: xr})
	}
	r, err := Verify(context.Background(), Document{Path: "legacy.yaml", Data: []byte(legacy)}, Document{Path: "converted.yaml", Data: []byte(converted)}, samples, o)
	if err != nil {
		t.Fatalf("Verify(...): %v", err)
	}
	return r
}

// summary is a compact, comparable view of a report's differences:
// "aspect resource path: code (transient)" or "... UNEXPLAINED".
func summary(r *Report) []string {
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

func dump(t testing.TB, r *Report) {
	t.Helper()
	b, _ := json.MarshalIndent(r, "", "  ")
	t.Log(string(b))
}

// readFile reads a test file.
func readFile(t testing.TB, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// readFileIfExists reads a test file, or returns nil when it does not exist.
func readFileIfExists(t testing.TB, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// valueOf returns a difference's value, nil when it is absent.
func valueOf(v *Value) any {
	if v == nil {
		return nil
	}
	return v.V
}

// A reworded error says something else than the engine's error it wraps.
type reworded struct{ err error }

func (e reworded) Error() string { return "the engine failed (reworded)" }
func (e reworded) Unwrap() error { return e.err }
