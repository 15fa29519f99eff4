package testutil

import (
	"bufio"
	"strings"
)

// A FencedBlock is a fenced code block of a Markdown page.
type FencedBlock struct {
	Lang string   // the first word of the info string
	Tags []string // the other words
	Text string
}

// FencedBlocks returns the fenced code blocks of a Markdown page, in order.
func FencedBlocks(md string) []FencedBlock {
	var out []FencedBlock
	sc := bufio.NewScanner(strings.NewReader(md))
	var cur *FencedBlock
	var fence string
	var body []string
	for sc.Scan() {
		l := sc.Text()
		trimmed := strings.TrimLeft(l, " ")
		switch {
		case cur == nil && strings.HasPrefix(trimmed, "```"):
			fence = trimmed[:len(trimmed)-len(strings.TrimLeft(trimmed, "`"))]
			info := strings.Fields(strings.TrimPrefix(trimmed, fence))
			cur = &FencedBlock{}
			if len(info) > 0 {
				cur.Lang, cur.Tags = info[0], info[1:]
			}
			body = nil
		case cur != nil && strings.TrimSpace(l) == fence:
			cur.Text = strings.Join(body, "\n")
			out = append(out, *cur)
			cur = nil
		case cur != nil:
			body = append(body, l)
		}
	}
	return out
}

// StripCodeSpans removes Markdown code spans (a run of n backticks up to
// the next run of exactly n) and backslash escapes, returning the text
// outside them and whether every span was closed.
func StripCodeSpans(s string) (string, bool) {
	var out strings.Builder
	for i := 0; i < len(s); {
		if s[i] == '\\' && i+1 < len(s) {
			// A backslash escape: the next character is literal, so it
			// cannot join its neighbours into markup ("]\((" is no
			// link): it stands as a neutral character.
			out.WriteByte('_')
			i += 2
			continue
		}
		if s[i] != '`' {
			out.WriteByte(s[i])
			i++
			continue
		}
		n := 0
		for i+n < len(s) && s[i+n] == '`' {
			n++
		}
		j := i + n
		closed := false
		for j < len(s) {
			if s[j] != '`' {
				j++
				continue
			}
			m := 0
			for j+m < len(s) && s[j+m] == '`' {
				m++
			}
			if m == n {
				closed = true
				j += m
				break
			}
			j += m
		}
		if !closed {
			return out.String(), false
		}
		i = j
	}
	return out.String(), true
}
