package patchandtransform

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/crossplane/crossplane-runtime/v2/pkg/fieldpath"
	"github.com/google/go-cmp/cmp"
)

// pathFixture is an object with every kind of value on the way of a path.
func pathFixture() map[string]any {
	return map[string]any{
		"spec": map[string]any{
			"str": "x", "num": 1.5, "int": int64(3), "nul": nil, "empty": map[string]any{},
			"arr":    []any{"a", map[string]any{"b": "c"}},
			"nested": map[string]any{"deep": map[string]any{"er": true}},
			"a.b":    map[string]any{"c": "dotted"},
		},
		"metadata": map[string]any{"labels": map[string]any{"team": "a"}, "annotations": map[string]any{"crossplane.io/external-name": "n"}},
	}
}

var testPaths = []string{
	"spec", "spec.str", "spec.num", "spec.int", "spec.nul", "spec.nul.x", "spec.empty", "spec.empty.x",
	"spec.missing", "spec.missing.deeper.still", "spec.str.x", "spec.str.x.y", "spec.arr", "spec.arr[0]",
	"spec.arr[1].b", "spec.arr.x", "spec.nested.deep.er", "spec.nested.deep.er.x", "spec[a.b].c", "spec[a.b][c]",
	"spec[a.b].missing", "metadata.labels[team]", "metadata.annotations[crossplane.io/external-name]",
	"metadata.annotations[crossplane.io/other]", "status.atProvider.arn", "status", "[spec].str", "spec.'str'",
	`spec["str"]`, "spec.*", "spec[*]", "spec..str", ".spec", "spec.", "spec[]", "spec[str]x", "spec[0]",
	"spec[007]", "", "spec]", "spec[a[b]]", "spec.[str]", "spec.ünï.cödé", "spec[\xff]",
}

var testValues = []any{
	"v", nil, true, 2.0, 2.5, int64(7), 1e300, math.Copysign(0, -1), 9007199254740993.0,
	map[string]any{"k": 1.0, "l": []any{2.0, "x", nil}}, []any{}, map[string]any(nil), []any(nil),
	"\xff", map[string]any{"\xff": "x"}, math.NaN(), map[string]string{"a": "b"}, int32(4),
}

func clone(t *testing.T, o map[string]any) map[string]any {
	t.Helper()
	c, ok := jsonCopy(o)
	if !ok {
		t.Fatalf("cannot copy fixture")
	}
	m, _ := c.(map[string]any)
	// jsonCopy makes integral float64s int64; the fixture's 1.5 survives.
	return m
}

// TestGetValue checks getValue against Paved.GetValue on every test path:
// the same value, the same error text, the same IsNotFound.
func TestGetValue(t *testing.T) {
	for _, path := range testPaths {
		p := fieldpath.Pave(pathFixture())
		want, wantErr := p.GetValue(path)
		got, gotErr := getValue(p, path)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("getValue(%q): -want, +got:\n%s", path, diff)
		}
		if diff := cmp.Diff(errText(wantErr), errText(gotErr)); diff != "" {
			t.Errorf("getValue(%q): -want error, +got error:\n%s", path, diff)
		}
		if IsNotFound(wantErr) != IsNotFound(gotErr) {
			t.Errorf("getValue(%q): IsNotFound %t, want %t", path, IsNotFound(gotErr), IsNotFound(wantErr))
		}
	}
}

// TestSetValue checks setValue and mergeValue against Paved's SetValue and
// MergeValue for every test path and value: the same object afterwards, the
// same error text, and nothing shared with the value written.
func TestSetValue(t *testing.T) {
	yes := true
	for _, mo := range []*MergeOptions{nil, {KeepMapValues: &yes}, {AppendSlice: &yes}} {
		for _, path := range testPaths {
			for _, v := range testValues {
				for _, obj := range []map[string]any{pathFixture(), {}} {
					wantObj, gotObj := clone(t, obj), clone(t, obj)
					var wantErr, gotErr error
					func() {
						defer func() {
							if r := recover(); r != nil {
								wantErr = errorString("panic")
							}
						}()
						if mo == nil {
							wantErr = fieldpath.Pave(wantObj).SetValue(path, v)
						} else {
							wantErr = fieldpath.Pave(wantObj).MergeValue(path, v, mo)
						}
					}()
					func() {
						defer func() {
							if r := recover(); r != nil {
								gotErr = errorString("panic")
							}
						}()
						if mo == nil {
							gotErr = setValue(fieldpath.Pave(gotObj), path, v)
						} else {
							gotErr = mergeValue(fieldpath.Pave(gotObj), path, v, mo)
						}
					}()
					if diff := cmp.Diff(errText(wantErr), errText(gotErr)); diff != "" {
						t.Errorf("setValue(%q, %#v) with %v: -want error, +got error:\n%s", path, v, mo, diff)
					}
					if diff := cmp.Diff(marshal(t, wantObj), marshal(t, gotObj)); diff != "" {
						t.Errorf("setValue(%q, %#v) with %v: -want, +got:\n%s", path, v, mo, diff)
					}
					if diff := cmp.Diff(wantObj, gotObj, cmp.Comparer(func(a, b float64) bool { return math.Float64bits(a) == math.Float64bits(b) })); diff != "" {
						t.Errorf("setValue(%q, %#v) with %v: -want (Go values), +got:\n%s", path, v, mo, diff)
					}
				}
			}
		}
	}
}

// TestJSONCopy checks jsonCopy against Normalize.
func TestJSONCopy(t *testing.T) {
	for _, v := range testValues {
		got, ok := jsonCopy(v)
		want, err := Normalize(v)
		if !ok {
			continue
		}
		if err != nil {
			t.Errorf("jsonCopy(%#v) copied a value Normalize rejects: %v", v, err)
			continue
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("jsonCopy(%#v): -want, +got:\n%s", v, diff)
		}
	}
}

type errorString string

func (e errorString) Error() string { return string(e) }

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

func marshal(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		return "unmarshalable: " + err.Error()
	}
	return string(b)
}
