package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/xpmigrate/xpmigrate/internal/testutil"
)

// TestPlanV2 runs plan v2 offline over the plan package's fixture: usage
// errors exit 2 before anything is read or written, a plan is written with
// its promise, a step check reads the export, and a plan that would
// recreate a managed resource exits 3.
func TestPlanV2(t *testing.T) {
	td := filepath.Join(testutil.RepoRoot(t), "convert", "migrate", "plan", "testdata")
	dir := t.TempDir()
	noExt := filepath.Join(dir, "noext.yaml")
	live, err := os.ReadFile(filepath.Join(td, "live.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(noExt, []byte(strings.Replace(string(live), "crossplane.io/external-name: orders-bucket-ext", "team: a", 1)), 0o600); err != nil {
		t.Fatal(err)
	}
	from := []string{"--from", filepath.Join(td, "platform.yaml"), "--from", filepath.Join(td, "live.yaml"),
		"--xr-naming", "new-group", "--xr-group", "v2.example.org", "--provider-crds", filepath.Join(td, "crds.yaml")}
	out := filepath.Join(dir, "move")
	cases := map[string]struct {
		reason     string
		args       []string
		wantCode   int
		wantOut    string
		wantStderr string
	}{
		"NoSource": {
			reason: "The legacy platform comes from --cluster or --from.", args: []string{"plan", "v2", "--out", out},
			wantCode: 2, wantStderr: "give the legacy platform: --cluster or --from",
		},
		"NoOut": {
			reason: "Without --check-step, --out is required.", args: append([]string{"plan", "v2"}, from...),
			wantCode: 2, wantStderr: "give the plan directory to write with --out DIR",
		},
		"FromWithCluster": {
			reason: "--from and --cluster exclude each other.", args: append([]string{"plan", "v2", "--cluster", "--out", out}, from...),
			wantCode: 2, wantStderr: "--from cannot be used with --cluster",
		},
		"CheckStepOutOfRange": {
			reason: "Steps are 1 to 5, and 6 checks completion.", args: append([]string{"plan", "v2", "--check-step", "7", "--plan", out}, from...),
			wantCode: 2, wantStderr: "--check-step must be between 1 and 6",
		},
		"CheckStepWithoutPlan": {
			reason: "--check-step reads a plan.", args: append([]string{"plan", "v2", "--check-step", "1"}, from...),
			wantCode: 2, wantStderr: "--check-step needs --plan DIR",
		},
		"V2WithXRScope": {
			reason: "--xr-scope converts on the fly: with --v2 it is a usage error.", args: append([]string{"plan", "v2", "--v2", dir, "--xr-scope", "cluster", "--out", out}, from...),
			wantCode: 2, wantStderr: "--xr-scope converts the definitions on the fly",
		},
		"Plans": {
			reason: "A plan is written and the output says that nothing was written to the cluster.", args: append([]string{"plan", "v2", "--out", out}, from...),
			wantCode: 0, wantOut: "xpmigrate wrote nothing to the cluster",
		},
		"RecreatedIsAnError": {
			reason: "A managed resource without an external name would be recreated: exit 3, named.",
			args: []string{"plan", "v2", "--out", filepath.Join(dir, "bad"), "--from", filepath.Join(td, "platform.yaml"), "--from", noExt,
				"--xr-naming", "new-group", "--xr-group", "v2.example.org", "--provider-crds", filepath.Join(td, "crds.yaml")},
			wantCode: 3, wantOut: "orders-abcde-bk2 (bucket) has no crossplane.io/external-name annotation",
		},
	}
	for _, name := range []string{"NoSource", "NoOut", "FromWithCluster", "CheckStepOutOfRange", "CheckStepWithoutPlan", "V2WithXRScope", "Plans", "RecreatedIsAnError"} {
		tc := cases[name]
		t.Run(name, func(t *testing.T) {
			code, stdout, stderr := runWithin(t, tc.args...)
			got := []any{code, strings.Contains(stdout, tc.wantOut), strings.Contains(stderr, tc.wantStderr)}
			if diff := cmp.Diff([]any{tc.wantCode, true, true}, got); diff != "" {
				t.Errorf("\n%s\nxpmigrate %s: exit code, stdout containing %q, stderr containing %q: -want, +got:\n%s\nstdout:\n%s\nstderr:\n%s", tc.reason, strings.Join(tc.args, " "), tc.wantOut, tc.wantStderr, diff, stdout, stderr)
			}
		})
	}
	t.Run("FromV2Output", func(t *testing.T) {
		v2 := filepath.Join(dir, "v2.yaml")
		if code, _, stderr := runWithin(t, "convert", "--target", "v2", "--xr-naming", "new-group", "--xr-group", "v2.example.org",
			"--provider-crds", filepath.Join(td, "crds.yaml"), "-o", v2, filepath.Join(td, "platform.yaml")); code != 0 {
			t.Fatalf("convert --target v2: exit %d\n%s", code, stderr)
		}
		code, stdout, stderr := runWithin(t, "plan", "v2", "--v2", v2, "--out", filepath.Join(dir, "fromv2"),
			"--from", filepath.Join(td, "platform.yaml"), "--from", filepath.Join(td, "live.yaml"))
		if code != 0 || !strings.Contains(stdout, "planned team-a/orders: XNopDB.example.org orders-abcde -> NopDB.v2.example.org team-a/orders, 2 managed resources") {
			t.Errorf("plan v2 --v2 (convert --target v2's output): want exit 0 and the XR planned, got %d\n%s%s", code, stdout, stderr)
		}
		// With --v2, --provider-crds validate the plan's objects and
		// --provider-config-kind names the kind of a twin's providerConfigRef
		// that the live object (the API server's {name: default}) and the
		// mapping leave without one (issue 25 item 1).
		code, stdout, stderr = runWithin(t, "plan", "v2", "--v2", v2, "--out", filepath.Join(dir, "fromv2pc"), "--provider-crds", filepath.Join(td, "crds.yaml"),
			"--provider-config-kind", "ProviderConfig", "--from", filepath.Join(td, "platform.yaml"), "--from", filepath.Join(td, "live.yaml"))
		adopt, _ := os.ReadFile(filepath.Join(dir, "fromv2pc", "team-a", "orders", "2-adopt.yaml"))
		if code != 0 || !strings.Contains(string(adopt), "providerConfigRef:\n    kind: ProviderConfig\n    name: default") {
			t.Errorf("plan v2 --v2 --provider-crds --provider-config-kind ProviderConfig: want exit 0 and the bucket twin's kind ProviderConfig, got %d\n%s%s\n%s", code, stdout, stderr, adopt)
		}
		code, _, stderr = runWithin(t, "plan", "v2", "--v2", filepath.Join(td, "platform.yaml"), "--out", filepath.Join(dir, "nov2"), "--from", filepath.Join(td, "live.yaml"))
		if code != 2 || !strings.Contains(stderr, "holds no Composition with the xpmigrate.io/v2-mapping annotation") {
			t.Errorf("plan v2 --v2 with legacy definitions: want exit 2, got %d\n%s", code, stderr)
		}
	})
	t.Run("CheckStep", func(t *testing.T) {
		args := []string{"plan", "v2", "--check-step", "1", "--plan", out, "--from", filepath.Join(td, "live.yaml")}
		if code, stdout, stderr := runWithin(t, args...); code != 0 || !strings.Contains(stdout, "ok      team-a/orders: step 1 allowed") {
			t.Errorf("step 1 on the export: want exit 0 and ok, got %d\n%s%s", code, stdout, stderr)
		}
		args[3] = "2"
		if code, stdout, _ := runWithin(t, args...); code != 3 || !strings.Contains(stdout, "is not paused (step 1)") {
			t.Errorf("step 2 on the export: want exit 3 with the reasons, got %d\n%s", code, stdout)
		}
	})
}
