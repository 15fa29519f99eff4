//go:build e2e

package plan

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pkg/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/yaml"

	"github.com/xpmigrate/xpmigrate/internal/jsonobj"
	"github.com/xpmigrate/xpmigrate/internal/kubetest"
	"github.com/xpmigrate/xpmigrate/internal/manifest"
	"github.com/xpmigrate/xpmigrate/internal/testutil"
)

// TestE2ECheckStepMatchesApply: issue 25 item 1, on a real API server with
// managed resource CRDs typed as Upbound's (testdata/crds.yaml). A managed
// resource whose template set no providerConfigRef carries the API
// server's {name: default}: after step 1, step 2 is accepted by a
// server-side apply, and --check-step 2 refuses exactly the 2-adopt.yaml
// the API server refuses (a twin planted without providerConfigRef.kind,
// or with a management policy outside the enum), naming the field.
func TestE2ECheckStepMatchesApply(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	bin, err := testutil.BuildXpmigrate(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	s, err := kubetest.Start(ctx, kubetest.Options{})
	if err != nil {
		t.Fatalf("kubetest: %v", err)
	}
	defer func() {
		if err := s.Stop(); err != nil {
			t.Error(err)
		}
	}()
	if err := s.InstallCrossplaneV2CRDs(ctx); err != nil {
		t.Fatal(err)
	}
	seedLegacy(ctx, t, s, 1)
	out := filepath.Join(t.TempDir(), "move")
	ro := []string{"--cluster", "--kubeconfig", s.Kubeconfig(kubetest.Reader)}
	runBinary(ctx, t, bin, 0, append([]string{"plan", "v2", "--out", out, "--xr-naming", "new-group", "--xr-group", "v2.example.org", "--provider-crds", "testdata/crds.yaml"}, ro...)...)
	p, err := Load(out)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.XRs) != 1 || p.Failed() {
		t.Fatalf("plan: want 1 XR without errors, got %d (failed %v)", len(p.XRs), p.Failed())
	}
	x := p.XRs[0]
	defs, err := manifest.LoadFile(filepath.Join(out, "definitions.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range manifest.Objects(defs) {
		if err := s.Create(ctx, &unstructured.Unstructured{Object: o}); err != nil {
			t.Fatalf("apply definitions.yaml: %v", err)
		}
		if o["kind"] == "CompositeResourceDefinition" {
			crd, err := kubetest.CompositeCRDV2(&unstructured.Unstructured{Object: o})
			if err != nil {
				t.Fatal(err)
			}
			if err := s.InstallCRDs(ctx, crd); err != nil {
				t.Fatal(err)
			}
		}
	}
	dyn, mapper, err := s.Client(kubetest.Admin)
	if err != nil {
		t.Fatal(err)
	}
	op := &operator{t: t, ctx: ctx, dyn: dyn, mapper: mapper, dir: out, fm: p.FieldManager}
	check := func(n int) (int, string) {
		t.Helper()
		args := append([]string{"plan", "v2", "--check-step", fmt.Sprint(n), "--plan", out, "--xr", x.Dir}, ro...)
		var stdout, stderr bytes.Buffer
		cmd := exec.CommandContext(ctx, bin, args...)
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		var ee *exec.ExitError
		switch {
		case err == nil:
			return 0, stdout.String()
		case errors.As(err, &ee) && ee.ExitCode() == 3:
			return 3, stdout.String()
		}
		t.Fatalf("xpmigrate %s: %v\n%s%s", strings.Join(args, " "), err, stdout.String(), stderr.String())
		return 0, ""
	}

	if code, o := check(StepProtect); code != 0 {
		t.Fatalf("step 1: want allowed, got\n%s", o)
	}
	op.step(x, x.Steps[StepProtect-1])

	adoptFile := x.file(StepAdopt, "adopt")
	adopt := filepath.Join(out, filepath.FromSlash(adoptFile))
	original, err := os.ReadFile(adopt)
	if err != nil {
		t.Fatal(err)
	}
	plant := func(edit func(twin map[string]any)) []byte {
		docs, err := manifest.LoadFile(adopt)
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		for i, o := range manifest.Objects(docs) {
			if jsonobj.String(o, "metadata", "annotations", "crossplane.io/composition-resource-name") == "bucket" {
				edit(o)
			}
			y, err := yaml.Marshal(o)
			if err != nil {
				t.Fatal(err)
			}
			if i > 0 {
				b.WriteString("---\n")
			}
			b.Write(y)
		}
		return []byte(b.String())
	}
	cases := map[string]struct {
		reason string
		file   []byte
		want   string // a reason of the check and of the API server; empty: both accept
	}{
		"AsPlanned": {
			reason: "The planned twins carry providerConfigRef.kind: the API server accepts them and the check allows the step.",
			file:   original,
		},
		"NoProviderConfigKind": {
			reason: "A twin with the live {name: default} and no kind: the API server refuses it, and so does the check.",
			file: plant(func(twin map[string]any) {
				delete(jsonobj.Value(twin, "spec", "providerConfigRef").(map[string]any), "kind")
			}),
			want: "spec.providerConfigRef.kind: Required value",
		},
		"BadManagementPolicy": {
			reason: "A management policy outside the enum: refused by both.",
			file: plant(func(twin map[string]any) {
				twin["spec"].(map[string]any)["managementPolicies"] = []any{"Observe", "Orphan"}
			}),
			want: `spec.managementPolicies[1]: Unsupported value: "Orphan"`,
		},
	}
	for _, name := range []string{"NoProviderConfigKind", "BadManagementPolicy", "AsPlanned"} {
		tc := cases[name]
		t.Run(name, func(t *testing.T) {
			if err := os.WriteFile(adopt, tc.file, 0o600); err != nil {
				t.Fatal(err)
			}
			code, got := check(StepAdopt)
			var refused []string
			for _, o := range op.file(adoptFile) {
				_, err := op.client(o).Apply(ctx, refOf(o).Name, &unstructured.Unstructured{Object: o},
					metav1.ApplyOptions{FieldManager: p.FieldManager + "-step2", Force: true, DryRun: []string{metav1.DryRunAll}})
				if err != nil {
					refused = append(refused, err.Error())
				}
			}
			if (code == 0) != (len(refused) == 0) {
				t.Fatalf("\n%s\ncheck step 2 exit %d, the API server refused %d objects (%v); want both to agree\n%s", tc.reason, code, len(refused), refused, got)
			}
			if tc.want == "" {
				if code != 0 {
					t.Fatalf("\n%s\ncheck step 2: want allowed, got\n%s", tc.reason, got)
				}
				return
			}
			if !strings.Contains(got, tc.want) || len(refused) != 1 || !strings.Contains(refused[0], tc.want) {
				t.Errorf("\n%s\nwant the check and the API server to name %q:\ncheck:\n%s\nAPI server: %v", tc.reason, tc.want, got, refused)
			}
		})
	}

	// As planned, steps 2 and 3 are applied server-side and accepted.
	if err := os.WriteFile(adopt, original, 0o600); err != nil {
		t.Fatal(err)
	}
	op.step(x, x.Steps[StepAdopt-1])
	op.safe(x, StepAdopt)
	if code, o := check(StepResume); code != 0 {
		t.Fatalf("step 3: want allowed, got\n%s", o)
	}
	op.step(x, x.Steps[StepResume-1])
	op.safe(x, StepResume)
	for _, r := range x.Resources {
		twin := op.get(r.Twin)
		if k := jsonobj.String(twin, "spec", "providerConfigRef", "kind"); k != "ClusterProviderConfig" {
			t.Errorf("%s: providerConfigRef.kind %q, want ClusterProviderConfig", r.Twin, k)
		}
	}
}
