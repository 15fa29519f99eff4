package patchandtransform

import (
	"testing"

	"github.com/crossplane/crossplane-runtime/v2/pkg/fieldpath"
	"github.com/google/go-cmp/cmp"
)

// TestApplyFunction pins function-patch-and-transform's patch semantics
// (docs/semantics/pipeline.md#patches, docs/semantics/pipeline.md#test-vectors) and where they differ from native ones.
// Sources arrive as wire values: every number is a float64.
func TestApplyFunction(t *testing.T) {
	type args struct {
		patch    Patch
		from, to string
	}
	type want struct {
		to       string
		err      string
		notFound bool
	}
	cases := map[string]struct {
		reason string
		args   args
		want   want
	}{
		"PT25ValidFromFieldPathWithWildcards": {
			reason: "a wildcard toFieldPath writes every element",
			args: args{
				patch: Patch{FromFieldPath: ptr("metadata.name"), ToFieldPath: ptr("metadata.ownerReferences[*].name")},
				from:  "{metadata: {name: test}}",
				to:    `{metadata: {ownerReferences: [{name: ""}, {name: ""}]}}`,
			},
			want: want{to: "{metadata: {ownerReferences: [{name: test}, {name: test}]}}"},
		},
		"PT26InvalidCompositeFieldPathPatchWithWildcards": {
			reason: "a wildcard that matches no existing leaf is an error and leaves the target alone",
			args: args{
				patch: Patch{FromFieldPath: ptr("metadata.name"), ToFieldPath: ptr("metadata.ownerReferences[*].badField")},
				from:  "{metadata: {name: test}}",
				to:    `{metadata: {ownerReferences: [{name: ""}, {name: ""}]}}`,
			},
			want: want{err: "cannot expand ToFieldPath metadata.ownerReferences[*].badField"},
		},
		"PT27ValidToFieldPathWithWildcardsAndMergePolicy": {
			reason: "wire float64 values are round-tripped to int64 so duplicates are not appended again",
			args: args{
				patch: Patch{FromFieldPath: ptr("spec.parameters.allowedGroups"), ToFieldPath: ptr("spec.accessRules[*].allowedGroups"),
					Policy: &Policy{MergeOptions: &MergeOptions{AppendSlice: ptr(true)}}},
				from: "{spec: {parameters: {allowedGroups: [12345678, 7891234]}}}",
				to:   "{spec: {accessRules: [{allowedGroups: [12345678]}, {allowedGroups: [12345678]}]}}",
			},
			want: want{to: "{spec: {accessRules: [{allowedGroups: [12345678, 7891234]}, {allowedGroups: [12345678, 7891234]}]}}"},
		},
		"PT28DefaultToFieldCompositeFieldPathPatch": {
			reason: "toFieldPath defaults to fromFieldPath",
			args: args{
				patch: Patch{FromFieldPath: ptr("metadata.labels")},
				from:  "{metadata: {labels: {test: blah}}}",
				to:    "{}",
			},
			want: want{to: "{metadata: {labels: {test: blah}}}"},
		},
		"PT29ValidCombineFromComposite": {
			reason: "a Combine patch formats its variables",
			args: args{
				patch: Patch{Type: PatchTypeCombineFromComposite, ToFieldPath: ptr("metadata.labels.destination"),
					Combine: combine1("%s-%s", "metadata.labels.source1", "metadata.labels.source2")},
				from: "{metadata: {labels: {source1: foo, source2: bar}}}",
				to:   "{metadata: {labels: {test: blah}}}",
			},
			want: want{to: "{metadata: {labels: {destination: foo-bar, test: blah}}}"},
		},
		"PT29VariableFromFieldPathNotFound": {
			reason: "a missing variable returns a not-found error whatever the policy; the caller decides",
			args: args{
				patch: Patch{Type: PatchTypeCombineFromComposite, ToFieldPath: ptr("metadata.labels.destination"),
					Combine: combine1("%s-%s", "metadata.labels.source1", "metadata.labels.source2")},
				from: "{}",
				to:   "{metadata: {labels: {test: blah}}}",
			},
			want: want{err: "metadata: no such field", notFound: true},
		},
		"OptionalMissIsReturned": {
			reason: "the function returns an optional miss to its caller, unlike native",
			args: args{
				patch: Patch{FromFieldPath: ptr("spec.nope")},
				from:  "{spec: {}}",
				to:    "{}",
			},
			want: want{err: "spec.nope: no such field", notFound: true},
		},
		"PT41CombineSeesFloats": {
			reason: "Combine formats wire float64 values: %d prints Go's bad-verb text",
			args: args{
				patch: Patch{Type: PatchTypeCombineFromComposite, ToFieldPath: ptr("spec.endpoint"),
					Combine: combine1("%s:%d", "spec.host", "spec.port")},
				from: "{spec: {host: h, port: 8080}}",
				to:   "{}",
			},
			want: want{to: `{spec: {endpoint: "h:%!d(float64=8080)"}}`},
		},
		"CombineHonoursPolicy": {
			reason: "since v0.8 Combine patches merge according to their policy",
			args: args{
				patch: Patch{Type: PatchTypeCombineFromComposite, ToFieldPath: ptr("spec.obj"),
					Combine: combine1("%s", "spec.str"), Policy: &Policy{MergeOptions: &MergeOptions{KeepMapValues: ptr(true)}}},
				from: "{spec: {str: hello}}",
				to:   "{spec: {obj: {a: b}}}",
			},
			want: want{to: "{spec: {obj: {a: b}}}"},
		},
		"FieldPathValueBecomesInteger": {
			reason: "a wire float64 copied by a FieldPath patch is stored as int64",
			args: args{
				patch: Patch{FromFieldPath: ptr("spec.num"), ToFieldPath: ptr("spec.num")},
				from:  "{spec: {num: 3}}",
				to:    "{}",
			},
			want: want{to: "{spec: {num: 3}}"},
		},
		"UnknownTypeIgnored": {
			reason: "the function ignores a patch type it cannot dispatch",
			args: args{
				patch: Patch{Type: "Bogus", FromFieldPath: ptr("spec.num")},
				from:  "{spec: {num: 3}}",
				to:    "{}",
			},
			want: want{to: "{}"},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			from := fieldpath.Pave(WireNumbers(kube(t, tc.args.from)).(map[string]any))
			to := fieldpath.Pave(kube(t, tc.args.to))
			err := Apply(Function, tc.args.patch, from, to)
			if diff := errContains(err, tc.want.err); diff != "" {
				t.Fatalf("\n%s\nApply(Function, ...): %s", tc.reason, diff)
			}
			if got := IsNotFound(err); got != tc.want.notFound {
				t.Errorf("\n%s\nIsNotFound(Apply(Function, ...)): want %t, got %t", tc.reason, tc.want.notFound, got)
			}
			want := kube(t, tc.args.to)
			if tc.want.err == "" {
				want = kube(t, tc.want.to)
			}
			if diff := cmp.Diff(want, to.UnstructuredContent()); diff != "" {
				t.Errorf("\n%s\nApply(Function, ...): -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}

// TestApplyNativeUnsupportedType pins native's answer to a type it does not
// know, which the webhook normally rejects first.
func TestApplyNativeUnsupportedType(t *testing.T) {
	err := Apply(Native, Patch{Type: "Bogus"}, fieldpath.Pave(map[string]any{}), fieldpath.Pave(map[string]any{}))
	if diff := errContains(err, "patch type Bogus is unsupported"); diff != "" {
		t.Errorf("Apply(Native, Bogus): %s", diff)
	}
}

func TestNormalizeTargetAfterWrite(t *testing.T) {
	// EV-008's mechanism: once anything is written, every integral float64
	// in the target becomes an int64.
	to := fieldpath.Pave(map[string]any{"num": float64(3), "f": 1.5})
	from := fieldpath.Pave(map[string]any{"a": "x"})
	if err := Apply(Native, Patch{FromFieldPath: ptr("a"), ToFieldPath: ptr("touched")}, from, to); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"num": int64(3), "f": 1.5, "touched": "x"}
	if diff := cmp.Diff(want, to.UnstructuredContent()); diff != "" {
		t.Errorf("Apply(...): -want, +got:\n%s", diff)
	}
}
