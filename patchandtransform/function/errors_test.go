package function

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/pkg/errors"

	pt "github.com/xpmigrate/xpmigrate/patchandtransform"
)

func TestParseFatal(t *testing.T) {
	type want struct {
		f  Fatal
		ok bool
	}
	cases := map[string]struct {
		reason string
		msg    string
		want   want
	}{
		"ComposedResourcePatch": {
			reason: "a patch of a composed resource names the resource, the patch's type and index, and its cause (a PT vector, docs/semantics/pipeline.md#test-vectors)",
			msg:    `cannot render composed resource "cool-resource" "FromCompositeFieldPath" patch at index 1: spec.widgets: not an array`,
			want:   want{f: Fatal{Resource: "cool-resource", Type: pt.PatchTypeFromCompositeFieldPath, Index: 1, Cause: "spec.widgets: not an array"}, ok: true},
		},
		"EnvironmentPatch": {
			reason: "an environment patch names no resource (a PT vector, docs/semantics/pipeline.md#test-vectors)",
			msg:    `cannot apply the "FromCompositeFieldPath" environment patch at index 1: spec.doesNotExist: no such field`,
			want:   want{f: Fatal{Type: pt.PatchTypeFromCompositeFieldPath, Index: 1, Cause: "spec.doesNotExist: no such field"}, ok: true},
		},
		"QuotedName": {
			reason: "a resource name with quotes and a colon is read back whole",
			msg:    (&PatchError{Resource: `a "b": c`, Type: pt.PatchTypeToCompositeFieldPath, Index: 12, Cause: errors.New("boom")}).Error(),
			want:   want{f: Fatal{Resource: `a "b": c`, Type: pt.PatchTypeToCompositeFieldPath, Index: 12, Cause: "boom"}, ok: true},
		},
		"Expand": {
			reason: "a toFieldPath that expands to nothing is an ExpandError's cause",
			msg:    (&PatchError{Resource: "r", Type: pt.PatchTypeToCompositeFieldPath, Cause: &pt.ExpandError{Path: "status.zones[*]"}}).Error(),
			want:   want{f: Fatal{Resource: "r", Type: pt.PatchTypeToCompositeFieldPath, Cause: "cannot expand ToFieldPath status.zones[*]"}, ok: true},
		},
		"BaseTemplate": {
			reason: "a message of another failure is no patch's",
			msg:    `composed resource "cool-resource" has no base template, and was not produced by a previous Function in the pipeline`,
		},
		"WrappedPatch": {
			reason: "a patch failure wrapped by something else is not the function's fatal result",
			msg:    `pipeline step "pt" returned a fatal result: cannot render composed resource "a" "FromCompositeFieldPath" patch at index 0: x`,
		},
		"NoCause": {
			reason: "the function always writes the cause",
			msg:    `cannot render composed resource "a" "FromCompositeFieldPath" patch at index 0`,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			f, ok := ParseFatal(tc.msg)
			if diff := cmp.Diff(tc.want, want{f: f, ok: ok}, cmp.AllowUnexported(want{})); diff != "" {
				t.Errorf("\n%s\nParseFatal(%q): -want, +got:\n%s", tc.reason, tc.msg, diff)
			}
		})
	}
}

func TestFatalExpand(t *testing.T) {
	cases := map[string]struct {
		reason string
		err    error
		want   bool
	}{
		"Expand": {
			reason: "an ExpandError under the patch",
			err:    &PatchError{Resource: "r", Type: pt.PatchTypeToCompositeFieldPath, Cause: errors.Wrap(&pt.ExpandError{Path: "status.a[*]"}, "cannot apply")},
			want:   true,
		},
		"Other": {
			reason: "any other cause",
			err:    &PatchError{Resource: "r", Type: pt.PatchTypeToCompositeFieldPath, Cause: errors.New("status.a: no such field")},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			f, ok := ParseFatal(tc.err.Error())
			if !ok {
				t.Fatalf("\n%s\nParseFatal(%q): not a patch failure", tc.reason, tc.err)
			}
			if got := f.Expand(); got != tc.want {
				t.Errorf("\n%s\nParseFatal(%q).Expand(): want %t, got %t", tc.reason, tc.err, tc.want, got)
			}
		})
	}
}
