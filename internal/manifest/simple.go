package manifest

import (
	"bytes"
	"slices"
	"strings"
)

// simpleJSON reads a document written in a plain subset of block YAML and
// returns exactly the bytes sigs.k8s.io/yaml.YAMLToJSON returns for it. It
// declines (ok false) everything outside the subset, and then the caller
// asks sigs.k8s.io/yaml itself. The subset is what generated and
// converted Compositions are mostly made of, and is small enough to be
// read the same way as yaml.v2 reads it without doubt:
//
//   - ASCII only, no tabs, no carriage returns, no control characters;
//   - an optional first `---` line, then a block mapping at column 0;
//   - block mappings and sequences (`key:` and `- ` lines), a sequence
//     item holding a scalar or a mapping that starts on the dash line;
//   - keys: plain scalars that start with a letter and read as strings,
//     or quoted scalars without escapes, unique within their mapping;
//   - values: plain scalars that start with a letter and read as strings;
//     `true`, `false`, `null`, `~`, decimal integers of at most 18 digits;
//     quoted scalars on one line without escapes; `[]` and `{}`;
//   - comments: whole lines, or after a value.
//
// Anchors, aliases, tags, block scalars, flow collections with content,
// multi-line scalars, merge keys, directives and `...` are all declined.
func simpleJSON(b []byte) ([]byte, bool) {
	for _, c := range b {
		if c == '\n' {
			continue
		}
		if c < 0x20 || c > 0x7e {
			return nil, false
		}
	}
	p := &simpleParser{lines: make([]simpleLine, 0, bytes.Count(b, []byte("\n"))+1)}
	size := len(b)
	for text := string(b); len(text) > 0; {
		var s string
		if i := strings.IndexByte(text, '\n'); i >= 0 {
			s, text = text[:i], text[i+1:]
		} else {
			s, text = text, ""
		}
		ind := indentOf(s)
		if ind == len(s) || s[ind] == '#' {
			continue // blank or comment
		}
		p.lines = append(p.lines, simpleLine{ind: ind, s: s})
	}
	if len(p.lines) > 0 && strings.HasPrefix(p.lines[0].s, "---") {
		if p.lines[0].s != "---" {
			return nil, false // Content on the document start line.
		}
		p.lines = p.lines[1:]
	}
	if len(p.lines) == 0 || p.lines[0].ind != 0 || isDash(p.lines[0].rest()) {
		return nil, false
	}
	p.out = make([]byte, 0, size)
	if !p.mapping(0, 0) || p.i != len(p.lines) {
		return nil, false
	}
	return p.out, true
}

// simpleLine is a line with content: its indentation, and where its
// content starts (past a sequence dash already consumed).
type simpleLine struct {
	ind int
	s   string
}

func (l simpleLine) rest() string { return l.s[l.ind:] }

type simpleParser struct {
	lines []simpleLine
	i     int

	out     []byte        // the JSON written so far
	members []simpleEntry // the members of the open mappings, innermost last
	tmp     []byte        // scratch for reordering a mapping's members
}

// simpleEntry is a member of a mapping being written: its key, and where
// its `"key":value` text is in out.
type simpleEntry struct {
	key        string
	start, end int
}

func isDash(s string) bool { return s == "-" || strings.HasPrefix(s, "- ") }

const simpleMaxDepth = 500

