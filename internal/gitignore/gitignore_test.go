package gitignore

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestPatternMatch(t *testing.T) {
	type path struct {
		rel   string
		isDir bool
	}
	cases := map[string]struct {
		reason string
		line   string
		match  []path
		miss   []path
	}{
		"Basename": {
			reason: "A pattern without a slash matches at any depth.",
			line:   "*.tmp",
			match:  []path{{"a.tmp", false}, {"x/y/a.tmp", false}, {"d.tmp", true}},
			miss:   []path{{"a.tmpx", false}, {"a.tmp/b", false}},
		},
		"Anchored": {
			reason: "A leading slash anchors to the .gitignore's directory.",
			line:   "/build",
			match:  []path{{"build", true}, {"build", false}},
			miss:   []path{{"x/build", true}},
		},
		"MiddleSlashAnchors": {
			reason: "A slash in the middle anchors too.",
			line:   "doc/frotz",
			match:  []path{{"doc/frotz", true}},
			miss:   []path{{"a/doc/frotz", true}},
		},
		"DirOnly": {
			reason: "A trailing slash matches directories only.",
			line:   "vendor/",
			match:  []path{{"vendor", true}, {"a/vendor", true}},
			miss:   []path{{"vendor", false}},
		},
		"LeadingDoubleStar": {
			reason: "**/x matches x at any depth.",
			line:   "**/foo",
			match:  []path{{"foo", false}, {"a/b/foo", true}},
			miss:   []path{{"foox", false}},
		},
		"TrailingDoubleStar": {
			reason: "x/** matches everything inside x, not x.",
			line:   "abc/**",
			match:  []path{{"abc/x", false}, {"abc/x/y", false}},
			miss:   []path{{"abc", true}, {"x/abc/y", false}},
		},
		"MiddleDoubleStar": {
			reason: "a/**/b matches zero or more directories between.",
			line:   "a/**/b",
			match:  []path{{"a/b", false}, {"a/x/b", false}, {"a/x/y/b", false}},
			miss:   []path{{"a/xb", false}},
		},
		"StarNotSlash": {
			reason: "A single star does not cross a slash.",
			line:   "foo/*",
			match:  []path{{"foo/test.json", false}, {"foo/bar", true}},
			miss:   []path{{"foo/bar/hello.c", false}},
		},
		"QuestionAndClass": {
			reason: "? matches one character, [...] a class, [!...] its complement.",
			line:   "f?[a-c][!0-9].yaml",
			match:  []path{{"fxbz.yaml", false}},
			miss:   []path{{"fxbz0.yaml", false}, {"fxdz.yaml", false}, {"fxb1.yaml", false}, {"f/bz.yaml", false}},
		},
		"Escapes": {
			reason: "A backslash escapes #, !, * and a trailing space.",
			line:   `\#x\*\ `,
			match:  []path{{"#x* ", false}},
			miss:   []path{{"#xy ", false}},
		},
		"Negation": {
			reason: "! negates; the pattern itself matches as usual.",
			line:   "!keep.yaml",
			match:  []path{{"keep.yaml", false}},
		},
		"RegexpMetacharacters": {
			reason: "Characters special to regexps are literal.",
			line:   "a+b(c).yaml",
			match:  []path{{"a+b(c).yaml", false}},
			miss:   []path{{"aab(c).yaml", false}},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			p, ok, err := Compile(tc.line)
			if err != nil || !ok {
				t.Fatalf("%s\ncompilePattern(%q): ok %t, err %v", tc.reason, tc.line, ok, err)
			}
			for _, m := range tc.match {
				if !p.Match(m.rel, m.isDir) {
					t.Errorf("%s\n%q.Match(%q, dir %t): want true", tc.reason, tc.line, m.rel, m.isDir)
				}
			}
			for _, m := range tc.miss {
				if p.Match(m.rel, m.isDir) {
					t.Errorf("%s\n%q.Match(%q, dir %t): want false", tc.reason, tc.line, m.rel, m.isDir)
				}
			}
		})
	}
}

func TestCompilePatternSkips(t *testing.T) {
	for _, line := range []string{"", "   ", "# comment", "/", "!"} {
		if _, ok, err := Compile(line); ok || err != nil {
			t.Errorf("Compile(%q): want ok false, no error; got ok %t, err %v", line, ok, err)
		}
	}
}

