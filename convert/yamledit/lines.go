package yamledit

import (
	"strconv"

	yaml "go.yaml.in/yaml/v3"
)

// A LineTable records the lines of the nodes of a document along a few
// routes, so that a report can point at them without the document's tree.
type LineTable struct {
	routes [][]string
	root   int
	lines  map[string]int
}

// NewLineTable records, from root, the line of every node on routes: paths
// of mapping keys, with "#" for every index of a sequence. A key's line is
// the key's, an item's the item's; aliases are followed and the first of
// duplicate keys counts. Lines are those of root's document.
func NewLineTable(root *yaml.Node, routes [][]string) *LineTable {
	t := &LineTable{routes: routes, root: root.Line, lines: map[string]int{}}
	for _, route := range routes {
		t.record(root, route, "")
	}
	return t
}

func (t *LineTable) record(n *yaml.Node, route []string, key string) {
	if len(route) == 0 {
		return
	}
	n = Resolve(n)
	seg := route[0]
	switch {
	case seg == "#" && n.Kind == yaml.SequenceNode:
		for i, item := range n.Content {
			k := key + lineKey(i)
			t.lines[k] = item.Line
			t.record(item, route[1:], k)
		}
	case seg != "#" && n.Kind == yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i].Value == seg {
				k := key + lineKey(seg)
				t.lines[k] = n.Content[i].Line
				t.record(n.Content[i+1], route[1:], k)
				return
			}
		}
	}
}

func lineKey(seg any) string {
	switch s := seg.(type) {
	case string:
		return "s" + s + "\x00"
	case int:
		return "i" + strconv.Itoa(s) + "\x00"
	}
	return "?\x00"
}

// Line returns the line of the deepest node of path (string keys, int
// indexes) that exists, the document's when none does, and true; false
// when path leaves the table's routes.
func (t *LineTable) Line(path []any) (int, bool) {
	covered := false
	for _, route := range t.routes {
		if onRoute(path, route) {
			covered = true
			break
		}
	}
	if !covered {
		return 0, false
	}
	keys := make([]string, len(path))
	k := ""
	for i, seg := range path {
		k += lineKey(seg)
		keys[i] = k
	}
	for i := len(keys) - 1; i >= 0; i-- {
		if l, ok := t.lines[keys[i]]; ok {
			return l, true
		}
	}
	return t.root, true
}

func onRoute(path []any, route []string) bool {
	if len(path) > len(route) {
		return false
	}
	for i, seg := range path {
		switch s := seg.(type) {
		case int:
			if route[i] != "#" {
				return false
			}
		case string:
			if route[i] == "#" || route[i] != s {
				return false
			}
		default:
			return false
		}
	}
	return true
}
