package native

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const mixed = "cannot mix named and anonymous resources, all resources must have a name or none must have a name"

const (
	enumV117 = `supported values: "FromCompositeFieldPath", "FromEnvironmentFieldPath", "PatchSet", "ToCompositeFieldPath", "ToEnvironmentFieldPath", "CombineFromEnvironment", "CombineFromComposite", "CombineToComposite", "CombineToEnvironment"`
	enumV120 = `supported values: "FromCompositeFieldPath", "PatchSet", "ToCompositeFieldPath", "CombineFromComposite", "CombineToComposite"`
	enumEnv  = `supported values: "FromCompositeFieldPath", "ToCompositeFieldPath", "CombineFromComposite", "CombineToComposite"`
)

func TestValidate(t *testing.T) {
	type args struct {
		spec string
		opts []ValidateOption
		// undefaulted skips Default before Validate.
		undefaulted bool
	}
	cases := map[string]struct {
		reason string
		args   args
		want   []string
	}{
		"VA001ResourcesModeWithoutResources": {
			reason: "VA-001: Resources mode (the default) needs at least one template.",
			args:   args{spec: "resources: []"},
			want:   []string{"spec.resources: Required value: an array of resources is required in Resources mode (the default if no mode is specified)"},
		},
		"VA001ResourcesAbsent": {
			reason: "VA-001: an absent resources list is the same as an empty one.",
			args:   args{spec: "mode: Resources"},
			want:   []string{"spec.resources: Required value: an array of resources is required in Resources mode (the default if no mode is specified)"},
		},
		"VA002NamedThenAnonymous": {
			reason: "VA-002: an anonymous template after a named one is Required.",
			args:   args{spec: "resources: [{name: a, base: BASE}, {base: BASE}]"},
			want:   []string{"spec.resources[1].name: Required value: " + mixed},
		},
		"VA003AnonymousThenNamed": {
			reason: "VA-003: a named template after an anonymous one is Invalid.",
			args:   args{spec: "resources: [{base: BASE}, {name: a, base: BASE}]"},
			want:   []string{`spec.resources[1].name: Invalid value: "a": ` + mixed},
		},
		"VA003EveryDifferingTemplate": {
			reason: "VA-003: every template whose style differs from template 0 is reported.",
			args:   args{spec: "resources: [{base: BASE}, {name: a, base: BASE}, {name: b, base: BASE}]"},
			want: []string{
				`spec.resources[1].name: Invalid value: "a": ` + mixed,
				`spec.resources[2].name: Invalid value: "b": ` + mixed,
			},
		},
		"VA004DuplicateNames": {
			reason: "VA-004: template names are unique.",
			args:   args{spec: "resources: [{name: a, base: BASE}, {name: a, base: BASE}]"},
			want:   []string{`spec.resources[1].name: Duplicate value: "a"`},
		},
		"AnonymousWithPipeline": {
			reason: "A non-empty pipeline makes anonymous templates invalid even in Resources mode.",
			args:   args{spec: "resources: [{base: BASE}]\npipeline: [{step: s, functionRef: {name: f}}]"},
			want:   []string{"spec.resources[0].name: Required value: cannot have anonymous resources when composition has functions"},
		},
		"PipelineModeWithoutPipeline": {
			reason: "Pipeline mode needs pipeline steps.",
			args:   args{spec: "mode: Pipeline"},
			want:   []string{"spec.pipeline: Required value: an array of pipeline steps is required in Pipeline mode"},
		},
		"VA005PatchSetInPatchSet": {
			reason: "VA-005: a patch set cannot include a patch set.",
			args:   args{spec: "patchSets: [{name: p, patches: [{type: PatchSet, patchSetName: q}]}]\nresources: [{base: BASE}]"},
			want:   []string{`spec.patchSets[0].patches[0].type: Invalid value: "PatchSet": cannot use patches within patches`},
		},
		"VA006UndeclaredPatchSet": {
			reason: "VA-006: a PatchSet patch must name a declared patch set.",
			args:   args{spec: "resources: [{base: BASE, patches: [{type: PatchSet, patchSetName: q}]}]"},
			want:   []string{`spec.resources[0].patches[0].patchSetName: Invalid value: "q": patchSetName must be the name of a declared patchSet`},
		},
		"PatchSetWithoutName": {
			reason: "A PatchSet patch without a name is reported twice, by the patch set check and by the patch check, in that order.",
			args:   args{spec: "resources: [{base: BASE, patches: [{type: PatchSet}]}]"},
			want: []string{
				"spec.resources[0].patches[0].patchSetName: Required value: must be specified when type is patchSet",
				"spec.resources[0].patches[0].patchSetName: Required value: patchSetName must be set for patch type PatchSet",
			},
		},
		"VA007FromFieldPathRequired": {
			reason: "VA-007: a FromCompositeFieldPath patch needs fromFieldPath.",
			args:   args{spec: "resources: [{base: BASE, patches: [{type: FromCompositeFieldPath, toFieldPath: x}]}]"},
			want:   []string{"spec.resources[0].patches[0].fromFieldPath: Required value: fromFieldPath must be set for patch type FromCompositeFieldPath"},
		},
		"VA007UndefaultedType": {
			reason: "Q-1: validation treats an absent type as FromCompositeFieldPath but prints the type as written (empty).",
			args:   args{spec: "resources: [{base: BASE, patches: [{toFieldPath: x}]}]", undefaulted: true, opts: []ValidateOption{LogicalOnly()}},
			want:   []string{"spec.resources[0].patches[0].fromFieldPath: Required value: fromFieldPath must be set for patch type "},
		},
		"VA008CombineNeedsToFieldPath": {
			reason: "VA-008: a Combine patch needs toFieldPath.",
			args:   args{spec: `resources: [{base: BASE, patches: [{type: CombineFromComposite, combine: {strategy: string, variables: [{fromFieldPath: a}], string: {fmt: "%s"}}}]}]`},
			want:   []string{"spec.resources[0].patches[0].toFieldPath: Required value: toFieldPath must be set for patch type CombineFromComposite"},
		},
		"CombineNeedsCombine": {
			reason: "A Combine patch needs its combine block, checked before toFieldPath.",
			args:   args{spec: "resources: [{base: BASE, patches: [{type: CombineToComposite}]}]"},
			want:   []string{"spec.resources[0].patches[0].combine: Required value: combine must be set for patch type CombineToComposite"},
		},
		"VA009FirstBadTransformOnly": {
			reason: "VA-009: only the first invalid transform of a patch is reported.",
			args:   args{spec: "resources: [{base: BASE, patches: [{fromFieldPath: a, transforms: [{type: math, math: {type: ClampMin}}, {type: map, map: {}}]}]}]"},
			want:   []string{"spec.resources[0].patches[0].transforms[0].math.clampMin: Required value: must specify a value if a clamp min math transform is specified"},
		},
		"EmptyMap": {
			reason: "A map transform needs at least one pair; the path names the pairs.",
			args:   args{spec: "resources: [{base: BASE, patches: [{fromFieldPath: a, transforms: [{type: map, map: {}}]}]}]"},
			want:   []string{"spec.resources[0].patches[0].transforms[0].map.pairs: Required value: at least one pair must be specified if a map transform is specified"},
		},
		"MissingTransformConfig": {
			reason: "A transform whose block is missing is reported by the logical validation.",
			args:   args{spec: "resources: [{base: BASE, patches: [{fromFieldPath: a, transforms: [{type: string}]}]}]"},
			want:   []string{"spec.resources[0].patches[0].transforms[0].string: Required value: given transform type string requires configuration"},
		},
		"MultiplyByDefault": {
			reason: "A defaulted math type is Multiply, which needs multiply.",
			args:   args{spec: "resources: [{base: BASE, patches: [{fromFieldPath: a, transforms: [{type: math, math: {clampMax: 3}}]}]}]"},
			want:   []string{"spec.resources[0].patches[0].transforms[0].math.multiply: Required value: must specify a value if a multiply math transform is specified"},
		},
		"VA010InvalidRegexp": {
			reason: "VA-010: a string Regexp transform needs a valid regexp.",
			args:   args{spec: `resources: [{base: BASE, patches: [{fromFieldPath: a, transforms: [{type: string, string: {type: Regexp, regexp: {match: "("}}}]}]}]`},
			want:   []string{`spec.resources[0].patches[0].transforms[0].string.regexp.match: Invalid value: "(": invalid regexp`},
		},
		"StringReplaceIsNotNative": {
			reason: "Replace exists only in function-patch-and-transform: the CRD enum and the webhook both reject it.",
			args:   args{spec: `resources: [{base: BASE, patches: [{fromFieldPath: a, transforms: [{type: string, string: {type: Replace}}]}]}]`},
			want: []string{
				`spec.resources[0].patches[0].transforms[0].string.type: Unsupported value: "Replace": supported values: "Format", "Convert", "TrimPrefix", "TrimSuffix", "Regexp", "Join"`,
				`spec.resources[0].patches[0].transforms[0].string.type: Invalid value: "Replace": unknown string transform type`,
			},
		},
		"VA011MatchWithoutPatterns": {
			reason: "VA-011: a match transform needs at least one pattern.",
			args:   args{spec: "resources: [{base: BASE, patches: [{fromFieldPath: a, transforms: [{type: match, match: {fallbackValue: 1}}]}]}]"},
			want:   []string{"spec.resources[0].patches[0].transforms[0].match.patterns: Required value: at least one pattern must be specified if a match transform is specified"},
		},
		"MatchPatternNeedsRegexp": {
			reason: "A regexp pattern needs a regexp; a pattern without result is rejected by the schema.",
			args:   args{spec: "resources: [{base: BASE, patches: [{fromFieldPath: a, transforms: [{type: match, match: {patterns: [{type: regexp, result: null}]}}]}]}]"},
			want: []string{
				"spec.resources[0].patches[0].transforms[0].match.patterns[0].result: Required value",
				"spec.resources[0].patches[0].transforms[0].match.patterns[0].regexp: Required value: regexp pattern type requires a regexp",
			},
		},
		"VA012InvalidConvertType": {
			reason: "VA-012: convert toType must be known; the CRD enum rejects it before the webhook does.",
			args:   args{spec: "resources: [{base: BASE, patches: [{fromFieldPath: a, transforms: [{type: convert, convert: {toType: list}}]}]}]"},
			want: []string{
				`spec.resources[0].patches[0].transforms[0].convert.toType: Unsupported value: "list": supported values: "string", "int", "int64", "bool", "float64", "object", "array"`,
				`spec.resources[0].patches[0].transforms[0].convert.toType: Invalid value: "list": invalid type`,
			},
		},
		"VA012LogicalOnly": {
			reason: "VA-012: the reconcile-time validation reports only the logical error.",
			args:   args{spec: "resources: [{base: BASE, patches: [{fromFieldPath: a, transforms: [{type: convert, convert: {toType: list}}]}]}]", opts: []ValidateOption{LogicalOnly()}},
			want:   []string{`spec.resources[0].patches[0].transforms[0].convert.toType: Invalid value: "list": invalid type`},
		},
		"VA013ReadinessChecks": {
			reason: "VA-013: 0 and \"\" are unset; MatchCondition needs type and status (an explicit \"\" is not defaulted).",
			args:   args{spec: `resources: [{base: BASE, readinessChecks: [{type: MatchInteger, fieldPath: a, matchInteger: 0}, {type: MatchString, matchString: x}, {type: MatchCondition, matchCondition: {type: "", status: "True"}}]}]`},
			want: []string{
				"spec.resources[0].readinessChecks[0].matchInteger: Required value: cannot be 0 for type MatchInteger",
				"spec.resources[0].readinessChecks[1].fieldPath: Required value: cannot be empty",
				"spec.resources[0].readinessChecks[2].matchCondition.type: Required value: cannot be empty for type MatchCondition",
			},
		},
		"UnknownReadinessCheck": {
			reason: "An unknown readiness check type is rejected by the schema and the webhook.",
			args:   args{spec: "resources: [{base: BASE, readinessChecks: [{type: Foo}]}]"},
			want: []string{
				`spec.resources[0].readinessChecks[0].type: Unsupported value: "Foo": supported values: "MatchString", "MatchInteger", "NonEmpty", "MatchCondition", "MatchTrue", "MatchFalse", "None"`,
				`spec.resources[0].readinessChecks[0].type: Invalid value: "Foo": unknown readiness check type`,
			},
		},
		"VA014EnvironmentSelectionIsDelegated": {
			reason: "VA-014: the environment selection is package environment's to validate; this package reports nothing for it.",
			args: args{spec: `resources: [{base: BASE}]
environment: {environmentConfigs: [{type: Selector, selector: {mode: Single, maxMatch: 1, matchLabels: [{type: FromCompositeFieldPath, key: a, valueFromFieldPath: ""}]}}, {type: Reference}, {type: Selector, selector: {matchLabels: []}}]}`},
			want: nil,
		},
		"VA015EnvironmentPatch": {
			reason: "VA-015: environment patches are validated like template patches.",
			args:   args{spec: "resources: [{base: BASE}]\nenvironment: {patches: [{type: FromCompositeFieldPath}]}"},
			want:   []string{"spec.environment.patches[0].fromFieldPath: Required value: fromFieldPath must be set for patch type FromCompositeFieldPath"},
		},
		"VA015EnvironmentPatchTypes": {
			reason: "VA-015: the v1.17 CRD allows only the four Composite types in environment patches; the logical check allows all nine.",
			args:   args{spec: "resources: [{base: BASE}]\nenvironment: {patches: [{type: FromEnvironmentFieldPath, fromFieldPath: a}]}"},
			want:   []string{`spec.environment.patches[0].type: Unsupported value: "FromEnvironmentFieldPath": ` + enumEnv},
		},
		"VA015EnvironmentNotValidatedForV120": {
			reason: "v1.20 prunes spec.environment, so it is not validated.",
			args:   args{spec: "resources: [{base: BASE}]\nenvironment: {patches: [{type: FromCompositeFieldPath}]}", opts: []ValidateOption{ForTarget(TargetV120)}},
			want:   nil,
		},
		"VA016PatchSetPatch": {
			reason: "VA-016: patches in patch sets are validated like template patches.",
			args:   args{spec: "patchSets: [{name: p, patches: [{type: ToCompositeFieldPath}]}]\nresources: [{base: BASE}]"},
			want:   []string{"spec.patchSets[0].patches[0].fromFieldPath: Required value: fromFieldPath must be set for patch type ToCompositeFieldPath"},
		},
		"VA017UnknownPatchType": {
			reason: "VA-017: an unknown patch type fails the CRD enum and the webhook.",
			args:   args{spec: "resources: [{base: BASE, patches: [{type: Foo}]}]"},
			want: []string{
				`spec.resources[0].patches[0].type: Unsupported value: "Foo": ` + enumV117,
				`spec.resources[0].patches[0].type: Invalid value: "Foo": unknown patch type`,
			},
		},
		"VA017EnvironmentTypeV117": {
			reason: "v1.17 accepts environment patch types in template and patch set patches.",
			args:   args{spec: "patchSets: [{name: p, patches: [{type: CombineToEnvironment, combine: {strategy: string, variables: [{fromFieldPath: a}]}, toFieldPath: b}]}]\nresources: [{base: BASE, patches: [{type: FromEnvironmentFieldPath, fromFieldPath: a}]}]"},
			want:   nil,
		},
		"VA017EnvironmentTypeV120": {
			reason: "VA-017: v1.20 rejects environment patch types, in the CRD and (for stored revisions) at reconcile time.",
			args:   args{spec: "resources: [{base: BASE, patches: [{type: FromEnvironmentFieldPath, fromFieldPath: a}]}]", opts: []ValidateOption{ForTarget(TargetV120)}},
			want: []string{
				`spec.resources[0].patches[0].type: Unsupported value: "FromEnvironmentFieldPath": ` + enumV120,
				`spec.resources[0].patches[0].type: Invalid value: "FromEnvironmentFieldPath": unknown patch type`,
			},
		},
		"VA017EnvironmentTypeV120Reconcile": {
			reason: "A v1.20 controller refuses a stored revision with an environment patch type.",
			args:   args{spec: "resources: [{base: BASE, patches: [{type: CombineFromEnvironment, fromFieldPath: a}]}]", opts: []ValidateOption{ForTarget(TargetV120), LogicalOnly()}},
			want:   []string{`spec.resources[0].patches[0].type: Invalid value: "CombineFromEnvironment": unknown patch type`},
		},
		"VA018NamelessConnectionDetail": {
			reason: "VA-018: connection details are not validated (a nameless one fails only at run time).",
			args:   args{spec: "resources: [{base: BASE, connectionDetails: [{fromFieldPath: metadata.name}]}]"},
			want:   nil,
		},
		"VA019DuplicatePatchSetNames": {
			reason: "VA-019: duplicate patch set names are not rejected.",
			args:   args{spec: "patchSets: [{name: a, patches: []}, {name: a, patches: []}]\nresources: [{base: BASE}]"},
			want:   nil,
		},
		"SchemaRequiredAndEnums": {
			reason: "The schema layer reports missing required fields and values outside enums.",
			args: args{spec: `patchSets: [{name: p}]
resources:
- base: {apiVersion: ex.org/v1, kind: CD}
  patches:
  - fromFieldPath: a
    policy: {fromFieldPath: Sometimes}
    transforms: [{type: convert, convert: {toType: string, format: yaml}}]
  - type: CombineFromComposite
    toFieldPath: b
    combine: {strategy: concat, variables: []}
  connectionDetails: [{type: FromSecret}]`},
			want: []string{
				"spec.patchSets[0].patches: Required value",
				`spec.resources[0].patches[0].policy.fromFieldPath: Unsupported value: "Sometimes": supported values: "Optional", "Required"`,
				`spec.resources[0].patches[0].transforms[0].convert.format: Unsupported value: "yaml": supported values: "none", "quantity", "json"`,
				`spec.resources[0].patches[1].combine.strategy: Unsupported value: "concat": supported values: "string"`,
				"spec.resources[0].patches[1].combine.variables: Invalid value: 0: spec.resources[0].patches[1].combine.variables in body should have at least 1 items",
				`spec.resources[0].connectionDetails[0].type: Unsupported value: "FromSecret": supported values: "FromConnectionSecretKey", "FromFieldPath", "FromValue"`,
				`spec.resources[0].patches[0].transforms[0].convert.format: Invalid value: "yaml": invalid format`,
			},
		},
		"SchemaExplicitEmptyType": {
			reason: "An explicit empty patch type is not defaulted; the CRD enum rejects it, the webhook treats it as FromCompositeFieldPath.",
			args:   args{spec: `resources: [{base: BASE, patches: [{type: "", fromFieldPath: a}]}]`},
			want:   []string{`spec.resources[0].patches[0].type: Unsupported value: "": ` + enumV117},
		},
		"SchemaBase": {
			reason: "A base is an embedded object: apiVersion and kind set and well formed, metadata valid.",
			args: args{spec: `resources:
- name: a
- name: b
  base: {kind: CD}
- name: c
  base: {apiVersion: "a/b/c", kind: "", metadata: {labels: {"bad key!": x}}}
- name: d
  base: "text"`},
			want: []string{
				"spec.resources[0].base: Required value",
				"spec.resources[1].base.apiVersion: Required value",
				`spec.resources[2].base.apiVersion: Invalid value: "a/b/c": unexpected GroupVersion string: a/b/c`,
				`spec.resources[2].base.kind: Invalid value: "": must not be empty`,
				`spec.resources[2].base.metadata.labels: Invalid value: "bad key!": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
				`spec.resources[3].base: Invalid value: "string": spec.resources[3].base in body must be of type object: "string"`,
			},
		},
		"SchemaCompositeTypeRef": {
			reason: "compositeTypeRef needs apiVersion and kind.",
			args:   args{spec: "compositeTypeRef: {}\nresources: [{base: BASE}]"},
			want: []string{
				"spec.compositeTypeRef.apiVersion: Required value",
				"spec.compositeTypeRef.kind: Required value",
			},
		},
		"Valid": {
			reason: "A valid Composition has no errors.",
			args: args{spec: `patchSets: [{name: common, patches: [{fromFieldPath: spec.region, toFieldPath: spec.forProvider.region}]}]
resources:
- name: bucket
  base: {apiVersion: s3.aws.upbound.io/v1beta1, kind: Bucket, metadata: {labels: {a: b}}}
  patches:
  - {type: PatchSet, patchSetName: common}
  - fromFieldPath: spec.size
    toFieldPath: spec.forProvider.size
    transforms:
    - {type: map, map: {small: 1, large: 2}}
    - {type: match, match: {patterns: [{literal: a, result: 1}, {type: regexp, regexp: "^b", result: 2}]}}
    - {type: math, math: {multiply: 2}}
    - {type: string, string: {fmt: "%d"}}
    - {type: string, string: {type: Regexp, regexp: {match: "(a)", group: 1}}}
    - {type: convert, convert: {toType: int64}}
  - {type: ToCompositeFieldPath, fromFieldPath: status.id, toFieldPath: status.id, policy: {fromFieldPath: Required}}
  readinessChecks: [{type: NonEmpty, fieldPath: status.id}]`},
			want: nil,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			data := doc(tc.args.spec)
			if strings.HasPrefix(tc.args.spec, "compositeTypeRef") {
				data = []byte(strings.Replace(string(data), "  compositeTypeRef: {apiVersion: ex.org/v1, kind: XR}\n", "", 1))
			}
			c := mustDecode(t, data)
			if !tc.args.undefaulted {
				c.Default()
			}
			got := errorStrings(c.Validate(tc.args.opts...))
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("\n%s\nValidate(...): -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}
