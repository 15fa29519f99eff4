// Package logsafe makes text from data (names, paths, messages read from a
// repository, an export or a cluster) safe to print on a terminal or in a
// CI log.
//
// A Composition may be named anything its author typed. Printed as is, a
// name holding a line break starts a line of its own, so "x\n::set-output
// name=ok::true" becomes a GitHub Actions workflow command; an ESC or a
// C1 CSI (0x9b) starts a terminal escape sequence that recolours, moves the
// cursor or retitles the window. Escape shows every such character
// visibly instead, as Go writes it in a string literal:
//
//	logsafe.Escape("x\n::set-output name=ok::true") // `x\n::set-output name=ok::true` (a backslash and an n)
//	logsafe.Escape("\x1b[31mred")                   // `\x1b[31mred`
//	logsafe.Escape("::stop-commands::t")            // `\x3a:stop-commands::t`
//	logsafe.Escape("bucket-a")                      // "bucket-a", unchanged
//
// Lines does the same for text of several lines the program itself built
// (an error message), keeping its line breaks. WorkflowData and
// WorkflowProperty escape a GitHub workflow command's message and property
// values as the runner decodes them.
package logsafe
