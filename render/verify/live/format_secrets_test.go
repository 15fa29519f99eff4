package live

import (
	"bytes"
	"context"
	"encoding/base64"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/yaml"

	"github.com/xpmigrate/xpmigrate/convert"
	"github.com/xpmigrate/xpmigrate/convert/v2native"
	"github.com/xpmigrate/xpmigrate/internal/cluster"
	"github.com/xpmigrate/xpmigrate/internal/crossplane"
	"github.com/xpmigrate/xpmigrate/render/verify"
	"github.com/xpmigrate/xpmigrate/render/verify/format"
)

// secretsLegacy composes two provider-kubernetes Objects: one wraps a
// Secret (v1alpha2), the other a ConfigMap whose values the Object reads as
// connection details (v1alpha1).
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
            stringData: {password: rendered-s3cret}
            data: {token: cmVuZGVyZWQtdG9rZW4=}
  - name: config
    base:
      apiVersion: kubernetes.crossplane.io/v1alpha1
      kind: Object
      spec:
        connectionDetails:
        - {apiVersion: v1, kind: ConfigMap, name: cfg, namespace: team-a, fieldPath: data.apiKey, toConnectionSecretKey: apiKey}
        forProvider:
          manifest:
            apiVersion: v1
            kind: ConfigMap
            metadata: {name: cfg, namespace: team-a}
            data: {apiKey: rendered-apikey}
`

// secretValues are the values no report may show, in clear or in base64.
var secretValues = []string{"rendered-s3cret", "rendered-token", "rendered-apikey", "live-s3cret", "live-token", "drift-s3cret", "live-apikey", "converted-s3cret"}

func secretsObj(t *testing.T, s string) *unstructured.Unstructured {
	t.Helper()
	o := map[string]any{}
	if err := yaml.Unmarshal([]byte(s), &o); err != nil {
		t.Fatal(err)
	}
	return &unstructured.Unstructured{Object: o}
}

// secretsComposite is XR x with both Objects as a hand edit left them:
// other values than rendered, and a key no render writes.
func secretsComposite(t *testing.T) *cluster.Composite {
	xr := secretsObj(t, `apiVersion: example.org/v1alpha1
kind: XCreds
metadata: {name: x, uid: u-1, labels: {crossplane.io/composite: x}}
spec:
  compositionRef: {name: creds}
  resourceRefs:
  - {apiVersion: kubernetes.crossplane.io/v1alpha2, kind: Object, name: x-secret}
  - {apiVersion: kubernetes.crossplane.io/v1alpha1, kind: Object, name: x-config}
status:
  conditions:
  - {type: Ready, status: "True", reason: Available}
`)
	meta := func(name, res string) string {
		return `metadata:
  name: ` + name + `
  labels: {crossplane.io/composite: x, crossplane.io/claim-name: "", crossplane.io/claim-namespace: ""}
  annotations: {crossplane.io/composition-resource-name: ` + res + `}
  ownerReferences: [{apiVersion: example.org/v1alpha1, kind: XCreds, name: x, uid: u-1, controller: true, blockOwnerDeletion: true}]
`
	}
	secret := secretsObj(t, `apiVersion: kubernetes.crossplane.io/v1alpha2
kind: Object
`+meta("x-secret", "secret")+`spec:
  forProvider:
    manifest:
      apiVersion: v1
      kind: Secret
      metadata: {name: db, namespace: team-a}
      stringData: {password: live-s3cret, extra: drift-s3cret}
      data: {token: `+base64.StdEncoding.EncodeToString([]byte("live-token"))+`}
status:
  atProvider:
    manifest: {apiVersion: v1, kind: Secret, data: {password: `+base64.StdEncoding.EncodeToString([]byte("live-s3cret"))+`}}
  conditions: [{type: Ready, status: "True", reason: Available}]
`)
	config := secretsObj(t, `apiVersion: kubernetes.crossplane.io/v1alpha1
