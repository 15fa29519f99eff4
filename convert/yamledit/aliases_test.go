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
