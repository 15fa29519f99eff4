package udiff

import (
	"fmt"
	"strings"
)

// maxDiffEdits bounds the Myers search. Beyond it the changed middle of the
// two texts is shown as one replacement, which is still a correct diff.
const maxDiffEdits = 4000

// An Op is one line of an edit script.
type Op struct {
	Kind byte // ' ', '-', '+'
	Line string
}

// Unified returns the unified diff (3 lines of context) that turns a
// into b, with the headers --- aName and +++ bName, or "" when they are
// equal. Lines missing a final newline are marked as diff(1) marks them.
func Unified(aName, bName string, a, b []byte) string {
	if string(a) == string(b) {
		return ""
	}
	al, bl := SplitLines(string(a)), SplitLines(string(b))
	ops := Lines(al, bl)
	var sb strings.Builder
	fmt.Fprintf(&sb, "--- %s\n+++ %s\n", aName, bName)
	writeHunks(&sb, ops, 3)
	return sb.String()
}

// SplitLines splits s into lines that keep their "\n"; a last line
// without one gets the "\n\\ No newline at end of file\n" marker so that it
// never compares equal to the same text with a newline.
func SplitLines(s string) []string {
	if s == "" {
		return nil
	}
	lines := strings.SplitAfter(s, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	} else {
		lines[len(lines)-1] += "\n\\ No newline at end of file\n"
	}
	return lines
}

// Lines returns an edit script from a to b.
func Lines(a, b []string) []Op {
	// Trim the common prefix and suffix: conversions touch one region.
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	var ops []Op
	for _, l := range a[:pre] {
		ops = append(ops, Op{' ', l})
	}
	ops = append(ops, myers(a[pre:len(a)-suf], b[pre:len(b)-suf])...)
	for _, l := range a[len(a)-suf:] {
		ops = append(ops, Op{' ', l})
	}
	return ops
}

// myers is Myers' O(ND) shortest edit script, keeping one V per step.
func myers(a, b []string) []Op {
	n, m := len(a), len(b)
	if n == 0 || m == 0 {
		return replaceAll(a, b)
	}
	maxD := n + m
	if maxD > maxDiffEdits {
		maxD = maxDiffEdits
	}
	off := maxD + 1
	v := make([]int32, 2*maxD+3)
	var trace [][]int32
	found := -1
	for d := 0; d <= maxD && found < 0; d++ {
		snap := make([]int32, 2*d+1)
		for k := -d; k <= d; k += 2 {
			var x int
			if k == -d || (k != d && v[off+k-1] < v[off+k+1]) {
				x = int(v[off+k+1])
			} else {
				x = int(v[off+k-1]) + 1
			}
			y := x - k
			for x < n && y < m && a[x] == b[y] {
				x++
				y++
			}
			v[off+k] = int32(x) //nolint:gosec // x is a line index of one file, far below 2^31. //nolint:gosec // x is a line index of one file, far below 2^31.
			if x >= n && y >= m {
				found = d
			}
		}
		for k := -d; k <= d; k++ {
			snap[k+d] = v[off+k]
		}
		trace = append(trace, snap)
	}
	if found < 0 {
		return replaceAll(a, b)
	}
	// Walk back through the trace: at step d, the point (x, y) was reached
	// from the end of step d-1 on diagonal pk by one edit, then a snake.
	var rev []Op
	x, y := n, m
	for d := found; d > 0; d-- {
		prev := trace[d-1]
		get := func(k int) int { return int(prev[k+d-1]) }
		k := x - y
		pk := k - 1
		if k == -d || (k != d && get(k-1) < get(k+1)) {
			pk = k + 1
		}
		px := get(pk)
		py := px - pk
		for x > px && y > py {
			rev = append(rev, Op{' ', a[x-1]})
			x--
			y--
		}
		if x == px {
			rev = append(rev, Op{'+', b[y-1]})
		} else {
			rev = append(rev, Op{'-', a[x-1]})
		}
		x, y = px, py
	}
	for x > 0 && y > 0 {
		rev = append(rev, Op{' ', a[x-1]})
		x--
		y--
	}
	ops := make([]Op, len(rev))
	for i := range rev {
		ops[len(rev)-1-i] = rev[i]
	}
	return ops
}

func replaceAll(a, b []string) []Op {
	ops := make([]Op, 0, len(a)+len(b))
	for _, l := range a {
		ops = append(ops, Op{'-', l})
	}
	for _, l := range b {
		ops = append(ops, Op{'+', l})
	}
	return ops
}

// writeHunks writes the edit script as unified-diff hunks.
func writeHunks(sb *strings.Builder, ops []Op, context int) {
	i := 0
	aLine, bLine := 1, 1
	// Positions (in a and b) of every op.
	type pos struct{ a, b int }
	at := make([]pos, len(ops)+1)
	for j, op := range ops {
		at[j] = pos{aLine, bLine}
		switch op.Kind {
		case ' ':
			aLine++
			bLine++
		case '-':
			aLine++
		case '+':
			bLine++
		}
	}
	at[len(ops)] = pos{aLine, bLine}
	for i < len(ops) {
		// Find the next change.
		for i < len(ops) && ops[i].Kind == ' ' {
			i++
		}
		if i >= len(ops) {
			return
		}
		start := i - context
		if start < 0 {
			start = 0
		}
		// Extend while changes are within 2*context of each other.
		end := i
		for {
			for end < len(ops) && ops[end].Kind != ' ' {
				end++
			}
			j := end
			for j < len(ops) && ops[j].Kind == ' ' && j-end < 2*context {
				j++
			}
			if j < len(ops) && ops[j].Kind != ' ' {
				end = j
				continue
			}
			break
		}
		stop := end + context
		if stop > len(ops) {
			stop = len(ops)
		}
		var aCount, bCount int
		for _, op := range ops[start:stop] {
			if op.Kind != '+' {
				aCount++
			}
			if op.Kind != '-' {
				bCount++
			}
		}
		fmt.Fprintf(sb, "@@ -%s +%s @@\n", hunkRange(at[start].a, aCount), hunkRange(at[start].b, bCount))
		for _, op := range ops[start:stop] {
			sb.WriteByte(op.Kind)
			sb.WriteString(op.Line)
		}
		i = stop
	}
}

func hunkRange(start, count int) string {
	switch count {
	case 0:
		return fmt.Sprintf("%d,0", start-1)
	case 1:
		return fmt.Sprintf("%d", start)
	}
	return fmt.Sprintf("%d,%d", start, count)
}
