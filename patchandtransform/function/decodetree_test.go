package function

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// decodeText decodes input the way Decode does without decodeTree: through
// its JSON text.
func decodeText(input map[string]any) (*Resources, error) {
	b, err := json.Marshal(input)
	if err != nil {
		return nil, err
	}
	return DecodeJSON(b)
}

// TestDecodeTree checks that reading an input straight from its JSON tree
// gives what reading its JSON text gives, and that the direct reader
// declines whatever the text decoder would reject or read differently.
func TestDecodeTree(t *testing.T) {
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
			reason: "Metadata is decoded into ObjectMeta, strictly.",
			input:  parse(`{"metadata": {"name": "x", "labels": {"a": "b"}}}`),
			direct: true,
		},
		"MetadataUnknown": {
			reason: "Strictly: an unknown member of the metadata is the text decoder's error.",
			input:  parse(`{"metadata": {"name": "x", "nickname": "y"}}`),
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
			got, ok := decodeTree(tc.input)
			if ok != tc.direct {
				t.Fatalf("\n%s\ndecodeTree(...): got ok %t, want %t", tc.reason, ok, tc.direct)
			}
			if !ok {
				return
			}
			want, err := decodeText(tc.input)
			if err != nil {
				t.Fatalf("\n%s\ndecodeText(...): %v", tc.reason, err)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("\n%s\ndecodeTree(...): -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}