kind: Object
`+meta("x-config", "config")+`spec:
  connectionDetails:
  - {apiVersion: v1, kind: ConfigMap, name: cfg, namespace: team-a, fieldPath: data.apiKey, toConnectionSecretKey: apiKey}
  forProvider:
    manifest:
      apiVersion: v1
      kind: ConfigMap
      metadata: {name: cfg, namespace: team-a}
      data: {apiKey: live-apikey}
status:
  conditions: [{type: Ready, status: "True", reason: Available}]
`)
	return &cluster.Composite{XR: xr, Composed: []cluster.Composed{
		{Ref: cluster.Ref{APIVersion: "kubernetes.crossplane.io/v1alpha2", Kind: "Object", Name: "x-secret"}, State: cluster.Found, Object: secret, ResourceName: "secret"},
		{Ref: cluster.Ref{APIVersion: "kubernetes.crossplane.io/v1alpha1", Kind: "Object", Name: "x-config"}, State: cluster.Found, Object: config, ResourceName: "config"},
	}}
}

type secretsCluster struct{ c *cluster.Composite }

func (f secretsCluster) Composites(_ context.Context, _ *unstructured.Unstructured, fn func(*cluster.Composite) error) error {
	return fn(f.c)
}
func (secretsCluster) EnvironmentConfigs(context.Context) ([]*unstructured.Unstructured, error) {
	return nil, nil
}
func (secretsCluster) Missing() []cluster.Permission { return nil }

// TestSecretValuesRedacted (issue 23 item 8a): the values of a Secret
// wrapped in a provider-kubernetes Object, and of a wrapped ConfigMap read
// as connection details, are never shown in any format of
// `verify --cluster`: not in the emulation differences (live against
// rendered), not in the drift, not in the conversion check (a converted
// Composition that changed the value).
func TestSecretValuesRedacted(t *testing.T) {
	conv := func(req verify.ConvertRequest) ([]byte, error) {
		res, err := v2native.Convert(req.Composition, convert.Options{Target: req.Target, AckUnnamed: true})
		if err != nil {
			return nil, err
		}
		return res.Output, nil
	}
	converted, err := conv(verify.ConvertRequest{Composition: []byte(secretsLegacy), Target: crossplane.V1})
	if err != nil {
		t.Fatal(err)
	}
	converted = bytes.ReplaceAll(converted, []byte("rendered-s3cret"), []byte("converted-s3cret"))
	o := Options{Detailed: -1}
	o.Verify.Convert = conv
	rep, err := Verify(context.Background(), secretsCluster{secretsComposite(t)},
		verify.Document{Path: "legacy.yaml", Data: []byte(secretsLegacy)}, verify.Document{Path: "converted.yaml", Data: converted}, o)
	if err != nil {
		t.Fatalf("Verify(...): %v", err)
	}
	if rep.Emulation == 0 || rep.Drift == 0 || rep.Conversion.Verdict == verify.Equivalent {
		t.Fatalf("Verify(...): want emulation differences, drift and conversion differences to show, got %d, %d, %s", rep.Emulation, rep.Drift, rep.Conversion.Verdict)
	}
	var forbidden []string
	for _, s := range secretValues {
		forbidden = append(forbidden, s, base64.StdEncoding.EncodeToString([]byte(s)))
	}
	for _, f := range Formats {
		for _, verbose := range []bool{false, true} {
			var b bytes.Buffer
			if err := WriteFormat(&b, []*Report{rep}, FormatOptions{Options: format.Options{Format: f, Verbose: verbose}}); err != nil {
				t.Fatalf("WriteFormat(%s): %v", f, err)
			}
			out := b.String()
			for _, s := range forbidden {
				if strings.Contains(out, s) {
					t.Errorf("WriteFormat(%s, verbose %t): shows the secret value %q:\n%s", f, verbose, s, out)
				}
			}
			if f == format.Text && verbose && !strings.Contains(out, "sha256:") {
				t.Errorf("WriteFormat(text): no digest stands for the values:\n%s", out)
			}
		}
	}
}
