package migrate

import (
	"fmt"
	"io"
	"strings"

	"github.com/xpmigrate/xpmigrate/internal/logsafe"
)

// NewProgress returns a Progress that writes to w. On a terminal (tty) it
// draws one self-updating bar line (files done/total and the file being
// worked on) that it clears at the end, then lists the files that are not
// unchanged. Otherwise it writes one plain line
// per file that is not unchanged, in path order, so logs stay readable and
// deterministic. width is the terminal width; 0 means 80.
func NewProgress(w io.Writer, tty bool, width int) Progress {
	if width <= 0 {
		width = 80
	}
	return &progress{w: w, tty: tty, width: width}
}

type progress struct {
	w       io.Writer
	tty     bool
	width   int
	total   int
	done    int
	current string
	drawn   bool
}

func (p *progress) Scanned(total int) {
	p.total = total
	if p.tty {
		p.draw()
	}
}

func (p *progress) Started(path string) {
	if !p.tty {
		return
	}
	p.current = path
	p.draw()
}

func (p *progress) Done(r *FileResult, done, total int) {
	p.done, p.total = done, total
	if p.tty {
		p.draw()
		return
	}
	if line := fileLine(r); line != "" {
		fmt.Fprintln(p.w, line)
	}
}

// Finished clears the bar, then lists the files that are not unchanged,
// as the plain progress does line by line, so a terminal shows what
// changed too.
func (p *progress) Finished(r *Result) {
	if !p.tty {
		return
	}
	if p.drawn {
		fmt.Fprint(p.w, "\r\x1b[K")
	}
	if r == nil {
		return
	}
	for i := range r.Files {
		if line := fileLine(&r.Files[i]); line != "" {
			fmt.Fprintln(p.w, line)
		}
	}
}

// draw redraws the bar: "[=====>    ] 12/100 path".
func (p *progress) draw() {
	const barWidth = 24
	filled := 0
	if p.total > 0 {
		filled = p.done * barWidth / p.total
	}
	bar := strings.Repeat("=", filled)
	if filled < barWidth {
		bar += ">" + strings.Repeat(" ", barWidth-filled-1)
	}
	head := fmt.Sprintf("[%s] %d/%d ", bar, p.done, p.total)
	cur := logsafe.Escape(p.current)
	if room := p.width - len(head) - 1; len(cur) > room {
		if room <= 1 {
			cur = ""
		} else {
			cur = "…" + cur[len(cur)-room+1:]
		}
	}
	fmt.Fprint(p.w, "\r\x1b[K"+head+cur)
	p.drawn = true
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
