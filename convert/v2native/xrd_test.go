package v2native

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/crossplane/crossplane-runtime/v2/pkg/fieldpath"
	"github.com/google/go-cmp/cmp"
	"sigs.k8s.io/yaml"

	"github.com/xpmigrate/xpmigrate/convert"
	"github.com/xpmigrate/xpmigrate/convert/yamledit"
	"github.com/xpmigrate/xpmigrate/internal/crossplane"
	"github.com/xpmigrate/xpmigrate/internal/manifest"
)

// xrdV1 is a small v1 XRD; extra is appended to its spec (indented by
// two spaces), versionExtra to its version.
func xrdV1(extra, versionExtra string) string {
	return `apiVersion: apiextensions.crossplane.io/v1
kind: CompositeResourceDefinition
metadata:
  name: xbuckets.storage.example.org
spec:
  group: storage.example.org
  names:
    kind: XBucket
    plural: xbuckets
` + extra + `  versions:
  - name: v1alpha1
    served: true
    referenceable: true
` + versionExtra + `    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              region:
                type: string
`
}

// compositionFor is a Resources-mode Composition of XBucket with one
// template (base and patches given, indented by eight spaces).
func compositionFor(base, patches string) string {
	return `apiVersion: apiextensions.crossplane.io/v1
kind: Composition
metadata:
  name: xbuckets.aws.storage.example.org
spec:
  compositeTypeRef:
    apiVersion: storage.example.org/v1alpha1
    kind: XBucket
  resources:
  - name: thing
    base:
` + base + `    patches:
` + patches
}

const bucketBase = `      apiVersion: s3.aws.upbound.io/v1beta1
      kind: Bucket
      spec:
        forProvider:
          region: us-east-1
`

// TestV2XRDList: the XRDs of a List (kubectl get xrd -o yaml) are converted
// item by item, next to the Compositions the List holds.
func TestV2XRDList(t *testing.T) {
	indent := func(doc string) string {
		lines := strings.Split(strings.TrimSuffix(doc, "\n"), "\n")
		for i, l := range lines {
			if i == 0 {
				lines[i] = "- " + l
			} else {
				lines[i] = "  " + l
			}
		}
		return strings.Join(lines, "\n") + "\n"
	}
	list := "apiVersion: v1\nkind: List\nitems:\n" + indent(xrdV1("  claimNames:\n    kind: Bucket\n    plural: buckets\n", "")) +
		indent(compositionFor(bucketBase, "    - fromFieldPath: spec.region\n      toFieldPath: spec.forProvider.region\n"))
	res, err := Convert([]byte(list), convert.Options{Target: crossplane.V2})
	if err != nil {
		t.Fatal(err)
	}
	if res.Failed() {
		t.Fatalf("Convert(List): failed:\n%s", render(res.Diagnostics))
	}
	var got []string
	for _, d := range res.Diagnostics {
		if d.Code >= "C401" && d.Code <= "C419" { // The XRD's.
			got = append(got, string(d.Code)+" "+d.Path)
		}
	}
	want := []string{"C401 items[0]", "C404 items[0].spec.claimNames", "C403 items[0].spec.names", "C416 items[0].spec.versions"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Convert(List) findings: -want, +got:\n%s", diff)
	}
	obj := decode(string(res.Output))
	p := fieldpath.Pave(obj)
	for path, want := range map[string]any{
		"items[0].apiVersion": "apiextensions.crossplane.io/v2", "items[0].metadata.name": "buckets.storage.example.org",
		"items[1].spec.mode": "Pipeline",
	} {
		if v, err := p.GetValue(path); err != nil || v != want {
			t.Errorf("Convert(List) %s: want %v, got %v (%v)", path, want, v, err)
		}
	}
	again, err := Convert(res.Output, convert.Options{Target: crossplane.V2})
	if err != nil || again.Changed {
		t.Errorf("Convert(output): converting the output again changed it (%v)", err)
	}
}

