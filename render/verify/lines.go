package verify

import (
	yaml "go.yaml.in/yaml/v3"
)

// A lineIndex finds the line of a node in a Composition's file, for
// reports that point at the template or patch a difference comes from.
type lineIndex struct {
	root *yaml.Node
	// offset is the document's first line in its file, less one.
	offset int
}

func newLineIndex(c *composition) lineIndex {
	if c == nil {
		return lineIndex{}
	}
	if c.lines != nil {
		return *c.lines
	}
	l := lineIndex{offset: c.line - 1}
	var doc yaml.Node
	if err := yaml.Unmarshal(c.raw, &doc); err == nil && len(doc.Content) > 0 {
		l.root = doc.Content[0]
	}
	c.lines = &l
	return l
}

// line returns the 1-based line in the file of the deepest node of path
// (string keys, int indexes) that exists; the document's first line when
// none does, 0 without a document.
func (l lineIndex) line(path []any) int {
	n := l.root
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
