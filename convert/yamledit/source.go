package yamledit

import (
	"bytes"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"

	yaml "go.yaml.in/yaml/v3"
	sigsyaml "sigs.k8s.io/yaml"

	"github.com/xpmigrate/xpmigrate/internal/manifest"
)

// A SyntaxError is YAML that cannot be parsed.
type SyntaxError struct {
	// Line is the 1-based line of the problem, relative to the parsed
	// text; 0 when the parser did not say.
	Line int

	// Msg is the parser's description of the problem.
	Msg string
}

func (e *SyntaxError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("line %d: %s", e.Line, e.Msg)
	}
	return e.Msg
}

var yamlErrLine = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)

// syntaxErrorIn is syntaxError with the line kubectl's reader
// (sigs.k8s.io/yaml, on yaml.v2) gives for text, when it gives one:
// yaml.v3 counts the lines of parser errors (as opposed to scanner errors)
// from 0, one line early, and every other reader of xpmigrate reads
// through sigs.k8s.io/yaml, so its line is the one every command names.
func syntaxErrorIn(text []byte, err error) *SyntaxError {
	se := syntaxError(err)
	if _, kerr := sigsyaml.YAMLToJSON(text); kerr != nil {
		if m := yamlErrLineIn.FindStringSubmatch(kerr.Error()); m != nil {
			se.Line, _ = strconv.Atoi(m[1])
		}
	}
	return se
}

var yamlErrLineIn = regexp.MustCompile(`yaml: line (\d+): `)

// syntaxError turns a yaml.v3 error into a SyntaxError. yaml.v3 reports
// the line only inside its message, so the message is parsed for it (for
// display only).
func syntaxError(err error) *SyntaxError {
	msg := err.Error()
	if m := yamlErrLine.FindStringSubmatch(msg); m != nil {
		n, _ := strconv.Atoi(m[1])
		return &SyntaxError{Line: n, Msg: m[2]}
	}
	return &SyntaxError{Msg: strings.TrimPrefix(msg, "yaml: ")}
}

// A Doc is one parsed YAML document and the source it came from.
type Doc struct {
	// Node is the yaml.v3 document node; Node.Content[0] is the top-level
	// value. Edit it in place.
	Node *yaml.Node

	src   []byte
	lines []string // source lines without their line breaks
	crlf  bool
	eol   bool // the text ends with a line break

	orig map[*yaml.Node]*snapshot
	pre  int // lines before the top-level value's first entry
	post int // the first line after it: a `...` marker, or the end

	gen      int32        // Encode runs, for the snapshots' clean
	snaps    []snapshot   // storage for orig
	kids     []*yaml.Node // storage for the snapshots' content
	spanPool []span       // storage for spans

	style    Style
	spliced  bool
	reliable bool
	readBack []byte

	// dirty makes every node count as changed (tests: exercises the
	// regenerating paths of the emitter on real input).
	dirty bool
}

// Style is the layout new block collections are written in.
type Style struct {
	// Indent is the number of spaces a nested mapping is indented by.
	Indent int

	// CompactSeq writes a sequence's dashes at the column of its parent key
	// (`key:\n- a`) instead of one indent deeper.
	CompactSeq bool
}

// snapshot is a node as parsed.
type snapshot struct {
	kind                yaml.Kind
	style               yaml.Style
	tag, value          string
	rare                *rareProps // nil when the node has none of them
	content             []*yaml.Node
	firstLine, firstCol int // 0-based start
	lastLine            int // 0-based last line of an atomic value (-1 unknown)
	lastCol             int // byte offset just after an atomic value on lastLine

	span  *span // mapping keys and sequence items: the lines they own
	tail  *span // block collections: the lines after the last entry
	owner *span // block collections: the entry they are the value of

	cleanGen int32 // the Encode that computed clean
	clean    bool  // the node and everything below it are as parsed
}

