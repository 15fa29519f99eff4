package function

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
	"google.golang.org/protobuf/types/known/structpb"
)

// decodeText decodes input the way Decode does without decodeMap: through
// its JSON text.
func decodeText(input map[string]any) (*Resources, error) {
	b, err := json.Marshal(input)
	if err != nil {
		return nil, err
	}
	return DecodeJSON(b)
}

// TestDecodeMap checks that reading an input straight from its JSON tree
// gives what reading its JSON text gives, and that the direct reader
// declines whatever the text decoder would reject or read differently.
func TestDecodeMap(t *testing.T) {
	full := `{
		"apiVersion": "pt.fn.crossplane.io/v1beta1", "kind": "Resources",
		"patchSets": [{"name": "s", "patches": [{"type": "ToCompositeFieldPath", "fromFieldPath": "status.a", "toFieldPath": "status.b"}, null]}],
		"environment": {"patches": [{"fromFieldPath": "spec.x", "toFieldPath": "x", "policy": {"fromFieldPath": "Required"}}]},
		"resources": [{
			"name": "bucket",
			"base": {"apiVersion": "s3/v1", "kind": "Bucket", "spec": {"size": 3, "f": 1.5, "html": "<a&b>", "l": [null, true]}},
			"patches": [
				{"type": "PatchSet", "patchSetName": "s"},
				{"type": "CombineFromComposite", "combine": {"variables": [{"fromFieldPath": "a"}], "strategy": "string", "string": {"fmt": "%s"}}, "toFieldPath": "spec.c", "policy": {"toFieldPath": "MergeObjects"}},
				{"fromFieldPath": "spec.m", "transforms": [
					{"type": "math", "math": {"type": "Multiply", "multiply": 3, "clampMin": -2, "clampMax": null}},
					{"type": "map", "map": {"a": 1, "b": {"c": "d"}, "e": null, "<": "&"}},
					{"type": "match", "match": {"patterns": [{"type": "regexp", "regexp": "^a", "result": "x"}, {"type": "literal", "literal": "b", "result": null}], "fallbackTo": "Input", "fallbackValue": [1, 2]}},
					{"type": "string", "string": {"type": "Regexp", "regexp": {"match": "a(b)", "group": 1}}},
					{"type": "string", "string": {"type": "Format", "fmt": "%s-x", "convert": null, "trim": "x"}},
					{"type": "string", "string": {"type": "Join", "join": {"separator": ","}}},
					{"type": "string", "string": {"type": "Replace", "replace": {"search": "a", "replace": "b"}}},
					{"type": "convert", "convert": {"toType": "float64", "format": "quantity"}}
				]}
			],
			"connectionDetails": [{"name": "pw", "type": "FromConnectionSecretKey", "fromConnectionSecretKey": "password"}, {"name": "v", "type": "FromValue", "value": "x"}, {"name": "f", "type": "FromFieldPath", "fromFieldPath": "a"}],
			"readinessChecks": [{"type": "MatchInteger", "fieldPath": "status.n", "matchInteger": 2}, {"type": "MatchCondition", "matchCondition": {"type": "Ready", "status": "True"}}, {"type": "MatchString", "fieldPath": "a", "matchString": "b"}]
		}, {"name": "nobase", "base": null, "patches": null}],
		"writeConnectionSecretToRef": {"name": "conn", "namespace": "ns", "patches": [{"fromFieldPath": "spec.secretName", "toFieldPath": "name"}]}
	}`
	parse := func(s string) map[string]any {
		var m map[string]any
		if err := json.Unmarshal([]byte(s), &m); err != nil {
			t.Fatalf("cannot parse fixture: %v", err)
		}
		return m
	}
	cases := map[string]struct {
		reason string
		input  map[string]any
		direct bool
	}{
		"Full": {
			reason: "Every member of every type, nulls included.",
			input:  parse(full),
			direct: true,
		},
		"Empty": {
			reason: "An empty object.",
			input:  map[string]any{},
			direct: true,
		},
		"Metadata": {
			reason: "Metadata is decoded into ObjectMeta, strictly; the text decoder does it.",
			input:  parse(`{"metadata": {"name": "x"}}`),
		},
		"UnknownMember": {
			reason: "Strict decoding rejects unknown members.",
			input:  parse(`{"resources": [{"name": "a", "patches": [{"fromFieldPath": "a", "policy": {"mergeOptions": {}}}]}]}`),
		},
		"CaseMismatch": {
			reason: "Member names are case-sensitive.",
			input:  parse(`{"Resources": []}`),
		},
		"PatchSetNameInSet": {
			reason: "Only a template's patches have patchSetName.",
			input:  parse(`{"patchSets": [{"name": "s", "patches": [{"patchSetName": "x"}]}]}`),
		},
		"WrongType": {
			reason: "A number where a string is wanted.",
			input:  parse(`{"resources": [{"name": 1}]}`),
		},
		"Fraction": {
			reason: "A fraction where an integer is wanted.",
			input:  parse(`{"resources": [{"name": "a", "readinessChecks": [{"type": "MatchInteger", "matchInteger": 2.5}]}]}`),
		},
		"HugeInteger": {
			reason: "An integer float64 does not hold exactly.",
			input:  map[string]any{"resources": []any{map[string]any{"name": "a", "readinessChecks": []any{map[string]any{"matchInteger": 1e19}}}}},
		},
		"MapNotObject": {
			reason: "A map transform that is not an object.",
			input:  parse(`{"resources": [{"name": "a", "patches": [{"transforms": [{"type": "map", "map": []}]}]}]}`),
		},
		"NotUTF8": {
			reason: "encoding/json replaces bytes that are not UTF-8.",
			input:  map[string]any{"resources": []any{map[string]any{"name": "\xff"}}},
		},
		"NaNInBase": {
			reason: "JSON has no NaN: the input cannot be encoded.",
			input:  map[string]any{"resources": []any{map[string]any{"name": "a", "base": map[string]any{"n": math.NaN()}}}},
		},
		"Nil": {
			reason: "A nil input is JSON null.",
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, ok := decodeMap(tc.input)
			if ok != tc.direct {
				t.Fatalf("\n%s\ndecodeMap(...): got ok %t, want %t", tc.reason, ok, tc.direct)
			}
			if !ok {
				return
			}
			want, err := decodeText(tc.input)
			if err != nil {
				t.Fatalf("\n%s\ndecodeText(...): %v", tc.reason, err)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("\n%s\ndecodeMap(...): -want, +got:\n%s", tc.reason, diff)
			}
			checkDecodeStruct(t, tc.input)
		})
	}
}