// mapping reads the block mapping whose keys are at column ind, and
// writes it with its keys sorted.
func (p *simpleParser) mapping(ind, depth int) bool {
	if depth > simpleMaxDepth {
		return false
	}
	open := len(p.out)
	first := len(p.members)
	defer func() { p.members = p.members[:first] }()
	p.out = append(p.out, '{')
	for p.i < len(p.lines) {
		l := p.lines[p.i]
		if l.ind < ind {
			break
		}
		if l.ind > ind {
			return false // a continuation line, or bad indentation
		}
		s := l.rest()
		if isDash(s) {
			return false
		}
		key, after, ok := simpleKey(s)
		if !ok {
			return false
		}
		p.i++
		if len(p.members) > first {
			p.out = append(p.out, ',')
		}
		at := len(p.out)
		p.out = appendJSONString(p.out, key)
		p.out = append(p.out, ':')
		if rest := strings.TrimLeft(after, " "); rest == "" || rest[0] == '#' {
			if rest != "" && rest == after {
				return false // `key:#` is not a comment
			}
			ok = p.nested(ind, depth)
		} else {
			ok = p.scalar(rest)
		}
		if !ok {
			return false
		}
		p.members = append(p.members, simpleEntry{key: key, start: at, end: len(p.out)})
	}
	ms := p.members[first:]
	sorted := true
	for i := 1; i < len(ms); i++ {
		switch c := strings.Compare(ms[i-1].key, ms[i].key); {
		case c == 0:
			return false // a duplicate key
		case c > 0:
			sorted = false
		}
	}
	if !sorted {
		slices.SortFunc(ms, func(a, b simpleEntry) int { return strings.Compare(a.key, b.key) })
		for i := 1; i < len(ms); i++ {
			if ms[i-1].key == ms[i].key {
				return false // a duplicate key
			}
		}
		p.tmp = append(p.tmp[:0], p.out[open+1:]...)
		p.out = p.out[:open+1]
		for i, m := range ms {
			if i > 0 {
				p.out = append(p.out, ',')
			}
			p.out = append(p.out, p.tmp[m.start-open-1:m.end-open-1]...)
		}
	}
	p.out = append(p.out, '}')
	return true
}

// nested reads the value of a key at column ind that has nothing after
// its colon: a block collection on the lines below, or null.
func (p *simpleParser) nested(ind, depth int) bool {
	if p.i < len(p.lines) {
		l := p.lines[p.i]
		switch {
		case l.ind > ind && isDash(l.rest()):
			return p.seq(l.ind, depth+1)
		case l.ind > ind:
			return p.mapping(l.ind, depth+1)
		case l.ind == ind && isDash(l.rest()):
			return p.seq(ind, depth+1)
		}
	}
	p.out = append(p.out, "null"...)
	return true
}

// seq reads the block sequence whose dashes are at column ind.
func (p *simpleParser) seq(ind, depth int) bool {
	if depth > simpleMaxDepth {
		return false
	}
	p.out = append(p.out, '[')
	for n := 0; p.i < len(p.lines); n++ {
		l := p.lines[p.i]
		if l.ind < ind {
			break
		}
		if l.ind > ind {
			return false
		}
		s := l.rest()
		if !isDash(s) {
			break // the next key of the mapping holding a compact sequence
		}
		if s == "-" {
			return false
		}
		gap := 1 + indentOf(s[1:])
		item := s[gap:]
		if item == "" || item[0] == '#' || item[0] == '-' {
			return false
		}
		if n > 0 {
			p.out = append(p.out, ',')
		}
		var ok bool
		if _, _, isKey := simpleKey(item); isKey {
			// A mapping that starts on the dash line: read the rest of the
			// line as if it were indented to where the key starts.
			p.lines[p.i] = simpleLine{ind: ind + gap, s: l.s}
			ok = p.mapping(ind+gap, depth+1)
		} else {
			p.i++
			ok = p.scalar(item)
		}
		if !ok {
			return false
		}
	}
	p.out = append(p.out, ']')
	return true
}

// simpleKey reads `key:` at the start of s, and returns the key and what
// follows the colon.
func simpleKey(s string) (key, after string, ok bool) {
	if s == "" {
		return "", "", false
	}
	var end int
	switch s[0] {
	case '"', '\'':
		q := strings.IndexByte(s[1:], s[0])
		if q < 0 {
			return "", "", false
		}
		key, end = s[1:1+q], 2+q
		if !quotedOK(key, s[0]) {
			return "", "", false
		}
	default:
		var clean bool
		end, clean = plainScan(s)
		key = s[:end]
		if !clean || !plainStringOK(key) {
			return "", "", false
		}
	}
	if end >= len(s) || s[end] != ':' || (end+1 < len(s) && s[end+1] != ' ') {
		return "", "", false
	}
	if len(key) > 1000 {
		return "", "", false // yaml.v2 limits implicit keys to 1024 characters
	}
	return key, s[end+1:], true
}

