package patchandtransform

import (
	"encoding/json"
	"testing"

	"github.com/crossplane/crossplane-runtime/v2/pkg/fieldpath"
	"github.com/google/go-cmp/cmp"
)

// FuzzFieldPath checks that any path crossplane-runtime parses prints back
// to a path that parses to the same segments, that reading and writing any
// path never panics, and that getValue and setValue do what Paved does.
func FuzzFieldPath(f *testing.F) {
	for _, s := range []string{
		"spec.str", "metadata.annotations[crossplane.io/external-name]", "spec.items[*].name",
		"spec.'str'", "metadata.labels['123']", "spec.arr[3]", "spec..str", "", "[a.b]", `["x"]`,
		"spec.newarr[1025]", "a[0][1].b",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, path string) {
		segs, err := fieldpath.Parse(path)
		if err == nil {
			again, err := fieldpath.Parse(segs.String())
			if err != nil {
				// crossplane-runtime trims quotes from keys, so `a.""`
				// parses to an empty key that prints as `a.`, which does
				// not parse. Only that case may fail to round-trip.
				if !hasEmptyField(segs) {
					t.Fatalf("Parse(%q).String() = %q does not parse: %v", path, segs.String(), err)
				}
				return
			}
			if again.String() != segs.String() {
				t.Fatalf("round trip of %q: %q then %q", path, segs.String(), again.String())
			}
		}
		o := map[string]any{"spec": map[string]any{"str": "x", "arr": []any{"a", nil}, "nul": nil}}
		p := fieldpath.Pave(o)
		want, wantErr := p.GetValue(path)
		got, gotErr := getValue(fieldpath.Pave(o), path)
		if !cmp.Equal(want, got) || errText(wantErr) != errText(gotErr) || IsNotFound(wantErr) != IsNotFound(gotErr) {
			t.Fatalf("getValue(%q) = %v, %v; GetValue gives %v, %v", path, got, gotErr, want, wantErr)
		}
		_, _ = p.ExpandWildcards(path)
		mine := map[string]any{"spec": map[string]any{"str": "x", "arr": []any{"a", nil}, "nul": nil}}
		wantErr = p.SetValue(path, "v")
		gotErr = setValue(fieldpath.Pave(mine), path, "v")
		if errText(wantErr) != errText(gotErr) || !cmp.Equal(o, mine) {
			t.Fatalf("setValue(%q) = %v giving %v; SetValue gives %v giving %v", path, gotErr, mine, wantErr, o)
		}
	})
}

