package verify

import (
	yaml "go.yaml.in/yaml/v3"
)

// A lineIndex finds the line of a node in a Composition's file, for
// reports that point at the template or patch a difference comes from.
type lineIndex struct {
	c *composition
	// offset is the document's first line in its file, less one.
	offset int
}

func newLineIndex(c *composition) lineIndex {
	if c == nil {
		return lineIndex{}
	}
	return lineIndex{c: c, offset: c.src.Line - 1}
}

// root parses the document on first use.
func (c *composition) root() *yaml.Node {
	if !c.parsed {
		c.parsed = true
		if doc, err := c.src.Node(); err == nil && len(doc.Content) > 0 {
			c.node = doc.Content[0]
		}
	}
	return c.node
}

// line returns the 1-based line in the file of the deepest node of path
// (string keys, int indexes) that exists; the document's first line when
// none does, 0 without a document. Document.Lines answers when it can;
// otherwise the document is parsed.
func (l lineIndex) line(path []any) int {
	if l.c == nil {
		return 0
	}
	if l.c.doc.Lines != nil {
		if n, ok := l.c.doc.Lines(path); ok {
			return l.offset + n
		}
	}
	n := l.c.root()
	if n == nil {
		return 0
	}
	line := n.Line
	for _, seg := range path {
		for n.Kind == yaml.AliasNode && n.Alias != nil {
			n = n.Alias
		}
		var next *yaml.Node
		switch s := seg.(type) {
		case string:
			if n.Kind != yaml.MappingNode {
				break
			}
			for i := 0; i+1 < len(n.Content); i += 2 {
				if n.Content[i].Value == s {
					next = n.Content[i+1]
					line = n.Content[i].Line
					break
				}
			}
		case int:
			if n.Kind == yaml.SequenceNode && s >= 0 && s < len(n.Content) {
				next = n.Content[s]
				line = next.Line
			}
		}
		if next == nil {
			break
		}
		n = next
	}
	return l.offset + line
}
