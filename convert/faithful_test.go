package convert

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestUnfaithfulConstructs checks that every construct whose behaviour
// differs between the native composer and the function is converted with
// a warning that says so, or refused; and that validation applies to every
// patch type alike.
func TestUnfaithfulConstructs(t *testing.T) {
	combine := func(fmt, transforms string) string {
		return oneResource("    - {type: CombineFromComposite, toFieldPath: a, combine: {strategy: string, variables: [{fromFieldPath: b}], string: {fmt: '" + fmt + "'}}" + transforms + "}\n")
	}
	cases := map[string]struct {
		reason string
		in     string
		want   []Code
	}{
		"CombineQuotedVerb": {
			reason: "%q prints an int64 as a quoted rune and a float64 as %!q(float64=…): combine formats warn (C211).",
			in:     compositionYAML(combine("%q", "")),
			want:   []Code{"C211"},
		},
		"CombineHexVerb": {
			reason: "%x prints an int64 in hex and a float64 as a hex float (C211).",
			in:     compositionYAML(combine("id-%x", "")),
			want:   []Code{"C211"},
		},
		"CombineFloatVerb": {
			reason: "%5.2f misprints an int64 natively and prints the float64 in the function (C211).",
			in:     compositionYAML(combine("%5.2f", "")),
			want:   []Code{"C211"},
		},
		"CombineTypeVerb": {
			reason: "%T prints int64 natively and float64 in the function (C211).",
			in:     compositionYAML(combine("%s is %T", "")),
			want:   []Code{"C211"},
		},
		"CombineIndexedVerb": {
			reason: "An explicit argument index does not hide the verb (C211).",
			in:     compositionYAML(combine("%[1]d", "")),
			want:   []Code{"C211"},
		},
		"CombineStringVerb": {
			reason: "%s and %v are meant for any value: no warning.",
			in:     compositionYAML(combine("%s-%v", "")),
		},
		"FormatQuotedVerb": {
			reason: "A string Format with %q, which the K1 compensation does not cover, warns (C215).",
			in:     compositionYAML(oneResource("    - {fromFieldPath: spec.size, transforms: [{type: string, string: {type: Format, fmt: 'n-%q'}}]}\n")),
			want:   []Code{"C215"},
		},
		"FormatTypeVerb": {
			reason: "A string Format with %T warns (C215).",
			in:     compositionYAML(oneResource("    - {fromFieldPath: spec.size, transforms: [{type: string, string: {type: Format, fmt: '%T'}}]}\n")),
			want:   []Code{"C215"},
		},
		"CombineInvalidRegexp": {
			reason: "A Combine patch's transforms are validated as any patch's: an invalid regexp is refused (C190).",
			in:     compositionYAML(combine("%s", ", transforms: [{type: string, string: {type: Regexp, regexp: {match: '['}}}]")),
			want:   []Code{"C190", "C220"},
		},
		"CombineEmptyConvertFormat": {
			reason: "A Combine patch's convert with format \"\" is refused as in other patch types (C190).",
			in:     compositionYAML(combine("%s", ", transforms: [{type: convert, convert: {toType: string, format: ''}}]")),
			want:   []Code{"C190", "C220"},
		},
		"CombineToCompositeInvalidMatchRegexp": {
			reason: "A CombineToComposite patch's match pattern with an invalid regexp is refused (C190).",
			in: compositionYAML(oneResource("    - {type: CombineToComposite, toFieldPath: status.a, combine: {strategy: string, variables: [{fromFieldPath: b}], string: {fmt: '%s'}}, " +
				"transforms: [{type: match, match: {patterns: [{type: regexp, regexp: '(', result: x}]}}]}\n")),
			want: []Code{"C190", "C220"},
		},
		"MatchResultNull": {
			reason: "A match pattern with result: null is rejected by the API server (the result is required): refused (C128).",
			in:     compositionYAML(oneResource("    - {fromFieldPath: a, transforms: [{type: match, match: {patterns: [{literal: x, result: null}], fallbackValue: y}}]}\n")),
			want:   []Code{"C128"},
		},
		"MatchResultMissing": {
			reason: "A match pattern without result is refused (C128).",
			in:     compositionYAML(oneResource("    - {fromFieldPath: a, transforms: [{type: match, match: {patterns: [{literal: x}], fallbackValue: y}}]}\n")),
			want:   []Code{"C128"},
		},
		"MatchResultNullInCombine": {
			reason: "The match result rule applies to Combine patches too (C128).",
			in:     compositionYAML(combine("%s", ", transforms: [{type: match, match: {patterns: [{literal: x, result: null}], fallbackValue: y}}]")),
			want:   []Code{"C220", "C128"},
		},
		"FromFieldPathUnparseable": {
			reason: "A path that cannot be parsed fails the patch on every reconcile, natively as a skipped resource, in the function as a fatal result: converted with a warning (C216).",
			in:     compositionYAML(oneResource("    - {fromFieldPath: spec.a..b, toFieldPath: x}\n")),
			want:   []Code{"C216"},
		},
		"ToFieldPathUnparseable": {
			reason: "An unparseable toFieldPath is converted with a warning (C216).",
			in:     compositionYAML(oneResource("    - {fromFieldPath: spec.a, toFieldPath: 'spec.l[a'}\n")),
			want:   []Code{"C216"},
		},
		"ToCompositeUnparseable": {
			reason: "An unparseable path in a ToComposite patch is converted with a warning (C216).",
			in:     compositionYAML(oneResource("    - {type: ToCompositeFieldPath, fromFieldPath: 'status.a]b', toFieldPath: status.x}\n")),
			want:   []Code{"C216"},
		},
		"CombineVariableUnparseable": {
			reason: "An unparseable combine variable is converted with a warning (C216).",
			in:     compositionYAML(oneResource("    - {type: CombineFromComposite, toFieldPath: a, combine: {strategy: string, variables: [{fromFieldPath: 'spec..b'}], string: {fmt: '%s'}}}\n")),
			want:   []Code{"C216"},
		},
		"ToCompositeReadsBaseStatus": {
			reason: "A ToComposite patch reading a status field the base sets converts faithfully: both engines create and apply composed resources without the base's status.",
			in:     compositionYAML("  resources:\n  - name: r\n    base: {apiVersion: v1, kind: A, status: {atProvider: {id: x}}}\n    patches:\n    - {type: ToCompositeFieldPath, fromFieldPath: status.atProvider.id, toFieldPath: status.id}\n"),
		},
		"ToCompositeReadsOtherStatus": {
			reason: "A ToComposite patch reading a status field the base does not set does not warn.",
			in:     compositionYAML("  resources:\n  - name: r\n    base: {apiVersion: v1, kind: A, status: {atProvider: {id: x}}}\n    patches:\n    - {type: ToCompositeFieldPath, fromFieldPath: status.atProvider.arn, toFieldPath: status.arn}\n"),
		},
		"PolicyWildcard": {
			reason: "A policy on a patch whose toFieldPath has [*] fails legacy's apply-time merge on lists (C218).",
			in:     compositionYAML(oneResource("    - {fromFieldPath: spec.tags, toFieldPath: 'spec.forProvider.tags[*]', policy: {fromFieldPath: Optional}}\n")),
			want:   []Code{"C218"},
		},
		"WildcardWithoutPolicy": {
			reason: "Without a policy there is no apply-time merge: no warning.",
			in:     compositionYAML(oneResource("    - {fromFieldPath: spec.tags, toFieldPath: 'spec.forProvider.tags[*]'}\n")),
		},
		"ConvertQuantityToInt": {
			reason: "A convert to int64 with format quantity passes an int64 through natively and fails on the function's float64 (C219).",
			in:     compositionYAML(oneResource("    - {fromFieldPath: spec.size, transforms: [{type: convert, convert: {toType: int64, format: quantity}}]}\n")),
			want:   []Code{"C219"},
		},
		"ConvertJSONToFloat": {
			reason: "A convert to float64 with format json fails on a native int64 and passes the function's float64 through (C219).",
			in:     compositionYAML(oneResource("    - {fromFieldPath: spec.size, transforms: [{type: convert, convert: {toType: float64, format: json}}]}\n")),
			want:   []Code{"C219"},
		},
		"ConvertQuantityToString": {
			reason: "A convert to string with a format is the same on both sides: no warning.",
			in:     compositionYAML(oneResource("    - {fromFieldPath: spec.size, transforms: [{type: convert, convert: {toType: string, format: quantity}}]}\n")),
		},
		"ToCompositeBaseStatusShape": {
			reason: "Nor does a ToComposite patch that the base's status would make fail (a key of a list): the status never reaches the cluster.",
			in:     compositionYAML("  resources:\n  - name: r\n    base: {apiVersion: v1, kind: A, status: {atProvider: {l: [a]}}}\n    patches:\n    - {type: ToCompositeFieldPath, fromFieldPath: 'status.atProvider.l[-1]', toFieldPath: status.id}\n"),
		},
		"PolicyListKey": {
			reason: "A policy on a patch whose toFieldPath reads a key of a list the base sets fails legacy's apply-time merge (C218).",
			in:     compositionYAML("  resources:\n  - name: r\n    base: {apiVersion: v1, kind: A, spec: {l: [a]}}\n    patches:\n    - {fromFieldPath: spec.x, toFieldPath: 'spec.l[-1]', policy: {fromFieldPath: Optional}}\n"),
			want:   []Code{"C218"},
		},
		"PolicyMapKey": {
			reason: "A policy on a patch writing a key of a map does not warn.",
			in:     compositionYAML("  resources:\n  - name: r\n    base: {apiVersion: v1, kind: A, metadata: {labels: {a: b}}}\n    patches:\n    - {fromFieldPath: spec.x, toFieldPath: 'metadata.labels[team]', policy: {fromFieldPath: Optional}}\n"),
		},
		"ToCompositeBaseStatusFromPatchSet": {
			reason: "A PatchSet's ToComposite patch reading the base's status converts faithfully too.",
			in: compositionYAML("  patchSets:\n  - name: ids\n    patches:\n    - {type: ToCompositeFieldPath, fromFieldPath: status.atProvider.id, toFieldPath: status.id}\n" +
				"  resources:\n  - name: r\n    base: {apiVersion: v1, kind: A, status: {atProvider: {id: x}}}\n    patches:\n    - {type: PatchSet, patchSetName: ids}\n"),
		},
		"PolicyListKeyFromPatchSet": {
			reason: "The apply-time merge rule applies to a patch that comes from a PatchSet (C218).",
			in: compositionYAML("  patchSets:\n  - name: tags\n    patches:\n    - {fromFieldPath: spec.x, toFieldPath: 'spec.l[-1]', policy: {fromFieldPath: Optional}}\n" +
				"  resources:\n  - name: r\n    base: {apiVersion: v1, kind: A, spec: {l: [a]}}\n    patches:\n    - {type: PatchSet, patchSetName: tags}\n"),
			want: []Code{"C218"},
		},
		"ToCompositeIndex": {
			reason: "A ToComposite patch writing the second item of an XR list, and no patch the first, warns: the pipeline replaces the whole list (C217).",
			in:     compositionYAML(oneResource("    - {type: ToCompositeFieldPath, fromFieldPath: status.atProvider.zone, toFieldPath: 'status.zones[1]'}\n")),
			want:   []Code{"C217"},
		},
		"ToCompositeEveryIndex": {
			reason: "ToComposite patches that write every item of an XR list from the first build the whole list on both sides: no warning.",
			in: compositionYAML("  resources:\n  - name: a\n    base: {apiVersion: v1, kind: A}\n    patches:\n    - {type: ToCompositeFieldPath, fromFieldPath: status.id, toFieldPath: 'status.ids[0]'}\n" +
				"  - name: b\n    base: {apiVersion: v1, kind: A}\n    patches:\n    - {type: ToCompositeFieldPath, fromFieldPath: status.id, toFieldPath: 'status.ids[1]'}\n"),
		},
		"ToCompositeWildcard": {
			reason: "A ToComposite patch with a wildcard toFieldPath warns: the pipeline expands it over nothing (C217).",
			in:     compositionYAML(oneResource("    - {type: ToCompositeFieldPath, fromFieldPath: status.atProvider.zone, toFieldPath: 'status.zones[*]'}\n")),
			want:   []Code{"C217"},
		},
		"CombineToCompositeNegativeIndex": {
			reason: "A bracketed key that looks like an index ([-1]) warns too (C217).",
			in:     compositionYAML(oneResource("    - {type: CombineToComposite, toFieldPath: 'status.zones[-1]', combine: {strategy: string, variables: [{fromFieldPath: a}], string: {fmt: '%s'}}}\n")),
			want:   []Code{"C217"},
		},
		"ToCompositeMapKey": {
			reason: "A bracketed map key is written the same way on both sides: no warning.",
			in:     compositionYAML(oneResource("    - {type: ToCompositeFieldPath, fromFieldPath: status.atProvider.zone, toFieldPath: 'status.labels[zone]'}\n")),
		},
		"FormatAfterStringConvert": {
			reason: "A number verb on what a convert to string produced prints a string on both sides: no warning.",
			in:     compositionYAML(oneResource("    - {fromFieldPath: spec.size, transforms: [{type: convert, convert: {toType: string}}, {type: string, string: {type: Format, fmt: '%q'}}]}\n")),
		},
		"CombineStringVerbHexed": {
			reason: "A combine's %s of a field that may be an integer, hex-encoded by a later Format: the misprint (%!s(int64=7) natively, %!s(float64=7) in the function) becomes unrecognisable (C220).",
			in:     compositionYAML(combine("%s-%s", ", transforms: [{type: string, string: {type: Format, fmt: '%X'}}]")),
			want:   []Code{"C220"},
		},
		"CombineValueVerbHashed": {
			reason: "A combine's %v (1234567 natively, 1.234567e+06 in the function) hashed by a later Convert (C220).",
			in:     compositionYAML(combine("%v", ", transforms: [{type: string, string: {type: Convert, convert: ToSha256}}]")),
			want:   []Code{"C220"},
		},
		"CombineStringVerbTrimmed": {
			reason: "A TrimPrefix keeps the printed text visible (verify recognises the misprint): no C220.",
			in:     compositionYAML(combine("%s", ", transforms: [{type: string, string: {type: TrimPrefix, trim: a}}]")),
		},
		"FormatStringVerbHexed": {
			reason: "A string Format's %s of a field that may be an integer, then %x of its text (C220).",
			in:     compositionYAML(oneResource("    - {fromFieldPath: spec.size, transforms: [{type: string, string: {type: Format, fmt: 'n-%s'}}, {type: string, string: {type: Format, fmt: '%x'}}]}\n")),
			want:   []Code{"C220"},
		},
		"FormatExtraArgumentTruncated": {
			reason: "A Format without a verb prints the value as an extra argument (%!(EXTRA int64=7)); a precision then truncates the text (C220).",
			in:     compositionYAML(oneResource("    - {fromFieldPath: spec.size, transforms: [{type: string, string: {type: Format, fmt: 'size'}}, {type: string, string: {type: Format, fmt: '%.6s'}}]}\n")),
			want:   []Code{"C220"},
		},
		"FormatStringVerbQuoted": {
			reason: "%q of the text keeps it readable: no C220.",
			in:     compositionYAML(oneResource("    - {fromFieldPath: spec.size, transforms: [{type: string, string: {type: Format, fmt: 'n-%s'}}, {type: string, string: {type: Format, fmt: '%q'}}]}\n")),
		},
		"FormatAfterFormat": {
			reason: "A number verb on what an earlier Format produced prints a string on both sides: no C215 for it.",
			in:     compositionYAML(oneResource("    - {fromFieldPath: spec.name, transforms: [{type: string, string: {type: Format, fmt: 'n-%s'}}, {type: string, string: {type: Format, fmt: '%q'}}]}\n")),
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			res, err := Convert([]byte(tc.in), Options{Source: "in.yaml"})
			if err != nil {
				t.Fatalf("\n%s\nConvert(...): %v", tc.reason, err)
			}
			var got []Code
			for _, d := range res.Diagnostics {
				if d.Severity != SeverityInfo {
					got = append(got, d.Code)
				}
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("\n%s\nConvert(...) error and warning codes: -want, +got:\n%s\n%s", tc.reason, diff, render(res.Diagnostics))
			}
		})
	}
}
