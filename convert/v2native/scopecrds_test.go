package v2native

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/xpmigrate/xpmigrate/convert"
	"github.com/xpmigrate/xpmigrate/internal/crossplane"
)

// TestV2ScopeByCRDs (issue 25 item 2): whether a template composes a
// cluster-scoped kind, or one with a namespaced twin, is decided by the
// CRDs given, else by the built-in table of provider families, and only
// for a provider neither knows by spec.forProvider; C440, C445 and C448
// say which source decided.
func TestV2ScopeByCRDs(t *testing.T) {
	upjetCRDs := []map[string]any{
		crd("s3.aws.upbound.io", "Bucket", "Cluster", "v1beta1"),
		crd("s3.aws.m.upbound.io", "Bucket", "Namespaced", "v1beta1"),
	}
	type want struct {
		finding    string // the template's C44x finding: code and a part of its message
		apiVersion string // the template's apiVersion after the conversion
		failed     bool
	}
	cases := map[string]struct {
		reason string
		base   string // the template's base, at its indent
		opts   convert.Options
		want   want
	}{
		"ClassicBucketWithoutSpec": {
			reason: "A classic provider-aws Bucket without spec is a cluster-scoped managed resource with no twin in any release: refused (C448), by the built-in table.",
			base:   "apiVersion: s3.aws.crossplane.io/v1beta1\n      kind: Bucket\n",
			want:   want{finding: "C448 decided by the built-in table of provider families: the classic provider-aws", apiVersion: "s3.aws.crossplane.io/v1beta1", failed: true},
		},
		"ClassicAzureResourceGroup": {
			reason: "A classic provider-azure ResourceGroup (group azure.crossplane.io) is refused too.",
			base:   "apiVersion: azure.crossplane.io/v1alpha3\n      kind: ResourceGroup\n      spec:\n        location: westeurope\n",
			want:   want{finding: "C448 decided by the built-in table of provider families: the classic provider-azure", apiVersion: "azure.crossplane.io/v1alpha3", failed: true},
		},
		"ClassicBucketPerCRD": {
			reason: "With its CRD given, the CRD decides, and the message says so.",
			base:   "apiVersion: s3.aws.crossplane.io/v1beta1\n      kind: Bucket\n",
			opts:   convert.Options{ProviderCRDs: []map[string]any{crd("s3.aws.crossplane.io", "Bucket", "Cluster", "v1beta1")}},
			want:   want{finding: "C448 its CRD in --provider-crds is scope Cluster", apiVersion: "s3.aws.crossplane.io/v1beta1", failed: true},
		},
		"UpjetWithoutForProviderWithCRDs": {
			reason: "An upjet Bucket without forProvider, whose cluster-scoped and .m. CRDs are given, becomes its twin (C440, by the CRD).",
			base:   "apiVersion: s3.aws.upbound.io/v1beta1\n      kind: Bucket\n      spec: {deletionPolicy: Delete}\n",
			opts:   convert.Options{ProviderCRDs: upjetCRDs},
			want:   want{finding: "C440 decided by the twin's CRD in --provider-crds", apiVersion: "s3.aws.m.upbound.io/v1beta1"},
		},
		"UpjetWithoutForProviderPerCluster": {
			reason: "CRDs read from a cluster are named as such.",
			base:   "apiVersion: s3.aws.upbound.io/v1beta1\n      kind: Bucket\n      spec: {deletionPolicy: Delete}\n",
			opts:   convert.Options{ProviderCRDs: upjetCRDs, ProviderCRDsSource: "the cluster's CRDs"},
			want:   want{finding: "C440 decided by the twin's CRD in the cluster's CRDs", apiVersion: "s3.aws.m.upbound.io/v1beta1"},
		},
		"UpjetWithoutSpecNoCRDs": {
			reason: "Without CRDs, the built-in table gives an upjet kind its twin, the version kept (C445).",
			base:   "apiVersion: s3.aws.upbound.io/v1beta1\n      kind: Bucket\n",
			want:   want{finding: "C445 decided by the built-in table of provider families: provider-upjet-aws (provider-aws-*) serves namespaced twins from v2.0.0", apiVersion: "s3.aws.m.upbound.io/v1beta1"},
		},
		"UnknownProviderTwinPerCRD": {
			reason: "A provider the table does not list gets its twin from a namespaced .m. CRD given, forProvider or not.",
			base:   "apiVersion: widget.acme.example.com/v1\n      kind: Widget\n      spec: {deletionPolicy: Delete}\n",
			opts:   convert.Options{ProviderCRDs: []map[string]any{crd("widget.acme.example.com", "Widget", "Cluster", "v1"), crd("widget.acme.m.example.com", "Widget", "Namespaced", "v1")}},
			want:   want{finding: "C440 decided by the twin's CRD", apiVersion: "widget.acme.m.example.com/v1"},
		},
		"UnknownProviderManaged": {
			reason: "A provider neither the CRDs nor the table know: spec.forProvider marks a managed resource, refused (C448), saying so.",
			base:   "apiVersion: widget.acme.example.com/v1\n      kind: Widget\n      spec: {forProvider: {}}\n",
			want:   want{finding: "C448 its spec.forProvider says so", apiVersion: "widget.acme.example.com/v1", failed: true},
		},
		"ProviderConfigWithNamespacedKind": {
			reason: "A composed v1 ProviderConfig stays refused even when its provider's .m. ProviderConfig CRD is given.",
			base:   "apiVersion: kubernetes.crossplane.io/v1alpha1\n      kind: ProviderConfig\n      spec: {credentials: {source: InjectedIdentity}}\n",
			opts:   convert.Options{ProviderCRDs: []map[string]any{crd("kubernetes.m.crossplane.io", "ProviderConfig", "Namespaced", "v1alpha1")}},
			want:   want{finding: "C448 provider configurations", apiVersion: "kubernetes.crossplane.io/v1alpha1", failed: true},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			in := thingXRD + "apiVersion: apiextensions.crossplane.io/v1\nkind: Composition\nmetadata:\n  name: xthings.acme.io\nspec:\n" +
				"  compositeTypeRef: {apiVersion: acme.io/v1, kind: XThing}\n  resources:\n  - name: a\n    base:\n      " + tc.base
			opts := tc.opts
			opts.Target, opts.XRScope = crossplane.V2, convert.XRScopeNamespaced
			res, err := Convert([]byte(in), opts)
			if err != nil {
				t.Fatalf("%s\nConvert(...): %v", tc.reason, err)
			}
			code, part, _ := strings.Cut(tc.want.finding, " ")
			found := false
			for _, d := range res.Diagnostics {
				if string(d.Code) == code && strings.Contains(d.Message, part) {
					found = true
				}
			}
			if !found {
				t.Errorf("%s\nConvert(...): no %s saying %q:\n%s", tc.reason, code, part, render(res.Diagnostics))
			}
			if diff := cmp.Diff(tc.want.failed, res.Failed()); diff != "" {
				t.Errorf("%s\nConvert(...).Failed(): -want, +got:\n%s\n%s", tc.reason, diff, render(res.Diagnostics))
			}
			if res.Failed() {
				return
			}
			out := v2Output(t, res.Output)
			tpl := out["spec"].(map[string]any)["pipeline"].([]any)[0].(map[string]any)["input"].(map[string]any)["resources"].([]any)[0].(map[string]any)
			if diff := cmp.Diff(tc.want.apiVersion, tpl["base"].(map[string]any)["apiVersion"]); diff != "" {
				t.Errorf("%s\nConvert(...): the template's apiVersion: -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}

// TestV2CompositionXRDLabel (issue 25 item 6): the label crossplane.io/xrd
// of the v2 Composition names the v2 XRD of its type, not the legacy one;
// without a known XRD it goes.
func TestV2CompositionXRDLabel(t *testing.T) {
	const comp = "apiVersion: apiextensions.crossplane.io/v1\nkind: Composition\nmetadata:\n  name: xthings.acme.io\n  labels:\n    team: a\n    crossplane.io/xrd: %s\nspec:\n" +
		"  compositeTypeRef: {apiVersion: acme.io/v1, kind: XThing}\n  resources:\n  - name: a\n    base: {apiVersion: v1, kind: ConfigMap}\n"
	cases := map[string]struct {
		reason string
		xrd    string // the XRD in the input
		label  string
		want   map[string]any
	}{
		"NamesTheLegacyXRD": {
			reason: "A label naming the legacy XRD names the v2 XRD (things.acme.io).",
			xrd:    thingXRD,
			label:  "xthings.acme.io",
			want:   map[string]any{"team": "a", "crossplane.io/xrd": "things.acme.io"},
		},
		"NamesSomethingElse": {
			reason: "A label with another value is kept.",
			xrd:    thingXRD,
			label:  "other.acme.io",
			want:   map[string]any{"team": "a", "crossplane.io/xrd": "other.acme.io"},
		},
		"NoXRDKnown": {
			reason: "Without the XRD of the type the v2 XRD's name is unknown: the label goes.",
			label:  "xthings.acme.io",
			want:   map[string]any{"team": "a"},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			res, err := Convert([]byte(tc.xrd+fmt.Sprintf(comp, tc.label)), convert.Options{Target: crossplane.V2, XRScope: convert.XRScopeNamespaced})
			if err != nil || res.Failed() {
				t.Fatalf("%s\nConvert(...): %v\n%s", tc.reason, err, render(res.Diagnostics))
			}
			out := v2Output(t, res.Output)
			if diff := cmp.Diff(tc.want, out["metadata"].(map[string]any)["labels"]); diff != "" {
				t.Errorf("%s\nConvert(...): labels: -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}