func TestIgnoreStack(t *testing.T) {
	st := Stack{
		ParseFile("", []byte("# root\n*.gen.yaml\n/out/\nsecret*\n")),
		ParseFile("apis", []byte("!keep.gen.yaml\nlocal/\n")),
	}
	cases := map[string]struct {
		reason string
		rel    string
		isDir  bool
		want   bool
	}{
		"RootPattern":      {reason: "The root's patterns apply everywhere.", rel: "x/y.gen.yaml", want: true},
		"Anchored":         {reason: "/out/ is the root's out only.", rel: "out", isDir: true, want: true},
		"AnchoredDeeper":   {reason: "/out/ does not match a deeper out.", rel: "x/out", isDir: true, want: false},
		"NestedNegation":   {reason: "A deeper .gitignore re-includes a file.", rel: "apis/keep.gen.yaml", want: false},
		"NestedOnlyBelow":  {reason: "A nested .gitignore applies only below its directory.", rel: "keep.gen.yaml", want: true},
		"NestedPattern":    {reason: "A nested pattern is relative to its directory.", rel: "apis/v1/local", isDir: true, want: true},
		"NestedNotOutside": {reason: "A nested pattern does not apply outside.", rel: "local", isDir: true, want: false},
		"NotIgnored":       {reason: "Everything else is kept.", rel: "apis/composition.yaml", want: false},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if got := st.Ignored(tc.rel, tc.isDir); got != tc.want {
				t.Errorf("%s\nignored(%q, %t): want %t, got %t", tc.reason, tc.rel, tc.isDir, tc.want, got)
			}
		})
	}
}

func TestGlobSet(t *testing.T) {
	g, err := CompileGlobs([]string{"apis/", "*.json", "examples/**/claim.yaml"})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]bool{}
	for _, p := range []string{"apis/a.yaml", "apis/x/b.yaml", "x/apis/c.yaml", "a.json", "d/e.json", "examples/claim.yaml", "examples/a/b/claim.yaml", "other.yaml"} {
		got[p] = g.Match(p, false)
	}
	want := map[string]bool{
		"apis/a.yaml": true, "apis/x/b.yaml": true, "x/apis/c.yaml": true, "a.json": true, "d/e.json": true,
		"examples/claim.yaml": true, "examples/a/b/claim.yaml": true, "other.yaml": false,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Globs.match: -want, +got:\n%s", diff)
	}
	if _, err := CompileGlobs([]string{"!x"}); err == nil {
		t.Errorf("CompileGlobs([!x]): want an error for a negated glob")
	}
}

func FuzzCompilePattern(f *testing.F) {
	for _, s := range []string{"*.yaml", "/build/", "**/x", "a/**/b", "[!a-z]?", `\#x\ `, "[", "[]]", "x\\"} {
		f.Add(s, "a/b/c.yaml")
	}
	f.Fuzz(func(t *testing.T, line, rel string) {
		p, ok, err := Compile(line)
		if err != nil || !ok {
			return
		}
		file, dir := p.Match(rel, false), p.Match(rel, true)
		// A pattern ending in / names directories only.
		if p.dirOnly && file {
			t.Fatalf("pattern %q (directories only) matches the file %q", line, rel)
		}
		// Negation changes what a match means, never what matches.
		if !p.negate && !strings.HasPrefix(line, "#") {
			if n, ok, err := Compile("!" + line); err == nil && ok {
				if !n.negate || n.Match(rel, false) != file || n.Match(rel, true) != dir {
					t.Fatalf("pattern %q and its negation match %q differently", line, rel)
				}
			}
		}
		// A plain name (no glob, no slash, no escape) matches itself at
		// any depth, and nothing that merely contains it.
		if plain := strings.TrimSpace(line); plain == line && !strings.ContainsAny(line, "*?[]\\/!#") {
			if !p.Match(line, false) || !p.Match("some/dir/"+line, false) {
				t.Fatalf("plain pattern %q does not match itself", line)
			}
			if p.Match(line+"x", false) || p.Match("x"+line, false) {
				t.Fatalf("plain pattern %q matches a longer name", line)
			}
		}
	})
}

// TestPatternNonASCII: a pattern with non-ASCII names matches those names
// (each byte used to be read as a character of its own).
func TestPatternNonASCII(t *testing.T) {
	for line, rel := range map[string]string{"café.yaml": "x/café.yaml", "[é]*.yaml": "é1.yaml", `\é.yaml`: "é.yaml", "/naïve/": "naïve"} {
		p, ok, err := Compile(line)
		if err != nil || !ok {
			t.Fatalf("Compile(%q): %v", line, err)
		}
		if !p.Match(rel, true) {
			t.Errorf("Compile(%q).Match(%q): false, want true", line, rel)
		}
	}
}