func TestV2XRD(t *testing.T) {
	v2 := func(o convert.Options) convert.Options {
		o.Target = crossplane.V2
		return o
	}
	cases := map[string]struct {
		reason     string
		in         string
		opts       convert.Options
		want       []convert.Code
		wantFailed bool
		wantSame   bool           // the output is the input
		wantValues map[string]any // field path → value in the XRD's output
		wantAbsent []string       // field paths absent from the output
	}{
		"DropPrefixNamespaced": {
			reason: "By default the v2 XRD is Namespaced, keeps the group and drops the X; its name is plural.group.",
			in:     xrdV1("", ""),
			opts:   v2(convert.Options{}),
			want:   []convert.Code{"C401"},
			wantValues: map[string]any{
				"apiVersion": "apiextensions.crossplane.io/v2", "metadata.name": "buckets.storage.example.org",
				"spec.group": "storage.example.org", "spec.scope": "Namespaced", "spec.names.kind": "Bucket", "spec.names.plural": "buckets",
			},
		},
		"ClusterScope": {
			reason: "--xr-scope cluster writes scope Cluster; a printer column of the claim's namespace has no counterpart then (C411).",
			in:     xrdV1("", "    additionalPrinterColumns:\n    - name: NS\n      type: string\n      jsonPath: .spec.claimRef.namespace\n"),
			opts:   v2(convert.Options{XRScope: convert.XRScopeCluster}),
			want:   []convert.Code{"C401", "C411"},
			wantValues: map[string]any{
				"spec.scope": "Cluster", "spec.versions[0].additionalPrinterColumns[0].jsonPath": ".spec.claimRef.namespace",
			},
		},
		"ModernV1XRD": {
			reason: "A v1 XRD with scope Namespaced is the same object at v2: only the apiVersion changes (C415).",
			in:     xrdV1("  scope: Namespaced\n", ""),
			opts:   v2(convert.Options{XRScope: convert.XRScopeCluster}),
			want:   []convert.Code{"C415"},
			wantValues: map[string]any{
				"apiVersion": "apiextensions.crossplane.io/v2", "metadata.name": "xbuckets.storage.example.org",
				"spec.names.kind": "XBucket", "spec.scope": "Namespaced",
			},
		},
		"ExistingScope": {
			reason:     "A scope the v1 XRD sets (LegacyCluster) is replaced in place.",
			in:         xrdV1("  scope: LegacyCluster\n", ""),
			opts:       v2(convert.Options{}),
			want:       []convert.Code{"C401"},
			wantValues: map[string]any{"spec.scope": "Namespaced"},
		},
		"NewGroup": {
			reason: "--xr-naming new-group moves the type to --xr-group; the name follows.",
			in:     xrdV1("", ""),
			opts:   v2(convert.Options{XRNaming: convert.XRNamingNewGroup, XRGroup: "platform.example.org"}),
			want:   []convert.Code{"C401"},
			wantValues: map[string]any{
				"metadata.name": "buckets.platform.example.org", "spec.group": "platform.example.org", "spec.names.kind": "Bucket",
			},
		},
		"ClaimCollision": {
			reason:     "drop-prefix giving the claim's kind and plural is a collision (C403); claimNames is removed (C404).",
			in:         xrdV1("  claimNames:\n    kind: Bucket\n    plural: buckets\n", ""),
			opts:       v2(convert.Options{}),
			want:       []convert.Code{"C401", "C404", "C403"},
			wantAbsent: []string{"spec.claimNames"},
		},
		"ClaimNoCollisionNewGroup": {
			reason:     "new-group avoids the collision with the claim.",
			in:         xrdV1("  claimNames:\n    kind: Bucket\n    plural: buckets\n", ""),
			opts:       v2(convert.Options{XRNaming: convert.XRNamingNewGroup, XRGroup: "platform.example.org"}),
			want:       []convert.Code{"C401", "C404"},
			wantAbsent: []string{"spec.claimNames"},
		},
		"NoXPrefixCollidesWithV1": {
			reason:     "A kind without X keeps the v1 XR type's name: the v1 and v2 XRDs collide (C403).",
			in:         strings.NewReplacer("XBucket", "Bucket", "xbuckets", "buckets").Replace(xrdV1("", "")),
			opts:       v2(convert.Options{}),
			want:       []convert.Code{"C401", "C403"},
			wantValues: map[string]any{"metadata.name": "buckets.storage.example.org", "spec.names.kind": "Bucket"},
		},
		"DeletePolicyAndSecretKeys": {
			reason:     "defaultCompositeDeletePolicy (C405) and connectionSecretKeys (C406, key filtering lost) are removed.",
			in:         xrdV1("  defaultCompositeDeletePolicy: Foreground\n  connectionSecretKeys:\n  - url\n", ""),
			opts:       v2(convert.Options{}),
			want:       []convert.Code{"C401", "C405", "C406"},
			wantAbsent: []string{"spec.defaultCompositeDeletePolicy", "spec.connectionSecretKeys"},
		},
		"CompositionRefs": {
			reason: "defaultCompositionRef and enforcedCompositionRef name the v2 Compositions (C407); the update policy is kept.",
			in:     xrdV1("  defaultCompositionUpdatePolicy: Manual\n  defaultCompositionRef:\n    name: xbuckets.aws.storage.example.org\n  enforcedCompositionRef:\n    name: buckets-gcp\n", ""),
			opts:   v2(convert.Options{}),
			want:   []convert.Code{"C401", "C407", "C407"},
			wantValues: map[string]any{
				"spec.defaultCompositionRef.name": "buckets.aws.storage.example.org", "spec.enforcedCompositionRef.name": "buckets-gcp-v2",
				"spec.defaultCompositionUpdatePolicy": "Manual",
			},
		},
		"ServerFields": {
			reason:     "What the API server added is removed from the new object (C412).",
			in:         strings.Replace(xrdV1("", ""), "  name: xbuckets.storage.example.org\n", "  name: xbuckets.storage.example.org\n  uid: 1234\n  resourceVersion: \"7\"\n", 1) + "status:\n  conditions: []\n",
			opts:       v2(convert.Options{}),
			want:       []convert.Code{"C412", "C401"},
			wantAbsent: []string{"metadata.uid", "metadata.resourceVersion", "status"},
		},
		"PrinterColumns": {
			reason: "Printer columns reading the machinery move to spec.crossplane (C408); the claim's name is the XR's (C409) and its namespace the XR's (C408).",
			in: xrdV1("", "    additionalPrinterColumns:\n    - name: C\n      type: string\n      jsonPath: .spec.compositionRef.name\n"+
				"    - name: CLAIM\n      type: string\n      jsonPath: .spec.claimRef.name\n    - name: NS\n      type: string\n      jsonPath: .spec.claimRef.namespace\n"+
				"    - name: R\n      type: string\n      jsonPath: .spec.resourceRefs[*].name\n    - name: U\n      type: string\n      jsonPath: .spec.region\n"),
			opts: v2(convert.Options{}),
			want: []convert.Code{"C401", "C408", "C409", "C408", "C408"},
			wantValues: map[string]any{
				"spec.versions[0].additionalPrinterColumns[0].jsonPath": ".spec.crossplane.compositionRef.name",
				"spec.versions[0].additionalPrinterColumns[1].jsonPath": ".metadata.name",
				"spec.versions[0].additionalPrinterColumns[2].jsonPath": ".metadata.namespace",
				"spec.versions[0].additionalPrinterColumns[3].jsonPath": ".spec.crossplane.resourceRefs[*].name",
				"spec.versions[0].additionalPrinterColumns[4].jsonPath": ".spec.region",
			},
		},
		"PrinterColumnResourceRefNamespace": {
			reason: "Namespaced XRs record no namespace in resourceRefs (C411).",
			in:     xrdV1("", "    additionalPrinterColumns:\n    - name: R\n      type: string\n      jsonPath: .spec.resourceRefs[*].namespace\n"),
			opts:   v2(convert.Options{}),
			want:   []convert.Code{"C401", "C411", "C408"},
		},
		"CELRootRule": {
			reason: "A root rule's has() of a machinery field is guarded for an absent spec.crossplane (C408).",
			in:     strings.Replace(xrdV1("", ""), "        type: object\n        properties:\n", "        type: object\n        x-kubernetes-validations:\n        - rule: \"!has(self.spec.compositionSelector) || has(self.spec.compositionSelector.matchLabels.provider)\"\n        properties:\n", 1),
			opts:   v2(convert.Options{}),
			want:   []convert.Code{"C401", "C408"},
			wantValues: map[string]any{
				"spec.versions[0].schema.openAPIV3Schema.x-kubernetes-validations[0].rule": "!(has(self.spec.crossplane) && has(self.spec.crossplane.compositionSelector)) || has(self.spec.crossplane.compositionSelector.matchLabels.provider)",
			},
		},
		"CELUnguarded": {
			reason: "A rule reading spec.crossplane without has() fails on XRs without it (C414).",
			in:     strings.Replace(xrdV1("", ""), "            type: object\n            properties:\n", "            type: object\n            x-kubernetes-validations:\n            - rule: \"self.compositionUpdatePolicy == 'Automatic'\"\n            properties:\n", 1),
			opts:   v2(convert.Options{}),
			want:   []convert.Code{"C401", "C408", "C414"},
			wantValues: map[string]any{
				"spec.versions[0].schema.openAPIV3Schema.properties.spec.x-kubernetes-validations[0].rule": "self.crossplane.compositionUpdatePolicy == 'Automatic'",
			},
		},
		"CELClaimName": {
			reason: "A root rule reading the claim's name reads metadata.name (C409).",
			in:     strings.Replace(xrdV1("", ""), "        type: object\n        properties:\n", "        type: object\n        x-kubernetes-validations:\n        - rule: \"self.spec.claimRef.name.size() < 20\"\n        properties:\n", 1),
			opts:   v2(convert.Options{}),
			want:   []convert.Code{"C401", "C409"},
			wantValues: map[string]any{
				"spec.versions[0].schema.openAPIV3Schema.x-kubernetes-validations[0].rule": "self.metadata.name.size() < 20",
			},
		},
		"CELClaimNamespace": {
			reason:     "CEL cannot read metadata.namespace: a rule reading the claim's namespace stops the conversion (C410).",
			in:         strings.Replace(xrdV1("", ""), "        type: object\n        properties:\n", "        type: object\n        x-kubernetes-validations:\n        - rule: \"self.spec.claimRef.namespace != 'default'\"\n        properties:\n", 1),
			opts:       v2(convert.Options{}),
			want:       []convert.Code{"C410"},
			wantFailed: true,
			wantSame:   true,
		},
		"CELUserField": {
			reason: "A rule reading a writeConnectionSecretToRef that the schema declares reads the user's field.",
			in:     strings.Replace(xrdV1("", ""), "              region:\n", "              writeConnectionSecretToRef:\n                type: object\n                x-kubernetes-validations:\n                - rule: has(self.name)\n              region:\n", 1),
			opts:   v2(convert.Options{}),
			want:   []convert.Code{"C401"},
		},
		"Malformed": {
			reason:     "An XRD without a plural cannot be named (C413).",
			in:         strings.Replace(xrdV1("", ""), "    plural: xbuckets\n", "", 1),
			opts:       v2(convert.Options{}),
			want:       []convert.Code{"C413"},
			wantFailed: true,
			wantSame:   true,
		},
		"Strict": {
			reason:     "--strict turns the collision warning into an error: nothing is converted.",
			in:         xrdV1("  claimNames:\n    kind: Bucket\n    plural: buckets\n", ""),
			opts:       v2(convert.Options{Strict: true}),
			want:       []convert.Code{"C401", "C404", "C403"},
			wantFailed: true,
			wantSame:   true,
		},
		"LegacyScope": {
			reason:   "--xr-scope legacy keeps the v1 XRD as it is.",
			in:       xrdV1("  claimNames:\n    kind: Bucket\n    plural: buckets\n", ""),
			opts:     v2(convert.Options{XRScope: convert.XRScopeLegacy}),
			wantSame: true,
		},
		"TargetV1": {
			reason:   "Target v1 keeps the v1 XRD as it is.",
			in:       xrdV1("", ""),
			opts:     convert.Options{},
			wantSame: true,
		},
		"AlreadyV2": {
			reason:   "A v2 XRD is left alone.",
			in:       strings.Replace(xrdV1("", ""), "apiextensions.crossplane.io/v1\n", "apiextensions.crossplane.io/v2\n", 1),
			opts:     v2(convert.Options{}),
			wantSame: true,
		},
		"AutoClusterScopedKind": {
			reason:     "Under auto, a Composition of the type composing a cluster-scoped kind asks for a choice (C402).",
			in:         xrdV1("", "") + "---\n" + compositionFor("      apiVersion: rbac.authorization.k8s.io/v1\n      kind: ClusterRole\n", "    - fromFieldPath: spec.region\n      toFieldPath: metadata.labels[region]\n"),
			opts:       v2(convert.Options{}),
			want:       []convert.Code{"C402"},
			wantFailed: true,
		},
		"AutoTemplateNamespace": {
			reason:     "Under auto, a template setting metadata.namespace asks for a choice (C402).",
			in:         xrdV1("", "") + "---\n" + compositionFor(bucketBase+"      metadata:\n        namespace: infra\n", "    - fromFieldPath: spec.region\n      toFieldPath: spec.forProvider.region\n"),
			opts:       v2(convert.Options{}),
			want:       []convert.Code{"C402"},
			wantFailed: true,
		},
		"AutoNamespacePatch": {
			reason:     "Under auto, a patch writing metadata.namespace from an XR field asks for a choice (C402).",
			in:         xrdV1("", "") + "---\n" + compositionFor(bucketBase, "    - fromFieldPath: spec.region\n      toFieldPath: metadata.namespace\n"),
			opts:       v2(convert.Options{}),
			want:       []convert.Code{"C402"},
			wantFailed: true,
		},
		"AutoClaimNamespacePatch": {
			reason:     "A patch from the claim's namespace keeps the XR in its namespace: Namespaced.",
			in:         xrdV1("", "") + "---\n" + compositionFor(bucketBase, "    - fromFieldPath: spec.claimRef.namespace\n      toFieldPath: metadata.namespace\n"),
			opts:       v2(convert.Options{}),
			want:       []convert.Code{"C401"},
			wantValues: map[string]any{"spec.scope": "Namespaced"},
		},
		"ForcedNamespaced": {
			reason:     "--xr-scope namespaced decides: the XRD converts.",
			in:         xrdV1("", "") + "---\n" + compositionFor(bucketBase+"      metadata:\n        namespace: infra\n", "    - fromFieldPath: spec.region\n      toFieldPath: spec.forProvider.region\n"),
			opts:       v2(convert.Options{XRScope: convert.XRScopeNamespaced}),
			want:       []convert.Code{"C401"},
			wantValues: map[string]any{"spec.scope": "Namespaced"},
		},
		"AutoCompositionsOption": {
			reason: "Under auto, Compositions given in convert.Options (another file of the tree) count too (C402).",
			in:     xrdV1("", ""),
			opts: v2(convert.Options{Compositions: []map[string]any{decode(compositionFor("      apiVersion: v1\n      kind: Namespace\n",
				"    - fromFieldPath: spec.region\n      toFieldPath: metadata.labels[region]\n"))}}),
			want:       []convert.Code{"C402"},
			wantFailed: true,
			wantSame:   true,
		},
		"ManagedClusterKind": {
			reason:     "A provider's Cluster kind is a managed resource, not a cluster-scoped kind: Namespaced.",
			in:         xrdV1("", "") + "---\n" + compositionFor("      apiVersion: eks.aws.upbound.io/v1beta1\n      kind: Cluster\n", "    - fromFieldPath: spec.region\n      toFieldPath: spec.forProvider.region\n"),
			opts:       v2(convert.Options{}),
			want:       []convert.Code{"C401"},
			wantValues: map[string]any{"spec.scope": "Namespaced"},
		},
		"OtherTypeIgnored": {
			reason:     "Compositions of another XR type do not count: the XRD converts (the Composition of the other type, which composes a Namespace, fails on its own: C448).",
			in:         xrdV1("", "") + "---\n" + strings.Replace(compositionFor("      apiVersion: v1\n      kind: Namespace\n", "    - fromFieldPath: spec.region\n      toFieldPath: metadata.labels[region]\n"), "kind: XBucket", "kind: XQueue", 1),
			opts:       v2(convert.Options{}),
			want:       []convert.Code{"C401"},
			wantFailed: true,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			res, err := Convert([]byte(tc.in), tc.opts)
			if err != nil {
				t.Fatalf("\n%s\nConvert(...): %v", tc.reason, err)
			}
			got := xrdCodes(res.Diagnostics)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("\n%s\nConvert(...) codes: -want, +got:\n%s\n%s", tc.reason, diff, render(res.Diagnostics))
			}
			if res.Failed() != tc.wantFailed {
				t.Errorf("\n%s\nConvert(...).Failed(): want %t, got %t", tc.reason, tc.wantFailed, res.Failed())
			}
			first := strings.SplitN(string(res.Output), "\n---\n", 2)[0]
			inFirst := strings.SplitN(tc.in, "\n---\n", 2)[0]
			if tc.wantSame && first != inFirst {
				t.Errorf("\n%s\nConvert(...): want the XRD unchanged, got:\n%s", tc.reason, first)
			}
			var obj map[string]any
			if err := yaml.Unmarshal([]byte(first), &obj); err != nil {
				t.Fatalf("\n%s\nConvert(...): output is not YAML: %v", tc.reason, err)
			}
			p := fieldpath.Pave(obj)
			for path, want := range tc.wantValues {
				v, err := p.GetValue(path)
				if err != nil || !cmp.Equal(want, v) {
					t.Errorf("\n%s\nConvert(...) %s: want %v, got %v (%v)", tc.reason, path, want, v, err)
				}
			}
			for _, path := range tc.wantAbsent {
				if v, err := p.GetValue(path); err == nil {
					t.Errorf("\n%s\nConvert(...) %s: want absent, got %v", tc.reason, path, v)
				}
			}
			if res.Failed() {
				return
			}
			checkV2XRD(t, res.Output)
			again, err := Convert(res.Output, tc.opts)
			if err != nil || !bytes.Equal(again.Output, res.Output) {
				t.Errorf("\n%s\nConvert(output): converting the output again changed it (%v):\n%s", tc.reason, err, again.Output)
			}
		})
	}
}