// FuzzApply applies a patch built from fuzzed paths, transform and policy to
// fixed objects in both dialects; it must never panic.
func FuzzApply(f *testing.F) {
	f.Add("spec.str", "spec.x", `{"type":"string","string":{"type":"Format","fmt":"%s"}}`, uint8(0))
	f.Add("spec.num", "spec.items[*].name", `{"type":"math","math":{"type":"Multiply","multiply":2}}`, uint8(1))
	f.Add("spec.obj", "spec.obj", `{"type":"convert","convert":{"toType":"string"}}`, uint8(2))
	f.Add("spec.arr", "spec.arr", `{"type":"map","map":{"a":"b"}}`, uint8(3))
	f.Fuzz(func(t *testing.T, fromPath, toPath, transform string, knob uint8) {
		var tr Transform
		var raw struct {
			Type    TransformType
			Math    *MathTransform
			String  *StringTransform
			Convert *ConvertTransform
			Map     map[string]json.RawMessage
		}
		if err := json.Unmarshal([]byte(transform), &raw); err == nil {
			tr = Transform{Type: raw.Type, Math: raw.Math, String: raw.String, Convert: raw.Convert}
			if raw.Map != nil {
				tr.Map = &MapTransform{Pairs: map[string]RawJSON{}}
				for k, v := range raw.Map {
					tr.Map.Pairs[k] = RawJSON(v)
				}
			}
		}
		p := Patch{FromFieldPath: &fromPath, ToFieldPath: &toPath, Transforms: []Transform{tr}}
		switch knob % 4 {
		case 1:
			p.Policy = &Policy{MergeOptions: &MergeOptions{}}
		case 2:
			p.Type = PatchTypeCombineFromComposite
			p.Combine = &Combine{Strategy: CombineStrategyString, String: &StringCombine{Format: "%v-%v"},
				Variables: []CombineVariable{{FromFieldPath: fromPath}, {FromFieldPath: "spec.str"}}}
		case 3:
			p.Policy = &Policy{MergeOptions: &MergeOptions{AppendSlice: ptr(true)}, FromFieldPath: ptr(FromFieldPathPolicyRequired)}
		}
		for _, d := range []Dialect{Native, Function} {
			run := func() (map[string]any, map[string]any, error) {
				from := fieldpath.Pave(kube(t, fixtureXR0))
				if d == Function {
					from = fieldpath.Pave(WireNumbers(from.UnstructuredContent()).(map[string]any))
				}
				to := fieldpath.Pave(kube(t, fixtureCD0))
				err := Apply(d, p, from, to)
				return from.UnstructuredContent(), to.UnstructuredContent(), err
			}
			from1, to1, err1 := run()
			from2, to2, err2 := run()
			// Deterministic: the same patch on the same objects gives the
			// same object and the same error.
			if (err1 == nil) != (err2 == nil) || (err1 != nil && err1.Error() != err2.Error()) || !cmp.Equal(to1, to2) {
				t.Fatalf("Apply(%v) is not deterministic: %v / %v\n%v\n%v", d, err1, err2, to1, to2)
			}
			// A patch from the XR never writes the XR.
			if p.Type == "" || p.Type == PatchTypeFromCompositeFieldPath || p.Type == PatchTypeCombineFromComposite {
				want := kube(t, fixtureXR0)
				if d == Function {
					want = WireNumbers(want).(map[string]any)
				}
				if !cmp.Equal(want, from1) {
					t.Fatalf("Apply(%v): a patch from the XR changed the XR: %s", d, cmp.Diff(want, from1))
				}
			}
			// What it writes is JSON data.
			if _, err := json.Marshal(to1); err != nil {
				t.Fatalf("Apply(%v): the object is not JSON any more: %v", d, err)
			}
			_ = from2
		}
	})
}

func hasEmptyField(s fieldpath.Segments) bool {
	for _, seg := range s {
		if seg.Type == fieldpath.SegmentField && seg.Field == "" {
			return true
		}
	}
	return false
}

// FuzzCombine applies a string Combine of two string variables in both
// dialects. Only numbers differ between native Crossplane and the function
// (D30); with strings the two must agree on the result, or both fail.
func FuzzCombine(f *testing.F) {
	f.Add("%s-%s", "a", "b")
	f.Add("%[2]s/%[1]s", "x", "y")
	f.Add("%q %v %x", "é", "")
	f.Add("%s %s %s", "a", "b")
	f.Fuzz(func(t *testing.T, format, a, b string) {
		p := Patch{
			Type:        PatchTypeCombineFromComposite,
			ToFieldPath: ptr("spec.out"),
			Combine: &Combine{Strategy: CombineStrategyString, String: &StringCombine{Format: format},
				Variables: []CombineVariable{{FromFieldPath: "spec.a"}, {FromFieldPath: "spec.b"}}},
		}
		var outs []any
		var errs []error
		for _, d := range []Dialect{Native, Function} {
			from := fieldpath.Pave(map[string]any{"spec": map[string]any{"a": a, "b": b}})
			to := fieldpath.Pave(map[string]any{"spec": map[string]any{}})
			err := Apply(d, p, from, to)
			v, _ := to.GetValue("spec.out")
			outs, errs = append(outs, v), append(errs, err)
		}
		if (errs[0] == nil) != (errs[1] == nil) {
			t.Fatalf("Combine %q on %q, %q: native error %v, function error %v", format, a, b, errs[0], errs[1])
		}
		if !cmp.Equal(outs[0], outs[1]) {
			t.Fatalf("Combine %q on %q, %q: native %q, function %q", format, a, b, outs[0], outs[1])
		}
	})
}
