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