// decode returns the object of a YAML document.
func decode(doc string) map[string]any {
	var m map[string]any
	if err := yaml.Unmarshal([]byte(doc), &m); err != nil {
		panic(err)
	}
	return m
}

// xrdCodes returns the codes of the findings about documents, without the
// Composition conversion's own (C1xx–C3xx other than the round trip).
func xrdCodes(ds []convert.Diagnostic) []convert.Code {
	var out []convert.Code
	for _, c := range codes(ds) {
		// The XRD's; Compositions' are tested in v2composition_test.go, and
		// C416 (said of every XRD that converts) in TestV2XRDConnectionSecretRef.
		if c >= "C401" && c <= "C419" && c != "C416" {
			out = append(out, c)
		}
	}
	return out
}

// FuzzV2XRD checks that the v2 XRD conversion never panics, leaves a
// document it refuses as it was, writes YAML, and is idempotent. Seeds are
// the XRDs of the table tests and the realistic golden input.
func FuzzV2XRD(f *testing.F) {
	f.Add([]byte(xrdV1("  claimNames:\n    kind: Bucket\n    plural: buckets\n  connectionSecretKeys: [a]\n", "    additionalPrinterColumns:\n    - name: C\n      type: string\n      jsonPath: .spec.claimRef.namespace\n")), uint8(0))
	f.Add([]byte(xrdV1("", "")+"---\n"+compositionFor(bucketBase, "    - fromFieldPath: spec.region\n      toFieldPath: metadata.namespace\n")), uint8(1))
	if b, err := os.ReadFile(filepath.Join("testdata", "xrd", "realistic", "input.yaml")); err == nil {
		f.Add(b, uint8(2))
	}
	f.Fuzz(func(t *testing.T, in []byte, mode uint8) {
		opts := convert.Options{Source: "fuzz.yaml", Target: crossplane.V2, XRScope: convert.XRScopes[int(mode)%3]}
		if mode&4 != 0 {
			opts.XRNaming, opts.XRGroup = convert.XRNamingNewGroup, "platform.example.org"
		}
		res, err := Convert(in, opts)
		if err != nil {
			if !convert.IsInvalidInput(err) {
				t.Fatalf("Convert(...): an error that is not an convert.InputError: %v", err)
			}
			return
		}
		for _, c := range manifest.Split(res.Output) {
			if _, err := yamledit.Parse(c.Text); err != nil {
				t.Fatalf("Convert(...): output document at line %d is not YAML: %v\n%s", c.TextLine, err, res.Output)
			}
		}
		if res.Failed() {
			// Each refused document is copied unchanged; the others of the
			// stream convert (migrate then writes nothing of the file).
			ins, outs := manifest.Split(in), manifest.Split(res.Output)
			for _, d := range res.Documents {
				if d.Status != convert.StatusFailed {
					continue
				}
				if len(ins) != len(outs) || d.Index >= len(ins) || !bytes.Equal(ins[d.Index].Text, outs[d.Index].Text) {
					t.Fatalf("Convert(...): document %d failed, but was changed", d.Index)
				}
			}
			return
		}
		again, err := Convert(res.Output, opts)
		if err != nil || again.Failed() {
			t.Fatalf("Convert(Convert(...)): %v %v\n%s", err, again.Diagnostics, res.Output)
		}
		if !bytes.Equal(again.Output, res.Output) {
			t.Fatalf("Convert(...) is not idempotent:\n-%q\n+%q", res.Output, again.Output)
		}
	})
}

