package environment

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseLabelValueFatal(t *testing.T) {
	type want struct {
		f  LabelValueFatal
		ok bool
	}
	input := `{spec: {environmentConfigs: [{type: Selector, selector: {mode: Single, matchLabels: [{key: zone, type: FromCompositeFieldPath, valueFromFieldPath: spec.zone}]}}]}}`
	cases := map[string]struct {
		reason string
		xr     map[string]any
		want   want
	}{
		"NotAString": {
			reason: "a label read from a number in the XR: the function reads labels as strings",
			xr:     map[string]any{"spec": map[string]any{"zone": float64(3)}},
			want:   want{f: LabelValueFatal{FieldPath: "spec.zone", NotString: true}, ok: true},
		},
		"Absent": {
			reason: "a Required label whose field is absent",
			xr:     map[string]any{"spec": map[string]any{}},
			want:   want{f: LabelValueFatal{FieldPath: "spec.zone"}, ok: true},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			fn := Function{}
			in, err := fn.DecodeInput([]byte(input))
			if err != nil {
				t.Fatalf("DecodeInput(...): %v", err)
			}
			_, err = fn.Run(in, FunctionRequest{Observed: tc.xr})
			if err == nil {
				t.Fatalf("\n%s\nRun(...): want an error", tc.reason)
			}
			// The fatal result's message is the error's text.
			f, ok := ParseLabelValueFatal(err.Error())
			if diff := cmp.Diff(tc.want, want{f: f, ok: ok}, cmp.AllowUnexported(want{})); diff != "" {
				t.Errorf("\n%s\nParseLabelValueFatal(%q): -want, +got:\n%s", tc.reason, err, diff)
			}
		})
	}
	if f, ok := ParseLabelValueFatal("cannot get selected environment configs: boom"); ok {
		t.Errorf("ParseLabelValueFatal(another message): want none, got %+v", f)
	}
}
