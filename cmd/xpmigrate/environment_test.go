package main

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
)

const (
	envLegacy = `apiVersion: apiextensions.crossplane.io/v1
kind: Composition
metadata:
  name: things
spec:
  compositeTypeRef:
    apiVersion: example.org/v1
    kind: XThing
  environment:
    environmentConfigs:
    - type: Selector
      selector:
        mode: Single
        matchLabels:
        - key: env
          type: Value
          value: prod
  resources:
  - name: bucket
    base:
      apiVersion: s3.example.org/v1
      kind: Bucket
      spec: {}
    patches:
    - type: FromEnvironmentFieldPath
      fromFieldPath: region
      toFieldPath: spec.forProvider.region
`
	envV1Alpha1 = `apiVersion: apiextensions.crossplane.io/v1alpha1
kind: EnvironmentConfig
metadata:
  name: prod
  labels:
    env: prod
data:
  region: eu-west-1
`
)

// TestEnvironmentConfigVersionsCommand runs render and verify with one
// EnvironmentConfig given in both served API versions, as `kubectl get` of
// each version prints it: the real engines render, and so do they. Copies
// that differ are invalid input naming both files.
func TestEnvironmentConfigVersionsCommand(t *testing.T) {
	v1beta1 := strings.Replace(envV1Alpha1, "v1alpha1", "v1beta1", 1)
	dir := writeFiles(t, map[string]string{
		"xr.yaml":              testXR,
		"legacy.yaml":          envLegacy,
		"envs/a-v1alpha1.yaml": envV1Alpha1,
		"envs/b-v1beta1.yaml":  v1beta1,
		"both.yaml":            envV1Alpha1 + "---\n" + v1beta1,
		"conflict/a.yaml":      envV1Alpha1,
		"conflict/b.yaml":      "apiVersion: v1\nkind: Secret\nmetadata:\n  name: s\n  namespace: ns\n---\n" + strings.Replace(v1beta1, "eu-west-1", "us-east-1", 1),
		"samples/xr.yaml":      testXR + "---\n" + envV1Alpha1,
	})
	p := func(n string) string { return filepath.Join(dir, n) }
	conflict := `EnvironmentConfig "prod" is given twice with different content: ` + p("conflict/a.yaml") + ` document 1 and ` + p("conflict/b.yaml") + ` document 2`

	cases := map[string]struct {
		reason   string
		args     []string
		wantCode int
		wantOut  string
		wantErr  string
	}{
		"RenderDirectoryOfBothVersions": {
			reason:   "render: a directory holding the object at v1alpha1 and v1beta1 is one EnvironmentConfig.",
			args:     []string{"render", p("xr.yaml"), p("legacy.yaml"), "-e", p("envs")},
			wantCode: exitOK,
			wantOut:  "region: eu-west-1",
		},
		"RenderOneFileOfBothVersions": {
			reason:   "render: one file holding both versions is one EnvironmentConfig.",
			args:     []string{"render", p("xr.yaml"), p("legacy.yaml"), "-e", p("both.yaml")},
			wantCode: exitOK,
			wantOut:  "region: eu-west-1",
		},
		"RenderConflict": {
			reason:   "render: two objects of one name with different data are refused, naming both files and documents.",
			args:     []string{"render", p("xr.yaml"), p("legacy.yaml"), "-e", p("conflict")},
			wantCode: exitInvalid,
			wantErr:  conflict,
		},
		"VerifyBothVersions": {
			reason:   "verify: both versions verify without an unexplained difference (both engines see one object).",
			args:     []string{"verify", p("legacy.yaml"), "--xr", p("xr.yaml"), "-e", p("envs")},
			wantCode: exitOK,
			wantOut:  "1 sample (1 equivalent); 0 unexplained",
		},
		"VerifyCopiesBesideSamplesAndExtra": {
			reason:   "verify: a v1alpha1 copy beside the samples and a v1beta1 copy from -e are one object.",
			args:     []string{"verify", p("legacy.yaml"), "--xr", p("samples/xr.yaml"), "-e", p("envs/b-v1beta1.yaml")},
			wantCode: exitOK,
			wantOut:  "1 sample (1 equivalent); 0 unexplained",
		},
		"VerifyConflict": {
			reason:   "verify: a conflict is invalid input naming both files and documents.",
			args:     []string{"verify", p("legacy.yaml"), "--xr", p("xr.yaml"), "-e", p("conflict")},
			wantCode: exitInvalid,
			wantErr:  conflict,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			code := run(tc.args, streams{In: strings.NewReader(""), Out: &out, ErrOut: &errOut})
			if code != tc.wantCode {
				t.Fatalf("\n%s\nrun(%v): want exit %d, got %d\nstdout: %s\nstderr: %s", tc.reason, tc.args, tc.wantCode, code, out.String(), errOut.String())
			}
			if !strings.Contains(out.String(), tc.wantOut) {
				t.Errorf("\n%s\nrun(%v): stdout lacks %q:\n%s", tc.reason, tc.args, tc.wantOut, out.String())
			}
			if !strings.Contains(errOut.String(), tc.wantErr) {
				t.Errorf("\n%s\nrun(%v): stderr %q lacks %q", tc.reason, tc.args, errOut.String(), tc.wantErr)
			}
		})
	}
}
