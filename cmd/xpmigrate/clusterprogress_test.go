package main

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/xpmigrate/xpmigrate/internal/cluster"
	"github.com/xpmigrate/xpmigrate/internal/progress"
)

func TestBarLine(t *testing.T) {
	cases := map[string]struct {
		reason  string
		checked int
		total   int
		known   bool
		bound   bool
		elapsed time.Duration
		width   int
		want    string
	}{
		"Start": {
			reason: "Nothing checked yet: an empty bar and no rate.",
			total:  40, known: true, width: 80,
			want: "[>                       ] 0/40 XRs xdisks",
		},
		"Half": {
			reason:  "Half the XRs: half the bar, the count and the rate.",
			checked: 20, total: 40, known: true, elapsed: 4 * time.Second, width: 80,
			want: "[============>           ] 20/40 XRs, 5.0/s xdisks",
		},
		"Done": {
			reason:  "Every XR: a full bar.",
			checked: 40, total: 40, known: true, elapsed: 8 * time.Second, width: 80,
			want: "[========================] 40/40 XRs, 5.0/s xdisks",
		},
		"UpperBound": {
			reason:  "While pages are still to be listed, the total is an upper bound.",
			checked: 3, total: 12, known: true, bound: true, elapsed: time.Second, width: 80,
			want: "[======>                 ] 3/≤12 XRs, 3.0/s xdisks",
		},
		"NoXRs": {
			reason: "A kind without XRs that run the Composition: a full bar at 0/0.",
			known:  true, width: 80,
			want: "[========================] 0/0 XRs xdisks",
		},
		"UnknownTotal": {
			reason:  "Without a total from the API server: a counter and the rate.",
			checked: 7, elapsed: 2 * time.Second, width: 80,
			want: "7 XRs checked, 3.5/s xdisks",
		},
		"Narrow": {
			reason:  "A narrow terminal cuts the line, never wraps it.",
			checked: 20, total: 40, known: true, elapsed: 4 * time.Second, width: 20,
			want: "[============>    …",
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got := barLine("xdisks", tc.checked, tc.total, tc.known, tc.bound, tc.elapsed, tc.width)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s\nbarLine(...): -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}

// fakeClock advances by step on every reading.
type fakeClock struct {
	t    time.Time
	step time.Duration
}

func (c *fakeClock) now() time.Time {
	c.t = c.t.Add(c.step)
	return c.t
}

func testProgress(tty bool, step time.Duration) (*clusterProgress, *bytes.Buffer) {
	var b bytes.Buffer
	c := &fakeClock{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), step: step}
	return &clusterProgress{line: progress.New(&b, tty, 80), now: c.now}, &b
}

// TestClusterProgressTTY: on a terminal the bar is redrawn in place, its
// total from the listing less the XRs skipped, and gives way to a final
// line per Composition; another Composition's listing starts a new bar.
func TestClusterProgressTTY(t *testing.T) {
	p, b := testProgress(true, time.Second)
	p.Start("a.yaml")
	p.Listed(cluster.Listing{Composition: "a", Listed: 2, Skipped: 1, Total: 4})
	p.Checked(1)
	p.Listed(cluster.Listing{Composition: "a", Listed: 4, Skipped: 1, Total: 4, Complete: true})
	p.Checked(2)
	p.Checked(3)
	p.Listed(cluster.Listing{Composition: "b", Listed: 1, Total: 1, Complete: true})
	p.Checked(1)
	p.Finish()
	got := strings.Split(b.String(), "\r\x1b[K")
	want := []string{
		"",
		// Before the listing: a counter.
		"0 XRs checked a.yaml",
		// One XR of four skipped, one more page to list.
		"[========>               ] 1/≤3 XRs, 1.0/s a.yaml",
		"[================>       ] 2/3 XRs, 1.0/s a.yaml",
		"[========================] 3/3 XRs, 1.0/s a.yaml",
		"a.yaml: checked 3 XRs in 4s, 0.8/s\n",
		"[>                       ] 0/1 XRs b",
		"[========================] 1/1 XRs, 1.0/s b",
		"b: checked 1 XR in 2s, 0.5/s\n",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("progress on a terminal: -want, +got:\n%s", diff)
	}
}

// TestClusterProgressPlain: without a terminal, a plain line at most every
// plainEvery, and nothing for a short run.
func TestClusterProgressPlain(t *testing.T) {
	p, b := testProgress(false, 4*time.Second)
	p.Start("a.yaml")
	p.Listed(cluster.Listing{Composition: "a", Listed: 250, Skipped: 10, Total: 1000})
	for i := 1; i <= 6; i++ {
		p.Checked(i)
	}
	p.Finish()
	want := "a.yaml: checked 3 of at most 990 XRs, 0.2/s\na.yaml: checked 6 of at most 990 XRs, 0.2/s\n"
	if diff := cmp.Diff(want, b.String()); diff != "" {
		t.Errorf("plain progress: -want, +got:\n%s", diff)
	}

	p, b = testProgress(false, time.Second)
	p.Start("a.yaml")
	p.Listed(cluster.Listing{Composition: "a", Listed: 2, Total: 2, Complete: true})
	p.Checked(1)
	p.Checked(2)
	p.Finish()
	if b.Len() != 0 {
		t.Errorf("plain progress of a short run: %q, want nothing", b.String())
	}
}
