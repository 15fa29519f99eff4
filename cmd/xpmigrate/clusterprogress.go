package main

import (
	"fmt"
	"sync"
	"time"

	"github.com/xpmigrate/xpmigrate/internal/cluster"
	"github.com/xpmigrate/xpmigrate/internal/logsafe"
	"github.com/xpmigrate/xpmigrate/internal/progress"
)

// plainEvery is how often the cluster progress writes a line when stderr
// is not a terminal.
const plainEvery = 10 * time.Second

// redrawEvery bounds how often the bar is redrawn on a terminal.
const redrawEvery = 100 * time.Millisecond

// clusterProgress shows how far a cluster check is, on stderr: on a
// terminal a bar, the XRs checked of the total (when the API server told
// it) and the rate, redrawn in place; otherwise a plain line at most every
// plainEvery (none for a short run). It never writes on stdout.
type clusterProgress struct {
	line *progress.Line
	now  func() time.Time

	mu      sync.Mutex
	name    string
	comp    string
	start   time.Time
	last    time.Time
	checked int
	listing cluster.Listing
}

func newClusterProgress(s streams) *clusterProgress {
	return &clusterProgress{line: progress.New(s.ErrOut, s.ErrTTY, s.ErrWidth), now: time.Now}
}

// Start begins a Composition's check, shown as name.
func (p *clusterProgress) Start(name string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.startLocked(name, cluster.Listing{Total: -1})
}

func (p *clusterProgress) startLocked(name string, l cluster.Listing) {
	p.name, p.comp, p.checked, p.listing = logsafe.Escape(name), l.Composition, 0, l
	p.start = p.now()
	p.last = p.start
	p.draw(p.start)
}

// Listed takes the reader's listing of the XRs (internal/cluster's
// Options.Listed); it may be called from another goroutine. The listing
// of another Composition than the current one finishes it and starts that
// one (migrate --cluster checks one Composition after the other without
// saying).
func (p *clusterProgress) Listed(l cluster.Listing) {
	p.mu.Lock()
	defer p.mu.Unlock()
	switch {
	case p.name == "":
		p.startLocked(l.Composition, l)
	case p.comp != "" && p.comp != l.Composition:
		p.finishLocked()
		p.startLocked(l.Composition, l)
	default:
		p.comp, p.listing = l.Composition, l
	}
}

// Checked takes the number of XRs checked (render/verify/live's
// Options.Progress).
func (p *clusterProgress) Checked(n int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.checked = n
	now := p.now()
	switch tty := p.line.TTY(); {
	case tty && now.Sub(p.last) >= redrawEvery:
		p.last = now
		p.draw(now)
	case !tty && now.Sub(p.last) >= plainEvery:
		p.last = now
		p.line.Println(p.plain(now))
	}
}

// Finish ends a Composition's check: on a terminal the bar gives way to
// a line with the count, the time and the rate.
func (p *clusterProgress) Finish() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.finishLocked()
}

func (p *clusterProgress) finishLocked() {
	if !p.line.TTY() || p.name == "" {
		return
	}
	now := p.now()
	p.line.Println(progress.Fit(fmt.Sprintf("%s: checked %s in %s%s", p.name, plural(p.checked, "XR"), now.Sub(p.start).Round(100*time.Millisecond), rate(p.checked, now.Sub(p.start))), p.line.Width()-1))
	p.name = ""
}

// total is the number of XRs the check will reach, at most: those of the
// kind minus those skipped so far; bound says it may still shrink.
func (p *clusterProgress) total() (total int, known, bound bool) {
	l := p.listing
	if l.Total < 0 {
		return 0, false, false
	}
	return max(l.Total-l.Skipped, p.checked), true, !l.Complete
}

func (p *clusterProgress) draw(now time.Time) {
	total, known, bound := p.total()
	p.line.Draw(barLine(p.name, p.checked, total, known, bound, now.Sub(p.start), p.line.Width()))
}

func (p *clusterProgress) plain(now time.Time) string {
	s := fmt.Sprintf("%s: checked %s", p.name, plural(p.checked, "XR"))
	if total, known, bound := p.total(); known {
		s = fmt.Sprintf("%s: checked %d of %s%s", p.name, p.checked, upTo(bound), plural(total, "XR"))
	}
	return s + rate(p.checked, now.Sub(p.start))
}

// barLine renders the bar of a check: "name [=====>     ] 12/40 XRs
// 3.1/s" when the total is known ("≤40" while the listing may still skip
// some), "name: 12 XRs checked 3.1/s" otherwise; cut to width-1 columns.
func barLine(name string, checked, total int, known, bound bool, elapsed time.Duration, width int) string {
	var s string
	if known {
		lt := ""
		if bound {
			lt = "≤"
		}
		s = fmt.Sprintf("%s %d/%s%d XRs%s %s", progress.Bar(checked, total), checked, lt, total, rate(checked, elapsed), name)
	} else {
		s = fmt.Sprintf("%s checked%s %s", plural(checked, "XR"), rate(checked, elapsed), name)
	}
	return progress.Fit(s, width-1)
}

// rate is ", 3.1/s", or nothing before the first XR or the first tenth of
// a second.
func rate(n int, d time.Duration) string {
	if n == 0 || d < 100*time.Millisecond {
		return ""
	}
	return fmt.Sprintf(", %.1f/s", float64(n)/d.Seconds())
}

func upTo(bound bool) string {
	if bound {
		return "at most "
	}
	return ""
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}
