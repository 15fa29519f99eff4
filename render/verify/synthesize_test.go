package verify

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/xpmigrate/xpmigrate/internal/jsonobj"
)

func TestSynthesize(t *testing.T) {
	cases := map[string]struct {
		reason string
		dir    string
		n      int
		// wantUnexercised are the patches no synthesized sample fired.
		wantUnexercised []string
	}{
		"AWSDatabase": {
			reason: "Every patch fires, metadata.uid and the configured spec.writeConnectionSecretToRef included.",
			dir:    "testdata/corpus/aws-database",
			n:      3,
		},
		"AWSNetwork": {
			reason: "A 470-line composition: every patch that reads the XR fires; ToComposite patches reading an external name only a provider sets do not.",
			dir:    "testdata/corpus/aws-network",
			n:      2,
			wantUnexercised: []string{
				"subnetPublicA/7 ToCompositeFieldPath metadata.annotations[crossplane.io/external-name]",
				"subnetPublicB/7 ToCompositeFieldPath metadata.annotations[crossplane.io/external-name]",
				"subnetPrivateA/6 ToCompositeFieldPath metadata.annotations[crossplane.io/external-name]",
				"subnetPrivateB/6 ToCompositeFieldPath metadata.annotations[crossplane.io/external-name]",
				"securityGroup/4 ToCompositeFieldPath metadata.annotations[crossplane.io/external-name]",
			},
		},
		"DocsEnvironment": {
			reason: "Environment patches fire from the EnvironmentConfig; the XR's required field is filled.",
			dir:    "testdata/corpus/docs-environment",
			n:      1,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			c := loadCase(t, tc.dir)
			samples, err := Synthesize(c.opts.XRD, c.legacy, tc.n)
			if err != nil {
				t.Fatalf("Synthesize(...): %v", err)
			}
			if len(samples) != tc.n {
				t.Fatalf("Synthesize(...): %d samples, want %d", len(samples), tc.n)
			}
			again, _ := Synthesize(c.opts.XRD, c.legacy, tc.n)
			if diff := cmp.Diff(samples, again); diff != "" {
				t.Errorf("Synthesize(...) is not deterministic: -first, +second:\n%s", diff)
			}
			r, err := Verify(context.Background(), c.legacy, c.converted, samples, c.opts)
			if err != nil {
				t.Fatalf("Verify(...): %v", err)
			}
			if r.Unexplained > 0 {
				t.Errorf("%s\nVerify(synthesized): unexplained differences:\n%s", tc.reason, strings.Join(summary(r), "\n"))
			}
			var got []string
			for _, p := range r.Unexercised {
				got = append(got, p.Resource+"/"+itoa(p.Index)+" "+p.Type+" "+p.From)
			}
			if diff := cmp.Diff(tc.wantUnexercised, got); diff != "" {
				t.Errorf("%s\nunexercised patches: -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}

func TestSynthesizeNeedsXRD(t *testing.T) {
	c := loadCase(t, "testdata/corpus/aws-network")
	if _, err := Synthesize(nil, c.legacy, 1); err == nil {
		t.Error("Synthesize(nil XRD): no error")
	}
}

func TestFindExamples(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	c := loadCase(t, "testdata/corpus/aws-database")
	write("repo/apis/composition.yaml", string(c.legacy.Data))
	write("repo/apis/definition.yaml", string(mustRead(t, "testdata/corpus/aws-database/xrd.yaml")))
	write("repo/examples/postgres-claim.yaml", string(mustRead(t, "testdata/corpus/aws-database/xr.yaml")))
	write("repo/examples/other.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n")
	write("elsewhere/examples/claim.yaml", string(mustRead(t, "testdata/corpus/aws-database/xr.yaml")))

	ex, err := FindExamples(os.DirFS(dir), "repo/apis", c.legacy, nil)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range ex.Samples {
		got = append(got, s.Name)
	}
	if diff := cmp.Diff([]string{"../examples/postgres-claim.yaml#1"}, got); diff != "" {
		t.Errorf("FindExamples(...): -want, +got:\n%s", diff)
	}
	if ex.XRD == nil || jsonobj.String(ex.XRD, "spec", "claimNames", "kind") != "SQLInstance" {
		t.Errorf("FindExamples(...): XRD %v, want the SQLInstance XRD", ex.XRD)
	}
}

func mustRead(t *testing.T, p string) []byte {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func itoa(i int) string { return strconv.Itoa(i) }