// checkDecodeStruct checks that decoding input as a Struct, in place, gives
// what decoding the map the Struct makes gives.
func checkDecodeStruct(t *testing.T, input map[string]any) {
	t.Helper()
	s, err := structpb.NewStruct(input)
	if err != nil {
		return
	}
	want, wantOK := decodeMap(s.AsMap())
	got, gotOK := decodeStruct(s)
	if gotOK != wantOK {
		t.Fatalf("decodeStruct(...): got ok %t, decodeMap(AsMap) gives %t", gotOK, wantOK)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("decodeStruct(...): -want (decodeMap of AsMap), +got:\n%s", diff)
	}
}

// TestDecodeStructValues covers what only a Struct can hold: numbers JSON
// cannot, which AsMap turns into strings, and nil messages.
func TestDecodeStructValues(t *testing.T) {
	for name, s := range map[string]*structpb.Struct{
		"NaNName": {Fields: map[string]*structpb.Value{"resources": structpb.NewListValue(&structpb.ListValue{Values: []*structpb.Value{
			structpb.NewStructValue(&structpb.Struct{Fields: map[string]*structpb.Value{"name": structpb.NewNumberValue(math.NaN())}}),
		}})}},
		"InfInteger": {Fields: map[string]*structpb.Value{"resources": structpb.NewListValue(&structpb.ListValue{Values: []*structpb.Value{
			structpb.NewStructValue(&structpb.Struct{Fields: map[string]*structpb.Value{"name": structpb.NewStringValue("a"), "readinessChecks": structpb.NewListValue(&structpb.ListValue{Values: []*structpb.Value{
				structpb.NewStructValue(&structpb.Struct{Fields: map[string]*structpb.Value{"matchInteger": structpb.NewNumberValue(math.Inf(1))}}),
			}})}}),
		}})}},
		"NilMessages": {Fields: map[string]*structpb.Value{
			"environment": {Kind: &structpb.Value_StructValue{}},
			"patchSets":   {Kind: &structpb.Value_ListValue{}},
			"kind":        {},
			"resources": structpb.NewListValue(&structpb.ListValue{Values: []*structpb.Value{
				structpb.NewStructValue(&structpb.Struct{Fields: map[string]*structpb.Value{"name": structpb.NewStringValue("a"), "base": {Kind: &structpb.Value_StructValue{}}, "patches": structpb.NewListValue(&structpb.ListValue{Values: []*structpb.Value{
					structpb.NewStructValue(&structpb.Struct{Fields: map[string]*structpb.Value{"transforms": structpb.NewListValue(&structpb.ListValue{Values: []*structpb.Value{
						structpb.NewStructValue(&structpb.Struct{Fields: map[string]*structpb.Value{"type": structpb.NewStringValue("map"), "map": {Kind: &structpb.Value_StructValue{}}}}),
						{},
					}})}}),
				}})}}),
			}}),
		}},
	} {
		t.Run(name, func(t *testing.T) {
			want, wantOK := decodeMap(s.AsMap())
			got, gotOK := decodeStruct(s)
			if gotOK != wantOK {
				t.Fatalf("decodeStruct(...): got ok %t, decodeMap(AsMap) gives %t", gotOK, wantOK)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("decodeStruct(...): -want (decodeMap of AsMap), +got:\n%s", diff)
			}
		})
	}
}
