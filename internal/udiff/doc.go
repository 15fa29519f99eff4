// Package udiff writes unified diffs of two texts (Myers' algorithm, three
// lines of context, diff(1)'s "\ No newline at end of file" marker), and
// gives the line edit script behind them to other views of a change.
package udiff
