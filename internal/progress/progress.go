// Package progress shows how far a long run is, on a stream meant for a
// person (stderr): on a terminal one line redrawn in place, cleared or
// replaced by a line of its own at the end; otherwise plain lines only, so
// logs stay readable and deterministic. `migrate` (files) and the cluster
// check (XRs) draw their bars with it.
//
//	l := progress.New(stderr, tty, width)
//	l.Draw(progress.Bar(12, 40) + " 12/40 a.yaml") // a terminal only
//	l.Println("converted a.yaml")                  // clears the bar first
package progress

import (
	"fmt"
	"io"
	"strings"
)

// BarWidth is the number of cells of a Bar.
const BarWidth = 24

// A Line is the progress line of a stream.
type Line struct {
	w     io.Writer
	tty   bool
	width int
	drawn bool
}

// New returns the progress line of w: tty says w is a terminal, width is
// its width in columns (80 when 0 or less).
func New(w io.Writer, tty bool, width int) *Line {
	if width <= 0 {
		width = 80
	}
	return &Line{w: w, tty: tty, width: width}
}

// TTY reports whether the line is drawn on a terminal.
func (l *Line) TTY() bool { return l.tty }

// Width is the terminal's width in columns.
func (l *Line) Width() int { return l.width }

// Draw replaces the line with s on a terminal; it writes nothing
// otherwise. s should fit in Width()-1 columns (Fit).
func (l *Line) Draw(s string) {
	if !l.tty {
		return
	}
	fmt.Fprint(l.w, "\r\x1b[K"+s)
	l.drawn = true
}

// Clear removes a drawn line.
func (l *Line) Clear() {
	if l.drawn {
		fmt.Fprint(l.w, "\r\x1b[K")
		l.drawn = false
	}
}

// Println clears a drawn line and writes s as a line of its own.
func (l *Line) Println(s string) {
	l.Clear()
	fmt.Fprintln(l.w, s)
}

// Bar is "[=====>      ]": done of total in BarWidth cells, full when
// total is 0 or less or done reaches it.
func Bar(done, total int) string {
	filled := BarWidth
	if total > 0 {
		filled = min(done*BarWidth/total, BarWidth)
	}
	bar := strings.Repeat("=", filled)
	if filled < BarWidth {
		bar += ">" + strings.Repeat(" ", BarWidth-filled-1)
	}
	return "[" + bar + "]"
}

// Fit cuts s to n runes, ending in "…" when cut.
func Fit(s string, n int) string {
	r := []rune(s)
	if n <= 0 || len(r) <= n {
		return s
	}
	if n == 1 {
		return "…"
	}
	return string(r[:n-1]) + "…"
}
