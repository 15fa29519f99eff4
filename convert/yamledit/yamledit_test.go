package yamledit

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	yaml "go.yaml.in/yaml/v3"

	"github.com/xpmigrate/xpmigrate/internal/manifest"
)

func TestEncodeUnchanged(t *testing.T) {
	cases := map[string]struct {
		reason  string
		in      string
		spliced bool
	}{
		"BlockWithComments": {
			reason:  "Comments, blank lines and spacing survive.",
			in:      "# head\n\na:   1   # one\n\n# about b\nb:\n  - x\n  -   y\n# foot\n",
			spliced: true,
		},
		"AnchorsAndAliases": {
			reason:  "Anchors, aliases and merge keys are copied as written.",
			in:      "base: &b {x: 1}\nother:\n  <<: *b\n  y: 2\nlist: &l\n- a\nagain: *l\n",
			spliced: true,
		},
		"Quoting": {
			reason:  "Every quoting style is kept.",
			in:      "a: 'single'\nb: \"double\\n\"\nc: |\n  literal\n   more\nd: >-\n  folded\n    indented\ne: plain\n",
			spliced: true,
		},
		"DashOnItsOwnLine": {
			reason:  "Items whose content starts below the dash are kept.",
			in:      "a:\n-\n  name: x\n- &i\n  name: y\n",
			spliced: true,
		},
		"DocumentEnd": {
			reason:  "A `...` marker and what follows it are kept.",
			in:      "---\na: 1\n...\n# after\n",
			spliced: true,
		},
		"FlowTop": {
			reason: "A flow (JSON) document cannot be cut into entries; it is rendered plain.",
			in:     "{\"a\": 1}\n",
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			d, err := Parse([]byte(tc.in))
			if err != nil {
				t.Fatalf("\n%s\nParse(...): %v", tc.reason, err)
			}
			got, err := d.Encode()
			if err != nil {
				t.Fatalf("\n%s\nEncode(): %v", tc.reason, err)
			}
			if d.Spliced() != tc.spliced {
				t.Errorf("\n%s\nSpliced(): want %v, got %v", tc.reason, tc.spliced, d.Spliced())
			}
			if tc.spliced {
				if diff := cmp.Diff(tc.in, string(got)); diff != "" {
					t.Errorf("\n%s\nEncode(): -want, +got:\n%s", tc.reason, diff)
				}
			}
			if !SameData(got, []byte(tc.in)) {
				t.Errorf("\n%s\nEncode(): the data changed:\n%s", tc.reason, got)
			}
			// Regenerating everything must keep the data, too.
			d.dirty = true
			all, err := d.Encode()
			if err != nil {
				t.Fatalf("\n%s\nEncode() (all dirty): %v", tc.reason, err)
			}
			if !SameData(all, []byte(tc.in)) {
				t.Errorf("\n%s\nEncode() (all dirty): the data changed:\n%s", tc.reason, all)
			}
		})
	}
}

