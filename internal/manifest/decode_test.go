package manifest

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	sigsyaml "sigs.k8s.io/yaml"
)

func TestDecode(t *testing.T) {
	type want struct {
		obj map[string]any
		err bool
	}
	cases := map[string]struct {
		reason string
		raw    string
		want   want
	}{
		"Object": {
			reason: "A mapping decodes as the API server would: YAML 1.1 scalars, integers as int64.",
			raw:    "a: yes\nb: 1\nc: 1.5\nd: '1'\n",
			want:   want{obj: map[string]any{"a": true, "b": int64(1), "c": 1.5, "d": "1"}},
		},
		"Plain": {
			reason: "The fast reader's subset decodes the same way.",
			raw:    "a: b\nc:\n- d\n- e: 1\n",
			want:   want{obj: map[string]any{"a": "b", "c": []any{"d", map[string]any{"e": int64(1)}}}},
		},
		"Empty": {
			reason: "Comments and blank lines are no object.",
			raw:    "# only a comment\n\n",
		},
		"Null": {
			reason: "Null is no object.",
			raw:    "~\n",
		},
		"List": {
			reason: "A sequence is not an object.",
			raw:    "- a\n",
			want:   want{err: true},
		},
		"Syntax": {
			reason: "YAML that does not parse is an error.",
			raw:    "a: [\n",
			want:   want{err: true},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, err := Document{Raw: []byte(tc.raw)}.Decode()
			if (err != nil) != tc.want.err {
				t.Fatalf("\n%s\nDecode(): error %v, want error %t", tc.reason, err, tc.want.err)
			}
			if diff := cmp.Diff(tc.want.obj, got, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("\n%s\nDecode(): -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}

func TestDecodeValue(t *testing.T) {
	cases := map[string]struct {
		reason string
		raw    string
		want   any
	}{
		"Object": {reason: "A mapping is an object.", raw: "a: 1\n", want: map[string]any{"a": int64(1)}},
		"List":   {reason: "A sequence is a list (a JSON 6902 patch).", raw: "- op: add\n", want: []any{map[string]any{"op": "add"}}},
		"Empty":  {reason: "An empty document is nil.", raw: "# c\n"},
		"Null":   {reason: "So is null.", raw: "null\n"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, err := DecodeValue([]byte(tc.raw))
			if err != nil {
				t.Fatalf("\n%s\nDecodeValue(...): %v", tc.reason, err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("\n%s\nDecodeValue(...): -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}

// TestDocumentJSON: a document's kubectl view is sigs.k8s.io/yaml's reading
// of its Raw, fast reader or not.
func TestDocumentJSON(t *testing.T) {
	stream := "# head\n---\na: b\n---\nc: !!str 1\nd: [x]\n---\r\ne: f\r\n"
	for _, d := range Split([]byte(stream)) {
		want, werr := sigsyaml.YAMLToJSON(d.Raw)
		got, gerr := d.JSON()
		if (werr != nil) != (gerr != nil) || string(got) != string(want) {
			t.Errorf("document %d: JSON() = %s, %v; sigs.k8s.io/yaml reads %s, %v", d.Index+1, got, gerr, want, werr)
		}
	}
}

// TestDocumentNode: the tree's lines count from the document's Line.
func TestDocumentNode(t *testing.T) {
	docs := Split([]byte("# head\n---\na: 1\n---\n\nb:\n  c: 2\n"))
	n, err := docs[1].Node()
	if err != nil {
		t.Fatal(err)
	}
	c := n.Content[0].Content[1].Content[0] // b's value's first key
	if got, want := docs[1].Line+c.Line-1, 7; c.Value != "c" || got != want {
		t.Errorf("Node(): key %q at line %d of the file, want \"c\" at %d", c.Value, got, want)
	}
	if _, err := (Document{Raw: []byte("a: [\n")}).Node(); err == nil {
		t.Errorf("Node(): want an error for YAML that does not parse")
	}
}

func TestWhole(t *testing.T) {
	b := []byte("{\"a\": 1}\n---\n")
	got := Whole(b)
	want := []Document{{Index: 0, Line: 1, Raw: b, Text: b, TextLine: 1}}
	if diff := cmp.Diff(want, got, cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("Whole(...): -want, +got:\n%s", diff)
	}
}

func TestNewDocumentError(t *testing.T) {
	docs := Split([]byte("a: 1\n---\n# c\nb: [\n"))
	_, err := docs[1].Decode()
	if err == nil {
		t.Fatal("Decode(): want an error")
	}
	got := NewDocumentError("x.yaml", docs[1], err)
	if got.Source != "x.yaml" || got.Document != 2 || got.Line != 4 || got.Error() != "x.yaml:4: document 2: "+got.Msg {
		t.Errorf("NewDocumentError(...) = %+v (%q): want x.yaml, document 2, line 4 of the file (b: [)", got, got.Error())
	}
}
