package yamledit

import (
	"bytes"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/pkg/errors"
	yaml "go.yaml.in/yaml/v3"

	"github.com/xpmigrate/xpmigrate/internal/manifest"
)

// Encode writes the document, keeping the source text of everything that
// did not change (see the package documentation). It reads its result back
// as kubectl would, and returns a MismatchError rather than a rendering
// that does not hold the tree's data.
func (d *Doc) Encode() ([]byte, error) {
	want, werr := d.JSON()
	return d.encode(want, werr)
}

// EncodeKnown is Encode for a caller that already has JSON(d.Node) of the
// tree as it is now, after its last edit: the rendering is checked against
// want instead of a second JSON of the same tree.
func (d *Doc) EncodeKnown(want []byte) ([]byte, error) {
	return d.encode(want, nil)
}

func (d *Doc) encode(want []byte, werr error) ([]byte, error) {
	d.spliced, d.readBack = false, nil
	if d.reliable {
		if lines, ok := d.splice(); ok {
			out := d.join(lines)
			got, err := manifest.JSON(out)
			if werr != nil || (err == nil && bytes.Equal(got, want)) {
				// When the tree cannot be read (an alias bomb, say) there
				// is nothing to check against: the layout is kept.
				d.spliced, d.readBack = true, got
				return out, nil //nolint:nilerr // An unreadable tree (werr) keeps the layout: nothing to check against.
			}
		}
	}
	plain, err := d.Plain()
	if err != nil {
		return nil, err
	}
	got, err := manifest.JSON(plain)
	if werr == nil && (err != nil || !bytes.Equal(got, want)) {
		return nil, MismatchError{}
	}
	d.readBack = got
	return plain, nil
}

// ReadBack returns the last Encode's result as kubectl reads it: compact
// JSON with sorted keys, or nil when kubectl cannot read it.
func (d *Doc) ReadBack() []byte { return d.readBack }

// A MismatchError is a rendering that does not read back as the tree it
// was rendered from.
type MismatchError struct{}

func (MismatchError) Error() string {
	return "rendered YAML does not read back as the edited document"
}

// Plain renders the document with yaml.v3 alone, in the detected style:
// comments are kept where yaml.v3 attached them, blank lines and the
// source's line breaks are not. A leading `---` is kept.
func (d *Doc) Plain() ([]byte, error) {
	var b bytes.Buffer
	if d.startsWithSeparator() {
		b.WriteString("---\n")
	}
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(d.style.Indent)
	if d.style.CompactSeq {
		enc.CompactSeqIndent()
	}
	if err := enc.Encode(d.Node); err != nil {
		return nil, errors.Wrap(err, "cannot render YAML")
	}
	if err := enc.Close(); err != nil {
		return nil, errors.Wrap(err, "cannot render YAML")
	}
	out := b.Bytes()
	if d.crlf {
		out = bytes.ReplaceAll(out, []byte("\n"), []byte("\r\n"))
	}
	return out, nil
}

func (d *Doc) startsWithSeparator() bool {
	for _, l := range d.lines {
		if manifest.IsSeparator([]byte(l)) {
			return true
		}
		if !isBlank(l) && !isComment(l) && !strings.HasPrefix(l, "%") {
			return false
		}
	}
	return false
}

func (d *Doc) join(lines []string) []byte {
	nl := "\n"
	if d.crlf {
		nl = "\r\n"
	}
	size := len(lines) * len(nl)
	for _, l := range lines {
		size += len(l)
	}
	b := make([]byte, 0, size)
	for i, l := range lines {
		b = append(b, l...)
		if i < len(lines)-1 || d.eol {
			b = append(b, nl...)
		}
	}
	return b
}

// SameData reports whether two YAML documents hold the same data when read
// as kubectl reads them (YAML 1.1, aliases expanded). Unreadable documents
// are never the same.
func SameData(a, b []byte) bool {
	ja, err := manifest.JSON(a)
	if err != nil {
		return false
	}
	jb, err := manifest.JSON(b)
	if err != nil {
		return false
	}
	return bytes.Equal(ja, jb)
}

// emitter writes a document line by line.
type emitter struct {
	d   *Doc
	out []string
}

