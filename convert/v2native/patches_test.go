package v2native

import (
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/xpmigrate/xpmigrate/convert"
	"github.com/xpmigrate/xpmigrate/internal/crossplane"
)

// thingXRD is the XRD of compositionYAML's type, with a plural.
const thingXRD = "apiVersion: apiextensions.crossplane.io/v1\nkind: CompositeResourceDefinition\nmetadata: {name: xs.acme.io}\n" +
	"spec:\n  group: acme.io\n  names: {kind: XThing, plural: xthings}\n  versions: [{name: v1, served: true, referenceable: true, schema: {openAPIV3Schema: {type: object}}}]\n---\n"

// v2Composition is a Composition of type XThing with one template and the
// given patches.
func v2Composition(patches string) string {
	return thingXRD + "apiVersion: apiextensions.crossplane.io/v1\nkind: Composition\nmetadata:\n  name: xthings.acme.io\nspec:\n" +
		"  compositeTypeRef: {apiVersion: acme.io/v1, kind: XThing}\n" + oneResource(patches)
}

func TestV2Patches(t *testing.T) {
	namespaced := convert.Options{Target: crossplane.V2, XRScope: convert.XRScopeNamespaced}
	cluster := convert.Options{Target: crossplane.V2, XRScope: convert.XRScopeCluster}
	cases := map[string]struct {
		reason   string
		patches  string
		opts     convert.Options
		want     []convert.Code
		contains []string
		absent   []string
	}{
		"ClaimNamespace": {
			reason:   "A namespaced XR lives where its claim lived: spec.claimRef.namespace reads metadata.namespace (C426).",
			patches:  "    - {fromFieldPath: spec.claimRef.namespace, toFieldPath: spec.forProvider.ns}\n",
			opts:     namespaced,
			want:     []convert.Code{"C426", "C420"},
			contains: []string{"fromFieldPath: metadata.namespace"},
			absent:   []string{"claimRef"},
		},
		"ClaimNamespaceCluster": {
			reason:   "A cluster XR has no namespace: the read is flagged and kept (C428).",
			patches:  "    - {fromFieldPath: spec.claimRef.namespace, toFieldPath: spec.forProvider.ns}\n",
			opts:     cluster,
			want:     []convert.Code{"C428", "C420"},
			contains: []string{"fromFieldPath: spec.claimRef.namespace"},
		},
		"ClaimName": {
			reason:   "spec.claimRef.name reads metadata.name, with a warning that the XR's name is the claim's only for twins (C427).",
			patches:  "    - {fromFieldPath: spec.claimRef.name, toFieldPath: spec.forProvider.n}\n",
			opts:     cluster,
			want:     []convert.Code{"C427", "C420"},
			contains: []string{"fromFieldPath: metadata.name"},
		},
		"ClaimLabelsCombine": {
			reason:   "The claim labels, read by combine variables, become the XR's own name and namespace.",
			patches:  "    - {type: CombineFromComposite, toFieldPath: metadata.name, combine: {strategy: string, string: {fmt: '%s-%s'}, variables: [{fromFieldPath: 'metadata.labels[crossplane.io/claim-namespace]'}, {fromFieldPath: 'metadata.labels[crossplane.io/claim-name]'}]}}\n",
			opts:     namespaced,
			want:     []convert.Code{"C426", "C427", "C420"},
			contains: []string{"variables: [{fromFieldPath: metadata.namespace}, {fromFieldPath: metadata.name}]"},
		},
		"Machinery": {
			reason:   "Composition and resource references move under spec.crossplane, reads and ToComposite writes alike (C421).",
			patches:  "    - {fromFieldPath: spec.compositionRef.name, toFieldPath: spec.forProvider.c}\n    - {type: ToCompositeFieldPath, fromFieldPath: status.x, toFieldPath: 'spec.resourceRefs[0].name'}\n",
			opts:     namespaced,
			want:     []convert.Code{"C421", "C421", "C209", "C420"},
			contains: []string{"fromFieldPath: spec.crossplane.compositionRef.name", "toFieldPath: 'spec.crossplane.resourceRefs[0].name'"},
		},
		"SecretNamespaceRead": {
			reason:   "The XR's connection Secret namespace is the XR's own namespace for a namespaced XR (C429).",
			patches:  "    - {fromFieldPath: spec.writeConnectionSecretToRef.namespace, toFieldPath: spec.forProvider.ns}\n",
			opts:     namespaced,
			want:     []convert.Code{"C429", "C420"},
			contains: []string{"fromFieldPath: metadata.namespace"},
		},
		"SecretNamespaceWriteRemoved": {
			reason:  "A patch writing a composed resource's Secret namespace is removed for a namespaced XR: its refs are local (C429).",
			patches: "    - {fromFieldPath: spec.writeConnectionSecretToRef.namespace, toFieldPath: spec.writeConnectionSecretToRef.namespace}\n    - {fromFieldPath: spec.a, toFieldPath: spec.b}\n",
			opts:    namespaced,
			want:    []convert.Code{"C429", "C420"},
			absent:  []string{"writeConnectionSecretToRef.namespace"},
		},
		"SecretNamespaceCluster": {
			reason:   "For a cluster XR the Secret namespace read is flagged and kept (C429).",
			patches:  "    - {fromFieldPath: spec.writeConnectionSecretToRef.namespace, toFieldPath: spec.forProvider.ns}\n",
			opts:     cluster,
			want:     []convert.Code{"C429", "C420"},
			contains: []string{"fromFieldPath: spec.writeConnectionSecretToRef.namespace"},
		},
		"UID": {
			reason:   "metadata.uid is kept, with a warning that a new XR has a new uid (C430).",
			patches:  "    - {fromFieldPath: metadata.uid, toFieldPath: metadata.name}\n",
			opts:     namespaced,
			want:     []convert.Code{"C430", "C420"},
			contains: []string{"fromFieldPath: metadata.uid"},
		},
		"ClaimRefOther": {
			reason:   "Other claim machinery has no v2 equivalent: flagged, kept (C428).",
			patches:  "    - {fromFieldPath: spec.claimRef.kind, toFieldPath: spec.forProvider.k}\n",
			opts:     namespaced,
			want:     []convert.Code{"C428", "C420"},
			contains: []string{"fromFieldPath: spec.claimRef.kind"},
		},
		"ComposedPathUntouched": {
			reason:   "A ToComposite patch's fromFieldPath reads the composed resource: its claimRef is not the XR's and is not rewritten.",
			patches:  "    - {type: ToCompositeFieldPath, fromFieldPath: spec.claimRef.name, toFieldPath: status.n}\n",
			opts:     namespaced,
			want:     []convert.Code{"C420"},
			contains: []string{"fromFieldPath: spec.claimRef.name"},
		},
		"EnvironmentPatches": {
			reason:   "Environment patches read and write the XR too: rewritten; one writing the environment's spec.writeConnectionSecretToRef.namespace is not a composed resource's and stays.",
			patches:  "    - {fromFieldPath: spec.a, toFieldPath: spec.b}\n  environment:\n    patches:\n    - {type: FromCompositeFieldPath, fromFieldPath: spec.claimRef.namespace, toFieldPath: spec.writeConnectionSecretToRef.namespace}\n    - {type: ToCompositeFieldPath, fromFieldPath: x, toFieldPath: spec.compositionUpdatePolicy}\n",
			opts:     namespaced,
			want:     []convert.Code{"C426", "C421", "C209", "C420", "C310", "C311"},
			contains: []string{"fromFieldPath: metadata.namespace, toFieldPath: spec.writeConnectionSecretToRef.namespace", "toFieldPath: spec.crossplane.compositionUpdatePolicy"},
		},
		"PatchSetShared": {
			reason:   "A patch set's patch is rewritten once, where it is declared, for every template that includes it.",
			patches:  "    - {type: PatchSet, patchSetName: ns}\n  patchSets:\n  - name: ns\n    patches:\n    - {fromFieldPath: 'metadata.labels[crossplane.io/claim-namespace]', toFieldPath: spec.forProvider.ns}\n",
			opts:     namespaced,
			want:     []convert.Code{"C426", "C420"},
			contains: []string{"    patchSets:\n      - name: ns\n        patches:\n        - {type: FromCompositeFieldPath, fromFieldPath: metadata.namespace, toFieldPath: spec.forProvider.ns}"},
		},
		"EnvironmentSelector": {
			reason:   "An environment selector matching on the claim's namespace matches on the XR's own (C426), in the environment-configs step.",
			patches:  "    - {fromFieldPath: spec.a, toFieldPath: spec.b}\n  environment:\n    environmentConfigs:\n    - type: Selector\n      selector:\n        matchLabels:\n        - {key: team, type: FromCompositeFieldPath, valueFromFieldPath: spec.claimRef.namespace}\n",
			opts:     namespaced,
			want:     []convert.Code{"C426", "C420", "C310", "C311", "C320", "C205"},
			contains: []string{"valueFromFieldPath: metadata.namespace"},
		},
		"LegacyScope": {
			reason:   "--xr-scope legacy keeps the mode-only conversion: nothing is rewritten.",
			patches:  "    - {fromFieldPath: spec.claimRef.namespace, toFieldPath: spec.forProvider.ns}\n",
			opts:     convert.Options{Target: crossplane.V2, XRScope: convert.XRScopeLegacy},
			contains: []string{"fromFieldPath: spec.claimRef.namespace", "name: xthings.acme.io\n"},
		},
		"XRStyleV2Advisory": {
			reason:   "Without a v2-native scope, --xr-style v2 keeps reporting C321 (the same detection) and rewrites nothing.",
			patches:  "    - {fromFieldPath: spec.claimRef.namespace, toFieldPath: spec.forProvider.ns}\n    - {fromFieldPath: 'metadata.labels[crossplane.io/claim-name]', toFieldPath: spec.forProvider.n}\n",
			opts:     convert.Options{XRStyleV2: true},
			want:     []convert.Code{"C321", "C321"},
			contains: []string{"fromFieldPath: spec.claimRef.namespace"},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			res, err := Convert([]byte(v2Composition(tc.patches)), tc.opts)
			if err != nil {
				t.Fatalf("\n%s\nConvert(...): %v", tc.reason, err)
			}
			if res.Failed() {
				t.Fatalf("\n%s\nConvert(...): failed:\n%s", tc.reason, render(res.Diagnostics))
			}
			// The XRD in the stream converts too; its codes are tested in v2xrd_test.go.
			got := slices.DeleteFunc(codes(res.Diagnostics), func(c convert.Code) bool { return c >= "C401" && c <= "C419" })
			slices.Sort(got)
			slices.Sort(tc.want)
			if diff := cmp.Diff(tc.want, got, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("\n%s\nConvert(...): -want codes (sorted), +got:\n%s\n%s", tc.reason, diff, render(res.Diagnostics))
			}
			out := string(res.Output)
			for _, s := range tc.contains {
				if !strings.Contains(out, s) {
					t.Errorf("\n%s\nConvert(...): output lacks %q:\n%s", tc.reason, s, out)
				}
			}
			for _, s := range tc.absent {
				if strings.Contains(out[strings.Index(out, "\n  compositeTypeRef"):], s) {
					t.Errorf("\n%s\nConvert(...): output has %q:\n%s", tc.reason, s, out)
				}
			}
		})
	}
}
