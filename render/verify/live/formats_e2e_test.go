//go:build e2e

package live_test

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/xpmigrate/xpmigrate/internal/junit"
	"github.com/xpmigrate/xpmigrate/internal/kubetest"
	"github.com/xpmigrate/xpmigrate/internal/sarif"
)

// TestVerifyClusterFormats: every --format of verify --cluster carries the
// three checks on a real API server: the hand-edited Bucket's emulation
// difference (a warning, not a conversion failure), its drift (info), the
// conversion check; a missing permission; stdout holds only the report.
func TestVerifyClusterFormats(t *testing.T) {
	t.Parallel()
	cases := map[string]struct {
		reason string
		format string
		user   string
		args   []string
		check  func(t *testing.T, out []byte)
	}{
		"Markdown": {
			reason: "Markdown has the summary table, the emulation difference and the drift count.",
			format: "markdown", args: []string{"edited.yaml"},
			check: contains("| edited | emulation-differences | 3 | 0 | equivalent | 1 on 1 XR | 1 |",
				"### Emulation differences", "bucket (Bucket d-1-bucket) `spec.forProvider.size`: live `\"XXL\"`, rendered `\"S\"`", "### Drift (info)"),
		},
		"HTML": {
			reason: "HTML is one page with the cluster section and the emulation difference.",
			format: "html", args: []string{"edited.yaml"},
			check: contains("<!DOCTYPE html>", `<section id="cluster">`, "spec.forProvider.size", "</html>\n"),
		},
		"GitHub": {
			reason: "GitHub has the summary notice and the emulation difference as a warning.",
			format: "github", args: []string{"edited.yaml"},
			check: contains("::notice file=", "title=cluster%3A edited%3A XR d-1::emulation: bucket (Bucket d-1-bucket) spec.forProvider.size: live \"XXL\", rendered \"S\""),
		},
		"SARIFConversionDifferent": {
			reason: "SARIF of a differing conversion has error results of the conversion check on the large XRs only, and the summary.",
			format: "sarif", args: []string{"equiv.yaml", "--converted", "mutated.yaml"},
			check: func(t *testing.T, out []byte) {
				var log sarif.Log
				if err := json.Unmarshal(out, &log); err != nil {
					t.Fatalf("SARIF does not parse: %v\n%s", err, out)
				}
				errs, summaries := 0, 0
				for _, r := range log.Runs[0].Results {
					switch {
					case r.Level == "error":
						errs++
						if xr, _ := r.Properties["sample"].(string); equivSizeOf(xr) != "large" {
							t.Errorf("an error result on XR %q, which is not large: %s", xr, r.Message.Text)
						}
					case r.RuleID == "cluster-summary":
						summaries++
					}
				}
				if errs == 0 || summaries != 1 {
					t.Errorf("SARIF: %d errors, %d summaries; want errors and 1 summary", errs, summaries)
				}
			},
		},
		"JUnitMissingPermission": {
			reason: "JUnit of a user who may not read Secrets has a skipped case naming the permission.",
			format: "junit", args: []string{"equiv.yaml", "-n", "team-a"}, user: noSecrets,
			check: func(t *testing.T, out []byte) {
				var doc junit.Suites
				if err := xml.Unmarshal(out, &doc); err != nil {
					t.Fatalf("JUnit does not parse: %v\n%s", err, out)
				}
				found := false
				for _, c := range doc.Suites[0].Cases {
					if c.Name == "missing permissions" && c.Skipped != nil && strings.Contains(c.Skipped.Message, "get secrets") {
						found = true
					}
				}
				if !found || doc.Failures != 0 {
					t.Errorf("JUnit: missing-permission case %v, %d failures:\n%s", found, doc.Failures, out)
				}
			},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			user := tc.user
			if user == "" {
				user = kubetest.Reader
			}
			args := []string{"verify"}
			for _, a := range tc.args {
				if strings.HasSuffix(a, ".yaml") {
					a = filepath.Join(dir, a)
				}
				args = append(args, a)
			}
			args = append(args, "--cluster", "--kubeconfig", server.Kubeconfig(user), "--format", tc.format)
			cmd := exec.Command(bin, args...)
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			err := cmd.Run()
			if code := cmd.ProcessState.ExitCode(); code != 0 && code != 3 {
				t.Fatalf("%s\nxpmigrate %s: %v\n%s", tc.reason, strings.Join(args, " "), err, stderr.String())
			}
			tc.check(t, stdout.Bytes())
		})
	}
}

// equivSizeOf is equivSize of an XR named e-NN.
func equivSizeOf(xr string) string {
	var i int
	for _, c := range strings.TrimPrefix(xr, "e-") {
		if c < '0' || c > '9' {
			return ""
		}
		i = i*10 + int(c-'0')
	}
	return equivSize(i)
}

func contains(want ...string) func(t *testing.T, out []byte) {
	return func(t *testing.T, out []byte) {
		t.Helper()
		for _, w := range want {
			if !bytes.Contains(out, []byte(w)) {
				t.Errorf("no %q in:\n%s", w, out)
			}
		}
	}
}

// TestMigrateClusterFormats: migrate --cluster's report joins the run's
// SARIF output and its Markdown report file.
func TestMigrateClusterFormats(t *testing.T) {
	t.Parallel()
	repo := t.TempDir()
	for _, f := range []string{"equiv.yaml", "edited.yaml"} {
		b, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(repo, f), b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	md := filepath.Join(t.TempDir(), "report.md")
	cmd := exec.Command(bin, "migrate", "--dry-run", "--cluster", "--kubeconfig", server.Kubeconfig(kubetest.Reader), "--format", "sarif", "--report", md, repo)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("xpmigrate migrate --dry-run --cluster --format sarif: %v\nstdout:\n%s\nstderr:\n%s", err, stdout.String(), stderr.String())
	}
	var log sarif.Log
	if err := json.Unmarshal(stdout.Bytes(), &log); err != nil {
		t.Fatalf("stdout is not SARIF: %v\n%s", err, stdout.String())
	}
	summaries, emulation := map[string]string{}, 0
	for _, r := range log.Runs[0].Results {
		uri := r.Locations[0].PhysicalLocation.ArtifactLocation.URI
		switch r.RuleID {
		case "cluster-summary":
			summaries[r.Properties["composition"].(string)] = uri
		case "emulation-difference":
			emulation++
			if r.Level != "warning" || !strings.HasSuffix(uri, "edited.yaml") {
				t.Errorf("emulation difference %s at %s: %s", r.Level, uri, r.Message.Text)
			}
		}
	}
	if emulation != 1 || !strings.HasSuffix(summaries["equiv"], "equiv.yaml") || !strings.HasSuffix(summaries["edited"], "edited.yaml") {
		t.Errorf("SARIF: %d emulation differences, summaries at %v; want 1, at each Composition's file", emulation, summaries)
	}
	b, err := os.ReadFile(md)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"# xpmigrate migrate report", "\n## Cluster check\n", "| equiv | equivalent | 50 |", "### Composition `edited`"} {
		if !strings.Contains(string(b), want) {
			t.Errorf("Markdown report: no %q in:\n%s", want, b)
		}
	}
}