func (d *Doc) splice() ([]string, bool) {
	d.gen++
	e := &emitter{d: d}
	top := d.Top()
	if !isBlockCollection(top) {
		return nil, false
	}
	e.out = append(e.out, d.lines[:d.pre]...)
	sp := d.spanOf(top.Content[0])
	if sp == nil {
		return nil, false
	}
	switch top.Kind {
	case yaml.MappingNode:
		e.mapping(top, sp.col)
	case yaml.SequenceNode:
		e.seq(top, sp.col)
	}
	e.out = append(e.out, d.lines[d.post:]...)
	return e.out, true
}

func (e *emitter) clean(n *yaml.Node) bool { return e.d.clean(n, e.d.gen) }

func spaces(n int) string {
	switch {
	case n <= 0:
		return ""
	case n <= len(blanks):
		return blanks[:n]
	}
	return strings.Repeat(" ", n)
}

// blanks holds the indentation most lines need, to be sliced.
const blanks = "                                                                "

// reindent shifts a source line by delta columns. Empty lines stay empty;
// a shift to the left removes only spaces.
func reindent(s string, delta int) string {
	switch {
	case s == "" || delta == 0:
		return s
	case delta > 0:
		return spaces(delta) + s
	default:
		n := min(-delta, indentOf(s))
		return s[n:]
	}
}

// copyLines copies source lines [from, to) shifted by delta. On the line
// keyLine, anything left of col that is not a space (a sequence dash the
// entry shared its line with) becomes spaces.
func (e *emitter) copyLines(from, to, delta int, keyLine, col int) {
	for l := from; l < to; l++ {
		s := e.d.line(l)
		if l == keyLine && col <= len(s) && strings.TrimSpace(s[:col]) != "" {
			s = spaces(col) + s[col:]
		}
		e.out = append(e.out, reindent(s, delta))
	}
}

func (e *emitter) mapping(m *yaml.Node, col int) {
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		sp := e.d.spanOf(k)
		if sp != nil && sp.value == v && e.clean(k) && e.clean(v) {
			e.copyLines(sp.start, sp.end, col-sp.col, sp.keyLine, sp.col)
			continue
		}
		e.entry(k, v, sp, col)
	}
	if t := e.d.tailOf(m); t != nil {
		e.copyLines(t.start, t.end, col-t.col, -1, 0)
	}
}

func (e *emitter) seq(s *yaml.Node, col int) {
	for _, it := range s.Content {
		sp := e.d.spanOf(it)
		if sp != nil && e.clean(it) {
			e.copyLines(sp.start, sp.end, col-sp.col, sp.keyLine, sp.col)
			continue
		}
		e.item(it, sp, col)
	}
	if t := e.d.tailOf(s); t != nil {
		e.copyLines(t.start, t.end, col-t.col, -1, 0)
	}
}

// props renders the anchor and explicit tag of a node written before its
// value (` &a !t`).
func props(n *yaml.Node) string {
	var s string
	if n.Anchor != "" {
		s += " &" + n.Anchor
	}
	if t := n.Tag; t != "" && !strings.HasPrefix(t, "!!") && n.Style&yaml.TaggedStyle == 0 {
		s += " " + t
	} else if n.Style&yaml.TaggedStyle != 0 && t != "" {
		s += " " + n.ShortTag()
	}
	return s
}

// childIndent returns how far the entries of block collection v go right
// of col: as in the source when v is original, else the document style.
func (e *emitter) childIndent(v *yaml.Node, seqUnderKey bool) int {
	if e.d.Original(v) && len(v.Content) > 0 {
		first := v.Content[0]
		if sp := e.d.spanOf(first); sp != nil {
			if psp := e.parentColOf(v); psp >= 0 {
				return sp.col - psp
			}
		}
	}
	if seqUnderKey {
		if e.d.style.CompactSeq {
			return 0
		}
		return e.d.style.Indent
	}
	return e.d.style.Indent
}

// parentColOf returns the source column of the key or dash that owns
// collection v, or -1.
func (e *emitter) parentColOf(v *yaml.Node) int {
	if sp := e.d.ownerOf(v); sp != nil {
		return sp.col
	}
	return -1
}

