// Package markdown makes text from data (names, paths, messages read from
// a repository, a cluster or an export) inert in Markdown and in the HTML
// GitHub renders from it, for every writer of Markdown: reports, the plan
// directory's README.md.
//
// Escape keeps text mid-line and plain: no HTML tag or entity, no link, no
// table cell, no code span, no new line or block, no terminal control
// sequence:
//
//	Escape("a|b <i>x</i>\nc")  // a\|b &lt;i&gt;x&lt;/i&gt; c
//	Escape("\x1b[31mred")      // \x1b[31mred (the ESC byte spelled out)
//
// Code writes text as a code span that nothing in it can close early:
//
//	Code("a`b")  // ``a`b``
package markdown
