package yamledit

import (
	"fmt"

	yaml "go.yaml.in/yaml/v3"
)

// MaxAliasExpansion is the one expansion budget of every reader: the
// nodes that aliases may add to a document when expanded (a "billion
// laughs" document of a few hundred bytes expands to billions). JSON,
// Clone and the migrate scan stay within it; CheckAliases tells a document
// that exceeds it before anything expands it.
const MaxAliasExpansion = maxExpanded

// An ExpansionError is a document whose aliases expand beyond
// MaxAliasExpansion nodes, or into themselves.
type ExpansionError struct {
	// Line is the 1-based line, in the parsed text, of the alias where the
	// expansion crossed the budget.
	Line int
	// Recursive is set when an alias is inside the node it names.
	Recursive bool
}

func (e *ExpansionError) Error() string {
	return fmt.Sprintf("line %d: %s", e.Line, e.Message())
}

// Message is the error without the line.
func (e *ExpansionError) Message() string {
	if e.Recursive {
		return "an alias refers to a node that contains it"
	}
	return fmt.Sprintf("aliases expand the document to more than %d nodes (an alias bomb?)", MaxAliasExpansion)
}

// CheckAliases returns an *ExpansionError when expanding the aliases of
// node n would add more than MaxAliasExpansion nodes, or never end. It
// expands nothing: each anchored node's expanded size is computed once, so
// the check is linear in the size of the text.
func CheckAliases(n *yaml.Node) error {
	return checkAliases(n, MaxAliasExpansion)
}

// checkAliases is CheckAliases with the budget limit.
func checkAliases(n *yaml.Node, limit int) error {
	c := aliasCheck{size: map[*yaml.Node]int{}, limit: limit}
	return c.walk(n)
}

type aliasCheck struct {
	// size holds the expanded size of nodes, -1 while being computed.
	size  map[*yaml.Node]int
	added int
	limit int
}

// walk visits the tree as written, adding each alias's expansion.
func (c *aliasCheck) walk(n *yaml.Node) error {
	if n == nil {
		return nil
	}
	if n.Kind == yaml.AliasNode {
		s, ok := c.expanded(n.Alias)
		if !ok {
			return &ExpansionError{Line: n.Line, Recursive: true}
		}
		if c.added += s; c.added > c.limit {
			return &ExpansionError{Line: n.Line}
		}
		return nil
	}
	for _, ch := range n.Content {
		if err := c.walk(ch); err != nil {
			return err
		}
	}
	return nil
}

// expanded returns the number of nodes n stands for with its aliases
// expanded, saturated above the limit; ok is false when n contains an
// alias to itself.
func (c *aliasCheck) expanded(n *yaml.Node) (int, bool) {
	if n == nil {
		return 0, true
	}
	if s, seen := c.size[n]; seen {
		return s, s >= 0
	}
	c.size[n] = -1
	total := 1
	if n.Kind == yaml.AliasNode {
		s, ok := c.expanded(n.Alias)
		if !ok {
			return 0, false
		}
		total = s
	}
	for _, ch := range n.Content {
		s, ok := c.expanded(ch)
		if !ok {
			return 0, false
		}
		if total += s; total > c.limit {
			total = c.limit + 1
		}
	}
	c.size[n] = total
	return total, true
}

// HasAlias reports whether an alias is at or below n, down to a depth of
// 1000 nodes (deeper ones are not looked at).
func HasAlias(n *yaml.Node) bool { return hasAlias(n, 0) }

func hasAlias(n *yaml.Node, depth int) bool {
	if n == nil || depth > 1000 {
		return false
	}
	for _, ch := range n.Content {
		if ch.Kind == yaml.AliasNode || hasAlias(ch, depth+1) {
			return true
		}
	}
	return false
}
