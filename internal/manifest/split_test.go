package manifest

import (
	"bufio"
	"bytes"
	"math/rand"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// The reference splitter is the two splitters Split replaces, written
// plainly: readerDocs, how render read a stream (bufio.Scanner's lines,
// each written back with "\n"), numbers the documents and gives their
// content; editorChunks, how the converter cut it byte for byte, gives
// their text. The chunks the reader does not count (comments before the
// first document) are the first document's Lead.

var (
	refSeparator = regexp.MustCompile(`^---(?:[ \t\r]|$)`)
	refBlankLine = regexp.MustCompile(`^\s*(?:#.*)?$`)
	// refContent is a separator line with content after `---`.
	refContent = regexp.MustCompile(`^---[ \t][ \t]*[^ \t\r#]`)
)

func refBlank(b []byte) bool {
	for _, l := range strings.Split(string(b), "\n") {
		if !refBlankLine.MatchString(l) {
			return false
		}
	}
	return true
}

// readerDocs is Split's Index, Line and Raw, from bufio.Scanner's lines (a
// final "\r" dropped).
func readerDocs(b []byte) []Document {
	var docs []Document
	var cur bytes.Buffer
	start, line := 1, 0
	s := bufio.NewScanner(bytes.NewReader(b))
	s.Buffer(make([]byte, 0, 64*1024), len(b)+1)
	flush := func(next int) {
		docs = append(docs, Document{Index: len(docs), Line: start, Raw: append([]byte(nil), cur.Bytes()...)})
		cur.Reset()
		start = next
	}
	sawSeparator, leadOnly := false, true
	for s.Scan() {
		line++
		text := s.Text()
		if refSeparator.MatchString(text) {
			sawSeparator = true
			if line == 1 || (len(docs) == 0 && leadOnly) {
				cur.Reset()
				start = line + 1
			} else {
				flush(line + 1)
			}
			if refContent.MatchString(text) {
				// Content on the separator line: the document's.
				start, leadOnly = line, false
				cur.WriteString(text)
				cur.WriteByte('\n')
			}
			continue
		}
		// Directives before the first separator are no content.
		directive := !sawSeparator && strings.HasPrefix(text, "%")
		leadOnly = leadOnly && (directive || refBlank([]byte(text)))
		cur.WriteString(text)
		cur.WriteByte('\n')
	}
	flush(line + 1)
	return docs
}

type chunk struct {
	text []byte
	line int
}

// editorChunks cuts b before every separator line but the first line.
func editorChunks(b []byte) []chunk {
	var out []chunk
	start, startLine, line := 0, 1, 1
	for pos := 0; pos < len(b); line++ {
		next := len(b)
		if end := bytes.IndexByte(b[pos:], '\n'); end >= 0 {
			next = pos + end + 1
		}
		if refSeparator.Match(bytes.TrimSuffix(b[pos:next], []byte("\n"))) && pos > start {
			out = append(out, chunk{b[start:pos:pos], startLine})
			start, startLine = pos, line
		}
		pos = next
	}
	return append(out, chunk{b[start:len(b):len(b)], startLine})
}

// referenceSplit is what Split must return.
func referenceSplit(b []byte) []Document {
	docs, chunks := readerDocs(b), editorChunks(b)
	lead := len(chunks) - len(docs)
	if lead < 0 {
		return nil // cannot happen; the comparison fails
	}
	n := 0
	for _, c := range chunks[:lead] {
		n += len(c.text)
	}
	for i := range docs {
		docs[i].Text, docs[i].TextLine = chunks[lead+i].text, chunks[lead+i].line
	}
	docs[0].Lead = b[:n:n]
	return docs
}

func checkSplit(t *testing.T, b []byte) {
	t.Helper()
	got := Split(b)
	if diff := cmp.Diff(referenceSplit(b), got, cmpopts.EquateEmpty()); diff != "" {
		t.Fatalf("Split(%q): -reference, +got:\n%s", b, diff)
	}
	all := append([]byte(nil), got[0].Lead...)
	for _, d := range got {
		all = append(all, d.Text...)
	}
	if !bytes.Equal(all, b) {
		t.Fatalf("Split(%q): Lead and Texts give %q", b, all)
	}
}

func FuzzSplitDocuments(f *testing.F) {
	for _, s := range []string{"", "\n", "a: 1", "---\na: 1\n---\nb: 2\n", "# c\n---\r\na: 1\r\n--- x\nb", "a\r\r\n---\t\n",
		"# c\n---\n# d\n---\na: 1\n", "---\rx\n---\r\r\n", "--- {a: 1}\n---\nb: 2\n", "%YAML 1.1\n---\na: 1\n", "%YAML 1.1\na: 1\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) { checkSplit(t, b) })
}

func TestSplitRandom(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	parts := []string{"---", "--- # x", "---\t", "----", "a: 1", "# c", "", " ", "\r", "b", "...", "---x", "---\rx", "--- {a: 1}", "%YAML 1.1", "--- !!map", "--- a\rb"}
	n := 20000
	if testing.Short() {
		n = 2000
	}
	for i := 0; i < n; i++ {
		var lines []string
		for j := rng.Intn(8); j > 0; j-- {
			lines = append(lines, parts[rng.Intn(len(parts))])
		}
		sep := "\n"
		if rng.Intn(4) == 0 {
			sep = "\r\n"
		}
		b := []byte(strings.Join(lines, sep))
		if rng.Intn(2) == 0 {
			b = append(b, sep...)
		}
		checkSplit(t, b)
	}
}

func TestSplit(t *testing.T) {
	type doc struct {
		Index, Line     int
		Raw, Text, Lead string
		TextLine        int
	}
	cases := map[string]struct {
		reason string
		in     string
		want   []doc
	}{
		"Single": {
			reason: "A stream without separators is one document.",
			in:     "a: 1\n",
			want:   []doc{{Index: 0, Line: 1, Raw: "a: 1\n", Text: "a: 1\n", TextLine: 1}},
		},
		"Empty": {
			reason: "An empty stream is one empty document.",
			in:     "",
			want:   []doc{{Index: 0, Line: 1, TextLine: 1}},
		},
		"LeadingSeparator": {
			reason: "A leading separator opens the first document.",
			in:     "---\na: 1\n---\nb: 2\n",
			want: []doc{
				{Index: 0, Line: 2, Raw: "a: 1\n", Text: "---\na: 1\n", TextLine: 1},
				{Index: 1, Line: 4, Raw: "b: 2\n", Text: "---\nb: 2\n", TextLine: 3},
			},
		},
		"CommentsBeforeFirstSeparator": {
			reason: "Comments before the first separator belong to no document: they are the first document's Lead.",
			in:     "# head\n---\na: 1\n",
			want:   []doc{{Index: 0, Line: 3, Raw: "a: 1\n", Text: "---\na: 1\n", TextLine: 2, Lead: "# head\n"}},
		},
		"EmptyDocumentsBeforeFirst": {
			reason: "Empty documents before the first one belong to no document either.",
			in:     "# a\n---\n# b\n\n---\nc: 1\n",
			want:   []doc{{Index: 0, Line: 6, Raw: "c: 1\n", Text: "---\nc: 1\n", TextLine: 5, Lead: "# a\n---\n# b\n\n"}},
		},
		"EmptyDocumentsCount": {
			reason: "Empty documents after the first one are counted.",
			in:     "# leading comment\n---\na: 1\n---\n\n--- # trailing\nb: 2\n...\n",
			want: []doc{
				{Index: 0, Line: 3, Raw: "a: 1\n", Text: "---\na: 1\n", TextLine: 2, Lead: "# leading comment\n"},
				{Index: 1, Line: 5, Raw: "\n", Text: "---\n\n", TextLine: 4},
				{Index: 2, Line: 7, Raw: "b: 2\n...\n", Text: "--- # trailing\nb: 2\n...\n", TextLine: 6},
			},
		},
		"SeparatorWithContent": {
			reason: "`--- ` followed by content is a separator (its content is not Raw's); `----` is not.",
			in:     "a: 1\n--- # doc\nb: |\n  ----\n",
			want: []doc{
				{Index: 0, Line: 1, Raw: "a: 1\n", Text: "a: 1\n", TextLine: 1},
				{Index: 1, Line: 3, Raw: "b: |\n  ----\n", Text: "--- # doc\nb: |\n  ----\n", TextLine: 2},
			},
		},
		"NoFinalNewline": {
			reason: "Text keeps a missing final line break; Raw ends every line.",
			in:     "a: 1\n---\nb: 2",
			want: []doc{
				{Index: 0, Line: 1, Raw: "a: 1\n", Text: "a: 1\n", TextLine: 1},
				{Index: 1, Line: 3, Raw: "b: 2\n", Text: "---\nb: 2", TextLine: 2},
			},
		},
		"TrailingSeparator": {
			reason: "A separator at the end opens an empty document.",
			in:     "a: 1\n---\n",
			want: []doc{
				{Index: 0, Line: 1, Raw: "a: 1\n", Text: "a: 1\n", TextLine: 1},
				{Index: 1, Line: 3, Text: "---\n", TextLine: 2},
			},
		},
		"CRLF": {
			reason: "CRLF separators are separators; Raw reads CRLF as LF, Text keeps it.",
			in:     "a: 1\r\n---\r\nb: 2\r\n",
			want: []doc{
				{Index: 0, Line: 1, Raw: "a: 1\n", Text: "a: 1\r\n", TextLine: 1},
				{Index: 1, Line: 3, Raw: "b: 2\n", Text: "---\r\nb: 2\r\n", TextLine: 2},
			},
		},
		"CarriageReturnAfterDashes": {
			reason: "`---` then a carriage return is a separator, as for every YAML reader (a carriage return breaks the line).",
			in:     "a: 1\n---\rb: 2\n",
			want: []doc{
				{Index: 0, Line: 1, Raw: "a: 1\n", Text: "a: 1\n", TextLine: 1},
				{Index: 1, Line: 3, Text: "---\rb: 2\n", TextLine: 2},
			},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			var got []doc
			for _, d := range Split([]byte(tc.in)) {
				got = append(got, doc{Index: d.Index, Line: d.Line, Raw: string(d.Raw), Text: string(d.Text), TextLine: d.TextLine, Lead: string(d.Lead)})
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("\n%s\nSplit(...): -want, +got:\n%s", tc.reason, diff)
			}
			checkSplit(t, []byte(tc.in))
		})
	}
}
