package convert_test

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
	sigsyaml "sigs.k8s.io/yaml"

	"github.com/xpmigrate/xpmigrate/convert"
	"github.com/xpmigrate/xpmigrate/render/engine"
	"github.com/xpmigrate/xpmigrate/render/verify"
)

// TestBaseMetadataNameVerifies renders each legacy Composition whose
// template base sets metadata.name or metadata.namespace with the native
// emulator and its conversion with the function pipeline, over reconciles
// until both are stable: with the K5 mapping (C326) the renders agree;
// without it verify finds the breaking gap D11. It also renders two XRs
// through each conversion: with the mapping their composed resources get
// two generated names, as natively; without it both claim the base's name.
func TestBaseMetadataNameVerifies(t *testing.T) {
	legacy := func(metadata, patches string) string {
		return `apiVersion: apiextensions.crossplane.io/v1
kind: Composition
metadata: {name: buckets}
spec:
  compositeTypeRef: {apiVersion: acme.io/v1, kind: XBucket}
  resources:
  - name: bucket
    base:
      apiVersion: s3.aws.upbound.io/v1beta1
      kind: Bucket
      metadata: ` + metadata + `
      spec: {forProvider: {region: eu-west-1}}
    patches:
    - {fromFieldPath: spec.team, toFieldPath: 'metadata.labels[team]'}
` + patches
	}
	type want struct {
		verdict  verify.Verdict
		breaking []string // codes of the breaking differences
		names    []string // the bucket's metadata.name for XRs a and b
	}
	cases := map[string]struct {
		reason string
		in     string
		opts   convert.Options
		want   want
	}{
		"Name": {
			reason: "A fixed base name: natively ignored, removed by the conversion.",
			in:     legacy("{name: standard-object-storage}", ""),
			want:   want{verdict: verify.Equivalent, names: []string{"generated", "generated"}},
		},
		"NameAndNamespace": {
			reason: "A fixed name and namespace: both ignored natively, both removed.",
			in:     legacy("{name: standard-object-storage, namespace: team-a}", ""),
			want:   want{verdict: verify.Equivalent, names: []string{"generated", "generated"}},
		},
		"NameWithOptionalNamePatch": {
			reason: "A name patch from an absent optional field: natively the name is generated; with the mapping too.",
			in:     legacy("{name: standard-object-storage}", "    - {fromFieldPath: spec.bucketName, toFieldPath: metadata.name}\n"),
			want:   want{verdict: verify.Equivalent, names: []string{"generated", "generated"}},
		},
		"NameNoCompensate": {
			reason: "Without the mapping the function keeps the base name: D11, and both XRs collide on it.",
			in:     legacy("{name: standard-object-storage}", ""),
			opts:   convert.Options{NoCompensate: []string{convert.CompensateBaseMetadata}},
			want:   want{verdict: verify.KnownGaps, breaking: []string{"D11"}, names: []string{"standard-object-storage", "standard-object-storage"}},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			res, err := convert.Convert([]byte(tc.in), tc.opts)
			if err != nil || res.Failed() {
				t.Fatalf("\n%s\nConvert(...): %v %v", tc.reason, err, res.Diagnostics)
			}
			xr := func(n string) map[string]any {
				return map[string]any{
					"apiVersion": "acme.io/v1", "kind": "XBucket",
					"metadata": map[string]any{"name": n, "uid": "uid-" + n},
					"spec":     map[string]any{"team": "platform"},
				}
			}
			rep, err := verify.Verify(context.Background(),
				verify.Document{Path: "legacy.yaml", Data: []byte(tc.in)},
				verify.Document{Path: "converted.yaml", Data: res.Output},
				[]verify.Sample{{Name: "a", XR: xr("a")}}, verify.Options{})
			if err != nil {
				t.Fatalf("\n%s\nVerify(...): %v", tc.reason, err)
			}
			got := want{verdict: rep.Verdict}
			seen := map[string]bool{}
			for _, s := range rep.Samples {
				for _, d := range s.Differences {
					if d.Gap != nil && d.Gap.Class == "breaking" && !seen[d.Gap.Code] {
						seen[d.Gap.Code] = true
						got.breaking = append(got.breaking, d.Gap.Code)
					}
				}
			}
			comp := map[string]any{}
			if err := sigsyaml.Unmarshal(res.Output, &comp); err != nil {
				t.Fatal(err)
			}
			for _, n := range []string{"a", "b"} {
				got.names = append(got.names, bucketName(t, comp, xr(n)))
			}
			if diff := cmp.Diff(tc.want, got, cmp.AllowUnexported(want{})); diff != "" {
				t.Errorf("\n%s\nverify of the conversion: -want, +got:\n%s\n%s", tc.reason, diff, res.Output)
			}
		})
	}
}

// bucketName renders one reconcile of comp for xr and returns the desired
// bucket's metadata.name, or "generated" when it has none and the composer
// will generate one from the XR's name.
func bucketName(t *testing.T, comp, xr map[string]any) string {
	t.Helper()
	res, err := engine.Render(context.Background(), engine.Request{XR: xr, Composition: comp}, engine.Options{})
	if err != nil {
		t.Fatalf("Render(...): %v", err)
	}
	for _, c := range res.Outcome.Composed {
		if c.Name != "bucket" || c.Desired == nil {
			continue
		}
		md, _ := c.Desired["metadata"].(map[string]any)
		n, _ := md["name"].(string)
		if gn, _ := md["generateName"].(string); n == "" && gn == xr["metadata"].(map[string]any)["name"].(string)+"-" {
			return "generated" // The composer names it <XR name>-<suffix>.
		}
		return n
	}
	return "not composed"
}
