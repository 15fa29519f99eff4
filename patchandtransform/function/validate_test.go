package function

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/pkg/errors"
)

// The function reports validation errors as result messages, and the PT
// vectors (docs/semantics/pipeline.md#test-vectors) give those messages exactly, so these tests compare the text.

// patch wraps one template patch into an otherwise valid input.
func patch(p string) string {
	return "resources: [{name: a, patches: [" + p + "]}]"
}

// transform wraps one transform into an otherwise valid input.
func transform(tr string) string {
	return patch("{fromFieldPath: spec.x, transforms: [" + tr + "]}")
}

func TestValidate(t *testing.T) {
	cases := map[string]struct {
		reason string
		input  string
		want   string
	}{
		// Vector PT-01.
		"NoInput": {
			reason: "An absent input has neither resources nor environment patches (PT-01).",
			input:  ``,
			want:   "resources: Required value: resources or environment patches are required",
		},
		"EmptyEnvironmentPatches": {
			reason: "An environment without patches does not replace resources.",
			input:  `{environment: {patches: []}, resources: []}`,
			want:   "resources: Required value: resources or environment patches are required",
		},
		"OnlyEnvironmentPatches": {
			reason: "Environment patches alone are a valid input (PT-24).",
			input:  `{environment: {patches: [{fromFieldPath: spec.widgets, toFieldPath: envKey}]}}`,
		},
		"Minimal": {
			reason: "A named template with nothing else is valid.",
			input:  `resources: [{name: a}]`,
		},

		// Patch sets.
		"PatchSetNameRequired": {
			reason: "A patch set needs a name, reported without the patchSets[i] prefix.",
			input:  "{patchSets: [{patches: []}], resources: [{name: a}]}",
			want:   "name: Required value: name is required",
		},
		"PatchSetPatchHasNoPrefix": {
			reason: "A bad patch in a patch set is reported at patches[i], without the patchSets[i] prefix.",
			input:  "{patchSets: [{name: s, patches: [{toFieldPath: x}]}], resources: [{name: a}]}",
			want:   "patches[0].fromFieldPath: Required value: fromFieldPath must be set for patch type FromCompositeFieldPath",
		},
		"PatchSetInPatchSet": {
			reason: "A patch set cannot include another patch set; upstream names its Go type. (With a patchSetName the input would not even decode.)",
			input:  "{patchSets: [{name: s, patches: [{type: PatchSet}]}], resources: [{name: a}]}",
			want:   `patches[0].type: Invalid value: "PatchSet": patch type *v1beta1.PatchSetPatch does not support patch of type PatchSet`,
		},
		"PatchSetsFirst": {
			reason: "Patch sets are checked before the resources-or-environment rule.",
			input:  "{patchSets: [{name: ''}]}",
			want:   "name: Required value: name is required",
		},
		"LaterPatchSet": {
			reason: "Every patch set is checked, still without a prefix.",
			input:  "{patchSets: [{name: s}, {name: t, patches: [{type: CombineFromComposite, toFieldPath: x}]}], resources: [{name: a}]}",
			want:   "patches[0].combine: Required value: combine must be set for patch type CombineFromComposite",
		},

		// Templates.
		"TemplateNameRequired": {
			reason: "Every template needs a name.",
			input:  "resources: [{name: a}, {base: {kind: K}}]",
			want:   "resources[1].name: Required value: name is required",
		},
		"DuplicateNamesAccepted": {
			reason: "Duplicate template names pass; the later template wins at run time.",
			input:  "resources: [{name: a}, {name: a}]",
		},
		"FirstErrorOnly": {
			reason: "Only the first error is reported: patches before connection details before readiness checks.",
			input:  "resources: [{name: a, patches: [{}], connectionDetails: [{}], readinessChecks: [{}]}]",
			want:   "resources[0].patches[0].fromFieldPath: Required value: fromFieldPath must be set for patch type FromCompositeFieldPath",
		},
		"TemplatesBeforeEnvironment": {
			reason: "Templates are checked before environment patches.",
			input:  "{environment: {patches: [{type: CombineToEnvironment}]}, resources: [{name: a, readinessChecks: [{type: NonEmpty}]}]}",
			want:   "resources[0].readinessChecks[0].fieldPath: Required value: cannot be empty",
		},

		// Environment patches.
		"EnvironmentPatchTypeRestricted": {
			reason: "CombineFromEnvironment and CombineToEnvironment are not environment patch types.",
			input:  "environment: {patches: [{fromFieldPath: a}, {type: CombineFromEnvironment}]}",
			want:   `environment.patches[1][type]: Invalid value: "CombineFromEnvironment": invalid environment patch type`,
		},
		"EnvironmentPatchSetRejected": {
			reason: "PatchSet is not an environment patch type. (With a patchSetName the input would not even decode.)",
			input:  "environment: {patches: [{type: PatchSet}]}",
			want:   `environment.patches[0][type]: Invalid value: "PatchSet": invalid environment patch type`,
		},
		"EnvironmentPatchValidated": {
			reason: "An environment patch of an allowed type is then validated like any patch.",
			input:  "environment: {patches: [{type: ToCompositeFieldPath, toFieldPath: spec.x}]}",
			want:   "environment.patches[0].fromFieldPath: Required value: fromFieldPath must be set for patch type ToCompositeFieldPath",
		},
		"EnvironmentPatchDefaultType": {
			reason: "An environment patch without a type is a FromCompositeFieldPath patch.",
			input:  "environment: {patches: [{toFieldPath: x}]}",
			want:   "environment.patches[0].fromFieldPath: Required value: fromFieldPath must be set for patch type FromCompositeFieldPath",
		},
		"EnvironmentFieldPathTypesAccepted": {
			reason: "From/ToEnvironmentFieldPath are accepted in environment patches (since v0.6).",
			input:  "environment: {patches: [{type: FromEnvironmentFieldPath, fromFieldPath: a}, {type: ToEnvironmentFieldPath, fromFieldPath: b}]}",
		},

		// Patches.
		"FromFieldPathRequired": {
			reason: "A FieldPath patch needs fromFieldPath; the type defaults to FromCompositeFieldPath (PT-39).",
			input:  patch("{toFieldPath: spec.x}"),
			want:   "resources[0].patches[0].fromFieldPath: Required value: fromFieldPath must be set for patch type FromCompositeFieldPath",
		},
		"FromFieldPathEmpty": {
			reason: "An empty fromFieldPath counts as missing.",
			input:  patch("{type: ToEnvironmentFieldPath, fromFieldPath: ''}"),
			want:   "resources[0].patches[0].fromFieldPath: Required value: fromFieldPath must be set for patch type ToEnvironmentFieldPath",
		},
		"PatchSetNameMissing": {
			reason: "A PatchSet patch needs patchSetName.",
			input:  patch("{type: PatchSet}"),
			want:   "resources[0].patches[0].patchSetName: Required value: patchSetName must be set for patch type PatchSet",
		},
		"UndefinedPatchSetPasses": {
			reason: "Validation does not resolve patch set names; that fails at run time.",
			input:  patch("{type: PatchSet, patchSetName: nope}"),
		},
		"UnknownPatchType": {
			reason: "An unknown patch type is invalid.",
			input:  patch("{type: FromSomewhere, fromFieldPath: a}"),
			want:   `resources[0].patches[0].type: Invalid value: "FromSomewhere": unknown patch type`,
		},
		"CombineRequired": {
			reason: "A Combine patch needs combine.",
			input:  patch("{type: CombineFromComposite, toFieldPath: x}"),
			want:   "resources[0].patches[0].combine: Required value: combine must be set for patch type CombineFromComposite",
		},
		"CombineToFieldPathRequired": {
			reason: "A Combine patch needs toFieldPath.",
			input:  patch("{type: CombineToComposite, combine: {strategy: string, string: {fmt: '%s'}, variables: [{fromFieldPath: a}]}}"),
			want:   "resources[0].patches[0].toFieldPath: Required value: toFieldPath must be set for patch type CombineToComposite",
		},
		"CombineToFieldPathFromFromFieldPath": {
			reason: "An unset toFieldPath defaults to fromFieldPath, even for a Combine patch.",
			input:  patch("{type: CombineFromEnvironment, fromFieldPath: a, combine: {strategy: string, string: {fmt: '%s'}, variables: [{fromFieldPath: a}]}}"),
		},
		"CombineStrategyRequired": {
			reason: "A Combine needs a strategy (PT-39).",
			input:  patch("{type: CombineFromComposite, toFieldPath: x, combine: {variables: [{fromFieldPath: a}]}}"),
			want:   "resources[0].patches[0].combine.strategy: Required value: a combine strategy must be provided",
		},
		"CombineStrategyUnknown": {
			reason: "string is the only strategy.",
			input:  patch("{type: CombineFromComposite, toFieldPath: x, combine: {strategy: format, variables: [{fromFieldPath: a}]}}"),
			want:   `resources[0].patches[0].combine.strategy: Invalid value: "format": unknown strategy type`,
		},
		"CombineStringRequired": {
			reason: "The string strategy needs its configuration.",
			input:  patch("{type: CombineFromComposite, toFieldPath: x, combine: {strategy: string, variables: [{fromFieldPath: a}]}}"),
			want:   "resources[0].patches[0].combine.string: Required value: string must be set for combine strategy string",
		},
		"CombineVariablesRequired": {
			reason: "A Combine needs at least one variable (PT-39).",
			input:  patch("{type: CombineFromComposite, toFieldPath: x, combine: {strategy: string, string: {fmt: '%s'}}}"),
			want:   "resources[0].patches[0].combine.variables: Required value: at least one variable must be provided",
		},
		"CombineVariableFromFieldPathRequired": {
			reason: "Every variable needs fromFieldPath.",
			input:  patch("{type: CombineToEnvironment, toFieldPath: x, combine: {strategy: string, string: {fmt: '%s'}, variables: [{fromFieldPath: a}, {}]}}"),
			want:   "resources[0].patches[0].combine.variables[1].fromFieldPath: Required value: fromFieldPath must be set for each combine variable",
		},
		"CombineTransformsAndPolicyNotValidated": {
			reason: "Upstream never checks the transforms and policy of a Combine patch.",
			input: patch("{type: CombineFromComposite, toFieldPath: x, combine: {strategy: string, string: {fmt: '%s'}, variables: [{fromFieldPath: a}]}," +
				" transforms: [{type: math}], policy: {toFieldPath: Bogus, fromFieldPath: Sometimes}}"),
		},
		"TransformsBeforePolicy": {
			reason: "A FieldPath patch's transforms are checked before its policy.",
			input:  patch("{fromFieldPath: a, transforms: [{type: map}], policy: {toFieldPath: Bogus}}"),
			want:   "resources[0].patches[0].transforms[0].map: Required value: given transform type map requires configuration",
		},
		"PolicyToFieldPathUnknown": {
			reason: "An unknown policy.toFieldPath is reported at upstream's made-up path policy.toFieldPathPolicy.",
			input:  patch("{fromFieldPath: a, policy: {toFieldPath: MergeEverything}}"),
			want:   `resources[0].patches[0].policy.toFieldPathPolicy: Invalid value: "MergeEverything": unknown toFieldPathPolicy`,
		},
		"PolicyFromFieldPathUnknown": {
			reason: "An unknown policy.fromFieldPath is reported at policy.fromFieldPathPolicy.",
			input:  patch("{fromFieldPath: a, policy: {fromFieldPath: Sometimes}}"),
			want:   `resources[0].patches[0].policy.fromFieldPathPolicy: Invalid value: "Sometimes": unknown fromFieldPathPolicy`,
		},
		"PolicyEmpty": {
			reason: "A policy with neither field means Replace and Optional.",
			input:  patch("{fromFieldPath: a, policy: {}}"),
		},
		"PolicyAllValues": {
			reason: "All seven toFieldPath values, deprecated ones included, and both fromFieldPath values are valid.",
			input: `resources: [{name: a, patches: [
  {fromFieldPath: a, policy: {toFieldPath: Replace, fromFieldPath: Optional}},
  {fromFieldPath: a, policy: {toFieldPath: MergeObjects, fromFieldPath: Required}},
  {fromFieldPath: a, policy: {toFieldPath: MergeObjectsAppendArrays}},
  {fromFieldPath: a, policy: {toFieldPath: ForceMergeObjects}},
  {fromFieldPath: a, policy: {toFieldPath: ForceMergeObjectsAppendArrays}},
  {fromFieldPath: a, policy: {toFieldPath: MergeObject}},
  {fromFieldPath: a, policy: {toFieldPath: AppendArray}}]}]`,
		},

		// Transforms.
		"TransformTypeUnknown": {
			reason: "An unknown transform type is invalid.",
			input:  transform("{type: maths}"),
			want:   `resources[0].patches[0].transforms[0].type: Invalid value: "maths": unknown transform type`,
		},
		"TransformTypeMissing": {
			reason: "A transform type is required; nothing infers it.",
			input:  transform("{map: {a: b}}"),
			want:   `resources[0].patches[0].transforms[0].type: Invalid value: "": unknown transform type`,
		},
		"MathRequired": {
			reason: "A math transform needs its block (PT-39).",
			input:  transform("{type: math}"),
			want:   "resources[0].patches[0].transforms[0].math: Required value: given transform type math requires configuration",
		},
		"MathTypeRequired": {
			reason: "math.type is required; the CRD default Multiply is not applied.",
			input:  transform("{type: math, math: {multiply: 2}}"),
			want:   "resources[0].patches[0].transforms[0].math.type: Required value: math transform type is required",
		},
		"MathTypeUnknown": {
			reason: "An unknown math type is invalid.",
			input:  transform("{type: math, math: {type: Divide}}"),
			want:   `resources[0].patches[0].transforms[0].math.type: Invalid value: "Divide": unknown math transform type`,
		},
		"MathMultiplyRequired": {
			reason: "Multiply needs multiply.",
			input:  transform("{type: math, math: {type: Multiply, clampMin: 2}}"),
			want:   "resources[0].patches[0].transforms[0].math.multiply: Required value: must specify a value if a multiply math transform is specified",
		},
		"MathClampMinRequired": {
			reason: "ClampMin needs clampMin.",
			input:  transform("{type: math, math: {type: ClampMin}}"),
			want:   "resources[0].patches[0].transforms[0].math.clampMin: Required value: must specify a value if a clamp min math transform is specified",
		},
		"MathClampMaxRequired": {
			reason: "ClampMax needs clampMax.",
			input:  transform("{type: math, math: {type: ClampMax}}"),
			want:   "resources[0].patches[0].transforms[0].math.clampMax: Required value: must specify a value if a clamp max math transform is specified",
		},
		"MapRequired": {
			reason: "A map transform needs its block.",
			input:  transform("{type: map}"),
			want:   "resources[0].patches[0].transforms[0].map: Required value: given transform type map requires configuration",
		},
		"MapPairsRequired": {
			reason: "A map transform needs a pair (PT-39).",
			input:  transform("{type: map, map: {}}"),
			want:   "resources[0].patches[0].transforms[0].map.pairs: Required value: at least one pair must be specified if a map transform is specified",
		},
		"MapNullPairCounts": {
			reason: "A pair whose value is null is still a pair.",
			input:  transform("{type: map, map: {a: null}}"),
		},
		"MatchRequired": {
			reason: "A match transform needs its block.",
			input:  transform("{type: match}"),
			want:   "resources[0].patches[0].transforms[0].match: Required value: given transform type match requires configuration",
		},
		"MatchPatternsRequired": {
			reason: "A match transform needs a pattern.",
			input:  transform("{type: match, match: {fallbackValue: x}}"),
			want:   "resources[0].patches[0].transforms[0].match.patterns: Required value: at least one pattern must be specified if a match transform is specified",
		},
		"MatchLiteralRequired": {
			reason: "A literal pattern needs literal.",
			input:  transform("{type: match, match: {patterns: [{type: literal, result: 1}]}}"),
			want:   "resources[0].patches[0].transforms[0].match.patterns[0].literal: Required value: literal pattern type requires a literal",
		},
		"MatchEmptyPatternTypePasses": {
			reason: "A pattern without a type passes validation when it has a literal; it fails at run time (PT-43).",
			input:  transform("{type: match, match: {patterns: [{literal: x, result: 1}]}}"),
		},
		"MatchEmptyPatternTypeNeedsLiteral": {
			reason: "A pattern without a type is checked as a literal pattern.",
			input:  transform("{type: match, match: {patterns: [{regexp: '^a', result: 1}]}}"),
			want:   "resources[0].patches[0].transforms[0].match.patterns[0].literal: Required value: literal pattern type requires a literal",
		},
		"MatchRegexpRequired": {
			reason: "A regexp pattern needs regexp.",
			input:  transform("{type: match, match: {patterns: [{type: literal, literal: a}, {type: regexp, literal: a}]}}"),
			want:   "resources[0].patches[0].transforms[0].match.patterns[1].regexp: Required value: regexp pattern type requires a regexp",
		},
		"MatchRegexpInvalid": {
			reason: "A regexp pattern must compile.",
			input:  transform("{type: match, match: {patterns: [{type: regexp, regexp: '('}]}}"),
			want:   `resources[0].patches[0].transforms[0].match.patterns[0].regexp: Invalid value: "(": invalid regexp`,
		},
		"MatchPatternTypeUnknown": {
			reason: "Only literal and regexp patterns exist.",
			input:  transform("{type: match, match: {patterns: [{type: glob, literal: a}]}}"),
			want:   `resources[0].patches[0].transforms[0].match.patterns[0].type: Invalid value: "glob": unknown pattern type`,
		},
		"StringRequired": {
			reason: "A string transform needs its block.",
			input:  transform("{type: string}"),
			want:   "resources[0].patches[0].transforms[0].string: Required value: given transform type string requires configuration",
		},
		"StringTypeRequired": {
			reason: "string.type is required; the CRD default Format is not applied.",
			input:  transform("{type: string, string: {fmt: '%s'}}"),
			want:   "resources[0].patches[0].transforms[0].string.type: Required value: string transform type is required",
		},
		"StringTypeUnknown": {
			reason: "An unknown string type is invalid.",
			input:  transform("{type: string, string: {type: Upper}}"),
			want:   `resources[0].patches[0].transforms[0].string.type: Invalid value: "Upper": unknown string transform type`,
		},
		"StringFormatRequired": {
			reason: "Format needs fmt.",
			input:  transform("{type: string, string: {type: Format}}"),
			want:   "resources[0].patches[0].transforms[0].string.fmt: Required value: format transform requires a format",
		},
		"StringConvertRequired": {
			reason: "Convert needs convert.",
			input:  transform("{type: string, string: {type: Convert}}"),
			want:   "resources[0].patches[0].transforms[0].string.convert: Required value: convert transform requires a conversion type",
		},
		"StringTrimPrefixRequired": {
			reason: "TrimPrefix needs trim.",
			input:  transform("{type: string, string: {type: TrimPrefix}}"),
			want:   "resources[0].patches[0].transforms[0].string.trim: Required value: trim transform requires a trim value",
		},
		"StringTrimSuffixRequired": {
			reason: "TrimSuffix needs trim.",
			input:  transform("{type: string, string: {type: TrimSuffix}}"),
			want:   "resources[0].patches[0].transforms[0].string.trim: Required value: trim transform requires a trim value",
		},
		"StringRegexpRequired": {
			reason: "Regexp needs regexp.",
			input:  transform("{type: string, string: {type: Regexp}}"),
			want:   "resources[0].patches[0].transforms[0].string.regexp: Required value: regexp transform requires a regexp",
		},
		"StringRegexpMatchRequired": {
			reason: "Regexp needs regexp.match.",
			input:  transform("{type: string, string: {type: Regexp, regexp: {group: 1}}}"),
			want:   "resources[0].patches[0].transforms[0].string.regexp.match: Required value: regexp transform requires a match",
		},
		"StringRegexpInvalid": {
			reason: "regexp.match must compile.",
			input:  transform("{type: string, string: {type: Regexp, regexp: {match: '[a'}}}"),
			want:   `resources[0].patches[0].transforms[0].string.regexp.match: Invalid value: "[a": invalid regexp`,
		},
		"StringJoinRequired": {
			reason: "Join needs join.",
			input:  transform("{type: string, string: {type: Join}}"),
			want:   "resources[0].patches[0].transforms[0].string.join: Required value: join transform requires a join",
		},
		"StringReplaceRequired": {
			reason: "Replace needs replace.",
			input:  transform("{type: string, string: {type: Replace}}"),
			want:   "resources[0].patches[0].transforms[0].string.replace: Required value: replace transform requires a replace",
		},
		"StringReplaceSearchRequired": {
			reason: "Replace needs a non-empty search.",
			input:  transform("{type: string, string: {type: Replace, replace: {search: '', replace: x}}}"),
			want:   "resources[0].patches[0].transforms[0].string.replace.search: Required value: replace transform requires a search",
		},
		"StringAllValid": {
			reason: "Every string type with its setting is valid; the conversion type itself is not checked.",
			input: transform(`{type: string, string: {type: Format, fmt: '%s'}},
  {type: string, string: {type: Convert, convert: ToNothing}},
  {type: string, string: {type: TrimPrefix, trim: ''}},
  {type: string, string: {type: Regexp, regexp: {match: 'a(b)', group: 1}}},
  {type: string, string: {type: Join, join: {separator: ''}}},
  {type: string, string: {type: Replace, replace: {search: a, replace: ''}}}`),
		},
		"ConvertRequired": {
			reason: "A convert transform needs its block.",
			input:  transform("{type: convert}"),
			want:   "resources[0].patches[0].transforms[0].convert: Required value: given transform type convert requires configuration",
		},
		"ConvertFormatInvalid": {
			reason: "The format must be none, quantity or json.",
			input:  transform("{type: convert, convert: {toType: int, format: yaml}}"),
			want:   `resources[0].patches[0].transforms[0].convert.format: Invalid value: "yaml": invalid format`,
		},
		"ConvertToTypeInvalid": {
			reason: "toType must be a known type.",
			input:  transform("{type: convert, convert: {toType: uint}}"),
			want:   `resources[0].patches[0].transforms[0].convert.toType: Invalid value: "uint": invalid type`,
		},
		"ConvertToTypeMissing": {
			reason: "toType is required.",
			input:  transform("{type: convert, convert: {format: json}}"),
			want:   `resources[0].patches[0].transforms[0].convert.toType: Invalid value: "": invalid type`,
		},

		// Connection details.
		"ConnectionDetailTypeRequired": {
			reason: "A connection detail needs a type; nothing infers it.",
			input:  "resources: [{name: a, connectionDetails: [{name: nm, value: v}]}]",
			want:   "resources[0].connectionDetails[0].type: Required value: connection detail type is required",
		},
		"ConnectionDetailTypeUnknown": {
			reason: "An unknown connection detail type is invalid (PT-39).",
			input:  "resources: [{name: a, connectionDetails: [{name: nm, type: FromSecret}]}]",
			want:   `resources[0].connectionDetails[0].type: Invalid value: "FromSecret": unknown connection detail type`,
		},
		"ConnectionDetailNameRequired": {
			reason: "A connection detail needs a name (PT-32).",
			input:  "resources: [{name: a, connectionDetails: [{type: FromValue}]}]",
			want:   "resources[0].connectionDetails[0].name: Required value: name is required",
		},
		"ConnectionDetailValueRequired": {
			reason: "FromValue needs value.",
			input:  "resources: [{name: a, connectionDetails: [{name: nm, type: FromValue}]}]",
			want:   "resources[0].connectionDetails[0].value: Required value: value connection detail requires a value",
		},
		"ConnectionDetailKeyRequired": {
			reason: "FromConnectionSecretKey needs fromConnectionSecretKey.",
			input:  "resources: [{name: a, connectionDetails: [{name: nm, type: FromConnectionSecretKey, fromFieldPath: x}]}]",
			want:   "resources[0].connectionDetails[0].fromConnectionSecretKey: Required value: from connection secret key connection detail requires a key",
		},
		"ConnectionDetailFieldPathRequired": {
			reason: "FromFieldPath needs fromFieldPath.",
			input:  "resources: [{name: a, connectionDetails: [{name: nm, type: FromFieldPath, value: x}]}]",
			want:   "resources[0].connectionDetails[0].fromFieldPath: Required value: from field path connection detail requires a field path",
		},
		"ConnectionDetailEmptyValues": {
			reason: "Sources may be empty strings.",
			input:  "resources: [{name: a, connectionDetails: [{name: nm, type: FromValue, value: ''}, {name: m, type: FromFieldPath, fromFieldPath: ''}]}]",
		},

		// Readiness checks.
		"ReadinessCheckTypeUnknown": {
			reason: "An unknown readiness check type is invalid.",
			input:  "resources: [{name: a, readinessChecks: [{type: Ready}]}]",
			want:   `resources[0].readinessChecks[0].type: Invalid value: "Ready": unknown readiness check type`,
		},
		"ReadinessCheckTypeMissing": {
			reason: "A readiness check type is required.",
			input:  "resources: [{name: a, readinessChecks: [{fieldPath: x}]}]",
			want:   `resources[0].readinessChecks[0].type: Invalid value: "": unknown readiness check type`,
		},
		"ReadinessCheckNone": {
			reason: "None needs nothing else.",
			input:  "resources: [{name: a, readinessChecks: [{type: None}]}]",
		},
		"MatchStringRequired": {
			reason: "MatchString needs matchString.",
			input:  "resources: [{name: a, readinessChecks: [{type: MatchString, fieldPath: x}]}]",
			want:   "resources[0].readinessChecks[0].matchString: Required value: cannot be nil for type MatchString",
		},
		"MatchStringEmptyAllowed": {
			reason: "An empty matchString is allowed.",
			input:  "resources: [{name: a, readinessChecks: [{type: MatchString, fieldPath: x, matchString: ''}]}]",
		},
		"MatchIntegerRequired": {
			reason: "MatchInteger needs matchInteger.",
			input:  "resources: [{name: a, readinessChecks: [{type: MatchInteger, fieldPath: x}]}]",
			want:   "resources[0].readinessChecks[0].matchInteger: Required value: cannot be nil for type MatchInteger",
		},
		"MatchIntegerZeroAllowed": {
			reason: "matchInteger 0 is allowed.",
			input:  "resources: [{name: a, readinessChecks: [{type: MatchInteger, fieldPath: x, matchInteger: 0}]}]",
		},
		"MatchStringFieldPathRequired": {
			reason: "MatchString needs fieldPath after matchString.",
			input:  "resources: [{name: a, readinessChecks: [{type: MatchString, matchString: x}]}]",
			want:   "resources[0].readinessChecks[0].fieldPath: Required value: cannot be empty",
		},
		"NonEmptyFieldPathRequired": {
			reason: "NonEmpty needs fieldPath.",
			input:  "resources: [{name: a, readinessChecks: [{type: NonEmpty}]}]",
			want:   "resources[0].readinessChecks[0].fieldPath: Required value: cannot be empty",
		},
		"MatchTrueFieldPathRequired": {
			reason: "MatchTrue needs fieldPath.",
			input:  "resources: [{name: a, readinessChecks: [{type: MatchTrue}]}]",
			want:   "resources[0].readinessChecks[0].fieldPath: Required value: cannot be empty",
		},
		"MatchFalseFieldPathRequired": {
			reason: "MatchFalse needs fieldPath; an empty one is present.",
			input:  "resources: [{name: a, readinessChecks: [{type: MatchFalse, fieldPath: ''}, {type: MatchFalse}]}]",
			want:   "resources[0].readinessChecks[1].fieldPath: Required value: cannot be empty",
		},
		"MatchConditionMissing": {
			reason: "The toolkit rejects a MatchCondition check without matchCondition, which passes upstream and then crashes PT.",
			input:  "resources: [{name: a, readinessChecks: [{type: MatchCondition}]}]",
			want:   "resources[0].readinessChecks[0].matchCondition: Required value: cannot be nil for type MatchCondition",
		},
		"MatchConditionTypeRequired": {
			reason: "matchCondition.type is required; the CRD default Ready is not applied.",
			input:  "resources: [{name: a, readinessChecks: [{type: MatchCondition, matchCondition: {status: 'True'}}]}]",
			want:   "resources[0].readinessChecks[0].matchCondition.type: Required value: cannot be empty for type MatchCondition",
		},
		"MatchConditionStatusRequired": {
			reason: "matchCondition.status is required; the CRD default True is not applied.",
			input:  "resources: [{name: a, readinessChecks: [{type: MatchCondition, matchCondition: {type: Synced}}]}]",
			want:   "resources[0].readinessChecks[0].matchCondition.status: Required value: cannot be empty for type MatchCondition",
		},
		"MatchConditionNeedsNoFieldPath": {
			reason: "MatchCondition needs no fieldPath.",
			input:  "resources: [{name: a, readinessChecks: [{type: MatchCondition, matchCondition: {type: Ready, status: 'True'}}]}]",
		},

		// Connection Secret.
		"ConnectionSecretNotValidated": {
			reason: "writeConnectionSecretToRef and its patches are never validated; bad types fail at run time.",
			input:  "{resources: [{name: a}], writeConnectionSecretToRef: {patches: [{type: CombineToEnvironment}, {policy: {toFieldPath: Bogus}}]}}",
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			r := mustDecode(t, tc.input)
			got := message(r.Validate())
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("\n%s\nValidate(...): -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}

// TestValidateParts runs the vectors that upstream states for its validation
// helpers one level down, where paths are relative to the part.
func TestValidateParts(t *testing.T) {
	cases := map[string]struct {
		reason string
		run    func() string
		want   string
	}{
		"PT32MissingName": {
			reason: "The connection extractor re-validates each detail and wraps the error as invalid (PT-32).",
			run: func() string {
				err := validateConnectionDetail(ConnectionDetail{Type: "FromValue"})
				return errors.Wrap(err, "invalid").Error()
			},
			want: "invalid: name: Required value: name is required",
		},
		"PT39PatchFromFieldPath": {
			reason: "A FromCompositeFieldPath patch without fromFieldPath.",
			run: func() string {
				return message(validatePatch("FromCompositeFieldPath", &Patch{}, nil))
			},
			want: "fromFieldPath: Required value: fromFieldPath must be set for patch type FromCompositeFieldPath",
		},
		"PT39PatchTransform": {
			reason: "A patch with a math transform without its block.",
			run: func() string {
				return message(validatePatch("FromCompositeFieldPath", &Patch{FromFieldPath: ptr("a"), Transforms: []Transform{{Type: "math"}}}, nil))
			},
			want: "transforms[0].math: Required value: given transform type math requires configuration",
		},
		"PT39CombineStrategy": {
			reason: "A Combine without a strategy.",
			run: func() string {
				return message(validateCombine(&Combine{Variables: []CombineVariable{{FromFieldPath: "a"}}}))
			},
			want: "strategy: Required value: a combine strategy must be provided",
		},
		"PT39CombineVariables": {
			reason: "A Combine without variables.",
			run: func() string {
				return message(validateCombine(&Combine{Strategy: "string", String: &StringCombine{Format: "%s"}}))
			},
			want: "variables: Required value: at least one variable must be provided",
		},
		"PT39ConnectionDetailType": {
			reason: "A connection detail of an unknown type.",
			run: func() string {
				return message(validateConnectionDetail(ConnectionDetail{Name: "n", Type: "Bogus"}))
			},
			want: `type: Invalid value: "Bogus": unknown connection detail type`,
		},
		"PT39MathBlock": {
			reason: "A math transform without its block.",
			run: func() string {
				return message(validateTransform(Transform{Type: "math"}))
			},
			want: "math: Required value: given transform type math requires configuration",
		},
		"PT39MapPairs": {
			reason: "A map transform without pairs.",
			run: func() string {
				return message(validateMap(&MapTransform{}))
			},
			want: "pairs: Required value: at least one pair must be specified if a map transform is specified",
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, tc.run()); diff != "" {
				t.Errorf("\n%s\nvalidate...(...): -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}
