package migrate

import (
	"fmt"
	"io"

	"github.com/xpmigrate/xpmigrate/internal/logsafe"
	"github.com/xpmigrate/xpmigrate/internal/progress"
)

// NewProgress returns a Progress that writes to w. On a terminal (tty) it
// draws one self-updating bar line (files done/total and the file being
// worked on) that it clears at the end, then lists the files that are not
// unchanged. Otherwise it writes one plain line
// per file that is not unchanged, in path order, so logs stay readable and
// deterministic. width is the terminal width; 0 means 80.
func NewProgress(w io.Writer, tty bool, width int) Progress {
	return &fileProgress{line: progress.New(w, tty, width)}
}

type fileProgress struct {
	line    *progress.Line
	total   int
	done    int
	current string
}

func (p *fileProgress) Scanned(total int) {
	p.total = total
	p.draw()
}

func (p *fileProgress) Started(path string) {
	if !p.line.TTY() {
		return
	}
	p.current = path
	p.draw()
}

func (p *fileProgress) Done(r *FileResult, done, total int) {
	p.done, p.total = done, total
	if p.line.TTY() {
		p.draw()
		return
	}
	if line := fileLine(r); line != "" {
		p.line.Println(line)
	}
}

// Finished clears the bar, then lists the files that are not unchanged,
// as the plain progress does line by line, so a terminal shows what
// changed too.
func (p *fileProgress) Finished(r *Result) {
	if !p.line.TTY() {
		return
	}
	p.line.Clear()
	if r == nil {
		return
	}
	for i := range r.Files {
		if line := fileLine(&r.Files[i]); line != "" {
			p.line.Println(line)
		}
	}
}

// draw redraws the bar on a terminal: "[=====>    ] 12/100 path", the
// path cut at its start to the width.
func (p *fileProgress) draw() {
	if !p.line.TTY() {
		return
	}
	head := fmt.Sprintf("%s %d/%d ", progress.Bar(p.done, p.total), p.done, p.total)
	cur := logsafe.Escape(p.current)
	if room := p.line.Width() - len(head) - 1; len(cur) > room {
		if room <= 1 {
			cur = ""
		} else {
			cur = "…" + cur[len(cur)-room+1:]
		}
	}
	p.line.Draw(head + cur)
}

// fileLine is the plain progress line for a file, "" for unchanged ones.
func fileLine(r *FileResult) string {
	switch r.Status {
	case FileUnchanged:
		return ""
	case FileConverted:
		return logsafe.Sprintf("converted      %s", r.Path)
	case FileSkipped:
		return logsafe.Sprintf("skipped        %s: %s (%s)", r.Path, r.Reason, r.Detail)
	case FileFailed:
		return logsafe.Sprintf("failed         %s: %s (%s)", r.Path, r.Reason, r.Detail)
	case FileHeldBack:
		return logsafe.Sprintf("held back      %s: %s (%s)", r.Path, r.Reason, r.Detail)
	case FileNotProcessed:
		return logsafe.Sprintf("not processed  %s", r.Path)
	}
	return ""
}