// TestV2XRDConnectionSecretRef: the v2 XRD declares
// spec.writeConnectionSecretToRef (C416), which every v1 XR and claim had
// and function-patch-and-transform names the XR's connection Secret by:
// name only for Namespaced XRs, name and namespace for Cluster ones; a
// schema that declares it keeps its own; a version without a schema gets
// one; a v1beta1 XRD (the earlier spelling of v1) converts too.
func TestV2XRDConnectionSecretRef(t *testing.T) {
	const path = "spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.writeConnectionSecretToRef"
	noSchema := strings.SplitN(xrdV1("", ""), "    schema:", 2)[0]
	own := xrdV1("", "") + "              writeConnectionSecretToRef:\n                type: object\n                x-kubernetes-preserve-unknown-fields: true\n"
	cases := map[string]struct {
		reason       string
		in           string
		opts         convert.Options
		wantCodes    []convert.Code
		wantRequired []any
		wantOwn      bool
	}{
		"Namespaced": {
			reason:       "A Namespaced XR's Secret is in its namespace: the name only, required, as a claim's.",
			in:           xrdV1("", ""),
			opts:         convert.Options{Target: crossplane.V2, XRScope: convert.XRScopeNamespaced},
			wantCodes:    []convert.Code{"C401", "C416"},
			wantRequired: []any{"name"},
		},
		"Cluster": {
			reason:       "A Cluster XR's Secret needs a namespace: name and namespace, as a v1 XR's.",
			in:           xrdV1("", ""),
			opts:         convert.Options{Target: crossplane.V2, XRScope: convert.XRScopeCluster},
			wantCodes:    []convert.Code{"C401", "C416"},
			wantRequired: []any{"name", "namespace"},
		},
		"DeclaredByTheUser": {
			reason:    "A schema that declares the field keeps its own declaration: no C416.",
			in:        own,
			opts:      convert.Options{Target: crossplane.V2, XRScope: convert.XRScopeNamespaced},
			wantCodes: []convert.Code{"C401"},
			wantOwn:   true,
		},
		"NoSchema": {
			reason:       "A version without a schema gets one that declares the spec and the field.",
			in:           noSchema,
			opts:         convert.Options{Target: crossplane.V2, XRScope: convert.XRScopeNamespaced},
			wantCodes:    []convert.Code{"C401", "C416"},
			wantRequired: []any{"name"},
		},
		"V1beta1": {
			reason:       "An apiextensions.crossplane.io/v1beta1 XRD has v1's spec: it converts as v1 does.",
			in:           strings.Replace(xrdV1("", ""), "apiextensions.crossplane.io/v1", "apiextensions.crossplane.io/v1beta1", 1),
			opts:         convert.Options{Target: crossplane.V2, XRScope: convert.XRScopeNamespaced},
			wantCodes:    []convert.Code{"C401", "C416"},
			wantRequired: []any{"name"},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			res, err := Convert([]byte(tc.in), tc.opts)
			if err != nil || res.Failed() {
				t.Fatalf("\n%s\nConvert(...): %v\n%s", tc.reason, err, render(res.Diagnostics))
			}
			var got []convert.Code
			for _, c := range codes(res.Diagnostics) {
				if c >= "C401" && c <= "C419" {
					got = append(got, c)
				}
			}
			if diff := cmp.Diff(tc.wantCodes, got); diff != "" {
				t.Errorf("\n%s\nConvert(...) codes: -want, +got:\n%s\n%s", tc.reason, diff, render(res.Diagnostics))
			}
			p := fieldpath.Pave(decode(string(res.Output)))
			if av, _ := p.GetString("apiVersion"); av != XRDAPIVersionV2 {
				t.Errorf("\n%s\nConvert(...): apiVersion: want %s, got %s", tc.reason, XRDAPIVersionV2, av)
			}
			if tc.wantOwn {
				if v, err := p.GetValue(path + ".x-kubernetes-preserve-unknown-fields"); err != nil || v != true {
					t.Errorf("\n%s\nConvert(...): want the user's declaration kept, got %v (%v)", tc.reason, v, err)
				}
				return
			}
			req, err := p.GetValue(path + ".required")
			if err != nil {
				t.Fatalf("\n%s\nConvert(...): %s.required: %v\n%s", tc.reason, path, err, res.Output)
			}
			if diff := cmp.Diff(tc.wantRequired, req); diff != "" {
				t.Errorf("\n%s\nConvert(...) %s.required: -want, +got:\n%s", tc.reason, path, diff)
			}
			for _, f := range tc.wantRequired {
				if typ, _ := p.GetString(path + ".properties." + f.(string) + ".type"); typ != "string" {
					t.Errorf("\n%s\nConvert(...): %s.properties.%s.type: want string, got %q", tc.reason, path, f, typ)
				}
			}
			if typ, _ := p.GetString("spec.versions[0].schema.openAPIV3Schema.properties.spec.type"); typ != "object" {
				t.Errorf("\n%s\nConvert(...): the spec's type: want object, got %q", tc.reason, typ)
			}
		})
	}
}
