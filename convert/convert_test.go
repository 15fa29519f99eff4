package convert

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/xpmigrate/xpmigrate/internal/crossplane"
)

// compositionYAML returns a Composition whose spec holds body (indented two
// spaces, as a spec's keys are).
func compositionYAML(body string) string {
	return "apiVersion: apiextensions.crossplane.io/v1\nkind: Composition\nmetadata:\n  name: c\nspec:\n  compositeTypeRef: {apiVersion: acme.io/v1, kind: X}\n" + body
}

// oneResource returns a spec body with one named template with patches.
func oneResource(patches string) string {
	return "  resources:\n  - name: r\n    base: {apiVersion: nop.crossplane.io/v1alpha1, kind: NopResource}\n    patches:\n" + patches
}

const ptPipeline = `  mode: Pipeline
  pipeline:
  - step: patch-and-transform
    functionRef: {name: function-patch-and-transform}
    input:
      apiVersion: pt.fn.crossplane.io/v1beta1
      kind: Resources
      resources:
      - name: r
        base: {apiVersion: nop.crossplane.io/v1alpha1, kind: NopResource}
        patches:
        - {type: ToCompositeFieldPath, fromFieldPath: status.id, toFieldPath: spec.id}
`

func TestConvert(t *testing.T) {
	cases := map[string]struct {
		reason     string
		in         string
		opts       Options
		want       []Code
		wantStatus []Status
		contains   []string // in the output
		absent     []string // not in the output
	}{
		"PipelineUnchanged": {
			reason:     "A Pipeline Composition is left alone, but its patch-and-transform steps are linted (docs/semantics/conversion.md#mode-decision).",
			in:         compositionYAML(ptPipeline),
			want:       []Code{"C209"},
			wantStatus: []Status{StatusUnchanged},
		},
		"PipelineLeftovers": {
			reason:     "Leftover resources in Pipeline mode are removed (docs/semantics/conversion.md#mode-decision, C201).",
			in:         compositionYAML(ptPipeline + "  resources: []\n"),
			want:       []Code{"C209", "C201"},
			wantStatus: []Status{StatusConverted},
			absent:     []string{"  resources: []"},
		},
		"PipelineMoveEnvPatches": {
			reason:     "--move-env-patches appends the environment patches to the only patch-and-transform step (docs/semantics/conversion.md#pipeline-compositions-with-a-native-environment).",
			in:         compositionYAML("  environment:\n    patches: [{fromFieldPath: spec.team, toFieldPath: team}]\n" + ptPipeline),
			opts:       Options{MoveEnvPatches: true},
			want:       []Code{"C310", "C311", "C209"},
			wantStatus: []Status{StatusConverted},
			contains:   []string{"      environment:\n        patches:\n        - {type: FromCompositeFieldPath, fromFieldPath: spec.team, toFieldPath: team}\n"},
		},
		"PipelineStepNameTaken": {
			reason:     "The environment-configs step gets a suffix when its name is taken (docs/semantics/conversion.md#step-names, C304).",
			in:         compositionYAML("  mode: Pipeline\n  environment:\n    environmentConfigs: [{ref: {name: a}}]\n  pipeline:\n  - {step: environment-configs, functionRef: {name: f}}\n"),
			want:       []Code{"C310", "C311", "C309", "C304"},
			wantStatus: []Status{StatusConverted},
			contains:   []string{"  - step: environment-configs-2\n"},
		},
		"CommentAboveResources": {
			reason:   "The comment above resources stays on pipeline, the key that replaces it (docs/semantics/conversion.md#editing-the-yaml).",
			in:       compositionYAML("  # What we compose\n  resources: # the list\n  - {name: a, base: {apiVersion: v1, kind: A}}\n"),
			contains: []string{"  mode: Pipeline\n  # What we compose\n  pipeline: # the list\n"},
		},
		"Phase1AllNamed": {
			reason:     "--phase1 leaves a Composition whose templates are named alone.",
			in:         compositionYAML("  resources:\n  - {name: a, base: {apiVersion: v1, kind: A}}\n"),
			opts:       Options{Phase1: true},
			wantStatus: []Status{StatusUnchanged},
		},
		"UnknownMode": {
			reason: "An unknown mode is refused (C103).",
			in:     compositionYAML("  mode: Functions\n"),
			want:   []Code{"C103"},
		},
		"OtherVersion": {
			reason: "Only apiextensions.crossplane.io/v1 Compositions are converted (C101).",
			in:     strings.Replace(compositionYAML(oneResource("    - {fromFieldPath: a}\n")), "crossplane.io/v1\n", "crossplane.io/v1beta1\n", 1),
			want:   []Code{"C101"},
		},
		"ResourcesWithPipeline": {
			reason: "Resources mode with pipeline steps is ambiguous (C104).",
			in:     compositionYAML(oneResource("    - {fromFieldPath: a}\n") + "  pipeline: [{step: x, functionRef: {name: f}}]\n"),
			want:   []Code{"C104"},
		},
		"DuplicateNames": {
			reason: "Duplicate template names are refused (C108).",
			in:     compositionYAML("  resources:\n  - {name: a, base: {apiVersion: v1, kind: A}}\n  - {name: a, base: {apiVersion: v1, kind: B}}\n"),
			want:   []Code{"C108"},
		},
		"NoBase": {
			reason: "A template without base is refused (C110).",
			in:     compositionYAML("  resources:\n  - {name: a}\n"),
			want:   []Code{"C110"},
		},
		"BaseWithoutKind": {
			reason: "Crossplane's validation of the base is applied (C110).",
			in:     compositionYAML("  resources:\n  - {name: a, base: {apiVersion: v1}}\n"),
			want:   []Code{"C110"},
		},
		"EnvironmentSourceInvalid": {
			reason: "An environment source is validated as native did (C111).",
			in:     compositionYAML("  environment:\n    environmentConfigs: [{type: Reference}]\n" + oneResource("    - {fromFieldPath: a}\n")),
			want:   []Code{"C310", "C311", "C111"},
		},
		"EnvironmentPatchType": {
			reason: "Environment patches allow only the four Composite types (C112).",
			in:     compositionYAML("  environment:\n    patches: [{type: FromEnvironmentFieldPath, fromFieldPath: a}]\n" + oneResource("    - {fromFieldPath: a}\n")),
			want:   []Code{"C310", "C311", "C112"},
		},
		"PatchSetInPatchSet": {
			reason: "A patch set cannot include another (C114).",
			in:     compositionYAML("  patchSets:\n  - name: s\n    patches: [{type: PatchSet, patchSetName: s}]\n" + oneResource("    - {type: PatchSet, patchSetName: s}\n")),
			want:   []Code{"C114"},
		},
		"UnknownPatchType": {
			reason: "An unknown patch type is refused (C115).",
			in:     compositionYAML(oneResource("    - {type: FromCompositeFieldpath, fromFieldPath: a}\n")),
			want:   []Code{"C115"},
		},
		"MissingFromFieldPath": {
			reason: "Required patch fields are checked, never invented (C116).",
			in:     compositionYAML(oneResource("    - {toFieldPath: a}\n")),
			want:   []Code{"C116"},
		},
		"CombineWithoutVariables": {
			reason: "A Combine patch needs its variables (C116).",
			in:     compositionYAML(oneResource("    - {type: CombineFromComposite, toFieldPath: a, combine: {strategy: string, string: {fmt: '%s'}}}\n")),
			want:   []Code{"C116"},
		},
		"UnknownPatchSet": {
			reason: "A PatchSet patch must name a declared set (C117).",
			in:     compositionYAML(oneResource("    - {type: PatchSet, patchSetName: nope}\n")),
			want:   []Code{"C117"},
		},
		"TransformTwoBlocks": {
			reason: "A transform without type and with two blocks cannot be inferred (C119).",
			in:     compositionYAML(oneResource("    - {fromFieldPath: a, transforms: [{map: {a: b}, math: {multiply: 2}}]}\n")),
			want:   []Code{"C119"},
		},
		"TransformBlockMissing": {
			reason: "A typed transform needs its block (C120).",
			in:     compositionYAML(oneResource("    - {fromFieldPath: a, transforms: [{type: map}]}\n")),
			want:   []Code{"C120"},
		},
		"MathTwoFields": {
			reason: "A math block with two operations and no type is ambiguous (C121).",
			in:     compositionYAML(oneResource("    - {fromFieldPath: a, transforms: [{type: math, math: {multiply: 2, clampMin: 1}}]}\n")),
			want:   []Code{"C121"},
		},
		"ConnectionWithoutSource": {
			reason: "A connection detail needs a source (C123).",
			in:     compositionYAML("  resources:\n  - {name: a, base: {apiVersion: v1, kind: A}, connectionDetails: [{name: x}]}\n"),
			want:   []Code{"C123"},
		},
		"ConnectionBadType": {
			reason: "A connection detail type must be one of three (C125).",
			in:     compositionYAML("  resources:\n  - {name: a, base: {apiVersion: v1, kind: A}, connectionDetails: [{name: x, type: FromSecret, value: v}]}\n"),
			want:   []Code{"C125"},
		},
		"MatchConditionMissing": {
			reason: "A MatchCondition check needs matchCondition (C126).",
			in:     compositionYAML("  resources:\n  - {name: a, base: {apiVersion: v1, kind: A}, readinessChecks: [{type: MatchCondition}]}\n"),
			want:   []Code{"C126"},
		},
		"MatchStringEmpty": {
			reason: "MatchString needs a non-empty matchString, as natively (C127).",
			in:     compositionYAML("  resources:\n  - {name: a, base: {apiVersion: v1, kind: A}, readinessChecks: [{type: MatchString, fieldPath: s, matchString: ''}]}\n"),
			want:   []Code{"C127"},
		},
		"MatchInteger": {
			reason: "MatchInteger never matches in the function (K3, C210).",
			in:     compositionYAML("  resources:\n  - {name: a, base: {apiVersion: v1, kind: A}, readinessChecks: [{type: MatchInteger, fieldPath: s, matchInteger: 3}]}\n"),
			want:   []Code{"C210"},
		},
		"CombineIntegerVerb": {
			reason: "A combine format with %d cannot be compensated (K4, C211).",
			in:     compositionYAML(oneResource("    - {type: CombineFromComposite, toFieldPath: a, combine: {strategy: string, variables: [{fromFieldPath: b}], string: {fmt: 'disk-%d'}}}\n")),
			want:   []Code{"C211"},
		},
		"FormatIntegerVerbXRField": {
			reason: "A %d on an XR field of unknown type gets no convert: it may not be an integer; the float64 print is reported (C212).",
			in:     compositionYAML(oneResource("    - fromFieldPath: spec.size\n      transforms:\n      - type: string\n        string: {fmt: 'disk-%05d'}\n")),
			want:   []Code{"C212"},
			absent: []string{"int64"},
		},
		"FormatIntegerVerbNoCompensate": {
			reason: "--no-compensate=K1 leaves the format alone even where the convert is provably right, and reports the difference (C212).",
			in:     xrdYAML("integer", false) + "---\n" + compositionYAML(oneResource("    - {fromFieldPath: spec.size, transforms: [{type: string, string: {fmt: '%d'}}]}\n")),
			opts:   Options{NoCompensate: []string{CompensateIntegerFormat}},
			want:   []Code{"C212"},
			absent: []string{"int64"},
		},
		"FormatAfterConvert": {
			reason: "No second convert is inserted after an existing integer convert.",
			in:     compositionYAML(oneResource("    - {fromFieldPath: spec.size, transforms: [{type: convert, convert: {toType: int64}}, {type: string, string: {fmt: '%d'}}]}\n")),
			want:   []Code{"C317"},
		},
		"UnknownSpecKeyV1": {
			reason:   "An unknown spec key is kept for v1 (C203).",
			in:       compositionYAML(oneResource("    - {fromFieldPath: a}\n") + "  revisionActivationPolicy: Automatic\n"),
			want:     []Code{"C203"},
			contains: []string{"  revisionActivationPolicy: Automatic\n"},
		},
		"UnknownSpecKeyV2": {
			reason: "An unknown spec key is refused for v2 (C191).",
			in:     compositionYAML(oneResource("    - {fromFieldPath: a}\n") + "  revisionActivationPolicy: Automatic\n"),
			opts:   Options{Target: crossplane.V2, XRScope: XRScopeLegacy},
			want:   []Code{"C191"},
		},
		"UnknownPatchKey": {
			reason: "A key the function does not know is removed from a patch: the API server pruned it (C203).",
			in:     compositionYAML(oneResource("    - {fromFieldPath: a, toFieldPaht: b}\n")),
			want:   []Code{"C203"},
			absent: []string{"toFieldPaht"},
		},
		"DuplicateKey": {
			reason:   "The earlier of two equal keys is removed: kubectl keeps the last.",
			in:       compositionYAML("  resources:\n  - name: a\n    base: {apiVersion: v1, kind: A}\n    patches: [{fromFieldPath: first}]\n    patches: [{fromFieldPath: last}]\n"),
			want:     []Code{"C203"},
			contains: []string{"patches: [{type: FromCompositeFieldPath, fromFieldPath: last}]"},
			absent:   []string{"fromFieldPath: first"},
		},
		"EnvironmentFlagOff": {
			reason: "--assume-env-flag=off drops the environment and the environment patches (docs/semantics/conversion.md#the-environment-feature-flag, C206).",
			in:     compositionYAML("  environment:\n    defaultData: {a: b}\n" + oneResource("    - {type: FromEnvironmentFieldPath, fromFieldPath: a, toFieldPath: b}\n    - {fromFieldPath: c}\n")),
			opts:   Options{EnvironmentFlagOff: true},
			want:   []Code{"C206", "C206"},
			absent: []string{"FromEnvironmentFieldPath", "environment-configs", "defaultData"},
		},
		"LonePolicy": {
			reason: "A lone environment policy is dropped (C308).",
			in:     compositionYAML("  environment:\n    policy: {resolution: Optional}\n" + oneResource("    - {fromFieldPath: a}\n")),
			want:   []Code{"C310", "C311", "C308"},
			absent: []string{"environment-configs", "resolution"},
		},
		"NonDNSNameV2": {
			reason: "A template name that is not a DNS label is reported for v2 (C307).",
			in:     compositionYAML("  resources:\n  - {name: My_DB, base: {apiVersion: v1, kind: A}}\n"),
			opts:   Options{Target: crossplane.V2, XRScope: XRScopeLegacy},
			want:   []Code{"C307"},
		},
		"XRStyleV2": {
			reason: "--xr-style=v2 reports connection details (C322).",
			in:     compositionYAML("  resources:\n  - {name: a, base: {apiVersion: v1, kind: A}, connectionDetails: [{name: x, value: v}]}\n"),
			opts:   Options{XRStyleV2: true},
			want:   []Code{"C322"},
		},
		"XRStyleV2ClaimRef": {
			reason: "--xr-style=v2 reports reads of the claim machinery (C321), and the connection secret namespace (C322).",
			in:     compositionYAML("  writeConnectionSecretsToNamespace: ns\n" + oneResource("    - {fromFieldPath: spec.claimRef.namespace, toFieldPath: metadata.namespace}\n    - {fromFieldPath: \"metadata.labels[crossplane.io/claim-name]\", toFieldPath: x}\n")),
			opts:   Options{XRStyleV2: true},
			want:   []Code{"C322", "C321", "C321"},
		},
		"Strict": {
			reason:     "--strict turns warnings into errors.",
			in:         compositionYAML("  resources:\n  - {base: {apiVersion: v1, kind: A}}\n"),
			opts:       Options{Strict: true},
			want:       []Code{"C204"},
			wantStatus: []Status{StatusFailed},
		},
		"StrictAckUnnamed": {
			reason:     "--ack-unnamed keeps C204 a warning under --strict.",
			in:         compositionYAML("  resources:\n  - {base: {apiVersion: v1, kind: A}}\n"),
			opts:       Options{Strict: true, AckUnnamed: true},
			want:       []Code{"C204"},
			wantStatus: []Status{StatusConverted},
		},
		"AliasBeforeAnchor": {
			reason:   "An alias that would come before its anchor is expanded (C306).",
			in:       compositionYAML("  resources:\n  - name: a\n    base: &d {apiVersion: v1, kind: A}\n  environment:\n    defaultData: *d\n    environmentConfigs: [{ref: {name: a}}]\n"),
			want:     []Code{"C310", "C311", "C306", "C309"},
			contains: []string{"defaultData: {apiVersion: v1, kind: A}"},
		},
		"KeepServerFields": {
			reason:   "--keep-server-fields keeps status and the metadata a cluster adds.",
			in:       compositionYAML("  resources:\n  - {name: a, base: {apiVersion: v1, kind: A}}\nstatus: {x: 1}\n"),
			opts:     Options{KeepServerFields: true},
			contains: []string{"status: {x: 1}"},
		},
		"FunctionNameOption": {
			reason:   "The function name can be set.",
			in:       compositionYAML("  resources:\n  - {name: a, base: {apiVersion: v1, kind: A}}\n"),
			opts:     Options{PTFunction: "pt"},
			contains: []string{"      name: pt\n"},
		},
		"FunctionNameFromManifest": {
			reason:     "A Function manifest in the input names the function (docs/semantics/conversion.md#function-names).",
			in:         "apiVersion: pkg.crossplane.io/v1\nkind: Function\nmetadata: {name: my-pt}\nspec: {package: 'xpkg.upbound.io/crossplane-contrib/function-patch-and-transform:v0.8.2'}\n---\n" + compositionYAML("  resources:\n  - {name: a, base: {apiVersion: v1, kind: A}}\n"),
			wantStatus: []Status{StatusSkipped, StatusConverted},
			contains:   []string{"      name: my-pt\n"},
		},
		"EmitFunctions": {
			reason:   "--emit-functions appends the Function manifests, pinned for the target.",
			in:       compositionYAML("  environment:\n    environmentConfigs: [{ref: {name: a}}]\n  resources:\n  - {name: a, base: {apiVersion: v1, kind: A}}\n"),
			opts:     Options{EmitFunctions: true},
			want:     []Code{"C310", "C311", "C309"},
			contains: []string{"package: xpkg.crossplane.io/crossplane-contrib/function-environment-configs:v0.6.0\n", "package: xpkg.crossplane.io/crossplane-contrib/function-patch-and-transform:v0.10.8\n"},
		},
		"Template": {
			reason: "A Helm template that YAML happens to accept is refused (C102).",
			in:     compositionYAML("  resources:\n  - name: a\n    base: {apiVersion: v1, kind: A, metadata: {name: {{ .Values.name }}}}\n"),
			want:   []Code{"C102"},
		},
		"List": {
			reason:     "The Compositions of a List are converted one by one.",
			in:         "apiVersion: v1\nkind: List\nitems:\n- " + strings.ReplaceAll(strings.TrimSuffix(compositionYAML("  resources:\n  - {name: a, base: {apiVersion: v1, kind: A}}\n"), "\n"), "\n", "\n  ") + "\n- {apiVersion: v1, kind: ConfigMap, metadata: {name: x}}\n",
			wantStatus: []Status{StatusConverted},
			contains:   []string{"- {apiVersion: v1, kind: ConfigMap, metadata: {name: x}}\n", "    mode: Pipeline\n"},
		},
		"Revision": {
			reason:     "CompositionRevisions are not converted (C301).",
			in:         "apiVersion: apiextensions.crossplane.io/v1\nkind: CompositionRevision\nmetadata: {name: r}\n",
			want:       []Code{"C301"},
			wantStatus: []Status{StatusSkipped},
		},
		"JSON": {
			reason:   "A JSON Composition is converted, in block style.",
			in:       `{"apiVersion": "apiextensions.crossplane.io/v1", "kind": "Composition", "metadata": {"name": "c"}, "spec": {"compositeTypeRef": {"apiVersion": "a/v1", "kind": "X"}, "resources": [{"name": "a", "base": {"apiVersion": "v1", "kind": "A"}}]}}` + "\n",
			contains: []string{"mode: Pipeline\n"},
		},
		"CRLF": {
			reason:   "CRLF line breaks are kept.",
			in:       strings.ReplaceAll(compositionYAML("  resources:\n  - {name: a, base: {apiVersion: v1, kind: A}}\n"), "\n", "\r\n"),
			contains: []string{"  mode: Pipeline\r\n"},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			opts := tc.opts
			opts.Source = "in.yaml"
			res, err := Convert([]byte(tc.in), opts)
			if err != nil {
				t.Fatalf("\n%s\nConvert(...): %v", tc.reason, err)
			}
			if diff := cmp.Diff(tc.want, codes(res.Diagnostics)); diff != "" {
				t.Errorf("\n%s\nConvert(...) codes: -want, +got:\n%s\n%s", tc.reason, diff, render(res.Diagnostics))
			}
			if tc.wantStatus != nil {
				var got []Status
				for _, d := range res.Documents {
					got = append(got, d.Status)
				}
				if diff := cmp.Diff(tc.wantStatus, got); diff != "" {
					t.Errorf("\n%s\nConvert(...) statuses: -want, +got:\n%s", tc.reason, diff)
				}
			}
			out := string(res.Output)
			for _, s := range tc.contains {
				if !strings.Contains(out, s) {
					t.Errorf("\n%s\nConvert(...): want the output to contain\n%s\ngot:\n%s", tc.reason, s, out)
				}
			}
			for _, s := range tc.absent {
				if strings.Contains(out, s) {
					t.Errorf("\n%s\nConvert(...): want the output not to contain %q, got:\n%s", tc.reason, s, out)
				}
			}
			if res.Failed() {
				if out != tc.in {
					t.Errorf("\n%s\nConvert(...): failed, but changed the input", tc.reason)
				}
				return
			}
			again, err := Convert(res.Output, opts)
			if err != nil || again.Changed {
				t.Errorf("\n%s\nConvert(output): want unchanged, got changed=%v err=%v\n%s", tc.reason, again != nil && again.Changed, err, again.Output)
			}
		})
	}
}