// rareProps are the properties of a node that most nodes do not have.
type rareProps struct {
	anchor           string
	alias            *yaml.Node
	head, line, foot string
}

var noRareProps rareProps

// props returns the snapshot's rare properties (all empty when none).
func (s *snapshot) props() *rareProps {
	if s.rare == nil {
		return &noRareProps
	}
	return s.rare
}

// span is the source lines an entry owns: [start, end), its column and its
// key or dash line.
type span struct {
	start, end int
	col        int // byte column of the key or dash
	keyLine    int // the line of the key or dash
	value      *yaml.Node
	sameLine   bool // a sequence item whose content starts on the dash line
}

// Parse parses one YAML document (a manifest.Document's Text). It returns nil and no
// error when the text holds no document (only comments, blank lines or a
// separator). Invalid YAML is a *SyntaxError. Text holding more than one
// document is an error: split it first.
func Parse(text []byte) (*Doc, error) {
	dec := yaml.NewDecoder(bytes.NewReader(text))
	n := &yaml.Node{}
	if err := dec.Decode(n); err != nil {
		if err == io.EOF { //nolint:errorlint // yaml.v3 returns io.EOF itself.
			return nil, nil
		}
		return nil, syntaxErrorIn(text, err)
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); err != io.EOF { //nolint:errorlint // As above.
		if err != nil {
			return nil, syntaxError(err)
		}
		return nil, &SyntaxError{Line: extra.Line, Msg: "more than one document without a --- separator"}
	}
	if n.Kind != yaml.DocumentNode || len(n.Content) == 0 {
		return nil, nil
	}
	// The editor walks the tree recursively, several times: depth is
	// bounded before it starts.
	if err := manifest.CheckNodeDepth(n); err != nil {
		return nil, err
	}
	nodes, content, spans := countNodes(n, 0)
	d := &Doc{
		Node: n, src: text,
		orig:  make(map[*yaml.Node]*snapshot, nodes),
		snaps: make([]snapshot, 0, nodes), kids: make([]*yaml.Node, 0, content),
		spanPool: make([]span, 0, spans),
	}
	s := string(text)
	d.crlf = strings.Contains(s, "\r\n")
	if d.crlf {
		s = strings.ReplaceAll(s, "\r\n", "\n")
	}
	d.eol = strings.HasSuffix(s, "\n")
	d.lines = strings.Split(s, "\n")
	if len(d.lines) > 0 && d.lines[len(d.lines)-1] == "" {
		d.lines = d.lines[:len(d.lines)-1]
	}
	d.record(n, 0)
	// Line breaks are rewritten in the document's one style: with a mix
	// of CRLF and LF, copying source lines would change some of them, so
	// the document is not spliced.
	mixed := d.crlf && strings.Count(string(text), "\n") != strings.Count(string(text), "\r\n")
	d.reliable = !mixed && d.layoutTop()
	d.style = d.detectStyle()
	return d, nil
}

// Top returns the document's top-level value.
func (d *Doc) Top() *yaml.Node { return d.Node.Content[0] }

// Source returns the text the document was parsed from.
func (d *Doc) Source() []byte { return d.src }

// Style returns the block layout detected in the source, which new
// collections follow.
func (d *Doc) Style() Style { return d.style }

// Spliced reports whether the last Encode kept the source layout (true) or
// fell back to a plain rendering (false).
func (d *Doc) Spliced() bool { return d.spliced }

// Original reports whether n was parsed from the source (as opposed to
// created by an edit).
func (d *Doc) Original(n *yaml.Node) bool { _, ok := d.orig[n]; return ok }