// plainScan returns where a plain scalar at the start of s ends: at a `:`
// followed by a space or the end of the line, at ` #`, or at the end, with
// trailing spaces dropped. clean reports that the scalar holds no `#`,
// quote or backslash, which plainStringOK requires.
func plainScan(s string) (end int, clean bool) {
	end, clean = len(s), true
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case ':':
			if i+1 == len(s) || s[i+1] == ' ' {
				end = i
			}
		case '#':
			if i > 0 && s[i-1] == ' ' {
				end = i
			} else {
				clean = false
			}
		case '\'', '"', '\\':
			clean = false
		}
		if end < len(s) {
			break
		}
	}
	for end > 0 && s[end-1] == ' ' {
		end--
	}
	return end, clean && end > 0
}

// plainStringOK reports whether plain scalar s, cut by plainScan and
// clean, certainly reads as the string s: it starts with a letter and is
// not one of YAML 1.1's booleans or nulls.
func plainStringOK(s string) bool {
	if s == "" {
		return false
	}
	if c := s[0]; (c < 'a' || c > 'z') && (c < 'A' || c > 'Z') {
		return false
	}
	return !IsYAML11Special(s)
}

// quotedOK reports whether the content of a one-line quoted scalar needs
// no unescaping.
func quotedOK(s string, q byte) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c == q || c == '\\' {
			return false
		}
	}
	return true
}

// scalar reads a value written after `key: ` or `- `, with any trailing
// comment, and writes it.
func (p *simpleParser) scalar(s string) bool {
	var v, rest string
	quoted, clean := false, true
	switch s[0] {
	case '"', '\'':
		q := strings.IndexByte(s[1:], s[0])
		if q < 0 {
			return false
		}
		v, rest, quoted = s[1:1+q], s[2+q:], true
		if !quotedOK(v, s[0]) {
			return false
		}
	default:
		var end int
		end, clean = plainScan(s)
		v, rest = s[:end], s[end:]
	}
	// After the value: nothing, or spaces then a comment.
	if t := strings.TrimLeft(rest, " "); t != "" && (t[0] != '#' || t == rest) {
		return false
	}
	switch {
	case quoted:
		p.out = appendJSONString(p.out, v)
	case v == "true" || v == "false" || v == "null" || v == "[]" || v == "{}" || isSimpleInt(v):
		p.out = append(p.out, v...)
	case v == "~":
		p.out = append(p.out, "null"...)
	case clean && plainStringOK(v):
		p.out = appendJSONString(p.out, v)
	default:
		return false
	}
	return true
}

// isSimpleInt reports whether s is a decimal integer that yaml.v2 reads as
// an int and encoding/json writes back as s.
func isSimpleInt(s string) bool {
	d := strings.TrimPrefix(s, "-")
	if d == "" || len(d) > 18 || (d[0] == '0' && (len(d) > 1 || d != s)) {
		return false
	}
	for i := 0; i < len(d); i++ {
		if d[i] < '0' || d[i] > '9' {
			return false
		}
	}
	return true
}

// appendJSONString writes printable ASCII without backslashes as
// encoding/json does (quotes and HTML characters escaped).
func appendJSONString(out []byte, s string) []byte {
	out = append(out, '"')
	i := 0
	for i < len(s) && s[i] != '<' && s[i] != '>' && s[i] != '&' && s[i] != '"' {
		i++
	}
	out = append(out, s[:i]...)
	for ; i < len(s); i++ {
		switch c := s[i]; c {
		case '<':
			out = append(out, `\u003c`...)
		case '>':
			out = append(out, `\u003e`...)
		case '&':
			out = append(out, `\u0026`...)
		case '"':
			out = append(out, `\"`...)
		default:
			out = append(out, c)
		}
	}
	return append(out, '"')
}

func indentOf(s string) int { return len(s) - len(strings.TrimLeft(s, " ")) }
