package jsonobj

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
	kjson "sigs.k8s.io/json"
)

// TreeMeta is embedded with a name, as Kubernetes types embed ObjectMeta.
type TreeMeta struct {
	Name   string            `json:"name,omitempty"`
	Labels map[string]string `json:"labels,omitempty"`
}

// TreeTypeMeta is embedded without a name: its fields are promoted.
type TreeTypeMeta struct {
	APIVersion string `json:"apiVersion,omitempty"`
	Kind       string `json:"kind,omitempty"`
}

type treeMode string

// treePairs reads itself from the tree (TreeUnmarshaler) and from text.
type treePairs struct {
	Pairs map[string]json.RawMessage
}

func (p *treePairs) UnmarshalJSON(b []byte) error {
	return json.Unmarshal(b, &p.Pairs)
}

func (p *treePairs) UnmarshalTree(x any) bool {
	pairs, ok := MemberTexts(x)
	p.Pairs = pairs
	return ok
}

// treeDoc has a field of every kind DecodeTree reads.
type treeDoc struct {
	TreeTypeMeta `json:",inline"`
	TreeMeta     `json:"metadata,omitempty"`

	Spec *struct {
		Mode    *treeMode         `json:"mode,omitempty"`
		Count   int64             `json:"count"`
		Small   *int8             `json:"small,omitempty"`
		Ratio   float64           `json:"ratio"`
		On      bool              `json:"on"`
		Tags    []string          `json:"tags"`
		Raw     json.RawMessage   `json:"raw,omitempty"`
		Pairs   *treePairs        `json:"pairs,omitempty"`
		Items   []treeItem        `json:"items"`
		ByName  map[string]int    `json:"byName"`
		Nested  map[string]*int64 `json:"nested"`
		Ignored string            `json:"-"`
	} `json:"spec"`
	Untagged string
}

type treeItem struct {
	Name  string  `json:"name"`
	Value *string `json:"value,omitempty"`
}

// decodeText is DecodeTree's reference: the text decoder o names, given
// the tree's JSON text.
func decodeText(tree any, o TreeOptions) (*treeDoc, error) {
	b, err := json.Marshal(tree)
	if err != nil {
		return nil, err
	}
	out := &treeDoc{}
	if !o.Strict {
		return out, json.Unmarshal(b, out)
	}
	strict, err := kjson.UnmarshalStrict(b, out, kjson.DisallowUnknownFields)
	if err != nil {
		return nil, err
	}
	if len(strict) > 0 {
		return nil, strict[0]
	}
	return out, nil
}

var treeCmp = cmp.AllowUnexported(treeDoc{})

