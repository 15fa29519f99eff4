package sarif

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestIndex(t *testing.T) {
	cases := map[string]struct {
		reason      string
		rules       map[string]Rule
		results     []Result
		wantRules   []Rule
		wantResults []Result
	}{
		"SortedAndIndexed": {
			reason:      "Rules come sorted by id; each result points at its rule's place.",
			rules:       map[string]Rule{"b": {ID: "b"}, "a": {ID: "a"}, "c": {ID: "c"}},
			results:     []Result{{RuleID: "c"}, {RuleID: "a"}, {RuleID: "b", RuleIndex: 7}},
			wantRules:   []Rule{{ID: "a"}, {ID: "b"}, {ID: "c"}},
			wantResults: []Result{{RuleID: "c", RuleIndex: 2}, {RuleID: "a"}, {RuleID: "b", RuleIndex: 1}},
		},
		"Empty": {
			reason:      "No rule and no result: empty lists, never nil (SARIF wants the arrays).",
			wantRules:   []Rule{},
			wantResults: []Result{},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			rules, results := Index(tc.rules, tc.results)
			if diff := cmp.Diff(tc.wantRules, rules); diff != "" {
				t.Errorf("\n%s\nIndex(...): -want rules, +got:\n%s", tc.reason, diff)
			}
			if diff := cmp.Diff(tc.wantResults, results); diff != "" {
				t.Errorf("\n%s\nIndex(...): -want results, +got:\n%s", tc.reason, diff)
			}
		})
	}
}
