package shquote

import (
	"bytes"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestQuote(t *testing.T) {
	cases := map[string]struct {
		reason string
		s      string
		want   string
	}{
		"Plain":             {reason: "A path of safe characters stays as it is.", s: "team-a/orders_nopdb.v2.example.org", want: "team-a/orders_nopdb.v2.example.org"},
		"Flag":              {reason: "A flag with a value is not an assignment.", s: "--field-manager=xpmigrate-plan-step1", want: "--field-manager=xpmigrate-plan-step1"},
		"Empty":             {reason: "An empty argument is still an argument.", s: "", want: "''"},
		"Assignment":        {reason: "NAME=value as a first word would assign a variable.", s: "PWNED=1", want: "'PWNED=1'"},
		"CommandSubst":      {reason: "$(…) is quoted.", s: "x$(touch${IFS}PWNED)", want: "'x$(touch${IFS}PWNED)'"},
		"Backticks":         {reason: "Backticks are quoted.", s: "x`touch PWNED`", want: "'x`touch PWNED`'"},
		"Semicolon":         {reason: "A second command is quoted.", s: "a;touch PWNED", want: "'a;touch PWNED'"},
		"SingleQuote":       {reason: "A single quote closes, is escaped, and reopens.", s: "it's", want: `'it'\''s'`},
		"Newline":           {reason: "A newline stays inside the quotes.", s: "a\ntouch PWNED", want: "'a\ntouch PWNED'"},
		"Glob":              {reason: "A glob is quoted.", s: "*", want: "'*'"},
		"Tilde":             {reason: "A tilde is quoted.", s: "~root", want: "'~root'"},
		"AssignmentLater":   {reason: "a digit first is no variable name.", s: "1a=b", want: "1a=b"},
		"DashedAssignment":  {reason: "A dash in the name is no variable name.", s: "a-b=c", want: "a-b=c"},
		"QuoteOnly":         {reason: "A lone quote.", s: "'", want: `''\'''`},
		"DoubleQuoteDollar": {reason: "Double quotes and dollars are quoted.", s: `"$HOME"`, want: `'"$HOME"'`},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, Quote(tc.s)); diff != "" {
				t.Errorf("\n%s\nQuote(%q): -want, +got:\n%s", tc.reason, tc.s, diff)
			}
		})
	}
}

// stub defines a command that prints each of its arguments followed by a
// NUL byte.
const stub = "stub() { for a; do printf '%s\\0' \"$a\"; done; }\n"

// shell runs script with sh in a new empty directory and returns its
// stdout and the directory's entries afterwards.
func shell(t *testing.T, script string) (string, []string) {
	t.Helper()
	dir := t.TempDir()
	var out, stderr bytes.Buffer
	cmd := exec.Command("sh", "-c", script)
	cmd.Dir, cmd.Stdout, cmd.Stderr = dir, &out, &stderr
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + dir}
	if err := cmd.Run(); err != nil {
		t.Fatalf("sh -c %q: %v\n%s", script, err, stderr.String())
	}
	des, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, de := range des {
		names = append(names, de.Name())
	}
	return out.String(), names
}

func checkShell(t *testing.T, args ...string) {
	t.Helper()
	line := Join(append([]string{"stub"}, args...)...)
	if out, err := exec.Command("sh", "-n", "-c", line).CombinedOutput(); err != nil {
		t.Fatalf("sh -n -c %q: %v\n%s", line, err, out)
	}
	got, created := shell(t, stub+line+"\n")
	want := ""
	for _, a := range args {
		want += a + "\x00"
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("sh -c %q: the arguments the command received: -want, +got:\n%s", line, diff)
	}
	if len(created) > 0 {
		t.Errorf("sh -c %q ran something: it created %v", line, created)
	}
	// As the first word, with the stub as the only command: a quoted word
	// never assigns or runs anything either.
	first := Quote(args[0])
	if _, created := shell(t, stub+first+" 2>/dev/null; true\n"); len(created) > 0 {
		t.Errorf("sh -c %q ran something: it created %v", first, created)
	}
}

func TestQuotedArgumentsArriveIntact(t *testing.T) {
	cases := map[string][]string{
		"CommandSubstitution": {"x$(touch${IFS}PWNED)", "$(touch PWNED)"},
		"Backticks":           {"x`touch PWNED`", "`touch${IFS}PWNED`"},
		"Semicolon":           {"a;touch PWNED", "a&&touch PWNED", "a|touch PWNED", "a&touch PWNED"},
		"Newlines":            {"a\ntouch PWNED", "\n", "a\r\nb"},
		"Quotes":              {"it's", `"`, `'`, `'\''`, `\`, `"$(touch PWNED)"`},
		"Expansions":          {"$HOME", "${IFS}", "*", "?", "[a]", "~", "{a,b}", "$((1+1))", "!"},
		"Redirections":        {">PWNED", "<x", "2>PWNED", ">>PWNED"},
		"Assignment":          {"PWNED=1", "a=b"},
		"Empty":               {"", " ", "\t"},
		"Controls":            {"\x1b[31mred", "\x7f", "\xff\xfe"},
	}
	for name, args := range cases {
		t.Run(name, func(t *testing.T) { checkShell(t, args...) })
	}
}

// FuzzQuote runs the quoted text through sh -n and through a stub
// command: each argument arrives byte for byte and nothing runs.
func FuzzQuote(f *testing.F) {
	for _, s := range []string{"x$(touch${IFS}PWNED)", "x`touch PWNED`", "a;touch PWNED", "a\ntouch PWNED", "it's", `"`, "", "PWNED=1", "team-a/orders"} {
		f.Add(s, "b")
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		if strings.ContainsRune(a+b, 0) {
			t.Skip("no shell argument holds a NUL byte")
		}
		checkShell(t, a, b)
	})
}