func (e *emitter) entry(k, v *yaml.Node, sp *span, col int) {
	delta := 0
	if sp != nil {
		delta = col - sp.col
		e.copyLines(sp.start, sp.keyLine, delta, -1, 0) // comments above the key
	}
	keyText := render(k)
	if isBlockCollection(v) {
		header := spaces(col) + keyText + ":" + props(v)
		if sp != nil {
			kl := e.d.line(sp.keyLine)
			if !e.d.changed(k) && sp.value == v && e.d.sameProps(v) {
				header = reindent(kl, delta)
				if sp.col <= len(kl) && strings.TrimSpace(kl[:sp.col]) != "" {
					header = spaces(col) + kl[sp.col:]
				}
			} else if sp.col <= len(kl) {
				header += kl[valueEnd(kl, sp.col):]
			}
		}
		e.out = append(e.out, header)
		in := e.childIndent(v, v.Kind == yaml.SequenceNode)
		if v.Kind == yaml.MappingNode {
			if in <= 0 {
				in = e.d.style.Indent
			}
			e.mapping(v, col+in)
		} else {
			e.seq(v, col+max(in, 0))
		}
		return
	}
	e.atomic(k, v, sp, col, spaces(col)+keyText+": ")
}

// atomic writes an entry or item whose value is a scalar, an alias or a
// flow collection. prefix is what goes before the value when the line is
// regenerated (`key: ` or `- `).
func (e *emitter) atomic(k, v *yaml.Node, sp *span, col int, prefix string) {
	delta := 0
	if sp != nil {
		delta = col - sp.col
	}
	vs := e.d.orig[v]
	measured := vs != nil && vs.lastLine >= 0 && vs.firstCol >= 0
	if sp != nil && sp.value == v && measured && vs.firstLine == sp.keyLine && vs.lastLine < sp.end && (k == nil || !e.d.changed(k)) {
		kl := e.d.line(sp.keyLine)
		pre := kl[:vs.firstCol]
		if strings.TrimSpace(pre[:min(sp.col, len(pre))]) != "" {
			pre = spaces(sp.col) + pre[sp.col:]
		}
		pre = reindent(pre, delta)
		if e.clean(v) {
			e.out = append(e.out, pre+kl[vs.firstCol:])
			e.copyLines(vs.firstLine+1, sp.end, delta, -1, 0)
			return
		}
		e.value(pre, v, col, e.d.line(vs.lastLine)[vs.lastCol:])
		e.copyLines(vs.lastLine+1, sp.end, delta, -1, 0)
		return
	}
	if sp != nil {
		// The key (or dash) changed, or the value is new: regenerate the
		// line; keep the comments that followed the old value.
		suffix := ""
		after := sp.keyLine + 1
		if os := e.d.orig[sp.value]; os != nil && os.lastLine >= 0 && os.firstCol >= 0 {
			suffix = e.d.line(os.lastLine)[os.lastCol:]
			after = os.lastLine + 1
		} else if kl := e.d.line(sp.keyLine); sp.col <= len(kl) {
			suffix = kl[valueEnd(kl, sp.col):]
			if isBlockCollection(sp.value) {
				after = sp.end // the old value's lines are gone
			}
		}
		if vs != nil && measured && e.clean(v) && vs.firstLine == vs.lastLine && vs.lastLine >= 0 && sp.value == v {
			e.out = append(e.out, prefix+e.d.line(vs.firstLine)[vs.firstCol:])
			e.copyLines(after, sp.end, delta, -1, 0)
			return
		}
		e.value(prefix, v, col, suffix)
		if after < sp.end {
			e.copyLines(after, sp.end, delta, -1, 0)
		}
		return
	}
	e.value(prefix, v, col, "")
}

// value writes prefix + the rendering of v + suffix; continuation lines of
// a multi-line rendering are indented past col.
func (e *emitter) value(prefix string, v *yaml.Node, col int, suffix string) {
	text := render(v)
	if !strings.Contains(text, "\n") {
		e.out = append(e.out, prefix+text+suffix)
		return
	}
	r := strings.Split(text, "\n")
	r[len(r)-1] += suffix
	e.out = append(e.out, prefix+r[0])
	for _, l := range r[1:] {
		if l == "" {
			e.out = append(e.out, "")
			continue
		}
		e.out = append(e.out, spaces(col)+l)
	}
}