func (d *Doc) record(n *yaml.Node, depth int) {
	if n == nil || depth > 10000 {
		return
	}
	if _, seen := d.orig[n]; seen {
		return
	}
	var kids []*yaml.Node
	if len(n.Content) > 0 {
		if len(d.kids)+len(n.Content) <= cap(d.kids) {
			at := len(d.kids)
			d.kids = append(d.kids, n.Content...)
			kids = d.kids[at:len(d.kids):len(d.kids)]
		} else {
			kids = append([]*yaml.Node(nil), n.Content...)
		}
	}
	s := snapshot{
		kind: n.Kind, style: n.Style, tag: n.Tag, value: n.Value,
		content:   kids,
		firstLine: n.Line - 1, firstCol: -1, lastLine: -1,
	}
	if n.Anchor != "" || n.Alias != nil || n.HeadComment != "" || n.LineComment != "" || n.FootComment != "" {
		s.rare = &rareProps{anchor: n.Anchor, alias: n.Alias, head: n.HeadComment, line: n.LineComment, foot: n.FootComment}
	}
	if len(d.snaps) < cap(d.snaps) {
		d.snaps = append(d.snaps, s)
		d.orig[n] = &d.snaps[len(d.snaps)-1]
	} else {
		sp := new(snapshot)
		*sp = s
		d.orig[n] = sp
	}
	for _, c := range n.Content {
		d.record(c, depth+1)
	}
}

// countNodes counts the nodes of the tree under n, and their children, as
// record visits them, and the spans layout may need (one per mapping key
// and sequence item, and one per collection): the sizes to allocate for.
func countNodes(n *yaml.Node, depth int) (nodes, content, spans int) {
	if n == nil || depth > 10000 {
		return 0, 0, 0
	}
	nodes, content = 1, len(n.Content)
	switch n.Kind {
	case yaml.MappingNode:
		spans = 1 + len(n.Content)/2
	case yaml.SequenceNode:
		spans = 1 + len(n.Content)
	}
	for _, c := range n.Content {
		a, b, sp := countNodes(c, depth+1)
		nodes += a
		content += b
		spans += sp
	}
	return nodes, content, spans
}

// newSpan returns a span from the document's pool.
func (d *Doc) newSpan(sp span) *span {
	if len(d.spanPool) < cap(d.spanPool) {
		d.spanPool = append(d.spanPool, sp)
		return &d.spanPool[len(d.spanPool)-1]
	}
	p := new(span)
	*p = sp
	return p
}

// changed reports whether n differs from what was parsed, itself only.
func (d *Doc) changed(n *yaml.Node) bool {
	if d.dirty {
		return true
	}
	s, ok := d.orig[n]
	if !ok {
		return true
	}
	return s.differs(n)
}

// differs reports whether n differs from its snapshot s, itself only.
func (s *snapshot) differs(n *yaml.Node) bool {
	r := s.props()
	if s.kind != n.Kind || s.style != n.Style || s.tag != n.Tag || s.value != n.Value || r.anchor != n.Anchor ||
		r.alias != n.Alias || r.head != n.HeadComment || r.line != n.LineComment || r.foot != n.FootComment ||
		len(s.content) != len(n.Content) {
		return true
	}
	for i, c := range n.Content {
		if s.content[i] != c {
			return true
		}
	}
	return false
}

// clean reports whether n and everything below it are as parsed. The
// answer is remembered in n's snapshot for the rest of Encode run gen.
func (d *Doc) clean(n *yaml.Node, gen int32) bool {
	if n == nil {
		return true
	}
	s, ok := d.orig[n]
	if !ok || d.dirty {
		return false // new, or everything counts as changed
	}
	if s.cleanGen == gen {
		return s.clean
	}
	s.cleanGen, s.clean = gen, true // Cycles are judged by the rest.
	ok = !s.differs(n)
	for _, c := range n.Content {
		if !ok {
			break
		}
		ok = d.clean(c, gen)
	}
	s.clean = ok
	return ok
}

// spanOf returns the lines a parsed mapping key or sequence item owns, or
// nil.
func (d *Doc) spanOf(n *yaml.Node) *span {
	if s := d.orig[n]; s != nil {
		return s.span
	}
	return nil
}