// TestDecodeTree checks which trees DecodeTree vouches for, and that what
// it reads is what the text decoder reads.
func TestDecodeTree(t *testing.T) {
	full := `{"apiVersion": "v1", "kind": "Doc", "metadata": {"name": "n", "labels": {"a": "b"}},
		"spec": {"mode": "Fast", "count": 3, "small": -8, "ratio": 0.5, "on": true, "tags": ["x", "y"],
		"raw": {"b": [1, null], "a": "<&>"}, "pairs": {"k": {"z": 1}, "n": null},
		"items": [{"name": "i", "value": "v"}, null, {"name": "j", "value": null}],
		"byName": {"a": 1, "b": null}, "nested": {"p": 2, "q": null}}, "Untagged": "u"}`
	parse := func(s string) map[string]any {
		var m map[string]any
		if err := kjson.UnmarshalCaseSensitivePreserveInts([]byte(s), &m); err != nil {
			t.Fatalf("cannot parse fixture: %v", err)
		}
		return m
	}
	with := func(s string, path []string, v any) map[string]any {
		m := parse(s)
		cur := m
		for _, p := range path[:len(path)-1] {
			cur = cur[p].(map[string]any)
		}
		cur[path[len(path)-1]] = v
		return m
	}
	cases := map[string]struct {
		reason string
		tree   map[string]any
		o      TreeOptions
		direct bool
	}{
		"Full": {
			reason: "Every kind of field reads straight from the tree.",
			tree:   parse(full), direct: true,
		},
		"FullStrict": {
			reason: "Strictly too, when every member is known.",
			tree:   parse(full), o: TreeOptions{Strict: true}, direct: true,
		},
		"FloatIntegers": {
			reason: "Integers held as float64, as AsMap holds them, fit integer fields.",
			tree:   with(full, []string{"spec", "count"}, 7.0), direct: true,
		},
		"FractionInInteger": {
			reason: "A fraction does not fit an integer field: the text decoder says why.",
			tree:   with(full, []string{"spec", "count"}, 7.5),
		},
		"HugeFloatInteger": {
			reason: "An integer float64 past 2^53 is written with rounded digits.",
			tree:   with(full, []string{"spec", "count"}, math.Ldexp(1, 60)),
		},
		"Overflow": {
			reason: "A number the field cannot hold goes to the text decoder.",
			tree:   with(full, []string{"spec", "small"}, int64(300)),
		},
		"IntegerInFloat": {
			reason: "An integer reads into a float64 field as its digits would.",
			tree:   with(full, []string{"spec", "ratio"}, int64(math.MaxInt64)), direct: true,
		},
		"NaN": {
			reason: "NaN has no JSON text.",
			tree:   with(full, []string{"spec", "ratio"}, math.NaN()),
		},
		"WrongType": {
			reason: "A value of the wrong type goes to the text decoder.",
			tree:   with(full, []string{"spec", "on"}, "yes"),
		},
		"NotUTF8": {
			reason: "A string that is not UTF-8 is written with U+FFFD.",
			tree:   with(full, []string{"metadata", "name"}, "a\xff"),
		},
		"TypedNilList": {
			reason: "A nil list is written null, which the tree does not say.",
			tree:   with(full, []string{"spec", "tags"}, []any(nil)),
		},
		"Unknown": {
			reason: "An unknown member is ignored by encoding/json.",
			tree:   with(full, []string{"spec", "other"}, map[string]any{"x": 1.5}), direct: true,
		},
		"UnknownStrict": {
			reason: "An unknown member is an error to the strict decoder.",
			tree:   with(full, []string{"spec", "other"}, "x"), o: TreeOptions{Strict: true},
		},
		"UnknownNaN": {
			reason: "An unknown member that cannot be written fails the text path.",
			tree:   with(full, []string{"spec", "other"}, math.Inf(1)),
		},
		"CaseMismatch": {
			reason: "encoding/json takes a member whose name matches a field but for case.",
			tree:   with(full, []string{"spec", "Count"}, int64(9)),
		},
		"Null": {
			reason: "null leaves a field alone.",
			tree:   with(full, []string{"spec", "mode"}, nil), direct: true,
		},
		"NullRaw": {
			reason: "A RawMessage reads null as its text.",
			tree:   with(full, []string{"spec", "raw"}, nil), direct: true,
		},
		"PairsNotObject": {
			reason: "A TreeUnmarshaler declines what it cannot vouch for.",
			tree:   with(full, []string{"spec", "pairs"}, "x"),
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got := &treeDoc{}
			ok := DecodeTree(tc.tree, got, tc.o)
			if ok != tc.direct {
				t.Fatalf("\n%s\nDecodeTree(...): got ok %t, want %t", tc.reason, ok, tc.direct)
			}
			if !ok {
				return
			}
			want, err := decodeText(tc.tree, tc.o)
			if err != nil {
				t.Fatalf("\n%s\nDecodeTree(...) read what the text decoder rejects: %v", tc.reason, err)
			}
			if diff := cmp.Diff(want, got, treeCmp); diff != "" {
				t.Errorf("\n%s\nDecodeTree(...): -want (text), +got:\n%s", tc.reason, diff)
			}
		})
	}
}

// FuzzDecodeTree checks DecodeTree against its reference (decodeText), for
// both decoders, on trees made from JSON text with integers kept (as the
// Kubernetes decoder keeps them) or as float64 (as AsMap makes them).
func FuzzDecodeTree(f *testing.F) {
	for _, s := range []string{
		`{"apiVersion":"v1","metadata":{"name":"a","labels":{"x":"y"}},"spec":{"count":1,"items":[{"name":"b"}],"pairs":{"a":[1]}}}`,
		`{"spec":{"Count":1,"ratio":1e300,"nested":{"a":null},"byName":{"b":2.5}}}`,
		`{"spec":{"raw":null,"small":-129,"tags":[null,"x"],"mode":"m","other":{}},"Untagged":"x","untagged":"y"}`,
	} {
		f.Add([]byte(s), false, false)
	}
	f.Fuzz(func(t *testing.T, b []byte, floats, strict bool) {
		var tree any
		var err error
		if floats {
			err = json.Unmarshal(b, &tree)
		} else {
			err = kjson.UnmarshalCaseSensitivePreserveInts(b, &tree)
		}
		if err != nil {
			return
		}
		o := TreeOptions{Strict: strict}
		got := &treeDoc{}
		if !DecodeTree(tree, got, o) {
			return
		}
		want, err := decodeText(tree, o)
		if err != nil {
			t.Fatalf("DecodeTree(%s) read what the text decoder rejects: %v", b, err)
		}
		if diff := cmp.Diff(want, got, treeCmp); diff != "" {
			t.Fatalf("DecodeTree(%s): -want (text), +got:\n%s", b, diff)
		}
	})
}
