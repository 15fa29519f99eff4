package convert

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/xpmigrate/xpmigrate/internal/errkind"
)

func TestReadProviderCRDs(t *testing.T) {
	dir := t.TempDir()
	const crd = "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nspec:\n  group: s3.aws.m.upbound.io\n"
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o750); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	write("crds/a.yaml", crd)
	write("crds/sub/b.yml", crd+"---\napiVersion: v1\nkind: ConfigMap\n")
	write("crds/README.md", "not read")
	one := write("one.yaml", crd)
	none := write("none.yaml", "apiVersion: v1\nkind: ConfigMap\n")
	bad := write("bad.yaml", "a: [")

	cases := map[string]struct {
		reason    string
		paths     []string
		want      int
		wantInput bool
	}{
		"Directory": {
			reason: "A directory's YAML files are read, in subdirectories too; other objects and files are skipped.",
			paths:  []string{filepath.Join(dir, "crds")},
			want:   2,
		},
		"FilesAndDirectories": {
			reason: "The flag repeats.",
			paths:  []string{one, filepath.Join(dir, "crds")},
			want:   3,
		},
		"NoCRD": {
			reason:    "A path without a CRD is a mistake the user must hear of.",
			paths:     []string{none},
			wantInput: true,
		},
		"Missing": {
			reason:    "A path that does not exist is invalid input.",
			paths:     []string{filepath.Join(dir, "absent")},
			wantInput: true,
		},
		"NotYAML": {
			reason:    "A file that is not YAML is invalid input.",
			paths:     []string{bad},
			wantInput: true,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, err := ReadProviderCRDs(tc.paths)
			if errkind.IsInvalidInput(err) != tc.wantInput {
				t.Fatalf("\n%s\nReadProviderCRDs(...): want invalid input %v, got %v", tc.reason, tc.wantInput, err)
			}
			if diff := cmp.Diff(tc.want, len(got)); diff != "" {
				t.Errorf("\n%s\nReadProviderCRDs(...): -want CRDs, +got:\n%s", tc.reason, diff)
			}
		})
	}
}