// tailOf returns the lines after the last entry of a parsed block
// collection, or nil.
func (d *Doc) tailOf(n *yaml.Node) *span {
	if s := d.orig[n]; s != nil {
		return s.tail
	}
	return nil
}

// ownerOf returns the entry a parsed block collection is the value of, or
// nil.
func (d *Doc) ownerOf(n *yaml.Node) *span {
	if s := d.orig[n]; s != nil {
		return s.owner
	}
	return nil
}

// --- layout -----------------------------------------------------------------

func (d *Doc) line(i int) string {
	if i < 0 || i >= len(d.lines) {
		return ""
	}
	return d.lines[i]
}

func indentOf(s string) int { return len(s) - len(strings.TrimLeft(s, " ")) }

func isBlank(s string) bool { return strings.TrimSpace(s) == "" }

func isComment(s string) bool { return strings.HasPrefix(strings.TrimLeft(s, " \t"), "#") }

// byteCol converts a yaml.v3 column (1-based, in characters) on line i to
// a 0-based byte offset.
func (d *Doc) byteCol(i, col int) int {
	s := d.line(i)
	c := 0
	for off := range s {
		if c == col-1 {
			return off
		}
		c++
	}
	if c == col-1 {
		return len(s)
	}
	return -1
}

// commentStart returns the first line of the comment block directly above
// line l (no blank line in between, each comment indented at most col),
// not going above lower.
func (d *Doc) commentStart(l, lower, col int) int {
	s := l
	for s-1 >= lower {
		t := d.line(s - 1)
		if !isComment(t) || indentOf(t) > col {
			break
		}
		s--
	}
	return s
}

// shrink drops trailing blank lines and comments indented less than col
// from [start, end), never going above minEnd.
func (d *Doc) shrink(end, minEnd, col int) int {
	for end > minEnd {
		t := d.line(end - 1)
		if isBlank(t) || (isComment(t) && indentOf(t) < col) {
			end--
			continue
		}
		break
	}
	return end
}

func isBlockCollection(n *yaml.Node) bool {
	return n != nil && (n.Kind == yaml.MappingNode || n.Kind == yaml.SequenceNode) && n.Style&yaml.FlowStyle == 0 && len(n.Content) > 0
}

// layoutTop computes the spans of the top-level value. It reports false
// when the source cannot be cut into entries (the top level is not a block
// collection, or a sequence item's dash cannot be found).
func (d *Doc) layoutTop() bool {
	top := d.Top()
	d.post = len(d.lines)
	if !isBlockCollection(top) {
		d.pre = len(d.lines)
		return false
	}
	for i := top.Line; i < len(d.lines); i++ {
		if l := d.lines[i]; l == "..." || strings.HasPrefix(l, "... ") || strings.HasPrefix(l, "...\t") {
			d.post = i
			break
		}
	}
	ok := d.layout(top, 0, d.post)
	if !ok {
		return false
	}
	first := top.Content[0]
	if sp := d.spanOf(first); sp != nil {
		d.pre = sp.start
	}
	return true
}

// layout assigns spans to the entries of block collection n, whose entries
// may claim lines from lower on and end before end.
func (d *Doc) layout(n *yaml.Node, lower, end int) bool {
	switch n.Kind {
	case yaml.MappingNode:
		return d.layoutMap(n, lower, end)
	case yaml.SequenceNode:
		return d.layoutSeq(n, lower, end)
	}
	return true
}

