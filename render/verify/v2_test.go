package verify

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/xpmigrate/xpmigrate/internal/crossplane"
	"github.com/xpmigrate/xpmigrate/internal/errkind"
	"github.com/xpmigrate/xpmigrate/internal/jsonobj"
	"github.com/xpmigrate/xpmigrate/internal/v2map"
)

// v2Case loads testdata/v2, a legacy Composition and its v2-native
// conversion with a declared mapping, and lets a test edit the converted
// Composition's text.
func v2Case(t *testing.T, edit func(string) string) verifyCase {
	t.Helper()
	c := loadCase(t, "testdata/v2")
	c.opts.Target = crossplane.V2
	if edit != nil {
		c.converted.Data = []byte(edit(string(c.converted.Data)))
	}
	return c
}

// unexplainedLines lists a report's unexplained differences, as summary does.
func unexplainedLines(r *Report) []string {
	var out []string
	for _, l := range summary(r) {
		if strings.HasSuffix(l, "UNEXPLAINED") {
			out = append(out, l)
		}
	}
	return out
}

func TestVerifyV2Mapping(t *testing.T) {
	type want struct {
		verdict     Verdict
		fails       bool
		applied     []string
		unexplained []string
		assumption  string
	}
	cases := map[string]struct {
		reason  string
		edit    func(string) string
		samples func([]Sample) []Sample
		strict  bool
		want    want
	}{
		"DeclaredMappingExplainsEverything": {
			reason: "The realistic pair: every difference is a declared edit (C4xx) or one of verify's composer rules (C480-C485), and the verdict says so.",
			want: want{
				verdict: EquivalentUpToMapping,
				applied: []string{"C421", "C422", "C440", "C441", "C442", "C443", "C480", "C481", "C482", "C483", "C484", "C485"},
			},
		},
		"MappedNeverFailsWithStrict": {
			reason: "Mapped differences are the declared transformation: --strict does not fail them.",
			strict: true,
			want: want{
				verdict: EquivalentUpToMapping,
				applied: []string{"C421", "C422", "C440", "C441", "C442", "C443", "C480", "C481", "C482", "C483", "C484", "C485"},
			},
		},
		"UndeclaredEditIsUnexplained": {
			reason: "An edit the converter made but did not declare (providerConfigRef.kind) is a difference nothing explains.",
			edit: func(s string) string {
				return strings.ReplaceAll(s, `{"code":"C441","op":"set","path":"spec.providerConfigRef.kind","value":"ClusterProviderConfig"},`, "")
			},
			want: want{
				verdict:     Different,
				fails:       true,
				applied:     []string{"C421", "C422", "C440", "C442", "C443", "C480", "C481", "C482", "C483", "C484", "C485"},
				unexplained: []string{"resource subnetgroup spec.providerConfigRef.kind: UNEXPLAINED", "resource instance spec.providerConfigRef.kind: UNEXPLAINED"},
			},
		},
		"WrongDeclaredValueIsUnexplained": {
			reason: "A declared edit whose value is not what the v2 Composition renders explains nothing: the field is reported as a difference, not as mapped.",
			edit: func(s string) string {
				return strings.Replace(s, `"path":"apiVersion","value":"rds.aws.m.upbound.io/v1beta1"`, `"path":"apiVersion","value":"rds.aws.m.upbound.io/v1"`, 1)
			},
			want: want{
				verdict: Different,
				fails:   true,
				applied: []string{"C421", "C422", "C440", "C441", "C442", "C443", "C480", "C481", "C482", "C483", "C484", "C485"},
				// The XR's references name the resource by its apiVersion
				// too: they differ as a consequence nothing explains.
				unexplained: []string{
					"resource subnetgroup apiVersion: UNEXPLAINED",
					"xr spec.crossplane.resourceRefs[0].apiVersion: UNEXPLAINED",
					"xr spec.crossplane.resourceRefs[0].kind: UNEXPLAINED",
					"xr spec.crossplane.resourceRefs[0].name: UNEXPLAINED",
					"xr spec.crossplane.resourceRefs[1].kind: UNEXPLAINED",
					"xr spec.crossplane.resourceRefs[1].name: UNEXPLAINED",
				},
			},
		},
		"ChangedRenderIsUnexplained": {
			reason: "A v2 Composition that renders another value than the mapped legacy one is a bug, whatever the mapping declares.",
			edit: func(s string) string {
				return strings.Replace(s, "description: managed by crossplane", "description: managed by someone", 1)
			},
			want: want{
				verdict:     Different,
				fails:       true,
				applied:     []string{"C421", "C422", "C440", "C441", "C442", "C443", "C480", "C481", "C482", "C483", "C484", "C485"},
				unexplained: []string{"resource subnetgroup spec.forProvider.description: UNEXPLAINED"},
			},
		},
		"ClaimOfTheV2Type": {
			reason: "With --xr-naming drop-prefix the v2 XR often takes the claim's apiVersion and kind (XPostgreSQLInstance -> PostgreSQLInstance, C403): a claim of the legacy XRD is still a claim, not a v2 twin.",
			edit: func(s string) string {
				return strings.ReplaceAll(s, "platform.example.org/v1alpha1", "database.example.org/v1alpha1")
			},
			want: want{
				verdict: EquivalentUpToMapping,
				applied: []string{"C421", "C422", "C440", "C441", "C442", "C443", "C480", "C481", "C482", "C483", "C484", "C485"},
			},
		},
		"LegacyXRWithoutClaim": {
			reason: "A legacy XR sample without a claim gets a twin in namespace default (an assumption the report states); the patch rewritten from spec.claimRef.namespace to metadata.namespace then writes a label legacy never wrote.",
			samples: func(ss []Sample) []Sample {
				xr := map[string]any{
					"apiVersion": "database.example.org/v1alpha1", "kind": "XPostgreSQLInstance",
					"metadata": map[string]any{"name": "shared-db"},
					"spec":     map[string]any{"parameters": map[string]any{"region": "eu-west-1", "size": "large", "storageGB": 50}},
				}
				return []Sample{{Name: "legacy-xr", XR: xr}}
			},
			want: want{
				verdict:     Different,
				fails:       true,
				applied:     []string{"C422", "C440", "C441", "C442", "C443", "C480", "C481", "C482", "C483", "C484", "C485"},
				unexplained: []string{"resource subnetgroup metadata.labels[example.org/team]: UNEXPLAINED", "resource instance spec.writeConnectionSecretToRef.name: UNEXPLAINED"},
				assumption:  "a legacy XR sample without a claim: its namespaced v2 twin is rendered in namespace default",
			},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			c := v2Case(t, tc.edit)
			c.opts.Strict = tc.strict
			if tc.samples != nil {
				c.samples = tc.samples(c.samples)
			}
			r := c.verify(t)
			if r.Verdict != tc.want.verdict {
				dump(t, r)
				t.Errorf("\n%s\nVerify(...).Verdict: want %s, got %s", tc.reason, tc.want.verdict, r.Verdict)
			}
			if got := r.Fails(false); got != tc.want.fails {
				t.Errorf("\n%s\nVerify(...).Fails(false): want %t, got %t", tc.reason, tc.want.fails, got)
			}
			if r.Mapping == nil {
				t.Fatalf("\n%s\nVerify(...).Mapping: want the v2 mapping, got none", tc.reason)
			}
			if diff := cmp.Diff(tc.want.applied, r.Mapping.Applied); diff != "" {
				t.Errorf("\n%s\nVerify(...).Mapping.Applied: -want, +got:\n%s", tc.reason, diff)
			}
			if diff := cmp.Diff(tc.want.unexplained, unexplainedLines(r)); diff != "" {
				t.Errorf("\n%s\nVerify(...) unexplained: -want, +got:\n%s", tc.reason, diff)
			}
			if tc.want.assumption != "" && !slices.Contains(r.Assumptions, tc.want.assumption) {
				t.Errorf("\n%s\nVerify(...).Assumptions: want %q among %q", tc.reason, tc.want.assumption, r.Assumptions)
			}
			for _, s := range r.Samples {
				for _, d := range s.Differences {
					if d.Gap != nil && d.Gap.Class == ClassMapped && !slices.Contains(r.Mapping.Applied, d.Gap.Code) {
						t.Errorf("\n%s\nVerify(...): mapped difference %s under %s, a code Mapping.Applied does not list", tc.reason, d.Title(), d.Gap.Code)
					}
				}
			}
		})
	}
}

