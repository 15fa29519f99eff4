package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestVerifyClusterFlags: misused --cluster flags are usage errors (exit
// 2) found before any cluster is contacted, and an unreadable kubeconfig
// is invalid input.
func TestVerifyClusterFlags(t *testing.T) {
	dir := t.TempDir()
	comp := filepath.Join(dir, "comp.yaml")
	if err := os.WriteFile(comp, []byte(migrateLegacy), 0o600); err != nil {
		t.Fatal(err)
	}
	cases := map[string]struct {
		reason     string
		args       []string
		wantCode   int
		wantStderr string
	}{
		"NamespaceWithoutCluster": {
			reason:     "-n filters live XRs: without --cluster it is a usage error.",
			args:       []string{"verify", comp, "-n", "team-a"},
			wantCode:   2,
			wantStderr: "--namespace needs --cluster",
		},
		"KubeconfigWithoutCluster": {
			reason:     "--kubeconfig without --cluster is a usage error.",
			args:       []string{"verify", comp, "--kubeconfig", "x"},
			wantCode:   2,
			wantStderr: "--kubeconfig needs --cluster",
		},
		"SamplesWithCluster": {
			reason:     "--cluster takes its samples from the cluster: --xr is a usage error.",
			args:       []string{"verify", comp, "--cluster", "--xr", comp},
			wantCode:   2,
			wantStderr: "--xr cannot be used with --cluster",
		},
		"ConcurrencyOutOfRange": {
			reason:     "--concurrency must be between 1 and 64.",
			args:       []string{"verify", comp, "--cluster", "--concurrency", "0"},
			wantCode:   2,
			wantStderr: "--concurrency must be between 1 and 64",
		},
		"QPSOutOfRange": {
			reason:     "--qps must be positive.",
			args:       []string{"verify", comp, "--cluster", "--qps", "0"},
			wantCode:   2,
			wantStderr: "--qps must be between 1 and 10000",
		},
		"FromClusterWithoutCluster": {
			reason:     "--from-cluster reads the Compositions from the cluster: without --cluster it is a usage error.",
			args:       []string{"verify", "--from-cluster", "equiv"},
			wantCode:   2,
			wantStderr: "--from-cluster needs --cluster",
		},
		"FromClusterWithFile": {
			reason:     "--from-cluster takes Composition names: a Composition file is a usage error.",
			args:       []string{"verify", comp, "--cluster", "--from-cluster"},
			wantCode:   2,
			wantStderr: "its arguments name Compositions, not files",
		},
		"FromClusterWithYAMLName": {
			reason:     "An argument ending in .yaml is a file, even one that does not exist.",
			args:       []string{"verify", "comp.yaml", "--cluster", "--from-cluster"},
			wantCode:   2,
			wantStderr: "its arguments name Compositions, not files",
		},
		"FromClusterWithConverted": {
			reason:     "--from-cluster converts each Composition on the fly: --converted is a usage error.",
			args:       []string{"verify", "--cluster", "--from-cluster", "--converted", comp},
			wantCode:   2,
			wantStderr: "--converted cannot be used with --from-cluster",
		},
		"FromClusterWithSamples": {
			reason:     "--from-cluster takes its samples from the cluster like --cluster: --xr is a usage error.",
			args:       []string{"verify", "--cluster", "--from-cluster", "--xr", comp},
			wantCode:   2,
			wantStderr: "--xr cannot be used with --cluster",
		},
		"FromClusterMissingKubeconfig": {
			reason:     "A kubeconfig that does not exist is invalid input with --from-cluster too.",
			args:       []string{"verify", "--cluster", "--from-cluster", "--kubeconfig", filepath.Join(dir, "nope")},
			wantCode:   2,
			wantStderr: "cannot load the kubeconfig",
		},
		"NoArgumentWithoutFromCluster": {
			reason:     "Without --from-cluster the legacy Composition file is required.",
			args:       []string{"verify", "--cluster"},
			wantCode:   2,
			wantStderr: "verify takes 1 argument",
		},
		"MarkdownWithoutCluster": {
			reason:     "Markdown is a format of the cluster report: without --cluster it is a usage error.",
			args:       []string{"verify", comp, "--format", "markdown"},
			wantCode:   2,
			wantStderr: "--format markdown needs --cluster",
		},
		"HTMLWithoutCluster": {
			reason:     "HTML is a format of the cluster report: without --cluster it is a usage error.",
			args:       []string{"verify", comp, "--format", "html"},
			wantCode:   2,
			wantStderr: "--format html needs --cluster",
		},
		"HTMLWithCluster": {
			reason:     "With --cluster, --format html is accepted: the run gets as far as the kubeconfig.",
			args:       []string{"verify", comp, "--cluster", "--format", "html", "--kubeconfig", filepath.Join(dir, "nope")},
			wantCode:   2,
			wantStderr: "cannot load the kubeconfig",
		},
		"MissingKubeconfig": {
			reason:     "A kubeconfig that does not exist is invalid input.",
			args:       []string{"verify", comp, "--cluster", "--kubeconfig", filepath.Join(dir, "nope")},
			wantCode:   2,
			wantStderr: "cannot load the kubeconfig",
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			code, _, stderr := runWithin(t, tc.args...)
			got := []any{code, strings.Contains(stderr, tc.wantStderr)}
			if diff := cmp.Diff([]any{tc.wantCode, true}, got); diff != "" {
				t.Errorf("\n%s\nxpmigrate %s: exit code and stderr containing %q: -want, +got:\n%s\nstderr:\n%s", tc.reason, strings.Join(tc.args, " "), tc.wantStderr, diff, stderr)
			}
		})
	}
}