func (d *Doc) layoutMap(m *yaml.Node, lower, end int) bool {
	es := make([]member, 0, len(m.Content)/2)
	prev := lower
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		kl := k.Line - 1
		if kl < prev || kl >= end || k.Kind != yaml.ScalarNode || k.Style&(yaml.LiteralStyle|yaml.FoldedStyle) != 0 {
			return false
		}
		col := d.byteCol(kl, k.Column)
		if col < 0 {
			return false
		}
		// A key must start its line, unless it is the first key of a
		// sequence item written on the dash line.
		if strings.TrimSpace(d.line(kl)[:col]) != "" && !(i == 0 && kl == lower) {
			return false
		}
		start := kl
		if i > 0 || kl > lower {
			start = d.commentStart(kl, prev, col)
		}
		es = append(es, member{key: k, value: v, line: kl, col: col, start: start})
		prev = kl + 1
	}
	return d.layoutMembers(m, es, end, false)
}

// A member is an entry of a mapping (its key and value) or an item of a
// sequence (key and value both the item): the line of its key or dash, its
// column, and the line its span starts on (comments before it included).
type member struct {
	key, value *yaml.Node
	line       int
	col        int
	start      int
}

// layoutMembers lays out the members ms of collection c, which ends before
// line end; items says c is a sequence.
func (d *Doc) layoutMembers(c *yaml.Node, ms []member, end int, items bool) bool {
	for i, e := range ms {
		var stop int
		if i+1 < len(ms) {
			stop = ms[i+1].start
		} else {
			stop = d.shrink(end, e.line+1, e.col)
		}
		sp := d.newSpan(span{start: e.start, end: stop, col: e.col, keyLine: e.line, value: e.value, sameLine: items && e.value.Line-1 == e.line})
		d.orig[e.key].span = sp
		d.orig[e.value].owner = sp
		if !d.layoutValue(e.value, e.line, stop) {
			return false
		}
	}
	if len(ms) > 0 {
		last := d.spanOf(ms[len(ms)-1].key)
		d.orig[c].tail = d.newSpan(span{start: last.end, end: end, col: ms[0].col})
	}
	return true
}

// layoutValue lays out the value of an entry whose key (or dash) is on
// line kl and whose span ends before end.
func (d *Doc) layoutValue(v *yaml.Node, kl, end int) bool {
	if isBlockCollection(v) {
		first := v.Content[0]
		fl := first.Line - 1
		if v.Kind == yaml.SequenceNode {
			fl = d.dashLine(first)
			if fl < 0 {
				return false
			}
		}
		lower := kl + 1
		if fl == kl {
			lower = kl
		}
		return d.layout(v, lower, end)
	}
	d.measure(v, kl, end, indentOf(d.line(kl)))
	return true
}

// measure records where an atomic value (scalar, alias, flow collection)
// ends: the last line of [its line, end) that is not blank or a comment,
// and on it, the byte offset before any trailing comment.
func (d *Doc) measure(v *yaml.Node, kl, end, keyIndent int) {
	s := d.orig[v]
	if s == nil || v.Line == 0 {
		return
	}
	fl := v.Line - 1
	fc := d.byteCol(fl, v.Column)
	if fc < 0 || fl < kl {
		return
	}
	last := fl
	block := v.Kind == yaml.ScalarNode && v.Style&(yaml.LiteralStyle|yaml.FoldedStyle) != 0
	for l := end - 1; l > fl; l-- {
		t := d.line(l)
		if isBlank(t) || (isComment(t) && !(block && indentOf(t) > keyIndent)) {
			continue
		}
		last = l
		break
	}
	from := 0
	if last == fl {
		from = fc
	}
	s.firstLine, s.firstCol = fl, fc
	s.lastLine = last
	s.lastCol = valueEnd(d.line(last), from)
	if block && last > fl {
		s.lastCol = len(d.line(last))
	}
}