func TestVerifyV2MappingInput(t *testing.T) {
	cases := map[string]struct {
		reason string
		target crossplane.Target
		edit   func(string) string
		sample map[string]any
		want   string
	}{
		"MappingNeedsTargetV2": {
			reason: "A v2-native Composition cannot be verified against the v1 composer.",
			target: crossplane.V1,
			want:   "verify it with --target v2",
		},
		"MappingTypeMustMatch": {
			reason: "The mapping's v2 type must be the type the Composition composes.",
			target: crossplane.V2,
			edit: func(s string) string {
				return strings.Replace(s, `"to":{"apiVersion":"platform.example.org/v1alpha1"`, `"to":{"apiVersion":"platform.example.org/v1beta1"`, 1)
			},
			want: "maps to platform.example.org/v1beta1 PostgreSQLInstance, but the Composition's compositeTypeRef is platform.example.org/v1alpha1 PostgreSQLInstance",
		},
		"V2SampleRefused": {
			reason: "A sample that is already a v2 XR cannot be rendered on the legacy side: verify asks for the claim or legacy XR.",
			target: crossplane.V2,
			sample: map[string]any{"apiVersion": "platform.example.org/v1alpha1", "kind": "PostgreSQLInstance", "metadata": map[string]any{"name": "orders-db", "namespace": "team-a"}, "spec": map[string]any{"crossplane": map[string]any{}}},
			want:   "sample twin is a v2 PostgreSQLInstance: give the claim or legacy XR it is the twin of",
		},
		"MappingMustDecode": {
			reason: "An annotation that is not a mapping is invalid input.",
			target: crossplane.V2,
			edit: func(s string) string {
				return strings.Replace(s, `{"from":`, `{"bogus":1,"from":`, 1)
			},
			want: "cannot decode the xpmigrate.io/v2-mapping annotation",
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			c := v2Case(t, tc.edit)
			c.opts.Target = tc.target
			if tc.sample != nil {
				c.samples = []Sample{{Name: "twin", XR: tc.sample}}
			}
			_, err := Verify(context.Background(), c.legacy, c.converted, c.samples, c.opts)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("\n%s\nVerify(...): want an error containing %q, got %v", tc.reason, tc.want, err)
			}
			if !errkind.IsInvalidInput(err) {
				t.Errorf("\n%s\nVerify(...): want invalid input (exit 2), got %T", tc.reason, err)
			}
		})
	}
}

