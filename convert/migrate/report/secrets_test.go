package report

import (
	"bytes"
	"context"
	"encoding/base64"
	"strings"
	"testing"

	"github.com/xpmigrate/xpmigrate/convert"
	"github.com/xpmigrate/xpmigrate/convert/migrate"
	"github.com/xpmigrate/xpmigrate/internal/crossplane"
)

// secretsLegacy composes a provider-kubernetes Object wrapping a Secret.
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
    patches:
    - type: FromCompositeFieldPath
      fromFieldPath: spec.user
      toFieldPath: spec.forProvider.manifest.stringData.user
`

// TestMigrateReportsRedactSecrets (issue 23 item 8a): migrate's reports,
// in every format (the report files and the CI formats on stdout), show
// the values of a Secret wrapped in a provider-kubernetes Object by length
// and hash only: in the differences and in the renders the HTML report
// compares (the value patched from the XR, which the XR itself shows, as
// a digest in the Secret).
func TestMigrateReportsRedactSecrets(t *testing.T) {
	res, err := convert.Convert([]byte(secretsLegacy), convert.Options{Target: crossplane.V1, AckUnnamed: true})
	if err != nil {
		t.Fatal(err)
	}
	converted := bytes.ReplaceAll(res.Output, []byte("legacy-s3cret"), []byte("pipeline-s3cret"))
	xr := map[string]any{"apiVersion": "example.org/v1alpha1", "kind": "XCreds", "metadata": map[string]any{"name": "x"}, "spec": map[string]any{"user": "patched-user-s3cret"}}
	v, err := migrate.NewVerifier(true).Verify(context.Background(), migrate.VerifyRequest{
		File: "creds.yaml", Name: "creds", Legacy: []byte(secretsLegacy), Converted: converted, Target: crossplane.V1,
		Samples: []migrate.Sample{{Source: "examples/xr.yaml#0", Object: xr}},
	})
	if err != nil {
		t.Fatalf("Verify(...): %v", err)
	}
	if len(v.Samples) == 0 || v.Samples[0].Legacy == "" || len(v.Samples[0].Differences) == 0 {
		t.Fatalf("Verify(...): want a sample with renders and differences, got %+v", v)
	}
	r := &migrate.Result{Mode: "none", Compositions: []migrate.CompositionResult{{
		File: "creds.yaml", Name: "creds", Legacy: true, Status: migrate.CompositionConverted, Verification: v, Item: -1,
	}}}
	var forbidden []string
	for _, s := range []string{"legacy-s3cret", "pipeline-s3cret"} {
		forbidden = append(forbidden, s, base64.StdEncoding.EncodeToString([]byte(s)))
	}
	outputs := map[string]func(*bytes.Buffer) error{}
	for _, f := range []string{JSON, Markdown, HTML} {
		outputs["report "+f] = func(b *bytes.Buffer) error { return Write(b, f, r) }
	}
	for _, f := range Formats {
		outputs["format "+f] = func(b *bytes.Buffer) error { return WriteFormat(b, f, r, "") }
	}
	outputs["summary"] = func(b *bytes.Buffer) error { return migrate.WriteSummary(b, r) }
	for name, write := range outputs {
		var b bytes.Buffer
		if err := write(&b); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for _, s := range forbidden {
			if strings.Contains(b.String(), s) {
				t.Errorf("%s: shows the secret value %q:\n%s", name, s, b.String())
			}
		}
	}
}
