package gitignore

import (
	"bufio"
	"bytes"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/pkg/errors"
)

// A Pattern is one compiled gitignore line or --include/--exclude glob.
//
// The grammar is gitignore's (https://git-scm.com/docs/gitignore):
//
//   - `#` starts a comment, `\#` is a literal hash; blank lines match nothing;
//     trailing spaces are dropped unless escaped (`\ `);
//   - `!` negates (re-includes), `\!` is a literal bang;
//   - a trailing `/` matches directories only;
//   - a `/` at the start or in the middle anchors the pattern to the
//     directory of its .gitignore; otherwise it matches at any depth:
//     `*.tmp` matches `a.tmp` and `x/y/a.tmp`, `/build` only `build`;
//   - `*` matches anything but `/`, `?` one character but `/`, `[a-z]` and
//     `[!a-z]` a class;
//   - `**/x` matches x at any depth, `x/**` everything inside x, and
//     `a/**/b` zero or more directories between a and b; any other `**`
//     is a `*`.
//
// Not supported: git's core.ignoreCase, and .git/info/exclude and the
// global excludes file (the tree, not the user's setup, decides).
type Pattern struct {
	text    string
	negate  bool
	dirOnly bool
	re      *regexp.Regexp
}

// Compile compiles one line. It returns ok false for blank lines and
// comments.
func Compile(line string) (Pattern, bool, error) {
	line = strings.TrimSuffix(line, "\r")
	line = trimTrailingSpaces(line)
	if line == "" || strings.HasPrefix(line, "#") {
		return Pattern{}, false, nil
	}
	p := Pattern{text: line}
	switch {
	case strings.HasPrefix(line, "!"):
		p.negate = true
		line = line[1:]
	case strings.HasPrefix(line, `\!`), strings.HasPrefix(line, `\#`):
		line = line[1:]
	}
	if strings.HasSuffix(line, "/") && !strings.HasSuffix(line, `\/`) {
		p.dirOnly = true
		line = strings.TrimRight(line, "/")
	}
	if line == "" {
		return Pattern{}, false, nil
	}
	anchored := strings.Contains(line, "/")
	line = strings.TrimPrefix(line, "/")

	var b strings.Builder
	b.WriteString("^")
	if !anchored {
		b.WriteString("(?:.*/)?")
	}
	segs := strings.Split(line, "/")
	for i, seg := range segs {
		last := i == len(segs)-1
		if seg == "**" {
			switch {
			case i == 0 && last:
				b.WriteString(".*")
			case i == 0:
				b.WriteString("(?:.*/)?")
			case last:
				b.WriteString(".*")
			default:
				b.WriteString("(?:.*/)?")
			}
			continue
		}
		if err := translateSegment(&b, seg); err != nil {
			return Pattern{}, false, errors.Wrapf(err, "cannot compile pattern %q", p.text)
		}
		if !last {
			b.WriteString("/")
		}
	}
	b.WriteString("$")
	re, err := regexp.Compile(b.String())
	if err != nil {
		return Pattern{}, false, errors.Wrapf(err, "cannot compile pattern %q", p.text)
	}
	p.re = re
	return p, true, nil
}

// trimTrailingSpaces drops unescaped trailing spaces.
func trimTrailingSpaces(s string) string {
	for strings.HasSuffix(s, " ") {
		if strings.HasSuffix(s, `\ `) {
			return s
		}
		s = s[:len(s)-1]
	}
	return s
}

