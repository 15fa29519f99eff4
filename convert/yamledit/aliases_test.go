package yamledit

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/pkg/errors"
	yaml "go.yaml.in/yaml/v3"
)

// bomb is a "billion laughs" document: nine levels of nine aliases.
const bomb = `a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]
b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]
c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]
d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]
e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]
f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]
g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]
h: &h [*g,*g,*g,*g,*g,*g,*g,*g,*g]
i: &i [*h,*h,*h,*h,*h,*h,*h,*h,*h]
`

func TestCheckAliases(t *testing.T) {
	cases := map[string]struct {
		reason   string
		in       string
		wantLine int // 0: no error
	}{
		"NoAliases": {
			reason: "A document without aliases is within the budget, however large.",
			in:     "a: 1\nb: [1, 2, 3]\n",
		},
		"SomeAliases": {
			reason: "Ordinary anchors and merge keys are within the budget.",
			in:     "base: &base {a: 1, b: 2}\nx:\n  <<: *base\n  c: 3\ny: *base\n",
		},
		"BillionLaughs": {
			reason:   "Nested aliases that expand exponentially exceed the budget; the error names the line where the expansion crosses it.",
			in:       bomb,
			wantLine: 7,
		},
		"SelfReference": {
			reason:   "An alias inside its own anchor would expand forever.",
			in:       "a: &a [1, *a]\n",
			wantLine: 1,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			var n yaml.Node
			if err := yaml.Unmarshal([]byte(tc.in), &n); err != nil {
				t.Fatal(err)
			}
			err := CheckAliases(&n)
			got := 0
			var ee *ExpansionError
			if errors.As(err, &ee) {
				got = ee.Line
			} else if err != nil {
				t.Fatalf("%s\nCheckAliases(...): an error that is not an *ExpansionError: %v", tc.reason, err)
			}
			if diff := cmp.Diff(tc.wantLine, got); diff != "" {
				t.Errorf("%s\nCheckAliases(...): line: -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}

// bruteAdded expands the aliases of n one by one, counting the nodes they
// add, and stops once the count passes limit. It returns the count (or
// limit+1) and whether an alias was inside the node it names.
func bruteAdded(n *yaml.Node, limit int) (int, bool) {
	added := 0
	recursive := false
	// size counts the nodes of n with aliases expanded; open holds the
	// nodes being expanded (an alias to one of them is recursive).
	open := map[*yaml.Node]bool{}
	var size func(n *yaml.Node) int
	size = func(n *yaml.Node) int {
		if n == nil || recursive {
			return 0
		}
		if open[n] {
			recursive = true
			return 0
		}
		open[n] = true
		defer delete(open, n)
		if n.Kind == yaml.AliasNode {
			return size(n.Alias)
		}
		total := 1
		for _, c := range n.Content {
			if total += size(c); total > limit {
				return limit + 1
			}
		}
		return total
	}
	var walk func(n *yaml.Node)
	walk = func(n *yaml.Node) {
		if n == nil || added > limit || recursive {
			return
		}
		if n.Kind == yaml.AliasNode {
			added += size(n.Alias)
			return
		}
		open[n] = true
		for _, c := range n.Content {
			walk(c)
		}
		delete(open, n)
	}
	walk(n)
	return added, recursive
}

// FuzzCheckAliases checks the alias budget against expanding the aliases
// one by one: a document is refused exactly when its aliases add more
// nodes than the budget, or one refers to a node that contains it.
func FuzzCheckAliases(f *testing.F) {
	for _, s := range []string{bomb, "a: &a [1, *a]\n", "base: &b {x: 1}\nc:\n  <<: *b\nd: *b\n", "a: &a [1,2]\nb: [*a,*a,*a]\n", "- &x 1\n- *x\n- [*x, *x]\n"} {
		f.Add(s)
	}
	const limit = 200
	f.Fuzz(func(t *testing.T, in string) {
		var n yaml.Node
		if err := yaml.Unmarshal([]byte(in), &n); err != nil {
			return
		}
		added, recursive := bruteAdded(&n, limit)
		err := checkAliases(&n, limit)
		var ee *ExpansionError
		if err != nil && !errors.As(err, &ee) {
			t.Fatalf("checkAliases(...): an error that is not an *ExpansionError: %v", err)
		}
		wantRefused := recursive || added > limit
		if (err != nil) != wantRefused {
			t.Fatalf("checkAliases(%q): error %v; expanding adds %d nodes (limit %d), recursive %t", in, err, added, limit, recursive)
		}
		if ee != nil && ee.Recursive && !recursive {
			t.Fatalf("checkAliases(%q): recursive, but expanding ends", in)
		}
	})
}