func TestEncodeEdits(t *testing.T) {
	cases := map[string]struct {
		reason string
		in     string
		edit   func(top *yaml.Node)
		want   string
	}{
		"ReplaceScalarKeepsComment": {
			reason: "A changed scalar is replaced in place; the spacing and comment after it stay.",
			in:     "spec:\n  mode: Resources   # later\n  x: 1\n",
			edit:   func(top *yaml.Node) { Get(Get(top, "spec"), "mode").Value = "Pipeline" },
			want:   "spec:\n  mode: Pipeline   # later\n  x: 1\n",
		},
		"InsertFirstInItem": {
			reason: "A key inserted first in a sequence item takes the dash.",
			in:     "ps:\n- from: a   # c\n  to: b\n",
			edit: func(top *yaml.Node) {
				Insert(Resolve(Get(top, "ps")).Content[0], 0, "type", NewString("X"))
			},
			want: "ps:\n- type: X\n  from: a   # c\n  to: b\n",
		},
		"MoveDeeperKeepsComments": {
			reason: "A moved block is re-indented, with the comments above and in it.",
			in:     "spec:\n  # about r\n  r:\n  - a   # first\n\n  - b\n  k: v\n",
			edit: func(top *yaml.Node) {
				spec := Get(top, "spec")
				k, v := Key(spec, "r"), Get(spec, "r")
				Delete(spec, "r")
				in := NewMap()
				in.Content = append(in.Content, k, v)
				Set(spec, "new", in)
			},
			want: "spec:\n  k: v\n  new:\n    # about r\n    r:\n    - a   # first\n\n    - b\n",
		},
		"RenameKeepsComment": {
			reason: "A renamed key keeps the comment above it.",
			in:     "# top\nold: 1\n",
			edit:   func(top *yaml.Node) { Rename(top, "old", "new") },
			want:   "# top\nnew: 1\n",
		},
		"FlowChanged": {
			reason: "A changed flow collection is written on one line, with its trailing comment.",
			in:     "a: {x: 1,\n  y: 2}   # c\nb: 2\n",
			edit:   func(top *yaml.Node) { Insert(Get(top, "a"), 0, "w", NewString("yes")) },
			want:   "a: {w: \"yes\", x: 1, y: 2}   # c\nb: 2\n",
		},
		"NewBlockInCompactStyle": {
			reason: "New collections follow the source's indentation and sequence style.",
			in:     "a:\n    b:\n    - x\n",
			edit: func(top *yaml.Node) {
				s := NewSeq()
				m := NewMap()
				Set(m, "k", NewString("v"))
				s.Content = append(s.Content, m)
				Set(top, "c", s)
			},
			want: "a:\n    b:\n    - x\nc:\n- k: v\n",
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			d, err := Parse([]byte(tc.in))
			if err != nil {
				t.Fatalf("\n%s\nParse(...): %v", tc.reason, err)
			}
			tc.edit(d.Top())
			got, err := d.Encode()
			if err != nil {
				t.Fatalf("\n%s\nEncode(): %v", tc.reason, err)
			}
			if diff := cmp.Diff(tc.want, string(got)); diff != "" {
				t.Errorf("\n%s\nEncode(): -want, +got:\n%s", tc.reason, diff)
			}
			if !d.Spliced() {
				t.Errorf("\n%s\nEncode(): fell back to the plain rendering", tc.reason)
			}
		})
	}
}

func TestParseErrors(t *testing.T) {
	cases := map[string]struct {
		reason   string
		in       string
		wantLine int
	}{
		"UnclosedFlow": {reason: "The line of a syntax error is reported, as yaml.v3 counts it.", in: "a: 1\nb: [\n", wantLine: 2},
		"Tab":          {reason: "Tabs cannot indent.", in: "a:\n\tb: 1\n", wantLine: 2},
		"AfterDocEnd":  {reason: "Content after `...` without `---` is refused.", in: "a: 1\n...\nb: 2\n", wantLine: 2},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := Parse([]byte(tc.in))
			var se *SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("\n%s\nParse(...): want a *SyntaxError, got %v", tc.reason, err)
			}
			if se.Line != tc.wantLine {
				t.Errorf("\n%s\nParse(...): want line %d, got %d (%v)", tc.reason, tc.wantLine, se.Line, se)
			}
		})
	}
	if d, err := Parse([]byte("# only a comment\n")); d != nil || err != nil {
		t.Errorf("Parse(comment): want nil, nil; got %v, %v", d, err)
	}
}

func TestJSON(t *testing.T) {
	cases := map[string]struct {
		reason string
		in     string
	}{
		"YAML11":  {reason: "Plain yes/on/0755 read as kubectl reads them.", in: "a: yes\nb: on\nc: 0755\nd: 'yes'\ne: ~\nf: 1.5\ng: y\n"},
		"Keys":    {reason: "Non-string keys become strings.", in: "1: a\ntrue: b\ny: c\n"},
		"Merge":   {reason: "Merge keys apply, own keys win.", in: "b: &b {x: 1, y: 1}\nm:\n  <<: *b\n  y: 2\n"},
		"Aliases": {reason: "Aliases expand.", in: "a: &a [1, 2]\nb: *a\n"},
		"Tags":    {reason: "Explicit tags decide.", in: "a: !!str 12\nb: !custom x\n"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			d, err := Parse([]byte(tc.in))
			if err != nil {
				t.Fatal(err)
			}
			got, err := JSON(d.Node)
			if err != nil {
				t.Fatalf("\n%s\nJSON(...): %v", tc.reason, err)
			}
			want, err := manifest.JSON([]byte(tc.in))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(string(want), string(got)); diff != "" {
				t.Errorf("\n%s\nJSON(...): -want (kubectl), +got:\n%s", tc.reason, diff)
			}
		})
	}
}