// valueEnd returns the byte offset where the value on line s (starting at
// from) ends: before the whitespace that precedes a `#` comment, or at the
// end of the line without trailing spaces. Quotes and flow brackets are
// respected.
func valueEnd(s string, from int) int {
	var quote byte
	for i := from; i < len(s); i++ {
		c := s[i]
		switch {
		case quote == '\'':
			if c == '\'' {
				if i+1 < len(s) && s[i+1] == '\'' {
					i++
					continue
				}
				quote = 0
			}
		case quote == '"':
			if c == '\\' {
				i++
				continue
			}
			if c == '"' {
				quote = 0
			}
		case (c == '\'' || c == '"') && (i == from || strings.ContainsRune(" \t[{,:", rune(s[i-1]))):
			quote = c
		case c == '#' && i > from && (s[i-1] == ' ' || s[i-1] == '\t'):
			return len(strings.TrimRight(s[:i], " \t"))
		}
	}
	return len(strings.TrimRight(s, " \t"))
}

// dash returns the 0-based line and byte column of the `-` that
// introduces sequence item it, or -1, -1.
func (d *Doc) dash(it *yaml.Node) (int, int) {
	l := it.Line - 1
	if l < 0 {
		return -1, -1
	}
	c := d.byteCol(l, it.Column)
	if c < 0 {
		return -1, -1
	}
	if before := strings.TrimRight(d.line(l)[:c], " "); strings.HasSuffix(before, "-") {
		return l, len(before) - 1
	}
	// The dash stands alone on an earlier line (`-` then the item below).
	for p := l - 1; p >= 0 && p >= l-50; p-- {
		t := d.line(p)
		tt := strings.TrimSpace(t)
		if tt == "" || strings.HasPrefix(tt, "#") {
			continue
		}
		if tt == "-" || strings.HasPrefix(tt, "- #") {
			return p, strings.IndexByte(t, '-')
		}
		return -1, -1
	}
	return -1, -1
}

// dashLine returns the 0-based line of the dash of item it, or -1.
func (d *Doc) dashLine(it *yaml.Node) int {
	l, _ := d.dash(it)
	return l
}

func (d *Doc) layoutSeq(s *yaml.Node, lower, end int) bool {
	its := make([]member, 0, len(s.Content))
	prev := lower
	for _, it := range s.Content {
		dl, col := d.dash(it)
		if dl < prev || dl >= end || col < 0 {
			return false
		}
		// A dash must start its line, unless it is the first item of a
		// sequence nested on the dash line of an outer item (`- - a`).
		if strings.TrimSpace(d.line(dl)[:col]) != "" && !(len(its) == 0 && dl == lower) {
			return false
		}
		st := dl
		if len(its) > 0 || dl > lower {
			st = d.commentStart(dl, prev, col)
		}
		its = append(its, member{key: it, value: it, line: dl, col: col, start: st})
		prev = dl + 1
	}
	return d.layoutMembers(s, its, end, true)
}

// detectStyle reads the indentation step and the sequence style from the
// first nested block collections of the source.
func (d *Doc) detectStyle() Style {
	st := Style{Indent: 2, CompactSeq: true}
	foundIndent, foundSeq := false, false
	var walk func(n *yaml.Node, depth int)
	walk = func(n *yaml.Node, depth int) {
		if n == nil || depth > 200 || (foundIndent && foundSeq) || n.Kind != yaml.MappingNode || n.Style&yaml.FlowStyle != 0 {
			return
		}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			kc := k.Column - 1
			if !isBlockCollection(v) {
				continue
			}
			switch v.Kind {
			case yaml.MappingNode:
				if c := v.Content[0].Column - 1; c > kc && !foundIndent && v.Content[0].Line > k.Line {
					st.Indent, foundIndent = c-kc, true
				}
				walk(v, depth+1)
			case yaml.SequenceNode:
				if dl := d.dashLine(v.Content[0]); dl > k.Line-1 && !foundSeq {
					c := strings.IndexByte(d.line(dl), '-')
					st.CompactSeq, foundSeq = c == kc, true
				}
				for _, it := range v.Content {
					walk(it, depth+1)
				}
			}
		}
	}
	walk(d.Top(), 0)
	if st.Indent < 1 || st.Indent > 8 {
		st.Indent = 2
	}
	return st
}