// translateSegment writes the regexp for one path segment.
func translateSegment(b *strings.Builder, seg string) error {
	for i := 0; i < len(seg); i++ {
		c := seg[i]
		switch c {
		case '*':
			for i+1 < len(seg) && seg[i+1] == '*' {
				i++
			}
			b.WriteString("[^/]*")
		case '?':
			b.WriteString("[^/]")
		case '\\':
			if i+1 < len(seg) {
				i += literalRune(b, seg, i+1)
			}
		case '[':
			end := classEnd(seg, i)
			if end < 0 {
				// An unclosed bracket is a literal.
				b.WriteString(`\[`)
				continue
			}
			class := seg[i+1 : end]
			b.WriteString("[")
			if strings.HasPrefix(class, "!") || strings.HasPrefix(class, "^") {
				b.WriteString("^/")
				class = class[1:]
			}
			for j := 0; j < len(class); j++ {
				switch class[j] {
				case '\\':
					if j+1 < len(class) {
						j += literalRune(b, class, j+1)
					}
				case '[', ']', '^':
					b.WriteString(`\`)
					b.WriteByte(class[j])
				case '-':
					b.WriteByte('-')
				default:
					j += literalRune(b, class, j) - 1
				}
			}
			b.WriteString("]")
			i = end
		default:
			i += literalRune(b, seg, i) - 1
		}
	}
	return nil
}

// literalRune writes the character of s at i as a regular expression that
// matches it literally, and returns how many bytes it took. A byte that is
// not UTF-8 matches any such byte (Go reads one as U+FFFD).
func literalRune(b *strings.Builder, s string, i int) int {
	r, n := utf8.DecodeRuneInString(s[i:])
	if r == utf8.RuneError && n <= 1 {
		b.WriteString(`\x{FFFD}`)
		return 1
	}
	b.WriteString(regexp.QuoteMeta(string(r)))
	return n
}

// classEnd returns the index of the `]` closing the class opened at i, or
// -1. A `]` right after `[` or `[!` belongs to the class.
func classEnd(s string, i int) int {
	j := i + 1
	if j < len(s) && (s[j] == '!' || s[j] == '^') {
		j++
	}
	if j < len(s) && s[j] == ']' {
		j++
	}
	for ; j < len(s); j++ {
		switch s[j] {
		case '\\':
			j++
		case ']':
			return j
		}
	}
	return -1
}

// Match reports whether rel (slash-separated, relative to the pattern's
// base) matches.
func (p Pattern) Match(rel string, isDir bool) bool {
	if p.dirOnly && !isDir {
		return false
	}
	return p.re.MatchString(rel)
}

// A File is the patterns of one .gitignore, whose directory is base
// (slash-separated, relative to the tree, "" for the root).
type File struct {
	base     string
	patterns []Pattern
}

// ParseFile compiles a .gitignore. Lines that do not compile are
// dropped, as git drops them.
func ParseFile(base string, data []byte) File {
	f := File{base: base}
	s := bufio.NewScanner(bytes.NewReader(data))
	s.Buffer(make([]byte, 0, 64*1024), len(data)+1)
	for s.Scan() {
		p, ok, err := Compile(s.Text())
		if err != nil || !ok {
			continue
		}
		f.patterns = append(f.patterns, p)
	}
	return f
}

// Stack is the .gitignore files that apply in a directory, outermost
// first.
type Stack []File

// Ignored reports whether rel is ignored: the last matching pattern wins,
// deeper files winning over shallower ones.
func (st Stack) Ignored(rel string, isDir bool) bool {
	ignored := false
	for _, f := range st {
		sub := rel
		if f.base != "" {
			if !strings.HasPrefix(rel, f.base+"/") {
				continue
			}
			sub = rel[len(f.base)+1:]
		}
		for _, p := range f.patterns {
			if p.Match(sub, isDir) {
				ignored = !p.negate
			}
		}
	}
	return ignored
}

// Globs is the --include, --exclude or --allow-legacy patterns, matched against paths
// relative to the tree with gitignore's grammar (negation excluded).
type Globs []Pattern

// CompileGlobs compiles globs; a blank or negated one is an error.
func CompileGlobs(globs []string) (Globs, error) {
	var out Globs
	for _, g := range globs {
		p, ok, err := Compile(g)
		if err != nil {
			return nil, err
		}
		if !ok || p.negate {
			return nil, errors.Errorf("invalid glob %q", g)
		}
		out = append(out, p)
	}
	return out, nil
}

// Match reports whether rel, or one of its parent directories, matches.
func (g Globs) Match(rel string, isDir bool) bool {
	for _, p := range g {
		if p.Match(rel, isDir) {
			return true
		}
		// A pattern naming a directory covers its files.
		for d := parentDir(rel); d != ""; d = parentDir(d) {
			if p.Match(d, true) {
				return true
			}
		}
	}
	return false
}

func parentDir(rel string) string {
	i := strings.LastIndexByte(rel, '/')
	if i < 0 {
		return ""
	}
	return rel[:i]
}
