package markdown

import (
	"fmt"
	"strings"
)

// escaper makes text inert mid-line: HTML special characters become
// entities (no tag, no autolink), a backslash, "|" and a backtick are
// backslash-escaped (no extra table cell, no code span), "](" cannot end a
// link or image text, and line breaks become spaces (no new block). What
// remains that could start a block or a link definition only does so at
// the start of a line, where callers put no data.
var escaper = strings.NewReplacer(
	"&", "&amp;", "<", "&lt;", ">", "&gt;",
	`\`, `\\`, "|", `\|`, "`", "\\`", "](", `]\(`,
	"\n", " ", "\r", "",
)

// Escape makes s inert in Markdown, on one line, with control characters
// spelled out.
func Escape(s string) string { return escaper.Replace(Controls(s)) }

// Code writes s as a Markdown code span that no backtick in s can close
// early: the fence is one backtick longer than the longest run in s. Line
// breaks become spaces and control characters are spelled out.
func Code(s string) string {
	s = Controls(strings.NewReplacer("\n", " ", "\r", "").Replace(s))
	longest, run := 0, 0
	for _, c := range s {
		if c == '`' {
			run++
			longest = max(longest, run)
			continue
		}
		run = 0
	}
	fence := strings.Repeat("`", longest+1)
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") || s == "" {
		s = " " + s + " "
	}
	return fence + s + fence
}

// Controls spells out the control characters of s (C0 but tab, newline
// and carriage return; DEL; C1) as \xNN or \u00NN, so that no terminal
// that shows the text acts on them. Everything else is kept.
func Controls(s string) string {
	if !strings.ContainsFunc(s, control) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		switch {
		case !control(r):
			b.WriteRune(r)
		case r < 0x80:
			fmt.Fprintf(&b, `\x%02x`, r)
		default:
			fmt.Fprintf(&b, `\u%04x`, r)
		}
	}
	return b.String()
}

func control(r rune) bool {
	switch {
	case r == '\t' || r == '\n' || r == '\r':
		return false
	case r < 0x20, r == 0x7f, 0x80 <= r && r <= 0x9f:
		return true
	}
	return false
}
