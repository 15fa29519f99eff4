package environment

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestDecodeSpecAndDefault(t *testing.T) {
	type want struct {
		spec *Spec
		err  string
	}
	cases := map[string]struct {
		reason string
		in     string
		want   want
	}{
		"AllDefaults": {
			reason: "Defaults apply to absent fields of present objects (docs/semantics/legacy.md#inputs-are-defaulted-first).",
			in: `{"environmentConfigs": [{"ref": {"name": "a"}}, {"type": "Selector", "selector": {"matchLabels": [{"key": "k", "valueFromFieldPath": "spec.k"}]}}],
			      "policy": {}}`,
			want: want{spec: &Spec{
				EnvironmentConfigs: []Source{
					{Type: ptrTo(SourceTypeReference), Ref: &Reference{Name: "a"}},
					{Type: ptrTo(SourceTypeSelector), Selector: &Selector{
						Mode: ptrTo(SelectorModeSingle), SortByFieldPath: ptrTo(DefaultSortByFieldPath),
						MatchLabels: []LabelMatcher{{Type: ptrTo(LabelMatcherTypeFromCompositeFieldPath), Key: "k",
							ValueFromFieldPath: ptrTo("spec.k"), FromFieldPathPolicy: ptrTo(FromFieldPathPolicyRequired)}},
					}},
				},
				Policy: &Policy{Resolution: ptrTo(ResolutionPolicyRequired)},
			}},
		},
		"NoPolicyStaysNil": {
			reason: "An absent policy is not created; resolve has no default.",
			in:     `{"defaultData": {"a": 1}}`,
			want:   want{spec: &Spec{DefaultData: map[string]json.RawMessage{"a": json.RawMessage("1")}}},
		},
		"ExplicitEmptyKept": {
			reason: "Explicitly empty values are not defaulted, as the API server keeps them.",
			in:     `{"environmentConfigs": [{"type": "Selector", "selector": {"mode": "", "sortByFieldPath": "", "matchLabels": []}}]}`,
			want: want{spec: &Spec{EnvironmentConfigs: []Source{{Type: ptrTo(SourceTypeSelector), Selector: &Selector{
				Mode: ptrTo(SelectorMode("")), SortByFieldPath: ptrTo(""), MatchLabels: []LabelMatcher{},
			}}}}},
		},
		"NullsLikeAbsent": {
			reason: "A null is pruned by the API server and then defaulted.",
			in:     `{"environmentConfigs": [{"type": null, "ref": {"name": "a"}}]}`,
			want:   want{spec: &Spec{EnvironmentConfigs: []Source{{Type: ptrTo(SourceTypeReference), Ref: &Reference{Name: "a"}}}}},
		},
		"UnknownFieldsPruned": {
			reason: "Unknown fields (and patches, and wrong-case names) are ignored.",
			in:     `{"patches": [{"type": "FromCompositeFieldPath"}], "environmentConfigs": [{"ref": {"name": "a"}, "toFieldPath": "x", "Type": "Selector"}]}`,
			want:   want{spec: &Spec{EnvironmentConfigs: []Source{{Type: ptrTo(SourceTypeReference), Ref: &Reference{Name: "a"}}}}},
		},
		"YAML": {
			reason: "YAML is read as kubectl reads it.",
			in:     "defaultData:\n  k: v\n",
			want:   want{spec: &Spec{DefaultData: map[string]json.RawMessage{"k": json.RawMessage(`"v"`)}}},
		},
		"NegativeMaxMatch": {
			reason: "maxMatch is unsigned.",
			in:     `{"environmentConfigs": [{"type": "Selector", "selector": {"mode": "Multiple", "maxMatch": -1}}]}`,
			want:   want{err: "cannot decode spec.environment: json: cannot unmarshal number -1 into Go struct field Selector.environmentConfigs.selector.maxMatch of type uint64"},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, err := DecodeSpec([]byte(tc.in))
			if diff := cmp.Diff(tc.want.err, errText(err)); diff != "" {
				t.Errorf("\n%s\nDecodeSpec(...): -want error, +got error:\n%s", tc.reason, diff)
			}
			if err != nil {
				return
			}
			got.Default()
			if diff := cmp.Diff(tc.want.spec, got); diff != "" {
				t.Errorf("\n%s\nDecodeSpec(...).Default(): -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}

func TestValidate(t *testing.T) {
	cases := map[string]struct {
		reason string
		spec   string
		want   []string
	}{
		"VA014": {
			reason: "Each source reports its first error only.",
			spec: `{environmentConfigs: [
			  {type: Selector, selector: {mode: Single, maxMatch: 1, matchLabels: [{type: FromCompositeFieldPath, key: a, valueFromFieldPath: ""}]}},
			  {type: Reference},
			  {type: Selector, selector: {matchLabels: []}}]}`,
			want: []string{
				"spec.environment.environmentConfigs[0].selector.maxMatch: Forbidden: maxMatch is not supported in Single mode",
				"spec.environment.environmentConfigs[1].ref: Required value: ref is required",
				"spec.environment.environmentConfigs[2].selector.matchLabels: Required value: selector must have at least one match label",
			},
		},
		"Valid": {
			reason: "A valid spec has no errors.",
			spec: `{defaultData: {a: 1}, policy: {resolve: Always, resolution: Optional}, environmentConfigs: [
			  {ref: {name: a}},
			  {type: Selector, selector: {mode: Multiple, minMatch: 1, maxMatch: 2, matchLabels: [{key: a, valueFromFieldPath: spec.a}, {type: Value, key: b, value: c}]}}]}`,
		},
		"SelectorChecks": {
			reason: "Missing selector, minMatch in Single mode, missing key, empty path, missing and empty value.",
			spec: `{environmentConfigs: [
			  {type: Selector},
			  {type: Selector, selector: {minMatch: 1, matchLabels: [{key: a, valueFromFieldPath: spec.a}]}},
			  {type: Selector, selector: {matchLabels: [{valueFromFieldPath: spec.a}]}},
			  {type: Selector, selector: {matchLabels: [{key: a}]}},
			  {type: Selector, selector: {matchLabels: [{key: a, type: Value}]}},
			  {type: Selector, selector: {mode: Multiple, matchLabels: [{key: a, valueFromFieldPath: spec.a}, {key: b, type: Value, value: ""}]}},
			  {ref: {name: ""}}]}`,
			want: []string{
				"spec.environment.environmentConfigs[0].selector: Required value: selector is required",
				"spec.environment.environmentConfigs[1].selector.minMatch: Forbidden: minMatch is not supported in Single mode",
				"spec.environment.environmentConfigs[2].selector.matchLabels[0].key: Required value: key is required",
				"spec.environment.environmentConfigs[3].selector.matchLabels[0].valueFromFieldPath: Required value: valueFromFieldPath is required",
				"spec.environment.environmentConfigs[4].selector.matchLabels[0].value: Required value: value is required",
				"spec.environment.environmentConfigs[5].selector.matchLabels[1].value: Required value: value must not be empty",
				"spec.environment.environmentConfigs[6].ref.name: Required value: name is required",
			},
		},
		"InvalidTypes": {
			reason: "Unknown types are invalid.",
			spec:   `{environmentConfigs: [{type: Other}, {type: Selector, selector: {matchLabels: [{key: a, type: Other}]}}]}`,
			want: []string{
				`spec.environment.environmentConfigs[0].type: Invalid value: "Other": invalid type`,
				`spec.environment.environmentConfigs[1].selector.matchLabels[0].type: Invalid value: "Other": invalid type`,
			},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			var got []string
			for _, e := range spec(t, tc.spec).Validate() {
				got = append(got, e.Error())
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("\n%s\nValidate(): -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}

func TestValidateSchema(t *testing.T) {
	cases := map[string]struct {
		reason string
		spec   string
		want   []string
	}{
		"Enums": {
			reason: "Enum values outside the CRD's lists are rejected.",
			spec: `{policy: {resolve: Sometimes, resolution: Maybe}, environmentConfigs: [
			  {type: Other},
			  {type: Selector, selector: {mode: "", matchLabels: [{key: a, type: Literal, fromFieldPathPolicy: Never}]}}]}`,
			want: []string{
				`spec.environment.environmentConfigs[0].type: Unsupported value: "Other": supported values: "Reference", "Selector"`,
				`spec.environment.environmentConfigs[1].selector.mode: Unsupported value: "": supported values: "Single", "Multiple"`,
				`spec.environment.environmentConfigs[1].selector.matchLabels[0].type: Unsupported value: "Literal": supported values: "FromCompositeFieldPath", "Value"`,
				`spec.environment.environmentConfigs[1].selector.matchLabels[0].fromFieldPathPolicy: Unsupported value: "Never": supported values: "Optional", "Required"`,
				`spec.environment.policy.resolve: Unsupported value: "Sometimes": supported values: "Always", "IfNotPresent"`,
				`spec.environment.policy.resolution: Unsupported value: "Maybe": supported values: "Required", "Optional"`,
			},
		},
		"Valid": {
			reason: "Defaulted values are valid.",
			spec:   `{policy: {}, environmentConfigs: [{ref: {name: a}}, {type: Selector, selector: {matchLabels: [{key: a, valueFromFieldPath: b}]}}]}`,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			var got []string
			for _, e := range spec(t, tc.spec).ValidateSchema() {
				got = append(got, e.Error())
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("\n%s\nValidateSchema(): -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}

func TestNilSpec(t *testing.T) {
	var s *Spec
	s.Default()
	if errs := s.Validate(); errs != nil {
		t.Errorf("\nA nil spec is valid.\nValidate(): %v", errs)
	}
	if errs := s.ValidateSchema(); errs != nil {
		t.Errorf("\nA nil spec is valid.\nValidateSchema(): %v", errs)
	}
}