func (e *emitter) item(it *yaml.Node, sp *span, col int) {
	delta := 0
	if sp != nil {
		delta = col - sp.col
		e.copyLines(sp.start, sp.keyLine, delta, -1, 0)
	}
	if !isBlockCollection(it) {
		e.atomic(nil, it, sp, col, spaces(col)+"- ")
		return
	}
	gap := 2
	if sp != nil && sp.sameLine && e.d.Original(it) {
		if fs := e.d.spanOf(it.Content[0]); fs != nil && fs.col > sp.col {
			gap = fs.col - sp.col
		}
	}
	child := col + gap
	if p := props(it); p != "" {
		// `- &a` on a line of its own, the collection below.
		line := spaces(col) + "-" + p
		if sp != nil {
			dl := e.d.line(sp.keyLine)
			if strings.TrimSpace(dl) != "" && !e.d.changed(it) && !sp.sameLine {
				line = reindent(dl, delta)
			}
		}
		e.out = append(e.out, line)
		if it.Kind == yaml.MappingNode {
			e.mapping(it, child)
		} else {
			e.seq(it, child)
		}
		return
	}
	start := len(e.out)
	if it.Kind == yaml.MappingNode {
		e.mapping(it, child)
	} else {
		e.seq(it, child)
	}
	if start < len(e.out) {
		first := e.out[start]
		if strings.HasPrefix(first, spaces(child)) && strings.TrimSpace(first) != "" {
			e.out[start] = spaces(col) + "-" + spaces(gap-1) + first[child:]
			return
		}
	}
	e.out = append(e.out[:start], append([]string{spaces(col) + "-"}, e.out[start:]...)...)
}

// render writes one node with yaml.v3, without comments, and without the
// final line break. Short scalars, which an edit writes over and over
// (`type: FromCompositeFieldPath`), are rendered once per process.
func render(n *yaml.Node) string {
	if n == nil || n.Kind != yaml.ScalarNode || len(n.Value) > maxCachedRender {
		return renderUncached(n)
	}
	k := renderKey{style: n.Style, tag: n.Tag, value: n.Value, anchor: n.Anchor}
	if s, ok := renderCache.Load(k); ok {
		return s.(string) //nolint:forcetypeassert // Only strings are stored.
	}
	s := renderUncached(n)
	if renderCacheSize.Add(1) <= maxRenderCache {
		renderCache.Store(k, s)
	}
	return s
}

// renderKey is what the rendering of a scalar depends on.
type renderKey struct {
	style              yaml.Style
	tag, value, anchor string
}

const (
	maxCachedRender = 128
	maxRenderCache  = 1 << 14
)

var (
	renderCache     sync.Map // renderKey → string
	renderCacheSize atomic.Int64
)

func renderUncached(n *yaml.Node) string {
	c := stripComments(n, 0)
	if c.Kind == yaml.ScalarNode && c.Style&(yaml.FoldedStyle|yaml.LiteralStyle) != 0 {
		// yaml.v3 does not always write block scalars back faithfully
		// (folded lines that start with spaces); quote them when not.
		out := renderNode(c)
		var back yaml.Node
		if err := yaml.Unmarshal([]byte(out+"\n"), &back); err != nil || len(back.Content) == 0 || back.Content[0].Value != c.Value {
			c.Style = yaml.DoubleQuotedStyle
		}
	}
	return renderNode(c)
}

func renderNode(c *yaml.Node) string {
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(c); err != nil {
		return "null"
	}
	_ = enc.Close()
	return strings.TrimSuffix(b.String(), "\n")
}

func stripComments(n *yaml.Node, depth int) *yaml.Node {
	if n == nil || depth > 500 {
		return n
	}
	c := *n
	c.HeadComment, c.LineComment, c.FootComment = "", "", ""
	if len(n.Content) > 0 {
		c.Content = make([]*yaml.Node, len(n.Content))
		for i, ch := range n.Content {
			c.Content[i] = stripComments(ch, depth+1)
		}
	}
	return &c
}

// sameProps reports whether n's anchor, tag and style are as parsed.
func (d *Doc) sameProps(n *yaml.Node) bool {
	s := d.orig[n]
	return s != nil && s.props().anchor == n.Anchor && s.tag == n.Tag && s.style == n.Style
}
