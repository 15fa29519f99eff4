package format

import (
	"bytes"
	"context"
	"encoding/base64"
	"strings"
	"testing"

	"github.com/xpmigrate/xpmigrate/convert"
	"github.com/xpmigrate/xpmigrate/internal/crossplane"
	"github.com/xpmigrate/xpmigrate/render/verify"
)

// secretsLegacy composes a provider-kubernetes Object wrapping a Secret
// whose values come from the template and from a patch.
const secretsLegacy = `apiVersion: apiextensions.crossplane.io/v1
kind: Composition
metadata:
  name: creds
spec:
  compositeTypeRef:
    apiVersion: example.org/v1alpha1
    kind: XCreds
  resources:
  - name: secret
    base:
      apiVersion: kubernetes.crossplane.io/v1alpha2
      kind: Object
      spec:
        forProvider:
          manifest:
            apiVersion: v1
            kind: Secret
            metadata: {name: db, namespace: team-a}
            stringData: {password: legacy-s3cret}
            data: {token: bGVnYWN5LXRva2Vu}
    patches:
    - type: FromCompositeFieldPath
      fromFieldPath: spec.user
      toFieldPath: spec.forProvider.manifest.stringData.user
`

// TestSecretValuesRedacted (issue 23 item 8a): verify's reports, in every
// format, show a value of a Secret wrapped in a provider-kubernetes Object
// by length and hash only, where the converted Composition renders another
// value.
func TestSecretValuesRedacted(t *testing.T) {
	res, err := convert.Convert([]byte(secretsLegacy), convert.Options{Target: crossplane.V1, AckUnnamed: true})
	if err != nil {
		t.Fatal(err)
	}
	converted := bytes.ReplaceAll(res.Output, []byte("legacy-s3cret"), []byte("pipeline-s3cret"))
	converted = bytes.ReplaceAll(converted, []byte("bGVnYWN5LXRva2Vu"), []byte(base64.StdEncoding.EncodeToString([]byte("pipeline-token"))))
	converted = bytes.ReplaceAll(converted, []byte("toFieldPath: spec.forProvider.manifest.stringData.user"), []byte("toFieldPath: spec.forProvider.manifest.stringData.login"))
	xr := map[string]any{"apiVersion": "example.org/v1alpha1", "kind": "XCreds", "metadata": map[string]any{"name": "x"}, "spec": map[string]any{"user": "patched-user-s3cret"}}
	rep, err := verify.Verify(context.Background(), verify.Document{Path: "legacy.yaml", Data: []byte(secretsLegacy)}, verify.Document{Path: "converted.yaml", Data: converted},
		[]verify.Sample{{Name: "xr.yaml#1", XR: xr}}, verify.Options{})
	if err != nil {
		t.Fatalf("verify.Verify(...): %v", err)
	}
	if rep.Verdict == verify.Equivalent {
		t.Fatalf("verify.Verify(...): want differences, got %s", rep.Verdict)
	}
	var forbidden []string
	for _, s := range []string{"legacy-s3cret", "pipeline-s3cret", "legacy-token", "pipeline-token", "patched-user-s3cret"} {
		forbidden = append(forbidden, s, base64.StdEncoding.EncodeToString([]byte(s)))
	}
	for _, f := range Formats {
		for _, verbose := range []bool{false, true} {
			var b bytes.Buffer
			if err := Write(&b, rep, Options{Format: f, Verbose: verbose}); err != nil {
				t.Fatalf("Write(%s): %v", f, err)
			}
			out := b.String()
			for _, s := range forbidden {
				if strings.Contains(out, s) {
					t.Errorf("Write(%s, verbose %t): shows the secret value %q:\n%s", f, verbose, s, out)
				}
			}
			if f == JSON && !strings.Contains(out, "sha256:") {
				t.Errorf("Write(json): no digest stands for the values:\n%s", out)
			}
		}
	}
}
