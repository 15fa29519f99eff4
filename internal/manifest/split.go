package manifest

import (
	"bytes"
	"encoding/binary"
	"errors"
	"unicode/utf16"
	"unicode/utf8"
)

// A Document is one document of a YAML stream, with where it came from.
type Document struct {
	// Source names the file ("-" for stdin); set by the loaders.
	Source string

	// Index is the document's 0-based position in its stream, counting
	// empty documents (users see Index+1 as "document N").
	Index int

	// Line is the 1-based line the document's content starts on: the line
	// after the `---` that opens it.
	Line int

	// Raw is the document's content as a YAML reader is given it: its
	// lines after the `---` line, each ended by "\n" (a line's "\r\n" or
	// missing final line break read as "\n"). Nil when empty.
	Raw []byte

	// Text is the document's bytes as they are in the stream: the `---`
	// line that opens it (if any) and every line up to the next one. TextLine
	// is the 1-based line Text starts on.
	Text     []byte
	TextLine int

	// Lead is what comes before Text and belongs to no document: comment
	// lines and empty documents before the first document. Only the first
	// document has a Lead.
	Lead []byte

	// Object is the document decoded as the API server would (Decode);
	// set by the loaders, nil for an empty document.
	Object map[string]any
}

// Split splits a YAML stream into documents on `---` lines: a line that is
// `---` alone or followed by a space, a tab or a carriage return. It keeps
// every document, empty ones included, so callers can count them, and
// every byte: the Lead of the first document and the Text of each,
// concatenated, are b. A separator on the first line opens the first
// document, and so does one after text that holds only comments, blank
// lines and directives (`%YAML 1.1`; that text is the Lead). Content on
// the separator line (`--- {kind: X}`, `--- !!map`) is the document's:
// its Raw then starts with that line, and Line is that line's.
//
// b is UTF-8 text: a stream in another encoding goes through Text first.
func Split(b []byte) []Document {
	var docs []Document
	lead := 0                  // b[:lead] belongs to no document
	start, startLine := 0, 1   // the current document's Text starts here
	body, bodyLine := 0, 1     // and its content here
	blank, plain := true, true // its content so far is blank; needs no rewriting into Raw
	sawSeparator := false
	line := 0
	emit := func(end int) {
		d := Document{Index: len(docs), Line: bodyLine, Text: b[start:end:end], TextLine: startLine}
		if len(docs) == 0 {
			d.Lead = b[:lead:lead]
		}
		switch content := b[body:end]; {
		case len(content) == 0:
		case plain && content[len(content)-1] == '\n':
			d.Raw = b[body:end:end]
		default:
			d.Raw = rawOf(content)
		}
		docs = append(docs, d)
	}
	for pos := 0; pos < len(b); {
		next := len(b)
		if j := bytes.IndexByte(b[pos:], '\n'); j >= 0 {
			next = pos + j + 1
		}
		text := b[pos:next]
		line++
		if IsSeparator(text) {
			switch {
			case pos == start:
				// The first line: it opens the first document.
			case len(docs) == 0 && blank:
				lead = pos // Comments before the first document.
			default:
				emit(pos)
			}
			start, startLine = pos, line
			body, bodyLine = next, line+1
			blank, plain = true, true
			if separatorContent(text) {
				// Content on the separator line: the document's.
				body, bodyLine = pos, line
				blank, plain = false, bytes.IndexByte(text, '\r') < 0
			}
			sawSeparator = true
			pos = next
			continue
		}
		directive := !sawSeparator && len(text) > 0 && text[0] == '%'
		if blank && !isBlankLine(text) && !directive {
			blank = false
		}
		if plain && bytes.IndexByte(text, '\r') >= 0 {
			plain = false
		}
		pos = next
	}
	emit(len(b))
	return docs
}

// newline cuts a text into lines.
var newline = []byte{'\n'}

// rawOf returns the lines of content, each ended by "\n": a line's own
// "\r\n" (one carriage return before the line feed) or missing final line
// break read as "\n".
func rawOf(content []byte) []byte {
	out := make([]byte, 0, len(content)+1)
	for len(content) > 0 {
		var l []byte
		l, content, _ = bytes.Cut(content, newline)
		if n := len(l); n > 0 && l[n-1] == '\r' {
			l = l[:n-1]
		}
		out = append(out, l...)
		out = append(out, '\n')
	}
	return out
}

// IsSeparator reports whether line (with or without its line break) is a
// `---` document marker: `---` alone, or followed by a space, a tab, or a
// carriage return (a line break for every YAML reader).
func IsSeparator(line []byte) bool {
	if !bytes.HasPrefix(line, []byte("---")) {
		return false
	}
	rest := line[3:]
	return len(rest) == 0 || rest[0] == ' ' || rest[0] == '\t' || rest[0] == '\n' || rest[0] == '\r'
}

// separatorContent reports whether a separator line has content after
// its `---` and a space or tab: not only white space and a comment.
func separatorContent(line []byte) bool {
	rest := line[3:]
	if len(rest) == 0 || (rest[0] != ' ' && rest[0] != '\t') {
		return false
	}
	if i := bytes.IndexByte(rest, '\r'); i >= 0 {
		rest = rest[:i]
	}
	return !isBlankLine(rest)
}

// isBlankLine reports whether a line holds nothing but white space or a
// comment.
func isBlankLine(l []byte) bool {
	t := bytes.TrimSpace(l)
	return len(t) == 0 || t[0] == '#'
}

// IsBlank reports whether a document's text holds nothing but blank lines
// and comments: an empty document.
func IsBlank(b []byte) bool {
	for len(b) > 0 {
		var l []byte
		l, b, _ = bytes.Cut(b, newline)
		if !isBlankLine(l) {
			return false
		}
	}
	return true
}

// Text returns a stream as UTF-8, the encoding Split and the decoders
// read, as YAML readers detect it: a UTF-8 byte order mark is dropped, and
// a stream that starts with a UTF-16 byte order mark (little or big
// endian) is transcoded. Any other stream is returned as it is. The error
// says that a UTF-16 stream is cut short (an odd number of bytes).
func Text(b []byte) ([]byte, error) {
	switch {
	case bytes.HasPrefix(b, []byte{0xef, 0xbb, 0xbf}):
		return b[3:], nil
	case bytes.HasPrefix(b, []byte{0xff, 0xfe}):
		return fromUTF16(b[2:], binary.LittleEndian)
	case bytes.HasPrefix(b, []byte{0xfe, 0xff}):
		return fromUTF16(b[2:], binary.BigEndian)
	}
	return b, nil
}

func fromUTF16(b []byte, order binary.ByteOrder) ([]byte, error) {
	if len(b)%2 != 0 {
		return nil, errors.New("incomplete UTF-16 character at the end of the stream")
	}
	units := make([]uint16, len(b)/2)
	for i := range units {
		units[i] = order.Uint16(b[2*i:])
	}
	out := make([]byte, 0, len(b)/2)
	for _, r := range utf16.Decode(units) {
		out = utf8.AppendRune(out, r)
	}
	return out, nil
}

// Whole returns b as the one document of a stream that is not split: a
// JSON file.
func Whole(b []byte) []Document {
	return []Document{{Index: 0, Line: 1, Raw: b, Text: b, TextLine: 1, Lead: b[:0:0]}}
}
