// Package shquote quotes text for a POSIX shell (sh, dash, bash, zsh), so
// that a command line written from data (names read from a cluster or an
// export) passes each piece as one argument, byte for byte, and runs
// nothing: no command substitution, no variable, no glob, no second
// command.
//
// Quote leaves a word of only safe characters (letters, digits and
// "_./:@%+,-", and "=" where the word cannot read as an assignment) as it
// is and single-quotes anything else; a single quote inside becomes a
// closing quote, an escaped quote and an opening quote:
//
//	Quote("team-a/orders")          // team-a/orders
//	Quote("--field-manager=x")      // --field-manager=x
//	Quote("x$(touch${IFS}PWNED)")   // 'x$(touch${IFS}PWNED)'
//	Quote("it's")                   // 'it'\''s'
//	Quote("A=b")                    // 'A=b' (else a first word assigns)
//	Quote("")                       // ''
//
// Join quotes every argument of a command line. A newline stays a newline
// inside the quotes (the shell reads it back), so a quoted word can span
// lines: callers that print one command per line give it only data that
// holds none. No shell argument can hold a NUL byte; Quote drops none and
// adds none, so such a string does not reach a command intact.
package shquote