func TestConvertErrors(t *testing.T) {
	cases := map[string]struct {
		reason      string
		in          string
		opts        Options
		wantInput   bool
		wantOption  bool
		wantMessage string
	}{
		"InvalidYAML": {
			reason:      "YAML that does not parse is an InputError naming the line (C102).",
			in:          "a: 1\n---\nkind: Composition\nspec: [\n",
			wantInput:   true,
			wantMessage: "in.yaml:4: C102 error: cannot parse YAML: did not find expected node content",
		},
		"BadTarget": {
			reason:     "An unknown target is an invalid option.",
			in:         "a: 1\n",
			opts:       Options{Target: "v3"},
			wantOption: true,
		},
		"BadFunctionName": {
			reason:     "A function name must be a DNS-1123 subdomain (C106).",
			in:         "a: 1\n",
			opts:       Options{PTFunction: "Not_Valid"},
			wantOption: true,
		},
		"SameStepNames": {
			reason:     "The two step names must differ.",
			in:         "a: 1\n",
			opts:       Options{PTStep: "x", ECStep: "x"},
			wantOption: true,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			opts := tc.opts
			opts.Source = "in.yaml"
			_, err := Convert([]byte(tc.in), opts)
			if IsInvalidInput(err) != tc.wantInput || IsInvalidOption(err) != tc.wantOption {
				t.Fatalf("\n%s\nConvert(...): want input error %v, option error %v; got %v", tc.reason, tc.wantInput, tc.wantOption, err)
			}
			if tc.wantMessage != "" && err.Error() != tc.wantMessage {
				t.Errorf("\n%s\nConvert(...): -want, +got:\n%s", tc.reason, cmp.Diff(tc.wantMessage, err.Error()))
			}
		})
	}
}

func TestRegistry(t *testing.T) {
	for i, c := range Registry {
		if i > 0 && Registry[i-1].Code >= c.Code {
			t.Errorf("Registry: %s is out of order", c.Code)
		}
		// C4xx (v2-native transformations) choose their severity per code.
		want, ok := map[byte]Severity{'1': SeverityError, '2': SeverityWarning, '3': SeverityInfo}[c.Code[1]]
		if ok && c.Severity != want || !ok && c.Severity == "" {
			t.Errorf("Registry: %s has severity %s, want %s", c.Code, c.Severity, want)
		}
		if got, ok := Lookup(c.Code); !ok || got != c {
			t.Errorf("Lookup(%s): want %v, got %v", c.Code, c, got)
		}
	}
	if _, ok := Lookup("C999"); ok {
		t.Errorf("Lookup(C999): want false")
	}
}