func TestVerifyV2ClusterScoped(t *testing.T) {
	c := v2Case(t, nil)
	// The CRDs say the namespaced SubnetGroup twin is cluster-scoped: a
	// namespaced XR cannot compose it, so the v2 side fails to compose.
	c.opts.ClusterScoped = func(apiVersion, kind string) bool {
		return apiVersion == "rds.aws.m.upbound.io/v1beta1" && kind == "SubnetGroup"
	}
	r := c.verify(t)
	if r.Verdict != Different || !r.Fails(false) {
		t.Errorf("Verify(...): want a failing %s verdict, got %s", Different, r.Verdict)
	}
	if got := r.Samples[0].PipelineError; !strings.Contains(got, `cannot apply cluster scoped composed resource "subnetgroup"`) {
		t.Errorf("Verify(...).Samples[0].PipelineError: want the cluster-scoped refusal, got %q", got)
	}
}

// TestVerifyV2ConnectionSecretName: the claim's
// spec.writeConnectionSecretToRef is the v2 twin's own (the v2 XRD
// declares it, convert's C416 and C472), and function-patch-and-transform
// names the composed connection Secret by it first, on the mapped legacy
// side as on the v2 side, also when the step input names another one
// with patches (the converter's <XR>-connection, which copies the XR's
// own name back last).
func TestVerifyV2ConnectionSecretName(t *testing.T) {
	input := `        kind: Resources
        writeConnectionSecretToRef:
          patches:
          - type: CombineFromComposite
            combine:
              variables:
              - fromFieldPath: metadata.name
              strategy: string
              string: {fmt: '%s-connection'}
            toFieldPath: name
          - {type: FromCompositeFieldPath, fromFieldPath: spec.writeConnectionSecretToRef.name, toFieldPath: name}
`
	cases := map[string]struct {
		reason string
		edit   func(string) string
		claim  func(map[string]any)
		want   string
	}{
		"ClaimsReference": {
			reason: "The claim names its Secret: the v2 twin's Secret has that name.",
			want:   "orders-db-conn",
		},
		"ClaimsReferenceOverInputPatches": {
			reason: "The input's patches name <XR>-connection but copy the XR's own name back last: the claim's name wins.",
			edit:   func(s string) string { return strings.Replace(s, "        kind: Resources\n", input, 1) },
			want:   "orders-db-conn",
		},
		"NoReference": {
			reason: "A claim without a reference: the input's patches name it <XR>-connection.",
			edit:   func(s string) string { return strings.Replace(s, "        kind: Resources\n", input, 1) },
			claim: func(c map[string]any) {
				delete(c["spec"].(map[string]any), "writeConnectionSecretToRef")
			},
			want: "orders-db-connection",
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			c := v2Case(t, tc.edit)
			if tc.claim != nil {
				tc.claim(c.samples[0].XR)
			}
			r := c.verify(t)
			if r.Verdict != EquivalentUpToMapping {
				dump(t, r)
				t.Fatalf("\n%s\nVerify(...).Verdict: want %s, got %s", tc.reason, EquivalentUpToMapping, r.Verdict)
			}
			var got []string
			for _, d := range r.Samples[0].Differences {
				if d.Aspect == AspectPresence && d.Resource == "orders-db-connection-secret" && d.Pipeline != nil {
					obj, _ := d.Pipeline.V.(map[string]any)
					got = append(got, jsonobj.String(obj, "metadata", "namespace")+"/"+jsonobj.String(obj, "metadata", "name"))
				}
			}
			if diff := cmp.Diff([]string{"team-a/" + tc.want}, got); diff != "" {
				t.Errorf("\n%s\nVerify(...): the composed connection Secret (namespace/name): -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}

// TestVerifyV2ComposerRules pins the composer rules that relate a legacy
// render to its v2 twin's, found wrong on the corpus: each makes a
// difference the converter's edits caused a mapped one.
func TestVerifyV2ComposerRules(t *testing.T) {
	// legacyPatch and v2Patch add the same patch to subnetgroup's patches
	// on each side (the v2 side's with an explicit type).
	addPatch := func(c *verifyCase, legacyPatch, v2Patch string) {
		c.legacy.Data = []byte(strings.Replace(string(c.legacy.Data), "      patches:\n        - fromFieldPath: spec.parameters.region\n", "      patches:\n"+legacyPatch+"        - fromFieldPath: spec.parameters.region\n", 1))
		c.converted.Data = []byte(strings.Replace(string(c.converted.Data), "            patches:\n              - type: FromCompositeFieldPath\n                fromFieldPath: spec.parameters.region\n", "            patches:\n"+v2Patch+"              - type: FromCompositeFieldPath\n                fromFieldPath: spec.parameters.region\n", 1))
	}
	cases := map[string]struct {
		reason     string
		edit       func(c *verifyCase)
		wantMapped []string // resource/path: code, among the mapped differences
		assumption string
	}{
		"NamedFromTheXRName": {
			reason: "A template named after the XR: the legacy XR's name is generated from the claim's, the v2 twin's is the claim's (C485), and v2 sets no generateName on a resource the Composition names (C482).",
			edit: func(c *verifyCase) {
				addPatch(c, "        - fromFieldPath: metadata.name\n          toFieldPath: metadata.name\n",
					"              - type: FromCompositeFieldPath\n                fromFieldPath: metadata.name\n                toFieldPath: metadata.name\n")
			},
			wantMapped: []string{"subnetgroup/metadata.generateName: C482", "subnetgroup/metadata.name: C485"},
		},
		"ClaimLabelWrittenByTheComposition": {
			reason: "A template that patches the claim-name label itself (rewritten to the XR's name, C427) keeps it on v2: only the labels Crossplane v1 added are dropped (C481).",
			edit: func(c *verifyCase) {
				addPatch(c, "        - fromFieldPath: spec.claimRef.name\n          toFieldPath: metadata.labels['crossplane.io/claim-name']\n",
					"              - type: FromCompositeFieldPath\n                fromFieldPath: metadata.name\n                toFieldPath: metadata.labels['crossplane.io/claim-name']\n")
			},
			wantMapped: []string{"subnetgroup/metadata.labels[crossplane.io/claim-namespace]: C481", "instance/metadata.labels[crossplane.io/claim-name]: C481"},
		},
		"ClaimWithoutNamespace": {
			reason: "A claim without a namespace is rendered in namespace default on both sides (an assumption), so what the legacy side derives from its namespace is what the v2 side derives from the twin's.",
			edit: func(c *verifyCase) {
				delete(c.samples[0].XR["metadata"].(map[string]any), "namespace")
			},
			wantMapped: []string{"subnetgroup/metadata.namespace: C480"},
			assumption: "a claim sample without a namespace: rendered in namespace default, where kubectl creates it, on both sides",
		},
		"AnonymousTemplate": {
			reason: "The mapping names an anonymous legacy template as the converted Composition does (resource-<i>): its declared edits apply.",
			edit: func(c *verifyCase) {
				// Crossplane refuses a mix of named and anonymous templates.
				c.legacy.Data = []byte(strings.Replace(strings.Replace(string(c.legacy.Data), "    - name: subnetgroup\n      base:", "    - base:", 1), "    - name: instance\n      base:", "    - base:", 1))
				c.converted.Data = []byte(strings.ReplaceAll(strings.ReplaceAll(string(c.converted.Data), "subnetgroup", "resource-0"), `"instance"`, `"resource-1"`))
				c.converted.Data = []byte(strings.Replace(string(c.converted.Data), "          - name: instance\n", "          - name: resource-1\n", 1))
			},
			wantMapped: []string{"resource-0/apiVersion: C440", "resource-0/spec.providerConfigRef.kind: C441"},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			c := v2Case(t, nil)
			tc.edit(&c)
			r := c.verify(t)
			if r.Verdict != EquivalentUpToMapping {
				dump(t, r)
				t.Fatalf("\n%s\nVerify(...).Verdict: want %s, got %s (unexplained: %q)", tc.reason, EquivalentUpToMapping, r.Verdict, unexplainedLines(r))
			}
			got := map[string]bool{}
			for _, d := range r.Samples[0].Differences {
				if d.Gap != nil && d.Gap.Class == ClassMapped {
					got[d.Resource+"/"+d.Path.String()+": "+d.Gap.Code] = true
				}
			}
			for _, w := range tc.wantMapped {
				if !got[w] {
					t.Errorf("\n%s\nVerify(...): want the mapped difference %q among %v", tc.reason, w, got)
				}
			}
			if tc.assumption != "" && !slices.Contains(r.Assumptions, tc.assumption) {
				t.Errorf("\n%s\nVerify(...).Assumptions: want %q among %q", tc.reason, tc.assumption, r.Assumptions)
			}
		})
	}
}

// TestVerifyV2SkippedResourceReference: a template whose Required patch
// finds nothing is not composed on either side, but legacy keeps a
// reference to it in the XR; under v2 the references are under
// spec.crossplane, and the difference is still the known gap D7, not an
// unexplained one.
func TestVerifyV2SkippedResourceReference(t *testing.T) {
	c := v2Case(t, nil)
	c.legacy.Data = []byte(strings.Replace(string(c.legacy.Data), "      patches:\n        - fromFieldPath: spec.parameters.region\n",
		"      patches:\n        - fromFieldPath: spec.parameters.missing\n          toFieldPath: spec.forProvider.kmsKeyId\n          policy: {fromFieldPath: Required}\n        - fromFieldPath: spec.parameters.region\n", 1))
	c.converted.Data = []byte(strings.Replace(string(c.converted.Data), "            patches:\n              - type: FromCompositeFieldPath\n                fromFieldPath: spec.parameters.region\n",
		"            patches:\n              - type: FromCompositeFieldPath\n                fromFieldPath: spec.parameters.missing\n                toFieldPath: spec.forProvider.kmsKeyId\n                policy: {fromFieldPath: Required}\n              - type: FromCompositeFieldPath\n                fromFieldPath: spec.parameters.region\n", 1))
	r := c.verify(t)
	if got := unexplainedLines(r); len(got) > 0 {
		dump(t, r)
		t.Fatalf("Verify(...): want no unexplained difference, got %q", got)
	}
	found := false
	for _, d := range r.Samples[0].Differences {
		if d.Aspect == AspectXR && d.Path.String() == "spec.crossplane.resourceRefs" && d.Gap != nil && d.Gap.Code == "D7" {
			found = true
		}
	}
	if !found {
		dump(t, r)
		t.Errorf("Verify(...): want the legacy-only reference under spec.crossplane.resourceRefs explained by D7")
	}
}

// TestV2NestedXRScope: the v2 side composes a nested XR's v2 type the
// mapping declares (C458) in the mapping's scope, whatever the group's
// heuristic says (a provider-like domain reads as a managed resource's);
// other types are scoped as before.
func TestV2NestedXRScope(t *testing.T) {
	m := &v2map.Mapping{Scope: "Namespaced", Resources: []v2map.Resource{{Name: "net", Ops: []v2map.Op{
		{Code: CodeNestedXR, Op: v2map.OpSet, Path: "apiVersion", Value: "aws.platformref.upbound.io/v1alpha1"},
		{Code: CodeNestedXR, Op: v2map.OpSet, Path: "kind", Value: "Network"},
	}}}}
	scoped := (&twin{m: m}).clusterScoped(nil)
	for _, c := range []struct {
		apiVersion, kind string
		want             bool
	}{
		{"aws.platformref.upbound.io/v1alpha1", "Network", false},
		{"aws.platformref.upbound.io/v1alpha1", "XNetwork", true},
		{"ec2.aws.upbound.io/v1beta1", "VPC", true},
		{"ec2.aws.m.upbound.io/v1beta1", "VPC", false},
	} {
		if got := scoped(c.apiVersion, c.kind); got != c.want {
			t.Errorf("clusterScoped(%s, %s): want %t, got %t", c.apiVersion, c.kind, c.want, got)
		}
	}
	m.Scope = "Cluster"
	if !(&twin{m: m}).clusterScoped(nil)("aws.platformref.upbound.io/v1alpha1", "Network") {
		t.Errorf("clusterScoped(...): a nested XR of a Cluster mapping: want cluster-scoped")
	}
}
