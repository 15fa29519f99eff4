package patchandtransform

import (
	"testing"

	"github.com/crossplane/crossplane-runtime/v2/pkg/fieldpath"
	"github.com/google/go-cmp/cmp"
	"github.com/pkg/errors"
)

func TestConvertFormatError(t *testing.T) {
	format := ConvertTransformFormatQuantity
	_, err := ResolveTransform(Native, Transform{Type: TransformTypeConvert, Convert: &ConvertTransform{ToType: ConvertTransformTypeFloat64, Format: &format}}, int64(3))
	var got *ConvertFormatError
	if !errors.As(err, &got) {
		t.Fatalf("ResolveTransform(convert int64 to float64, format quantity): want a *ConvertFormatError, got %v", err)
	}
	want := &ConvertFormatError{From: "int64", To: "float64", Format: "quantity"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("ResolveTransform(convert int64 to float64, format quantity): -want, +got:\n%s", diff)
	}
	// Where only the text is left (an event, a fatal result), it is read
	// back whole from inside a longer message.
	for _, msg := range []string{
		errors.Wrap(err, `cannot apply the "FromCompositeFieldPath" patch at index 0`).Error(),
		`pipeline step "pt" returned a fatal result: ` + err.Error() + ": more",
	} {
		found, ok := FindConvertFormatError(msg)
		if !ok {
			t.Errorf("FindConvertFormatError(%q): not found", msg)
			continue
		}
		if diff := cmp.Diff(want, found); diff != "" {
			t.Errorf("FindConvertFormatError(%q): -want, +got:\n%s", msg, diff)
		}
	}
	if e, ok := FindConvertFormatError("conversion from here to there failed"); ok {
		t.Errorf("FindConvertFormatError(another message): want none, got %+v", e)
	}
}

func TestReadinessCheckError(t *testing.T) {
	o := fieldpath.Pave(map[string]any{"spec": map[string]any{"s": "text"}})
	path, three := "spec.s", int64(3)
	_, err := IsReady(Native, o, []ReadinessCheck{
		{Type: ReadinessCheckTypeNone},
		{Type: ReadinessCheckTypeMatchInteger, FieldPath: &path, MatchInteger: &three},
	})
	var got *ReadinessCheckError
	if !errors.As(err, &got) {
		t.Fatalf("IsReady(MatchInteger on a string): want a *ReadinessCheckError, got %v", err)
	}
	if got.Index != 1 {
		t.Errorf("IsReady(MatchInteger on a string): want the check at index 1, got %d", got.Index)
	}
}

func TestExpandError(t *testing.T) {
	err := errors.Wrap(&ExpandError{Path: "status.zones[*]"}, "cannot apply")
	if !HasExpandError(err.Error()) {
		t.Errorf("HasExpandError(%q): want true", err)
	}
	if HasExpandError("cannot expand wildcards for segments") {
		t.Errorf("HasExpandError(another message): want false")
	}
}

func TestPathError(t *testing.T) {
	str := func(s string) *string { return &s }
	cases := map[string]struct {
		reason   string
		patch    Patch
		wantPath string
		notFound bool
	}{
		"ToFieldPathDoesNotParse": {
			reason:   "writing to a path that does not parse is a PathError, with fieldpath's text",
			patch:    Patch{Type: PatchTypeFromCompositeFieldPath, FromFieldPath: str("spec.a"), ToFieldPath: str("spec.b.")},
			wantPath: "spec.b.",
		},
		"FromFieldPathDoesNotParse": {
			reason:   "reading from a path that does not parse is a PathError",
			patch:    Patch{Type: PatchTypeFromCompositeFieldPath, FromFieldPath: str("spec.a["), ToFieldPath: str("spec.b")},
			wantPath: "spec.a[",
		},
		"SourceAbsent": {
			reason:   "an absent source stays a not-found error, whatever the other path",
			patch:    Patch{Type: PatchTypeFromCompositeFieldPath, FromFieldPath: str("spec.missing"), ToFieldPath: str("spec.b."), Policy: &Policy{FromFieldPath: ptr(FromFieldPathPolicyRequired)}},
			notFound: true,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			from := fieldpath.Pave(map[string]any{"spec": map[string]any{"a": "x"}})
			to := fieldpath.Pave(map[string]any{})
			err := Apply(Native, tc.patch, from, to)
			if err == nil {
				t.Fatalf("\n%s\nApply(...): want an error", tc.reason)
			}
			if got := IsNotFound(err); got != tc.notFound {
				t.Errorf("\n%s\nIsNotFound(Apply(...)): want %t, got %t (%v)", tc.reason, tc.notFound, got, err)
			}
			var pe *PathError
			if got := errors.As(err, &pe); got != (tc.wantPath != "") {
				t.Fatalf("\n%s\nApply(...): PathError %t, want %t (%v)", tc.reason, got, tc.wantPath != "", err)
			}
			if pe != nil && pe.Path != tc.wantPath {
				t.Errorf("\n%s\nApply(...): PathError for %q, want %q", tc.reason, pe.Path, tc.wantPath)
			}
		})
	}
}
