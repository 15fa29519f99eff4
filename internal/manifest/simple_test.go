package manifest

import (
	"bytes"
	"fmt"
	"math/rand"
	"strings"
	"testing"

	sigsyaml "sigs.k8s.io/yaml"

	"github.com/xpmigrate/xpmigrate/internal/testutil"
)

// simpleCases are documents the fast reader must read exactly as
// sigs.k8s.io/yaml does, or decline. accept says which it should do.
var simpleCases = map[string]struct {
	reason string
	in     string
	accept bool
}{
	"Mapping":          {reason: "Plain keys and values.", in: "a: b\nc: d\n", accept: true},
	"Separator":        {reason: "A leading --- line.", in: "# c\n---\na: b\n", accept: true},
	"Nested":           {reason: "Nested block collections.", in: "a:\n  b:\n  - c: d\n    e: f\n  - g\n  h: 1\n", accept: true},
	"CompactSeq":       {reason: "A sequence at its key's column.", in: "a:\n- b\n- c: d\n  e:\n  - f\nz: w\n", accept: true},
	"WideDash":         {reason: "Spaces after the dash.", in: "a:\n-   b: c\n    d: e\n", accept: true},
	"Comments":         {reason: "Comments on their own lines and after values.", in: "a: b # c\n# d\n  # e\nf: # g\n  h: 'i' # j\nk: \"l\"   #m\n", accept: true},
	"Scalars":          {reason: "Booleans, nulls, integers, empty collections.", in: "a: true\nb: false\nc: null\nd: ~\ne:\nf: 0\ng: -12\nh: 123456789012345678\ni: []\nj: {}\nk: ''\nl: \"\"\n", accept: true},
	"HTML":             {reason: "encoding/json escapes <, > and &.", in: "a: x<y>&z\n\"<k>\": '&'\n", accept: true},
	"Brackets":         {reason: "Flow indicators inside a block plain scalar are text.", in: "a: metadata.annotations[x/y]\nb: a,b{c}\nc: http://x:8080/y\n", accept: true},
	"InnerSpaces":      {reason: "Spaces inside a plain scalar are kept, trailing ones dropped.", in: "a: b  c   \n", accept: true},
	"KeyOrder":         {reason: "Keys are sorted as encoding/json sorts them.", in: "b: 1\nB: 2\na: 3\nx_: 4\n'a b': 5\n", accept: true},
	"NoFinalNewline":   {reason: "A missing last line break.", in: "a: b", accept: true},
	"Yes":              {reason: "YAML 1.1 booleans are declined.", in: "a: yes\n"},
	"TrueKey":          {reason: "A key that is not a string.", in: "on: a\n"},
	"Float":            {reason: "Floats are declined.", in: "a: 1.5\n"},
	"Octal":            {reason: "Leading zeros are declined.", in: "a: 0755\n"},
	"MinusZero":        {reason: "-0 is declined.", in: "a: -0\n"},
	"BigInt":           {reason: "Long integers are declined.", in: "a: 1234567890123456789\n"},
	"Anchor":           {reason: "Anchors and aliases are declined.", in: "a: &x b\nc: *x\n"},
	"Merge":            {reason: "Merge keys are declined.", in: "a: {b: 1}\n<<: {c: 2}\n"},
	"Flow":             {reason: "Flow collections with content are declined.", in: "a: [b]\n"},
	"Block":            {reason: "Block scalars are declined.", in: "a: |\n  b\n"},
	"Multiline":        {reason: "Multi-line plain scalars are declined.", in: "a: b\n  c\n"},
	"MultilineQuoted":  {reason: "Multi-line quoted scalars are declined.", in: "a: \"b\n  c\"\n"},
	"Escapes":          {reason: "Escapes are declined.", in: "a: \"b\\tc\"\nd: 'it''s'\n"},
	"Duplicate":        {reason: "Duplicate keys are declined.", in: "a: 1\na: 2\n"},
	"Tab":              {reason: "Tabs are declined.", in: "a:\tb\n"},
	"CRLF":             {reason: "Carriage returns are declined.", in: "a: b\r\n"},
	"NonASCII":         {reason: "Non-ASCII text is declined.", in: "a: é\n"},
	"Tag":              {reason: "Tags are declined.", in: "a: !!str 1\n"},
	"BadIndent":        {reason: "Inconsistent indentation is declined.", in: "a:\n  b: 1\n c: 2\n"},
	"ColonInValue":     {reason: "A mapping inside a plain value is an error.", in: "a: b: c\n"},
	"HashInValue":      {reason: "A # not after a space is text, but declined.", in: "a: b#c\n"},
	"TopSeq":           {reason: "A top-level sequence is declined.", in: "- a\n"},
	"Empty":            {reason: "An empty document is declined.", in: "# only\n"},
	"DocEnd":           {reason: "Document end markers are declined.", in: "a: b\n...\n"},
	"SecondSeparator":  {reason: "Two documents are declined.", in: "a: b\n---\nc: d\n"},
	"DashAlone":        {reason: "A dash alone on its line is declined.", in: "a:\n-\n  b: c\n"},
	"NestedSeq":        {reason: "A sequence on a dash line is declined.", in: "a:\n- - b\n"},
	"SeqAfterScalar":   {reason: "A sequence after a scalar value is an error.", in: "a: b\n- c\n"},
	"IndentedTop":      {reason: "An indented top-level mapping is declined.", in: "  a: b\n"},
	"KeyWithoutSpace":  {reason: "key:value is a plain scalar.", in: "a:b\n"},
	"QuotedThenText":   {reason: "Text after a quoted scalar is an error.", in: "a: 'b' c\n"},
	"Directive":        {reason: "Directives are declined.", in: "%YAML 1.1\n---\na: b\n"},
	"SpaceBeforeColon": {reason: "A space before the colon is declined.", in: "a : b\n"},
}