func TestScalars(t *testing.T) {
	for _, s := range []string{"yes", "On", "n", "0755", "0x1F", "1_000", "1:20", "1e3", ".inf", "~", "null", ""} {
		if n := NewString(s); n.Style != yaml.DoubleQuotedStyle {
			t.Errorf("NewString(%q): want double-quoted", s)
		}
	}
	d, err := Parse([]byte("a: yes\nb: 'yes'\nc: off\nd: 1\n"))
	if err != nil {
		t.Fatal(err)
	}
	top := d.Top()
	if v, ok := Bool(Get(top, "a")); !ok || !v {
		t.Errorf("Bool(yes): want true, true")
	}
	if _, ok := Bool(Get(top, "b")); ok {
		t.Errorf("Bool('yes'): a quoted scalar is not a boolean")
	}
	if v, ok := Bool(Get(top, "c")); !ok || v {
		t.Errorf("Bool(off): want false, true")
	}
	if _, ok := Str(Get(top, "a")); ok {
		t.Errorf("Str(yes): a plain yes is not a string to kubectl")
	}
	if s, ok := Str(Get(top, "b")); !ok || s != "yes" {
		t.Errorf("Str('yes'): want yes, true")
	}
	if _, ok := Str(Get(top, "d")); ok {
		t.Errorf("Str(1): a number is not a string")
	}
}

// FuzzEncode checks, for any YAML document, that an unchanged document is
// written back byte for byte whenever its layout can be kept, and that
// regenerating every node keeps its data.
func FuzzEncode(f *testing.F) {
	for _, s := range []string{
		"a: 1\n", "# c\na:\n- b: 1\n  c: [1, 2]\n", "a: |\n  x\n", "a: &x {b: 1}\nc: *x\n",
		"- - a\n  - b\n- c\n", "a:\n-\n  b: 1\n", "k: 'it''s'   # q\n", "a: \"x\n  y\"\n",
		"a: 1\r\nb:\r\n- c # d\r\n", "a: |\r\n  x\r\n  y\r\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		if !strings.HasSuffix(string(in), "\n") {
			return
		}
		d, err := Parse(in)
		if err != nil || d == nil {
			return
		}
		want, err := manifest.JSON(in)
		if err != nil {
			return // Not kubectl's YAML: nothing to compare with.
		}
		if got, err := JSON(d.Node); err != nil || !bytes.Equal(got, want) {
			return // yaml.v3 reads it differently from kubectl (`!`, for one).
		}
		out, err := d.Encode()
		if err != nil {
			return // Refused rather than written wrong.
		}
		if d.Spliced() && !bytes.Equal(out, in) {
			t.Fatalf("Encode(): unchanged document written differently:\n-%q\n+%q", in, out)
		}
		d.dirty = true
		all, err := d.Encode()
		if err != nil {
			return
		}
		if !SameData(all, in) {
			t.Fatalf("Encode() (all dirty): the data changed:\n-%q\n+%q", in, all)
		}
	})
}

func TestParseDepthBound(t *testing.T) {
	defer manifest.SetLimits(manifest.Limits{MaxDepth: 10})()
	cases := map[string]struct {
		reason string
		text   string
		want   bool // refused
	}{
		"Within": {reason: "A document within the bound parses.", text: "a: " + strings.Repeat("[", 9) + strings.Repeat("]", 9) + "\n"},
		"Beyond": {reason: "A deeper document is refused before the editor walks it.", text: "a: " + strings.Repeat("[", 10) + strings.Repeat("]", 10) + "\n", want: true},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := Parse([]byte(tc.text))
			if manifest.IsDepthError(err) != tc.want || (err != nil) != tc.want {
				t.Errorf("%s\nParse(): got %v, want depth error %t", tc.reason, err, tc.want)
			}
		})
	}
}