func TestSimpleJSON(t *testing.T) {
	for name, tc := range simpleCases {
		t.Run(name, func(t *testing.T) {
			got, ok := simpleJSON([]byte(tc.in))
			if ok != tc.accept {
				t.Errorf("\n%s\nsimpleJSON(%q): accepted %t, want %t", tc.reason, tc.in, ok, tc.accept)
			}
			if !ok {
				return
			}
			want, err := sigsyaml.YAMLToJSON([]byte(tc.in))
			if err != nil {
				t.Fatalf("\n%s\nsimpleJSON(%q): accepted what sigs.k8s.io/yaml refuses: %v", tc.reason, tc.in, err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("\n%s\nsimpleJSON(%q):\n-%s\n+%s", tc.reason, tc.in, want, got)
			}
		})
	}
}

// TestSimpleJSONGenerated reads a large generated document both ways.
func TestSimpleJSONGenerated(t *testing.T) {
	var b strings.Builder
	b.WriteString("apiVersion: v1\nkind: List\nitems:\n")
	for i := 0; i < 50; i++ {
		fmt.Fprintf(&b, "- name: item-%d # n\n  spec:\n    size: %d\n    tags:\n      team: \"a&b\"\n    list:\n    - x\n    - yy: z\n      w: 'v'\n  ok: true\n", i, i)
	}
	got, ok := simpleJSON([]byte(b.String()))
	if !ok {
		t.Fatalf("simpleJSON(...): declined")
	}
	want, err := sigsyaml.YAMLToJSON([]byte(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("simpleJSON(...):\n-%s\n+%s", want, got)
	}
}

// FuzzSimpleJSON checks that whatever the fast reader accepts,
// sigs.k8s.io/yaml reads as the same JSON.
func FuzzSimpleJSON(f *testing.F) {
	for _, tc := range simpleCases {
		f.Add([]byte(tc.in))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		got, ok := simpleJSON(in)
		if !ok {
			return
		}
		want, err := sigsyaml.YAMLToJSON(in)
		if err != nil {
			t.Fatalf("simpleJSON(%q): accepted what sigs.k8s.io/yaml refuses: %v", in, err)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("simpleJSON(%q):\n-%s\n+%s", in, want, got)
		}
	})
}

// TestSimpleJSONRandom reads random documents both ways: whatever the
// fast reader accepts, sigs.k8s.io/yaml must read the same. The documents
// are well-formed block YAML built from the pieces the fast reader
// distinguishes (indentation, compact and indented sequences, keys,
// scalars, comments), then, most of the time, damaged on one line.
func TestSimpleJSONRandom(t *testing.T) {
	goodKeys := []string{"a", "b", "c", "'q'", `"d"`, "a b", "x.y/z", "'a'", "B", "'b c'"}
	badKeys := []string{"on", "<<", "1", "y", "ab:c", "a #b", "&x a", "? a"}
	goodValues := []string{"", " x", " 1", " -1", " true", " false", " ~", " null", " []", " {}", " 'x'", ` "x"`,
		" x # c", " #c", " x:y", " <&>", " x  y  ", " 0", " '\"'", " a[b]"}
	badValues := []string{" 01", " -0", " yes", " a: b", " x#y", " [a]", " &a x", " *a", " 1.0", " x:", " 'a''b'", ` "a\"b"`,
		" 12345678901234567890", " Null", " |", " >-", " !!str x", " 'x' y", "x", " - x", " -", " %x", " @x"}
	pick := func(r *rand.Rand, good, bad []string) string {
		if r.Intn(12) == 0 {
			return bad[r.Intn(len(bad))]
		}
		return good[r.Intn(len(good))]
	}
	accepted := 0
	n := int64(testutil.Cases(20000))
	for seed := int64(0); seed < n; seed++ {
		r := rand.New(rand.NewSource(seed))
		var lines []string
		var block func(ind, depth int, seq bool)
		block = func(ind, depth int, seq bool) {
			for range 1 + r.Intn(3) {
				if r.Intn(8) == 0 {
					lines = append(lines, strings.Repeat(" ", r.Intn(6))+"# c")
				}
				pre, at := strings.Repeat(" ", ind), ind
				if seq {
					gap := 1 + r.Intn(2)
					pre += "-" + strings.Repeat(" ", gap)
					at += 1 + gap
					if r.Intn(3) == 0 {
						lines = append(lines, pre+strings.TrimPrefix(pick(r, goodValues, badValues), " "))
						continue
					}
				}
				for j := range 1 + r.Intn(3) {
					if j > 0 {
						pre = strings.Repeat(" ", at)
					}
					k := pick(r, goodKeys, badKeys)
					if depth > 3 || r.Intn(2) == 0 {
						lines = append(lines, pre+k+":"+pick(r, goodValues, badValues))
						continue
					}
					lines = append(lines, pre+k+":")
					switch r.Intn(3) {
					case 0:
						block(at, depth+1, true) // compact sequence
					case 1:
						block(at+1+r.Intn(3), depth+1, true)
					default:
						block(at+1+r.Intn(3), depth+1, false)
					}
				}
			}
		}
		block(0, 0, false)
		if r.Intn(4) > 0 {
			i := r.Intn(len(lines))
			switch r.Intn(3) {
			case 0:
				lines[i] = " " + lines[i]
			case 1:
				lines[i] = strings.TrimPrefix(lines[i], " ")
			default:
				lines[i] += pick(r, goodValues, badValues)
			}
		}
		in := []byte(strings.Join(lines, "\n") + "\n")
		got, ok := simpleJSON(in)
		if !ok {
			continue
		}
		accepted++
		want, err := sigsyaml.YAMLToJSON(in)
		if err != nil {
			t.Fatalf("simpleJSON(%q): accepted what sigs.k8s.io/yaml refuses: %v", in, err)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("simpleJSON(%q):\n-%s\n+%s", in, want, got)
		}
	}
	t.Logf("accepted %d of %d", accepted, n)
	if int64(accepted) < n/20 {
		t.Errorf("simpleJSON accepted only %d random documents: the test checks too little", accepted)
	}
}
